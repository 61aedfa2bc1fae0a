"""The anytime-valid test of the discordant split and its confidence sequence (issue 34).

Reference values are independent computations made in this file: exact rationals
(``fractions``) for small counts, E = 2^m b! c! / (m + 1)! under the uniform mixture, and mpmath
1.4.1 at 60 significant digits (``mp.dps = 60``: ``mp.beta``, ``mp.betainc``, ``mp.log``) for
the rest, including m = 10^6. The confidence sequence's limits are checked by evaluating the
mixture likelihood ratio at them in mpmath: it equals 1/alpha there.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.anytime import anytime_analysis, anytime_test, anytime_test_path, log_mixture_evalue
from calculator.confidence_sequence import confidence_sequence, confidence_sequence_path
from calculator.errors import CalculatorError
from calculator.mcnemar import mcnemar_exact
from calculator.planning.power import rejection_limits

mpmath.mp.dps = 60


def exact_uniform_evalue(b: int, c: int) -> Fraction:
    """2^m B(b + 1, c + 1) = 2^m b! c! / (m + 1)!, as an exact rational."""
    m = b + c
    return Fraction(2**m * math.factorial(b) * math.factorial(c), math.factorial(m + 1))


def mp_half_mass(a, b):
    """I_{1/2}(a, b) by mpmath: x^a when b = 1, else its series with the smaller shape first
    (mpmath's series is slow with the larger first; 1 - I_{1/2}(b, a) loses few of 60 digits)."""
    if b == 1:
        return mpmath.mpf(0.5) ** a
    if a <= b:
        return mpmath.betainc(a, b, 0, 0.5, regularized=True)
    return 1 - mpmath.betainc(b, a, 0, 0.5, regularized=True)


def mp_log10_evalue(b: int, c: int, k: float, alternative: str = "two-sided"):
    """log10 E by mpmath: 2^m B(b + k, c + k) / B(k, k), one-sided times 2 I_{1/2}."""
    k = mpmath.mpf(k)
    log_e = (b + c) * mpmath.log(2) + mpmath.log(mpmath.beta(b + k, c + k) / mpmath.beta(k, k))
    if alternative == "greater":
        log_e += mpmath.log(2 * mp_half_mass(b + k, c + k))
    elif alternative == "less":
        log_e += mpmath.log(2 * mp_half_mass(c + k, b + k))
    return log_e / mpmath.log(10)


# --- exact rationals, uniform mixture: E = 2^m b! c! / (m + 1)! (computed by fractions) --------
SMALL_COUNTS = [(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (3, 0), (12, 0), (35, 15), (7, 9)]


@pytest.mark.parametrize(("b", "c"), SMALL_COUNTS)
def test_uniform_evalue_and_p_equal_the_exact_rationals(b, c):
    expected = exact_uniform_evalue(b, c)
    result = anytime_test(b, c)
    assert result.evalue == pytest.approx(float(expected), rel=1e-13)
    assert result.pvalue == pytest.approx(float(min(Fraction(1), 1 / expected)), rel=1e-13)
    assert result.running is False


def test_no_discordant_pairs_give_e_one_and_p_one():
    result = anytime_test(0, 0)
    assert (result.evalue, result.pvalue, result.log10_pvalue) == (1.0, 1.0, 0.0)
    for alternative in ("greater", "less"):
        assert anytime_test(0, 0, alternative=alternative).evalue == pytest.approx(1.0)


# --- mpmath 1.4.1, mp.dps = 60 (mp_log10_evalue above), in log10 E to 1e-9 relative -------------
MPMATH_TABLE = [
    # b, c, k, alternative
    (1, 0, 1.0, "two-sided"),
    (1, 1, 0.5, "two-sided"),
    (2, 0, 0.5, "greater"),
    (0, 2, 0.5, "greater"),
    (35, 15, 1.0, "two-sided"),
    (35, 15, 1.0, "less"),
    (15, 35, 1.0, "greater"),
    (35, 15, 1.0, "greater"),
    (35, 15, 10.0, "two-sided"),
    (35, 15, 0.01, "two-sided"),
    (0, 10**6, 1.0, "two-sided"),
    (500_000, 500_000, 1.0, "two-sided"),
    (498_000, 502_000, 1.0, "two-sided"),
    (498_000, 502_000, 0.5, "greater"),
    (502_000, 498_000, 1.5, "greater"),  # integer shapes send mpmath down a slow path
    (10**6, 0, 1.0, "greater"),
]


@pytest.mark.parametrize(("b", "c", "k", "alternative"), MPMATH_TABLE)
def test_log10_evalue_and_p_match_mpmath(b, c, k, alternative):
    expected = float(mp_log10_evalue(b, c, k, alternative))
    result = anytime_test(b, c, prior_shape=k, alternative=alternative)
    assert result.log10_evalue == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert result.log10_pvalue == pytest.approx(min(0.0, -expected), rel=1e-9, abs=1e-9)
    assert math.isfinite(result.log10_evalue) and 0.0 <= result.pvalue <= 1.0
    if expected < 300:
        assert result.evalue == pytest.approx(10**expected, rel=1e-8)
    else:  # beyond the doubles: the log holds it, the e-value is None, p underflows to 0
        assert result.evalue is None and result.pvalue == 0.0


def test_the_issue_reference_35_15_costs_a_larger_p_than_the_fixed_n_exact_test():
    # Issue 34: b = 35, c = 15 gives about 0.10 against the fixed-n exact 0.0066.
    result = anytime_analysis(35, 15, n=100)
    assert round(result.test.pvalue, 2) == 0.10
    assert round(result.fixed_n_pvalue, 4) == 0.0066
    assert not result.rejects


def test_counts_far_beyond_a_million_stay_finite():
    for b, c in ((10**12, 0), (0, 10**12), (10**12, 10**12), (10**9 + 7, 10**9)):
        for alternative in ("two-sided", "greater", "less"):
            result = anytime_test(b, c, alternative=alternative)
            assert math.isfinite(result.log10_evalue) and math.isfinite(result.log10_pvalue)
            assert 0.0 <= result.pvalue <= 1.0


def test_the_running_p_takes_the_largest_e_over_the_looks():
    # Twelve pairs for A: E = 2^12 / 13 (exact rational); twelve for B bring it down again.
    result = anytime_test_path([1] * 12 + [0] * 12)
    assert 10**result.max_log10_evalue == pytest.approx(2**12 / 13, rel=1e-12)
    assert result.pvalue == pytest.approx(13 / 2**12, rel=1e-12)
    assert result.evalue == pytest.approx(float(exact_uniform_evalue(12, 12)), rel=1e-12)
    assert anytime_test(12, 12).pvalue == 1.0
    assert anytime_test_path([]).pvalue == 1.0


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: anytime_test(-1, 3), "`b` must be a non-negative integer"),
        (lambda: anytime_test(1, 3, prior_shape=0), "`prior_shape` must be a number from"),
        (lambda: anytime_test(1, 3, alternative="worse"), "`alternative` must be"),
        (lambda: anytime_test_path([0, 2, 1]), "`only_a` must be a sequence of 0s and 1s"),
        (lambda: confidence_sequence(3, 4, n=6), "`n` must be"),
    ],
)
def test_refusals_name_the_value(call, match):
    with pytest.raises(CalculatorError, match=match):
        call()


