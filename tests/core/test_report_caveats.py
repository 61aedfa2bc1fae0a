"""The report at the extremes a user can enter: every sentence true, every count in agreement.

Spot checks of issue 11: m = 0, m = 1, b = 0, n = 10^9, b == c; mid-p never called exact; the
few-pairs caveat (the smallest two-sided exact p is 2^(1 - m)); Wald's zero width flagged;
p-values near alpha and per-gate levels with three significant figures.
"""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import analyze
from calculator.intervals import difference_interval
from calculator.mcnemar import mcnemar_exact
from calculator.rejection import smallest_pvalue
from calculator.report.caveats import few_pairs_caveat, zero_width_caveat
from calculator.report.words import text


def _no_bad_tokens(report: str) -> None:
    assert "nan" not in report.lower() and "inf" not in report.lower()
    assert not re.search(r"\b1 (cases|discordant pairs)\b", report)
    assert "+0.0 " not in report and "-0.0 " not in report


def test_no_discordant_pairs():
    report = text(analyze(5, 0, 0, 5))
    _no_bad_tokens(report)
    assert "agree on every case" in report and "p = 1" in report


def test_one_discordant_pair_is_singular_and_carries_the_caveat():
    report = text(analyze(3, 1, 0, 3))
    _no_bad_tokens(report)
    assert "Of the 1 case where they disagree" in report
    assert "With only 1 discordant pair no split can give p ≤ 0.05" in report


def test_b_zero_with_five_pairs_says_no_split_can_reach_alpha():
    report = text(analyze(0, 0, 5, 0))
    _no_bad_tokens(report)
    assert "no split can give p ≤ 0.05" in report
    assert "2^(1 − 5) = 0.0625" in report


def test_six_pairs_can_reach_alpha_and_get_no_caveat():
    assert "no split can give" not in text(analyze(0, 0, 6, 0))


def test_a_billion_in_every_cell():
    report = text(analyze(10**9, 10**9, 10**9, 10**9))
    _no_bad_tokens(report)
    assert "1,000,000,000" in report


def test_b_equal_c_under_mid_p_is_called_mid_p_and_not_exact():
    result = analyze(10, 5, 5, 10, convention="mid-p")
    _no_bad_tokens(text(result))
    assert "McNemar mid-p test" in text(result)
    assert "exact" not in text(result).split("McNemar mid-p test")[0][-40:]
    assert "exact two-sided McNemar test (mid-p)" not in text(result)
    assert "p = 0.877" in text(result)  # 1 - P[T = 5]/2 for T ~ Bin(10, 1/2)


def test_p_near_alpha_gets_three_significant_figures_in_the_report():
    # 70/4/12/14 under mid-p: p = 0.0490, read "0.049" before.
    report = text(analyze(70, 4, 12, 14, convention="mid-p"))
    assert "p = 0.0490" in report


def test_per_gate_levels_have_three_significant_figures():
    report = text(analyze(60, 15, 5, 20, gates=6))
    assert "0.00833 (Bonferroni)" in report and "0.00851 (Šidák)" in report


def test_wald_zero_width_is_flagged_in_the_report():
    report = text(analyze(10, 0, 0, 10, ci_method="wald"))
    assert "Wald interval has zero width" in report
    assert "zero width" not in text(analyze(10, 0, 0, 10))


def test_disagreeing_interval_and_test_are_reconciled_in_the_report():
    report = text(analyze(70, 4, 12, 14))
    assert "Agresti-Min interval excludes 0, but the exact McNemar test does not reject" in report


@given(st.integers(0, 40), st.sampled_from(["doubling", "mid-p"]))
def test_smallest_pvalue_is_the_most_lopsided_split(m, convention):
    assert smallest_pvalue(m, convention) == pytest.approx(
        mcnemar_exact(m, 0, convention=convention).pvalue, rel=1e-12
    )


@given(st.integers(0, 40), st.sampled_from([0.05, 0.01, 0.1]))
def test_caveat_appears_exactly_when_no_split_reaches_alpha(m, alpha):
    reachable = any(mcnemar_exact(b, m - b).pvalue <= alpha for b in range(m + 1))
    assert (few_pairs_caveat(m, alpha, "doubling") is None) == (reachable or m == 0)


def test_zero_width_only_for_wald_collapsed():
    assert zero_width_caveat(difference_interval(0, 5, 0, 0, method="wald")) is not None
    assert zero_width_caveat(difference_interval(1, 5, 0, 0, method="wald")) is None
    assert zero_width_caveat(difference_interval(10, 0, 0, 10, method="newcombe")) is None
