"""Per-case outcomes: read one file or two, validate every row, and count the paired table.

Contents, in reading order:

- outcome spellings and :func:`parse_outcomes` (pass/fail words, 0/1, or a score and a threshold);
- :class:`CaseIssue` and :class:`CaseFileError`: one validation finding each, with its count and
  first offending rows;
- :func:`read_case_file`: CSV, TSV, JSON Lines or Parquet from a path or bytes, with the
  file-level checks (size, empty, header only, binary data, wrong delimiter, malformed lines);
- :func:`guess_columns`: the id and outcome columns when they are obvious;
- :func:`load_cases` and :class:`PairedCases`: rows paired (by id across two files), excluded rows
  counted by reason, the 2 x 2 counts and the discordant cases;
- :func:`escape_spreadsheet_cell` and :func:`to_escaped_csv`: exports safe to open in a spreadsheet.

pandas is imported inside the functions that need it, so ``import calculator`` stays light.
"""

from __future__ import annotations

import codecs
import io
import json
import math
import os
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from calculator.clustered import cluster_discordant_counts

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "PASS_WORDS",
    "FAIL_WORDS",
    "FORMATS",
    "MAX_FILE_BYTES",
    "EXCLUSION_REASONS",
    "ParsedOutcomes",
    "parse_outcomes",
    "OffendingRow",
    "CaseIssue",
    "CaseFileError",
    "CaseFile",
    "read_case_file",
    "ColumnGuess",
    "guess_columns",
    "PairedCases",
    "load_cases",
    "escape_spreadsheet_cell",
    "to_escaped_csv",
]

#: Spellings read as a pass / a fail, compared after trimming spaces and lower-casing.
#: Numbers equal to 1 or 0 ("1", "0", "1.0", 1, 0.0) count as well.
PASS_WORDS = ("true", "pass", "passed", "yes", "correct", "right")
FAIL_WORDS = ("false", "fail", "failed", "no", "wrong", "incorrect")
_PASS_TEXT = (*PASS_WORDS, "1", "1.0")
_FAIL_TEXT = (*FAIL_WORDS, "0", "0.0")

#: File formats by extension; files with another extension are recognised by their content.
FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}

#: Largest file read, in bytes (Streamlit's default upload limit).
MAX_FILE_BYTES = 200 * 1024 * 1024

#: Why rows are left out of the analysis, in the order a row's first problem is attributed.
EXCLUSION_REASONS = (
    "malformed_line",
    "missing_value",
    "unparseable_outcome",
    "duplicate_id",
    "id_in_one_file_only",
    "partner_excluded",
)

_EXAMPLES = 5  # offending rows kept per issue
_LINE_KINDS = ("malformed_line", "binary_file", "wrong_delimiter")  # examples numbered by line
_DELIMITERS = {"csv": ",", "tsv": "\t"}
_OTHER_DELIMITERS = {",": "comma", "\t": "tab", ";": "semicolon", "|": "vertical bar"}
_ID_NAMES = (
    "doc_id",
    "id",
    "case_id",
    "sample_id",
    "example_id",
    "item_id",
    "question_id",
    "task_id",
    "instance_id",
    "uid",
    "idx",
)
_OUTCOME_NAMES = (
    "exact_match",
    "acc",
    "accuracy",
    "correct",
    "is_correct",
    "pass",
    "passed",
    "em",
    "outcome",
    "result",
    "score",
)
_GUESS_ROWS = 1000  # rows inspected when guessing columns


# --- outcomes ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedOutcomes:
    """Outcomes read from one column: three boolean arrays of the column's length.

    ``passed`` is meaningful only where neither ``missing`` nor ``unparseable`` is set.
    """

    passed: np.ndarray
    missing: np.ndarray
    unparseable: np.ndarray


def parse_outcomes(values: object, *, threshold: float | None = None) -> ParsedOutcomes:
    """Read pass/fail outcomes from a column of words, 0/1 values or scores.

    Parameters
    ----------
    values : pandas.Series or sequence
        One outcome per case.
    threshold : float, optional
        When given, every value must be a number and a case passes when its score is at least
        the threshold. When omitted, values must be 1/0 (as numbers or text) or one of
        :data:`PASS_WORDS` / :data:`FAIL_WORDS`, in any case, with surrounding spaces ignored.

    Returns
    -------
    ParsedOutcomes
        ``passed``, ``missing`` (empty, blank, null) and ``unparseable`` arrays.

    Raises
    ------
    TypeError, ValueError
        If `threshold` is not a finite number.

    Examples
    --------
    >>> parsed = parse_outcomes(["Pass", " no ", "1", "0.0", "maybe", None, True])
    >>> parsed.passed.tolist()
    [True, False, True, False, False, False, True]
    >>> parsed.missing.tolist(), parsed.unparseable.tolist()[4]
    ([False, False, False, False, False, True, False], True)
    >>> parse_outcomes([0.91, 0.42, 0.5], threshold=0.5).passed.tolist()
    [True, False, True]
    """
    pd = _pandas()
    cut = _check_threshold(threshold)
    series = values if isinstance(values, pd.Series) else pd.Series(list(values), dtype=object)
    missing = series.isna().to_numpy(dtype=bool)
    if pd.api.types.is_numeric_dtype(series.dtype):  # bool columns included: True is 1
        scores = series.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        text = series.astype("str").str.strip().str.lower()
        missing = missing | (text == "").to_numpy(dtype=bool, na_value=False)
        scores = np.full(len(series), np.nan)
        if cut is None:
            scores[text.isin(_PASS_TEXT).to_numpy(dtype=bool)] = 1.0
            scores[text.isin(_FAIL_TEXT).to_numpy(dtype=bool)] = 0.0
        rest = np.isnan(scores) & ~missing
        if rest.any():  # only the values that are not a usual spelling go through to_numeric
            scores[rest] = pd.to_numeric(text[rest], errors="coerce").to_numpy(
                dtype=np.float64, na_value=np.nan
            )
    with np.errstate(invalid="ignore"):
        if cut is None:
            valid = (scores == 0.0) | (scores == 1.0)
            passed = scores == 1.0
        else:
            valid = ~np.isnan(scores)
            passed = scores >= cut
    unparseable = ~missing & ~valid
    return ParsedOutcomes(
        passed=passed & ~missing & ~unparseable, missing=missing, unparseable=unparseable
    )


