"""A margin question on clusters never reads its interval past the exact test (review 4, N1).

"A cluster or by-question test is never reported below the exact test it approximates where that
exact test is computed, on any surface." 4 of 10 questions (3 repeats each) lean towards A and
none towards B (statistics-4's ``four_group.csv``, the per-case form of ``fourA``/``fourB``): the
90% cluster-robust interval for A − B is +3.4 to +26.6 points, yet the exact one-sided McNemar
test (4 to 0) gives p = 1/16 = 0.0625, and so does the exact sign-flip test of the 4 leans.
Before, ``--margin 0.05`` printed "Its lower end lies above 0: at one-sided α = 0.05, B is worse
than A", and ``--alternative greater --margin 0.02`` (the sides swapped) "These cases show that A
is better than B by more than 2 points" (p = 0.036), while ``--alternative less`` on the same
cases prints "not shown to be worse … held at the exact McNemar test's p, p = 0.062".
"""

from __future__ import annotations

import json

import pytest

from calculator import analyze
from calculator.cli import main
from calculator.clustered import Clusters
from calculator.report.words import text

# 10 clusters of 3 cases: 4 with one case passed only by A, the rest concordant.
_B = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
_C = [0] * 10
_N = [3] * 10


def _four(swap: bool = False) -> Clusters:
    b, c = (_C, _B) if swap else (_B, _C)
    return Clusters.from_counts(b, c, _N)


@pytest.mark.parametrize("margin", [0.05, 0.02])
def test_a_clustered_interval_past_zero_is_held_at_the_exact_test(margin):
    decision = analyze(20, 4, 0, 6, margin=margin, clusters=_four()).decision
    assert decision.low > 0  # the interval alone would say B worse
    zero = decision.zero_test
    assert zero is not None and zero.question == "worse" and not zero.reject
    assert zero.pvalue == pytest.approx(1 / 16)
    sentence = text(decision)
    assert "B is worse than A" not in sentence
    assert (
        "but the one-sided test of no difference (cluster-robust score test, held at the exact "
        "McNemar test's p, p = 0.062, α = 0.05) does not show B worse than A" in sentence
    )


def test_better_by_a_margin_on_clusters_is_held_at_the_exact_test():
    decision = analyze(20, 0, 4, 6, question="better", margin=0.02, clusters=_four(True)).decision
    assert not decision.reject and decision.pvalue == pytest.approx(1 / 16)
    assert decision.held_at == "exact"
    assert "these cases show" not in text(decision).lower()


def test_unclustered_the_one_sided_reading_stands_where_the_exact_test_agrees():
    # 60, 12, 4, 24: exact one-sided p = P(X >= 12 | 16) = 0.038, below alpha: said as before.
    decision = analyze(60, 12, 4, 24, margin=0.05).decision
    assert decision.zero_test is not None and decision.zero_test.reject
    assert "at one-sided α = 0.05, B is worse than A" in text(decision)
    # 26, 4, 0, 0: Tango's interval clears 0, the exact one-sided test (1/16) does not.
    decision = analyze(26, 4, 0, 0, margin=0.05).decision
    assert decision.low > 0 and not decision.zero_test.reject
    assert "B is worse than A" not in text(decision)


def test_the_command_line_and_its_json_say_the_same(tmp_path, capsys):
    # both pass 20, only A 4 (one case of each of q0..q3), both fail 6 (q7..q9)
    rows = ["id,q,A,B"] + [
        f"q{q}e{e},q{q},{int(q < 7)},{int(q < 7 and not (q < 4 and e == 0))}"
        for q in range(10)
        for e in range(3)
    ]
    path = tmp_path / "four.csv"
    path.write_text("\n".join(rows) + "\n")
    argv = ["cases", str(path), "--id", "id", "--a", "A", "--b", "B", "--group", "q"]
    assert main([*argv, "--margin", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "at one-sided α = 0.05, B is worse" not in out
    assert "does not show B worse than A" in out
    assert main([*argv, "--margin", "0.05", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["decision"]
    assert "does not show B worse than A" in data["sentence"]
    assert data["zero_test"]["reject"] is False
