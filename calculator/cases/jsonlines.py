"""JSON Lines files (and a JSON array of objects): one record per line, the others reported."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from calculator.cases.findings import EXAMPLES, CaseIssue, OffendingRow, clip, fatal, many

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["read_json_lines"]


def read_json_lines(text: str, name: str) -> tuple[pd.DataFrame, tuple[CaseIssue, ...]]:
    """The records of a JSON Lines text (index: line number), and a finding for the other lines.

    A JSON array of objects is accepted too (index: position from 1). Nested objects are
    flattened one level ("doc.question").

    Raises
    ------
    CaseFileError
        When no line is a JSON object.

    Examples
    --------
    >>> frame, issues = read_json_lines('{"id": 1, "doc": {"q": "x"}}\\n\\nnot json\\n', "s.jsonl")
    >>> frame.columns.tolist(), frame.index.tolist(), issues[0].examples[0].row
    (['id', 'doc.q'], [1], 3)
    """
    import pandas as pd

    records: list[dict[str, object]] = []
    line_numbers: list[int] = []
    bad: list[OffendingRow] = []
    bad_count = 0
    stripped = text.lstrip()
    if stripped.startswith("["):  # a JSON array of objects, accepted too
        try:
            array = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise fatal("unreadable_file", name, f"{name}: not valid JSON: {error}.") from None
        pairs = enumerate(array, start=1) if isinstance(array, list) else [(1, array)]
        for number, record in pairs:
            if isinstance(record, dict):
                records.append(record)
                line_numbers.append(number)
            else:
                bad_count += 1
                if len(bad) < EXAMPLES:
                    bad.append(OffendingRow(number, None, clip(json.dumps(record))))
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
                if len(bad) < EXAMPLES:
                    bad.append(OffendingRow(number, None, clip(line)))
    if not records:
        raise fatal(
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
                message=f"{name}: {many(bad_count, 'line')} not a JSON object, left out.",
            ),
        )
    return frame, issues
