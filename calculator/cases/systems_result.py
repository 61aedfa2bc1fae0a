"""Per-case outcomes of several systems: the validated result, and the ledger of excluded rows.

:class:`SystemCases` holds the n x k outcome array that :func:`calculator.compare_systems` takes,
with the rows read, used and excluded by reason. :class:`RecordLedger` keeps, for every row read
(across files), its first reason for being left out, and records one finding per problem and
file, as :class:`~calculator.cases.ledger.RowLedger` does for the two-system reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import EXAMPLES, CaseIssue, OffendingRow, clip
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


class RecordLedger:
    """Rows of one or more files: each row's first reason for being left out, and the findings.

    Parameters
    ----------
    files : sequence of str
        The file names, for the findings.
    file_of_row : numpy.ndarray of int
        For every row read, the index of its file in `files`.
    row_number : callable
        Position -> the row's number in its file (from 1); called for the examples only, so
        the numbers of millions of rows are never held.
    case_id : callable
        Position -> the row's case id as text (or None), for the examples.
    """

    __slots__ = ("_files", "_file_of_row", "_rows", "_case_id", "_reason", "_issues")

    def __init__(
        self,
        files: Sequence[str],
        file_of_row: np.ndarray,
        row_number: Callable[[int], int],
        case_id: Callable[[int], str | None],
    ) -> None:
        self._files = tuple(files)
        self._file_of_row = file_of_row
        self._rows = row_number
        self._case_id = case_id
        self._reason = np.zeros(len(file_of_row), dtype=np.int8)  # 0 = kept
        self._issues: list[CaseIssue] = []

    @property
    def kept(self) -> np.ndarray:
        """True for each row not excluded so far."""
        return self._reason == 0

    @property
    def issues(self) -> tuple[CaseIssue, ...]:
        """The findings, in the order they were found."""
        return tuple(self._issues)

    def add_issues(self, issues: Sequence[CaseIssue]) -> None:
        """Record findings made before the rows were known (lines that could not be read)."""
        self._issues.extend(issues)

    def excluded_counts(self, unread_rows: int) -> dict[str, int]:
        """Rows excluded by reason, every reason present, `unread_rows` as malformed lines."""
        codes = np.bincount(self._reason, minlength=len(SYSTEM_EXCLUSION_REASONS) + 1)
        counts = {
            reason: int(codes[code]) for code, reason in enumerate(SYSTEM_EXCLUSION_REASONS, 1)
        }
        counts["malformed_line"] += unread_rows
        return counts

    def exclude(
        self,
        mask: np.ndarray,
        kind: str,
        column: str | None,
        message: Callable[[str, np.ndarray], str],
        value: Callable[[int], str],
    ) -> None:
        """Exclude the rows in `mask` for `kind` (unless already excluded); one finding per file.

        `message(file_name, file_mask)` words the finding; `value(position)` is the text shown
        for an offending row.
        """
        if not mask.any():
            return
        code = SYSTEM_EXCLUSION_REASONS.index(kind) + 1
        self._reason[mask & (self._reason == 0)] = code
        for index, name in enumerate(self._files):
            in_file = mask & (self._file_of_row == index) if len(self._files) > 1 else mask
            count = int(np.count_nonzero(in_file))
            if not count:
                continue
            positions = _first_positions(in_file, EXAMPLES)
            examples = tuple(
                OffendingRow(int(self._rows(int(p))), self._case_id(int(p)), clip(value(int(p))))
                for p in positions
            )
            self._issues.append(
                CaseIssue(
                    kind=kind,
                    file=name,
                    column=column,
                    count=count,
                    examples=examples,
                    message=message(name, in_file),
                )
            )


def _first_positions(mask: np.ndarray, limit: int) -> np.ndarray:
    """The first `limit` positions where `mask` is True, without indexing the whole mask.

    Examples
    --------
    >>> _first_positions(np.array([False, True, True, False, True]), 2).tolist()
    [1, 2]
    """
    found: list[np.ndarray] = []
    total, block = 0, 1 << 16
    for start in range(0, len(mask), block):
        hits = np.flatnonzero(mask[start : start + block])
        if len(hits):
            found.append(hits[: limit - total] + start)
            total += len(found[-1])
            if total >= limit:
                break
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)
