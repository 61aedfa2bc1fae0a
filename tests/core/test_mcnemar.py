"""McNemar's exact and chi-square tests and the unpaired z-test, against references with
provenance."""

import math
import warnings
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from scipy import stats

from calculator import mcnemar_chi2, mcnemar_exact, unpaired_z_test
from calculator.mcnemar import log_binom_half_cdf

# --- Published worked examples (the McNemar test article, the classifier-comparison tutorial and
# the original calculator page), rounded as printed there.
SEED_EXACT = [
    # (b, c, printed p, tolerance of the printed digits)
    (4, 12, 0.077, 5e-4),  # mcnemar-test.txt: 70, 4, 12, 14
    (10, 18, 0.185, 5e-4),  # mcnemar-test.txt: only A 10, only B 18
    (2, 10, 0.039, 5e-4),  # mcnemar-test.txt: only A 2, only B 10
    (15, 5, 0.041, 5e-4),  # calculator-page.txt: 60, 15, 5, 20
    # paired-classifier-errors.txt, errors framing mapped to pass framing (b = only B wrong):
    (3, 12, 0.03515625, 1e-15),  # only A wrong 12, only B wrong 3: 1152/32768
    (6, 14, 0.1153, 5e-5),  # 72 / 8 / 14 / 6
    (2, 8, 0.109375, 1e-15),  # n = 40, only A wrong 8, only B wrong 2
]


@pytest.mark.parametrize(("b", "c", "printed", "tolerance"), SEED_EXACT)
def test_exact_pvalue_reproduces_the_seed_examples(b, c, printed, tolerance):
    assert mcnemar_exact(b, c).pvalue == pytest.approx(printed, abs=tolerance)


def test_exact_pvalue_is_exactly_the_seed_fraction():
    # paired-classifier-errors.txt: 2 * (1 + 15 + 105 + 455) / 2^15 = 1152/32768.
    assert Fraction(mcnemar_exact(3, 12).pvalue).limit_denominator(2**16) == Fraction(1152, 32768)


# Fagerland, Lydersen & Laake (2013), BMC Med Res Methodol 13:91, airway hyper-responsiveness
# example (b = 1, c = 7): exact conditional p = 0.070, mid-p = 0.039, asymptotic McNemar p = 0.034.
def test_fagerland_2013_example():
    assert mcnemar_exact(1, 7).pvalue == pytest.approx(0.070, abs=5e-4)
    assert mcnemar_exact(1, 7, convention="mid-p").pvalue == pytest.approx(0.039, abs=5e-4)
    assert mcnemar_chi2(1, 7).pvalue == pytest.approx(0.034, abs=5e-4)


def test_mid_p_at_equal_counts_follows_fagerland():
    # By hand: b = c = 5 gives 1 - P[Bin(10, 1/2) = 5]/2 = 1 - 252/2048 = 0.8770.
    result = mcnemar_exact(5, 5, convention="mid-p")
    assert result.pvalue == pytest.approx(1 - comb(10, 5) / 2**11, rel=1e-14)
    assert round(result.pvalue, 4) == 0.8770


def test_mid_p_by_hand_unequal_counts():
    # 2 P[Bin(16, 1/2) <= 4] - P[= 4], summed with exact integers.
    tail = sum(comb(16, j) for j in range(5))
    expected = (2 * tail - comb(16, 4)) / 2**16
    assert mcnemar_exact(4, 12, convention="mid-p").pvalue == pytest.approx(expected, rel=1e-13)


def test_exact_pvalue_is_one_without_discordant_pairs():
    for convention in ("doubling", "mid-p"):
        result = mcnemar_exact(0, 0, convention=convention)
        assert (result.pvalue, result.log10_pvalue, result.discordant) == (1.0, 0.0, 0)


def test_exact_pvalue_is_one_when_b_equals_c():
    assert mcnemar_exact(7, 7).pvalue == 1.0
    assert mcnemar_exact(7, 7).log10_pvalue == 0.0


def test_exact_log10_far_below_the_double_range():
    # By hand: b = 0, c = 5000 gives p = 2 * 2^-5000, log10 p = -4999 log10(2) = -1504.85.
    result = mcnemar_exact(0, 5000)
    assert result.log10_pvalue == pytest.approx(math.log10(2) - 5000 * math.log10(2), abs=1e-9)
    assert round(result.log10_pvalue, 2) == -1504.85
    # By hand: b = 0, c = 2000 has log10 p = -1999 log10(2) = -601.759 (scipy's logcdf gives -inf
    # there).
    assert mcnemar_exact(0, 2000).log10_pvalue == pytest.approx(-601.759, abs=5e-4)


def test_exact_log10_deep_tail_matches_exact_integer_sum():
    # P[Bin(3000, 1/2) <= 400] summed exactly with Python integers, then its log10.
    b, c = 400, 2600
    m = b + c
    tail = sum(comb(m, j) for j in range(b + 1))
    expected = math.log10(2) + math.log10(tail) - m * math.log10(2)
    assert expected < -300
    assert mcnemar_exact(b, c).log10_pvalue == pytest.approx(expected, abs=1e-9)


