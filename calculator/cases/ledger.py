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
from calculator.cases.outcomes import parse_outcomes

if TYPE_CHECKING:
    import pandas as pd

    from calculator.cases.ids import CaseIds
    from calculator.cases.reading import CaseFile

__all__ = ["RowLedger"]


class RowLedger:
    """Which rows of one file are kept, why the others are not, and the findings so far.

    Each row is excluded under its first problem, in the order the checks run; a finding lists
    every row with its problem, so a row with two problems appears under both.

    Examples
    --------
    >>> from calculator.cases.ids import case_ids
    >>> from calculator.cases.reading import read_case_file
    >>> ledger = RowLedger(read_case_file(b"id,a\\nq1,1\\nq1,0\\nq3,x\\n", name="r.csv"))
    >>> ledger.use_ids(*case_ids((ledger.file, "id")), "id")
    >>> ledger.read_outcomes("a", None).tolist(), ledger.kept.tolist()
    ([True, False, False], [False, False, False])
    >>> ledger.excluded_counts()["duplicate_id"], [issue.kind for issue in ledger.issues]
    (2, ['duplicate_id', 'unparseable_outcome'])
    >>> print(ledger.issues[0].message)  # doctest: +NORMALIZE_WHITESPACE
    r.csv: 1 id repeated over 2 rows (the first on line 2); every copy left out, as the
    pairing is ambiguous.
    """

    __slots__ = ("_file", "_reason", "_issues", "_ids")

    def __init__(self, case_file: CaseFile) -> None:
        self._file = case_file
        self._reason = np.zeros(len(case_file.frame), dtype=np.int8)  # 0 = kept
        self._issues: list[CaseIssue] = list(case_file.issues)
        self._ids: CaseIds | None = None

    @property
    def file(self) -> CaseFile:
        """The file whose rows are kept or excluded."""
        return self._file

    @property
    def kept(self) -> np.ndarray:
        """True for each row not excluded so far."""
        return self._reason == 0

    @property
    def ids(self) -> CaseIds:
        """The rows' ids; :meth:`use_ids` comes first."""
        if self._ids is None:
            raise RuntimeError("use_ids() must run before the ids are used.")
        return self._ids

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

    def exclude(
        self, mask: np.ndarray, kind: str, column: str, what: str, fix: str | None = None
    ) -> None:
        """Exclude the rows in `mask` for `kind` (if not already excluded) and record a finding.

        Its message is "<file>: <what> (the first on line L)[; <fix>]."
        """
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
                None if self._ids is None else cell_text(self._ids.text.iloc[position]),
                cell_text(shown.iloc[position]),
            )
            for row, position in zip(rows, positions, strict=True)
        )
        where = self._where(int(positions[0]), count)
        self._issues.append(
            CaseIssue(
                kind=kind,
                file=self._file.name,
                column=column,
                count=count,
                examples=examples,
                message=f"{self._file.name}: {what} ({where})" + (f"; {fix}." if fix else "."),
            )
        )

    def _where(self, position: int, count: int) -> str:
        line = self._file.line_of(position)
        place = f"line {line}" if line is not None else f"row {self._file.frame.index[position]}"
        return f"on {place}" if count == 1 else f"the first on {place}"

    def use_ids(self, ids: CaseIds, column: str) -> None:
        """Take the rows' ids (from `column`); exclude rows without one and every repeated id."""
        self._ids = ids
        missing = ids.missing
        self.exclude(
            missing,
            "missing_value",
            column,
            f"{many(int(missing.sum()), 'row')} without an id in {column!r}",
        )
        valid = ids.codes >= 0
        occurrences = np.bincount(ids.codes[valid], minlength=1)
        duplicated = valid & (occurrences[np.maximum(ids.codes, 0)] > 1)
        if duplicated.any():
            distinct = int(np.count_nonzero(occurrences > 1))
            self.exclude(
                duplicated,
                "duplicate_id",
                column,
                f"{many(distinct, 'id')} repeated over {many(int(duplicated.sum()), 'row')}",
                "every copy left out, as the pairing is ambiguous",
            )

    def read_outcomes(self, column: str, threshold: float | None) -> np.ndarray:
        """Whether each row passes; rows without a readable outcome are excluded."""
        values = self._file.frame[column]
        parsed = parse_outcomes(values, threshold=threshold)
        self.exclude(
            parsed.missing,
            "missing_value",
            column,
            f"{many(int(parsed.missing.sum()), 'row')} without a value in {column!r}",
        )
        count = int(parsed.unparseable.sum())
        if not count:
            return parsed.passed
        if threshold is None:
            allowed = (
                "1/0, true/false, pass/fail, yes/no or correct/wrong; for scores set a threshold"
            )
        else:
            allowed = f"numbers (scores at or above {threshold:g} pass)"
        seen = _first_values(values, parsed.unparseable)
        every = " (every value)" if count == len(values) - int(parsed.missing.sum()) else ""
        self.exclude(
            parsed.unparseable,
            "unparseable_outcome",
            column,
            f"{many(count, 'value')}{every} in {column!r} not read as an outcome",
            f"seen: {seen}; allowed: {allowed}",
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
            f"{many(int(missing.sum()), 'row')} without a group in {column!r}",
        )


def _first_values(values: pd.Series, mask: np.ndarray, limit: int = 3) -> str:
    """The first few distinct values where `mask` is set, quoted, for a message."""
    shown: list[str] = []
    for value in values.iloc[np.flatnonzero(mask)[:200]]:
        text = repr(cell_text(value))
        if text not in shown:
            shown.append(text)
        if len(shown) == limit:
            break
    return ", ".join(shown)
