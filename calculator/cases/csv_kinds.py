"""pyarrow's CSV type inference at the cost of one typed pass: the kinds of the first rows given
as column types and checked by the conversion, with the last rows as a hint for columns that
change kind late (a 'maybe' after a million 0/1, which whole-file inference pays for by
converting every block before it again).

The table is the one :func:`pyarrow.csv.read_csv` infers over the whole file with the same
options; only the work differs.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.csv

__all__ = ["read_once", "typed_read"]

_HINT_BYTES = 1 << 20  # the first and the last rows read for their kinds
_LATE_COLUMNS = 2  # columns whose first rows mislead the inference, each costing one more read


def read_once(
    data: bytes,
    delimiter: str,
    block: int,
    invalid: list[tuple[int, str]],
    types: dict[str, pa.DataType] | None = None,
) -> pa.Table:
    """One pass of pyarrow's reader; `invalid` collects the rows it skips (cleared first)."""
    import pyarrow.csv as pcsv

    invalid.clear()

    def skip(row: pcsv.InvalidRow) -> str:
        invalid.append((row.number, row.text))
        return "skip"

    return pcsv.read_csv(
        io.BytesIO(data),
        read_options=pcsv.ReadOptions(use_threads=False, block_size=block),
        parse_options=pcsv.ParseOptions(
            delimiter=delimiter, newlines_in_values=True, invalid_row_handler=skip
        ),
        convert_options=_conversion(column_types=types or {}),
    )


def _conversion(**options: object) -> object:
    """The conversion options of every read: the same null spellings, no timestamps."""
    import pyarrow.csv as pcsv

    return pcsv.ConvertOptions(strings_can_be_null=True, timestamp_parsers=[], **options)


def typed_read(data: bytes, delimiter: str, block: int, invalid: list[tuple[int, str]]) -> pa.Table:
    """The table pyarrow's type inference gives, without its cost on long files.

    Inference tries the kinds null, integer, boolean, decimal, date, ..., text in turn and keeps
    the first one every value of the column converts to, converting every earlier block again
    when a late block breaks the kind of the blocks before (a 'maybe' after a million 0/1).
    Here each column is given the kind of the first rows as its type, which the conversion
    checks; a column it does not fit is read again as text, and its kind inferred from its
    distinct values by the same reader: the same first kind that fits every value. A column
    whose last rows already break that kind (or whose first rows are all empty) is read as text
    at once, and stays text without more work when those last rows read as text and are the
    column's last values (a value there fits no other kind). Files with repeated column names,
    or more columns read again than :data:`_LATE_COLUMNS`, are inferred as a whole.
    """
    import pyarrow as pa

    first = _rows_schema(data, delimiter)
    if first is None or len(set(first.names)) != len(first.names):
        return read_once(data, delimiter, block, invalid)
    names = first.names
    types = {field.name: field.type for field in first}
    last = _last_rows(data, delimiter, names)
    tail = {} if last is None else {field.name: field.type for field in last.schema}
    late = {
        name
        for name, kind in types.items()
        if pa.types.is_null(kind)
        or (name in tail and not pa.types.is_null(tail[name]) and tail[name] != kind)
    }
    for _ in range(_LATE_COLUMNS + 1):
        for name in late:
            types[name] = pa.string()
        try:
            table = read_once(data, delimiter, block, invalid, types)
        except pa.ArrowInvalid as error:
            if "straddl" in str(error):
                raise  # a record longer than the block: the caller reads in one block
            found = re.match(r"In CSV column #(\d+): (Row #\d+: )?CSV conversion", str(error))
            if found is None or int(found.group(1)) >= len(names):
                break  # not a column's kind: whole-file inference, and its own message
            if names[int(found.group(1))] in late:
                break
            late.add(names[int(found.group(1))])
            continue
        for position, name in enumerate(table.column_names):
            if name in late and not _text_by_its_end(table.column(position), last, name):
                typed = _inferred(table.column(position))
                if typed is None:
                    return read_once(data, delimiter, block, invalid)
                table = table.set_column(position, name, typed)
        return table
    return read_once(data, delimiter, block, invalid)


def _text_by_its_end(column: pa.ChunkedArray, last: pa.Table | None, name: str) -> bool:
    """Whether the last rows alone make the column text: they read as text (some value fits no
    other kind) and are the column's last values, so the whole column fits no other kind."""
    import pyarrow as pa

    if last is None or not pa.types.is_string(last.schema.field(name).type):
        return False
    end = last.column(name)
    return len(end) <= len(column) and column.slice(len(column) - len(end)).equals(end)


def _rows_schema(data: bytes, delimiter: str) -> pa.Schema | None:
    """The kinds pyarrow infers from the first megabyte of rows; None when they cannot be read
    that way (a record longer than that)."""
    import pyarrow as pa

    try:
        return _rows_reader(data, delimiter, 0, None).schema
    except pa.ArrowException:
        return None


def _last_rows(data: bytes, delimiter: str, names: list[str]) -> pa.Table | None:
    """The rows of about the last megabyte, read with the header's names and inferred kinds;
    None when they cannot be read. (A cut inside a quoted cell misreads them: they are only a
    hint, and checked against the file's own rows before they decide anything.)"""
    import pyarrow as pa

    start = data.find(b"\n", max(0, len(data) - _HINT_BYTES)) + 1
    try:
        return _rows_reader(data, delimiter, start, names).read_all()
    except pa.ArrowException:
        return None


def _rows_reader(
    data: bytes, delimiter: str, start: int, names: list[str] | None
) -> pa.csv.CSVStreamingReader:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    return pcsv.open_csv(
        pa.BufferReader(pa.py_buffer(data).slice(start)),  # no copy
        read_options=pcsv.ReadOptions(
            use_threads=False, block_size=_HINT_BYTES, column_names=names
        ),
        parse_options=pcsv.ParseOptions(
            delimiter=delimiter,
            newlines_in_values=True,
            invalid_row_handler=lambda row: "skip",
        ),
        convert_options=_conversion(),
    )


def _inferred(column: pa.ChunkedArray) -> pa.Array | pa.ChunkedArray | None:
    """A text column converted to the kind pyarrow's inference gives it, from its distinct
    values (read back as a one-column CSV, quoted, with the same conversion options); None if
    they cannot be read back one for one."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    encoded = pc.dictionary_encode(column).combine_chunks()
    values = encoded.dictionary
    if len(values) == 0:
        return pa.nulls(len(column))
    text = "\n".join('"' + value.replace('"', '""') + '"' for value in values.to_pylist())
    written = text.encode()
    try:
        typed = pcsv.read_csv(
            io.BytesIO(written),
            read_options=pcsv.ReadOptions(
                use_threads=False, column_names=["v"], block_size=len(written) + 1
            ),
            parse_options=pcsv.ParseOptions(newlines_in_values=True),
            convert_options=_conversion(),
        ).column(0)
    except pa.ArrowException:
        return None
    if len(typed) != len(values):
        return None
    if pa.types.is_string(typed.type):
        return column
    return typed.combine_chunks().take(encoded.indices)