# --- the confidence sequence: mpmath evaluates the mixture ratio at the limits ------------------
CS_TABLE = [(35, 15, 0.95), (1, 0, 0.95), (0, 5, 0.9), (3, 4, 0.99), (500_000, 499_000, 0.95)]


@pytest.mark.parametrize(("b", "c", "level"), CS_TABLE)
def test_the_sequence_limits_are_where_the_mixture_ratio_reaches_one_over_alpha(b, c, level):
    cs = confidence_sequence(b, c, level=level)
    log_mixture = mpmath.log(mpmath.beta(b + 1, c + 1))
    target = -mpmath.log(1 - level)
    for limit, is_end in ((cs.low, b > 0), (cs.high, c > 0)):
        if not is_end:  # no pairs on that side: the limit is 0 or 1 itself
            assert limit in (0.0, 1.0)
            continue
        t = mpmath.mpf(limit)
        log_ratio = log_mixture - b * mpmath.log(t) - c * mpmath.log(1 - t)
        assert float(log_ratio) == pytest.approx(float(target), abs=1e-6)
    assert cs.low <= b / max(b + c, 1) <= cs.high


def test_with_no_pairs_the_sequence_is_everything():
    cs = confidence_sequence(0, 0)
    assert (cs.low, cs.high, cs.fixed_low, cs.fixed_high) == (0.0, 1.0, 0.0, 1.0)
    # With n = 10 concordant cases the share of disagreement is bounded, and so the difference.
    cs = confidence_sequence(0, 0, n=10)
    assert -1.0 < cs.difference_low == -cs.difference_high < 0.0


def test_the_sequence_is_wider_than_the_fixed_n_interval_at_35_15():
    cs = confidence_sequence(35, 15)
    assert cs.low < cs.fixed_low < cs.fixed_high < cs.high
    # Clopper-Pearson for 35 of 50 (scipy.stats.binomtest(35, 50).proportion_ci(), scipy 1.x,
    # exact method): 0.5539 to 0.8214.
    assert (round(cs.fixed_low, 4), round(cs.fixed_high, 4)) == (0.5539, 0.8214)


