"""Exclusion bookkeeping, one ledger for every reader: each row's first reason for being left
out, and one finding per problem and file.

A :class:`RecordLedger` covers the rows of one file or of several (concatenated in file order),
and changes only through :meth:`RecordLedger.exclude`: a check marks the rows it excludes and
records, for each file concerned, one finding with its count, where the first offending row
is, and the first offending rows. The checks both readers make (ids, outcomes, groups) are in
:mod:`calculator.cases.row_checks`, worded once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import (
    EXAMPLES,
    EXCLUSION_REASONS,
    CaseIssue,
    OffendingRow,
    cell_text,
)
from calculator.cases.reading import CaseFile
from calculator.text import clip

if TYPE_CHECKING:
    from calculator.cases.ids import CaseIds

__all__ = ["RecordLedger"]

#: A finding's words for one file: a text, or a function of (file index, rows in that file).
Words = str | Callable[[int, int], str]


class RecordLedger:
    """Which rows of one or more files are kept, why the others are not, and the findings.

    Each row is excluded under its first problem, in the order the checks run; a finding lists
    every row with its problem, so a row with two problems appears under both.

    Parameters
    ----------
    files : CaseFile or sequence of CaseFile
        The files whose rows, concatenated in this order, the ledger covers; their own
        findings (lines not read, renamed columns) come first.
    reasons : tuple of str
        The exclusion reasons in the order a row's first problem is attributed
        (:data:`~calculator.cases.findings.EXCLUSION_REASONS` for two systems).

    Examples
    --------
    >>> from calculator.cases.ids import case_ids
    >>> from calculator.cases.reading import read_case_file
    >>> from calculator.cases.row_checks import exclude_bad_ids, exclude_bad_outcomes
    >>> ledger = RecordLedger(read_case_file(b"id,a\\nq1,1\\nq1,0\\nq3,x\\n", name="r.csv"))
    >>> ledger.use_ids(*case_ids((ledger.file, "id")), "id")
    >>> exclude_bad_outcomes(ledger, 0, "a", None).passed.tolist(), ledger.kept.tolist()
    ([True, False, False], [False, False, False])
    >>> ledger.excluded_counts()["duplicate_id"], [issue.kind for issue in ledger.issues]
    (2, ['duplicate_id', 'unparseable_outcome'])
    >>> print(ledger.issues[0].message)  # doctest: +NORMALIZE_WHITESPACE
    r.csv: 1 id repeated over 2 rows (the first on line 2); every copy left out, as the
    pairing is ambiguous.
    """

    __slots__ = ("_files", "_offsets", "_reasons", "_reason", "_issues", "_case_id", "_ids")

    def __init__(
        self, files: CaseFile | Sequence[CaseFile], *, reasons: tuple[str, ...] = EXCLUSION_REASONS
    ) -> None:
        self._files = (files,) if isinstance(files, CaseFile) else tuple(files)
        self._offsets = np.cumsum([0, *(len(f.frame) for f in self._files)])
        self._reasons = tuple(reasons)
        self._reason = np.zeros(int(self._offsets[-1]), dtype=np.int8)  # 0 = kept
        self._issues: list[CaseIssue] = [issue for f in self._files for issue in f.issues]
        self._case_id: Callable[[int], str | None] = lambda position: None
        self._ids: CaseIds | None = None

    @property
    def files(self) -> tuple[CaseFile, ...]:
        """The files whose rows are kept or excluded, in the order of their rows."""
        return self._files

    @property
    def file(self) -> CaseFile:
        """The one file of a ledger of one file."""
        if len(self._files) != 1:
            raise RuntimeError("this ledger covers several files; use `files`.")
        return self._files[0]

    @property
    def offsets(self) -> np.ndarray:
        """Where each file's rows start among the ledger's rows (and, last, their number)."""
        return self._offsets

    @property
    def kept(self) -> np.ndarray:
        """True for each row not excluded so far."""
        return self._reason == 0

    @property
    def ids(self) -> CaseIds:
        """The rows' ids, for a ledger of one file; :meth:`use_ids` comes first."""
        if self._ids is None:
            raise RuntimeError("use_ids() must run before the ids are used.")
        return self._ids

    @property
    def issues(self) -> tuple[CaseIssue, ...]:
        """The findings (the files' own first), in the order they were found."""
        return tuple(self._issues)

    def add_issues(self, issues: Sequence[CaseIssue]) -> None:
        """Record findings that exclude no row (notes about names)."""
        self._issues.extend(issues)

    def show_ids(self, case_id: Callable[[int], str | None]) -> None:
        """Show `case_id(position)` as the case id of each offending row from now on."""
        self._case_id = case_id

    def use_ids(self, ids: CaseIds, column: str) -> None:
        """Take one file's ids (from `column`); exclude rows without one and every repeated id."""
        from calculator.cases.row_checks import exclude_bad_ids

        self._ids = ids
        text = ids.text
        self.show_ids(lambda position: cell_text(text.iloc[position]))
        exclude_bad_ids(self, ids.codes, column)

    def excluded_counts(self) -> dict[str, int]:
        """Rows excluded by reason, every reason present, lines not read as malformed lines."""
        codes = np.bincount(self._reason, minlength=len(self._reasons) + 1)
        counts = {reason: int(codes[code]) for code, reason in enumerate(self._reasons, 1)}
        counts["malformed_line"] += sum(f.unread_rows for f in self._files)
        return counts

    def exclude(
        self,
        mask: np.ndarray,
        kind: str,
        column: str | None,
        what: Words,
        fix: Words | None = None,
        *,
        value: Callable[[int], str] | None = None,
    ) -> None:
        """Exclude the rows in `mask` for `kind` (unless already excluded); one finding per file.

        Each message is "<file>: <what> (the first on line L)[; <fix>]."; `what` and `fix`
        are texts or functions of (file index, rows in that file). `value(position)` is the
        text shown for an offending row (default: its cell in `column`).
        """
        if not mask.any():
            return
        code = self._reasons.index(kind) + 1
        self._reason[mask & (self._reason == 0)] = code
        for index, case_file in enumerate(self._files):
            start, stop = int(self._offsets[index]), int(self._offsets[index + 1])
            in_file = mask if len(self._files) == 1 else mask[start:stop]
            count = int(np.count_nonzero(in_file))
            if not count:
                continue
            positions = _first_positions(in_file, EXAMPLES)
            shown = value or _cells(case_file, column, start)
            examples = tuple(
                OffendingRow(
                    int(case_file.frame.index[p]),
                    self._case_id(start + int(p)),
                    clip(shown(start + int(p))),
                )
                for p in positions
            )
            text = what(index, count) if callable(what) else what
            remedy = fix(index, count) if callable(fix) else fix
            where = _where(case_file, int(positions[0]), count)
            self._issues.append(
                CaseIssue(
                    kind=kind,
                    file=case_file.name,
                    column=column,
                    count=count,
                    examples=examples,
                    message=f"{case_file.name}: {text} ({where})"
                    + (f"; {remedy}." if remedy else "."),
                )
            )


def _cells(case_file: CaseFile, column: str | None, start: int) -> Callable[[int], str]:
    """Position -> the cell of `column` in `case_file` (whose rows start at `start`)."""
    if column is None or column not in case_file.frame.columns:
        return lambda position: ""
    values = case_file.frame[column]
    return lambda position: cell_text(values.iloc[position - start])


def _where(case_file: CaseFile, position: int, count: int) -> str:
    line = case_file.line_of(position)
    place = f"line {line}" if line is not None else f"row {case_file.frame.index[position]}"
    return f"on {place}" if count == 1 else f"the first on {place}"


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
