"""Fuzz test of the per-case reader (issue 16): CSV, TSV and JSON Lines files of random shape,
encoding and content, with hostile cells, read and paired as one file or two.

Invariants checked on every generated input:

- nothing is raised but the documented ``CaseFileError``, and that only for text that is not
  UTF-8 (the encodings drawn include Latin-1 and UTF-16);
- rows read = rows used + rows excluded;
- the 2 x 2 table equals the table counted here, independently, from the rows as generated:
  a row counts when its id and both outcomes are readable (and, with two files, its id is in
  both), its outcome read from the cell as written (pass/fail words, 1/0 as text or number).
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from calculator.cases import FAIL_WORDS, PASS_WORDS, CaseFileError, load_cases

# Outcome cells as written. Text cells go to CSV and JSON alike; the others only to JSON.
TEXT_OUTCOMES = [
    "1",
    "0",
    "1.0",
    "0.0",
    "1.00",
    "+1",
    " 1",
    "0 ",
    "true",
    "FALSE",
    "Yes",
    "no",
    " pass ",
    "Fail",
    "correct",
    "wrong",
    "right",
    "incorrect",
    "passed",
    "failed",
    "",
    "  ",
    "NA",
    "null",
    "maybe",
    "2",
    "0.5",
    "-1",
    "nan",
    "=1+1",
    "yes\u2028",
    "t",
    "1,0",
    '"1"',
]
JSON_OUTCOMES = [True, False, 1, 0, 1.0, 0.0, None, 0.5, 2, -1, [1], "1"]
HOSTILE = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=12,
) | st.sampled_from(
    [
        "=cmd|' /C calc'!A0",
        'a "quoted", cell',
        "line\nbreak",
        "cr\ronly",
        "crlf\r\nx",
        "\u202eexe.txt",
        "tab\there",
        "\u2028\u2029\x85",
        "NA",
        "  ",
        "\x1b[2J",
    ]
)
WORDS_PASS = {*PASS_WORDS, "1", "1.0"}
WORDS_FAIL = {*FAIL_WORDS, "0", "0.0"}


def expected_outcome(cell: object) -> bool | None:
    """Pass, fail, or None (not counted), from the cell as generated."""
    if isinstance(cell, bool):
        return cell
    if isinstance(cell, int | float):
        return True if cell == 1 else False if cell == 0 else None
    if not isinstance(cell, str):
        return None
    text = cell.strip().lower()
    if text in WORDS_PASS:
        return True
    if text in WORDS_FAIL:
        return False
    try:
        number = float(text)
    except ValueError:
        return None
    return True if number == 1 else False if number == 0 else None


@st.composite
def case_rows(draw: st.DrawFn) -> list[dict[str, object]]:
    """Rows with unique ids (text, or integers of any size written several ways), or none."""
    count = draw(st.integers(1, 25))
    integers = draw(st.booleans())
    base = draw(st.sampled_from([0, 2**53, 10**20, -(10**18)]))
    rows = []
    for k in range(count):
        if draw(st.integers(0, 9)) == 0:
            case_id: object = None
        elif integers:
            value = base + 3 * k
            form = draw(st.sampled_from(["plain", "padded", "zeros", "number"]))
            case_id = {
                "plain": str(value),
                "padded": f" {value} ",
                "zeros": ("-" if value < 0 else "") + "00" + str(abs(value)),
                "number": value,
            }[form]
        else:
            case_id = f"id-{k}" + draw(st.sampled_from(["", " ", "\u202e", "é", ",x", '"q"']))
        rows.append(
            {
                "id": case_id,
                "a": draw(st.sampled_from(TEXT_OUTCOMES + JSON_OUTCOMES)),
                "b": draw(st.sampled_from(TEXT_OUTCOMES + JSON_OUTCOMES)),
                "note": draw(HOSTILE),
            }
        )
    return rows


def csv_text(rows, columns, *, delimiter, newline, malformed) -> str:
    """CSV as a careful writer makes it: a cell with the delimiter, a quote, a carriage return
    or a line feed is quoted (Python's writer leaves a lone carriage return bare)."""

    def cell(value: object) -> str:
        text = "" if value is None else _as_text(value)
        if any(mark in text for mark in (delimiter, '"', "\r", "\n")):
            return '"' + text.replace('"', '""') + '"'
        return text

    lines = [delimiter.join(columns)]
    lines += [delimiter.join(cell(row[c]) for c in columns) for row in rows]
    for extra in range(malformed):  # one field too many, or one too few
        lines.append(
            delimiter.join(["bad", *["1"] * (len(columns) - 1 + (1 if extra % 2 else -1))])
        )
    return newline.join(lines) + newline


def json_text(rows, columns, *, newline, malformed, ascii_only, blank) -> str:
    lines = [json.dumps({c: row[c] for c in columns}, ensure_ascii=ascii_only) for row in rows]
    lines += ["{not json", "[1, 2]", '{"id": "r", "a": 1, "a": 0}'][:malformed]
    if blank:
        lines.insert(len(lines) // 2, "")
    return newline.join(lines) + newline


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@st.composite
def encoded_file(draw: st.DrawFn, rows, columns) -> tuple[bytes, str, int, str]:
    """(bytes, file name, malformed lines, encoding) of `rows` in a random format."""
    file_format = draw(st.sampled_from(["csv", "tsv", "jsonl"]))
    malformed = draw(st.integers(0, 3))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    if file_format == "jsonl":
        text = json_text(
            rows,
            columns,
            newline=newline,
            malformed=malformed,
            ascii_only=draw(st.booleans()),
            blank=draw(st.booleans()),
        )
    else:
        delimiter = "," if file_format == "csv" else "\t"
        text = csv_text(rows, columns, delimiter=delimiter, newline=newline, malformed=malformed)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "latin-1", "utf-16"]))
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        encoding, data = "utf-8", text.encode("utf-8")
    return data, f"cases.{file_format}", malformed, encoding


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\x00" not in data


