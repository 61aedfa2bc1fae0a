"""Per-case outcomes of three or more systems: :func:`load_systems` reads a wide file, a long file
or one file per system, validates every row and returns the n x k outcome array with its names.

Outcomes are read as for two systems (:func:`~calculator.cases.outcomes.parse_outcomes`), and
every row left out is counted once, under its first reason, with a finding that lists the first
offending rows (:mod:`calculator.cases.findings`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.columns import guess_columns
from calculator.cases.findings import cell_text, fatal, many
from calculator.cases.ids import id_text
from calculator.cases.outcomes import check_threshold, parse_outcomes
from calculator.cases.reading import MAX_FILE_BYTES, CaseFile, read_case_file
from calculator.cases.systems_result import RecordLedger, SystemCases
from calculator.compare import MAX_SYSTEMS

if TYPE_CHECKING:
    import pandas as pd

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
) -> SystemCases:
    """Read per-case outcomes of k systems from one or several files.

    Parameters
    ----------
    sources : path, bytes or CaseFile, or a sequence of them
        One file: *wide* (a row per case, a column per system) or, with `system_column`,
        *long* (a row per case and system). Several files: one per system, joined on
        `id_column`.
    id_column : str, optional
        The case id; needed for a long file and for several files (guessed when obvious). A
        wide file without one has its cases numbered by row.
    systems : sequence of str, optional
        Wide: the outcome columns to compare (guessed: every column that reads as pass/fail).
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

    Returns
    -------
    SystemCases

    Raises
    ------
    CaseFileError
        When a file cannot be analysed or a named column is missing.
    ValueError
        When the columns cannot be guessed, a system label is unknown, or the systems number
        fewer than 2 or more than :data:`calculator.compare.MAX_SYSTEMS`.

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
    options = _Options(
        id_column=id_column,
        systems=None if systems is None else tuple(str(s) for s in systems),
        system_column=system_column,
        outcome_column=outcome_column,
        threshold=check_threshold(threshold),
        names=None if names is None else tuple(str(n) for n in names),
    )
    if len(files) > 1:
        return _load_files(files, options)
    if system_column is not None:
        return _load_long(files[0], options)
    return _load_wide(files[0], options)


# --- wide: a row per case, a column per system --------------------------------------------


def _load_wide(case_file: CaseFile, options: _Options) -> SystemCases:
    frame = case_file.frame
    columns = list(options.systems or ())
    if not columns:
        taken = {options.id_column}
        columns = [c for c in _outcome_guesses(frame, options.threshold) if c not in taken]
    for column in [options.id_column, *columns]:
        if column is not None:
            _require_column(case_file, column)
    names = tuple(_display(column) for column in columns)
    _check_names(names, f"{case_file.name}: the outcome columns")
    rows = np.asarray(frame.index, dtype=np.int64)
    ids, id_missing = (None, None)
    if options.id_column is not None:
        ids, id_missing = id_text(frame[options.id_column])
    ledger = RecordLedger(
        (case_file.name,),
        np.zeros(len(frame), dtype=np.int8),
        rows,
        (lambda p: None) if ids is None else (lambda p: cell_text(ids.iloc[p])),
    )
    ledger.add_issues(case_file.issues)
    if ids is not None:
        _exclude_bad_ids(ledger, ids, id_missing, options.id_column, frame[options.id_column])
    passed = np.zeros((len(frame), len(columns)), dtype=bool)
    lacking = np.zeros(len(frame), dtype=bool)
    for j, column in enumerate(columns):
        parsed = _exclude_bad_outcomes(ledger, [frame[column]], column, options.threshold)
        passed[:, j] = parsed[0]
        lacking |= parsed[1]
    kept = ledger.kept
    excluded = ledger.excluded_counts(case_file.unread_rows)
    case_ids = (
        _series([str(r) for r in rows[kept]]) if ids is None else ids[kept].reset_index(drop=True)
    )
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
    id_column = options.id_column or guess_columns(frame).id_column
    if id_column is None:
        raise ValueError(
            f"{case_file.name}: cannot tell which column holds the case id; name it (--id on "
            "the command line)."
        )
    outcome = options.outcome_column
    if outcome is None:
        taken = {id_column, options.system_column}
        free = [c for c in _outcome_guesses(frame, options.threshold) if c not in taken]
        if not free:
            raise ValueError(
                f"{case_file.name}: cannot tell which column holds the outcomes; name it "
                "(--outcome on the command line)."
            )
        outcome = free[0]
    for column in (id_column, options.system_column, outcome):
        _require_column(case_file, column)
    labels, label_codes = _system_labels(frame[options.system_column])
    chosen = options.systems or labels
    for label in chosen:
        if label not in labels:
            shown = ", ".join(repr(x) for x in labels[:12])
            raise ValueError(
                f"{case_file.name}: no system {label!r} in column {options.system_column!r}; "
                f"the systems are {shown}."
            )
    _check_names(tuple(chosen), f"{case_file.name}: the systems in {options.system_column!r}")
    position = {label: j for j, label in enumerate(chosen)}
    remap = np.array([position.get(label, -2) for label in labels] + [-1], dtype=np.int64)
    systems = remap[label_codes]  # -1: no label, -2: a system not chosen
    return _join_records(
        [case_file], tuple(chosen), systems, id_column, [outcome], options,
        system_column=options.system_column,
    )  # fmt: skip