def test_log_tail_at_two_billion_pairs_agrees_with_the_normal_tail():
    # m = 2e9, k = m/2 - 2e6: z about 89, far past the double range; the binomial tail ratio to
    # the normal tail with continuity correction is within 1e-3 in log10 at this size.
    m = 2 * 10**9
    k = m // 2 - 2 * 10**6
    from scipy.special import log_ndtr

    z = (k + 0.5 - m / 2) / math.sqrt(m / 4)
    expected = float(log_ndtr(z)) / math.log(10)
    assert expected < -1000
    assert log_binom_half_cdf(k, m) / math.log(10) == pytest.approx(expected, abs=1e-2)


def test_exact_pvalue_at_two_billion_pairs():
    result = mcnemar_exact(10**9, 10**9 + 10**5)
    expected = stats.binomtest(10**9, 2 * 10**9 + 10**5, 0.5).pvalue
    assert result.pvalue == pytest.approx(expected, rel=1e-6)


# --- Independent implementation: scipy.stats.binomtest (scipy 1.x), two-sided, p = 1/2.
# For p = 1/2 its "sum of outcomes no more likely than the observed" rule equals doubling.
def _random_discordant_pairs(count, seed):
    rng = np.random.default_rng(seed)
    m = rng.integers(0, 400, size=count)
    b = rng.binomial(m, rng.uniform(0.05, 0.95, size=count))
    return list(zip(b.tolist(), (m - b).tolist(), strict=True))


@pytest.mark.parametrize(("b", "c"), _random_discordant_pairs(300, seed=20261130))
def test_exact_doubling_matches_scipy_binomtest(b, c):
    expected = stats.binomtest(b, b + c, 0.5).pvalue if b + c else 1.0
    assert mcnemar_exact(b, c).pvalue == pytest.approx(expected, rel=1e-10, abs=1e-300)


# --- Independent implementation: statsmodels 0.14/0.15,
# statsmodels.stats.contingency_tables.mcnemar([[a, b], [c, d]], exact=..., correction=...).
@pytest.mark.parametrize(("b", "c"), _random_discordant_pairs(200, seed=7))
def test_matches_statsmodels_where_statsmodels_is_right(b, c):
    from statsmodels.stats.contingency_tables import mcnemar

    if b + c == 0:
        pytest.skip("statsmodels has no answer at b + c = 0; see the departures test below")
    table = [[10, b], [c, 10]]
    assert mcnemar_exact(b, c).pvalue == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-10)
    plain = mcnemar(table, exact=False, correction=False)
    assert mcnemar_chi2(b, c).statistic == pytest.approx(plain.statistic, rel=1e-12)
    assert mcnemar_chi2(b, c).pvalue == pytest.approx(plain.pvalue, rel=1e-9)
    if b != c:  # statsmodels departs at b == c, see below
        corrected = mcnemar(table, exact=False, correction=True)
        assert mcnemar_chi2(b, c, correction=True).statistic == pytest.approx(
            corrected.statistic, rel=1e-12
        )
        assert mcnemar_chi2(b, c, correction=True).pvalue == pytest.approx(
            corrected.pvalue, rel=1e-9
        )


def test_where_statsmodels_departs_from_the_correct_convention():
    from statsmodels.stats.contingency_tables import mcnemar

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # b == c with the correction: statsmodels computes (|0| - 1)^2/m = 1/m and p < 1;
        # the floor at 0 (R's mcnemar.test) gives X2 = 0 and p = 1.
        sm_equal = mcnemar([[5, 3], [3, 5]], exact=False, correction=True)
        # No discordant pairs with the correction: statsmodels reports X2 = inf and p = 0,
        # i.e. "certain difference" where no case tells the systems apart.
        sm_empty = mcnemar([[5, 0], [0, 5]], exact=False, correction=True)
    assert sm_equal.pvalue < 1
    ours = mcnemar_chi2(3, 3, correction=True)
    assert (ours.statistic, ours.pvalue) == (0.0, 1.0)
    assert sm_empty.pvalue == 0.0
    ours_empty = mcnemar_chi2(0, 0, correction=True)
    assert (ours_empty.statistic, ours_empty.pvalue) == (None, 1.0)


# --- R 4.x, mcnemar.test(matrix(c(794, 86, 150, 570), nrow = 2)), from the R documentation's
# presidential approval example (Agresti 1990, p. 350), printed output:
#   with correction:    McNemar's chi-squared = 16.818, df = 1, p-value = 4.115e-05
#   correct = FALSE:    McNemar's chi-squared = 17.356, df = 1, p-value = 3.099e-05
@pytest.mark.parametrize(
    ("correction", "statistic", "pvalue"), [(True, 16.818, 4.115e-05), (False, 17.356, 3.099e-05)]
)
def test_chi2_matches_r_mcnemar_test(correction, statistic, pvalue):
    result = mcnemar_chi2(150, 86, correction=correction)
    assert result.statistic == pytest.approx(statistic, abs=5e-4)
    assert result.pvalue == pytest.approx(pvalue, abs=5e-9)
    assert result.df == 1


