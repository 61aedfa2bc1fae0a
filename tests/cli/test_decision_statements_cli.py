"""What the decision says on the command line and in its JSON: the sentence follows the interval,
the interval has the decision's level, one rule decides p <= alpha, and with clusters every
decision is the cluster-aware one.

Expected sentences come from :func:`calculator.analyze` (whose figures are checked against
references in tests/core/test_decision.py and tests/core/test_noninferiority.py); these tests check
that the command line prints and exports the same words.
"""

from __future__ import annotations

import json

from calculator.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ---------------------------------------------------------------------------------------------
# A failed non-inferiority test is worded by where the interval lies
# ---------------------------------------------------------------------------------------------
def test_table_margin_that_b_misses_by_far_says_b_is_worse_by_more(capsys):
    # 60, 15, 5, 20: the 90% Tango interval for pB - pA is -17.6 to -2.8 points, all below -1.
    status, out, _ = run(capsys, "table", "60", "15", "5", "20", "--margin", "0.01")
    assert status == 0
    assert "these cases show that B is worse than A by more than 1 point" in out
    assert "does not show that B is worse" not in out
    status, out, _ = run(capsys, "table", "60", "15", "5", "20", "--margin", "0.01", "--json")
    sentence = json.loads(out)["decision"]["sentence"]
    assert "these cases show that B is worse than A by more than 1 point" in sentence
    assert "does not show that B is worse" not in sentence


def cases_file(tmp_path, *, both: int, only_a: int, only_b: int, name: str = "runs.csv") -> str:
    rows = [f"q{i},1,1" for i in range(both)]
    rows += [f"a{i},1,0" for i in range(only_a)]
    rows += [f"b{i},0,1" for i in range(only_b)]
    path = tmp_path / name
    path.write_text("\n".join(["id,old,new", *rows]) + "\n")
    return str(path)


# ---------------------------------------------------------------------------------------------
# One rule for p <= alpha: an exact tail equal to alpha rejects in the gate and the JSON alike
# ---------------------------------------------------------------------------------------------
def test_six_only_a_cases_at_alpha_one_in_32_fail_the_gate_and_the_json_agrees(tmp_path, capsys):
    # p = 2 * (1/2)^6 = 0.03125 exactly; in floating point 0.031250000000000014.
    path = cases_file(tmp_path, both=3, only_a=6, only_b=0)
    status, out, _ = run(capsys, "cases", path, "--fail-if-worse", "--alpha", "0.03125", "--json")
    assert status == 1
    assert json.loads(out)["decision"]["reject"] is True
