"""The release question on the command line: ``table --alternative/--margin/--equivalence`` and
``cases --fail-if-worse --margin`` (exit 1 unless B is shown non-inferior)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculator import analyze
from calculator.cli import main
from calculator.report.words import payload as json_of


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def cases_file(tmp_path: Path, *, both: int, only_a: int, only_b: int) -> str:
    rows = [f"q{i},1,1" for i in range(both)]
    rows += [f"a{i},1,0" for i in range(only_a)]
    rows += [f"b{i},0,1" for i in range(only_b)]
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(["id,old,new", *rows]) + "\n")
    return str(path)


# ---------------------------------------------------------------------------------------------
# table
# ---------------------------------------------------------------------------------------------
def test_table_margin_prints_the_noninferiority_answer(capsys):
    status, out, err = run(capsys, "table", "60", "5", "15", "20", "--margin", "0.05")
    assert status == 0 and err == ""
    assert "B is not worse than A by more than 5 points" in out
    assert "decision p          7.5e-04 (Tango score test; B non-inferior: yes)" in out
    assert "P(B better)         98.9%" in out


def test_table_json_carries_the_decision_of_analyze(capsys):
    argv = ["table", "43", "0", "1", "0", "--margin", "0.1", "--equivalence", "--json"]
    status, out, _ = run(capsys, *argv)
    data = json.loads(out, parse_constant=lambda c: pytest.fail(c))
    expected = json_of(analyze(43, 0, 1, 0, margin=0.1, question="equivalent"))
    assert status == 0 and data["decision"] == expected["decision"]
    assert data["decision"]["question"] == "equivalent" and data["decision"]["reject"] is True


def test_table_alternative_greater_is_the_one_sided_exact_test(capsys):
    status, out, _ = run(capsys, "table", "70", "4", "12", "14", "--alternative", "greater")
    assert status == 0
    assert "B is better than A" in out
    assert "one-sided exact McNemar test; B better: yes" in out
    # The two-sided figures stay as they were.
    assert "exact McNemar p     0.077" in out


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("-0.01", "--margin must be a number strictly between 0 and 1, but got '-0.01'"),
        ("0", "--margin must be a number strictly between 0 and 1, but got '0'"),
        ("1", "--margin must be a number strictly between 0 and 1, but got '1'"),
        ("1.5", "--margin must be a number strictly between 0 and 1"),
        ("nan", "--margin must be a finite number, but got 'nan'"),
        ("one point", "--margin must be a finite number, but got 'one point'"),
    ],
)
def test_bad_margins_exit_2_with_one_line(capsys, value, message):
    status, out, err = run(capsys, "table", "60", "5", "15", "20", "--margin", value)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--equivalence"], "--equivalence needs --margin"),
        (["--margin", "0.01", "--alternative", "less"], "does not go with --alternative less"),
        (["--alternative", "bigger"], "invalid choice"),
        (["--margin", "0.01", "--alpha", "0.6"], "strictly between 0 and 0.5"),
    ],
)
def test_questions_that_cannot_be_asked_exit_2(capsys, extra, message):
    status, out, err = run(capsys, "table", "60", "5", "15", "20", *extra)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


# ---------------------------------------------------------------------------------------------
# cases --fail-if-worse --margin
# ---------------------------------------------------------------------------------------------
def test_gate_passes_when_b_is_shown_non_inferior(tmp_path, capsys):
    path = cases_file(tmp_path, both=900, only_a=10, only_b=30)
    status, out, _ = run(capsys, "cases", path, "--fail-if-worse", "--margin", "0.01")
    assert status == 0
    assert "gate      pass: new is shown non-inferior to old at a margin of 1 point" in out


def test_gate_fails_when_non_inferiority_is_not_shown_even_without_a_significant_drop(
    tmp_path, capsys
):
    # 50 cases where both pass and one where only old passes: the two-sided exact test finds
    # nothing (p = 1), yet these cases cannot show that new is within a point of old.
    path = cases_file(tmp_path, both=50, only_a=1, only_b=0)
    status, out, _ = run(capsys, "cases", path, "--fail-if-worse")
    assert status == 0
    status, out, _ = run(capsys, "cases", path, "--fail-if-worse", "--margin", "0.01")
    assert status == 1
    assert "gate      FAIL: new is not shown non-inferior to old at a margin of 1 point" in out
    assert "This does not show that new is worse" in out


def test_gate_json_output_keeps_the_exit_status(tmp_path, capsys):
    path = cases_file(tmp_path, both=50, only_a=1, only_b=0)
    status, out, _ = run(capsys, "cases", path, "--fail-if-worse", "--margin", "0.01", "--json")
    data = json.loads(out)
    assert status == 1 and data["decision"]["question"] == "non-inferior"
    assert data["decision"]["reject"] is False


@pytest.mark.parametrize("extra", [["--equivalence"], ["--alternative", "greater"]])
def test_gate_refuses_questions_that_are_not_about_b_being_worse(tmp_path, capsys, extra):
    path = cases_file(tmp_path, both=50, only_a=1, only_b=0)
    status, out, err = run(capsys, "cases", path, "--fail-if-worse", "--margin", "0.01", *extra)
    assert status == 2 and out == "" and err.count("\n") == 1


def test_gate_bad_margin_exits_2(tmp_path, capsys):
    path = cases_file(tmp_path, both=50, only_a=1, only_b=0)
    status, out, err = run(capsys, "cases", path, "--fail-if-worse", "--margin", "-0.01")
    assert status == 2 and out == "" and "--margin must be" in err
