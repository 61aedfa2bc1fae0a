"""Exclusion bookkeeping for one file: each row's first reason for being left out, every finding.

A :class:`RowLedger` changes only through its own methods: each check (ids, outcomes, groups)
marks the rows it excludes and records one finding with the first offending rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import (
    EXAMPLES,
    EXCLUSION_REASONS,
    CaseIssue,
    OffendingRow,
    cell_text,
    many,
)
from calculator.cases.ids import dense_codes, id_text
from calculator.cases.outcomes import parse_outcomes

if TYPE_CHECKING:
    import pandas as pd

    from calculator.cases.reading import CaseFile

__all__ = ["RowLedger"]


class RowLedger:
    """Which rows of one file are kept, why the others are not, and the findings so far.

    Each row is excluded under its first problem, in the order the checks run; a finding lists
    every row with its problem, so a row with two problems appears under both.

    Examples
    --------
    >>> from calculator.cases.reading import read_case_file
    >>> ledger = RowLedger(read_case_file(b"id,a\\nq1,1\\nq1,0\\nq3,x\\n", name="r.csv"))
    >>> ledger.read_ids("id")
    >>> ledger.read_outcomes("a", None).tolist(), ledger.kept.tolist()
    ([True, False, False], [False, False, False])
    >>> ledger.excluded_counts()["duplicate_id"], [issue.kind for issue in ledger.issues]
    (2, ['duplicate_id', 'unparseable_outcome'])
    """

    __slots__ = ("_file", "_reason", "_issues", "_ids", "_id_missing")

    def __init__(self, case_file: CaseFile) -> None:
        self._file = case_file
        self._reason = np.zeros(len(case_file.frame), dtype=np.int8)  # 0 = kept
        self._issues: list[CaseIssue] = list(case_file.issues)
        self._ids: pd.Series | None = None
        self._id_missing = np.zeros(len(case_file.frame), dtype=bool)

    @property
    def file(self) -> CaseFile:
        """The file whose rows are kept or excluded."""
        return self._file

    @property
    def kept(self) -> np.ndarray:
        """True for each row not excluded so far."""
        return self._reason == 0

    @property
    def ids(self) -> pd.Series:
        """The normalised id of every row (positional index); :meth:`read_ids` comes first."""
        if self._ids is None:
            raise RuntimeError("read_ids() must run before the ids are used.")
        return self._ids

    @property
    def id_missing(self) -> np.ndarray:
        """True for each row without an id."""
        return self._id_missing

    @property
    def issues(self) -> tuple[CaseIssue, ...]:
        """The file's findings (lines not read first), in the order they were found."""
        return tuple(self._issues)

    def excluded_counts(self) -> dict[str, int]:
        """Rows excluded by reason, malformed lines included, every reason present."""
        codes = np.bincount(self._reason, minlength=len(EXCLUSION_REASONS) + 1)
        counts = {reason: int(codes[code]) for code, reason in enumerate(EXCLUSION_REASONS, 1)}
        counts["malformed_line"] += self._file.unread_rows
        return counts

    def kept_ids(self, index: pd.Index) -> pd.Series:
        """The normalised ids of the kept rows, on `index` (the kept rows' index)."""
        kept = self.kept
        ids = self.ids if kept.all() else self.ids[kept]
        return ids.set_axis(index)

    def exclude(self, mask: np.ndarray, kind: str, column: str, message: str) -> None:
        """Exclude the rows in `mask` for `kind` (if not already excluded) and record a finding."""
        count = int(mask.sum())
        if not count:
            return
        code = EXCLUSION_REASONS.index(kind) + 1
        self._reason = np.where((self._reason == 0) & mask, code, self._reason)
        positions = np.flatnonzero(mask)[:EXAMPLES]
        rows = self._file.frame.index[positions]
        shown = self._file.frame[column]
        examples = tuple(
            OffendingRow(
                int(row),
                None if self._ids is None else cell_text(self._ids.iloc[position]),
                cell_text(shown.iloc[position]),
            )
            for row, position in zip(rows, positions, strict=True)
        )
        self._issues.append(
            CaseIssue(
                kind=kind,
                file=self._file.name,
                column=column,
                count=count,
                examples=examples,
                message=message,
            )
        )

    def read_ids(self, column: str) -> None:
        """Normalise the ids of `column`; exclude rows without one and every copy of a repeat."""
        ids, missing = id_text(self._file.frame[column])
        self._ids, self._id_missing = ids, missing
        name = self._file.name
        self.exclude(
            missing,
            "missing_value",
            column,
            f"{name}: {many(int(missing.sum()), 'row')} without an id in {column!r}.",
        )
        codes = np.full(len(ids), -1, dtype=np.int64)
        codes[~missing] = dense_codes(ids[~missing] if missing.any() else ids)
        occurrences = np.bincount(codes[codes >= 0], minlength=1)
        duplicated = (codes >= 0) & (occurrences[np.maximum(codes, 0)] > 1)
        if duplicated.any():
            distinct = int(np.count_nonzero(occurrences > 1))
            self.exclude(
                duplicated,
                "duplicate_id",
                column,
                f"{name}: {many(distinct, 'id')} occurring more than once "
                f"({many(int(duplicated.sum()), 'row')}); "
                "every copy left out, as the pairing is ambiguous.",
            )

    def read_outcomes(self, column: str, threshold: float | None) -> np.ndarray:
        """Whether each row passes; rows without a readable outcome are excluded."""
        parsed = parse_outcomes(self._file.frame[column], threshold=threshold)
        name = self._file.name
        self.exclude(
            parsed.missing,
            "missing_value",
            column,
            f"{name}: {many(int(parsed.missing.sum()), 'row')} without a value in {column!r}.",
        )
        if threshold is None:
            allowed = (
                "1/0, true/false, pass/fail, yes/no or correct/wrong; for scores set a threshold"
            )
        else:
            allowed = f"numbers (scores at or above {threshold:g} pass)"
        self.exclude(
            parsed.unparseable,
            "unparseable_outcome",
            column,
            f"{name}: {many(int(parsed.unparseable.sum()), 'value')} in {column!r} not read as "
            f"an outcome; "
            f"allowed: {allowed}.",
        )
        return parsed.passed

    def read_groups(self, column: str) -> None:
        """Exclude the rows without a group label in `column`."""
        values = self._file.frame[column]
        missing = values.isna().to_numpy(dtype=bool) | (
            values.astype("str").str.strip() == ""
        ).to_numpy(dtype=bool, na_value=False)
        self.exclude(
            missing,
            "missing_value",
            column,
            f"{self._file.name}: {many(int(missing.sum()), 'row')} without a group in {column!r}.",
        )
