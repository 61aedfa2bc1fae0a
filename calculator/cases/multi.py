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

from calculator.cases.bulk import files_reading, require_pass_fail
from calculator.cases.columns import OutcomeGuess, guess_outcomes
from calculator.cases.findings import CaseIssue, fatal
from calculator.cases.joined import join_rows, read_wide
from calculator.cases.multi_checks import (
    check_names,
    file_system_names,
    require_column,
    system_labels,
    text_series,
)
from calculator.cases.names import system_names
from calculator.cases.outcomes import check_threshold
from calculator.cases.reading import MAX_FILE_BYTES, CaseFile, read_case_file
from calculator.cases.systems_result import SystemCases
from calculator.errors import CalculatorError
from calculator.text import clip, first_of

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
    by_bulk: bool = False


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
    by_bulk: bool = False,
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
    by_bulk : bool
        Without a threshold, stop when the bulk of the outcome rows is scores or follows no one
        reading (:mod:`calculator.cases.bulk`, the rule ``compare`` and the page follow); else
        read them as pass/fail, every other value excluded.

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
        raise CalculatorError("No file given: name one file, or one file per system.")
    given_names = list(file_names or [None] * len(listed))
    if len(given_names) != len(listed):
        raise CalculatorError("`file_names` must give one name per file.")
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
        by_bulk=by_bulk,
    )
    if len(files) > 1:
        return _load_files(files, options)
    if system_column is not None:
        return _load_long(files[0], options)
    return _load_wide(files[0], options)


def _follow_bulk(files: list[CaseFile], columns: list[list[str]], options: _Options) -> None:
    """With `by_bulk` and no threshold the outcomes are read as pass/fail: stop when the bulk
    of their rows is scores, or follows no one reading (:mod:`calculator.cases.bulk`)."""
    if options.threshold is not None or not options.by_bulk:
        return
    require_pass_fail(files_reading(files, columns), files, columns)


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
        return first_of([clip(repr(c), 40) for c in columns], limit)

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
    _follow_bulk([case_file], [columns], options)
    names, renamed = system_names(columns, case_file.name, None)
    rows = np.asarray(frame.index, dtype=np.int64)
    wide = read_wide(
        case_file,
        columns,
        options.id_column,
        options.threshold,
        notes=(renamed,) if renamed else (),
    )
    ledger, codes, passed, lacking = wide.ledger, wide.codes, wide.passed, wide.lacking
    kept = ledger.kept
    excluded = ledger.excluded_counts()
    if codes is None:
        case_ids = text_series([str(r) for r in rows[kept]])
    else:
        case_ids = wide.ids_of_codes(codes[kept])
    missing_system = int(np.count_nonzero(lacking & ~kept))
    return SystemCases(
        names=names,
        layout="wide",
        files=(case_file.name,),
        id_column=options.id_column,
        system_column=None,
        outcome_columns=tuple(columns),
        threshold=options.threshold,
        rows_read=len(frame) + case_file.unread_rows,
        rows_used=int(np.count_nonzero(kept)),
        excluded=excluded,
        cases_missing_system=missing_system,
        cases_with_excluded_row=int(np.count_nonzero(~kept)) - missing_system,
        issues=ledger.issues,
        case_ids=case_ids,
        outcomes=passed[kept],
    )


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
        raise CalculatorError(
            f"{case_file.name}: cannot tell which column holds the case id; name it (--id on "
            "the command line)."
        )
    outcome = options.outcome_column
    if outcome is None:
        if not guess.outcome_columns:
            raise CalculatorError(
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
            shown = first_of([clip(repr(x), 40) for x in labels], 12)
            raise CalculatorError(
                f"{case_file.name}: no system {clip(repr(label), 80)} in column "
                f"{options.system_column!r}; the systems are {shown}."
            )
    names, renamed = system_names(chosen, case_file.name, options.system_column)
    position = {label: j for j, label in enumerate(chosen)}
    remap = np.array([position.get(label, -2) for label in labels] + [-1], dtype=np.int8)
    systems = remap[label_codes]  # -1: no label, -2: a system not chosen (k <= 50 fits int8)
    del label_codes
    return _join_records(
        [case_file],
        names,
        systems,
        id_column,
        [outcome],
        options,
        system_column=options.system_column,
        notes=(renamed,) if renamed else (),
    )


def _load_files(files: list[CaseFile], options: _Options) -> SystemCases:
    id_column = options.id_column
    if id_column is None:
        guesses = {guess_outcomes(f.frame).id_column for f in files}
        if len(guesses) != 1 or None in guesses:
            raise CalculatorError(
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
                raise CalculatorError(
                    f"{case_file.name}: cannot tell which column holds the outcomes; name it "
                    "(--outcome on the command line)."
                )
            column = free[0]
        require_column(case_file, id_column)
        require_column(case_file, column)
        outcomes.append(column)
    names = options.names or file_system_names([f.name for f in files])
    if len(names) != len(files):
        raise CalculatorError(f"Give one name per file: {len(files)} files but {len(names)} names.")
    check_names(tuple(names), "the system names")
    names, renamed = system_names(names, files[0].name, None)
    systems = np.concatenate([np.full(len(f.frame), j, dtype=np.int8) for j, f in enumerate(files)])
    return _join_records(
        files, names, systems, id_column, outcomes, options, notes=(renamed,) if renamed else ()
    )


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
    _follow_bulk(files, [[column] for column in outcome_columns], options)
    k = len(names)
    joined = join_rows(
        files,
        names,
        systems,
        id_column,
        outcome_columns,
        options.threshold,
        system_column=system_column,
        notes=notes,
    )
    systems_present, complete = joined.systems_present, joined.complete
    final = joined.ledger.kept
    unread = sum(f.unread_rows for f in files)
    seen = systems_present > 0
    return SystemCases(
        names=names,
        layout="files" if len(files) > 1 else "long",
        files=tuple(f.name for f in files),
        id_column=id_column,
        system_column=system_column,
        outcome_columns=tuple(outcome_columns),
        threshold=options.threshold,
        rows_read=sum(len(f.frame) for f in files) + unread,
        rows_used=int(np.count_nonzero(final)),
        excluded=joined.ledger.excluded_counts(),
        cases_missing_system=int(np.count_nonzero(seen & (systems_present < k))),
        cases_with_excluded_row=int(np.count_nonzero(seen & (systems_present == k) & ~complete)),
        issues=joined.ledger.issues,
        case_ids=joined.ids_of_codes(joined.used_codes),
        outcomes=joined.outcomes,
    )
