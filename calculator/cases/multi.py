"""Per-case outcomes of three or more systems: :func:`load_systems` reads a wide file, a long file
or one file per system, validates every row and returns the n x k outcome array with its names.

Outcomes are read as for two systems (:func:`~calculator.cases.outcomes.parse_outcomes`), and
every row left out is counted once, under its first reason, with a finding that lists the first
offending rows (:mod:`calculator.cases.findings`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.columns import OutcomeGuess, guess_outcomes
from calculator.cases.findings import CaseIssue, clip, fatal, many
from calculator.cases.ledger import RecordLedger
from calculator.cases.multi_checks import (
    check_names,
    exclude_incomplete,
    file_system_names,
    id_codes,
    require_column,
    system_labels,
    text_series,
)
from calculator.cases.names import system_names
from calculator.cases.outcomes import check_threshold
from calculator.cases.reading import MAX_FILE_BYTES, CaseFile, read_case_file
from calculator.cases.row_checks import exclude_bad_ids, exclude_bad_outcomes, exclude_missing_ids
from calculator.cases.systems_result import SYSTEM_EXCLUSION_REASONS, SystemCases
from calculator.errors import CalculatorError

if TYPE_CHECKING:
    pass

__all__ = ["load_systems"]

Source = str | os.PathLike[str] | bytes | CaseFile


@dataclass(frozen=True, slots=True, kw_only=True)
class _Options:
    id_column: str | None
    systems: tuple[str, ...] | None
    system_column: str | None
    outcome_column: str | None
    threshold: float | None
    names: tuple[str, ...] | None
    number_rows: bool = False


def _refuse_repeated_files(files: list[CaseFile]) -> None:
    """The same bytes given twice would be one system compared with itself (p = 1 always)."""
    seen: dict[bytes, str] = {}
    for case_file in files:
        if case_file.data and case_file.data in seen:
            raise fatal(
                "same_file",
                case_file.name,
                f"{seen[case_file.data]} and {case_file.name} are the same file, byte for byte: "
                "a system compared with itself always gives p = 1; give each system's own "
                "results.",
            )
        seen.setdefault(case_file.data, case_file.name)


def load_systems(
    sources: Source | Sequence[Source],
    *,
    id_column: str | None = None,
    systems: Sequence[str] | None = None,
    system_column: str | None = None,
    outcome_column: str | None = None,
    threshold: float | None = None,
    names: Sequence[str] | None = None,
    file_names: Sequence[str | None] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    number_rows: bool = False,
) -> SystemCases:
    """Read per-case outcomes of k systems from one or several files.

    Parameters
    ----------
    sources : path, bytes or CaseFile, or a sequence of them
        One file: *wide* (a row per case, a column per system) or, with `system_column`,
        *long* (a row per case and system). Several files: one per system, joined on
        `id_column`.
    id_column : str, optional
        The case id, guessed when obvious (:func:`~calculator.cases.columns.guess_outcomes`, as
        for two systems); needed for a long file and for several files. A wide file without
        one (or with `number_rows`) has its cases numbered by row.
    systems : sequence of str, optional
        Wide: the outcome columns to compare; guessed only when every column but the id reads
        as pass/fail, else required (a 0/1 feature or a score beside the systems would be
        compared as one).
        Long: the system labels to compare (default: every label, in order of appearance).
    system_column, outcome_column : str, optional
        Long: the columns naming the system and holding the outcome. Several files: the outcome
        column of each file (guessed per file when omitted).
    threshold : float, optional
        Outcomes are scores and pass at or above it.
    names : sequence of str, optional
        Several files: a name for each system (default: the file names without extension).
    file_names : sequence of str, optional
        Names for sources given as bytes (the extension picks the format).
    max_bytes : int
        Largest file size accepted.
    number_rows : bool
        Wide: number the cases by row instead of guessing an id column.

    Returns
    -------
    SystemCases

    Raises
    ------
    CaseFileError
        When a file cannot be analysed or a named column is missing.
    ValueError
        When the columns cannot be guessed (a wide file's systems whenever other columns are
        beside them), a system label is unknown, or the systems number fewer than 2 or more
        than :data:`calculator.compare.MAX_SYSTEMS`.

    Notes
    -----
    A case enters the analysis only if every chosen system has a usable outcome for it. Rows
    are left out for a missing value (id, system or outcome), an outcome that cannot be read,
    an (id, system) pair given more than once (every copy: which outcome counts would be a
    guess), a system not chosen, a case with no row for some system, or a case whose row for
    another system was left out. ``rows_read == rows_used + sum(excluded.values())``.

    Examples
    --------
    >>> data = b"id,system,ok\\n1,a,1\\n1,b,0\\n1,c,1\\n2,a,1\\n2,b,1\\n3,a,0\\n3,b,1\\n3,c,x\\n"
    >>> cases = load_systems(data, system_column="system", outcome_column="ok",
    ...                      file_names=["runs.csv"])
    >>> cases.names, cases.outcomes.astype(int).tolist(), cases.case_ids.tolist()
    (('a', 'b', 'c'), [[1, 0, 1]], ['1'])
    >>> cases.excluded["missing_system"], cases.excluded["partner_excluded"], cases.rows_read
    (2, 2, 8)
    """
    listed = list(sources) if isinstance(sources, list | tuple) else [sources]
    if not listed:
        raise ValueError("No file given: name one file, or one file per system.")
    given_names = list(file_names or [None] * len(listed))
    if len(given_names) != len(listed):
        raise ValueError("`file_names` must give one name per file.")
    files = [
        read_case_file(source, name=name, max_bytes=max_bytes)
        for source, name in zip(listed, given_names, strict=True)
    ]
    _refuse_repeated_files(files)
    options = _Options(
        id_column=id_column,
        systems=None if systems is None else tuple(str(s) for s in systems),
        system_column=system_column,
        outcome_column=outcome_column,
        threshold=check_threshold(threshold),
        names=None if names is None else tuple(str(n) for n in names),
        number_rows=number_rows,
    )
    if len(files) > 1:
        return _load_files(files, options)
    if system_column is not None:
        return _load_long(files[0], options)
    return _load_wide(files[0], options)


# --- wide: a row per case, a column per system --------------------------------------------


def _wide_columns(case_file: CaseFile, options: _Options) -> _Options:
    """`options` with the id (guessed unless rows are numbered) and the systems' columns: those
    chosen, else every pass/fail column when nothing else is in the file. Each is checked."""
    chosen = tuple(options.systems or ())
    guess = guess_outcomes(
        case_file.frame,
        id_column=options.id_column,
        taken=chosen,
        threshold=options.threshold,
        guess_id=not options.number_rows,
    )
    columns = chosen or guess.outcome_columns
    if not chosen and len(columns) >= 2 and not guess.only_outcomes:
        raise CalculatorError(_systems_unclear(case_file.name, guess))
    for column in [guess.id_column, *columns]:
        if column is not None:
            require_column(case_file, column)
    check_names(tuple(columns), f"{case_file.name}: the outcome columns")
    return dataclasses.replace(options, id_column=guess.id_column, systems=columns)


def _systems_unclear(name: str, guess: OutcomeGuess) -> str:
    """Why a wide file's systems are not guessed, the candidates, and the flag that names them."""

    def listed(columns: tuple[str, ...], limit: int) -> str:
        more = f" and {len(columns) - limit:,} more" if len(columns) > limit else ""
        return ", ".join(clip(repr(c), 40) for c in columns[:limit]) + more

    reasons = []
    if guess.other_columns:
        reasons.append(f"the file also holds {listed(guess.other_columns, 5)}")
    if guess.score_columns:
        reasons.append(f"{listed(guess.score_columns, 5)} are scores read with the threshold")
    return (
        f"{name}: cannot tell which columns are the systems: {listed(guess.outcome_columns, 12)} "
        f"read as outcomes, but {' and '.join(reasons)}, so some of them may describe the cases "
        "(a 0/1 feature, a length) rather than be systems; name the systems' outcome columns "
        "(--systems COL,COL,... on the command line)."
    )


