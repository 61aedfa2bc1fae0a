"""Parquet struct columns are flattened one level, as JSON Lines objects are (issue 21):
a file written here by pyarrow with a nested ``doc`` struct reads as the same records written as
JSON Lines, and pairs on ``doc.id``. The table is counted by hand in each test."""

from __future__ import annotations

import io
import json

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.cases import load_cases, read_case_file

# Five documents; A and B's outcomes per document (counted: both pass d1, d4 -> a = 2; only A d2
# -> b = 1; only B d3 -> c = 1; both fail d5 -> d = 1).
RECORDS_A = [
    {"doc": {"id": "d1", "question": "1+1?", "meta": {"level": 1}}, "acc": 1},
    {"doc": {"id": "d2", "question": "2+2?", "meta": {"level": 2}}, "acc": 1},
    {"doc": {"id": "d3", "question": "3+3?", "meta": {"level": 1}}, "acc": 0},
    {"doc": {"id": "d4", "question": "4+4?", "meta": {"level": 3}}, "acc": 1},
    {"doc": {"id": "d5", "question": "5+5?", "meta": {"level": 2}}, "acc": 0},
]
OUTCOMES_B = {"d1": 1, "d2": 0, "d3": 1, "d4": 1, "d5": 0}


def parquet_bytes(records: list[dict]) -> bytes:
    buffer = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(records), buffer)
    return buffer.getvalue()


def jsonl_bytes(records: list[dict]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def test_struct_columns_are_flattened_one_level_as_json_lines():
    parquet = read_case_file(parquet_bytes(RECORDS_A), name="a.parquet")
    jsonl = read_case_file(jsonl_bytes(RECORDS_A), name="a.jsonl")
    assert list(parquet.frame.columns) == ["doc.id", "doc.question", "doc.meta", "acc"]
    assert list(parquet.frame.columns) == list(jsonl.frame.columns)
    assert parquet.frame["doc.id"].tolist() == ["d1", "d2", "d3", "d4", "d5"]
    # The second level stays a value, as a JSON object two levels deep does.
    assert parquet.frame["doc.meta"].iloc[0] == {"level": 1}
    assert jsonl.frame["doc.meta"].iloc[0] == {"level": 1}


def test_nested_parquet_files_pair_on_a_nested_id():
    records_b = [{**r, "acc": OUTCOMES_B[r["doc"]["id"]]} for r in RECORDS_A[::-1]]
    cases = load_cases(
        parquet_bytes(RECORDS_A),
        parquet_bytes(records_b),
        id_column="doc.id",
        a_column="acc",
        b_column="acc",
        file_names=("a.parquet", "b.parquet"),
    )
    assert cases.counts == (2, 1, 1, 1)


def test_a_field_named_like_a_flattened_one_is_renamed_not_lost():
    records = [{"doc.id": "top", "doc": {"id": "d1"}, "acc": 1}]
    frame = read_case_file(parquet_bytes(records), name="r.parquet").frame
    assert frame.shape[1] == 3
    assert sorted(frame.iloc[0].tolist(), key=str) == [1, "d1", "top"]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1), st.text("abc", min_size=1, max_size=3), st.integers(-5, 5)),
        min_size=1,
        max_size=10,
    )
)
def test_parquet_and_json_lines_read_the_same_nested_records(rows):
    records = [{"acc": acc, "doc": {"tag": tag, "n": n}} for acc, tag, n in rows]
    parquet = read_case_file(parquet_bytes(records), name="r.parquet").frame
    jsonl = read_case_file(jsonl_bytes(records), name="r.jsonl").frame
    assert list(parquet.columns) == list(jsonl.columns) == ["acc", "doc.tag", "doc.n"]
    for column in parquet.columns:
        assert parquet[column].tolist() == jsonl[column].tolist()
