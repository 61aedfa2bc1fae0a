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

from calculator.cases.findings import EXAMPLES, CaseIssue, OffendingRow, clip, fatal, many

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
    text: str, name: str, max_columns: int
) -> tuple[pd.DataFrame, tuple[CaseIssue, ...]]:
    """The records of a JSON Lines text (index: line number), and a finding for the other lines.

    A JSON array of objects is accepted too (index: position from 1). Nested objects are
    flattened one level ("doc.question").

    Raises
    ------
    CaseFileError
        When no line is a JSON object, or the records have more than `max_columns` keys.

    Examples
    --------
    >>> frame, issues = read_json_lines('{"id": 1, "doc": {"q": "x"}}\\n\\n[1]\\n', "s.jsonl", 10)
    >>> frame.columns.tolist(), frame.index.tolist(), issues[0].examples[0].row
    (['id', 'doc.q'], [1], 3)
    """
    import pandas as pd

    stripped = text.lstrip()
    if stripped.startswith("["):  # a JSON array of objects, accepted too
        records, line_numbers, bad = _array_records(stripped, name)
    else:
        records, line_numbers, bad = _line_records(text)
    if not records:
        first = f" (line {bad[0][0]}: {bad[0][1]})." if bad else "."
        raise fatal(
            "unreadable_file",
            name,
            f"{name}: no line is a JSON object, so this is not JSON Lines{first}",
            count=len(bad),
            examples=tuple(OffendingRow(line, None, clip(shown)) for line, _, shown in bad[:5]),
        )
    _check_columns(records, name, max_columns)
    frame = pd.json_normalize(records, max_level=1)
    frame.index = pd.Index(line_numbers)
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
        message=f"{name}: {many(len(bad), 'line')} not read as a JSON object (the first on line "
        f"{bad[0][0]}): {summary}; left out.",
    )
    return frame, (issue,)


def _line_records(text: str) -> tuple[list[dict], list[int], list[_Bad]]:
    records: list[dict] = []
    line_numbers: list[int] = []
    bad: list[_Bad] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip(" \t\r"):
            continue
        try:
            record = _loads(line)
        except _LineError as error:
            bad.append((number, str(error), line))
            continue
        if isinstance(record, dict):
            records.append(record)
            line_numbers.append(number)
        else:
            bad.append((number, f"a JSON {type(record).__name__}, not an object", line))
    return records, line_numbers, bad


def _array_records(text: str, name: str) -> tuple[list[dict], list[int], list[_Bad]]:
    try:
        array = _loads(text)
    except _LineError as error:
        raise fatal("unreadable_file", name, f"{name}: not readable as JSON: {error}.") from None
    records: list[dict] = []
    positions: list[int] = []
    bad: list[_Bad] = []
    for number, record in enumerate(array if isinstance(array, list) else [array], start=1):
        if isinstance(record, dict):
            records.append(record)
            positions.append(number)
        else:
            bad.append((number, "not an object", json.dumps(record)[:80]))
    return records, positions, bad


def _loads(text: str) -> object:
    """One JSON value; _LineError with the reason when it cannot be a record's value."""
    try:
        value = json.loads(text, parse_int=_integer, object_pairs_hook=_object)
    except json.JSONDecodeError as error:
        raise _LineError(f"not JSON ({error.msg}, column {error.colno})") from None
    except RecursionError:
        raise _LineError("nested too deeply") from None
    if _SURROGATE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise _LineError("a lone surrogate escape such as \\ud800, which is not text") from None
    return value


def _integer(text: str) -> int | str:
    digits = len(text) - text.startswith("-")
    if digits <= _EXACT_DIGITS:
        return int(text)
    if digits > _MAX_DIGITS:
        raise _LineError(f"an integer of {digits:,} digits, over {_MAX_DIGITS:,}")
    return text  # kept exactly as written


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    record = dict(pairs)
    if len(record) < len(pairs):
        repeated = next(key for key, count in Counter(k for k, _ in pairs).items() if count > 1)
        raise _LineError(f"the key {clip(repr(repeated), 40)} twice")
    return record


def _check_columns(records: list[dict], name: str, max_columns: int) -> None:
    """Refuse records whose keys (nested ones flattened) number more than `max_columns`."""
    columns: set[str] = set()
    shapes: set[tuple] = set()
    for record in records:
        shape = tuple(record)
        nested = [(key, tuple(value)) for key, value in record.items() if type(value) is dict]
        if shape in shapes and not nested:
            continue
        shapes.add(shape)
        columns.update(key for key in shape)
        for key, inner in nested:
            columns.update(f"{key}.{sub}" for sub in inner)
        if len(columns) > max_columns:
            raise fatal(
                "too_many_columns",
                name,
                f"{name}: the records have over {max_columns:,} distinct keys (nested ones "
                "flattened), the most columns read; keep the keys you need.",
                count=len(columns),
            )