def _check_threshold(threshold: object) -> float | None:
    if threshold is None:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, int | float | np.number):
        raise TypeError(f"`threshold` must be a number, but got {threshold!r}.")
    if not math.isfinite(float(threshold)):
        raise ValueError(f"`threshold` must be a finite number, but got {threshold!r}.")
    return float(threshold)


# --- validation findings ----------------------------------------------------------------------


class OffendingRow(NamedTuple):
    """One example of a problem: the row (or file line) number, the case id, the value."""

    row: int
    case_id: str | None
    value: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseIssue:
    """One validation finding about the input.

    Attributes
    ----------
    kind : str
        One of :data:`EXCLUSION_REASONS` (rows left out, the rest is analysed) or a file-level
        problem that stops the analysis: "too_large", "empty_file", "header_only",
        "binary_file", "wrong_delimiter", "unreadable_file", "missing_column".
    file : str
        The file's name.
    column : str or None
        The column concerned, if any.
    count : int
        How many rows (or lines, or bytes for "binary_file" and "too_large") are affected.
    examples : tuple of OffendingRow
        The first few offending rows. ``row`` counts data rows from 1 (the header is not a row);
        for "malformed_line", "binary_file" and "wrong_delimiter" it is the file's line instead.
    message : str
        One line saying what is wrong and what to do.
    fatal : bool
        True when nothing can be analysed.
    """

    kind: str
    file: str
    column: str | None
    count: int
    examples: tuple[OffendingRow, ...] = ()
    message: str
    fatal: bool = False

    @property
    def row_label(self) -> str:
        """ "line" where the examples are numbered by file line, else "row"."""
        return "line" if self.kind in _LINE_KINDS else "row"

    def to_dict(self) -> dict[str, object]:
        """The finding as plain JSON types."""
        return {
            "kind": self.kind,
            "file": self.file,
            "column": self.column,
            "count": self.count,
            "first_rows": [example._asdict() for example in self.examples],
            "message": self.message,
            "fatal": self.fatal,
        }


class CaseFileError(ValueError):
    """An input that cannot be analysed at all; ``issue`` holds the finding."""

    def __init__(self, issue: CaseIssue) -> None:
        super().__init__(issue.message)
        self.issue = issue


def _fatal(
    kind: str,
    file: str,
    message: str,
    *,
    count: int = 1,
    column: str | None = None,
    examples: tuple[OffendingRow, ...] = (),
) -> CaseFileError:
    return CaseFileError(
        CaseIssue(
            kind=kind,
            file=file,
            column=column,
            count=count,
            examples=examples,
            message=message,
            fatal=True,
        )
    )


# --- reading a file ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseFile:
    """One file as read: its rows (index = row number from 1) and the lines it could not read.

    Attributes
    ----------
    name : str
        The file's name (for messages).
    format : str
        "csv", "tsv", "jsonl" or "parquet".
    frame : pandas.DataFrame
        The rows read; the index numbers data rows from 1 (JSON Lines: the line number).
    issues : tuple of CaseIssue
        Lines that could not be read as a row ("malformed_line"); they are not in `frame`.
    """

    name: str
    format: str
    frame: pd.DataFrame
    issues: tuple[CaseIssue, ...] = ()

    @property
    def unread_rows(self) -> int:
        """Lines of data that could not be read as a row."""
        return sum(issue.count for issue in self.issues)


def read_case_file(
    source: str | os.PathLike[str] | bytes | bytearray | memoryview | CaseFile,
    *,
    name: str | None = None,
    max_bytes: int = MAX_FILE_BYTES,
) -> CaseFile:
    """Read a CSV, TSV, JSON Lines or Parquet file of per-case results.

    Parameters
    ----------
    source : path, bytes or CaseFile
        A path, or the file's bytes (an upload). A CaseFile is returned unchanged.
    name : str, optional
        The file's name, used for its extension and in messages (default: the path's name,
        or "uploaded file").
    max_bytes : int
        Largest size accepted.

    Returns
    -------
    CaseFile

    Raises
    ------
    CaseFileError
        When the file is over the size limit, empty, only a header, binary, split by another
        delimiter than its format's, or unreadable in its format.
    OSError
        When the path cannot be read.

    Notes
    -----
    The format comes from the extension (:data:`FORMATS`), otherwise from the content:
    Parquet's "PAR1" magic, a first character "{" or "[" for JSON Lines, a tab in the first line
    for TSV, else CSV. Text must be UTF-8. Nested JSON objects are flattened one level
    ("doc.question"). Lines with more fields than the header are left out and reported as
    "malformed_line"; missing trailing fields read as missing values.

    Examples
    --------
    >>> case_file = read_case_file(b"id,a,b\\nq1,pass,fail\\nq2,1,1\\n", name="runs.csv")
    >>> case_file.format, case_file.frame.shape, case_file.frame.index.tolist()
    ('csv', (2, 3), [1, 2])
    """
    if isinstance(source, CaseFile):
        return source
    data, name = _read_bytes(source, name, max_bytes)
    file_format = _detect_format(data, name)
    issues: tuple[CaseIssue, ...] = ()
    if file_format == "parquet":
        frame = _read_parquet(data, name)
    else:
        _check_text(data, name)
        if file_format == "jsonl":
            frame, issues = _read_json_lines(data.decode("utf-8-sig"), name)
        else:
            frame, issues = _read_delimited(data, name, file_format)
    if frame.shape[1] == 0:
        raise _fatal("empty_file", name, f"{name}: the file has no columns.", count=0)
    if len(frame) == 0 and not issues:
        columns = ", ".join(map(str, frame.columns[:8]))
        raise _fatal(
            "header_only",
            name,
            f"{name}: the file has a header ({columns}) but no rows of data.",
            count=0,
        )
    frame.columns = [str(column) for column in frame.columns]
    return CaseFile(name=name, format=file_format, frame=frame, issues=issues)


