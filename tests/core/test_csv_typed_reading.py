"""Reading delimited files: the typed pass against pyarrow's whole-file inference on files whose
first and last rows mislead it, ids that must stay apart, and files whose lines end in a lone
carriage return (the header, the cell limit).

References: the expected table is pyarrow's own whole-file inference
(``pyarrow.csv.read_csv`` with ``ConvertOptions(strings_can_be_null=True,
timestamp_parsers=[])``, pyarrow 26.0.1), which the reader returned before the typed pass; the
rows kept and left out are counted in the test with Python's ``csv`` module. A lone carriage
return ends a record for pyarrow's parser as for ``csv`` (RFC 4180 allows CRLF; old Mac files
end lines with CR alone).
"""

from __future__ import annotations

import csv
import io

import pyarrow as pa
import pyarrow.csv as pcsv
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.cases import reading
from calculator.cases.delimited import first_line_of, header_fields, read_table
from calculator.cases.findings import CaseFileError
from calculator.cases.ids import case_ids
from calculator.cases.pairing import load_cases
from calculator.cases.reading import read_case_file

# Cells a column can hold: every kind pyarrow infers, null spellings, and values that break a
# kind late (a word after digits, a 20-digit integer after int64, 1.0 after 1, True after 0).
CELLS = [
    "", "1", "0", "007", "7", "-3", "1.0", "0.0", "1.5", "1e5", "NaN", "nan", "inf", "-inf",
    "true", "True", "TRUE", "false", "x", "maybe", "2024-01-01", "12:30:00", " 1", "1 ", "NA",
    "null", "12345678901234567890", "9223372036854775808", "+5", ".5", "-0", '"a,b"',
    '"two\nlines"', '""',
]  # fmt: skip


def whole_file_inference(data: bytes, block: int) -> tuple[pa.Table, list[int]]:
    invalid: list[int] = []

    def skip(row: pcsv.InvalidRow) -> str:
        invalid.append(row.number)
        return "skip"

    table = pcsv.read_csv(
        io.BytesIO(data),
        read_options=pcsv.ReadOptions(use_threads=False, block_size=block),
        parse_options=pcsv.ParseOptions(newlines_in_values=True, invalid_row_handler=skip),
        convert_options=pcsv.ConvertOptions(strings_can_be_null=True, timestamp_parsers=[]),
    )
    return table, invalid


@st.composite
def misleading_files(draw: st.DrawFn) -> bytes:
    """A CSV whose columns mostly repeat one cell, with other cells anywhere (first rows,
    middle, last rows) and now and then a line with a field too many or too few."""
    width = draw(st.integers(1, 3))
    usual = draw(st.lists(st.sampled_from(["1", "0", "true", "1.5", "x", "", "007"]),
                          min_size=width, max_size=width))  # fmt: skip
    rows = []
    for _ in range(draw(st.integers(1, 40))):
        row = [
            draw(st.sampled_from(CELLS)) if draw(st.integers(0, 9)) == 0 else usual[k]
            for k in range(width)
        ]
        extra = draw(st.sampled_from(["", "", "", "", "", "", "", "", "more", "fewer"]))
        row = row + ["z"] if extra == "more" else row[:-1] if extra == "fewer" else row
        rows.append(",".join(row))
    header = ",".join(f"c{k}" for k in range(width))
    return (header + "\n" + "\n".join(rows) + "\n").encode()


@given(data=misleading_files(), block=st.sampled_from([64, 1 << 24]))
def test_typed_pass_equals_whole_file_inference_when_first_and_last_rows_mislead(
    data: bytes, block: int
) -> None:
    # Each column is read as text and given its kind once, from its distinct values: a break
    # anywhere (first rows, middle, last rows) decides the kind as whole-file inference does.
    try:
        expected, expected_invalid = whole_file_inference(data, block)
    except pa.ArrowInvalid:
        with pytest.raises(pa.ArrowInvalid):
            read_table(data, ",", block, [])
        return
    invalid: list[tuple[int, str]] = []
    table = read_table(data, ",", block, invalid)
    assert table.schema == expected.schema
    assert table.equals(expected)
    assert [number for number, _ in invalid] == expected_invalid


def test_ids_007_and_7_stay_two_cases_when_a_late_word_makes_the_ids_text() -> None:
    # The first rows are all integers (typed int64, where 007 is 7); a word in the last row
    # makes the column text, so ids are compared as written: 007 and 7 are two cases.
    rows = [f"{i},1,0" for i in range(1, 40)]
    rows[2] = "007,0,1"
    rows.append("q1,1,1")
    data = ("id,a,b\n" + "\n".join(rows) + "\n").encode()
    case_file = read_case_file(data, name="ids.csv")
    (ids,) = case_ids((case_file, "id"))
    assert ids.text.tolist()[2:7] == ["007", "4", "5", "6", "7"]
    assert ids.codes[2] != ids.codes[6]
    cases = load_cases(data, id_column="id", a_column="a", b_column="b", file_names=("i.csv", None))
    assert cases.rows_read == cases.rows_used == cases.table.n == 40  # no id repeated


# -- Lines ended by a lone carriage return -------------------------------------------------


def carriage_return_file(rows: int, *, quoted: bool = False, bad: int | None = None) -> bytes:
    header = '"id","a","b"' if quoted else "id,a,b"
    lines = [f"q{i},{'x' if i == bad else 1},0" for i in range(rows)]
    return (header + "\r" + "\r".join(lines) + "\r").encode()


def csv_module_rows(data: bytes) -> int:
    return sum(1 for row in csv.reader(io.StringIO(data.decode(), newline="")) if row) - 1


def test_first_line_ends_at_a_lone_carriage_return() -> None:
    data = carriage_return_file(600)
    assert first_line_of(data) == b"id,a,b"
    assert header_fields(data, "csv") == 3
    assert header_fields(carriage_return_file(600, quoted=True), "csv") == 3


@pytest.mark.parametrize("quoted", [False, True])
def test_a_carriage_return_file_of_600_rows_is_read_row_by_row(quoted: bool) -> None:
    # Before: the whole file was its "first line", so 1,203 fields made "the header has 1,203
    # columns" (plain) or Python's csv raised an internal error (quoted header).
    data = carriage_return_file(600, quoted=quoted, bad=299)
    cases = load_cases(data, id_column="id", a_column="a", b_column="b", file_names=("c.csv", None))
    assert cases.rows_read == csv_module_rows(data) == 600
    assert cases.rows_used == 599 and sum(cases.excluded.values()) == 1
    (issue,) = [i for i in cases.issues if i.kind == "unparseable_outcome"]
    assert "(on line 301)" in issue.message  # header on line 1, row q299 on line 301


def test_the_cell_limit_counts_lines_ended_by_a_lone_carriage_return(monkeypatch) -> None:
    monkeypatch.setattr(reading, "MAX_CELLS", 30)
    for ending in ("\n", "\r\n", "\r"):
        data = carriage_return_file(20).decode().replace("\r", ending).encode()
        with pytest.raises(CaseFileError, match="over the limit of 30"):
            read_case_file(data, name="cr.csv")