def _csv_cells(rows: list[dict[str, object]], file_name: str) -> list[dict[str, object]]:
    """Rows as the reader sees them: CSV cells are text (a JSON value keeps its type)."""
    if file_name.endswith(".jsonl"):
        return rows
    return [{k: (None if v is None else _as_text(v)) for k, v in row.items()} for row in rows]


def _id_key(case_id: object) -> object:
    """The id as the test compares it: an integer when it is one, else its trimmed text."""
    if case_id is None:
        return None
    text = str(case_id).strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return text


@given(data=st.data(), rows=case_rows())
def test_one_file_reads_as_counted(data, rows):
    source, name, malformed, encoding = data.draw(encoded_file(rows, ["id", "a", "b", "note"]))
    try:
        cases = load_cases(
            source, id_column="id", a_column="a", b_column="b", file_names=(name, None)
        )
    except CaseFileError as error:
        assert not _is_utf8(source), (encoding, error)
        return
    assert _is_utf8(source)
    seen = _csv_cells(rows, name)
    expected = Counter()
    for row in seen:
        a, b = expected_outcome(row["a"]), expected_outcome(row["b"])
        if _id_key(row["id"]) is not None and a is not None and b is not None:
            expected[a, b] += 1
    table = (
        expected[True, True],
        expected[True, False],
        expected[False, True],
        expected[False, False],
    )
    assert cases.counts == table, cases.issues
    assert cases.rows_read == len(rows) + malformed
    assert cases.rows_read == cases.rows_used + sum(cases.excluded.values())
    assert cases.excluded["malformed_line"] == malformed


@given(data=st.data(), rows=case_rows())
def test_two_files_pair_as_counted(data, rows):
    # B holds a shuffled subset of the ids, so some ids are in one file only.
    shuffle = random.Random(data.draw(st.integers(0, 2**32)))
    kept = [row for row in rows if shuffle.random() < 0.8] or rows[:1]
    shuffle.shuffle(kept)
    first, name_a, bad_a, _ = data.draw(encoded_file(rows, ["id", "a", "note"]))
    second, name_b, bad_b, _ = data.draw(encoded_file(kept, ["id", "b"]))
    try:
        cases = load_cases(
            first,
            second,
            id_column="id",
            a_column="a",
            b_column="b",
            file_names=("a_" + name_a, "b_" + name_b),
        )
    except CaseFileError as error:
        assert not (_is_utf8(first) and _is_utf8(second)) or error.issue.kind == "same_file"
        return
    in_b = {_id_key(row["id"]): row for row in _csv_cells(kept, name_b)}
    expected = Counter()
    for row in _csv_cells(rows, name_a):
        key = _id_key(row["id"])
        if key is None or key not in in_b:
            continue
        a, b = expected_outcome(row["a"]), expected_outcome(in_b[key]["b"])
        if a is not None and b is not None:
            expected[a, b] += 1
    table = (
        expected[True, True],
        expected[True, False],
        expected[False, True],
        expected[False, False],
    )
    assert cases.counts == table, cases.issues
    assert cases.rows_read == len(rows) + len(kept) + bad_a + bad_b
    assert cases.rows_read == cases.rows_used + sum(cases.excluded.values())