def _read_bytes(source: object, name: str | None, max_bytes: int) -> tuple[bytes, str]:
    if isinstance(source, bytes | bytearray | memoryview):
        name = name or "uploaded file"
        size = len(source)
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        name = name or path.name
        size = path.stat().st_size
    else:
        raise TypeError(f"A case file must be a path or bytes, but got {type(source).__name__}.")
    if size > max_bytes:
        raise _fatal(
            "too_large",
            name,
            f"{name}: the file is {size:,} bytes, over the limit of {max_bytes:,} bytes; "
            "keep the columns you need or split the file.",
            count=size,
        )
    data = bytes(source) if not isinstance(source, str | os.PathLike) else path.read_bytes()
    if not data or data.isspace():
        raise _fatal("empty_file", name, f"{name}: the file is empty.", count=0)
    return data, name


def _detect_format(data: bytes, name: str) -> str:
    known = FORMATS.get(Path(name).suffix.lower())
    if known:
        return known
    if data[:4] == b"PAR1":
        return "parquet"
    first = re.search(rb"\S", data[:65536])
    if first and first.group() in (b"{", b"["):
        return "jsonl"
    first_line = _first_line_of(data)
    return "tsv" if b"\t" in first_line and b"," not in first_line else "csv"


def _first_line_of(data: bytes) -> bytes:
    """The first non-blank line, without copying the whole file."""
    start = re.search(rb"[^\r\n]", data[:65536])
    offset = start.start() if start else 0
    end = data.find(b"\n", offset)
    return data[offset : end if end >= 0 else len(data)].rstrip(b"\r")


def _check_text(data: bytes, name: str) -> None:
    """Refuse binary data and text that is not UTF-8, with the line of the first bad byte."""
    # Known binary containers first: their message can say what to do.
    hints = {
        b"PK\x03\x04": "a zip archive or Excel workbook",
        b"\x1f\x8b": "a gzip archive",
        b"PAR1": "a Parquet file",
    }
    for magic, what in hints.items():
        if data.startswith(magic):
            raise _fatal(
                "binary_file",
                name,
                f"{name}: this is {what}, not text; export it as CSV, TSV or JSON Lines "
                "(or name a Parquet file .parquet).",
                count=len(data),
                examples=(OffendingRow(1, None, repr(data[:8])),),
            )
    if data.find(b"\x00") >= 0:
        lines = _lines_with(data, b"\x00")
        raise _fatal(
            "binary_file",
            name,
            f"{name}: the file holds binary data (NUL bytes, the first on line {lines[0]}), "
            "not text.",
            count=data.count(b"\x00"),
            examples=tuple(OffendingRow(line, None, "NUL byte") for line in lines),
        )
    # Decode in slices: validating a large file must not hold a second copy of it as text.
    view, position, chunk = memoryview(data), 0, 1 << 20
    while position < len(data):
        final = position + chunk >= len(data)
        try:
            _, consumed = codecs.utf_8_decode(view[position : position + chunk], "strict", final)
        except UnicodeDecodeError as error:
            bad = position + error.start
            line = data.count(b"\n", 0, bad) + 1
            raise _fatal(
                "binary_file",
                name,
                f"{name}: the file is not UTF-8 text (byte {data[bad]:#04x} on line {line}); "
                "save it as UTF-8.",
                count=1,
                examples=(OffendingRow(line, None, repr(data[bad : bad + 8])),),
            ) from None
        position += consumed


def _lines_with(data: bytes, needle: bytes) -> list[int]:
    """Line numbers of the first few lines containing `needle`."""
    lines, start = [], 0
    while (found := data.find(needle, start)) >= 0 and len(lines) < _EXAMPLES:
        lines.append(data.count(b"\n", 0, found) + 1)
        start = data.find(b"\n", found) + 1 or len(data)
    return lines


def _read_delimited(
    data: bytes, name: str, file_format: str
) -> tuple[pd.DataFrame, tuple[CaseIssue, ...]]:
    pd = _pandas()
    delimiter = _DELIMITERS[file_format]
    header = _first_line_of(data).decode("utf-8-sig")
    if delimiter not in header:
        other = next((d for d in _OTHER_DELIMITERS if d != delimiter and d in header), None)
        if other is not None:
            raise _wrong_delimiter(data, name, file_format, delimiter, other)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            frame = pd.read_csv(
                io.BytesIO(data), sep=delimiter, on_bad_lines="warn", encoding="utf-8-sig"
            )
        except pd.errors.EmptyDataError:
            raise _fatal("empty_file", name, f"{name}: the file is empty.", count=0) from None
        except (pd.errors.ParserError, ValueError) as error:
            raise _fatal(
                "unreadable_file",
                name,
                f"{name}: not readable as {file_format.upper()}: {_first_line(error)}",
            ) from None
    bad_lines = [
        (int(line), detail)
        for warning in caught
        for line, detail in re.findall(r"Skipping line (\d+): ([^\n]*)", str(warning.message))
    ]
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    if not bad_lines:
        return frame, ()
    issue = CaseIssue(
        kind="malformed_line",
        file=name,
        column=None,
        count=len(bad_lines),
        examples=tuple(OffendingRow(line, None, detail) for line, detail in bad_lines[:_EXAMPLES]),
        message=f"{name}: {_many(len(bad_lines), 'line')} with more fields than the header's "
        f"{frame.shape[1]} (a stray delimiter or quote?), left out.",
    )
    return frame, (issue,)


