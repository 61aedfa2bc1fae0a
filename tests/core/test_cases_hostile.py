"""Per-case files under hostile and careless input (issue 16): one regression test per class.

Each input below is small and its expected reading is worked out by hand in the test. Every test
here failed on the reader before issue 16 (checked by running this file against the previous
`calculator/cases.py`); the comment on each says what that reader did.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading

import numpy as np
import pandas as pd
import pytest

from calculator.cases import CaseFileError, load_cases, read_case_file
from calculator.cases.reading import MAX_COLUMNS


def csv_bytes(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def issues_of(cases, kind):
    return [item for item in cases.issues if item.kind == kind]


def refused(data: bytes, name: str, **options) -> CaseFileError:
    with pytest.raises(CaseFileError) as caught:
        read_case_file(data, name=name, **options)
    return caught.value


# --- 1: a row with one field more (or fewer) than the header -------------------------------------


def test_trailing_delimiter_on_one_row_does_not_shift_the_columns():
    # Before: pandas took the first field as the index, so every column moved one place and
    # the ids were read as outcomes ("0 excluded", a wrong table).
    data = csv_bytes("id,old,new", "q1,1,0,", "q2,0,1", "q3,1,1", "q4,0,0")
    cases = load_cases(
        data, id_column="id", a_column="old", b_column="new", file_names=("r.csv", None)
    )
    malformed = issues_of(cases, "malformed_line")[0]
    assert malformed.count == 1 and malformed.examples[0].row == 2  # the file's line
    assert "line 2" in malformed.message and "more fields" in malformed.message
    assert cases.counts == (1, 0, 1, 1)  # q3 both, q2 only new, q4 both fail
    assert cases.cases["id"].tolist() == ["q2", "q3", "q4"]
    assert cases.rows_read == 4 == cases.rows_used + sum(cases.excluded.values())


def test_a_row_with_too_few_fields_is_a_malformed_line():
    # Before: the missing trailing field was read as a blank value (a "missing value").
    data = csv_bytes("id,old,new", "q1,1,0", "q2,1", "q3,0,1")
    cases = load_cases(
        data, id_column="id", a_column="old", b_column="new", file_names=("r.csv", None)
    )
    malformed = issues_of(cases, "malformed_line")[0]
    assert malformed.count == 1 and malformed.examples[0].row == 3
    assert "fewer" in malformed.message
    assert cases.excluded["malformed_line"] == 1 and cases.excluded["missing_value"] == 0


def test_trailing_delimiter_on_every_row_says_what_to_fix():
    data = csv_bytes("id,old,new", "q1,1,0,", "q2,0,1,")
    cases = load_cases(
        data, id_column="id", a_column="old", b_column="new", file_names=("r.csv", None)
    )
    message = issues_of(cases, "malformed_line")[0].message
    assert "delimiter at the end of each line" in message
    assert cases.n == 0 and cases.excluded["malformed_line"] == 2


# --- 2: large integer ids ------------------------------------------------------------------------


BIG = 9007199254740993  # 2^53 + 1: as a float it is 2^53 = 9007199254740992


def test_large_integer_ids_keep_every_digit_with_a_blank_id():
    # Before: the blank id made the column floating point, and 2^53 + 1 became 2^53: the two
    # ids below were one duplicated id, and both rows were left out.
    data = csv_bytes("id,old,new", f"{BIG},1,0", f"{BIG - 1},0,1", ",1,1")
    cases = load_cases(
        data, id_column="id", a_column="old", b_column="new", file_names=("r.csv", None)
    )
    assert cases.excluded["duplicate_id"] == 0
    assert cases.only_a()["id"].tolist() == [str(BIG)]
    assert cases.only_b()["id"].tolist() == [str(BIG - 1)]


@pytest.mark.parametrize("format_b", ["csv", "jsonl"])
def test_large_integer_ids_pair_exactly_across_files_and_formats(format_b):
    # Before: 9007199254740993 in A was paired with 9007199254740992 in B.
    first = csv_bytes("id,acc", f"{BIG},1", f"{BIG + 2},1", ",0")
    rows_b = [(BIG - 1, 0), (BIG + 2, 0), (None, 1)]
    if format_b == "csv":
        second = csv_bytes("id,acc", *(f"{'' if i is None else i},{a}" for i, a in rows_b))
    else:
        second = "\n".join(json.dumps({"id": i, "acc": a}) for i, a in rows_b).encode()
    cases = load_cases(
        first,
        second,
        id_column="id",
        a_column="acc",
        b_column="acc",
        file_names=("a.csv", f"b.{format_b}"),
    )
    assert cases.cases["id"].tolist() == [str(BIG + 2)]
    assert cases.counts == (0, 1, 0, 0)
    assert cases.excluded["id_in_one_file_only"] == 2  # BIG in A, BIG - 1 in B


def test_ids_compare_as_written_unless_all_are_integers():
    # "1.5" and "1.50" are two ids as written; "7", "007" and "7.0" one integer.
    text = load_cases(
        csv_bytes("id,a,b", "1.5,1,0", "1.50,0,1", "2,1,1"),
        id_column="id",
        a_column="a",
        b_column="b",
        file_names=("r.csv", None),
    )
    assert text.excluded["duplicate_id"] == 0 and text.n == 3
    numbers = load_cases(
        csv_bytes("id,a,b", "7,1,0", "007,0,1", "7.0,1,1"),
        id_column="id",
        a_column="a",
        b_column="b",
        file_names=("r.csv", None),
    )
    assert numbers.excluded["duplicate_id"] == 3


# --- 4: a quoted cell over several lines ---------------------------------------------------------


def test_a_quote_left_open_is_reported_with_the_line_count():
    # Before: "2 read, 0 excluded" for this 5-row file, and not a word about the lost rows.
    data = csv_bytes("id,old,new", "q1,1,0", 'q2,"pass,1', "q3,1,0", "q4,0,1", "q5,1,1")
    cases = load_cases(
        data, id_column="id", a_column="old", b_column="new", file_names=("r.csv", None)
    )
    spans = issues_of(cases, "multiline_cell")
    assert len(spans) == 1 and spans[0].examples[0].row == 3
    assert "6 lines hold the header and 2 rows" in spans[0].message
    assert cases.rows_read == 2


def test_rows_after_a_multiline_cell_are_numbered_by_their_line():
    data = csv_bytes("id,old,new,note", 'q1,1,0,"two', 'lines"', "q2,maybe,0,x")
    cases = load_cases(
        data, id_column="id", a_column="old", b_column="new", file_names=("r.csv", None)
    )
    unparseable = issues_of(cases, "unparseable_outcome")[0]
    assert "on line 4" in unparseable.message  # data row 2 starts on the file's line 4
    assert issues_of(cases, "multiline_cell")[0].count == 1


# --- 5: JSON Lines split on "\n" only ------------------------------------------------------------


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_unicode_line_separators_inside_a_string_stay_in_the_record(separator):
    # Before: str.splitlines() cut the record in two, and both halves were malformed lines.
    lines = [
        json.dumps({"id": "q1", "a": 1, "b": 0, "note": f"x{separator}y"}, ensure_ascii=False),
        json.dumps({"id": "q2", "a": 0, "b": 0}),
    ]
    cases = load_cases(
        "\n".join(lines).encode(),
        id_column="id",
        a_column="a",
        b_column="b",
        file_names=("s.jsonl", None),
    )
    assert cases.rows_read == 2 and cases.counts == (0, 1, 0, 1)
    assert cases.cases["note"].tolist()[0] == f"x{separator}y"


# --- 6: a Parquet index with a name -------------------------------------------------------------


def test_parquet_named_index_is_kept_as_a_column(tmp_path):
    # Before: the index (the ids) was dropped, and --id doc_id found no column.
    frame = pd.DataFrame({"doc_id": ["d1", "d2"], "a": [1, 0], "b": [0, 0]}).set_index("doc_id")
    frame.to_parquet(tmp_path / "r.parquet")
    cases = load_cases(tmp_path / "r.parquet", id_column="doc_id", a_column="a", b_column="b")
    assert cases.cases["doc_id"].tolist() == ["d1", "d2"]


# --- 7: the same file twice ----------------------------------------------------------------------


def test_the_same_file_twice_is_refused():
    # Before: accepted, with p = 1 reported.
    data = csv_bytes("id,acc", "q1,1", "q2,0")
    with pytest.raises(CaseFileError, match="same file") as caught:
        load_cases(data, data, id_column="id", file_names=("a.csv", "b.csv"))
    assert caught.value.issue.kind == "same_file"


# --- 8: deep nesting, huge integers, lone surrogates ---------------------------------------------


@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        ('{"id": "q2", "a": ' + "[" * 100_000 + "]" * 100_000 + ', "b": 0}', "nested too deeply"),
        ('{"id": "q2", "a": 1, "b": ' + "7" * 5_000 + "}", "5,000 digits"),
        ('{"id": "q2\\ud800", "a": 1, "b": 0}', "lone surrogate"),
        ('{"id": "q2", "a": 1, "a": 0, "b": 0}', "key 'a' twice"),
    ],
    ids=["deep", "long-integer", "lone-surrogate", "repeated-key"],
)
def test_a_bad_json_line_is_left_out_and_the_rest_is_read(bad_line, reason):
    # Before: RecursionError (a traceback), or the whole file refused with no line named, or
    # (repeated key) the last value kept without a word.
    lines = ['{"id": "q1", "a": 1, "b": 0}', bad_line, '{"id": "q3", "a": 0, "b": 0}']
    cases = load_cases(
        "\n".join(lines).encode(),
        id_column="id",
        a_column="a",
        b_column="b",
        file_names=("s.jsonl", None),
    )
    malformed = issues_of(cases, "malformed_line")[0]
    assert malformed.examples[0].row == 2 and reason in malformed.message
    assert "line 2" in malformed.message
    assert cases.rows_read == 3 and cases.counts == (0, 1, 0, 1)


# --- 11: shape and size bounds -------------------------------------------------------------------


def test_a_header_of_thousands_of_columns_is_refused_before_reading():
    # Before: read in full (minutes and gigabytes at tens of thousands).
    header = ",".join(f"c{k}" for k in range(MAX_COLUMNS + 1))
    error = refused(csv_bytes(header, ",".join("1" * (MAX_COLUMNS + 1))), "wide.csv")
    assert error.issue.kind == "too_many_columns" and f"{MAX_COLUMNS:,}" in str(error)


def test_json_lines_with_thousands_of_distinct_keys_are_refused():
    lines = [json.dumps({"id": k, f"key{k}": 1}) for k in range(MAX_COLUMNS + 5)]
    error = refused("\n".join(lines).encode(), "keys.jsonl")
    assert error.issue.kind == "too_many_columns"


def test_a_file_of_unknown_size_is_read_only_up_to_the_limit(tmp_path):
    # Before: the size came from stat() (0 for a pipe or /dev/zero) and the read had no bound.
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    payload = csv_bytes("id,a,b", *(f"q{k},1,0" for k in range(200)))

    def write() -> None:  # the reader stops at the limit: the pipe closes under the writer
        with contextlib.suppress(BrokenPipeError), open(fifo, "wb") as handle:
            handle.write(payload)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        with pytest.raises(CaseFileError, match="more than 1,000 bytes") as caught:
            read_case_file(fifo, max_bytes=1000)
    finally:
        writer.join(timeout=10)
    assert caught.value.issue.kind == "too_large"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_is_refused_at_the_limit():
    with pytest.raises(CaseFileError, match="more than 4,096 bytes"):
        read_case_file("/dev/zero", name="zero.csv", max_bytes=4096)


# --- 12: messages name the file, the line, the column and the fix --------------------------------


def test_every_outcome_unreadable_shows_the_values_seen_and_the_spellings_accepted():
    data = csv_bytes("id,old,new", "q1,0.73,1", "q2,0.41,0", "q3,0.9,1")
    cases = load_cases(
        data, id_column="id", a_column="old", b_column="new", file_names=("r.csv", None)
    )
    message = issues_of(cases, "unparseable_outcome")[0].message
    assert message.startswith("r.csv: 3 values (every value) in 'old'")
    assert "line 2" in message and "'0.73', '0.41', '0.9'" in message
    assert "pass/fail" in message and "threshold" in message


def test_columns_not_guessed_name_the_score_columns():
    with pytest.raises(ValueError, match="'f1_a', 'f1_b' hold scores: set a threshold"):
        load_cases(csv_bytes("id,f1_a,f1_b", "q1,0.5,0.7"), file_names=("r.csv", None))


def test_infinite_scores_are_not_outcomes():
    data = csv_bytes("id,a,b", "q1,inf,0.7", "q2,0.9,-inf", "q3,0.2,0.9")
    cases = load_cases(
        data, id_column="id", a_column="a", b_column="b", threshold=0.5, file_names=("r.csv", None)
    )
    assert cases.excluded["unparseable_outcome"] == 2 and cases.counts == (0, 0, 1, 0)


# --- 15: repeated and hidden column names --------------------------------------------------------


def test_repeated_column_names_are_reported_and_neither_is_taken_silently():
    # Before: pandas renamed the second "acc" to "acc.1" without a word, and --a acc took the
    # first one.
    data = csv_bytes("id,acc,acc", "q1,1,0", "q2,0,0")
    with pytest.raises(CaseFileError, match="no column 'acc'.*acc \\(column 2\\)"):
        load_cases(
            data,
            id_column="id",
            a_column="acc",
            b_column="acc (column 3)",
            file_names=("r.csv", None),
        )
    cases = load_cases(
        data,
        id_column="id",
        a_column="acc (column 2)",
        b_column="acc (column 3)",
        file_names=("r.csv", None),
    )
    renamed = issues_of(cases, "renamed_column")[0]
    assert renamed.count == 2 and "a name repeated" in renamed.message
    assert renamed.row_label == "column" and [e.row for e in renamed.examples] == [2, 3]
    assert cases.counts == (0, 1, 0, 1)


def test_text_direction_characters_in_names_are_neutralised():
    # U+202E would show "acc\u202eexe.txt" reversed on screen; the name is shown escaped.
    data = csv_bytes("id,acc\u202etxt.exe,new", "q1,1,0")
    case_file = read_case_file(data, name="r.csv")
    assert "acc\\u202etxt.exe" in case_file.frame.columns
    assert not any("\u202e" in column for column in case_file.frame.columns)
    assert case_file.issues[0].kind == "renamed_column"
    cases = load_cases(
        case_file,
        names=("old\u202e", "new"),
        id_column="id",
        a_column="acc\\u202etxt.exe",
        b_column="new",
    )
    assert cases.names == ("old\\u202e", "new")


def test_no_finding_on_a_clean_file():
    cases = load_cases(
        csv_bytes("id,a,b", "q1,1,0", "q2,0,1"),
        id_column="id",
        a_column="a",
        b_column="b",
        file_names=("r.csv", None),
    )
    assert cases.issues == () and cases.counts == (0, 1, 1, 0)
    assert np.array_equal(cases.a_pass, [True, False])


# --- roles: an outcome column cannot also be the id or the group (found from the command line:
# `cases runs.csv --a old --b new --id old` paired every row by its own outcome, most rows then
# "duplicate ids"; `--group doc_id --id doc_id` on two files raised AttributeError).


@pytest.mark.parametrize("role", ["id_column", "group_column"])
def test_an_outcome_column_cannot_also_be_the_id_or_the_group(role):
    data = b"id,old,new\n1,1,0\n2,1,1\n3,0,1\n"
    with pytest.raises(ValueError, match="both as an outcome column and as the"):
        load_cases(
            data, a_column="old", b_column="new", file_names=("r.csv", None), **{role: "old"}
        )


def test_an_outcome_column_of_two_files_cannot_be_their_id():
    a = b"doc_id,acc\n1,1\n2,0\n"
    b = b"doc_id,acc\n1,0\n2,0\n"
    with pytest.raises(ValueError, match="both as an outcome column and as the id column"):
        load_cases(
            a, b, id_column="acc", a_column="acc", b_column="acc", file_names=("a.csv", "b.csv")
        )


def test_the_group_may_be_the_id_of_two_files_each_case_its_own_cluster():
    a = b"doc_id,acc\n1,1\n2,1\n3,0\n4,1\n"
    b = b"doc_id,acc\n1,0\n2,1\n3,1\n4,0\n"
    cases = load_cases(
        a, b, id_column="doc_id", group_column="doc_id", file_names=("a.jsonl.csv", "b.csv")
    )
    assert list(cases.cases.columns).count("doc_id") == 1
    b_i, c_i = cases.cluster_counts()
    assert (b_i.sum(), c_i.sum()) == (cases.b, cases.c) == (2, 1)
