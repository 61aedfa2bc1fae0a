"""One path from rows to cases for both readers: the two-system reader is the k-system reader
with k = 2.

:func:`read_wide` reads a file with one row per case and a column per system (two systems in one
file, or a wide file); :func:`join_rows` reads rows that each hold one system's outcome for one
case (one file per system, or a long file) and keeps the cases every system has. Both exclude
rows through one :class:`~calculator.cases.ledger.RecordLedger`, with the checks of
:mod:`calculator.cases.row_checks`. With ``pairing=True`` the exclusion reasons and the words
are the two-system reader's (:data:`~calculator.cases.findings.EXCLUSION_REASONS`, "ids absent
from the other file"), else the k-system reader's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import EXCLUSION_REASONS, CaseIssue, cell_text
from calculator.cases.ledger import RecordLedger
from calculator.cases.multi_checks import id_codes
from calculator.cases.row_checks import (
    exclude_bad_ids,
    exclude_bad_outcomes,
    exclude_missing_groups,
    exclude_missing_ids,
)
from calculator.cases.systems_result import SYSTEM_EXCLUSION_REASONS
from calculator.text import plural

if TYPE_CHECKING:
    import pandas as pd

    from calculator.cases.reading import CaseFile

__all__ = ["Joined", "Wide", "join_rows", "read_wide"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Wide:
    """A file read one row per case: the ledger, the ids, and each row's outcome per system.

    ``codes`` is None when the rows are numbered (no id column); ``lacking`` marks the rows with
    a missing outcome for some system.
    """

    ledger: RecordLedger
    codes: np.ndarray | None
    ids_of_codes: Callable[[np.ndarray], pd.Series] | None
    passed: np.ndarray
    lacking: np.ndarray


@dataclass(frozen=True, slots=True, kw_only=True)
class Joined:
    """Rows joined into cases: the ledger, each row's id code and outcome, and the n x k
    outcomes of the cases every system has (ids in order of first appearance)."""

    ledger: RecordLedger
    codes: np.ndarray
    ids_of_codes: Callable[[np.ndarray], pd.Series]
    passed: np.ndarray
    systems_present: np.ndarray
    complete: np.ndarray
    used_codes: np.ndarray
    outcomes: np.ndarray


def read_wide(
    case_file: CaseFile,
    columns: list[str],
    id_column: str | None,
    threshold: float | None,
    *,
    group_column: str | None = None,
    notes: tuple[CaseIssue, ...] = (),
    pairing: bool = False,
) -> Wide:
    """Exclude the rows without an id, with a repeated id, without a readable outcome in one of
    `columns`, or (with `group_column`) without a group, in that order."""
    ledger = RecordLedger(
        case_file, reasons=EXCLUSION_REASONS if pairing else SYSTEM_EXCLUSION_REASONS
    )
    codes, ids_of_codes = None, None
    if id_column is not None:
        codes, ids_of_codes, id_of_row = id_codes([case_file], id_column)
        ledger.show_ids(_shown_ids(id_of_row, pairing))
    ledger.add_issues(notes)
    if codes is not None:
        exclude_bad_ids(ledger, codes, id_column)
    rows = len(case_file.frame)
    passed = np.zeros((rows, len(columns)), dtype=bool)
    lacking = np.zeros(rows, dtype=bool)
    for j, column in enumerate(columns):
        parsed = exclude_bad_outcomes(ledger, 0, column, threshold)
        passed[:, j] = parsed.passed
        lacking |= parsed.missing
    if group_column is not None:
        exclude_missing_groups(ledger, 0, group_column)
    return Wide(
        ledger=ledger, codes=codes, ids_of_codes=ids_of_codes, passed=passed, lacking=lacking
    )


def join_rows(
    files: list[CaseFile],
    names: tuple[str, ...],
    systems: np.ndarray,
    id_column: str,
    outcome_columns: list[str],
    threshold: float | None,
    *,
    system_column: str | None = None,
    notes: tuple[CaseIssue, ...] = (),
    group: tuple[int, str] | None = None,
    pairing: bool = False,
) -> Joined:
    """Validate every (case, system) row, then keep the cases that have all k systems.

    `systems` gives each row's system (-1: no label, -2: a system not chosen); a row is left
    out for a missing id or system, a system not chosen, an (id, system) pair given twice, a
    missing or unreadable outcome, a missing group (`group`: the file index and column), a case
    with no row for some system, or a case whose row for another system was left out.
    """
    k = len(names)
    codes, ids_of_codes, id_of_row = id_codes(files, id_column)
    ledger = RecordLedger(files, reasons=_reasons(pairing))
    ledger.show_ids(_shown_ids(id_of_row, pairing))
    ledger.add_issues(notes)
    exclude_missing_ids(ledger, codes, id_column)
    if system_column is not None:
        ledger.exclude(
            systems == -1,
            "missing_value",
            system_column,
            lambda _, count: f"{plural(count, 'row')} without a system in {system_column!r}",
        )
        ledger.exclude(
            systems == -2,
            "other_system",
            system_column,
            lambda _, count: f"{plural(count, 'row')} of systems not chosen in {system_column!r}",
            "left out",
        )
    n_ids = max(int(codes.max(initial=-1)) + 1, 1)  # one slot at least: no id at all
    present_pairs, duplicated = _pairs_seen(codes, systems, n_ids, k)
    _exclude_repeated(ledger, duplicated, codes, id_column, names, systems, system_column)
    del duplicated
    passed = np.concatenate(
        [
            exclude_bad_outcomes(ledger, j, column, threshold).passed
            for j, column in enumerate(outcome_columns)
        ]
    )
    if group is not None:
        exclude_missing_groups(ledger, *group)
    systems_present = np.bincount(present_pairs // k, minlength=n_ids)
    complete = _exclude_incomplete(
        ledger, codes, systems, (present_pairs, systems_present), names, id_column, pairing
    )
    final = ledger.kept
    used_codes = np.flatnonzero(complete)  # codes number ids in order of first appearance
    case_of_code = np.full(n_ids, -1, dtype=np.int64)
    case_of_code[used_codes] = np.arange(len(used_codes))
    outcomes = np.zeros((len(used_codes), k), dtype=bool)
    outcomes[case_of_code[codes[final]], systems[final]] = passed[final]
    return Joined(
        ledger=ledger,
        codes=codes,
        ids_of_codes=ids_of_codes,
        passed=passed,
        systems_present=systems_present,
        complete=complete,
        used_codes=used_codes,
        outcomes=outcomes,
    )


def _reasons(pairing: bool) -> tuple[str, ...]:
    return EXCLUSION_REASONS if pairing else SYSTEM_EXCLUSION_REASONS


def _shown_ids(
    id_of_row: Callable[[int], str | None], pairing: bool
) -> Callable[[int], str | None]:
    """The case id shown for an offending row: the two-system reader shows "" for none."""
    if not pairing:
        return id_of_row
    return lambda position: cell_text(id_of_row(position))


def _exclude_repeated(
    ledger: RecordLedger,
    duplicated: np.ndarray,
    codes: np.ndarray,
    id_column: str,
    names: tuple[str, ...],
    systems: np.ndarray,
    system_column: str | None,
) -> None:
    """Exclude every copy of an (id, system) pair given twice: in a file per system, an id
    repeated in its file."""
    if system_column is not None:
        ledger.exclude(
            duplicated,
            "duplicate_id",
            id_column,
            lambda _, count: f"{plural(count, 'row')} sharing an id and a system with another row",
            "every copy left out, as the outcome to use would be a guess",
            value=lambda p: names[systems[p]],
        )
        return
    offsets = ledger.offsets

    def repeated(index: int, count: int) -> str:
        start, stop = int(offsets[index]), int(offsets[index + 1])
        ids = np.unique(codes[start:stop][duplicated[start:stop]]).size
        return f"{plural(ids, 'id')} repeated over {plural(count, 'row')}"

    ledger.exclude(
        duplicated,
        "duplicate_id",
        id_column,
        repeated,
        "every copy left out, as the pairing is ambiguous",
    )


def _exclude_incomplete(
    ledger: RecordLedger,
    codes: np.ndarray,
    systems: np.ndarray,
    seen: tuple[np.ndarray, np.ndarray],
    names: tuple[str, ...],
    id_column: str,
    pairing: bool,
) -> np.ndarray:
    """Exclude the kept rows of cases without a kept row for every system; which ids are
    complete (indexed by id code). `seen` holds the (id, system) pairs present and the number
    of systems with a row for each id."""
    present_pairs, systems_present = seen
    k = len(names)
    kept = ledger.kept
    complete = np.bincount(codes[kept], minlength=len(systems_present)) == k
    safe = np.maximum(codes, 0)
    stranded = kept & ~complete[safe]
    del kept
    lacking = stranded & (systems_present < k)[safe]
    del safe
    if pairing:  # two files: the other file's name says where the id or its partner is
        other = [case_file.name for case_file in reversed(ledger.files)]
        ledger.exclude(
            lacking,
            "id_in_one_file_only",
            id_column,
            lambda j, count: f"{plural(count, 'id')} absent from {other[j]}",
        )
        ledger.exclude(
            stranded & ~lacking,
            "partner_excluded",
            id_column,
            lambda j, count: (
                f"{plural(count, 'row')} whose partner row in {other[j]} was left "
                "out for a problem listed there"
            ),
        )
        return complete

    def absent(p: int) -> str:
        have = set((present_pairs[present_pairs // k == codes[p]] % k).tolist())
        return "no row for " + ", ".join(repr(names[j]) for j in range(k) if j not in have)

    ledger.exclude(
        lacking,
        "missing_system",
        id_column,
        lambda _, count: f"{plural(count, 'row')} of cases with no row at all for some system",
        "left out",
        value=absent,
    )
    ledger.exclude(
        stranded & ~lacking,
        "partner_excluded",
        id_column,
        lambda _, count: (
            f"{plural(count, 'row')} of cases whose row for another system was left "
            "out for a problem listed above"
        ),
        "left out too",
        value=lambda p: names[systems[p]],
    )
    return complete


def _pairs_seen(
    codes: np.ndarray, systems: np.ndarray, n_ids: int, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """The (id, system) pairs present (as ``code * k + system``, sorted) and the rows whose
    pair occurs more than once; rows without an id or a chosen system are in neither."""
    chosen = (codes >= 0) & (systems >= 0)
    whole = bool(chosen.all())
    kind = np.int32 if n_ids * k < 2**31 else np.int64
    pairs = (codes if whole else codes[chosen]).astype(kind)
    pairs *= k
    pairs += systems if whole else systems[chosen]
    if n_ids * k <= 4 * len(pairs) + 1024:  # one bin per (id, system): no sort
        per_pair = np.bincount(pairs, minlength=n_ids * k)
        present = np.flatnonzero(per_pair)
        repeated = (per_pair > 1)[pairs]
        del per_pair
    else:  # ids seen for few systems: sort the pairs instead of many empty bins
        present, inverse, counts = np.unique(pairs, return_inverse=True, return_counts=True)
        repeated = counts[inverse] > 1
    if whole:
        return present, repeated
    duplicated = np.zeros(len(codes), dtype=bool)
    duplicated[chosen] = repeated
    return present, duplicated