def _wrong_delimiter(
    data: bytes, name: str, file_format: str, delimiter: str, other: str
) -> CaseFileError:
    marker = other.encode()
    examples, count = [], 0
    for number, raw in enumerate(io.BytesIO(data), start=1):
        if marker in raw:
            count += 1
            if len(examples) < _EXAMPLES:
                examples.append(OffendingRow(number, None, _clip(raw.decode("utf-8-sig").strip())))
    expected = _OTHER_DELIMITERS[delimiter]
    rename = {"\t": " or name it .tsv", ",": " or name it .csv"}.get(other, "")
    return _fatal(
        "wrong_delimiter",
        name,
        f"{name}: the columns are separated by a {_OTHER_DELIMITERS[other]}, but a "
        f"{file_format.upper()} file uses a {expected}; save it with {expected}s{rename}.",
        count=count,
        examples=tuple(examples),
    )


def _read_json_lines(text: str, name: str) -> tuple[pd.DataFrame, tuple[CaseIssue, ...]]:
    pd = _pandas()
    records: list[dict[str, object]] = []
    line_numbers: list[int] = []
    bad: list[OffendingRow] = []
    bad_count = 0
    stripped = text.lstrip()
    if stripped.startswith("["):  # a JSON array of objects, accepted too
        try:
            array = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise _fatal("unreadable_file", name, f"{name}: not valid JSON: {error}.") from None
        pairs = enumerate(array, start=1) if isinstance(array, list) else [(1, array)]
        for number, record in pairs:
            if isinstance(record, dict):
                records.append(record)
                line_numbers.append(number)
            else:
                bad_count += 1
                if len(bad) < _EXAMPLES:
                    bad.append(OffendingRow(number, None, _clip(json.dumps(record))))
    else:
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                record = None
            if isinstance(record, dict):
                records.append(record)
                line_numbers.append(number)
            else:
                bad_count += 1
                if len(bad) < _EXAMPLES:
                    bad.append(OffendingRow(number, None, _clip(line)))
    if not records:
        raise _fatal(
            "unreadable_file",
            name,
            f"{name}: no line is a JSON object, so this is not JSON Lines"
            + (f" (line {bad[0].row}: {bad[0].value!r})." if bad else "."),
            count=bad_count,
            examples=tuple(bad),
        )
    frame = pd.json_normalize(records, max_level=1)
    frame.index = pd.Index(line_numbers)
    issues: tuple[CaseIssue, ...] = ()
    if bad_count:
        issues = (
            CaseIssue(
                kind="malformed_line",
                file=name,
                column=None,
                count=bad_count,
                examples=tuple(bad),
                message=f"{name}: {_many(bad_count, 'line')} not a JSON object, left out.",
            ),
        )
    return frame, issues


def _read_parquet(data: bytes, name: str) -> pd.DataFrame:
    pd = _pandas()
    try:
        frame = pd.read_parquet(io.BytesIO(data))
    except Exception as error:  # pyarrow raises several types for a damaged file
        raise _fatal(
            "unreadable_file", name, f"{name}: not a readable Parquet file: {_first_line(error)}"
        ) from None
    frame = frame.reset_index(drop=True)
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    return frame


def _first_line(error: Exception) -> str:
    return str(error).strip().split("\n")[0][:200]


def _many(count: int, noun: str) -> str:
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- guessing columns -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ColumnGuess:
    """Columns that look like an id, pass/fail outcomes, or numeric scores (best first)."""

    id_column: str | None
    outcome_columns: tuple[str, ...]
    score_columns: tuple[str, ...]


def guess_columns(frame: pd.DataFrame) -> ColumnGuess:
    """Guess the id column and the outcome columns of a file when they are obvious.

    An id column has a usual id name (``doc_id``, ``id``, ``case_id``...) or ends in "_id".
    An outcome column's first rows all read as pass/fail without a threshold; columns with
    usual metric names (``exact_match``, ``acc``, ``correct``...) come first. Score columns are
    numeric columns that are not outcomes (they need a threshold).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"doc_id": [1, 2], "f1": [0.3, 0.9], "acc": [1.0, 0.0],
    ...                       "new": ["pass", "fail"]})
    >>> guess_columns(frame)
    ColumnGuess(id_column='doc_id', outcome_columns=('acc', 'new'), score_columns=('f1',))
    """
    pd = _pandas()
    head = frame.head(_GUESS_ROWS)
    lowered = {column.lower(): column for column in frame.columns}
    id_column = next((lowered[name] for name in _ID_NAMES if name in lowered), None)
    if id_column is None:
        id_column = next((c for c in frame.columns if _looks_like_id(c)), None)
    outcomes, scores = [], []
    for column in frame.columns:
        if column == id_column:
            continue
        values = head[column]
        if values.map(lambda v: isinstance(v, list | dict)).any():
            continue
        parsed = parse_outcomes(values)
        present = ~parsed.missing
        if present.any() and not parsed.unparseable.any():
            outcomes.append(column)
        elif pd.api.types.is_numeric_dtype(values.dtype) and present.any():
            scores.append(column)

    def rank(column: str) -> int:
        name = column.lower().split(".")[-1]
        return _OUTCOME_NAMES.index(name) if name in _OUTCOME_NAMES else len(_OUTCOME_NAMES)

    outcomes.sort(key=rank)  # stable: file order among equals
    return ColumnGuess(
        id_column=id_column, outcome_columns=tuple(outcomes), score_columns=tuple(scores)
    )


