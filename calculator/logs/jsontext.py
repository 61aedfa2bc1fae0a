"""JSON text of a harness log parsed with its limits: the one place the log readers parse JSON.

Python's ``json`` module refuses nothing by size: an array nested a hundred thousand levels deep
raises ``RecursionError``, and an integer of more than 4,300 digits a bare ``ValueError``; both
reached the command line as internal errors. Here they are refusals naming the file. Syntax
errors (``json.JSONDecodeError``) and undecodable bytes (``UnicodeDecodeError``) pass through
unchanged: each reader says what they mean for its format.

Nor does a bound on the bytes bound the work: parsed, a text of small arrays or objects
(``[[[]]],[[[]]],...``) takes some 40 bytes of Python objects per byte, so a 100 MB member of a
150 KB ``.eval`` took 4 GB and a minute. The values a text holds are therefore counted before it
is parsed (:func:`count_values`, at the speed of a byte search): one document may hold at most
:data:`MAX_VALUES` (under a gigabyte once parsed, a few seconds), and the documents read for one
system (every member of an ``.eval``, every line of a samples file, every file of a folder) at
most :data:`MAX_LOG_VALUES` in all (:func:`log_budget`), which bounds the time. Logs hold far
fewer: 25 to 130 bytes of text per value in the logs of tests/data/evallogs, so 200 MB of
HELM's stats (the densest) hold about 8 million values.
"""

from __future__ import annotations

import json
import json.scanner
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from calculator.logs.table import LogError

__all__ = [
    "MAX_LOG_VALUES",
    "MAX_VALUES",
    "charge_values",
    "count_values",
    "log_budget",
    "parse_json",
    "parse_line",
]