def _load_wide(case_file: CaseFile, options: _Options) -> SystemCases:
    frame = case_file.frame
    options = _wide_columns(case_file, options)
    columns = list(options.systems)
    names, renamed = system_names(columns, case_file.name, None)
    rows = np.asarray(frame.index, dtype=np.int64)
    codes, id_of_codes, id_of_row = None, None, (lambda p: None)
    if options.id_column is not None:
        codes, id_of_codes, id_of_row = id_codes([case_file], options.id_column)
    ledger = RecordLedger(case_file, reasons=SYSTEM_EXCLUSION_REASONS)
    ledger.show_ids(id_of_row)
    ledger.add_issues((renamed,) if renamed else ())
    if codes is not None:
        exclude_bad_ids(ledger, codes, options.id_column)
    passed = np.zeros((len(frame), len(columns)), dtype=bool)
    lacking = np.zeros(len(frame), dtype=bool)
    for j, column in enumerate(columns):
        parsed = exclude_bad_outcomes(ledger, 0, column, options.threshold)
        passed[:, j] = parsed.passed
        lacking |= parsed.missing
    kept = ledger.kept
    excluded = ledger.excluded_counts()
    if codes is None:
        case_ids = text_series([str(r) for r in rows[kept]])
    else:
        case_ids = id_of_codes(codes[kept])
    missing_system = int(np.count_nonzero(lacking & ~kept))
    return SystemCases(
        names=names, layout="wide", files=(case_file.name,), id_column=options.id_column,
        system_column=None, outcome_columns=tuple(columns), threshold=options.threshold,
        rows_read=len(frame) + case_file.unread_rows, rows_used=int(np.count_nonzero(kept)),
        excluded=excluded, cases_missing_system=missing_system,
        cases_with_excluded_row=int(np.count_nonzero(~kept)) - missing_system,
        issues=ledger.issues, case_ids=case_ids, outcomes=passed[kept],
    )  # fmt: skip