def _looks_like_id(column: str) -> bool:
    name = column.strip().lower()
    return name in _ID_NAMES or name.endswith("_id")


# --- pairing the cases ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PairedCases:
    """Per-case outcomes of two systems, paired and validated, with the paired 2 x 2 counts.

    Attributes
    ----------
    names : (str, str)
        Names of systems A and B.
    files : tuple of str
        The file names read (one or two).
    id_column, group_column : str or None
        The columns used (None: no id column, rows are numbered; no clusters).
    outcome_columns : (str, str)
        The outcome columns of A and B as named in the file(s).
    threshold : float or None
        Scores at or above it pass; None when outcomes are pass/fail values.
    a, b, c, d : int
        Both pass, only A passes, only B passes, both fail, over the cases used.
    rows_read, rows_used : int
        Rows in the file(s) (lines that could not be read included) and rows analysed; with two
        files a case uses one row of each.
    excluded : dict
        Rows left out by reason (:data:`EXCLUSION_REASONS`); each row counts once, under its
        first problem in that order, so ``rows_read == rows_used + sum(excluded.values())``.
    issues : tuple of CaseIssue
        Every finding, with its count and first offending rows. A row with several problems
        appears under each.
    cases : pandas.DataFrame
        The cases used, in file order: the id, the two outcome columns as read, the group
        column, then the other columns.
    a_pass, b_pass : numpy.ndarray
        Whether A (B) passes each case, aligned with `cases`.
    """

    names: tuple[str, str]
    files: tuple[str, ...]
    id_column: str | None
    outcome_columns: tuple[str, str]
    group_column: str | None
    threshold: float | None
    a: int
    b: int
    c: int
    d: int
    rows_read: int
    rows_used: int
    excluded: Mapping[str, int]
    issues: tuple[CaseIssue, ...]
    cases: pd.DataFrame = field(repr=False)
    a_pass: np.ndarray = field(repr=False)
    b_pass: np.ndarray = field(repr=False)

    @property
    def n(self) -> int:
        """Cases used."""
        return self.a + self.b + self.c + self.d

    @property
    def counts(self) -> tuple[int, int, int, int]:
        """(a, b, c, d), ready for :func:`calculator.analyze`."""
        return self.a, self.b, self.c, self.d

    @property
    def case_ids(self) -> pd.Series:
        """The id of every case used, as text."""
        return self.cases.iloc[:, 0].astype("str")

    def only_a(self) -> pd.DataFrame:
        """The cases only A passes (cell b), with every column."""
        return self.cases[self.a_pass & ~self.b_pass]

    def only_b(self) -> pd.DataFrame:
        """The cases only B passes (cell c), with every column."""
        return self.cases[self.b_pass & ~self.a_pass]

    def cluster_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-cluster discordant counts (b_i, c_i), as `clustered_mcnemar` takes them.

        Raises
        ------
        ValueError
            If no group column was chosen.
        """
        if self.group_column is None:
            raise ValueError("No group column was chosen, so the cases have no clusters.")
        codes = _group_codes(self.cases[self.group_column].astype("str"))
        return cluster_discordant_counts(self.a_pass, self.b_pass, codes)

    def input_summary(self) -> dict[str, object]:
        """Rows read, used and excluded by reason, with every finding, as plain JSON types."""
        return {
            "files": list(self.files),
            "columns": {
                "id": self.id_column,
                "A": self.outcome_columns[0],
                "B": self.outcome_columns[1],
                "group": self.group_column,
            },
            "threshold": self.threshold,
            "rows_read": self.rows_read,
            "rows_used": self.rows_used,
            "cases_used": self.n,
            "excluded": dict(self.excluded),
            "issues": [issue.to_dict() for issue in self.issues],
        }


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
    Ids are compared as trimmed text, except in an all-numeric id column, where they are numbers
    (so 7, 7.0 and 007 are one id).

    Examples
    --------
    >>> data = b"id,old,new\\nq1,pass,fail\\nq2,1,1\\nq3,no,yes\\nq3,1,0\\n"
    >>> cases = load_cases(data, id_column="id", file_names=("runs.csv", None))
    >>> cases.counts, cases.excluded["duplicate_id"], cases.names
    ((1, 1, 0, 0), 2, ('old', 'new'))
    """
    first = read_case_file(
        file_a,
        name=file_names[0],
        max_bytes=max_bytes,
    )
    threshold = _check_threshold(threshold)
    if file_b is None:
        return _pair_one_file(first, id_column, a_column, b_column, group_column, threshold, names)
    second = read_case_file(
        file_b,
        name=file_names[1],
        max_bytes=max_bytes,
    )
    return _pair_two_files(
        first, second, id_column, a_column, b_column, group_column, threshold, names
    )


class _Rows:
    """Exclusion bookkeeping for one file: each row's first reason, and every finding."""

    def __init__(self, case_file: CaseFile) -> None:
        self.file = case_file
        self.reason = np.zeros(len(case_file.frame), dtype=np.int8)  # 0 = kept
        self.issues: list[CaseIssue] = list(case_file.issues)
        self.ids: pd.Series | None = None
        self.id_missing = np.zeros(len(case_file.frame), dtype=bool)

    def exclude(self, mask: np.ndarray, kind: str, column: str, message: str) -> None:
        count = int(mask.sum())
        if not count:
            return
        code = EXCLUSION_REASONS.index(kind) + 1
        self.reason = np.where((self.reason == 0) & mask, code, self.reason)
        positions = np.flatnonzero(mask)[:_EXAMPLES]
        rows = self.file.frame.index[positions]
        shown = self.file.frame[column]
        examples = tuple(
            OffendingRow(
                int(row),
                None if self.ids is None else _text(self.ids.iloc[position]),
                _text(shown.iloc[position]),
            )
            for row, position in zip(rows, positions, strict=True)
        )
        self.issues.append(
            CaseIssue(
                kind=kind,
                file=self.file.name,
                column=column,
                count=count,
                examples=examples,
                message=message,
            )
        )

    @property
    def kept(self) -> np.ndarray:
        return self.reason == 0


