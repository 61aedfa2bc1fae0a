"""Validation findings: one :class:`CaseIssue` per problem, and :class:`CaseFileError` for the
problems that stop the analysis.

Counts with their noun and clipped values are worded by :mod:`calculator.text`, as everywhere.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from calculator.errors import CalculatorError
from calculator.text import clip

__all__ = [
    "EXCLUSION_REASONS",
    "EXAMPLES",
    "OffendingRow",
    "CaseIssue",
    "CaseFileError",
    "fatal",
    "cell_text",
    "is_missing_cell",
    "first_line",
]

#: Why rows are left out of the analysis, in the order a row's first problem is attributed.
EXCLUSION_REASONS = (
    "malformed_line",
    "missing_value",
    "unparseable_outcome",
    "duplicate_id",
    "id_in_one_file_only",
    "partner_excluded",
)

#: Offending rows kept as examples per finding.
EXAMPLES = 5

# Findings whose examples are numbered by file line, or by column, rather than by data row.
_LINE_KINDS = ("malformed_line", "binary_file", "wrong_delimiter", "multiline_cell")
_COLUMN_KINDS = ("renamed_column", "too_many_columns")


class OffendingRow(NamedTuple):
    """One example of a problem: the row (or file line) number, the case id, the value."""

    row: int
    case_id: str | None
    value: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseIssue:
    """One validation finding about the input.

    Attributes
    ----------
    kind : str
        One of :data:`EXCLUSION_REASONS` (rows left out, the rest is analysed); a note that
        leaves every row in: "multiline_cell" (a quoted cell runs over several lines),
        "renamed_column" (a column name repeated, empty, or holding control or text-direction
        characters), "renamed_system" (a system's name cut to the name limit, numbered to stay
        distinct, or escaped); or a file-level problem that stops the analysis: "too_large",
        "too_many_columns", "empty_file", "header_only", "binary_file", "wrong_delimiter",
        "unreadable_file", "missing_column", "same_file".
    file : str
        The file's name.
    column : str or None
        The column concerned, if any.
    count : int
        How many rows (or lines, or bytes for "binary_file" and "too_large") are affected.
    examples : tuple of OffendingRow
        The first few offending rows. ``row`` counts data rows from 1 (the header is not a row);
        for "malformed_line", "binary_file", "wrong_delimiter" and "multiline_cell" it is the
        file's line instead, and for "renamed_column" the column's position from 1.
    message : str
        One line saying what is wrong and what to do.
    fatal : bool
        True when nothing can be analysed.

    Examples
    --------
    >>> issue = CaseIssue(kind="missing_value", file="runs.csv", column="acc", count=1,
    ...                   examples=(OffendingRow(4, "q4", ""),), message="runs.csv: ...")
    >>> issue.row_label, issue.to_dict()["first_rows"]
    ('row', [{'row': 4, 'case_id': 'q4', 'value': ''}])
    """

    kind: str
    file: str
    column: str | None
    count: int
    examples: tuple[OffendingRow, ...] = ()
    message: str
    fatal: bool = False

    @property
    def row_label(self) -> str:
        """ "line" or "column" where the examples are numbered so, else "row"."""
        if self.kind in _COLUMN_KINDS:
            return "column"
        return "line" if self.kind in _LINE_KINDS else "row"

    def to_dict(self) -> dict[str, object]:
        """The finding as plain JSON types."""
        return {
            "kind": self.kind,
            "file": self.file,
            "column": self.column,
            "count": self.count,
            "first_rows": [example._asdict() for example in self.examples],
            "message": self.message,
            "fatal": self.fatal,
        }


class CaseFileError(CalculatorError):
    """An input that cannot be analysed at all; ``issue`` holds the finding.

    A :class:`~calculator.errors.CalculatorError`, so the command line reports it as a refusal.
    """

    def __init__(self, issue: CaseIssue) -> None:
        super().__init__(issue.message)
        self.issue = issue


def fatal(
    kind: str,
    file: str,
    message: str,
    *,
    count: int = 1,
    column: str | None = None,
    examples: tuple[OffendingRow, ...] = (),
) -> CaseFileError:
    """The error for a finding that stops the analysis (to be raised by the caller)."""
    return CaseFileError(
        CaseIssue(
            kind=kind,
            file=file,
            column=column,
            count=count,
            examples=examples,
            message=message,
            fatal=True,
        )
    )


def is_missing_cell(value: object) -> bool:
    """True for None, NaN and pandas' missing markers (NA, NaT); False for any other value."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    if np.ndim(value) != 0:
        return False
    import pandas as pd

    return bool(pd.isna(value))


def cell_text(value: object) -> str:
    """A cell as it is shown in a finding: "" when missing, else its text, clipped."""
    return "" if is_missing_cell(value) else clip(str(value))


def first_line(error: Exception) -> str:
    """The first line of an error's text, at most 200 characters."""
    return str(error).strip().split("\n")[0][:200]
