"""CSV and TSV files: the delimiter check, the reading, and the file line where each row starts.

The reader is pyarrow's CSV parser, run with the index never inferred: a row with more or fewer
fields than the header is left out and reported with its line (a trailing delimiter on a data line
must not shift every column one place). A quoted cell may run over several lines, as the CSV
standard allows, but it is reported, with the number of lines beside the number of rows.

Every column is read as text, then given its kind once (:func:`read_table`): the kind pyarrow's
whole-file inference would give it (integer, boolean, decimal, ... or text), decided from the
column's distinct values, so no value is converted twice and a column that turns out to be text
late in a long file costs nothing more.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import (
    EXAMPLES,
    CaseFileError,
    CaseIssue,
    OffendingRow,
    fatal,
    first_line,
)
from calculator.text import clip, plural

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "DELIMITERS",
    "DelimitedText",
    "first_line_of",
    "header_fields",
    "read_delimited",
    "read_table",
]

#: The delimiter of each delimited format.
DELIMITERS = {"csv": ",", "tsv": "\t"}
_OTHER_DELIMITERS = {",": "comma", "\t": "tab", ";": "semicolon", "|": "vertical bar"}
_BLOCK = 1 << 24  # bytes parsed at a time; a record longer than this is read in one block
_LINE_END = re.compile(rb"[\r\n]")
# A character that no integer, decimal, boolean, date or time pyarrow reads holds: a column
# with one is text without reading it again.
_NOT_A_NUMBER = "[^0-9+\\-.eE \\t:infINFtyTYaAruRUlLsS]"


@dataclass(frozen=True, slots=True, kw_only=True)
class DelimitedText:
    """What the CSV reader found: the rows, the findings, and where each row starts.

    ``lines`` is the file line of each row (an array), or one number to add to a row's position.
    """

    table: pa.Table
    issues: tuple[CaseIssue, ...]
    lines: np.ndarray | int


def first_line_of(data: bytes) -> bytes:
    """The first non-blank line, without copying the whole file; a line ends at a line feed
    or a carriage return, as the parser ends a record (a file of lone carriage returns is not
    one line).

    Examples
    --------
    >>> first_line_of(b"\\n\\nid,a\\r\\nq1,1\\n"), first_line_of(b"id,a\\rq1,1\\r")
    (b'id,a', b'id,a')
    """
    start = re.search(rb"[^\r\n]", data[:65536])
    offset = start.start() if start else 0
    end = _LINE_END.search(data, offset)
    return data[offset : end.start() if end else len(data)]


def header_fields(data: bytes, file_format: str) -> int:
    """How many fields the first line has (a quoted delimiter not counted).

    Examples
    --------
    >>> header_fields(b'id,"a,b",c\\n1,2,3\\n', "csv")
    3
    """
    line = first_line_of(data).decode("utf-8-sig", errors="replace")
    delimiter = DELIMITERS[file_format]
    if '"' not in line:
        return line.count(delimiter) + 1
    return len(next(csv.reader([line], delimiter=delimiter), []))


def read_delimited(data: bytes, name: str, file_format: str) -> DelimitedText:
    """The rows of a CSV or TSV file, with findings for lines that do not fit the header.

    Raises
    ------
    CaseFileError
        When another delimiter splits the header, or the parser cannot read the file.
    """
    delimiter = DELIMITERS[file_format]
    header = first_line_of(data).decode("utf-8-sig")
    if delimiter not in header:
        other = next((d for d in _OTHER_DELIMITERS if d != delimiter and d in header), None)
        if other is not None:
            raise _wrong_delimiter(data, name, file_format, delimiter, other)
    table, invalid = _parse(data, name, file_format)
    records = table.num_rows + len(invalid)
    # A line break can only sit inside a quoted cell: without a quote there is none to look for.
    multiline = b'"' in data and (
        _multiline_rows(table) or any("\n" in text or "\r" in text for _, text in invalid)
    )
    starts = _record_lines(data, delimiter, records, multiline)
    bad = np.array([number - 2 for number, _ in invalid], dtype=np.int64)  # data records from 0
    issues = []
    if invalid:
        lines_bad = _lines_of(starts, bad)
        issues.append(_malformed(name, table.num_columns, invalid, lines_bad, table.num_rows))
    if isinstance(starts, int):
        lines: np.ndarray | int = starts
    else:
        keep = np.ones(records, dtype=bool)
        keep[bad] = False
        lines = starts[keep]
    if multiline:
        bad_lines = _lines_of(starts, bad)
        texts = [text for _, text in invalid]
        issues.append(_multiline_finding(data, name, table, lines, bad_lines, texts))
    return DelimitedText(table=table, issues=tuple(issues), lines=lines)


def column_text(data: bytes, file_format: str, position: int, width: int) -> pa.Array:
    """One column's cells exactly as written (text), aligned with the rows :func:`read_delimited`
    keeps: what an id is compared by when its column was read as decimal numbers."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    names = [f"c{k}" for k in range(width)]
    table = pcsv.read_csv(
        io.BytesIO(data),
        read_options=pcsv.ReadOptions(
            use_threads=False, block_size=_BLOCK, skip_rows=1, column_names=names
        ),
        parse_options=pcsv.ParseOptions(
            delimiter=DELIMITERS[file_format],
            newlines_in_values=True,
            invalid_row_handler=lambda row: "skip",
        ),
        convert_options=pcsv.ConvertOptions(
            include_columns=[names[position]],
            column_types={names[position]: pa.string()},
            strings_can_be_null=True,
        ),
    )
    return table.column(0).combine_chunks()