def _text(value: object) -> str:
    return "" if _text_missing(value) else _clip(str(value))


def _require_column(case_file: CaseFile, column: str, role: str) -> None:
    if column not in case_file.frame.columns:
        available = ", ".join(case_file.frame.columns[:12])
        raise _fatal(
            "missing_column",
            case_file.name,
            f"{case_file.name}: no column {column!r} for {role}; the columns are {available}.",
            column=column,
        )


def _check_ids(rows: _Rows, id_column: str) -> None:
    ids, missing = _id_text(rows.file.frame[id_column])
    rows.ids, rows.id_missing = ids, missing
    name = rows.file.name
    rows.exclude(
        missing,
        "missing_value",
        id_column,
        f"{name}: {_many(int(missing.sum()), 'row')} without an id in {id_column!r}.",
    )
    codes = np.full(len(ids), -1, dtype=np.int64)
    codes[~missing] = _dense_codes(ids[~missing] if missing.any() else ids)
    occurrences = np.bincount(codes[codes >= 0], minlength=1)
    duplicated = (codes >= 0) & (occurrences[np.maximum(codes, 0)] > 1)
    if duplicated.any():
        distinct = int(np.count_nonzero(occurrences > 1))
        rows.exclude(
            duplicated,
            "duplicate_id",
            id_column,
            f"{name}: {_many(distinct, 'id')} occurring more than once "
            f"({_many(int(duplicated.sum()), 'row')}); "
            "every copy left out, as the pairing is ambiguous.",
        )


def _dense_codes(values: pd.Series) -> np.ndarray:
    """A code 0..k-1 per value, equal values sharing one, found by sorting (no missing values).

    Sorting needs about half the memory of a hash table on a million distinct strings.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    array = (
        pa.chunked_array([pa.array(values.to_numpy(dtype=object))])
        if (values.dtype == object)
        else pa.chunked_array(pa.array(values))
    )
    order = pc.sort_indices(array).to_numpy()
    ordered = array.take(order)
    starts = np.ones(len(order), dtype=bool)
    if len(order) > 1:
        same = pc.equal(ordered[1:], ordered[:-1]).to_numpy()
        starts[1:] = ~same
    codes = np.empty(len(order), dtype=np.int64)
    codes[order] = np.cumsum(starts) - 1
    return codes


def _group_codes(values: pd.Series) -> np.ndarray:
    """A code 0..k-1 per value by hashing: quick and small when the values repeat (clusters)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    array = pa.array(values.to_numpy(dtype=object) if values.dtype == object else values)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    return pc.dictionary_encode(array).indices.to_numpy(zero_copy_only=False).astype(np.int64)


