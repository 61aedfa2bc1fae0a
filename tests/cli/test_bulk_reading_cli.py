"""Mode detection follows the bulk of the outcome columns (issue #31's done-when).

The four reproductions of the verifier: pass/fail words with a few numbers were refused as
"no usable cases" (one "0.5" made the column scores), 95% words with 5% numbers were analysed as
scores on the 5%, and a 60/40 mix was analysed anyway. Now the reading keeping the most rows is
taken when it keeps 95% of them, its minority excluded with their lines; else the run stops,
naming both readings' counts. The same rule serves ``cases`` (one file, two files), ``compare``
(wide and long) and long files read as logs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculator.cli import main

WORDS = ("pass", "fail", "fail", "pass", "pass", "fail", "pass")
GRADES = ("correct", "incorrect", "correct", "correct", "incorrect")


def write(tmp_path: Path, name: str, header: str, rows: list[str]) -> str:
    path = tmp_path / name
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def words_with_numbers(rows: int, numbers: dict[int, str], words=WORDS) -> list[str]:
    """id,a,b rows of pass/fail words in both columns; row i's A value is numbers[i] if given."""
    return [
        f"q{i},{numbers.get(i, words[i % len(words)])},{words[(i * 3 + 1) % len(words)]}"
        for i in range(rows)
    ]


def test_199_words_and_one_half_are_compared_as_pass_fail_with_the_half_excluded(tmp_path, capsys):
    path = write(tmp_path, "r.csv", "id,a,b", words_with_numbers(200, {57: "0.5"}))
    status, out, err = run(capsys, "cases", path, "--a", "a", "--b", "b")
    assert status == 0 and err == ""
    assert "rows      200 read, 199 used, 1 excluded; 199 cases analysed" in out
    assert "1 value in 'a' not read as a pass/fail outcome (on line 59); seen: '0.5'" in out
    status, out, _ = run(capsys, "cases", path, "--a", "a", "--b", "b", "--json")
    document = json.loads(out)
    assert (
        status == 0
        and document["analysed_as"] == "pass/fail outcomes (McNemar)"
        or (document["analysed_as"] != "scores")
    )
    summary = document["input"]
    assert summary["rows_used"] == 199 and summary["excluded"]["unparseable_outcome"] == 1
    (issue,) = [i for i in summary["issues"] if i["kind"] == "unparseable_outcome"]
    assert issue["first_rows"] == [{"row": 58, "case_id": "q57", "value": "0.5"}]
    assert "not read as a pass/fail outcome (on line 59)" in issue["message"]


def test_97_words_and_three_numbers_are_compared_as_pass_fail(tmp_path, capsys):
    path = write(
        tmp_path, "r.csv", "id,a,b", words_with_numbers(100, {10: "0.83", 40: "0.83", 70: "0.83"})
    )
    status, out, err = run(capsys, "cases", path, "--a", "a", "--b", "b", "--json")
    assert status == 0 and err == ""
    summary = json.loads(out)["input"]
    assert summary["rows_read"] == 100 and summary["rows_used"] == 97
    (issue,) = [i for i in summary["issues"] if i["kind"] == "unparseable_outcome"]
    assert [row["row"] for row in issue["first_rows"]] == [11, 41, 71]
    assert "(the first on line 12)" in issue["message"]


def test_95_percent_grades_and_5_percent_numbers_are_pass_fail_not_scores(tmp_path, capsys):
    numbers = {i: f"0.{i % 9 + 1}" for i in range(0, 200, 20)}  # 10 of 200 rows
    path = write(tmp_path, "r.csv", "id,a,b", words_with_numbers(200, numbers, GRADES))
    status, out, err = run(capsys, "cases", path, "--a", "a", "--b", "b")
    assert status == 0 and err == ""
    assert "rows      200 read, 190 used, 10 excluded; 190 cases analysed" in out
    assert "analysed  as scores" not in out
    assert "10 values in 'a' not read as a pass/fail outcome (the first on line 2)" in out


def mixed(rows: int, numbers_every: int) -> list[str]:
    """Rows whose A and B values are numbers on every `numbers_every`-th row, else words."""
    return [
        f"q{i},0.{i % 9 + 1},0.{(i + 4) % 9 + 1}"
        if i % numbers_every == 0
        else f"q{i},{WORDS[i % 7]},{WORDS[(i + 2) % 7]}"
        for i in range(rows)
    ]


def test_a_60_40_mix_stops_naming_both_readings_and_what_to_do(tmp_path, capsys):
    rows = [
        f"q{i},0.{i % 9 + 1},0.{(i + 4) % 9 + 1}" if i % 5 >= 3 else f"q{i},pass,fail"
        for i in range(200)
    ]
    path = write(tmp_path, "r.csv", "id,a,b", rows)
    for extra in ((), ("--json",)):
        status, out, err = run(capsys, "cases", path, "--a", "a", "--b", "b", *extra)
        assert status == 2 and out == ""
        assert err.strip() == (
            "error: r.csv ('a', 'b'): no one reading keeps 95% of the rows: 120 of 200 rows "
            "read as pass/fail, 80 as numbers (scores); the first row not read as pass/fail: "
            "line 5, 'a' = '0.4'; clean the column(s) to one kind, or set a threshold "
            "(--threshold X on the command line) to read the numbers as scores that pass at X "
            "or above"
        )