#: Most values (numbers, strings, arrays, objects) parsed from one JSON document: 10 million
#: empty arrays take about 800 MB and 2 to 3 s.
MAX_VALUES = 10_000_000
#: Most values parsed for one system's logs in all (the time of some 4 x MAX_VALUES).
MAX_LOG_VALUES = 40_000_000
# A JSON string, escapes included; never across a line (JSON strings hold no raw newline), so
# that an unterminated quote cannot hide the lines after it from the count.
_STRING_BYTES = re.compile(rb'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_STRING_TEXT = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
#: What a line of JSON Lines counts beyond its values: parsing a line apart costs about 1.5 us,
#: as much as five small arrays (a file of two million lines "1" took 3 s).
LINE_VALUES = 5
_SCAN = json.scanner.make_scanner(json.JSONDecoder())  # what json.loads calls, in C
_BUDGET: ContextVar[list[int] | None] = ContextVar("log_values_left", default=None)


def count_values(data: bytes | str, limit: int | None = None) -> int:
    """An upper bound on the values ``json.loads(data)`` builds (before it fails, if invalid).

    Every value but the outermost is an element of an array or object, and a container holds
    at most one more element than the commas in it; so the values are at most 1 + the commas +
    the opening brackets outside strings. Commas and brackets are counted in the whole text
    first (strings included); only when that bound is over `limit` (default
    :data:`MAX_VALUES`) are the strings taken out and the count made again.

    Examples
    --------
    >>> count_values(b'[[], {"a": 1, "b": [2, 3]}]'), count_values('["x, [y]", 1]', limit=1)
    (8, 3)
    """
    total = _structure(data)
    if total <= (MAX_VALUES if limit is None else limit):
        return total
    if isinstance(data, bytes):
        return _structure(_STRING_BYTES.sub(b"", data))
    return _structure(_STRING_TEXT.sub("", data))


def _structure(data: bytes | str) -> int:
    if isinstance(data, bytes):
        return 1 + data.count(b",") + data.count(b"[") + data.count(b"{")
    return 1 + data.count(",") + data.count("[") + data.count("{")


@contextmanager
def log_budget() -> Iterator[None]:
    """Count every JSON value parsed inside against :data:`MAX_LOG_VALUES`: one system's logs
    read. Nested, the outermost budget holds (a folder's files share one)."""
    if _BUDGET.get() is not None:
        yield
        return
    token = _BUDGET.set([MAX_LOG_VALUES])
    try:
        yield
    finally:
        _BUDGET.reset(token)


def charge_values(data: bytes | str, where: str, *, lines: bool = False) -> int:
    """Count the values of `data` against the current :func:`log_budget` (if any); `where`
    names the file in a refusal. With `lines` (JSON Lines, each line parsed apart), each line
    counts :data:`LINE_VALUES` more. Returns the count (exact when near a limit).

    Raises
    ------
    LogError
        When the budget is spent.
    """
    count = count_values(data, _limit())
    if lines:
        count += LINE_VALUES * (data.count(b"\n" if isinstance(data, bytes) else "\n") + 1)
    _charge(count, where)
    return count


def _limit() -> int:
    """The count above which values are counted exactly: the document's limit, or what is left
    of the budget if less."""
    left = _BUDGET.get()
    return MAX_VALUES if left is None else min(MAX_VALUES, max(left[0], 0))


def _charge(count: int, where: str) -> None:
    left = _BUDGET.get()
    if left is None:
        return
    left[0] -= count
    if left[0] < 0:
        raise LogError(
            f"{where}: the logs read for this system hold over {MAX_LOG_VALUES:,} JSON values "
            "(numbers, strings, arrays, objects) in all, the most read for one system (it bounds "
            "the time taken); give fewer files at once, or the tasks in parts."
        )


def parse_json(data: bytes | str, where: str, *, charged: bool = False) -> object:
    """The JSON value of `data`; `where` names the file (and member or line) in a refusal.

    Its values are counted first (:data:`MAX_VALUES`), and charged to the current
    :func:`log_budget` unless `charged` (a line of a file already charged whole).

    Raises
    ------
    LogError
        When the value holds more than :data:`MAX_VALUES` values, the budget is spent, the
        value nests deeper than Python's parser can follow, or it holds an integer too long to
        convert.
    json.JSONDecodeError, UnicodeDecodeError
        When `data` is not JSON text.

    Examples
    --------
    >>> parse_json(b'{"doc_id": 0}', "x.jsonl")
    {'doc_id': 0}
    """
    if charged:  # a text shorter than the limit holds fewer values (each takes a character)
        count = 0 if len(data) <= MAX_VALUES else count_values(data)
    else:
        count = count_values(data, _limit())
    if count > MAX_VALUES:
        raise LogError(
            f"{where}: this JSON holds about {count:,} values (numbers, strings, arrays, "
            f"objects), over the limit of {MAX_VALUES:,} read from one document (parsed, they "
            "would take a gigabyte of memory or more): the file is damaged, or not a log."
        )
    if not charged:
        _charge(count, where)
    return _parsed(json.loads, data, where)


def parse_line(line: str, where: str) -> object:
    """:func:`parse_json` of one line of JSON Lines whose file was charged whole
    (:func:`charge_values` with `lines`), through the ``json`` module's C scanner itself: a
    third of ``json.loads``' time on a short line (0.5 against 1.5 us), which is most of the
    time of reading a file of millions of short records.

    Raises
    ------
    LogError, json.JSONDecodeError
        As :func:`parse_json`.
    """
    if len(line) > MAX_VALUES:
        return parse_json(line, where, charged=True)
    return _parsed(_scan_line, line.strip(), where)


def _scan_line(text: str) -> object:
    try:
        value, end = _SCAN(text, 0)
    except StopIteration as stop:
        raise json.JSONDecodeError("Expecting value", text, stop.value) from None
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return value


def _parsed(parse: Callable[[Any], object], data: bytes | str, where: str) -> object:
    """`parse(data)`, Python's errors of size turned into refusals naming `where`."""
    try:
        return parse(data)
    except RecursionError:
        raise LogError(
            f"{where}: JSON nested too deeply to read (arrays or objects inside one another "
            "thousands of levels deep); no harness writes such a log: the file is damaged or "
            "not a log."
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError as error:  # an integer over Python's limit of digits
        raise LogError(
            f"{where}: a number in this JSON cannot be read ({str(error)[:90]}); no harness "
            "writes such a number: the file is damaged or not a log."
        ) from None