def _id_text(series: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Ids as trimmed text (integral floats without ".0"), and where they are missing."""
    pd = _pandas()
    missing = series.isna().to_numpy(dtype=bool)
    if pd.api.types.is_float_dtype(series.dtype):
        values = series.to_numpy(dtype=np.float64, na_value=np.nan)
        present = values[~missing]
        if np.all(np.isfinite(present) & (present == np.round(present))):
            series = series.astype("Int64")
    text = series.astype("str").str.strip()
    missing = missing | (text == "").to_numpy(dtype=bool, na_value=False)
    return text.reset_index(drop=True), missing


def _kept_ids(rows: _Rows, index: pd.Index) -> pd.Series:
    """The normalised ids of the kept rows, on the kept rows' index (text stays Arrow-backed)."""
    assert rows.ids is not None
    kept = rows.kept
    ids = rows.ids if kept.all() else rows.ids[kept]
    return ids.set_axis(index)


def _check_outcomes(rows: _Rows, column: str, threshold: float | None) -> np.ndarray:
    values = rows.file.frame[column]
    parsed = parse_outcomes(values, threshold=threshold)
    name = rows.file.name
    rows.exclude(
        parsed.missing,
        "missing_value",
        column,
        f"{name}: {_many(int(parsed.missing.sum()), 'row')} without a value in {column!r}.",
    )
    if threshold is None:
        allowed = "1/0, true/false, pass/fail, yes/no or correct/wrong; for scores set a threshold"
    else:
        allowed = f"numbers (scores at or above {threshold:g} pass)"
    rows.exclude(
        parsed.unparseable,
        "unparseable_outcome",
        column,
        f"{name}: {_many(int(parsed.unparseable.sum()), 'value')} in {column!r} not read as "
        f"an outcome; "
        f"allowed: {allowed}.",
    )
    return parsed.passed


def _check_groups(rows: _Rows, column: str) -> None:
    values = rows.file.frame[column]
    missing = values.isna().to_numpy(dtype=bool) | (
        values.astype("str").str.strip() == ""
    ).to_numpy(dtype=bool, na_value=False)
    rows.exclude(
        missing,
        "missing_value",
        column,
        f"{rows.file.name}: {_many(int(missing.sum()), 'row')} without a group in {column!r}.",
    )


def _guess_outcomes(case_file: CaseFile, taken: tuple[str | None, ...]) -> list[str]:
    guess = guess_columns(case_file.frame)
    return [column for column in guess.outcome_columns if column not in taken]


def _pair_one_file(
    case_file: CaseFile,
    id_column: str | None,
    a_column: str | None,
    b_column: str | None,
    group_column: str | None,
    threshold: float | None,
    names: tuple[str, str] | None,
) -> PairedCases:
    pd = _pandas()
    frame = case_file.frame
    if a_column is None or b_column is None:
        free = _guess_outcomes(case_file, (id_column, group_column, a_column, b_column))
        if a_column is None and free:
            a_column = free.pop(0)
        if b_column is None and free:
            b_column = free.pop(0)
        if a_column is None or b_column is None:
            raise ValueError(
                f"{case_file.name}: cannot tell which columns hold A's and B's outcomes; name "
                "them (--a and --b on the command line)."
            )
    if a_column == b_column:
        raise ValueError(f"A and B must be different columns, but both are {a_column!r}.")
    for column, role in (
        (id_column, "the id"),
        (a_column, "A's outcome"),
        (b_column, "B's outcome"),
        (group_column, "the group"),
    ):
        if column is not None:
            _require_column(case_file, column, role)
    rows = _Rows(case_file)
    if id_column is not None:
        _check_ids(rows, id_column)
    a_pass = _check_outcomes(rows, a_column, threshold)
    b_pass = _check_outcomes(rows, b_column, threshold)
    if group_column is not None:
        _check_groups(rows, group_column)
    kept = rows.kept
    used = frame if kept.all() else frame[kept]  # no copy when every row is kept
    if id_column is None:
        used = pd.concat([pd.DataFrame({"row": used.index}, index=used.index), used], axis=1)
        first_columns = ["row", a_column, b_column]
    else:
        used = used.assign(**{id_column: _kept_ids(rows, used.index)})
        first_columns = [id_column, a_column, b_column]
    if group_column is not None and group_column not in first_columns:
        first_columns.append(group_column)
    ordered = first_columns + [c for c in used.columns if c not in first_columns]
    cases = used[ordered].reset_index(drop=True)
    return _finish(
        names=names or (_name(a_column, "A"), _name(b_column, "B")),
        files=(case_file.name,),
        id_column=id_column,
        outcome_columns=(a_column, b_column),
        group_column=group_column,
        threshold=threshold,
        rows=(rows,),
        cases=cases,
        a_pass=a_pass[kept],
        b_pass=b_pass[kept],
        rows_used=int(kept.sum()),
    )


def _pair_two_files(
    first: CaseFile,
    second: CaseFile,
    id_column: str | None,
    a_column: str | None,
    b_column: str | None,
    group_column: str | None,
    threshold: float | None,
    names: tuple[str, str] | None,
) -> PairedCases:
    if id_column is None:
        guesses = {guess_columns(first.frame).id_column, guess_columns(second.frame).id_column}
        if len(guesses) != 1 or None in guesses:
            raise ValueError(
                f"{first.name} and {second.name}: cannot tell which column pairs the rows; name "
                "the id column both files share (--id on the command line)."
            )
        id_column = guesses.pop()
    columns = {}
    for case_file, column, role in ((first, a_column, "A"), (second, b_column, "B")):
        if column is None:
            free = _guess_outcomes(case_file, (id_column, group_column))
            if not free:
                option = "--a" if role == "A" else "--b"
                raise ValueError(
                    f"{case_file.name}: cannot tell which column holds {role}'s outcomes; name it "
                    f"({option} on the command line)."
                )
            column = free[0]
        columns[role] = column
    a_column, b_column = columns["A"], columns["B"]
    _require_column(first, id_column, "the id")
    _require_column(second, id_column, "the id")
    _require_column(first, a_column, "A's outcome")
    _require_column(second, b_column, "B's outcome")
    group_file = None
    if group_column is not None:
        group_file = first if group_column in first.frame.columns else second
        _require_column(group_file, group_column, "the group")

    rows_a, rows_b = _Rows(first), _Rows(second)
    _check_ids(rows_a, id_column)
    _check_ids(rows_b, id_column)
    a_pass = _check_outcomes(rows_a, a_column, threshold)
    b_pass = _check_outcomes(rows_b, b_column, threshold)
    if group_file is not None:
        _check_groups(rows_a if group_file is first else rows_b, group_column)

    # Pair: an id must be present in both files, and both of its rows must be usable.
    for rows, other in ((rows_a, rows_b), (rows_b, rows_a)):
        assert rows.ids is not None and other.ids is not None
        known = rows.ids.isin(other.ids[~other.id_missing]).to_numpy(dtype=bool)
        usable_elsewhere = rows.ids.isin(other.ids[other.kept]).to_numpy(dtype=bool)
        candidates = rows.kept
        lonely = candidates & ~known
        rows.exclude(
            lonely,
            "id_in_one_file_only",
            id_column,
            f"{rows.file.name}: {_many(int(lonely.sum()), 'id')} absent from {other.file.name}.",
        )
        orphaned = candidates & known & ~usable_elsewhere
        rows.exclude(
            orphaned,
            "partner_excluded",
            id_column,
            f"{rows.file.name}: {_many(int(orphaned.sum()), 'row')} whose partner row in "
            f"{other.file.name} was left out for a problem listed there.",
        )
    # After both passes each kept id is kept in the other file too (ids are unique when kept).
    kept_a, kept_b = rows_a.kept, rows_b.kept
    name_a, name_b = names or ("A", "B")
    left = first.frame[kept_a]
    left = left.assign(**{id_column: _kept_ids(rows_a, left.index)})
    right = second.frame[kept_b]
    right = right.assign(**{id_column: _kept_ids(rows_b, right.index)})
    left = left.assign(_a_pass=a_pass[kept_a])
    right = right.assign(_b_pass=b_pass[kept_b])
    clash = (set(left.columns) & set(right.columns)) - {id_column}
    tag_a, tag_b = (name_a, name_b) if name_a != name_b else ("A", "B")
    left = left.rename(columns={c: f"{c} ({tag_a})" for c in clash})
    right = right.rename(columns={c: f"{c} ({tag_b})" for c in clash})
    merged = left.merge(right, on=id_column, how="inner", sort=False, validate="one_to_one")
    for column in sorted(clash - {a_column, b_column}):
        # Columns both logs share with equal values (the document, the target) are shown once.
        ours, theirs = f"{column} ({tag_a})", f"{column} ({tag_b})"
        if merged[ours].equals(merged[theirs]):
            merged = merged.drop(columns=theirs).rename(columns={ours: column})
            clash = clash - {column}
    out_a = f"{a_column} ({tag_a})" if a_column in clash else a_column
    out_b = f"{b_column} ({tag_b})" if b_column in clash else b_column
    out_group = None
    if group_column is not None:
        suffix = tag_a if group_file is first else tag_b
        out_group = f"{group_column} ({suffix})" if group_column in clash else group_column
    first_columns = [id_column, out_a, out_b] + ([out_group] if out_group else [])
    a_flags = merged.pop("_a_pass").to_numpy(dtype=bool)
    b_flags = merged.pop("_b_pass").to_numpy(dtype=bool)
    ordered = first_columns + [c for c in merged.columns if c not in first_columns]
    cases = merged[ordered].reset_index(drop=True)
    return _finish(
        names=(name_a, name_b),
        files=(first.name, second.name),
        id_column=id_column,
        outcome_columns=(a_column, b_column),
        group_column=out_group,
        threshold=threshold,
        rows=(rows_a, rows_b),
        cases=cases,
        a_pass=a_flags,
        b_pass=b_flags,
        rows_used=int(kept_a.sum() + kept_b.sum()),
    )


def _finish(
    *,
    names,
    files,
    id_column,
    outcome_columns,
    group_column,
    threshold,
    rows,
    cases,
    a_pass,
    b_pass,
    rows_used,
) -> PairedCases:
    excluded = dict.fromkeys(EXCLUSION_REASONS, 0)
    rows_read = 0
    issues: list[CaseIssue] = []
    for file_rows in rows:
        excluded["malformed_line"] += file_rows.file.unread_rows
        rows_read += len(file_rows.file.frame) + file_rows.file.unread_rows
        codes = np.bincount(file_rows.reason, minlength=len(EXCLUSION_REASONS) + 1)
        for code, reason in enumerate(EXCLUSION_REASONS, start=1):
            excluded[reason] += int(codes[code])
        issues.extend(file_rows.issues)
    both = a_pass & b_pass
    return PairedCases(
        names=names,
        files=files,
        id_column=id_column,
        outcome_columns=outcome_columns,
        group_column=group_column,
        threshold=threshold,
        a=int(both.sum()),
        b=int((a_pass & ~b_pass).sum()),
        c=int((b_pass & ~a_pass).sum()),
        d=int((~a_pass & ~b_pass).sum()),
        rows_read=rows_read,
        rows_used=rows_used,
        excluded=excluded,
        issues=tuple(issues),
        cases=cases,
        a_pass=a_pass,
        b_pass=b_pass,
    )


def _name(column: str, fallback: str) -> str:
    name = " ".join(column.split())[:60]
    return name or fallback


# --- exports ----------------------------------------------------------------------------------

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def escape_spreadsheet_cell(value: str) -> str:
    """Prefix a cell that a spreadsheet would run as a formula with a single quote.

    Cells starting with =, +, - or @ (and tab or carriage return, which some spreadsheets skip
    before a formula) are shown as text by Excel, LibreOffice and Google Sheets once prefixed.

    References
    ----------
    OWASP, "CSV Injection," https://owasp.org/www-community/attacks/CSV_Injection.

    Examples
    --------
    >>> escape_spreadsheet_cell('=HYPERLINK("http://x","y")')
    '\\'=HYPERLINK("http://x","y")'
    >>> escape_spreadsheet_cell("plain text"), escape_spreadsheet_cell("-1")
    ('plain text', "'-1")
    """
    if not isinstance(value, str):
        raise TypeError(f"`value` must be a string, but got {type(value).__name__}.")
    return "'" + value if value.startswith(_FORMULA_START) else value


def to_escaped_csv(frame: pd.DataFrame) -> str:
    """The table as CSV text with every text cell and header escaped against formula injection.

    Numeric and boolean columns are written as numbers (a number cannot carry a formula); every
    other cell is written as text and escaped with :func:`escape_spreadsheet_cell`.

    Examples
    --------
    >>> import pandas as pd
    >>> print(to_escaped_csv(pd.DataFrame({"id": ["q1"], "answer": ["=1+1"], "score": [-2]})))
    id,answer,score
    q1,'=1+1,-2
    <BLANKLINE>
    """
    pd = _pandas()
    escaped = {}
    for column in frame.columns:
        values = frame[column]
        if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
            escaped[escape_spreadsheet_cell(str(column))] = values
            continue
        if values.dtype == object:  # mixed Python values: one at a time
            text = values.map(lambda v: "" if _text_missing(v) else str(v)).astype("str")
        else:  # text columns: vectorised
            text = values.astype("str").fillna("")
        risky = text.str.startswith(_FORMULA_START)
        escaped[escape_spreadsheet_cell(str(column))] = text.where(~risky, "'" + text)
    return pd.DataFrame(escaped, index=frame.index).to_csv(index=False, lineterminator="\n")


def _text_missing(value: object) -> bool:
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return _pandas().isna(value) if np.ndim(value) == 0 else False


def _pandas():  # noqa: ANN202 - the module, imported on first use
    import pandas

    return pandas
