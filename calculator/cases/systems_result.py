"""Per-case outcomes of several systems: the validated result.

:class:`SystemCases` holds the n x k outcome array that :func:`calculator.compare_systems` takes,
with the rows read, used and excluded by reason. Rows are excluded through the one ledger of
both readers, :class:`~calculator.cases.ledger.RecordLedger` (importable from here too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import CaseIssue
from calculator.cases.ledger import RecordLedger  # the one ledger, kept importable from here
from calculator.errors import CalculatorError

if TYPE_CHECKING:
    import pandas as pd

    from calculator.compare import SystemComparison

__all__ = ["SYSTEM_EXCLUSION_REASONS", "LAYOUTS", "RecordLedger", "SystemCases"]

#: Why rows are left out, in the order a row's first problem is attributed: lines that could
#: not be read, a missing value, an outcome that cannot be read, an (id, system) pair given more
#: than once, a system that was not chosen (long files), a case that has no row at all for some
#: chosen system, and a case whose row for another system was left out.
SYSTEM_EXCLUSION_REASONS = (
    "malformed_line",
    "missing_value",
    "unparseable_outcome",
    "duplicate_id",
    "other_system",
    "missing_system",
    "partner_excluded",
)
#: Input shapes: one row per case with a column per system, one row per (case, system), or one
#: file per system.
LAYOUTS = ("wide", "long", "files")


@dataclass(frozen=True, slots=True, kw_only=True)
class SystemCases:
    """Per-case outcomes of k systems, validated, with one row per case used.

    Attributes
    ----------
    names : tuple of str
        The systems, in the order of the columns of `outcomes`.
    layout : {"wide", "long", "files"}
        How the input was shaped.
    files : tuple of str
        The file names read.
    id_column, system_column : str or None
        The case id column (None: a wide file's rows are numbered) and, for a long file, the
        column naming the system.
    outcome_columns : tuple of str
        Wide: one column per system; long: the one outcome column; files: each file's column.
    threshold : float or None
        Scores at or above it pass; None when outcomes are pass/fail values.
    rows_read, rows_used : int
        Rows read (lines that could not be read included) and rows analysed; in a long file or
        one file per system each case uses k rows. ``rows_read == rows_used +
        sum(excluded.values())``.
    excluded : dict
        Rows left out by reason (:data:`SYSTEM_EXCLUSION_REASONS`), each under its first one.
    cases_missing_system, cases_with_excluded_row : int
        Cases dropped because some chosen system has no row for them at all, and because their
        row for some system was left out for a problem (long files, one file per system).
    issues : tuple of CaseIssue
        Every finding, with its count and first offending rows.
    case_ids : pandas.Series
        The id of each case used (text), aligned with the rows of `outcomes`.
    outcomes : numpy.ndarray of bool, shape (n, k)
        True where the system passes the case.
    """

    names: tuple[str, ...]
    layout: str
    files: tuple[str, ...]
    id_column: str | None
    system_column: str | None
    outcome_columns: tuple[str, ...]
    threshold: float | None
    rows_read: int
    rows_used: int
    excluded: Mapping[str, int]
    cases_missing_system: int
    cases_with_excluded_row: int
    issues: tuple[CaseIssue, ...]
    case_ids: pd.Series = field(repr=False)
    outcomes: np.ndarray = field(repr=False)

    @property
    def n(self) -> int:
        """Cases used (each with an outcome for every system)."""
        return int(self.outcomes.shape[0])

    def compare(self, **options: object) -> SystemComparison:
        """:func:`calculator.compare_systems` on these cases (`options` passed on).

        Raises
        ------
        ValueError
            When no case has a usable outcome for every system.
        """
        from calculator.compare import compare_systems

        if self.n == 0:
            raise CalculatorError(
                f"{', '.join(self.files)}: no case has a usable outcome for every one of the "
                f"{len(self.names)} systems; see the findings for the rows left out."
            )
        return compare_systems(self.outcomes, self.names, **options)

    def input_summary(self) -> dict[str, object]:
        """Rows read, used and excluded by reason, with every finding, as plain JSON types."""
        return {
            "layout": self.layout,
            "files": list(self.files),
            "columns": {
                "id": self.id_column,
                "system": self.system_column,
                "outcomes": list(self.outcome_columns),
            },
            "systems": list(self.names),
            "threshold": self.threshold,
            "rows_read": self.rows_read,
            "rows_used": self.rows_used,
            "cases_used": self.n,
            "cases_missing_system": self.cases_missing_system,
            "cases_with_excluded_row": self.cases_with_excluded_row,
            "excluded": dict(self.excluded),
            "issues": [issue.to_dict() for issue in self.issues],
        }
