"""JSON Lines files (and a JSON array of objects): one record per line, the others reported.

Lines are split on "\\n" only: U+2028, U+2029 and U+0085 are ordinary characters inside a JSON
string. A line is left out, with its number and the reason, when it is not JSON, not an object,
nested too deeply, holds an integer of more than 4,300 digits, a lone surrogate escape (not
text), or the same key twice. Integers of more than 15 digits are kept as written (text), so that
a large id never loses a digit on its way through floating point.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import TYPE_CHECKING

from calculator.cases.findings import EXAMPLES, CaseFileError, CaseIssue, OffendingRow, fatal
from calculator.text import clip, plural

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["read_json_lines"]

_EXACT_DIGITS = 15  # every integer of at most 15 digits is exact in floating point
_MAX_DIGITS = 4300  # Python's limit for reading an integer from text
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


_Bad = tuple[int, str, str]  # a line left out: its number, the reason, its text


class _LineError(ValueError):
    """Why one line is not a record."""


def read_json_lines(
    text: str, name: str, *, max_rows: int, max_columns: int, max_cells: int
) -> tuple[pd.DataFrame, tuple[CaseIssue, ...]]:
    """The records of a JSON Lines text (index: line number), and a finding for the other lines.

    A JSON array of objects is accepted too (index: position from 1). Nested objects are
    flattened one level ("doc.question").

    Raises
    ------
    CaseFileError
        When no line is a JSON object, or there are more than `max_rows` lines (objects in an
        array), `max_columns` distinct keys or `max_cells` values in all.

    Examples
    --------
    >>> text = '{"id": 1, "doc": {"q": "x"}}\\n\\n[1]\\n'
    >>> frame, issues = read_json_lines(text, "s.jsonl", max_rows=9, max_columns=9, max_cells=99)
    >>> frame.columns.tolist(), frame.index.tolist(), issues[0].examples[0].row
    (['id', 'doc.q'], [1], 3)
    """
    columns = _Columns(name, max_columns=max_columns, max_cells=max_cells)
    stripped = text.lstrip()
    # Each record costs a few microseconds in Python: bound their number before parsing any.
    records = stripped.count("{") if stripped.startswith("[") else text.count("\n")
    if records > max_rows:
        raise fatal(
            "too_large",
            name,
            f"{name}: about {records:,} records, over the limit of {max_rows:,} for JSON Lines; "
            "split the file, or save it as CSV or Parquet (read up to "
            f"{max_cells:,} cells).",
            count=records,
        )
    if stripped.startswith("["):  # a JSON array of objects, accepted too
        bad = _array_records(stripped, name, columns)
    else:
        bad = _line_records(text, columns)
    if not columns.rows:
        first = f" (line {bad[0][0]}: {bad[0][1]})." if bad else "."
        raise fatal(
            "unreadable_file",
            name,
            f"{name}: no line is a JSON object, so this is not JSON Lines{first}",
            count=len(bad),
            examples=tuple(OffendingRow(line, None, clip(shown)) for line, _, shown in bad[:5]),
        )
    frame = columns.frame()
    if not bad:
        return frame, ()
    reasons = Counter(reason for _, reason, _ in bad)
    summary = "; ".join(f"{reason} ({count:,})" for reason, count in reasons.most_common())
    issue = CaseIssue(
        kind="malformed_line",
        file=name,
        column=None,
        count=len(bad),
        examples=tuple(
            OffendingRow(line, None, clip(f"{reason}: {shown}"))
            for line, reason, shown in bad[:EXAMPLES]
        ),
        message=f"{name}: {plural(len(bad), 'line')} not read as a JSON object (the first on line "
        f"{bad[0][0]}): {summary}; left out.",
    )
    return frame, (issue,)


def _line_records(text: str, columns: _Columns) -> list[_Bad]:
    """Each line's record into `columns`; the lines that are not records, with the reason."""
    bad: list[_Bad] = []
    start, number = 0, 0
    while start <= len(text):  # split on "\n" only, without a list of every line
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line, start, number = text[start:end], end + 1, number + 1
        if not line.strip(" \t\r"):
            continue
        try:
            record = _loads(line)
        except _LineError as error:
            bad.append((number, str(error), clip(line, 200)))  # a line may be megabytes
            continue
        if isinstance(record, dict):
            columns.add(record, number)
        else:
            bad.append((number, f"a JSON {type(record).__name__}, not an object", clip(line, 200)))
    return bad