@pytest.mark.parametrize(
    ("numbers", "status"),
    [
        pytest.param(10, 0, id="190 of 200 rows (95%): pass/fail, 10 excluded"),
        pytest.param(11, 2, id="189 of 200 rows (94.5%): stopped"),
    ],
)
def test_the_95_percent_boundary(tmp_path, capsys, numbers, status):
    rows = words_with_numbers(200, {i: "0.5" for i in range(numbers)})
    path = write(tmp_path, "r.csv", "id,a,b", rows)
    got, out, err = run(capsys, "cases", path, "--a", "a", "--b", "b")
    assert got == status
    if status == 0:
        assert f"{200 - numbers} used, {numbers} excluded" in out
    else:
        assert f"{200 - numbers} of 200 rows read as pass/fail, 0 as numbers" in err


@pytest.mark.parametrize(
    ("words", "status"),
    [
        pytest.param(5, 0, id="95 of 100 numbers: scores, 5 excluded"),
        pytest.param(6, 2, id="94 of 100 numbers: stopped"),
    ],
)
def test_the_95_percent_boundary_for_scores(tmp_path, capsys, words, status):
    rows = [f"q{i},{'error' if i < words else f'0.{i % 9 + 1}'},0.{i % 7 + 1}" for i in range(100)]
    path = write(tmp_path, "r.csv", "id,a,b", rows)
    got, out, err = run(capsys, "cases", path, "--a", "a", "--b", "b")
    assert got == status
    if status == 0:
        assert "analysed  as scores" in out
        assert f"{100 - words} used, {words} excluded" in out
        assert f"{words} values in 'a' not a number (the first on line 2)" in out
    else:
        assert "0 of 100 rows read as pass/fail, 94 as numbers (scores)" in err


def test_two_files_are_read_together(tmp_path, capsys):
    a_rows = [f"q{i},{'0.5' if i == 3 else WORDS[i % 7]}" for i in range(30)]
    b_rows = [f"q{i},{WORDS[(i + 1) % 7]}" for i in range(30)]
    first = write(tmp_path, "a.csv", "id,ok", a_rows)
    second = write(tmp_path, "b.csv", "id,ok", b_rows)
    status, out, err = run(capsys, "cases", first, second, "--a", "ok", "--b", "ok")
    assert status == 0 and err == ""
    assert "a.csv: 1 value in 'ok' not read as a pass/fail outcome (on line 5)" in out
    mixed_b = [f"q{i},{'0.5' if i % 2 else 'pass'}" for i in range(30)]
    third = write(tmp_path, "c.csv", "id,ok", mixed_b)
    status, out, err = run(capsys, "cases", first, third, "--a", "ok", "--b", "ok")
    assert status == 2
    assert "a.csv ('ok') + c.csv ('ok'): no one reading keeps 95% of the rows" in err
    assert "44 of 60 rows read as pass/fail, 16 as numbers" in err


def test_compare_wide_follows_the_bulk(tmp_path, capsys):
    rows = [f"q{i},{WORDS[i % 7]},{WORDS[(i + 1) % 7]},{WORDS[(i + 3) % 7]}" for i in range(40)]
    rows[6] = "q6,pass,0.5,fail"
    path = write(tmp_path, "w.csv", "id,a,b,c", rows)
    status, out, err = run(capsys, "compare", path, "--systems", "a,b,c", "--json")
    assert status == 0 and err == ""
    summary = json.loads(out)["input"]
    (issue,) = [i for i in summary["issues"] if i["kind"] == "unparseable_outcome"]
    assert "1 value in 'b' not read as a pass/fail outcome (on line 8)" in issue["message"]
    # Columns whose bulk is scores go to Friedman's test by ranks (compare's scores path).
    scores = [f"q{i},0.{i % 9 + 1},0.{i % 7 + 1},0.{i % 5 + 1}" for i in range(40)]
    path = write(tmp_path, "s.csv", "id,a,b,c", scores)
    status, out, err = run(capsys, "compare", path, "--systems", "a,b,c")
    assert status == 0, err
    assert "Friedman's test of the systems' ranks within each case" in out


def test_compare_long_stops_on_a_mix(tmp_path, capsys):
    rows = [
        f"q{i},{system},{'0.5' if i % 3 == 0 else 'pass'}" for i in range(30) for system in "xyz"
    ]
    path = write(tmp_path, "l.csv", "id,system,ok", rows)
    status, out, err = run(capsys, "compare", path, "--system", "system", "--outcome", "ok")
    assert status == 2 and out == ""
    assert "l.csv ('ok'): no one reading keeps 95% of the rows: 60 of 90 rows" in err
