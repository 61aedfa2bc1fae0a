"""Reading one per-case file: CSV, TSV, JSON Lines or Parquet, from a path or bytes.

The file-level checks (size, empty, header only, binary data, text that is not UTF-8) are made
here; the format readers are in :mod:`calculator.cases.delimited` and
:mod:`calculator.cases.jsonlines`.
"""

from __future__ import annotations

import codecs
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.delimited import column_text, first_line_of, header_fields, read_delimited
from calculator.cases.findings import EXAMPLES, CaseIssue, OffendingRow, fatal, first_line
from calculator.cases.jsonlines import read_json_lines
from calculator.cases.names import column_names
from calculator.errors import CalculatorTypeError
from calculator.text import plural

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "FORMATS",
    "MAX_FILE_BYTES",
    "MAX_COLUMNS",
    "MAX_CELLS",
    "MAX_JSON_CELLS",
    "MAX_JSON_RECORDS",
    "CaseFile",
    "read_case_file",
]

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

#: Most columns read from one file (JSON Lines: distinct keys, nested ones flattened). Checked
#: before the rows are read, so a header of tens of thousands of names is refused at once.
MAX_COLUMNS = 1_000

#: Most cells (rows x columns) read from one file, checked from the line count before reading:
#: it bounds the memory a file can take once parsed, whatever its shape (a long file of
#: 1,000,000 cases x 10 systems, 30,000,000 cells, is read and compared in about 1.2 GB).
MAX_CELLS = 32_000_000

#: Most values read from a JSON Lines file: each is a Python object until the frame is built,
#: several times the memory of a value parsed by the CSV or Parquet reader.
MAX_JSON_CELLS = 20_000_000

#: Most records read from a JSON Lines file (lines, or objects of a JSON array): each is parsed
#: in Python, so the bound keeps the reading of any file under the size limit to seconds.
MAX_JSON_RECORDS = 1_000_000


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
        Lines that could not be read as a row ("malformed_line", not in `frame`), and notes
        about the file ("multiline_cell", "renamed_column").
    lines : numpy.ndarray, int or None
        The file line where each row starts (an array in row order), or the number to add to a
        row's position (from 0) to get its line; None for Parquet, which has no lines.
    data : bytes
        The file's bytes (not shown, not compared).
    """

    name: str
    format: str
    frame: pd.DataFrame
    issues: tuple[CaseIssue, ...] = ()
    lines: np.ndarray | int | None = field(default=None, repr=False, compare=False)
    data: bytes = field(default=b"", repr=False, compare=False)

    @property
    def unread_rows(self) -> int:
        """Lines of data that could not be read as a row."""
        return sum(issue.count for issue in self.issues if issue.kind == "malformed_line")

    def line_of(self, position: int) -> int | None:
        """The file line where the row at `position` (from 0) starts; None without lines."""
        if self.lines is None:
            return None
        if isinstance(self.lines, int):
            return position + self.lines
        return int(self.lines[position])

    def written_text(self, column: str) -> pd.Series | None:
        """The cells of `column` as written in the file, when reading them as decimal numbers
        may have changed them ("1.50" read as 1.5, 9007199254740993 as 9007199254740992);
        None when the column's values are exact as read (text, integers, typed formats)."""
        import pandas as pd

        values = self.frame[column]
        if self.format not in ("csv", "tsv") or not pd.api.types.is_float_dtype(values.dtype):
            return None
        position = list(self.frame.columns).index(column)
        text = column_text(self.data, self.format, position, self.frame.shape[1])
        return pd.Series(text, dtype="str", index=self.frame.index)


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
    lines: np.ndarray | int | None = None
    if file_format == "parquet":
        frame = _read_parquet(data, name, max_bytes)
    else:
        _check_text(data, name)
        if file_format == "jsonl":
            frame, issues = read_json_lines(
                data.decode("utf-8-sig"),
                name,
                max_rows=MAX_JSON_RECORDS,
                max_columns=MAX_COLUMNS,
                max_cells=MAX_JSON_CELLS,
            )
        else:
            _check_shape(data, name, file_format)
            frame, issues, lines = _delimited_frame(data, name, file_format)
    if frame.shape[1] == 0:
        raise fatal("empty_file", name, f"{name}: the file has no columns.", count=0)
    if len(frame) == 0 and not any(issue.kind == "malformed_line" for issue in issues):
        columns = ", ".join(map(str, frame.columns[:8]))
        raise fatal(
            "header_only",
            name,
            f"{name}: the file has a header ({columns}) but no rows of data.",
            count=0,
        )
    names, renamed = column_names(frame.columns, name)
    frame.columns = names
    if renamed is not None:
        issues = (*issues, renamed)
    if file_format == "jsonl":
        lines = np.asarray(frame.index, dtype=np.int64)
    return CaseFile(
        name=name, format=file_format, frame=frame, issues=issues, lines=lines, data=data
    )


