"""A decision whose interval lies entirely on one side of 0 says so (statistics 4, C8).

The interval is for A - B, the headline's direction (issue 30): B worse means above 0.

Before: "These cases show that B is not worse than A by more than 20 points: the 90% Tango
interval ..., -17.6 to -2.8 points, lies above -20 points" said nothing of B being worse, and
the one-sided "B is not shown to be better ... -34.9 to -18.9 points" did not say the data
point the other way. The intervals are the library's (Tango's checked in
tests/core/test_noninferiority.py, Agresti-Min in tests/core/test_intervals.py); here only
the clause that follows from where they lie.
"""

from __future__ import annotations

from calculator import analyze
from calculator.report.words import text


def test_non_inferior_but_worse_says_both():
    decision = analyze(60, 15, 5, 20, margin=0.20).decision
    assert decision.reject and decision.low > 0
    assert (
        "Its lower end lies above 0 as well: at one-sided α = 0.05, B is also worse than A, by "
        "less than 20 points (a one-sided reading of the 90% interval" in (text(decision))
    )


def test_non_inferior_across_zero_adds_nothing():
    decision = analyze(60, 5, 15, 20, margin=0.05).decision
    assert decision.reject and decision.low < 0
    assert "above 0 as well" not in text(decision)


def test_one_sided_not_shown_with_the_interval_past_zero_says_the_data_point_the_other_way():
    decision = analyze(50, 30, 2, 20, alternative="greater").decision
    assert not decision.reject and decision.low > 0
    assert "The interval lies entirely above 0: the data point the other way, to B being worse" in (
        text(decision)
    )
    decision = analyze(50, 2, 30, 20, alternative="less").decision
    assert not decision.reject and decision.high < 0
    assert "entirely below 0: the data point the other way, to B being better" in text(decision)


def test_better_by_a_margin_not_shown_with_the_interval_below_zero_says_so():
    decision = analyze(50, 30, 2, 20, alternative="greater", margin=0.05).decision
    assert not decision.reject and decision.low > 0
    assert (
        "It lies entirely above 0 as well: at the same one-sided level the data point the other "
        "way" in text(decision)
    )