# --- peeking after every pair: a seeded simulation --------------------------------------------
def test_peeking_after_every_pair_keeps_the_false_alarm_rate_at_alpha():
    # 4,000 experiments of 1,000 discordant pairs each under H0 (theta = 1/2), seed 34, looked
    # at after every pair; stop at the first E >= 1/alpha. Monte Carlo standard error of a rate
    # near alpha = 0.05: sqrt(0.05 x 0.95 / 4000) = 0.0034. Ville's bound is alpha itself; this
    # seed gives 0.032 (over a longer horizon the rate creeps up towards, never past, alpha), so
    # "at or below alpha" holds by five standard errors. The fixed-n exact test, peeked at the
    # same way, rejects in 0.408 of these experiments.
    alpha, experiments, pairs = 0.05, 4_000, 1_000
    rng = np.random.default_rng(34)
    b = np.cumsum(rng.integers(0, 2, size=(experiments, pairs)), axis=1)
    m = np.arange(1, pairs + 1)
    c = m - b
    crossed = (log_mixture_evalue(b, c) >= math.log(1 / alpha)).any(axis=1)
    rate = crossed.mean()
    standard_error = math.sqrt(alpha * (1 - alpha) / experiments)
    assert rate <= alpha, (rate, standard_error)
    limits = rejection_limits(pairs, alpha=alpha)[m]
    naive = (np.minimum(b, c) <= limits).any(axis=1).mean()
    assert naive > 3 * alpha


# --- invariants ---------------------------------------------------------------------------------
counts = st.integers(min_value=0, max_value=5_000)
shapes = st.sampled_from([0.5, 1.0, 2.0])


@given(b=counts, c=counts, k=shapes)
def test_e_is_non_negative_and_p_lies_in_zero_one(b, c, k):
    for alternative in ("two-sided", "greater", "less"):
        result = anytime_test(b, c, prior_shape=k, alternative=alternative)
        assert math.isfinite(result.log10_evalue)
        assert result.evalue is None or result.evalue >= 0
        assert 0.0 <= result.pvalue <= 1.0


@given(b=counts, c=counts, k=shapes)
def test_swapping_b_and_c_keeps_the_two_sided_e_and_swaps_the_one_sided(b, c, k):
    assert anytime_test(b, c, prior_shape=k).log10_evalue == pytest.approx(
        anytime_test(c, b, prior_shape=k).log10_evalue, rel=1e-12, abs=1e-12
    )
    greater = anytime_test(b, c, prior_shape=k, alternative="greater").log10_evalue
    less = anytime_test(c, b, prior_shape=k, alternative="less").log10_evalue
    assert greater == pytest.approx(less, rel=1e-10, abs=1e-10)


@given(m=st.integers(min_value=2, max_value=3_000), data=st.data())
def test_p_does_not_grow_as_b_grows_beyond_the_mode(m, data):
    b = data.draw(st.integers(min_value=(m + 1) // 2, max_value=m - 1))
    assert anytime_test(b + 1, m - b - 1).pvalue <= anytime_test(b, m - b).pvalue


@given(b=counts, c=counts)
def test_the_one_sided_e_values_average_to_the_two_sided(b, c):
    # The two halves of Beta(k, k) hold 1/2 each: E = (E_greater + E_less) / 2.
    two = anytime_test(b, c).log10_evalue
    halves = [anytime_test(b, c, alternative=a).log10_evalue for a in ("greater", "less")]
    assert math.log10((10 ** (halves[0] - two) + 10 ** (halves[1] - two)) / 2) == pytest.approx(
        0.0, abs=1e-9
    )


@given(b=counts, c=counts, extra=st.integers(min_value=0, max_value=10_000))
def test_the_difference_sequence_holds_the_estimate_and_stays_in_minus_one_one(b, c, extra):
    n = b + c + extra
    cs = confidence_sequence(b, c, n=n)
    estimate = (b - c) / n if n else 0.0
    assert -1.0 <= cs.difference_low <= estimate <= cs.difference_high <= 1.0
    assert cs.low <= cs.high


@given(path=st.lists(st.integers(min_value=0, max_value=1), max_size=300))
def test_the_running_intersection_lies_inside_the_final_set(path):
    running = confidence_sequence_path(path)
    final = confidence_sequence(sum(path), len(path) - sum(path))
    if running.low is not None:
        assert final.low - 1e-12 <= running.low <= running.high <= final.high + 1e-12
    assert anytime_test_path(path).pvalue <= anytime_test(final.only_a, final.only_b).pvalue


def test_the_exact_test_it_is_set_beside_is_the_doubling_one():
    result = anytime_analysis(15, 35, alternative="greater")
    assert result.fixed_n_pvalue == mcnemar_exact(15, 35, alternative="greater").pvalue
