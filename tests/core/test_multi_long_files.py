"""Long files read fast without a change in what is read: the typed CSV pass, outcomes read once
per distinct spelling, and the long reader on files past the sizes where those paths start.

References: the table the CSV reader returns is compared with pyarrow's own whole-file type
inference (``pyarrow.csv.read_csv`` with ``ConvertOptions(strings_can_be_null=True,
timestamp_parsers=[])``, pyarrow 26.0.1), the reader's documented behaviour before the typed
pass; outcomes read per distinct value are compared with the same function reading every cell
(columns of at most 10,000 values take that path); the long files' expected tables are built
row by row in the test from the values it writes.
"""

import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pcsv
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.cases.delimited import read_delimited
from calculator.cases.multi import load_systems
from calculator.cases.outcomes import parse_outcomes, text_codes
from calculator.cases.systems_result import SYSTEM_EXCLUSION_REASONS

MEGABYTE_OF_ROWS = 200_000  # rows of "i,v" past the first megabyte the typed pass looks at


def whole_file_inference(data: bytes) -> pa.Table:
    """pyarrow's inference over the whole file, as the reader did it before the typed pass."""
    return pcsv.read_csv(
        io.BytesIO(data),
        read_options=pcsv.ReadOptions(use_threads=False, block_size=1 << 24),  # as the reader
        parse_options=pcsv.ParseOptions(newlines_in_values=True),
        convert_options=pcsv.ConvertOptions(strings_can_be_null=True, timestamp_parsers=[]),
    )


def two_columns(values: list[str], *, header: bytes = b"i,v") -> bytes:
    lines = [f"{i},{v}" for i, v in enumerate(values)]
    return header + b"\n" + "\n".join(lines).encode() + b"\n"


@pytest.mark.parametrize(
    ("label", "values", "kind"),
    [
        # a 0/1 column broken by a word in its last row: text
        ("late word", ["1", "0"] * MEGABYTE_OF_ROWS + ["maybe"], pa.string()),
        # an integer column broken in the middle (neither first nor last rows show it): decimal
        (
            "middle decimal",
            ["1", "0"] * MEGABYTE_OF_ROWS + ["0.5"] + ["1"] * MEGABYTE_OF_ROWS,
            pa.float64(),
        ),
        # empty in the first megabyte, numbers after: integers
        ("empty first", [""] * 2 * MEGABYTE_OF_ROWS + ["3", "4"], pa.int64()),
        # spaces around integers read as integers, as pyarrow trims them
        ("spaced", [" 1", "0 "] * MEGABYTE_OF_ROWS + ["1"], pa.int64()),
        # true/false words and 1/0 digits together: booleans
        ("booleans", ["true", "false"] * MEGABYTE_OF_ROWS + ["1"], pa.bool_()),
        ("short", ["1", "x", "2"], pa.string()),
        # a text cell over a megabyte in the middle of a 0/1 column: text
        (
            "long cell",
            ["1", "0"] * MEGABYTE_OF_ROWS + ["y" * (2 << 20)] + ["1"] * 300_000,
            pa.string(),
        ),
    ],
)
def test_the_typed_pass_reads_the_table_of_whole_file_inference(label, values, kind):
    data = two_columns(values)
    table = read_delimited(data, "f.csv", "csv").table
    expected = whole_file_inference(data)
    assert table.schema.field("v").type == kind, label
    assert table.schema == expected.schema
    assert table.equals(expected), label


def test_repeated_names_and_a_late_break_in_two_columns_read_as_whole_file_inference():
    rows = ["1,2,a"] * 2 * MEGABYTE_OF_ROWS + ["x,2.5,b"]
    for header in (b"a,b,c", b"a,a,c"):  # repeated names: inferred as a whole
        data = header + b"\n" + "\n".join(rows).encode() + b"\n"
        table = read_delimited(data, "f.csv", "csv").table
        expected = whole_file_inference(data)
        assert (
            table.schema.types == expected.schema.types == [pa.string(), pa.float64(), pa.string()]
        )
        assert table.equals(expected)


def test_a_malformed_line_after_the_first_megabyte_keeps_its_line_number():
    rows = ["1,1"] * MEGABYTE_OF_ROWS + ["2,1,extra"] + ["3,maybe"]
    data = b"i,v\n" + "\n".join(rows).encode() + b"\n"
    read = read_delimited(data, "f.csv", "csv")
    (finding,) = [i for i in read.issues if i.kind == "malformed_line"]
    assert finding.count == 1 and finding.examples[0].row == MEGABYTE_OF_ROWS + 2  # header: 1
    assert read.table.num_rows == MEGABYTE_OF_ROWS + 1
    assert read.table.schema.field("v").type == pa.string()