# --- long: a row per case and system; several files: one per system ------------------------


def _load_long(case_file: CaseFile, options: _Options) -> SystemCases:
    frame = case_file.frame
    guess = guess_outcomes(
        frame,
        id_column=options.id_column,
        taken=(options.system_column,),
        threshold=options.threshold,
    )
    id_column = guess.id_column
    if id_column is None:
        raise ValueError(
            f"{case_file.name}: cannot tell which column holds the case id; name it (--id on "
            "the command line)."
        )
    outcome = options.outcome_column
    if outcome is None:
        if not guess.outcome_columns:
            raise ValueError(
                f"{case_file.name}: cannot tell which column holds the outcomes; name it "
                "(--outcome on the command line)."
            )
        outcome = guess.outcome_columns[0]
    for column in (id_column, options.system_column, outcome):
        require_column(case_file, column)
    labels, label_codes = system_labels(frame[options.system_column])
    where = f"{case_file.name}: the systems in {options.system_column!r}"
    chosen = options.systems or tuple(labels)
    check_names(chosen, where)  # before anything else: at most MAX_SYSTEMS, none twice
    known = set(labels)
    for label in chosen:
        if label not in known:
            shown = ", ".join(clip(repr(x), 40) for x in labels[:12])
            raise CalculatorError(
                f"{case_file.name}: no system {clip(repr(label), 80)} in column "
                f"{options.system_column!r}; the systems are {shown}"
                + (f" and {len(labels) - 12:,} more." if len(labels) > 12 else ".")
            )
    names, renamed = system_names(chosen, case_file.name, options.system_column)
    position = {label: j for j, label in enumerate(chosen)}
    remap = np.array([position.get(label, -2) for label in labels] + [-1], dtype=np.int8)
    systems = remap[label_codes]  # -1: no label, -2: a system not chosen (k <= 50 fits int8)
    del label_codes
    return _join_records(
        [case_file], names, systems, id_column, [outcome], options,
        system_column=options.system_column, notes=(renamed,) if renamed else (),
    )  # fmt: skip


