"""One-sided McNemar tests (alternative "greater" = B's pass rate higher than A's, c > b) and the
posterior probability that B is better."""

import math

import mpmath
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import stats

from calculator import mcnemar_chi2, mcnemar_exact, probability_b_better
from calculator.mcnemar import ALTERNATIVES

# ---------------------------------------------------------------------------------------------
# Exact test. Reference: scipy 1.17.1, stats.binomtest(b, b + c, 0.5, alternative=...): the
# one-sided exact McNemar test is the binomial test of b out of m, "B better" being b small,
# i.e. binomtest's alternative "less" (R: binom.test(b, m, 0.5, alternative = "less")).
# ---------------------------------------------------------------------------------------------
ONE_SIDED_CASES = [(15, 5), (5, 15), (4, 12), (12, 4), (10, 18), (2, 10), (7, 7), (0, 9), (9, 0)]


@pytest.mark.parametrize(("b", "c"), ONE_SIDED_CASES)
def test_exact_one_sided_matches_scipy_binomtest(b, c):
    greater = mcnemar_exact(b, c, alternative="greater")
    less = mcnemar_exact(b, c, alternative="less")
    assert greater.pvalue == pytest.approx(
        stats.binomtest(b, b + c, 0.5, alternative="less").pvalue, rel=1e-12
    )
    assert less.pvalue == pytest.approx(
        stats.binomtest(b, b + c, 0.5, alternative="greater").pvalue, rel=1e-12
    )
    assert (greater.alternative, less.alternative) == ("greater", "less")


@pytest.mark.parametrize(("b", "c"), ONE_SIDED_CASES)
def test_mid_p_one_sided_is_the_tail_less_half_the_observed_split(b, c):
    # Definition (Lancaster 1961; Fagerland, Lydersen & Laake 2013): P[T < b] + P[T = b]/2 for
    # "greater", from scipy.stats.binom 1.17.1.
    m = b + c
    expected = stats.binom.cdf(b, m, 0.5) - stats.binom.pmf(b, m, 0.5) / 2
    result = mcnemar_exact(b, c, convention="mid-p", alternative="greater")
    assert result.pvalue == pytest.approx(expected, rel=1e-12)


def test_exact_one_sided_seed_table():
    # Seed page table 70, 4, 12, 14: two-sided exact p 0.077, so B better one-sided p 0.038.
    assert round(mcnemar_exact(4, 12, alternative="greater").pvalue, 4) == 0.0384
    assert round(mcnemar_exact(4, 12).pvalue, 4) == 0.0768


def test_exact_one_sided_far_tail_keeps_its_log10():
    # b = 0, c = 5000: P[T <= 0] = 2^-5000, log10 = -5000 log10 2 = -1505.15.
    result = mcnemar_exact(0, 5000, alternative="greater")
    assert result.pvalue == 0.0
    assert result.log10_pvalue == pytest.approx(-5000 * math.log10(2), rel=1e-12)
    assert mcnemar_exact(0, 5000, alternative="less").pvalue == 1.0


def test_exact_one_sided_at_two_billion_discordant_pairs():
    # Reference: scipy 1.17.1 stats.binomtest(b, m, 0.5, alternative="less"), as test_mcnemar.py
    # uses for the two-sided p at this size; B is ahead, so "greater" is also half the two-sided.
    b, c = 10**9 - 10**5, 10**9 + 10**5
    result = mcnemar_exact(b, c, alternative="greater")
    expected = stats.binomtest(b, b + c, 0.5, alternative="less").pvalue
    assert result.pvalue == pytest.approx(expected, rel=1e-6)
    assert result.log10_pvalue == pytest.approx(
        mcnemar_exact(b, c).log10_pvalue - math.log10(2), rel=1e-12
    )


def test_no_discordant_pairs_give_one_on_either_side():
    for convention in ("doubling", "mid-p"):
        for alternative in ALTERNATIVES:
            assert mcnemar_exact(0, 0, convention=convention, alternative=alternative).pvalue == 1
        assert mcnemar_chi2(0, 0, alternative="greater").pvalue == 1


def test_unknown_alternative_is_refused():
    with pytest.raises(ValueError, match='`alternative` must be one of "two-sided"'):
        mcnemar_exact(5, 15, alternative="bigger")
    with pytest.raises(ValueError, match="`alternative`"):
        mcnemar_chi2(5, 15, alternative="two.sided")


# ---------------------------------------------------------------------------------------------
# Chi-square (normal) form. Reference: scipy 1.17.1 stats.norm.cdf of the signed statistic,
# z = (b - c)/sqrt(m) for "greater", with the half-count (b - c + 1) under the correction.
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("b", "c"), ONE_SIDED_CASES)
@pytest.mark.parametrize("correction", [False, True])
def test_chi2_one_sided_matches_the_normal_tail(b, c, correction):
    assume_m = b + c
    k = 1 if correction else 0
    greater = mcnemar_chi2(b, c, correction=correction, alternative="greater")
    less = mcnemar_chi2(b, c, correction=correction, alternative="less")
    assert greater.pvalue == pytest.approx(stats.norm.cdf((b - c + k) / math.sqrt(assume_m)))
    assert less.pvalue == pytest.approx(stats.norm.cdf((c - b + k) / math.sqrt(assume_m)))
    assert greater.statistic == mcnemar_chi2(b, c, correction=correction).statistic