def _load_files(files: list[CaseFile], options: _Options) -> SystemCases:
    id_column = options.id_column
    if id_column is None:
        guesses = {guess_columns(f.frame).id_column for f in files}
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
            guesses = _outcome_guesses(case_file.frame, options.threshold)
            free = [c for c in guesses if c != id_column]
            if not free:
                raise ValueError(
                    f"{case_file.name}: cannot tell which column holds the outcomes; name it "
                    "(--outcome on the command line)."
                )
            column = free[0]
        _require_column(case_file, id_column)
        _require_column(case_file, column)
        outcomes.append(column)
    names = options.names or _file_system_names([f.name for f in files])
    if len(names) != len(files):
        raise ValueError(f"Give one name per file: {len(files)} files but {len(names)} names.")
    _check_names(tuple(names), "the system names")
    systems = np.concatenate(
        [np.full(len(f.frame), j, dtype=np.int64) for j, f in enumerate(files)]
    )
    return _join_records(files, tuple(names), systems, id_column, outcomes, options)


def _join_records(
    files: list[CaseFile],
    names: tuple[str, ...],
    systems: np.ndarray,
    id_column: str,
    outcome_columns: list[str],
    options: _Options,
    *,
    system_column: str | None = None,
) -> SystemCases:
    """Validate every (case, system) row, then keep the cases that have all k systems."""
    k = len(names)
    codes, id_of_codes, id_of_row = _id_codes([f.frame[id_column] for f in files])
    rows = np.concatenate([np.asarray(f.frame.index, dtype=np.int64) for f in files])
    file_of_row = np.concatenate(
        [np.full(len(f.frame), j, dtype=np.int16) for j, f in enumerate(files)]
    )
    ledger = RecordLedger([f.name for f in files], file_of_row, rows, id_of_row)
    for f in files:
        ledger.add_issues(f.issues)
    _exclude(ledger, codes < 0, "missing_value", id_column, "row", "without an id in {c!r}.")
    if system_column is not None:
        labels = files[0].frame[system_column]

        def label(p: int) -> str:
            return cell_text(labels.iloc[p])

        _exclude(ledger, systems == -1, "missing_value", system_column, "row",
                 "without a system in {c!r}.", label)  # fmt: skip
        _exclude(ledger, systems == -2, "other_system", system_column, "row",
                 "of systems not chosen in {c!r}, left out.", label)  # fmt: skip
    outcome_series = [f.frame[c] for f, c in zip(files, outcome_columns, strict=True)]
    column = outcome_columns[0] if len(set(outcome_columns)) == 1 else None
    passed, _ = _exclude_bad_outcomes(ledger, outcome_series, column, options.threshold)
    chosen = (codes >= 0) & (systems >= 0)
    present_pairs, inverse, counts = np.unique(
        (codes * k + systems)[chosen], return_inverse=True, return_counts=True
    )
    duplicated = np.zeros(len(codes), dtype=bool)
    duplicated[chosen] = counts[inverse] > 1
    _exclude(ledger, duplicated, "duplicate_id", id_column, "row",
             "sharing an id and a system with another row; every copy left out, as the outcome "
             "to use would be a guess.", lambda p: names[systems[p]])  # fmt: skip
    n_ids = int(codes.max()) + 1 if len(codes) else 0
    systems_present = np.bincount(present_pairs // k, minlength=n_ids)
    complete = _exclude_incomplete(ledger, codes, systems, present_pairs, names, id_column)
    final = ledger.kept
    used_codes = np.unique(codes[final])  # codes number ids in order of first appearance
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
        rows_read=len(rows) + unread, rows_used=int(np.count_nonzero(final)),
        excluded=ledger.excluded_counts(unread),
        cases_missing_system=int(np.count_nonzero(seen & (systems_present < k))),
        cases_with_excluded_row=int(np.count_nonzero(seen & (systems_present == k) & ~complete)),
        issues=ledger.issues, case_ids=id_of_codes(used_codes), outcomes=outcomes,
    )  # fmt: skip