def _load_files(files: list[CaseFile], options: _Options) -> SystemCases:
    id_column = options.id_column
    if id_column is None:
        guesses = {guess_outcomes(f.frame).id_column for f in files}
        if len(guesses) != 1 or None in guesses:
            raise ValueError(
                "cannot tell which column pairs the rows of the files; name the id column they "
                "share (--id on the command line)."
            )
        id_column = guesses.pop()
    outcomes = []
    for case_file in files:
        column = options.outcome_column
        if column is None:
            free = guess_outcomes(
                case_file.frame, id_column=id_column, threshold=options.threshold
            ).outcome_columns
            if not free:
                raise ValueError(
                    f"{case_file.name}: cannot tell which column holds the outcomes; name it "
                    "(--outcome on the command line)."
                )
            column = free[0]
        require_column(case_file, id_column)
        require_column(case_file, column)
        outcomes.append(column)
    names = options.names or file_system_names([f.name for f in files])
    if len(names) != len(files):
        raise ValueError(f"Give one name per file: {len(files)} files but {len(names)} names.")
    check_names(tuple(names), "the system names")
    names, renamed = system_names(names, files[0].name, None)
    systems = np.concatenate([np.full(len(f.frame), j, dtype=np.int8) for j, f in enumerate(files)])
    return _join_records(
        files, names, systems, id_column, outcomes, options, notes=(renamed,) if renamed else ()
    )


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


def _join_records(
    files: list[CaseFile],
    names: tuple[str, ...],
    systems: np.ndarray,
    id_column: str,
    outcome_columns: list[str],
    options: _Options,
    *,
    system_column: str | None = None,
    notes: tuple[CaseIssue, ...] = (),
) -> SystemCases:
    """Validate every (case, system) row, then keep the cases that have all k systems."""
    k = len(names)
    codes, id_of_codes, id_of_row = id_codes(files, id_column)
    offsets = np.cumsum([0, *(len(f.frame) for f in files)])
    ledger = RecordLedger(files, reasons=SYSTEM_EXCLUSION_REASONS)
    ledger.show_ids(id_of_row)
    ledger.add_issues(notes)
    exclude_missing_ids(ledger, codes, id_column)
    if system_column is not None:
        ledger.exclude(
            systems == -1, "missing_value", system_column,
            lambda _, count: f"{many(count, 'row')} without a system in {system_column!r}",
        )  # fmt: skip
        ledger.exclude(
            systems == -2, "other_system", system_column,
            lambda _, count: f"{many(count, 'row')} of systems not chosen in {system_column!r}",
            "left out",
        )  # fmt: skip
    passed = np.concatenate(
        [
            exclude_bad_outcomes(ledger, j, column, options.threshold).passed
            for j, column in enumerate(outcome_columns)
        ]
    )
    n_ids = int(codes.max()) + 1 if len(codes) else 0
    present_pairs, duplicated = _pairs_seen(codes, systems, n_ids, k)
    ledger.exclude(
        duplicated, "duplicate_id", id_column,
        lambda _, count: f"{many(count, 'row')} sharing an id and a system with another row",
        "every copy left out, as the outcome to use would be a guess",
        value=lambda p: names[systems[p]],
    )  # fmt: skip
    del duplicated
    systems_present = np.bincount(present_pairs // k, minlength=n_ids)
    complete = exclude_incomplete(
        ledger, codes, systems, present_pairs, systems_present, names, id_column
    )
    final = ledger.kept
    used_codes = np.flatnonzero(complete)  # codes number ids in order of first appearance
    case_of_code = np.full(n_ids, -1, dtype=np.int64)
    case_of_code[used_codes] = np.arange(len(used_codes))
    outcomes = np.zeros((len(used_codes), k), dtype=bool)
    outcomes[case_of_code[codes[final]], systems[final]] = passed[final]
    unread = sum(f.unread_rows for f in files)
    seen = systems_present > 0
    return SystemCases(
        names=names, layout="files" if len(files) > 1 else "long",
        files=tuple(f.name for f in files), id_column=id_column, system_column=system_column,
        outcome_columns=tuple(outcome_columns), threshold=options.threshold,
        rows_read=int(offsets[-1]) + unread, rows_used=int(np.count_nonzero(final)),
        excluded=ledger.excluded_counts(),
        cases_missing_system=int(np.count_nonzero(seen & (systems_present < k))),
        cases_with_excluded_row=int(np.count_nonzero(seen & (systems_present == k) & ~complete)),
        issues=ledger.issues, case_ids=id_of_codes(used_codes), outcomes=outcomes,
    )  # fmt: skip
