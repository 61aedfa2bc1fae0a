"""Floating-point noise stays out of the scores' words and JSON (hostile 4 U2, statistics 4 C3).

0.6 - 0.5 is 0.09999999999999998 in binary floating point; the data say 0.1 on every case. A
margin decision's alpha is the one asked for (0.05), not (1 - 0.9) / 2 = 0.04999999999999999.
"""

from __future__ import annotations

import numpy as np
import pytest

from calculator import compare_scores
from calculator.report.words import text


def test_a_difference_equal_to_the_margin_up_to_rounding_prints_as_the_margin():
    report = text(compare_scores([0.6] * 10, [0.5] * 10, margin=0.1))
    assert "a mean difference A − B of +0.100 " in report
    assert "0.09999999999999998" not in report


def test_the_margin_decisions_alpha_is_the_one_asked_for():
    a = [30.0 + (k * 7 % 11) for k in range(20)]
    b = [x - 1.0 + (k % 3) for k, x in enumerate(a)]
    assert compare_scores(a, b, level=0.9, margin=2.0).margin.alpha == 0.05
    assert compare_scores(a, b, level=1 - 2e-5, margin=2.0).margin.alpha == 1e-5
    assert compare_scores(a, b, level=0.9375, margin=2.0).margin.alpha == 0.03125


def test_an_exact_p_tied_with_alpha_is_reported_as_alpha_in_the_decision():
    # 6 to 0 discordant pairs: the exact two-sided p is 2/2^6 = 1/32 (binomial tail doubled,
    # X ~ Bin(6, 1/2); R: binom.test(0, 6)$p.value), computed as 0.031250000000000014.
    from calculator import analyze

    decision = analyze(3, 6, 0, 0, alpha=0.03125).decision
    assert decision.reject and decision.pvalue == 0.03125
    assert decision.pvalue <= decision.alpha
    below = analyze(3, 6, 0, 0, alpha=0.0312).decision
    assert not below.reject and below.pvalue > below.alpha


def test_t_keeps_three_significant_figures_and_w_plus_every_digit():
    # Review 4, C14: "t = 49" (three figures shown as two) and "W+ = 2.56104e+10".
    d = [0.9, 1.1] * 12  # mean 1, sd 0.1 * sqrt(24/23): t = 10 sqrt(23) = 47.958...
    result = compare_scores(d, [0.0] * 24)
    assert result.t_test.statistic == pytest.approx(10 * 23**0.5)
    assert "Paired t test: t = 48.0 on 23 degrees of freedom" in text(result)
    assert f"W+ = {result.signed_rank.statistic:,.0f} " in text(result)  # 300, no exponent
    big = compare_scores(np.arange(1, 300_001) * 1e-3 + 0.5, np.full(300_000, 0.5))
    w = big.signed_rank.statistic  # n (n + 1) / 2 = 45,000,150,000: every rank where A is higher
    assert w == 300_000 * 300_001 / 2
    assert "W+ = 45,000,150,000 " in text(big)