def _delimited_frame(
    data: bytes, name: str, file_format: str
) -> tuple[pd.DataFrame, tuple[CaseIssue, ...], np.ndarray | int]:
    import pandas as pd
    import pyarrow as pa

    read = read_delimited(data, name, file_format)
    names, issues, lines = read.table.column_names, read.issues, read.lines
    # Duplicate names must not collapse into one column on the way to pandas.
    table = read.table.rename_columns([f"c{k}" for k in range(len(names))])
    del read  # so that each column's buffers are freed once converted (self_destruct)
    frame = table.to_pandas(
        types_mapper={pa.int64(): pd.Int64Dtype()}.get, split_blocks=True, self_destruct=True
    )
    del table
    pa.default_memory_pool().release_unused()  # the parser's freed blocks, back to the system
    frame.columns = names
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    return frame, issues, lines


def _check_shape(data: bytes, name: str, file_format: str) -> None:
    """Refuse, before reading, a header over :data:`MAX_COLUMNS` or over :data:`MAX_CELLS` cells."""
    columns = header_fields(data, file_format)
    if columns > MAX_COLUMNS:
        raise fatal(
            "too_many_columns",
            name,
            f"{name}: the header has {columns:,} columns, over the limit of {MAX_COLUMNS:,}; "
            "keep the columns you need (the id, the outcomes, a group).",
            count=columns,
        )
    rows = data.count(b"\n")
    if rows * columns <= MAX_CELLS and b"\r" in data:  # lines ended by a lone carriage return
        rows = max(rows, data.count(b"\r"))
    if rows * columns > MAX_CELLS:
        raise fatal(
            "too_large",
            name,
            f"{name}: about {rows:,} rows of {plural(columns, 'column')} is "
            f"{rows * columns:,} cells, over the limit of {MAX_CELLS:,}; keep the columns you "
            "need or split the file.",
            count=len(data),
        )


def _read_bytes(source: object, name: str | None, max_bytes: int) -> tuple[bytes, str]:
    """The file's bytes, never more than `max_bytes` of them, even when its size is unknown."""
    if isinstance(source, bytes | bytearray | memoryview):
        name = name or "uploaded file"
        data = bytes(source)
        size, stated = len(data), True
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        name = name or path.name
        size = path.stat().st_size  # 0 for a device or a pipe: the read below is bounded
        data, stated = b"", True
        if size <= max_bytes:
            with path.open("rb") as handle:
                data = handle.read(max_bytes + 1)
            stated = len(data) <= size
            size = max(size, len(data))
    else:
        raise CalculatorTypeError(
            f"A case file must be a path or bytes, but got {type(source).__name__}."
        )
    if size > max_bytes:
        # A file whose size was not known in advance (a device, a pipe) is read only up to
        # the limit: its size is then "over" the limit.
        shown = f"is {size:,} bytes" if stated else f"has more than {max_bytes:,} bytes"
        raise fatal(
            "too_large",
            name,
            f"{name}: the file {shown}, over the limit of {max_bytes:,} bytes; "
            "keep the columns you need or split the file.",
            count=size,
        )
    if not data or data.isspace():
        raise fatal("empty_file", name, f"{name}: the file is empty.", count=0)
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
    first_line = first_line_of(data)
    return "tsv" if b"\t" in first_line and b"," not in first_line else "csv"