def _exclude_incomplete(
    ledger: RecordLedger,
    codes: np.ndarray,
    systems: np.ndarray,
    present_pairs: np.ndarray,
    names: tuple[str, ...],
    id_column: str,
) -> np.ndarray:
    """Exclude the kept rows of cases without a kept row for every system; which ids are
    complete (indexed by id code)."""
    k = len(names)
    n_ids = int(codes.max()) + 1 if len(codes) else 0
    systems_present = np.bincount(present_pairs // k, minlength=n_ids)
    kept = ledger.kept
    complete = np.bincount(codes[kept], minlength=n_ids) == k
    safe = np.maximum(codes, 0)
    stranded = kept & ~complete[safe]
    lacking = stranded & (systems_present[safe] < k)

    def absent(p: int) -> str:
        have = set((present_pairs[present_pairs // k == codes[p]] % k).tolist())
        return "no row for " + ", ".join(repr(names[j]) for j in range(k) if j not in have)

    _exclude(ledger, lacking, "missing_system", id_column, "row",
             "of cases with no row at all for some system; left out.", absent)  # fmt: skip
    _exclude(ledger, stranded & ~lacking, "partner_excluded", id_column, "row",
             "of cases whose row for another system was left out for a problem listed "
             "above; left out too.", lambda p: names[systems[p]])  # fmt: skip
    return complete


# --- checks shared by the layouts ------------------------------------------------------------


def _exclude(
    ledger: RecordLedger,
    mask: np.ndarray,
    kind: str,
    column: str | None,
    noun: str,
    text: str,
    value: object = None,
) -> None:
    """Exclude `mask` for `kind` with the message "<file>: <count> <noun>s <text>"."""
    ledger.exclude(
        mask,
        kind,
        column,
        lambda name, in_file: (
            f"{name}: {many(int(np.count_nonzero(in_file)), noun)} " + text.format(c=column)
        ),
        value if callable(value) else (lambda p: ""),
    )


def _exclude_bad_ids(
    ledger: RecordLedger, ids: pd.Series, missing: np.ndarray, column: str, raw: pd.Series
) -> None:
    """A wide file's rows without an id, and every copy of an id given more than once."""
    import pandas as pd

    _exclude(ledger, missing, "missing_value", column, "row", "without an id in {c!r}.")
    codes, _ = pd.factorize(ids.where(~missing), use_na_sentinel=True)
    counts = np.bincount(codes[codes >= 0], minlength=1)
    duplicated = (codes >= 0) & (counts[np.maximum(codes, 0)] > 1)
    _exclude(ledger, duplicated, "duplicate_id", column, "row",
             "whose id in {c!r} occurs more than once; every copy left out, as which row "
             "counts would be a guess.", lambda p: cell_text(raw.iloc[p]))  # fmt: skip


def _exclude_bad_outcomes(
    ledger: RecordLedger, series: list[pd.Series], column: str | None, threshold: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """Parse the outcomes (files concatenated); exclude missing and unreadable ones.

    Returns whether each row passes and whether its outcome is missing.
    """
    parsed = [parse_outcomes(s, threshold=threshold) for s in series]
    passed = np.concatenate([p.passed for p in parsed])
    missing = np.concatenate([p.missing for p in parsed])
    unreadable = np.concatenate([p.unparseable for p in parsed])
    offsets = np.cumsum([0] + [len(s) for s in series])

    def cell(p: int) -> str:
        j = int(np.searchsorted(offsets, p, side="right")) - 1
        return cell_text(series[j].iloc[p - offsets[j]])

    where = "{c!r}" if column is not None else "the outcome column"
    _exclude(ledger, missing, "missing_value", column, "row", f"without an outcome in {where}.")
    allowed = (
        "1/0, true/false, pass/fail, yes/no or correct/wrong; for scores set a threshold"
        if threshold is None
        else f"numbers (scores at or above {threshold:g} pass)"
    )
    _exclude(ledger, unreadable, "unparseable_outcome", column, "value",
             f"in {where} not read as an outcome; allowed: {allowed}.", cell)  # fmt: skip
    return passed, missing


def _id_codes(series: list[pd.Series]) -> tuple[np.ndarray, object, object]:
    """Ids across files as codes numbered in order of first appearance (-1: missing).

    Numeric ids are compared as numbers (7 and 7.0 are one id), other ids as trimmed text;
    when the files disagree, every id is compared as text. Returns the codes, a function from
    codes to the ids' text, and one from a row's position to its id's text (or None).
    """
    import pandas as pd

    numeric = all(
        pd.api.types.is_integer_dtype(s.dtype)
        or (pd.api.types.is_float_dtype(s.dtype) and _integral(s))
        for s in series
    )
    if numeric:
        values = np.concatenate([s.to_numpy(dtype=np.float64, na_value=np.nan) for s in series])
        missing = np.isnan(values)
        keys = pd.Series(np.where(missing, 0, values).astype(np.int64)).where(~missing)
    else:
        parts = [id_text(s) for s in series]
        keys = pd.concat([text for text, _ in parts], ignore_index=True)
        missing = np.concatenate([m for _, m in parts])
        keys = keys.where(~missing)
    codes, uniques = pd.factorize(keys, use_na_sentinel=True)
    codes = codes.astype(np.int64)
    texts = (
        pd.Series(np.asarray(uniques, dtype=np.int64)).astype("str")
        if numeric
        else pd.Series(uniques).astype("str")
    )

    def of_codes(chosen: np.ndarray) -> pd.Series:
        return texts.iloc[chosen].reset_index(drop=True)

    def of_row(p: int) -> str | None:
        return None if codes[p] < 0 else texts.iloc[codes[p]]

    return codes, of_codes, of_row


def _integral(series: pd.Series) -> bool:
    values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    present = values[~np.isnan(values)]
    return bool(np.all(np.isfinite(present) & (present == np.round(present))))


def _system_labels(series: pd.Series) -> tuple[list[str], np.ndarray]:
    """The distinct system labels (trimmed text, in order of appearance) and each row's index
    into them (-1 where the label is missing)."""
    import pandas as pd

    raw_codes, uniques = pd.factorize(series, use_na_sentinel=True)
    text, blank = id_text(pd.Series(uniques))
    labels: list[str] = []
    label_of_unique = np.full(len(uniques) + 1, -1, dtype=np.int64)
    for u, (label, is_blank) in enumerate(zip(text.tolist(), blank.tolist(), strict=True)):
        if is_blank:
            continue
        if label not in labels:
            labels.append(label)
        label_of_unique[u] = labels.index(label)
    return labels, label_of_unique[raw_codes]


def _outcome_guesses(frame: pd.DataFrame, threshold: float | None) -> tuple[str, ...]:
    """Columns that read as pass/fail, then (with a threshold) numeric score columns."""
    guess = guess_columns(frame)
    return guess.outcome_columns + (guess.score_columns if threshold is not None else ())


def _require_column(case_file: CaseFile, column: str) -> None:
    if column not in case_file.frame.columns:
        available = ", ".join(map(str, case_file.frame.columns[:12]))
        raise fatal(
            "missing_column",
            case_file.name,
            f"{case_file.name}: no column {column!r}; the columns are {available}.",
            column=column,
        )


def _check_names(names: tuple[str, ...], what: str) -> None:
    if not 2 <= len(names) <= MAX_SYSTEMS:
        raise ValueError(
            f"{what} give {len(names)} systems, but a comparison needs 2 to {MAX_SYSTEMS}; "
            "choose them (--systems, --system on the command line)."
        )
    for name in names:
        if names.count(name) > 1:
            raise ValueError(f"{what} name the system {name!r} twice; give distinct names.")
        if not name.strip():
            raise ValueError(f"{what} include an empty name; give every system a name.")


def _display(column: str) -> str:
    """A column's name as a system's name: spaces collapsed, at most 60 characters."""
    return " ".join(str(column).split())[:60] or str(column)


def _file_system_names(files: list[str]) -> tuple[str, ...]:
    """Each file's name without its extension; the full name where two would clash."""
    stems = [Path(name).stem or name for name in files]
    names = [
        stem if stems.count(stem) == 1 else name for stem, name in zip(stems, files, strict=True)
    ]
    return tuple(
        name if names.count(name) == 1 else f"{name} ({j + 1})" for j, name in enumerate(names)
    )


def _series(values: list[str]) -> pd.Series:
    import pandas as pd

    return pd.Series(values, dtype="str")