SPELLINGS = ["pass", "Fail", " 1", "0.0", "maybe", "", "1.00", "TRUE", "2", "inf", "nan", "-0"]


@given(
    picks=st.lists(st.integers(0, len(SPELLINGS)), min_size=1, max_size=40),
    threshold=st.sampled_from([None, 0.5, 1.0]),
)
def test_outcomes_read_per_distinct_value_equal_reading_every_cell(picks, threshold):
    # index len(SPELLINGS) stands for a missing value
    short = [None if k == len(SPELLINGS) else SPELLINGS[k] for k in picks]
    repeats = 10_001 // len(short) + 1  # past 10,000 values: read per distinct value
    long = pd.Series(short * repeats, dtype="str")
    fast = parse_outcomes(long, threshold=threshold)
    cell = parse_outcomes(pd.Series(short, dtype="str"), threshold=threshold)  # cell by cell
    for field in ("passed", "missing", "unparseable"):
        assert getattr(fast, field).tolist() == getattr(cell, field).tolist() * repeats


def test_text_codes_number_values_in_order_of_appearance_with_minus_one_for_missing():
    table = pa.table({"t": pa.chunked_array([["b", None], ["a", "b", None, "c"]])})
    codes, values = text_codes(table.to_pandas()["t"])
    assert codes.dtype == np.int32
    assert codes.tolist() == [0, -1, 1, 0, -1, 2] and values.tolist() == ["b", "a", "c"]


def test_a_long_file_whose_outcomes_mix_words_and_digits_is_read_row_by_row():
    """200,000 rows (past the first megabyte and the 10,000 of the per-value outcome path),
    outcomes written 'pass', 1, 'true', 'FAIL', 0, 'no' and a few spoiled rows at the end."""
    rng = np.random.default_rng(14)
    n, names = 50_000, ["m0", "m1", "m2", "m3"]
    passed = rng.random((n, len(names))) < [0.5, 0.6, 0.7, 0.8]
    words_pass, words_fail = ["pass", "1", "true"], ["FAIL", "0", "no"]
    lines = ["id,system,outcome"]
    for i in range(n):
        for j, name in enumerate(names):
            word = (words_pass if passed[i, j] else words_fail)[(i + j) % 3]
            lines.append(f"{i},{name},{word}")
    lines += [f"{n},m0,maybe", f"{n},m1,1", f"{n},m2,1", f"{n},m3,1"]  # unreadable: case out
    lines += [f"{n + 1},m0,1", f"{n + 1},m0,0"]  # a repeated pair, and no other system
    data = ("\n".join(lines) + "\n").encode()
    cases = load_systems(
        data,
        id_column="id",
        system_column="system",
        outcome_column="outcome",
        file_names=["long.csv"],
    )
    assert cases.names == tuple(names)
    assert np.array_equal(cases.outcomes, passed)
    assert cases.case_ids.tolist() == [str(i) for i in range(n)]
    assert cases.excluded["unparseable_outcome"] == 1
    assert cases.excluded["partner_excluded"] == 3
    assert cases.excluded["duplicate_id"] == 2
    assert set(cases.excluded) == set(SYSTEM_EXCLUSION_REASONS)
    assert cases.rows_read == 4 * n + 6 == cases.rows_used + sum(cases.excluded.values())
    (unreadable,) = [i for i in cases.issues if i.kind == "unparseable_outcome"]
    assert unreadable.examples[0].row == 4 * n + 1  # data rows numbered from 1
    assert unreadable.examples[0].case_id == str(n) and unreadable.examples[0].value == "maybe"


def test_last_rows_cut_inside_a_quoted_cell_do_not_decide_a_kind():
    # The last megabyte starts inside a quoted cell whose lines look like rows with text in v:
    # taken as rows they would make v text, but v holds only 0/1 (integers).
    head = "\n".join(f"{i},{i % 2},x" for i in range(MEGABYTE_OF_ROWS))
    quoted = '0,1,"' + "a,b,c\n" * 300_000 + 'end"'
    tail = "\n".join(f"{i},{i % 2},x" for i in range(3))
    data = ("i,v,w\n" + head + "\n" + quoted + "\n" + tail + "\n").encode()
    table = read_delimited(data, "f.csv", "csv").table
    expected = whole_file_inference(data)
    assert table.schema.field("v").type == pa.int64()
    assert table.equals(expected)
