"""Scores of several systems in one wide file (a row per case, a column per system).

:func:`load_system_scores` reads the columns named as systems and returns their scores when
they are scores (numbers, not all 0 or 1), for :func:`calculator.compare.friedman_compare`;
None when they read as pass/fail, which :func:`calculator.cases.multi.load_systems` reads.
A row enters only when every chosen system has a number on it; rows are left out, and
counted, for a missing value, a value that is not a number, or a case id given more than once
(every copy: which score counts would be a guess).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.bulk import SCORES, files_reading, require_clear
from calculator.cases.multi_checks import require_column
from calculator.cases.reading import read_case_file

if TYPE_CHECKING:
    from calculator.cases.reading import CaseFile

__all__ = ["SCORE_EXCLUSION_REASONS", "SystemScores", "load_system_scores"]

#: Why rows are left out, a row's first problem first.
SCORE_EXCLUSION_REASONS = ("malformed_line", "missing_value", "not_a_number", "duplicate_id")


@dataclass(frozen=True, slots=True, kw_only=True)
class SystemScores:
    """The n x k scores of the chosen systems, with the rows read, used and left out."""

    file: str
    id_column: str | None
    names: tuple[str, ...]
    scores: np.ndarray = field(repr=False)
    rows_read: int
    excluded: dict[str, int]

    @property
    def n(self) -> int:
        return int(self.scores.shape[0])

    @property
    def rows_used(self) -> int:
        return self.n

    def input_summary(self) -> dict[str, object]:
        """The JSON's "input": file, columns, rows read, used and left out by reason."""
        return {
            "files": [self.file],
            "layout": "wide",
            "id_column": self.id_column,
            "outcome_columns": list(self.names),
            "outcomes": "scores",
            "rows_read": self.rows_read,
            "rows_used": self.rows_used,
            "excluded": dict(self.excluded),
        }


def load_system_scores(
    source: str | bytes,
    *,
    systems: Sequence[str],
    id_column: str | None = None,
    file_name: str | None = None,
) -> SystemScores | None:
    """The chosen columns' scores, or None when every chosen column reads as 0/1 (pass/fail).

    Examples
    --------
    >>> data = b"id,a,b,c\\n1,0.5,0.2,0.9\\n2,0.1,,0.3\\n3,1,0,1\\n"
    >>> s = load_system_scores(data, systems=["a", "b", "c"], id_column="id", file_name="s.csv")
    >>> s.scores.tolist(), s.excluded["missing_value"], s.excluded["not_a_number"]
    ([[0.5, 0.2, 0.9], [1.0, 0.0, 1.0]], 1, 0)
    """
    import pandas as pd

    case_file = read_case_file(source, name=file_name)
    names = tuple(systems)
    for column in (id_column, *names):
        if column is not None:
            require_column(case_file, column)
    frame = case_file.frame
    raw = frame[list(names)]
    numbers = raw.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=np.float64)
    present = (raw.notna() & (raw.astype(str).apply(lambda c: c.str.strip()) != "")).to_numpy()
    readable = np.isfinite(numbers)
    reading = files_reading([case_file], [names])  # the one rule: the bulk of the columns
    if reading.kind != SCORES:
        return None  # pass/fail (or nothing readable): the pass/fail reader says which
    require_clear(reading, [case_file], [names])
    missing = ~present.all(axis=1)
    unreadable = ~missing & ~readable.all(axis=1)
    duplicate = np.zeros(len(frame), dtype=bool)
    if id_column is not None:
        duplicate = ~missing & ~unreadable & frame[id_column].duplicated(keep=False).to_numpy()
    keep = ~(missing | unreadable | duplicate)
    excluded = {
        "malformed_line": _unread(case_file),
        "missing_value": int(missing.sum()),
        "not_a_number": int(unreadable.sum()),
        "duplicate_id": int(duplicate.sum()),
    }
    return SystemScores(
        file=case_file.name,
        id_column=id_column,
        names=names,
        scores=numbers[keep],
        rows_read=len(frame) + excluded["malformed_line"],
        excluded=excluded,
    )


def _unread(case_file: CaseFile) -> int:
    return case_file.unread_rows
