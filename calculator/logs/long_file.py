"""A long (tidy) per-case file read as harness logs: one row per case x system (x repeat, x task).

The shape pandas exports and Inspect's ``samples_df`` gives: a column names the system, one the
case, one the outcome, optionally one the repeat (an epoch) and one the task. The file is read
by the per-case reader (:func:`calculator.cases.read_case_file`), its outcomes by the per-case
rule (:mod:`calculator.cases.bulk`: the bulk of the rows tells scores from pass/fail, which
:func:`calculator.cases.outcomes.parse_outcomes` reads), and it becomes one
:class:`~calculator.logs.table.LogTable` per system (format "long"), paired and analysed as
harness logs are: repeats by question, several tasks by task.

Columns left unnamed are taken from Inspect's ``samples_df`` names when the file has them
(:data:`INSPECT_COLUMNS`; the outcome: its only ``score_*`` column), and each such choice is
stated in the tables' notes, never silent. Every refusal names the file, the line (or row) and
the field.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calculator.cases.bulk import SCORES, bulk_reading, require_clear
from calculator.cases.multi_checks import id_codes, require_column, system_labels
from calculator.cases.outcomes import FAIL_WORDS, PASS_WORDS, parse_outcomes
from calculator.cases.reading import CaseFile, read_case_file
from calculator.logs.inspect_log import GRADES
from calculator.logs.table import LogError, LogTable, check_rows, long_frame, repeat_number
from calculator.text import clip, first_of, plural

__all__ = ["INSPECT_COLUMNS", "LongColumns", "long_systems", "read_long_file"]

#: Inspect's ``samples_df`` column for each role (with ``EvalModel`` and ``EvalTask`` joined):
#: taken when that role is not named and the file has the column.
INSPECT_COLUMNS = {"system": "model", "id": "id", "repeat": "epoch", "task": "task_name"}
_ROLES = ("system", "id", "outcome", "repeat", "task")
_OPTIONS = {role: f"--{role}" for role in _ROLES}  # the command line's option for each role


@dataclass(frozen=True, slots=True, kw_only=True)
class LongColumns:
    """The columns of a long file: each None until named or guessed; with `guess` False, a
    role left None has no column (no repeats, one task), none taken from Inspect's names."""

    system: str | None = None
    id: str | None = None
    outcome: str | None = None
    repeat: str | None = None
    task: str | None = None
    guess: bool = True