def _parse(data: bytes, name: str, file_format: str) -> tuple[pa.Table, list[tuple[int, str]]]:
    """pyarrow's CSV reader, one thread (so bad rows carry their record number), every column
    read as text and then given its kind once (:func:`_typed`)."""
    import pyarrow as pa

    invalid: list[tuple[int, str]] = []
    for block in (_BLOCK, len(data) + 1):  # the second for a record longer than a block
        try:
            table = read_table(data, DELIMITERS[file_format], block, invalid)
            break
        except pa.ArrowInvalid as error:
            if "straddl" in str(error) and block == _BLOCK:
                continue
            raise fatal(
                "unreadable_file",
                name,
                f"{name}: not readable as {file_format.upper()}: {first_line(error)}",
            ) from None
    return _plain_types(table), invalid


def read_table(data: bytes, delimiter: str, block: int, invalid: list[tuple[int, str]]) -> pa.Table:
    """The table pyarrow's whole-file type inference gives (same options, the same kinds),
    with each column read as text once and its kind decided from its distinct values
    (:func:`_kind`); `invalid` collects the rows the parser skips."""
    return _typed(_read_text(data, delimiter, block, invalid))


def _read_text(data: bytes, delimiter: str, block: int, invalid: list[tuple[int, str]]) -> pa.Table:
    """The rows with every column as text (null spellings as missing); `invalid` collects the
    rows the parser skips (cleared first). A column the header's names miss is inferred."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    invalid.clear()

    def skip(row: pcsv.InvalidRow) -> str:
        invalid.append((row.number, row.text))
        return "skip"

    header = first_line_of(data).decode("utf-8-sig", errors="replace")
    names = next(csv.reader([header], delimiter=delimiter), [])
    return pcsv.read_csv(
        io.BytesIO(data),
        read_options=pcsv.ReadOptions(use_threads=False, block_size=block),
        parse_options=pcsv.ParseOptions(
            delimiter=delimiter, newlines_in_values=True, invalid_row_handler=skip
        ),
        convert_options=_conversion(column_types=dict.fromkeys(names, pa.string())),
    )


def _conversion(**options: object) -> object:
    """The conversion options of every read: the same null spellings, no timestamps."""
    import pyarrow.csv as pcsv

    return pcsv.ConvertOptions(strings_can_be_null=True, timestamp_parsers=[], **options)


def _typed(table: pa.Table) -> pa.Table:
    """Each text column given the kind pyarrow's inference gives it over the whole file."""
    import pyarrow as pa

    for position, field in enumerate(table.schema):
        if pa.types.is_string(field.type):
            table = table.set_column(position, field.name, _kind(table.column(position)))
    return table


