"""The paired result: :class:`PairedCases`, the cases used, their 2 x 2 table and every finding."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import CaseIssue
from calculator.cases.ids import group_codes
from calculator.clustered import cluster_discordant_counts
from calculator.errors import CalculatorError
from calculator.table import PairedTable

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PairedCases"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PairedCases:
    """Per-case outcomes of two systems, paired and validated, with their paired 2 x 2 table.

    Attributes
    ----------
    names : (str, str)
        Names of systems A and B.
    files : tuple of str
        The file names read (one or two).
    id_column, group_column : str or None
        The columns used (None: no id column, rows are numbered; no clusters).
    outcome_columns : (str, str)
        The outcome columns of A and B as named in the file(s).
    threshold : float or None
        Scores at or above it pass; None when outcomes are pass/fail values.
    table : PairedTable
        Both pass, only A passes, only B passes, both fail, over the cases used; counted by
        :meth:`PairedTable.from_outcomes` from `a_pass` and `b_pass`.
    rows_read, rows_used : int
        Rows in the file(s) (lines that could not be read included) and rows analysed; with two
        files a case uses one row of each.
    excluded : dict
        Rows left out by reason (:data:`EXCLUSION_REASONS`); each row counts once, under its
        first problem in that order, so ``rows_read == rows_used + sum(excluded.values())``.
    issues : tuple of CaseIssue
        Every finding, with its count and first offending rows. A row with several problems
        appears under each.
    cases : pandas.DataFrame
        The cases used, in file order: the id, the two outcome columns as read, the group
        column, then the other columns.
    a_pass, b_pass : numpy.ndarray
        Whether A (B) passes each case, aligned with `cases`.
    """

    names: tuple[str, str]
    files: tuple[str, ...]
    id_column: str | None
    outcome_columns: tuple[str, str]
    group_column: str | None
    threshold: float | None
    table: PairedTable
    rows_read: int
    rows_used: int
    excluded: Mapping[str, int]
    issues: tuple[CaseIssue, ...]
    cases: pd.DataFrame = field(repr=False)
    a_pass: np.ndarray = field(repr=False)
    b_pass: np.ndarray = field(repr=False)

    @property
    def a(self) -> int:
        """Cases both systems pass."""
        return self.table.a

    @property
    def b(self) -> int:
        """Cases only A passes."""
        return self.table.b

    @property
    def c(self) -> int:
        """Cases only B passes."""
        return self.table.c

    @property
    def d(self) -> int:
        """Cases both systems fail."""
        return self.table.d

    @property
    def n(self) -> int:
        """Cases used."""
        return self.table.n

    @property
    def counts(self) -> tuple[int, int, int, int]:
        """(a, b, c, d), ready for :func:`calculator.analyze`."""
        return self.a, self.b, self.c, self.d

    def only_a(self) -> pd.DataFrame:
        """The cases only A passes (cell b), with every column."""
        return self.cases[self.a_pass & ~self.b_pass]

    def only_b(self) -> pd.DataFrame:
        """The cases only B passes (cell c), with every column."""
        return self.cases[self.b_pass & ~self.a_pass]

    def cluster_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-cluster discordant counts (b_i, c_i), as `clustered_mcnemar` takes them.

        Raises
        ------
        ValueError
            If no group column was chosen.
        """
        if self.group_column is None:
            raise CalculatorError("No group column was chosen, so the cases have no clusters.")
        codes = group_codes(self.cases[self.group_column].astype("str"))
        return cluster_discordant_counts(self.a_pass, self.b_pass, codes)

    def input_summary(self) -> dict[str, object]:
        """Rows read, used and excluded by reason, with every finding, as plain JSON types."""
        return {
            "files": list(self.files),
            "columns": {
                "id": self.id_column,
                "A": self.outcome_columns[0],
                "B": self.outcome_columns[1],
                "group": self.group_column,
            },
            "threshold": self.threshold,
            "rows_read": self.rows_read,
            "rows_used": self.rows_used,
            "cases_used": self.n,
            "excluded": dict(self.excluded),
            "issues": [issue.to_dict() for issue in self.issues],
        }
