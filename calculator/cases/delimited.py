"""CSV and TSV files: the delimiter check and the reading, with lines that do not fit reported."""

from __future__ import annotations

import io
import re
import warnings
from typing import TYPE_CHECKING

from calculator.cases.findings import (
    EXAMPLES,
    CaseFileError,
    CaseIssue,
    OffendingRow,
    clip,
    fatal,
    first_line,
    many,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DELIMITERS", "first_line_of", "read_delimited"]

#: The delimiter of each delimited format.
DELIMITERS = {"csv": ",", "tsv": "\t"}
_OTHER_DELIMITERS = {",": "comma", "\t": "tab", ";": "semicolon", "|": "vertical bar"}


def first_line_of(data: bytes) -> bytes:
    """The first non-blank line, without copying the whole file.

    Examples
    --------
    >>> first_line_of(b"\\n\\nid,a\\r\\nq1,1\\n")
    b'id,a'
    """
    start = re.search(rb"[^\r\n]", data[:65536])
    offset = start.start() if start else 0
    end = data.find(b"\n", offset)
    return data[offset : end if end >= 0 else len(data)].rstrip(b"\r")


def read_delimited(
    data: bytes, name: str, file_format: str
) -> tuple[pd.DataFrame, tuple[CaseIssue, ...]]:
    """The rows of a CSV or TSV file, and a "malformed_line" finding for lines that do not fit.

    Raises
    ------
    CaseFileError
        When another delimiter splits the header, or the parser cannot read the file.
    """
    import pandas as pd

    delimiter = DELIMITERS[file_format]
    header = first_line_of(data).decode("utf-8-sig")
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
            raise fatal("empty_file", name, f"{name}: the file is empty.", count=0) from None
        except (pd.errors.ParserError, ValueError) as error:
            raise fatal(
                "unreadable_file",
                name,
                f"{name}: not readable as {file_format.upper()}: {first_line(error)}",
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
        examples=tuple(OffendingRow(line, None, detail) for line, detail in bad_lines[:EXAMPLES]),
        message=f"{name}: {many(len(bad_lines), 'line')} with more fields than the header's "
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
