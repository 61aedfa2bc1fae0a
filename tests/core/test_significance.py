"""One rule for p <= alpha (calculator.significance): exact binomial tails compared exactly.

Reference values: the exact McNemar p-values are binomial tails with p = 1/2, written here as
fractions from their definition (sum of binomial coefficients over 2^m), e.g. b = 6, c = 0:
p = 2 * C(6, 0) / 2^6 = 1/32; scipy.stats.binomtest(6, 6, 0.5).pvalue gives 0.03125 as well.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import analyze, mcnemar_exact
from calculator.release import gate_fails, is_worse
from calculator.report.caveats import few_pairs_caveat
from calculator.significance import exact_pvalue_fraction, exact_test_rejects, rejects


def test_six_only_a_cases_reach_alpha_one_in_32_in_the_gate_and_the_json_alike():
    analysis = analyze(3, 6, 0, 0, alpha=0.03125)
    # The exact tail is 1/32, and since review 4 (C3) the float p is 1/32 too, not a few ulps
    # above it as the log-domain sum gave.
    assert analysis.exact.pvalue == 0.03125
    assert exact_pvalue_fraction(6, 0) == Fraction(1, 32)
    assert is_worse(analysis, 0.03125)
    assert gate_fails(analysis)
    assert analysis.to_dict()["decision"]["reject"] is True


def test_one_sided_and_mid_p_ties_reject_too():
    # one-sided: P[T >= 6] = 1/64; two-sided mid-p at 6 to 0: 2 * 1/64 - 1/64 = 1/64.
    assert analyze(3, 6, 0, 0, alpha=1 / 64, alternative="less").decision.reject
    assert analyze(3, 6, 0, 0, alpha=1 / 64, convention="mid-p").decision.reject
    assert not analyze(3, 6, 0, 0, alpha=1 / 64 * (1 - 1e-6), alternative="less").decision.reject


def test_few_pairs_caveat_uses_the_same_rule():
    assert few_pairs_caveat(6, 0.03125, "doubling") is None  # 6 to 0 gives p = alpha
    assert few_pairs_caveat(6, 0.0312, "doubling") is not None


@given(
    st.integers(0, 60),
    st.integers(0, 60),
    st.sampled_from(["doubling", "mid-p"]),
    st.sampled_from(["two-sided", "greater", "less"]),
)
def test_exact_fraction_is_the_floating_tail(b, c, convention, alternative):
    exact = exact_pvalue_fraction(b, c, convention=convention, alternative=alternative)
    floating = mcnemar_exact(b, c, convention=convention, alternative=alternative).pvalue
    assert math.isclose(float(exact), floating, rel_tol=1e-9)


@given(
    st.integers(0, 40),
    st.integers(0, 40),
    st.sampled_from(["doubling", "mid-p"]),
    st.sampled_from(["two-sided", "greater", "less"]),
)
def test_the_exact_p_as_alpha_always_rejects_and_just_below_never(b, c, convention, alternative):
    exact = exact_pvalue_fraction(b, c, convention=convention, alternative=alternative)
    alpha = float(exact)
    if alpha >= 1.0 or Fraction(alpha) != exact:  # a level a person can type exactly
        return
    assert exact_test_rejects(b, c, alpha, convention=convention, alternative=alternative)
    below = alpha * (1 - 1e-7)
    assert not exact_test_rejects(b, c, below, convention=convention, alternative=alternative)


def test_continuous_rule_decides_underflowing_p_values():
    assert rejects(-400.0, 1e-300)
    assert not rejects(math.log10(0.051), 0.05)


def test_chi_square_conditional_size_is_the_binomial_mass_of_rejecting_splits():
    # By hand from Binomial(m, 1/2): m = 4 rejects at 4-0 and 0-4 (X2 = 4 >= 3.84): 2/16;
    # m = 8 rejects at |b - c| >= 6 (X2 = 4.5), b in {0, 1, 7, 8}: 2 (1 + 8)/256 = 0.0703125.
    from calculator.rejection import chi2_conditional_size

    assert chi2_conditional_size(4, 0.05) == 0.125
    assert chi2_conditional_size(8, 0.05) == pytest.approx(18 / 256)
    assert chi2_conditional_size(3, 0.05) == 0.0