def _check_text(data: bytes, name: str) -> None:
    """Refuse binary data and text that is not UTF-8, with the line of the first bad byte."""
    # Known binary containers first: their message can say what to do.
    hints = {
        b"PK\x03\x04": "a zip archive or Excel workbook",
        b"\x1f\x8b": "a gzip archive",
        b"PAR1": "a Parquet file",
    }
    if data.startswith(b"PK\x03\x04") and (name.endswith(".eval") or b"header.json" in data):
        raise fatal(
            "binary_file",
            name,
            f"{name}: an Inspect evaluation log (.eval, a zip archive), not a table of cases; "
            "give it to `cases` with B's log and without column options (or read it with "
            "calculator.logs.read_log), which pairs the samples by id and epoch.",
            count=len(data),
            examples=(OffendingRow(1, None, repr(data[:8])),),
        )
    for magic, what in hints.items():
        if data.startswith(magic):
            raise fatal(
                "binary_file",
                name,
                f"{name}: this is {what}, not text; export it as CSV, TSV or JSON Lines "
                "(or name a Parquet file .parquet).",
                count=len(data),
                examples=(OffendingRow(1, None, repr(data[:8])),),
            )
    if data.find(b"\x00") >= 0:
        lines = _lines_with(data, b"\x00")
        raise fatal(
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
            raise fatal(
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
    while (found := data.find(needle, start)) >= 0 and len(lines) < EXAMPLES:
        lines.append(data.count(b"\n", 0, found) + 1)
        start = data.find(b"\n", found) + 1 or len(data)
    return lines


def _read_parquet(data: bytes, name: str, max_bytes: int) -> pd.DataFrame:
    """The rows of a Parquet file, its index kept as columns when it has a name or values."""
    import pandas as pd
    import pyarrow.parquet as pq

    try:
        metadata = pq.ParquetFile(io.BytesIO(data)).metadata
        columns = metadata.num_columns
        decoded = sum(metadata.row_group(k).total_byte_size for k in range(metadata.num_row_groups))
    except Exception as error:  # pyarrow raises several types for a damaged file
        raise fatal(
            "unreadable_file", name, f"{name}: not a readable Parquet file: {first_line(error)}"
        ) from None
    if columns > MAX_COLUMNS:
        raise fatal(
            "too_many_columns",
            name,
            f"{name}: the file has {columns:,} columns, over the limit of {MAX_COLUMNS:,}; "
            "keep the columns you need (the id, the outcomes, a group).",
            count=columns,
        )
    if decoded > 4 * max_bytes or metadata.num_rows * max(columns, 1) > MAX_CELLS:
        raise fatal(
            "too_large",
            name,
            f"{name}: {metadata.num_rows:,} rows of {plural(columns, 'column')} take "
            f"{decoded:,} bytes once decompressed, over the limit of {4 * max_bytes:,} bytes "
            f"or {MAX_CELLS:,} cells; keep the columns you need or split the file.",
            count=decoded,
        )
    try:
        frame = _parquet_frame(data)
    except Exception as error:  # pyarrow raises several types for a damaged file
        raise fatal(
            "unreadable_file", name, f"{name}: not a readable Parquet file: {first_line(error)}"
        ) from None
    index = frame.index
    plain = isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1
    if not plain or any(level is not None for level in index.names):
        frame = frame.reset_index()  # a named index holds the ids: keep it as a column
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    return frame


def _parquet_frame(data: bytes) -> pd.DataFrame:
    """The file's table, struct columns flattened one level as JSON Lines objects are
    ("doc.question"); deeper structs stay as values, as deeper JSON objects do."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(io.BytesIO(data))
    if not any(pa.types.is_struct(f.type) for f in table.schema):
        return pd.read_parquet(io.BytesIO(data))
    return table.flatten().to_pandas()  # a repeated name is renamed by column_names
