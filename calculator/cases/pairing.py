"""Pairing the cases: :func:`load_cases` reads one file or two, validates every row and pairs A's
outcomes with B's (by row in one file, by id across two files).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.columns import guess_columns, guess_outcomes
from calculator.cases.findings import EXCLUSION_REASONS, fatal
from calculator.cases.joined import Joined, join_rows, read_wide
from calculator.cases.outcomes import check_threshold
from calculator.cases.paired import PairedCases
from calculator.cases.reading import MAX_FILE_BYTES, CaseFile, read_case_file
from calculator.errors import CalculatorError
from calculator.table import PairedTable
from calculator.text import printable

if TYPE_CHECKING:
    import pandas as pd

    from calculator.cases.ledger import RecordLedger

__all__ = ["PairingOptions", "load_cases"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PairingOptions:
    """The columns, threshold and names one pairing uses (None: guessed, or not used)."""

    id_column: str | None = None
    a_column: str | None = None
    b_column: str | None = None
    group_column: str | None = None
    threshold: float | None = None
    names: tuple[str, str] | None = None


def load_cases(
    file_a: str | os.PathLike[str] | bytes | CaseFile,
    file_b: str | os.PathLike[str] | bytes | CaseFile | None = None,
    *,
    id_column: str | None = None,
    a_column: str | None = None,
    b_column: str | None = None,
    group_column: str | None = None,
    threshold: float | None = None,
    names: tuple[str, str] | None = None,
    file_names: tuple[str | None, str | None] = (None, None),
    max_bytes: int = MAX_FILE_BYTES,
) -> PairedCases:
    """Read per-case outcomes of systems A and B and pair them into a 2 x 2 table.

    Parameters
    ----------
    file_a : path, bytes or CaseFile
        One row per case. With one file it holds both outcome columns.
    file_b : path, bytes or CaseFile, optional
        B's rows, paired with `file_a`'s by `id_column`.
    id_column : str, optional
        The case id; required with two files (guessed when omitted and obvious). With one file
        and no id column, cases are numbered by row.
    a_column, b_column : str, optional
        A's and B's outcome columns: both in `file_a`, or `a_column` in `file_a` and `b_column`
        in `file_b`. Guessed when omitted and obvious.
    group_column : str, optional
        Cluster label (document, user, prompt template); rows without one are excluded. With two
        files it is read from `file_a`, or from `file_b` if `file_a` lacks it.
    threshold : float, optional
        Outcomes are numeric scores and pass when at or above it (see :func:`parse_outcomes`).
    names : (str, str), optional
        Names of A and B; default: the two column names with one file, "A" and "B" with two.
    file_names : (str, str)
        Names for files given as bytes (their extension picks the format).
    max_bytes : int
        Largest file size accepted.

    Returns
    -------
    PairedCases

    Raises
    ------
    CaseFileError
        When a file cannot be analysed (see :func:`read_case_file`) or a column is missing.
    ValueError
        When a column cannot be guessed; the message says which option to set.

    Notes
    -----
    Rows are left out, never silently: each exclusion is counted by reason in
    ``PairedCases.excluded`` and described, with its first rows, in ``PairedCases.issues``.
    A row is excluded when a needed value is missing or blank, an outcome cannot be read, its id
    occurs more than once in its file (every copy is excluded, as the pairing is ambiguous), its
    id is absent from the other file, or its partner row in the other file was excluded.
    Ids are compared exactly as written, after trimming spaces, never through floating point;
    when every id is an integer they are compared as integers of any size (so 7, 7.0 and 007
    are one id). The same file given twice (byte for byte) is refused.

    Examples
    --------
    >>> data = b"id,old,new\\nq1,pass,fail\\nq2,1,1\\nq3,no,yes\\nq3,1,0\\n"
    >>> cases = load_cases(data, id_column="id", file_names=("runs.csv", None))
    >>> cases.counts, cases.excluded["duplicate_id"], cases.names
    ((1, 1, 0, 0), 2, ('old', 'new'))
    """
    first = read_case_file(file_a, name=file_names[0], max_bytes=max_bytes)
    options = PairingOptions(
        id_column=id_column,
        a_column=a_column,
        b_column=b_column,
        group_column=group_column,
        threshold=check_threshold(threshold),
        names=None if names is None else (printable(names[0]), printable(names[1])),
    )
    if file_b is None:
        return _pair_one_file(first, options)
    second = read_case_file(file_b, name=file_names[1], max_bytes=max_bytes)
    if first.data and first.data == second.data:
        raise fatal(
            "same_file",
            second.name,
            f"{first.name} and {second.name} are the same file, byte for byte: a system compared "
            "with itself always gives p = 1; give B's results as the second file.",
        )
    return _pair_two_files(first, second, options)


# --- one file ---------------------------------------------------------------------------------


def _pair_one_file(case_file: CaseFile, options: PairingOptions) -> PairedCases:
    import pandas as pd

    options = _one_file_columns(case_file, options)
    id_column, a_column, b_column = options.id_column, options.a_column, options.b_column
    group_column = options.group_column
    wide = read_wide(
        case_file,
        [a_column, b_column],
        id_column,
        options.threshold,
        group_column=group_column,
        pairing=True,
    )
    kept = wide.ledger.kept
    frame = case_file.frame
    used = frame if kept.all() else frame[kept]  # no copy when every row is kept
    if id_column is None:
        used = pd.concat([pd.DataFrame({"row": used.index}, index=used.index), used], axis=1)
        first_columns = ["row", a_column, b_column]
    else:
        ids = wide.ids_of_codes(wide.codes if kept.all() else wide.codes[kept])
        used = used.assign(**{id_column: ids.set_axis(used.index)})
        first_columns = [id_column, a_column, b_column]
    if group_column is not None and group_column not in first_columns:
        first_columns.append(group_column)
    ordered = first_columns + [c for c in used.columns if c not in first_columns]
    return _paired_result(
        options,
        names=options.names or (_name(a_column, "A"), _name(b_column, "B")),
        ledger=wide.ledger,
        cases=used[ordered].reset_index(drop=True),
        a_pass=wide.passed[kept, 0],
        b_pass=wide.passed[kept, 1],
    )


def _one_file_columns(case_file: CaseFile, options: PairingOptions) -> PairingOptions:
    """`options` with A's and B's columns guessed where not given, every column checked."""
    a_column, b_column = options.a_column, options.b_column
    if a_column is None or b_column is None:
        taken = (options.id_column, options.group_column, a_column, b_column)
        free = _guess_outcomes(case_file, taken)
        if a_column is None and free:
            a_column = free.pop(0)
        if b_column is None and free:
            b_column = free.pop(0)
        if a_column is None or b_column is None:
            raise CalculatorError(
                f"{case_file.name}: cannot tell which columns hold A's and B's outcomes; name "
                f"them (--a and --b on the command line){_score_hint(case_file)}."
            )
    if a_column == b_column:
        raise CalculatorError(f"A and B must be different columns, but both are {a_column!r}.")
    _refuse_outcome_as_key(case_file, (a_column, b_column), options)
    for column, role in (
        (options.id_column, "the id"),
        (a_column, "A's outcome"),
        (b_column, "B's outcome"),
        (options.group_column, "the group"),
    ):
        if column is not None:
            _require_column(case_file, column, role)
    return dataclasses.replace(options, a_column=a_column, b_column=b_column)


def _refuse_outcome_as_key(
    case_file: CaseFile,
    outcomes: tuple[str, ...],
    options: PairingOptions,
    id_column: str | None = None,
) -> None:
    """An outcome column cannot also pair the rows (id) or cluster them (group): every case
    would be matched or grouped by its own outcome."""
    keys = (
        (id_column if id_column is not None else options.id_column, "id"),
        (options.group_column, "group"),
    )
    for column, role in keys:
        if column is not None and column in outcomes:
            raise CalculatorError(
                f"{case_file.name}: {column!r} is chosen both as an outcome column and as the "
                f"{role} column; choose a different {role} column."
            )


# --- two files --------------------------------------------------------------------------------


def _pair_two_files(first: CaseFile, second: CaseFile, options: PairingOptions) -> PairedCases:
    options = _two_file_columns(first, second, options)
    id_column, group_column = options.id_column, options.group_column
    group = None
    if group_column is not None:
        group_file = first if group_column in first.frame.columns else second
        _require_column(group_file, group_column, "the group")
        group = (0 if group_file is first else 1, group_column)
    names = options.names or ("A", "B")
    systems = np.repeat(np.arange(2, dtype=np.int8), [len(first.frame), len(second.frame)])
    joined = join_rows(
        [first, second],
        names,
        systems,
        id_column,
        [options.a_column, options.b_column],
        options.threshold,
        group=group,
        pairing=True,
    )
    cases, a_flags, b_flags, out_group = _merge(
        joined, options, names, group is not None and group[0] == 0
    )
    return _paired_result(
        dataclasses.replace(options, group_column=out_group),
        names=names,
        ledger=joined.ledger,
        cases=cases,
        a_pass=a_flags,
        b_pass=b_flags,
    )


def _two_file_columns(first: CaseFile, second: CaseFile, options: PairingOptions) -> PairingOptions:
    """`options` with the id and A's and B's columns guessed where not given, each checked."""
    id_column, group_column = options.id_column, options.group_column
    if id_column is None:
        guesses = {guess_outcomes(first.frame).id_column, guess_outcomes(second.frame).id_column}
        if len(guesses) != 1 or None in guesses:
            raise CalculatorError(
                f"{first.name} and {second.name}: cannot tell which column pairs the rows; name "
                "the id column both files share (--id on the command line)."
            )
        id_column = guesses.pop()
    columns = {}
    sides = ((first, options.a_column, "A"), (second, options.b_column, "B"))
    for case_file, column, role in sides:
        if column is None:
            free = _guess_outcomes(case_file, (id_column, group_column))
            if not free:
                option = "--a" if role == "A" else "--b"
                raise CalculatorError(
                    f"{case_file.name}: cannot tell which column holds {role}'s outcomes; name it "
                    f"({option} on the command line){_score_hint(case_file)}."
                )
            column = free[0]
        columns[role] = column
    _refuse_outcome_as_key(first, (columns["A"],), options, id_column)
    _refuse_outcome_as_key(second, (columns["B"],), options, id_column)
    _require_column(first, id_column, "the id")
    _require_column(second, id_column, "the id")
    _require_column(first, columns["A"], "A's outcome")
    _require_column(second, columns["B"], "B's outcome")
    return dataclasses.replace(
        options, id_column=id_column, a_column=columns["A"], b_column=columns["B"]
    )


def _merge(
    joined: Joined, options: PairingOptions, names: tuple[str, str], group_in_first: bool
) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, str | None]:
    """The kept rows of both files side by side, one per id in A's order, with the pass flags.

    Rows are matched by their id codes (no join on text). Columns both files hold are shown
    once when equal, else once per system, tagged with its name. Returns the cases, the two
    flag arrays and the group column's name in the cases.
    """
    import pandas as pd

    id_column, a_column, b_column = options.id_column, options.a_column, options.b_column
    first, second = joined.ledger.files
    size = len(first.frame)
    kept, codes = joined.ledger.kept, joined.codes
    rows_a, rows_b = np.flatnonzero(kept[:size]), np.flatnonzero(kept[size:])
    codes_a, codes_b = codes[:size], codes[size:]
    row_of_code = np.full(int(max(codes_a.max(initial=0), codes_b.max(initial=0))) + 1, -1)
    row_of_code[codes_b[rows_b]] = rows_b
    partners = row_of_code[codes_a[rows_a]]  # each kept id is kept in both files
    left = first.frame.iloc[rows_a].reset_index(drop=True)
    right = second.frame.iloc[partners].reset_index(drop=True)
    left[id_column] = joined.ids_of_codes(codes_a[rows_a])
    right = right.drop(columns=[id_column])
    clash = set(left.columns) & set(right.columns)
    tag_a, tag_b = names if names[0] != names[1] else ("A", "B")
    left = left.rename(columns={c: f"{c} ({tag_a})" for c in clash})
    right = right.rename(columns={c: f"{c} ({tag_b})" for c in clash})
    merged = pd.concat([left, right], axis=1)
    for column in sorted(clash - {a_column, b_column}):
        # Columns both logs share with equal values (the document, the target) are shown once.
        ours, theirs = f"{column} ({tag_a})", f"{column} ({tag_b})"
        if merged[ours].equals(merged[theirs]):
            merged = merged.drop(columns=theirs).rename(columns={ours: column})
            clash = clash - {column}
    out_a = f"{a_column} ({tag_a})" if a_column in clash else a_column
    out_b = f"{b_column} ({tag_b})" if b_column in clash else b_column
    out_group = options.group_column
    if out_group is not None and out_group in clash:
        out_group = f"{out_group} ({tag_a if group_in_first else tag_b})"
    # The group may be the id itself (every case its own cluster): list each column once.
    first_columns = list(
        dict.fromkeys([id_column, out_a, out_b] + ([out_group] if out_group else []))
    )
    ordered = first_columns + [c for c in merged.columns if c not in first_columns]
    return merged[ordered], joined.passed[rows_a], joined.passed[size + partners], out_group


# --- shared -----------------------------------------------------------------------------------


def _paired_result(
    options: PairingOptions,
    *,
    names: tuple[str, str],
    ledger: RecordLedger,
    cases: pd.DataFrame,
    a_pass: np.ndarray,
    b_pass: np.ndarray,
) -> PairedCases:
    excluded = dict.fromkeys(EXCLUSION_REASONS, 0)
    excluded.update(ledger.excluded_counts())
    return PairedCases(
        names=names,
        files=tuple(case_file.name for case_file in ledger.files),
        id_column=options.id_column,
        outcome_columns=(options.a_column, options.b_column),
        group_column=options.group_column,
        threshold=options.threshold,
        table=PairedTable.from_outcomes(a_pass, b_pass),
        rows_read=sum(len(f.frame) + f.unread_rows for f in ledger.files),
        rows_used=int(np.count_nonzero(ledger.kept)),
        excluded=excluded,
        issues=ledger.issues,
        cases=cases,
        a_pass=a_pass,
        b_pass=b_pass,
    )


def _score_hint(case_file: CaseFile) -> str:
    """ "; 'f1' holds scores: set a threshold" when some columns hold numbers, not outcomes."""
    scores = guess_columns(case_file.frame).score_columns
    if not scores:
        return ""
    listed = ", ".join(repr(column) for column in scores[:3])
    verb = "holds" if len(scores) == 1 else "hold"
    return f"; {listed} {verb} scores: set a threshold to read them as pass/fail"


def _guess_outcomes(case_file: CaseFile, taken: tuple[str | None, ...]) -> list[str]:
    """The pass/fail columns not `taken`, best first (no scores: they need a threshold)."""
    return list(guess_outcomes(case_file.frame, taken=taken, guess_id=False).outcome_columns)


def _require_column(case_file: CaseFile, column: str, role: str) -> None:
    if column not in case_file.frame.columns:
        available = ", ".join(case_file.frame.columns[:12])
        raise fatal(
            "missing_column",
            case_file.name,
            f"{case_file.name}: no column {column!r} for {role}; the columns are {available}.",
            column=column,
        )


def _name(column: str, fallback: str) -> str:
    name = " ".join(column.split())[:60]
    return name or fallback