def read_long_file(
    source: str | os.PathLike[str] | bytes | CaseFile,
    columns: LongColumns | None = None,
    *,
    threshold: float | None = None,
    name: str | None = None,
    exactly_two: bool = False,
) -> tuple[LogTable, ...]:
    """One :class:`LogTable` per system of a long file, in the order the systems first appear.

    With `threshold` the outcomes are read as numbers (cut by the pairing); else by the
    per-case rule (:mod:`calculator.cases.bulk`): scores when finite numbers keep more rows than
    pass/fail spellings (:func:`~calculator.cases.outcomes.parse_outcomes`) do, else pass/fail
    (Inspect's grades C, I, P, N are read as Inspect's ``value_to_float`` reads them); the
    reading must keep 95% of the rows, the others held as no value and stated in a note. A
    missing outcome is kept as no value (counted by the pairing, as a log's). With `exactly_two`, a
    file of fewer or more systems is refused, naming the values found.

    Raises
    ------
    LogError, CaseFileError
        For a column missing or not guessable, a row without a system, case, task or repeat,
        a repeat that is not a whole number, outcomes that follow no one reading, a value that
        is no number with `threshold`, or a (system, task,
        case, repeat) given twice; each names the file, the line and the field.

    Examples
    --------
    >>> data = b"id,model,epoch,ok\\nq1,a,1,1\\nq1,b,1,0\\nq1,a,2,1\\nq1,b,2,1\\n"
    >>> a, b = read_long_file(data, LongColumns(system="model", outcome="ok"), name="r.csv")
    >>> a.system, a.format, a.frame[["case", "repeat", "value"]].values.tolist()
    ('a', 'long', [['q1', 1, 1.0], ['q1', 2, 1.0]])
    >>> b.notes[0]
    "r.csv: column 'id' read as the case id (Inspect's samples_df name; name another with --id)"
    """
    case_file = read_case_file(source, name=name)
    chosen, notes = _choose_columns(case_file, columns or LongColumns())
    check_rows(len(case_file.frame), case_file.name)
    frame = case_file.frame
    systems, system_codes = _labels(case_file, chosen.system)
    if exactly_two and len(systems) != 2:
        _refuse_systems(case_file.name, chosen.system, systems)
    tasks, task_codes = (
        _labels(case_file, chosen.task)
        if chosen.task
        else ([Path(case_file.name).stem or case_file.name], np.zeros(len(frame), np.int64))
    )
    ids, id_text = _ids(case_file, chosen.id)
    repeats = _repeats(case_file, chosen.repeat)
    values, value_note = _values(case_file, chosen.outcome, threshold)
    notes += [value_note] if value_note else []
    notes += [issue.message for issue in case_file.issues]  # lines not read, renamed columns
    _refuse_twice(case_file, chosen, (system_codes, task_codes, ids, repeats), systems)
    digest = hashlib.sha256(case_file.data).digest()
    tables = []
    for code, system in enumerate(systems):
        rows = np.flatnonzero(system_codes == code)
        table = long_frame(
            {
                "system": [system] * rows.size,
                "task": [tasks[t] for t in task_codes[rows]],
                "case": id_text(ids[rows]).tolist(),
                "repeat": repeats[rows],
                "metric": [chosen.outcome] * rows.size,
                "value": values[rows],
            }
        )
        tables.append(
            LogTable(
                format="long",
                system=system,
                sources=(case_file.name,),
                frame=table,
                metrics=(chosen.outcome,),
                notes=tuple(notes),
                data_key=digest + system.encode("utf-8", "surrogatepass"),
                tasks_named=chosen.task is not None,
            )
        )
    return tuple(tables)


def long_systems(case_file: CaseFile, column: str) -> list[str]:
    """The systems a long file's `column` names, in the order they first appear (the order
    of :func:`read_long_file`'s tables); a missing column, or a row without a system, is
    refused naming the file, the line and the field."""
    require_column(case_file, column)
    return _labels(case_file, column)[0]


def _refuse_systems(name: str, column: str, systems: list[str]) -> None:
    """Two systems are compared at a time: refuse fewer or more, naming the values found."""
    shown = first_of([clip(repr(system), 40) for system in systems], 8)
    name_two = "name two with --a and --b, " if len(systems) > 2 else ""
    raise LogError(
        f"{name}: column {column!r} holds {plural(len(systems), 'system')} ({shown}); "
        f"two are compared at a time: {name_two}keep the rows of two systems, or compare three "
        "or more with `compare`."
    )


def _choose_columns(case_file: CaseFile, given: LongColumns) -> tuple[LongColumns, list[str]]:
    """The columns named, else Inspect's samples_df names where the file has them (each such
    choice stated in a note); a role that needs a column and has none is refused."""
    present = set(case_file.frame.columns)
    chosen: dict[str, str | None] = {role: getattr(given, role) for role in _ROLES}
    for column in chosen.values():  # a column named and missing first, before any guess
        if column is not None:
            require_column(case_file, column)
    notes: list[str] = []
    for role, column in INSPECT_COLUMNS.items() if given.guess else ():
        if chosen[role] is None and column in present and column not in chosen.values():
            chosen[role] = column
            notes.append(
                f"{case_file.name}: column {column!r} read as the {_WHAT[role]} (Inspect's "
                f"samples_df name; name another with {_OPTIONS[role]})"
            )
    if chosen["outcome"] is None and given.guess:
        scores = [c for c in case_file.frame.columns if str(c).startswith("score_")]
        if len(scores) == 1:
            chosen["outcome"] = scores[0]
            notes.append(
                f"{case_file.name}: column {scores[0]!r} read as the outcome (the file's only "
                "score_* column, as Inspect's samples_df names a scorer's; name another with "
                "--outcome)"
            )
    for role in ("system", "id", "outcome"):
        if chosen[role] is None:
            available = ", ".join(repr(str(c)) for c in case_file.frame.columns[:12])
            raise LogError(
                f"{case_file.name}: a long file needs its {_WHAT[role]} column named "
                f"({_OPTIONS[role]} COL); the columns are {available}."
            )
    return LongColumns(**chosen), notes


