"""Tango's score test against a margin: non-inferiority, superiority by a margin, equivalence.

Differences here are B minus A (positive: B passes more often); Tango's D = pA - pB.
"""

import math

import mpmath
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from calculator import difference_interval, margin_test, mcnemar_chi2
from calculator.noninferiority import score_test

# ---------------------------------------------------------------------------------------------
# Reference 1: Tango (1998), Statistics in Medicine 17:891-908, as transcribed in R ratesci
# 1.0.0's tests (tests/testthat/test3.R, "Tango 1998 Table V" and "Table VII"):
#   pairbinci(x = c(43, 0, 1, 0), contrast = "RD", method = "Score", skew = FALSE, bcf = FALSE,
#             level = 0.90) -> -0.096, 0.037   (pA - pB)
#   pairbinci(x = c(4, 9, 3, 16), contrast = "RD", method = "Score", skew = FALSE,
#             bcf = FALSE) -> -0.027, 0.390   (95%, pA - pB)
# and from the same file (Agresti & Min 2005 example; Fagerland et al. 2014 example):
#   pairbinci(x = c(53, 16, 8, 9), ...) -> -0.020, 0.207; pairbinci(x = c(1, 1, 7, 12), ...)
#   -> -0.517, -0.026 (95%).
# margin_test reports the interval for pB - pA at level 1 - 2 alpha: the mirror image.
# ---------------------------------------------------------------------------------------------
TANGO_PUBLISHED = [
    # table, alpha, (low, high) of pB - pA, rounded to 3 decimals as printed
    ((43, 0, 1, 0), 0.05, (-0.037, 0.096)),
    ((4, 9, 3, 16), 0.025, (-0.390, 0.027)),
    ((53, 16, 8, 9), 0.025, (-0.207, 0.020)),
    ((1, 1, 7, 12), 0.025, (0.026, 0.517)),
]


@pytest.mark.parametrize(("table", "alpha", "expected"), TANGO_PUBLISHED)
def test_interval_matches_published_tango_limits(table, alpha, expected):
    result = margin_test(*table, margin=0.1, alpha=alpha)
    assert (round(result.low, 3), round(result.high, 3)) == expected
    assert result.level == pytest.approx(1 - 2 * alpha)


def test_tango_table_v_example_is_equivalent_within_ten_points():
    # Tango's Table V data at a margin of 0.10: the published 90% interval (-0.037, 0.096) for
    # pB - pA lies inside (-0.1, 0.1), so TOST at alpha = 0.05 concludes equivalence. B is ahead
    # on these data (c = 1), so the larger one-sided p is the "B better by 0.1 or more" side,
    # Phi(-T(-0.1)); the value is the mpmath reference of the next section.
    result = margin_test(43, 0, 1, 0, margin=0.1, hypothesis="equivalence")
    assert result.reject
    assert -0.1 < result.low < result.high < 0.1
    assert result.pvalue == pytest.approx(0.0437658444385607, rel=1e-9)


# ---------------------------------------------------------------------------------------------
# Reference 2: an independent computation of the score statistic with mpmath 1.3.0 at 50 digits:
# the restricted MLE found by bisection on the constrained multinomial score equation (not the
# closed-form quadratic root the calculator uses), then
#   z = (b - c - n D0) / sqrt(n ((p10 + p01) - D0^2)),  p = Phi(z) or Phi(-z).
# ---------------------------------------------------------------------------------------------
def _reference_tango_z(a, b, c, d, d0):
    mpmath.mp.dps = 50
    n, d0 = a + b + c + d, mpmath.mpf(d0)
    rest = n - b - c

    def slope(q):  # derivative of the log-likelihood in q = p01, with p10 = q + d0
        total = mpmath.mpf(0)
        if b:
            total += b / (q + d0)
        if c:
            total += c / q
        if rest:
            total -= 2 * rest / (1 - 2 * q - d0)
        return total

    tiny = mpmath.mpf(10) ** -45
    low, high = max(mpmath.mpf(0), -d0) + tiny, (1 - d0) / 2 - tiny
    if slope(low) <= 0:
        q = low - tiny
    elif slope(high) >= 0:
        q = high + tiny
    else:
        for _ in range(250):
            middle = (low + high) / 2
            low, high = (middle, high) if slope(middle) > 0 else (low, middle)
        q = (low + high) / 2
    variance = n * ((2 * q + d0) - d0**2)
    return (b - c - n * d0) / mpmath.sqrt(variance)


