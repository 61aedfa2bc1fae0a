"""Per-case files with categorical outcomes: ``square --file`` and ``cases --categories`` read
them through the per-case reader of ``cases`` (calculator.cases.labels.read_labels), with its
formats, its ledger of rows read, used and left out, and its refusals.

The counts are checked by hand from the files written here.
"""

from __future__ import annotations

import json

import pytest

from calculator.cli import main

GRADES = (
    "id,a,b\n"
    "1,low,low\n"
    "2,mid,low\n"
    "2,mid,mid\n"  # id 2 repeated: both copies left out
    "3,high,\n"  # no label from B
    "4,low,high\n"
    "5,mid,mid\n"
    "6,low,mid\n"
)


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(list(arguments))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def grades(tmp_path):
    path = tmp_path / "grades.csv"
    path.write_text(GRADES)
    return path


def test_cases_with_categories_prints_the_ledger_and_the_table(capsys, grades):
    status, out, err = run(
        capsys, "cases", str(grades), "--id", "id", "--a", "a", "--b", "b", "--categories"
    )
    assert status == 0 and err == ""
    assert "rows      7 read, 4 used, 3 excluded" in out
    assert "excluded, missing value: 1" in out and "excluded, duplicate id: 2" in out
    assert "grades.csv: 1 id repeated over 2 rows (the first on line 3)" in out
    assert "grades.csv: 1 row without a label in 'b' (on line 5)" in out
    assert "A and B put the same 4 cases into 3 categories (high, low, mid)" in out
    assert "A never put a case in high, which B put 1 case in" in out


def test_cases_and_square_give_the_same_json(capsys, grades):
    common = ("--id", "id", "--a", "a", "--b", "b", "--json")
    status, out, _ = run(capsys, "cases", str(grades), *common, "--categories", "low,mid,high")
    assert status == 0
    from_cases = json.loads(out)
    status, out, _ = run(
        capsys, "square", "--file", str(grades), *common, "--categories", "low,mid,high"
    )
    assert status == 0 and json.loads(out) == from_cases
    assert from_cases["table"]["counts"] == [[1, 1, 1], [0, 1, 0], [0, 0, 0]]
    summary = from_cases["input"]
    assert (summary["rows_read"], summary["rows_used"]) == (7, 4)
    assert summary["excluded"]["duplicate_id"] == 2
    assert [issue["kind"] for issue in summary["issues"]] == ["duplicate_id", "missing_value"]


def test_a_label_not_listed_leaves_its_row_out_and_is_shown(capsys, grades):
    status, out, _ = run(
        capsys, "cases", str(grades), "--a", "a", "--b", "b", "--categories", "low,mid"
    )
    assert status == 0
    assert "1 label in 'a' not among the categories listed (on line 5)" in out
    assert "seen: 'high'; allowed: low, mid." in out


def test_tsv_and_json_lines_are_read_as_by_cases(capsys, tmp_path):
    tsv = tmp_path / "g.tsv"
    tsv.write_text(GRADES.replace(",", "\t"))
    jsonl = tmp_path / "g.jsonl"
    rows = [line.split(",") for line in GRADES.splitlines()[1:]]
    jsonl.write_text(
        "".join(json.dumps({"id": i, "a": a, "b": b or None}) + "\n" for i, a, b in rows)
    )
    tables = []
    for path in (tsv, jsonl):
        status, out, _ = run(
            capsys, "square", "--file", str(path), "--id", "id", "--a", "a", "--b", "b", "--json"
        )
        assert status == 0
        tables.append(json.loads(out)["table"])
    assert tables[0] == tables[1]
    assert tables[0]["labels"] == ["high", "low", "mid"]


def test_a_malformed_line_is_counted_with_its_line(capsys, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,b\nx,y\nx,y,z,w\ny,y\n")
    status, out, _ = run(capsys, "square", "--file", str(path), "--a", "a", "--b", "b")
    assert status == 0
    assert "rows      3 read, 2 used, 1 excluded" in out
    assert "excluded, malformed line: 1" in out and "line 3" in out


REFUSALS = [
    (["--categories", "--a", "a"], "categorical outcomes need --a and --b"),
    (["--categories", "--a", "a", "--b", "b", "--threshold", "1"], "--threshold does not apply"),
    (["--categories", "--a", "a", "--b", "b", "--margin", "0.02"], "--margin does not apply"),
    (["--categories", "--a", "a", "--b", "a"], "must be different columns"),
    (["--categories", "--a", "a", "--b", "nope"], "no column 'nope' for B's labels"),
    (["--categories", "low,low,mid,high", "--a", "a", "--b", "b"], "distinct, non-blank names"),
]


@pytest.mark.parametrize(("arguments", "words"), REFUSALS)
def test_cases_categories_refusals_are_one_line_exit_two(capsys, grades, arguments, words):
    status, out, err = run(capsys, "cases", str(grades), *arguments)
    assert status == 2 and out == ""
    assert words in err and err.count("\n") == 1


def test_no_usable_case_is_refused_with_the_count(capsys, tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("a,b\nx,\n,y\n")
    status, _, err = run(capsys, "cases", str(path), "--a", "a", "--b", "b", "--categories")
    assert status == 2
    assert "empty.csv: no usable cases: 2 rows read, 2 missing value" in err


def test_cases_without_categories_is_unchanged(capsys, tmp_path):
    path = tmp_path / "pf.csv"
    path.write_text("id,a,b\n1,1,0\n2,1,1\n3,0,0\n")
    status, out, _ = run(capsys, "cases", str(path), "--json")
    assert status == 0 and "bowker" not in json.loads(out)