_WHAT = {
    "system": "system",
    "id": "case id",
    "outcome": "outcome",
    "repeat": "repeat (epoch)",
    "task": "task",
}


def _where(case_file: CaseFile, position: int, column: str) -> str:
    """The file, line (row for Parquet) and field of the row at `position` (from 0)."""
    line = case_file.line_of(position)
    at = f"line {line}" if line is not None else f"row {position + 1:,}"
    return f"{case_file.name}, {at}, field {column!r}"


def _labels(case_file: CaseFile, column: str) -> tuple[list[str], np.ndarray]:
    """The distinct labels of a system or task column and each row's code; a row without one
    is refused."""
    labels, codes = system_labels(case_file.frame[column])
    missing = np.flatnonzero(codes < 0)
    if missing.size:
        raise LogError(
            f"{_where(case_file, int(missing[0]), column)}: no value "
            f"({plural(missing.size, 'row')} without one); every row of a long file names its "
            "system and task."
        )
    return labels, codes.astype(np.int64)


def _ids(case_file: CaseFile, column: str) -> tuple[np.ndarray, object]:
    """Each row's case id code and a function from codes to the ids' text (the per-case
    reader's ids: "7", "007" and "7.0" are one id when every id is an integer)."""
    codes, of_codes, _ = id_codes([case_file], column)
    missing = np.flatnonzero(codes < 0)
    if missing.size:
        raise LogError(
            f"{_where(case_file, int(missing[0]), column)}: no case id "
            f"({plural(missing.size, 'row')} without one); every row of a long file names its "
            "case."
        )
    return codes.astype(np.int64), of_codes


def _repeats(case_file: CaseFile, column: str | None) -> np.ndarray:
    """Each row's repeat number (0 without a repeat column): a whole number, else refused."""
    import pandas as pd

    size = len(case_file.frame)
    if column is None:
        return np.zeros(size, dtype=np.int64)
    values = case_file.frame[column]
    if not pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values):
        values = pd.to_numeric(values.astype("str").str.strip(), errors="coerce")
    numbers = values.to_numpy(dtype=np.float64, na_value=np.nan)
    bad = np.flatnonzero(np.isnan(numbers))
    if bad.size:
        raw = case_file.frame[column].iloc[int(bad[0])]
        raise LogError(
            f"{_where(case_file, int(bad[0]), column)}: the repeat {clip(repr(raw), 40)} is not "
            f"a whole number ({plural(bad.size, 'row')}); a repeat column holds epoch or trial "
            "numbers (1, 2, 3, ...)."
        )
    for value in np.unique(numbers).tolist():
        position = int(np.flatnonzero(numbers == value)[0])
        repeat_number(value, 0, _where(case_file, position, column))
    return numbers.astype(np.int64)