# ---------------------------------------------------------------------------------------------
# Properties of the one-sided tests
# ---------------------------------------------------------------------------------------------
counts = st.integers(0, 400)


@given(counts, counts)
def test_exact_one_sided_pvalues_sum_to_one_plus_the_observed_split(b, c):
    assume(b + c > 0)
    greater = mcnemar_exact(b, c, alternative="greater").pvalue
    less = mcnemar_exact(b, c, alternative="less").pvalue
    assert greater + less == pytest.approx(1 + stats.binom.pmf(b, b + c, 0.5), rel=1e-12)


@given(counts, counts)
def test_smaller_one_sided_p_is_half_the_doubled_two_sided_p(b, c):
    assume(b + c > 0)
    two_sided = mcnemar_exact(b, c).pvalue
    smaller = min(
        mcnemar_exact(b, c, alternative="greater").pvalue,
        mcnemar_exact(b, c, alternative="less").pvalue,
    )
    if two_sided < 1:
        assert smaller == pytest.approx(two_sided / 2, rel=1e-12)
    else:
        assert smaller >= 0.5


@given(counts, counts)
def test_mid_p_one_sided_pvalues_sum_to_one(b, c):
    assume(b + c > 0)
    greater = mcnemar_exact(b, c, convention="mid-p", alternative="greater").pvalue
    less = mcnemar_exact(b, c, convention="mid-p", alternative="less").pvalue
    assert greater + less == pytest.approx(1.0, rel=1e-12)


@given(counts, counts, st.booleans())
def test_chi2_one_sided_is_half_the_two_sided_in_the_direction_seen(b, c, correction):
    assume(b != c)
    towards = "greater" if c > b else "less"
    one_sided = mcnemar_chi2(b, c, correction=correction, alternative=towards).pvalue
    two_sided = mcnemar_chi2(b, c, correction=correction).pvalue
    assert one_sided == pytest.approx(two_sided / 2, rel=1e-12)


@given(counts, counts)
def test_swapping_b_and_c_swaps_the_one_sided_alternatives(b, c):
    assert (
        mcnemar_exact(b, c, alternative="greater").pvalue
        == mcnemar_exact(c, b, alternative="less").pvalue
    )


# ---------------------------------------------------------------------------------------------
# Posterior probability that B is better. Reference: scipy 1.17.1 stats.beta(b + 1/2,
# c + 1/2).cdf(0.5); in the far tails, mpmath 1.3.0 numerical integration of the Beta density
# (30 digits), independent of the calculator's incomplete-beta series.
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("b", "c"), [(5, 15), (15, 5), (4, 12), (0, 1), (1, 0), (0, 30), (99, 120)]
)
def test_probability_b_better_matches_scipy_beta(b, c):
    result = probability_b_better(b, c)
    assert result.probability_B_better == pytest.approx(
        stats.beta(b + 0.5, c + 0.5).cdf(0.5), rel=1e-12
    )
    assert result.prior == "Jeffreys Beta(1/2, 1/2)"


def _mpmath_log10_beta_below_half(b, c):
    mpmath.mp.dps = 30
    a_, b_ = mpmath.mpf(b) + 0.5, mpmath.mpf(c) + 0.5

    def log_density(x):
        return (a_ - 1) * mpmath.log(x) + (b_ - 1) * mpmath.log(1 - x)

    top = log_density(mpmath.mpf(0.5))
    points = [0] + [mpmath.mpf(0.5) - mpmath.mpf(10) ** -k for k in range(1, 13)] + [0.5]
    integral = mpmath.quad(lambda x: mpmath.exp(log_density(x) - top), points)
    return float((mpmath.log(integral) + top - mpmath.log(mpmath.beta(a_, b_))) / mpmath.log(10))


@pytest.mark.parametrize(
    ("b", "c", "rel"),
    [
        (2000, 0, 1e-12),
        (3000, 1000, 1e-12),
        (600_000, 500_000, 1e-10),
        (10**9, 10**9 - 3 * 10**6, 1e-8),
    ],
)
def test_probability_b_better_in_the_far_tail_keeps_its_log10(b, c, rel):
    # P(B better) is below 1e-200 here; 1e-8 relative at 10^9 is scipy's betaln there.
    result = probability_b_better(b, c)
    assert result.probability_B_better < 1e-200
    assert result.probability_A_better == 1.0
    assert result.log10_probability_B_better == pytest.approx(
        _mpmath_log10_beta_below_half(b, c), rel=rel
    )
    mirrored = probability_b_better(c, b)
    assert mirrored.log10_probability_A_better == result.log10_probability_B_better


def test_probability_is_one_half_without_discordant_pairs_or_with_a_tie():
    for b in (0, 7, 10**9):
        result = probability_b_better(b, b)
        assert result.probability_B_better == result.probability_A_better == 0.5


@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_b_better_and_a_better_add_up_to_one(b, c):
    result = probability_b_better(b, c)
    assert result.probability_B_better + result.probability_A_better == pytest.approx(
        1.0, rel=1e-12, abs=1e-300
    )
    assert (result.probability_B_better > 0.5) == (c > b) or b == c


@given(st.integers(0, 300), st.integers(0, 300))
def test_more_wins_for_b_raise_the_probability_that_b_is_better(b, c):
    assert (
        probability_b_better(b, c + 1).probability_B_better
        >= probability_b_better(b, c).probability_B_better
    )