def _kind(column: pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """A text column as the kind pyarrow's inference gives it (the first of null, integer,
    boolean, decimal, date, time that every value reads as, else text), decided from its
    distinct values, read back as a one-column CSV with the same options: the values are
    parsed once, and a column holding a character no number, boolean, date or time has stays
    text at once."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    def text(values: pa.Array | pa.ChunkedArray) -> bool:
        return bool(pc.any(pc.match_substring_regex(values, _NOT_A_NUMBER)).as_py())

    if text(column.slice(0, 1000)):  # most text columns say so in their first rows
        return column
    encoded = pc.dictionary_encode(column).combine_chunks()
    if len(encoded.dictionary) == 0:
        return pa.nulls(len(column))
    if text(encoded.dictionary):
        return column
    values = encoded.dictionary.cast(pa.large_string())
    mark = pa.scalar('"', pa.large_string())
    escaped = pc.replace_substring(values, '"', '""')
    quoted = pc.binary_join_element_wise(mark, escaped, mark, pa.scalar("", pa.large_string()))
    listed = pa.LargeListArray.from_arrays(pa.array([0, len(values)], pa.int64()), quoted)
    written = pc.binary_join(listed, pa.scalar("\n", pa.large_string()))[0].as_buffer()
    typed = pcsv.read_csv(
        pa.BufferReader(written),
        read_options=pcsv.ReadOptions(
            use_threads=False, column_names=["v"], block_size=max(written.size + 1, 1 << 16)
        ),
        parse_options=pcsv.ParseOptions(newlines_in_values=True),
        convert_options=_conversion(),
    ).column(0)
    if pa.types.is_string(typed.type) or len(typed) != len(values):
        return column
    return typed.combine_chunks().take(encoded.indices)


def _plain_types(table: pa.Table) -> pa.Table:
    """Dates and times back to their text, so every column is a number, a boolean or text."""
    import pyarrow as pa

    for position, field in enumerate(table.schema):
        kind = field.type
        if not (
            pa.types.is_integer(kind)
            or pa.types.is_floating(kind)
            or pa.types.is_boolean(kind)
            or pa.types.is_string(kind)
            or pa.types.is_null(kind)
        ):
            table = table.set_column(position, field.name, table.column(position).cast(pa.string()))
    return table


def _multiline_rows(table: pa.Table) -> bool:
    import pyarrow as pa
    import pyarrow.compute as pc

    return any(
        pa.types.is_string(field.type)
        and (
            pc.any(pc.match_substring(table.column(position), "\n")).as_py()
            or pc.any(pc.match_substring(table.column(position), "\r")).as_py()
        )
        for position, field in enumerate(table.schema)
    )


def _record_lines(data: bytes, delimiter: str, records: int, multiline: bool) -> np.ndarray | int:
    """The file line where each data record starts, or the one offset when it is row + offset."""
    has_cr = b"\r" in data  # most files have none: two counts over the file saved
    lone_cr = has_cr and data.count(b"\r") != data.count(b"\r\n")
    blank = b"\n\n" in data or (has_cr and b"\n\r\n" in data) or data.startswith((b"\n", b"\r\n"))
    if not (multiline or lone_cr or blank):
        return 2  # the header on line 1, then one line per record
    if not (multiline or lone_cr):  # blank lines only: the non-blank lines after the header
        return _non_blank_lines(data)[1 : records + 1]
    starts = _scanned_lines(data, delimiter)
    if starts is None or len(starts) != records + 1:
        return 2  # the scan disagrees with the parser: number records as lines after all
    return starts[1:]


def _non_blank_lines(data: bytes) -> np.ndarray:
    """Line numbers (from 1) of the lines that are not empty (a lone carriage return is empty)."""
    view = np.frombuffer(data, dtype=np.uint8)
    found, line, begin = [], 1, 0
    for offset in range(0, len(view), _BLOCK):
        ends = np.flatnonzero(view[offset : offset + _BLOCK] == 10) + offset
        if not len(ends):
            continue
        starts = np.empty(len(ends), dtype=np.int64)
        starts[0], starts[1:] = begin, ends[:-1] + 1
        length = ends - starts
        empty = (length == 0) | ((length == 1) & (view[starts] == 13))
        found.append(np.flatnonzero(~empty) + line)
        line, begin = line + len(ends), int(ends[-1]) + 1
    if begin < len(view) and data[begin:] != b"\r":  # a last line without a line break
        found.append(np.array([line]))
    return np.concatenate(found) if found else np.array([], dtype=np.int64)


def _scanned_lines(data: bytes, delimiter: str) -> np.ndarray | None:
    """Start line of each record by Python's CSV reader (slow, for files with multi-line cells)."""
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")
    reader = csv.reader(text, delimiter=delimiter)
    starts, previous = [], 0
    try:
        for record in reader:
            if record:
                starts.append(previous + 1)
            previous = reader.line_num
    except csv.Error:  # a cell over the reader's size limit: no line numbers
        return None
    return np.array(starts, dtype=np.int64)


def _lines_of(starts: np.ndarray | int, records: np.ndarray) -> np.ndarray:
    return records + starts if isinstance(starts, int) else starts[records]


def _malformed(
    name: str, width: int, invalid: Sequence[tuple[int, str]], lines: np.ndarray, kept_rows: int
) -> CaseIssue:
    texts = [text for _, text in invalid]
    fields = [_field_count(text) for text in texts]
    more = sum(count > width for count in fields)
    fewer = len(fields) - more
    parts = []
    if more:
        parts.append(f"{plural(more, 'line')} with more fields than the header's {width}")
    if fewer:
        parts.append(f"{plural(fewer, 'line')} with fewer")
    hint = "a stray delimiter or quote?"
    trailing = all(text.rstrip("\r\n").endswith((",", "\t")) for text in texts)
    if more == len(fields) and trailing:
        hint = "a delimiter at the end of the line?"
        if not kept_rows:
            hint = "a delimiter at the end of each line? remove it, or name the last column"
    where = f"on line {lines[0]}" if len(lines) == 1 else f"the first on line {lines[0]}"
    return CaseIssue(
        kind="malformed_line",
        file=name,
        column=None,
        count=len(invalid),
        examples=tuple(
            OffendingRow(int(line), None, clip(text))
            for line, text in zip(lines[:EXAMPLES], texts[:EXAMPLES], strict=False)
        ),
        message=f"{name}: {' and '.join(parts)} ({where}; {hint}), left out.",
    )


def _field_count(text: str) -> int:
    return max((len(record) for record in csv.reader(io.StringIO(text))), default=0)


def _multiline_finding(
    data: bytes,
    name: str,
    table: pa.Table,
    lines: np.ndarray | int,
    bad_lines: np.ndarray,
    bad_texts: list[str],
) -> CaseIssue:
    """Rows (kept or left out) with a cell over several lines, and the line count beside."""
    import pyarrow as pa
    import pyarrow.compute as pc

    spans = np.zeros(table.num_rows, dtype=bool)
    for position, field in enumerate(table.schema):
        if pa.types.is_string(field.type):
            found = pc.fill_null(pc.match_substring_regex(table.column(position), "[\r\n]"), False)
            spans |= np.asarray(found.to_numpy(zero_copy_only=False), dtype=bool)
    rows = np.flatnonzero(spans)
    kept_lines = rows + lines if isinstance(lines, int) else lines[rows]
    left_out = [
        line
        for line, text in zip(bad_lines, bad_texts, strict=True)
        if "\n" in text or "\r" in text
    ]
    found_lines = np.sort(np.concatenate([kept_lines, np.asarray(left_out, dtype=np.int64)]))
    physical = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    records = table.num_rows + len(bad_texts)
    return CaseIssue(
        kind="multiline_cell",
        file=name,
        column=None,
        count=len(found_lines),
        examples=tuple(
            OffendingRow(int(line), None, "a quoted cell with a line break")
            for line in found_lines[:EXAMPLES]
        ),
        message=f"{name}: {plural(len(found_lines), 'row')} with a quoted cell running over "
        f"several lines (the first on line {found_lines[0]}), so the file's {physical:,} lines "
        f"hold the header and {plural(records, 'row')}; if that is not intended, look for a "
        "quote that is not closed.",
    )


def _wrong_delimiter(
    data: bytes, name: str, file_format: str, delimiter: str, other: str
) -> CaseFileError:
    marker = other.encode()
    examples, count = [], 0
    for number, raw in enumerate(io.BytesIO(data), start=1):
        if marker in raw:
            count += 1
            if len(examples) < EXAMPLES:
                examples.append(OffendingRow(number, None, clip(raw.decode("utf-8-sig").strip())))
    expected = _OTHER_DELIMITERS[delimiter]
    rename = {"\t": " or name it .tsv", ",": " or name it .csv"}.get(other, "")
    return fatal(
        "wrong_delimiter",
        name,
        f"{name}: the columns are separated by a {_OTHER_DELIMITERS[other]}, but a "
        f"{file_format.upper()} file uses a {expected}; save it with {expected}s{rename}.",
        count=count,
        examples=tuple(examples),
    )