MARGIN_CASES = [
    ((60, 5, 15, 20), 0.05, "non-inferiority"),
    ((60, 15, 5, 20), 0.05, "non-inferiority"),
    ((60, 5, 15, 20), 0.02, "superiority"),
    ((70, 4, 12, 14), 0.05, "non-inferiority"),
    ((70, 4, 12, 14), 0.01, "superiority"),
    ((900, 40, 30, 30), 0.02, "non-inferiority"),
    ((900, 40, 30, 30), 0.10, "non-inferiority"),
    ((900, 30, 40, 30), 0.30, "non-inferiority"),
    ((43, 0, 1, 0), 0.10, "non-inferiority"),
    ((1000, 0, 0, 0), 0.01, "non-inferiority"),
    ((10, 0, 7, 3), 0.5, "non-inferiority"),
    ((10, 7, 0, 3), 0.5, "non-inferiority"),
    ((10**9, 10**6, 10**6 - 10**4, 10**9), 0.0001, "non-inferiority"),
]


@pytest.mark.parametrize(("table", "margin", "hypothesis"), MARGIN_CASES)
def test_statistic_and_pvalue_match_an_independent_restricted_mle(table, margin, hypothesis):
    result = margin_test(*table, margin=margin, hypothesis=hypothesis)
    d0 = margin if hypothesis == "non-inferiority" else -margin
    z_a_minus_b = _reference_tango_z(*table, d0)
    # The result's z is for pB - pA: the sign flips; p = Phi(T(D0)) rejects for small T.
    assert result.statistic == pytest.approx(-float(z_a_minus_b), rel=1e-9, abs=1e-12)
    log10_p = mpmath.log10(mpmath.ncdf(z_a_minus_b))
    assert result.log10_pvalue == pytest.approx(float(log10_p), rel=1e-9, abs=1e-12)


def test_equivalence_is_the_larger_of_two_one_sided_pvalues():
    table, margin = (900, 40, 30, 30), 0.02
    lower = mpmath.ncdf(_reference_tango_z(*table, margin))  # H0: pB - pA <= -margin
    upper = mpmath.ncdf(-_reference_tango_z(*table, -margin))  # H0: pB - pA >= margin
    result = margin_test(*table, margin=margin, hypothesis="equivalence")
    assert result.pvalue == pytest.approx(float(max(lower, upper)), rel=1e-9)


def test_pvalue_far_below_the_double_range_keeps_its_log10():
    # 10^6 cases, B ahead by 20 points: the NI p at a 1-point margin is about 10^-11000.
    result = margin_test(10**6, 10**5, 3 * 10**5, 10**6 - 4 * 10**5, margin=0.01)
    z = _reference_tango_z(10**6, 10**5, 3 * 10**5, 10**6 - 4 * 10**5, 0.01)
    assert result.pvalue == 0.0
    assert result.log10_pvalue == pytest.approx(float(mpmath.log10(mpmath.ncdf(z))), rel=1e-9)
    assert result.reject


# ---------------------------------------------------------------------------------------------
# Degenerate tables, decided on purpose (see the Notes of margin_test)
# ---------------------------------------------------------------------------------------------
def test_noninferiority_answers_without_discordant_pairs():
    # z = sqrt(n Delta / (1 - Delta)): shown at Delta = 0.01, alpha = 0.05 from n = 268 on.
    shown = margin_test(268, 0, 0, 0, margin=0.01)
    not_yet = margin_test(267, 0, 0, 0, margin=0.01)
    assert shown.statistic == pytest.approx(math.sqrt(268 * 0.01 / 0.99), rel=1e-12)
    assert shown.reject and not not_yet.reject
    assert (shown.low, shown.high) == pytest.approx((-not_yet.high, not_yet.high), rel=0.01)


def test_superiority_cannot_be_shown_without_discordant_pairs():
    result = margin_test(10**6, 0, 0, 0, margin=0.001, hypothesis="superiority")
    assert not result.reject
    assert result.pvalue > 0.999


