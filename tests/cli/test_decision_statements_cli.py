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