def _array_records(text: str, name: str, columns: _Columns) -> list[_Bad]:
    """Each object of a JSON array into `columns` (numbered by position from 1)."""
    try:
        array = _loads(text)
    except _LineError as error:
        raise fatal("unreadable_file", name, f"{name}: not readable as JSON: {error}.") from None
    bad: list[_Bad] = []
    for number, record in enumerate(array if isinstance(array, list) else [array], start=1):
        if isinstance(record, dict):
            columns.add(record, number)
        else:
            bad.append((number, "not an object", json.dumps(record)[:80]))
    return bad


class _Columns:
    """Records gathered column by column (a list of values per key, not a dict per record),
    nested objects flattened one level ("doc.question"), refused past the bounds."""

    def __init__(self, name: str, *, max_columns: int, max_cells: int) -> None:
        self._name = name
        self._max_columns, self._max_cells = max_columns, max_cells
        self._values: dict[str, list[object]] = {}  # every list as long as the rows so far
        self._shapes: dict[tuple[str, ...], list[list[object]]] = {}
        self._lines: list[int] = []
        self._cells = 0

    @property
    def rows(self) -> int:
        return len(self._lines)

    def add(self, record: dict[str, object], line: int) -> None:
        if dict in map(type, record.values()):
            record = _flat(record)
        shape = tuple(record)
        targets = self._shapes.get(shape)
        if targets is not None and len(shape) == len(self._values):  # the usual record
            for values, value in zip(targets, record.values(), strict=True):
                values.append(value)
        else:
            self._add_new_shape(record, shape)
        self._lines.append(line)
        self._cells += len(shape)
        if self._cells > self._max_cells:
            raise self._refused("too_large", "values", self._max_cells)

    def _add_new_shape(self, record: dict[str, object], shape: tuple[str, ...]) -> None:
        rows = len(self._lines)
        for key in shape:
            if key not in self._values:
                if len(self._values) == self._max_columns:
                    raise self._refused("too_many_columns", "distinct keys", self._max_columns)
                self._values[key] = [None] * rows
        for key, values in self._values.items():
            values.append(record.get(key))
        self._shapes[shape] = [self._values[key] for key in shape]

    def frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self._values, index=pd.Index(self._lines))

    def _refused(self, kind: str, what: str, limit: int) -> CaseFileError:
        return fatal(
            kind,
            self._name,
            f"{self._name}: the records hold over {limit:,} {what} (nested keys flattened), "
            "the most read from one file; keep the keys you need or split the file.",
            count=limit + 1,
        )


def _flat(record: dict[str, object]) -> dict[str, object]:
    flat: dict[str, object] = {}
    for key, value in record.items():
        if type(value) is dict and value:
            prefix = key + "."
            flat.update({prefix + inner: item for inner, item in value.items()})
        else:
            flat[key] = value
    return flat


def _loads(text: str) -> object:
    """One JSON value; _LineError with the reason when it cannot be a record's value."""
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise _LineError(f"not JSON ({error.msg}, column {error.colno})") from None
    except RecursionError:
        raise _LineError("nested too deeply") from None
    if "\\u" in text and _SURROGATE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise _LineError("a lone surrogate escape such as \\ud800, which is not text") from None
    return value


def _integer(text: str) -> int | str:
    """An integer of up to 15 digits; a longer one as written (text); over 4,300, refused."""
    digits = len(text) - text.startswith("-")
    if digits <= _EXACT_DIGITS:
        return int(text)
    if digits > _MAX_DIGITS:
        raise _LineError(f"an integer of {digits:,} digits, over {_MAX_DIGITS:,}")
    return text  # kept exactly as written


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """The object as a dict; refused when a key is repeated (JSON would keep the last)."""
    record = dict(pairs)
    if len(record) < len(pairs):
        repeated = next(key for key, count in Counter(k for k, _ in pairs).items() if count > 1)
        raise _LineError(f"the key {clip(repr(repeated), 40)} twice")
    return record


_DECODER = json.JSONDecoder(parse_int=_integer, object_pairs_hook=_object)