def _values(
    case_file: CaseFile, column: str, threshold: float | None
) -> tuple[np.ndarray, str | None]:
    """Each row's outcome as a number (NaN: missing), and a note when Inspect's grades were
    read or when values outside the bulk's reading are held as no value (naming the first
    line); with `threshold`, a value that is no number is refused, naming its line."""
    import pandas as pd

    series = case_file.frame[column]
    text = None if pd.api.types.is_numeric_dtype(series.dtype) else series.astype("str")
    if text is not None:
        present = text[series.notna()].str.strip()
        if len(present) and present.isin(list(GRADES)).all():
            values = series.map(GRADES.get, na_action="ignore")
            note = (
                f"{case_file.name}: {column!r} holds Inspect's grades, read as Inspect reads them "
                "(C = 1, I = 0, P = 0.5, N = 0)"
            )
            return values.to_numpy(dtype=np.float64, na_value=np.nan), note
    kind = SCORES
    if threshold is None:  # the bulk of the rows decides, else stops (calculator.cases.bulk)
        reading = bulk_reading([[series]])
        require_clear(reading, [case_file], [[column]])
        kind = reading.kind
    if kind == SCORES:
        numbers = series if text is None else pd.to_numeric(text.str.strip(), errors="coerce")
        values = numbers.to_numpy(dtype=np.float64, na_value=np.nan, copy=True)
        unread = ~np.isfinite(values) & series.notna().to_numpy()
        if text is not None:
            unread &= text.str.strip().ne("").to_numpy()
        allowed, why = "a number (a score)", "not a number"
    else:
        parsed = parse_outcomes(series)
        values = np.where(parsed.passed, 1.0, 0.0)
        values[parsed.missing] = np.nan
        unread = parsed.unparseable
        allowed = f"1 or 0, {', '.join(PASS_WORDS)} or {', '.join(FAIL_WORDS)} in any case"
        why = "not read as a pass/fail outcome"
    bad = np.flatnonzero(unread)
    values[~np.isfinite(values)] = np.nan
    if not bad.size:
        return values, None
    raw = series.iloc[int(bad[0])]
    if threshold is not None:  # told to read numbers: a value that is none is refused
        raise LogError(
            f"{_where(case_file, int(bad[0]), column)}: the outcome {clip(repr(raw), 40)} cannot "
            f"be read ({plural(bad.size, 'row')}); an outcome is {allowed}, or left empty when "
            "missing."
        )
    return values, (  # the minority of the bulk's reading: no value, counted by the pairing
        f"{_where(case_file, int(bad[0]), column)}: {plural(bad.size, 'outcome')} {why} (the "
        f"first: {clip(repr(raw), 40)}), held as no value and counted as missing; an outcome is "
        f"{allowed}"
    )


def _refuse_twice(
    case_file: CaseFile,
    chosen: LongColumns,
    codes: tuple[np.ndarray, ...],
    systems: list[str],
) -> None:
    """Refuse a (system, task, case, repeat) given on two rows, naming both lines."""
    import pandas as pd

    keys = pd.DataFrame({str(k): c for k, c in enumerate(codes)})
    twice = np.flatnonzero(keys.duplicated(keep=False).to_numpy())
    if not twice.size:
        return
    first = int(twice[0])
    same = twice[(keys.iloc[twice] == keys.iloc[first]).all(axis=1).to_numpy()]
    case = case_file.frame[chosen.id].iloc[first]
    lines = [_where(case_file, int(p), chosen.id).split(", ")[1] for p in same[:2]]
    roles = ["system", "task" if chosen.task else "", "case", "repeat" if chosen.repeat else ""]
    roles = [role for role in roles if role]
    what = f"{', '.join(roles[:-1])} and {roles[-1]}"
    hint = (
        "name the repeat column with --repeat COL (an epoch) if the rows are repeats, else "
        "give one row per case and system"
        if chosen.repeat is None
        else f"give one row per {what}"
    )
    raise LogError(
        f"{case_file.name}: {len(twice):,} rows repeat a {what} (the first: "
        f"{chosen.system} {clip(repr(systems[codes[0][first]]), 40)}, {chosen.id} "
        f"{clip(repr(str(case)), 40)} on {lines[0]} and {lines[1]}); {hint}."
    )