@pytest.mark.parametrize("table", [(0, 0, 5, 0), (0, 5, 0, 0), (0, 0, 0, 1), (3, 0, 9, 0)])
def test_single_cell_tables_give_finite_answers(table):
    for hypothesis in ("non-inferiority", "superiority", "equivalence"):
        result = margin_test(*table, margin=0.5, hypothesis=hypothesis)
        assert math.isfinite(result.statistic) and math.isfinite(result.log10_pvalue)
        assert 0.0 <= result.pvalue <= 1.0
        assert -1.0 <= result.low <= result.high <= 1.0


@pytest.mark.parametrize("bad", [-0.01, 0.0, 1.0, 1.5, float("nan"), float("inf")])
def test_margin_outside_zero_one_is_refused(bad):
    with pytest.raises(ValueError, match="`margin` must be a number strictly between 0 and 1"):
        margin_test(60, 5, 15, 20, margin=bad)


@pytest.mark.parametrize("bad", ["0.01", None, True])
def test_margin_of_the_wrong_type_is_refused(bad):
    with pytest.raises(TypeError, match="`margin`"):
        margin_test(60, 5, 15, 20, margin=bad)


def test_alpha_of_a_half_or_more_is_refused_for_a_margin_test():
    with pytest.raises(ValueError, match="strictly between 0 and 0.5"):
        margin_test(60, 5, 15, 20, margin=0.01, alpha=0.5)


def test_unknown_hypothesis_and_empty_table_are_refused():
    with pytest.raises(ValueError, match="`hypothesis` must be one of"):
        margin_test(60, 5, 15, 20, margin=0.01, hypothesis="inferiority")
    with pytest.raises(ValueError, match="empty"):
        margin_test(0, 0, 0, 0, margin=0.01)


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------
tables = st.tuples(*(st.integers(0, 120) for _ in range(4))).filter(lambda t: sum(t) > 0)
margins = st.floats(0.001, 0.5)
alphas = st.sampled_from([0.01, 0.025, 0.05, 0.1, 0.2])


@given(tables, margins, alphas, st.sampled_from(["non-inferiority", "superiority"]))
def test_one_sided_decision_agrees_with_interval_inclusion(table, margin, alpha, hypothesis):
    result = margin_test(*table, margin=margin, hypothesis=hypothesis, alpha=alpha)
    bound = -margin if hypothesis == "non-inferiority" else margin
    assume(abs(result.low - bound) > 1e-9)  # a limit on the margin itself is a tie
    assert result.reject == (result.low > bound)


@given(tables, margins, alphas)
def test_equivalence_decision_agrees_with_interval_inclusion(table, margin, alpha):
    result = margin_test(*table, margin=margin, hypothesis="equivalence", alpha=alpha)
    assume(abs(result.low + margin) > 1e-9 and abs(result.high - margin) > 1e-9)
    assert result.reject == (-margin < result.low and result.high < margin)


@given(tables, margins, margins)
def test_noninferiority_pvalue_falls_as_the_margin_grows(table, first, second):
    small, large = sorted((first, second))
    p_small = margin_test(*table, margin=small).log10_pvalue
    p_large = margin_test(*table, margin=large).log10_pvalue
    assert p_large <= p_small + 1e-12


@given(st.integers(0, 500), st.integers(0, 500), st.integers(0, 500))
def test_two_sided_score_test_at_zero_is_mcnemars_uncorrected_chi_square(b, c, rest):
    assume(b + c > 0)
    z, log_p = score_test(b, c, b + c + rest, 0.0, "two-sided")
    chi2 = mcnemar_chi2(b, c)
    assert z * z == pytest.approx(chi2.statistic, rel=1e-12)
    assert log_p == pytest.approx(chi2.log10_pvalue * math.log(10), rel=1e-10, abs=1e-14)


@given(tables, alphas)
def test_margin_interval_is_the_mirrored_tango_interval(table, alpha):
    result = margin_test(*table, margin=0.1, alpha=alpha)
    tango = difference_interval(*table, level=1 - 2 * alpha, method="tango")
    assert (result.low, result.high) == (-tango.high, -tango.low)
    assert result.low <= result.estimate <= result.high
