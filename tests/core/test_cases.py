"""Per-case input: every malformed-file case, joins, exclusions (how each outcome cell reads
is in test_case_outcomes.py).

Expected counts are worked out by hand from the small inputs written in each test; the
harness-style fixture in tests/data is counted in `test_harness_logs_join_on_doc_id`.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.cases import (
    EXCLUSION_REASONS,
    CaseFileError,
    guess_columns,
    load_cases,
    read_case_file,
)

DATA = Path(__file__).resolve().parents[1] / "data"
HARNESS_A = DATA / "samples_gsm8k_model_a.jsonl"
HARNESS_B = DATA / "samples_gsm8k_model_b.jsonl"


def csv_bytes(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def issue(cases, kind):
    found = [item for item in cases.issues if item.kind == kind]
    assert found, f"no {kind} issue in {[item.kind for item in cases.issues]}"
    return found[0]


def fatal(data: bytes, name: str = "runs.csv", **options) -> CaseFileError:
    with pytest.raises(CaseFileError) as caught:
        read_case_file(data, name=name, **options)
    return caught.value


# --- reading files ------------------------------------------------------------------------------


def test_formats_from_extension_and_content(tmp_path):
    frame = pd.DataFrame({"id": ["q1", "q2"], "a": [1, 0], "b": ["pass", "fail"]})
    frame.to_csv(tmp_path / "r.csv", index=False)
    frame.to_csv(tmp_path / "r.tsv", index=False, sep="\t")
    frame.to_json(tmp_path / "r.jsonl", orient="records", lines=True)
    frame.to_parquet(tmp_path / "r.parquet")
    for name in ("r.csv", "r.tsv", "r.jsonl", "r.parquet"):
        path = tmp_path / name
        read = read_case_file(path)
        assert read.frame.shape == (2, 3), name
        # The same bytes without an extension are recognised by their content.
        assert read_case_file(path.read_bytes(), name="upload").format == read.format


def test_json_array_is_accepted():
    read = read_case_file(b'[{"id": 1, "a": 1}, {"id": 2, "a": 0}]', name="r.json")
    assert read.frame["a"].tolist() == [1, 0]


def test_nested_json_is_flattened_one_level():
    read = read_case_file(
        b'{"doc_id": 1, "doc": {"question": "q", "meta": {"k": 1}}}\n', name="s.jsonl"
    )
    assert {"doc.question", "doc.meta"} <= set(read.frame.columns)


def test_empty_file():
    error = fatal(b"")
    assert error.issue.kind == "empty_file" and error.issue.fatal and error.issue.count == 0
    assert fatal(b"  \n\n", name="r.jsonl").issue.kind == "empty_file"


@pytest.mark.parametrize(("data", "name"), [(b"id,a,b\n", "r.csv"), (b"id\ta\tb\n", "r.tsv")])
def test_header_only_file(data, name):
    error = fatal(data, name)
    assert error.issue.kind == "header_only"
    assert "id, a, b" in str(error)


def test_header_only_parquet(tmp_path):
    pd.DataFrame({"id": pd.Series([], dtype=str), "a": pd.Series([], dtype=int)}).to_parquet(
        tmp_path / "e.parquet"
    )
    with pytest.raises(CaseFileError, match="no rows of data"):
        read_case_file(tmp_path / "e.parquet")


@pytest.mark.parametrize(
    ("data", "name", "found", "expected"),
    [
        (csv_bytes("id;a;b", "1;1;0", "2;0;0"), "r.csv", "semicolon", "comma"),
        (csv_bytes("id\ta\tb", "1\t1\t0"), "r.csv", "tab", "comma"),
        (csv_bytes("id|a|b", "1|1|0"), "r.csv", "vertical bar", "comma"),
        (csv_bytes("id,a,b", "1,1,0"), "r.tsv", "comma", "tab"),
    ],
)
def test_wrong_delimiter(data, name, found, expected):
    error = fatal(data, name)
    assert error.issue.kind == "wrong_delimiter"
    assert f"separated by a {found}" in str(error) and f"uses a {expected}" in str(error)
    assert error.issue.count == len(data.decode().splitlines())
    assert error.issue.examples[0].row == 1


def test_binary_garbage_with_nul_bytes():
    data = b"id,a,b\n1,1,0\n\x00\x17\x99\xfe\x00garbage\n"
    error = fatal(data)
    assert error.issue.kind == "binary_file"
    assert error.issue.count == 2  # NUL bytes
    assert error.issue.examples[0].row == 3


def test_random_bytes_are_refused():
    garbage = np.random.default_rng(1).integers(0, 256, 4096, dtype=np.uint8).tobytes()
    assert fatal(garbage, "upload").issue.kind in ("binary_file", "unreadable_file")


def test_not_utf8_names_the_line():
    error = fatal(b"id,a\nq1,1\nq\xe92,0\n")
    assert error.issue.kind == "binary_file"
    assert "line 3" in str(error) and "UTF-8" in str(error)


def test_excel_workbook_saved_as_csv():
    error = fatal(b"PK\x03\x04\x14\x00\x06\x00rest-of-zip")
    assert "Excel" in str(error)


def test_damaged_parquet():
    error = fatal(b"PAR1 this is not really parquet", "r.parquet")
    assert error.issue.kind == "unreadable_file"


def test_file_over_the_size_limit(tmp_path):
    path = tmp_path / "big.csv"
    path.write_bytes(csv_bytes("id,a,b", *(f"q{i},1,0" for i in range(100))))
    with pytest.raises(CaseFileError) as caught:
        read_case_file(path, max_bytes=100)
    assert caught.value.issue.kind == "too_large"
    assert caught.value.issue.count == path.stat().st_size
    assert "over the limit of 100 bytes" in str(caught.value)
    assert fatal(b"x" * 101, max_bytes=100).issue.kind == "too_large"


def test_lines_with_too_many_fields_are_excluded_and_counted():
    data = csv_bytes("id,a,b", "q1,1,0", "q2,1,0,oops", "q3,0,1", "q4,1,1,x,y")
    cases = load_cases(data, id_column="id", a_column="a", b_column="b", file_names=("r.csv", None))
    found = issue(cases, "malformed_line")
    assert found.count == 2
    assert [example.row for example in found.examples] == [3, 5]  # file lines
    assert cases.excluded["malformed_line"] == 2
    assert cases.counts == (0, 1, 1, 0)
    assert cases.rows_read == 4


def test_lines_that_are_not_json_are_excluded_and_counted():
    data = b'{"id": 1, "a": 1, "b": 0}\n{"id": 2, "a": \n[1, 2]\n{"id": 3, "a": 0, "b": 0}\n'
    cases = load_cases(
        data, id_column="id", a_column="a", b_column="b", file_names=("s.jsonl", None)
    )
    found = issue(cases, "malformed_line")
    assert found.count == 2 and [example.row for example in found.examples] == [2, 3]
    assert cases.counts == (0, 1, 0, 1)


def test_nothing_json_at_all():
    assert fatal(b"hello\nworld\n", "s.jsonl").issue.kind == "unreadable_file"


def test_path_errors_propagate_as_oserror(tmp_path):
    with pytest.raises(OSError):
        read_case_file(tmp_path / "missing.csv")


def test_wrong_source_type():
    with pytest.raises(TypeError, match="path or bytes"):
        read_case_file(123)


# --- one file: exclusions -----------------------------------------------------------------------


def one_file(*lines: str, **options):
    options.setdefault("file_names", ("runs.csv", None))
    return load_cases(csv_bytes(*lines), **options)


def test_every_row_problem_is_counted_and_shown():
    cases = one_file(
        "id,old,new,doc",
        "q1,pass,fail,d1",  # b
        "q2,1,1,d1",  # a
        ",1,0,d2",  # missing id
        "q4,maybe,1,d2",  # unparseable
        "q5,,1,d3",  # missing outcome
        "q6,yes,no,d3",  # duplicate id ...
        "q6,no,no,d3",  # ... both copies
        "q8,0,1,",  # missing group
        "q9,0,0,d4",  # d
        id_column="id",
        a_column="old",
        b_column="new",
        group_column="doc",
    )
    assert cases.counts == (1, 1, 0, 1)
    assert cases.excluded == {
        "malformed_line": 0,
        "missing_value": 3,
        "unparseable_outcome": 1,
        "duplicate_id": 2,
        "id_in_one_file_only": 0,
        "partner_excluded": 0,
    }
    assert cases.rows_read == 9 and cases.rows_used == 3
    assert cases.rows_read == cases.rows_used + sum(cases.excluded.values())
    unparseable = issue(cases, "unparseable_outcome")
    assert unparseable.column == "old" and unparseable.count == 1
    assert unparseable.examples[0] == (4, "q4", "maybe")
    duplicate = issue(cases, "duplicate_id")
    assert duplicate.count == 2 and [e.row for e in duplicate.examples] == [6, 7]
    missing_ids = [i for i in cases.issues if i.kind == "missing_value" and i.column == "id"]
    assert missing_ids[0].examples[0].row == 3


def test_first_offending_rows_are_limited_to_five_but_counted_in_full():
    cases = one_file(
        "id,a,b", *(f"q{i},bad,1" for i in range(12)), id_column="id", a_column="a", b_column="b"
    )
    found = issue(cases, "unparseable_outcome")
    assert found.count == 12 and len(found.examples) == 5


def test_a_row_with_two_problems_is_excluded_once():
    cases = one_file("id,a,b", "q1,,maybe", "q2,1,0", id_column="id", a_column="a", b_column="b")
    assert cases.excluded["missing_value"] == 1 and cases.excluded["unparseable_outcome"] == 0
    assert issue(cases, "unparseable_outcome").count == 1  # still listed as a finding


def test_without_id_rows_are_numbered():
    cases = one_file("old,new", "1,0", "0,1", "1,0", a_column="old", b_column="new")
    assert cases.cases.columns[0] == "row"
    assert cases.only_a()["row"].tolist() == [1, 3]


def test_numeric_ids_compare_as_numbers():
    cases = one_file("id,a,b", "7,1,0", "7.0,1,1", id_column="id", a_column="a", b_column="b")
    assert cases.excluded["duplicate_id"] == 2


def test_columns_are_guessed_when_obvious():
    cases = one_file("case_id,baseline,candidate,notes", "q1,pass,fail,x", "q2,1,1,y")
    assert cases.outcome_columns == ("baseline", "candidate")
    assert cases.names == ("baseline", "candidate")


def test_columns_not_guessed_when_unclear():
    with pytest.raises(ValueError, match="--a and --b"):
        one_file("id,x,y", "q1,maybe,1")


def test_missing_column_is_named_with_the_available_ones():
    with pytest.raises(CaseFileError, match="no column 'zzz'.*id, a, b") as caught:
        one_file("id,a,b", "q1,1,0", id_column="id", a_column="zzz", b_column="b")
    assert caught.value.issue.kind == "missing_column"


def test_same_column_for_a_and_b():
    with pytest.raises(ValueError, match="different columns"):
        one_file("id,a", "q1,1", a_column="a", b_column="a")


def test_threshold_turns_scores_into_outcomes():
    cases = one_file(
        "id,f1_a,f1_b",
        "q1,0.9,0.2",
        "q2,0.5,0.49",
        "q3,0.1,0.7",
        id_column="id",
        a_column="f1_a",
        b_column="f1_b",
        threshold=0.5,
    )
    assert cases.counts == (0, 2, 1, 0) and cases.threshold == 0.5


def test_all_rows_excluded_gives_an_empty_table():
    cases = one_file("id,a,b", "q1,x,y", id_column="id", a_column="a", b_column="b")
    assert cases.n == 0 and cases.excluded["unparseable_outcome"] == 1


def test_discordant_lists_keep_the_other_columns():
    cases = one_file(
        "id,old,new,question,category",
        "q1,1,0,What is 2+2?,math",
        "q2,0,1,Capital of France?,geo",
        "q3,1,1,x,y",
        id_column="id",
        a_column="old",
        b_column="new",
    )
    assert cases.only_a().to_dict("records") == [
        {"id": "q1", "old": 1, "new": 0, "question": "What is 2+2?", "category": "math"}
    ]
    assert cases.only_b()["id"].tolist() == ["q2"]


@given(
    st.lists(
        st.tuples(
            st.integers(0, 30),
            st.sampled_from(["1", "0", "x", ""]),
            st.sampled_from(["1", "0", "yes"]),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_rows_add_up_and_counts_match_the_kept_rows(rows):
    lines = ["id,a,b", *(f"q{i},{a},{b}" for i, a, b in rows)]
    cases = one_file(*lines, id_column="id", a_column="a", b_column="b")
    assert cases.rows_read == len(rows) == cases.rows_used + sum(cases.excluded.values())
    assert cases.n == cases.rows_used == len(cases.cases)
    assert cases.b == len(cases.only_a()) and cases.c == len(cases.only_b())
    assert set(cases.excluded) == set(EXCLUSION_REASONS)


# --- two files ----------------------------------------------------------------------------------


def test_harness_logs_join_on_doc_id():
    # A has doc_id 0-7, B has 2-9. On the shared 2-7 (exact_match A / B):
    # 2: 1/1 both, 3: 1/0 only A, 4: 0/1 only B, 5: 1/1 both, 6: 0/0 both fail, 7: 1/0 only A.
    cases = load_cases(HARNESS_A, HARNESS_B)
    assert cases.id_column == "doc_id" and cases.outcome_columns == ("exact_match", "exact_match")
    assert cases.counts == (2, 2, 1, 1)
    assert cases.excluded["id_in_one_file_only"] == 4  # 0, 1 in A; 8, 9 in B
    only_in = [item for item in cases.issues if item.kind == "id_in_one_file_only"]
    assert [(item.file, [e.case_id for e in item.examples]) for item in only_in] == [
        ("samples_gsm8k_model_a.jsonl", ["0", "1"]),
        ("samples_gsm8k_model_b.jsonl", ["8", "9"]),
    ]
    assert cases.only_a()["doc_id"].tolist() == ["3", "7"]
    assert cases.only_b()["doc_id"].tolist() == ["4"]
    # The documents' text sits beside the ids; clashing columns carry the system's name.
    assert "doc.question" in cases.cases.columns and "filtered_resps (B)" in cases.cases.columns
    assert cases.rows_read == 16 and cases.rows_used == 12


def test_two_files_partial_overlap_duplicates_and_partner_exclusion():
    first = csv_bytes("id,acc", "1,1", "2,1", "3,", "4,0", "5,1", "5,0", "6,1")
    second = csv_bytes("id,acc", "1,0", "2,1", "3,1", "4,maybe", "5,1", "7,1")
    cases = load_cases(
        first,
        second,
        a_column="acc",
        b_column="acc",
        file_names=("a.csv", "b.csv"),
        names=("old", "new"),
    )
    # Paired and usable: 1 (1/0 only A), 2 (1/1 both). 3: A missing -> B's row partner_excluded.
    # 4: B unparseable -> A's partner_excluded. 5: duplicated in A (2 rows) -> B's partner_excluded.
    # 6 only in A, 7 only in B.
    assert cases.counts == (1, 1, 0, 0)
    assert cases.excluded == {
        "malformed_line": 0,
        "missing_value": 1,
        "unparseable_outcome": 1,
        "duplicate_id": 2,
        "id_in_one_file_only": 2,
        "partner_excluded": 3,
    }
    assert cases.rows_read == 13 and cases.rows_used == 4
    assert list(cases.cases.columns[:3]) == ["id", "acc (old)", "acc (new)"]


def test_two_files_need_an_id():
    with pytest.raises(ValueError, match="--id"):
        load_cases(
            csv_bytes("x,acc", "1,1"), csv_bytes("y,acc", "1,0"), file_names=("a.csv", "b.csv")
        )


def test_two_files_group_column_from_either_file():
    first = csv_bytes("id,acc", "1,1", "2,1", "3,0")
    second = csv_bytes("id,acc,doc", "1,0,d1", "2,0,d1", "3,1,d2")
    cases = load_cases(first, second, file_names=("a.csv", "b.csv"), group_column="doc")
    b_i, c_i = cases.cluster_counts()
    assert b_i.tolist() == [2, 0] and c_i.tolist() == [0, 1]


def test_cluster_counts_need_a_group():
    with pytest.raises(ValueError, match="group"):
        one_file("id,a,b", "1,1,0", a_column="a", b_column="b").cluster_counts()


def test_input_summary_is_strict_json():
    cases = load_cases(HARNESS_A, HARNESS_B)
    summary = json.loads(json.dumps(cases.input_summary(), allow_nan=False))
    assert summary["rows_read"] == 16 and summary["cases_used"] == 6
    assert summary["issues"][0]["first_rows"][0] == {"row": 1, "case_id": "0", "value": "0"}


def test_guess_columns_on_harness_logs():
    guess = guess_columns(read_case_file(HARNESS_A).frame)
    assert guess.id_column == "doc_id" and guess.outcome_columns[0] == "exact_match"
