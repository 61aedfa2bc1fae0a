"""`python -m calculator plan --margin`: non-inferiority plans on the command line.

Reference values come from calculator.planning.noninferiority_plan, itself checked against a
brute-force enumeration of Tango's score test in tests/core/test_planning_noninferiority.py
(p10 = p01 = 0.1, margin 0.05: Nam's n = 507, exact n = 501).
"""

from __future__ import annotations

import json

import pytest

from calculator.cli import main
from calculator.planning import noninferiority_plan
from calculator.report.words import text


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["plan", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_json_matches_the_core(capsys) -> None:
    status, out, err = run(capsys, "--p10", "0.1", "--p01", "0.1", "--margin", "0.05", "--json")
    assert (status, err) == (0, "")
    assert json.loads(out) == noninferiority_plan(p10=0.1, p01=0.1, margin=0.05).to_dict()
    assert json.loads(out)["n"] == 501


def test_text_gives_the_sentence_and_the_power_of_a_given_n(capsys) -> None:
    status, out, _ = run(capsys, "--p10", "0.1", "--p01", "0.1", "--margin", "0.05", "--n", "200")
    expected = noninferiority_plan(p10=0.1, p01=0.1, margin=0.05, n=200)
    assert status == 0
    assert out.splitlines()[0] == text(expected)
    assert round(expected.power, 4) == 0.4686
    assert "power at n = 200    46.9% (0.4686)" in out  # as the sentence gives it, share after


def test_rates_give_the_same_plan_as_cells(capsys) -> None:
    arguments = ["--pass-rate-a", "0.8", "--difference", "0", "--disagreement", "0.2"]
    status, out, _ = run(capsys, *arguments, "--margin", "0.05", "--json")
    assert status == 0 and json.loads(out)["n"] == 501


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--margin", "-0.01"], "`margin` must be a number strictly between 0 and 0.5"),
        (["--margin", "0.5"], "`margin` must be a number strictly between 0 and 0.5"),
        (["--margin", "nan"], "`margin` must be a number strictly between 0 and 0.5"),
        (["--margin", "abc"], "--margin"),
        (["--margin", "0.05", "--test", "chi2"], "`--test` does not apply"),
        (["--margin", "0.01", "--p10", "0.2"], "no number of pairs"),
    ],
)
def test_bad_margins_exit_2_with_one_line(capsys, arguments, message) -> None:
    cells = ["--p01", "0.1"] if "--p10" in arguments else ["--p10", "0.1", "--p01", "0.1"]
    status, _, err = run(capsys, *cells, *arguments)
    assert status == 2
    assert len(err.strip().splitlines()) == 1 and message in err