def test_chi2_seed_examples():
    # mcnemar-test.txt: 70, 4, 12, 14, corrected statistic 3.06, p = 0.080.
    corrected = mcnemar_chi2(4, 12, correction=True)
    assert corrected.statistic == pytest.approx(3.06, abs=5e-3)
    assert corrected.pvalue == pytest.approx(0.080, abs=5e-4)
    # calculator-page.txt: 60, 15, 5, 20, uncorrected 5.00, p = 0.025.
    plain = mcnemar_chi2(15, 5)
    assert plain.statistic == pytest.approx(5.00, abs=5e-3)
    assert plain.pvalue == pytest.approx(0.025, abs=5e-4)


def test_chi2_pvalue_matches_scipy_chi2_sf():
    for b, c in [(15, 5), (0, 1), (100, 3), (10**9, 10**9 - 10**5)]:
        result = mcnemar_chi2(b, c)
        assert result.pvalue == pytest.approx(stats.chi2.sf(result.statistic, 1), rel=1e-9)


def test_chi2_is_undefined_without_discordant_pairs():
    result = mcnemar_chi2(0, 0)
    assert result.statistic is None
    assert (result.pvalue, result.log10_pvalue) == (1.0, 0.0)


def test_chi2_log10_far_below_the_double_range():
    # X2 = 5000 (b = 0, c = 5000): log10 of chi2_1 sf from the normal tail, by scipy's log_ndtr.
    from scipy.special import log_ndtr

    expected = (math.log(2) + float(log_ndtr(-math.sqrt(5000)))) / math.log(10)
    result = mcnemar_chi2(0, 5000)
    assert result.log10_pvalue == pytest.approx(expected, rel=1e-12)
    assert result.log10_pvalue < -1000


def test_chi2_rejects_non_boolean_correction():
    with pytest.raises(TypeError, match="`correction` must be True or False"):
        mcnemar_chi2(1, 2, correction="yes")


def test_unknown_convention_is_rejected_with_the_choices():
    with pytest.raises(ValueError, match='`convention` must be one of "doubling", "mid-p"'):
        mcnemar_exact(1, 2, convention="central")


# --- Unpaired pooled z-test. Seeds: 70, 4, 12, 14 gives z = 1.37 (in absolute value), p = 0.172;
# 60, 15, 5, 20 gives p = 0.123 (calculator-page.txt).
def test_unpaired_z_seed_examples():
    first = unpaired_z_test(70, 4, 12, 14)
    assert abs(first.statistic) == pytest.approx(1.37, abs=5e-3)
    assert first.pvalue == pytest.approx(0.172, abs=5e-4)
    assert unpaired_z_test(60, 15, 5, 20).pvalue == pytest.approx(0.123, abs=5e-4)


# statsmodels.stats.proportion.proportions_ztest([a + b, a + c], [n, n]) (pooled by default).
@pytest.mark.parametrize("seed", range(40))
def test_unpaired_z_matches_statsmodels_proportions_ztest(seed):
    from statsmodels.stats.proportion import proportions_ztest

    rng = np.random.default_rng(seed)
    a, b, c, d = (int(v) for v in rng.integers(0, 300, size=4))
    n = a + b + c + d
    z, p = proportions_ztest([a + b, a + c], [n, n])
    result = unpaired_z_test(a, b, c, d)
    assert result.statistic == pytest.approx(z, rel=1e-9)
    assert result.pvalue == pytest.approx(p, rel=1e-9)


def test_unpaired_z_is_undefined_when_every_case_passes_or_fails():
    for table in [(5, 0, 0, 0), (0, 0, 0, 5), (0, 0, 0, 0)]:
        result = unpaired_z_test(*table)
        assert (result.statistic, result.pvalue) == (None, 1.0)


def test_unpaired_can_be_smaller_than_mcnemar():
    # Issue 3: at 1, 1, 7, 12 the unpaired p is below McNemar's, so "more conservative" is wrong.
    assert unpaired_z_test(1, 1, 7, 12).pvalue < mcnemar_exact(1, 7).pvalue
    assert unpaired_z_test(1, 1, 7, 12).pvalue < mcnemar_chi2(1, 7).pvalue


def test_counts_of_a_billion():
    big = 10**9
    assert mcnemar_exact(big, big).pvalue == 1.0
    assert mcnemar_chi2(big, big).statistic == 0.0
    assert unpaired_z_test(big, big, big, big).statistic == 0.0
    result = unpaired_z_test(big, big, 0, big)
    # z = (b - c) sqrt(2n) / sqrt((2a + b + c)(b + c + 2d)) = 1e9 sqrt(6e9) / sqrt(3e9 * 3e9)
    assert result.statistic == pytest.approx(big * math.sqrt(6 * big) / (3 * big), rel=1e-12)
    assert math.isfinite(result.log10_pvalue)
