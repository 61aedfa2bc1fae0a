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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from calculator.cases.delimited import first_line_of, read_delimited
from calculator.cases.findings import (
    EXAMPLES,
    CaseIssue,
    OffendingRow,
    fatal,
    first_line,
)
from calculator.cases.jsonlines import read_json_lines

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FORMATS", "MAX_FILE_BYTES", "CaseFile", "read_case_file"]

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
            frame, issues = read_json_lines(data.decode("utf-8-sig"), name)
        else:
            frame, issues = read_delimited(data, name, file_format)
    if frame.shape[1] == 0:
        raise fatal("empty_file", name, f"{name}: the file has no columns.", count=0)
    if len(frame) == 0 and not issues:
        columns = ", ".join(map(str, frame.columns[:8]))
        raise fatal(
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
        raise fatal(
            "too_large",
            name,
            f"{name}: the file is {size:,} bytes, over the limit of {max_bytes:,} bytes; "
            "keep the columns you need or split the file.",
            count=size,
        )
    data = bytes(source) if not isinstance(source, str | os.PathLike) else path.read_bytes()
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


def _read_parquet(data: bytes, name: str) -> pd.DataFrame:
    import pandas as pd

    try:
        frame = pd.read_parquet(io.BytesIO(data))
    except Exception as error:  # pyarrow raises several types for a damaged file
        raise fatal(
            "unreadable_file", name, f"{name}: not a readable Parquet file: {first_line(error)}"
        ) from None
    frame = frame.reset_index(drop=True)
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    return frame
