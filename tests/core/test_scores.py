"""compare_scores against reference values: published worked examples, scipy.stats and
statsmodels (each table headed by the call that produced it), and brute-force enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from calculator import compare_scores
from calculator.report.words import text
from calculator.scores import lattice, signflip
from calculator.scores.bootstrap import _acceleration, distinct_units
from calculator.scores.ttest import log_t_sf

# Student (1908), "The probable error of a mean", Biometrika 6:1-25, p. 20: Cushny & Peebles'
# extra hours of sleep of 10 patients under two drugs (R's `sleep` data set). R 4.x:
# t.test(extra ~ group, data = sleep, paired = TRUE) -> t = -4.0621, df = 9, p-value = 0.002833,
# 95 percent confidence interval -2.4598858 -0.7001142, mean difference -1.58.
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]

# Hollander & Wolfe (1973), Nonparametric Statistical Methods, pp. 29f.: Hamilton depression
# scale factor of 9 patients at the first (x) and second (y) visit. R 4.x:
# wilcox.test(x, y, paired = TRUE, alternative = "greater") -> V = 40, p-value = 0.01953.
HAMILTON_X = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
HAMILTON_Y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]

# Judge grades (D1) and BLEU-like scores (D2), made up for these tables.
GRADES_A = [1, 0.75, 0.5, 1, 0.25, 0.75, 1, 0.5, 0.75, 1, 0, 0.5]
GRADES_B = [0.75, 0.75, 0.25, 0.5, 0.25, 0.5, 1, 0.75, 0.25, 0.75, 0, 0.25]
BLEU_A = [31.2, 45.0, 12.7, 28.9, 50.3, 19.4, 33.3, 41.8, 27.5, 36.1, 22.2, 48.6, 15.9, 39.0, 30.7]
BLEU_B = [29.8, 46.1, 10.2, 25.0, 49.9, 21.3, 30.1, 40.2, 27.0, 33.9, 20.9, 47.7, 16.6, 35.5, 29.9]
BLEU_CLUSTERS = [0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 4, 5, 5, 5]

# Our alternative names B's direction ("greater": B's mean higher); scipy's names A - B's.
SCIPY_ALTERNATIVE = {"two-sided": "two-sided", "greater": "less", "less": "greater"}


def test_student_sleep_paired_t_published():
    r = compare_scores(SLEEP_1, SLEEP_2)
    assert r.statistic == pytest.approx(-1.58, abs=1e-12)
    assert r.t_test.statistic == pytest.approx(-4.0621, abs=5e-5)
    assert r.t_test.df == 9
    assert r.t_test.pvalue == pytest.approx(0.002833, abs=5e-7)
    low, high = r.confidence_interval
    assert (low, high) == pytest.approx((-2.4598858, -0.7001142), abs=5e-8)


def test_hollander_wolfe_signed_rank_published():
    # R's "greater" (x - y > 0) is B = y lower than A = x: our "less".
    r = compare_scores(HAMILTON_X, HAMILTON_Y, alternative="less")
    assert r.signed_rank.statistic == 40
    assert r.signed_rank.method == "exact"
    assert r.signed_rank.pvalue == pytest.approx(0.01953, abs=5e-6)
    assert r.signed_rank.pvalue == 10 / 512  # the exact value behind R's 0.01953


# scipy 1.17.1: stats.ttest_rel(a, b, alternative=SCIPY_ALTERNATIVE[alternative]) for statistic
# and pvalue; stats.ttest_rel(a, b).confidence_interval(0.95) for the interval.
T_TABLE = [
    ("grades", "two-sided", 2.6017745423519636, 0.02461597801550964),
    ("grades", "less", 2.6017745423519636, 0.01230798900775482),
    ("grades", "greater", 2.6017745423519636, 0.9876920109922451),
    ("bleu", "two-sided", 2.8490453001804092, 0.012874145490929393),
    ("bleu", "less", 2.8490453001804092, 0.006437072745464696),
    ("bleu", "greater", 2.8490453001804092, 0.9935629272545353),
]
T_INTERVALS = {
    "grades": (0.025674104073728166, 0.30765922925960515),
    "bleu": (0.3048690105894576, 2.1617976560772068),
}
DATA = {"grades": (GRADES_A, GRADES_B), "bleu": (BLEU_A, BLEU_B)}


@pytest.mark.parametrize(("data", "alternative", "statistic", "pvalue"), T_TABLE)
def test_paired_t_matches_scipy_ttest_rel(data, alternative, statistic, pvalue):
    r = compare_scores(*DATA[data], alternative=alternative)
    assert r.t_test.statistic == pytest.approx(statistic, rel=1e-12)
    assert r.t_test.pvalue == pytest.approx(pvalue, rel=1e-9)
    assert tuple(r.confidence_interval) == pytest.approx(T_INTERVALS[data], rel=1e-12)


def test_cluster_robust_t_matches_statsmodels():
    # statsmodels 0.14: sm.OLS(d, np.ones(15)).fit(cov_type="cluster",
    #     cov_kwds={"groups": BLEU_CLUSTERS}, use_t=True), d = BLEU_A - BLEU_B ->
    # params 1.2333333, bse 0.20279528082755305, t 6.081666833174965,
    # p 0.001737610182523221, df_resid_inference 5, conf_int [0.71203147, 1.7546352].
    r = compare_scores(BLEU_A, BLEU_B, clusters=BLEU_CLUSTERS)
    assert r.clusters == 6
    assert r.t_test.df == 5
    assert r.t_test.standard_error == pytest.approx(0.20279528082755305, rel=1e-10)
    assert r.t_test.statistic == pytest.approx(6.081666833174965, rel=1e-10)
    assert r.t_test.pvalue == pytest.approx(0.001737610182523221, rel=1e-9)
    assert tuple(r.confidence_interval) == pytest.approx((0.71203147, 1.7546352), abs=5e-9)


# scipy 1.17.1: stats.wilcoxon(BLEU_A, BLEU_B, alternative=SCIPY_ALTERNATIVE[alternative],
# method="exact") -> pvalue (statistic: W+ = 101 one-sided, min(W+, W-) = 19 two-sided); the 15
# absolute differences are distinct, so the exact distribution applies.
@pytest.mark.parametrize(
    ("alternative", "pvalue"),
    [("two-sided", 0.01806640625), ("less", 0.009033203125), ("greater", 0.992462158203125)],
)
def test_signed_rank_exact_matches_scipy(alternative, pvalue):
    r = compare_scores(BLEU_A, BLEU_B, alternative=alternative)
    assert r.signed_rank.method == "exact"
    assert r.signed_rank.statistic == 101
    assert r.signed_rank.pvalue == pytest.approx(pvalue, rel=1e-12)


# scipy 1.17.1, on the 8 non-zero grade differences (tied): stats.wilcoxon(nonzero,
# alternative=SCIPY_ALTERNATIVE[alternative]) with method="auto", which at n <= 13 with ties
# runs a permutation test over all 2^8 sign patterns -> pvalue; W+ = 32.5.
@pytest.mark.parametrize(
    ("alternative", "pvalue"),
    [("two-sided", 0.0546875), ("less", 0.02734375), ("greater", 0.99609375)],
)
def test_signed_rank_tied_exact_matches_scipy_permutation(alternative, pvalue):
    r = compare_scores(GRADES_A, GRADES_B, alternative=alternative)
    assert r.signed_rank.method == "exact-conditional"
    assert (r.signed_rank.statistic, r.signed_rank.used, r.signed_rank.zeros) == (32.5, 8, 4)
    assert r.signed_rank.pvalue == pytest.approx(pvalue, rel=1e-12)


def _tied_grades(count: int = 80) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(count)
    a = ((i * 7) % 5) / 4
    b = np.where(i % 11 == 0, a, ((i * 3 + 1) % 4) / 4)
    return a, b


# scipy 1.17.1: a, b = _tied_grades(); stats.wilcoxon(a, b, alternative=SCIPY_ALTERNATIVE[alt],
# method="asymptotic", correction=False) -> pvalue (57 non-zero differences, many ties).
@pytest.mark.parametrize(
    ("alternative", "pvalue"),
    [
        ("two-sided", 0.02779585339877893),
        ("less", 0.013897926699389464),
        ("greater", 0.9861020733006105),
    ],
)
def test_signed_rank_normal_matches_scipy(alternative, pvalue):
    r = compare_scores(*_tied_grades(), alternative=alternative)
    assert r.signed_rank.method == "normal"
    assert r.signed_rank.used == 57
    assert r.signed_rank.pvalue == pytest.approx(pvalue, rel=1e-9)


def _brute_force_p(values, alternative):
    """Share of all 2^n sign patterns at least as extreme (ties within 1e-9)."""
    values = np.asarray(values, dtype=float)
    observed = values.sum()
    count = total = 0
    for signs in itertools.product((1.0, -1.0), repeat=values.size):
        s = float(np.dot(signs, values))
        total += 1
        if alternative == "two-sided":
            count += abs(s) >= abs(observed) - 1e-9
        elif alternative == "greater":  # B higher: the sum of A - B low
            count += s <= observed + 1e-9
        else:
            count += s >= observed - 1e-9
    return count / total


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("data", ["hamilton", "grades", "sleep"])
def test_exact_permutation_p_equals_brute_force(data, alternative):
    a, b = {
        "hamilton": (HAMILTON_X, HAMILTON_Y),
        "grades": (GRADES_A, GRADES_B),
        "sleep": (SLEEP_1, SLEEP_2),
    }[data]
    r = compare_scores(a, b, alternative=alternative)
    assert r.permutation.method == "exact"
    d = np.subtract(a, b)
    assert r.pvalue == pytest.approx(_brute_force_p(d, alternative), rel=1e-12)


def test_exact_permutation_matches_scipy_permutation_test():
    # scipy 1.17.1: stats.permutation_test((x, y), lambda x, y, axis: np.mean(x - y, axis=axis),
    #     permutation_type="samples", vectorized=True, n_resamples=np.inf) -> pvalue
    # 0.02734375 (= 14/512) for the Hamilton data and 0.00390625 (= 4/1024) for the sleep data.
    assert compare_scores(HAMILTON_X, HAMILTON_Y).pvalue == 0.02734375
    assert compare_scores(SLEEP_1, SLEEP_2).pvalue == 0.00390625


def test_cluster_permutation_equals_brute_force_over_cluster_flips():
    r = compare_scores(BLEU_A, BLEU_B, clusters=BLEU_CLUSTERS)
    d = np.subtract(BLEU_A, BLEU_B)
    sums = np.bincount(BLEU_CLUSTERS, weights=d)
    assert r.permutation.method == "exact"
    assert (r.permutation.unit, r.permutation.units, r.permutation.patterns) == ("cluster", 6, 64)
    assert r.pvalue == pytest.approx(_brute_force_p(sums, "two-sided"), rel=1e-12)


def test_singleton_clusters_give_the_unclustered_tests():
    plain = compare_scores(BLEU_A, BLEU_B)
    clustered = compare_scores(BLEU_A, BLEU_B, clusters=list(range(15)))
    assert clustered.t_test.statistic == pytest.approx(plain.t_test.statistic, rel=1e-12)
    assert clustered.t_test.pvalue == pytest.approx(plain.t_test.pvalue, rel=1e-12)
    assert clustered.pvalue == plain.pvalue
    assert clustered.signed_rank.pvalue == plain.signed_rank.pvalue


@pytest.mark.parametrize("alternative", ["two-sided", "less"])
def test_monte_carlo_permutation_within_four_standard_errors_of_binomial(monkeypatch, alternative):
    # All |d| equal: the sign-flip sum is 0.5 (2K - 40), K ~ Binomial(40, 1/2); 27 positives.
    # Exact: two-sided 2 P[K >= 27] = 2 binom.sf(26, 40, 0.5); "less" (A - B high) P[K >= 27].
    # The lattice path (exact by convolution) is switched off so that the sampler runs.
    monkeypatch.setattr(lattice, "MAX_SUPPORT", 0)
    d = np.array([0.5] * 27 + [-0.5] * 13)
    r = compare_scores(d, np.zeros(40), alternative=alternative, resamples=100_000, seed=3)
    exact = stats.binom.sf(26, 40, 0.5) * (2 if alternative == "two-sided" else 1)
    assert r.permutation.method == "monte-carlo"
    assert r.permutation.patterns == 100_000
    assert abs(r.pvalue - exact) <= 4 * r.permutation.standard_error


@pytest.mark.parametrize("values", ["distinct", "repeated"])
def test_monte_carlo_paths_agree_with_brute_force(monkeypatch, values):
    # Below the exact limit, with the limit lowered so that the Monte Carlo sampler runs:
    # random bits per case (distinct magnitudes) and binomial counts per value (two
    # magnitudes: 2 x 4 draws per pattern < 12). The lattice path is switched off.
    monkeypatch.setattr(signflip, "EXACT_MAX_UNITS", 5)
    monkeypatch.setattr(lattice, "MAX_SUPPORT", 0)
    if values == "distinct":
        d = np.array([0.3, -0.1, 0.45, 0.2, -0.05, 0.6, 0.15, -0.35, 0.25, 0.5, -0.2, 0.1])
    else:
        d = np.array([0.25, 0.25, -0.25, 0.5, 0.5, 0.5, -0.5, 0.25, 0.25, 0.5, -0.25, 0.5])
    r = compare_scores(d, np.zeros(12), resamples=200_000, seed=5)
    assert r.permutation.method == "monte-carlo"
    assert abs(r.pvalue - _brute_force_p(d, "two-sided")) <= 4 * r.permutation.standard_error


def test_bca_matches_scipy_bootstrap_within_monte_carlo_error():
    # scipy 1.17.1: stats.bootstrap((d,), np.mean, method="BCa", n_resamples=100_000,
    #     confidence_level=0.95, rng=np.random.default_rng(1)), d = BLEU_A - BLEU_B ->
    # confidence_interval (0.3933333333333323, 2.0199999999999987), standard_error 0.41721.
    # Both are Monte Carlo estimates; with 10^5 resamples each end's error is about 0.01
    # standard errors, so they agree to 0.05 of one.
    r = compare_scores(BLEU_A, BLEU_B, resamples=100_000, seed=1).bootstrap
    se = 0.4172126406678598
    assert r.resamples == 100_000
    assert r.confidence_interval.low == pytest.approx(0.3933333333333323, abs=0.05 * se)
    assert r.confidence_interval.high == pytest.approx(2.0199999999999987, abs=0.05 * se)
    assert r.standard_error == pytest.approx(se, rel=0.02)


def test_clustered_bca_matches_scipy_bootstrap_of_clusters():
    # scipy 1.17.1, the 6 clusters resampled as units (sums and sizes of their differences):
    # stats.bootstrap((sums, sizes), lambda s, n, axis=-1: s.sum(axis=axis) / n.sum(axis=axis),
    #     paired=True, vectorized=True, method="BCa", n_resamples=100_000,
    #     rng=np.random.default_rng(2)) -> confidence_interval (0.9388888888888872,
    #     1.685714285714285), standard_error 0.1921694363346719.
    r = compare_scores(BLEU_A, BLEU_B, clusters=BLEU_CLUSTERS, resamples=100_000, seed=2)
    se = 0.1921694363346719
    assert (r.bootstrap.unit, r.bootstrap.units) == ("cluster", 6)
    low, high = r.bootstrap.confidence_interval
    assert low == pytest.approx(0.9388888888888872, abs=0.05 * se)
    assert high == pytest.approx(1.685714285714285, abs=0.05 * se)


@pytest.mark.parametrize("clustered", [False, True])
def test_acceleration_closed_form_equals_explicit_jackknife(clustered):
    d = np.subtract(BLEU_A, BLEU_B)
    groups = np.array(BLEU_CLUSTERS if clustered else range(15))
    sums = np.bincount(groups, weights=d)
    sizes = np.bincount(groups).astype(float)
    leave_out = np.array(
        [(sums.sum() - sums[g]) / (sizes.sum() - sizes[g]) for g in range(sums.size)]
    )
    u = leave_out.mean() - leave_out
    expected = (u**3).sum() / (6 * (u**2).sum() ** 1.5)
    assert _acceleration(distinct_units(sums, sizes)) == pytest.approx(expected, rel=1e-12)


# mpmath 1.3 (mp.dps = 50): x = df / (df + t**2);
# mpmath.log(mpmath.betainc(df / 2, 0.5, 0, x, regularized=True) / 2) -> log P[T_df >= t].
@pytest.mark.parametrize(
    ("t", "df", "expected"),
    [
        (387.3, 199_999, -55968.48017632045),
        (60.0, 2000, -1034.1182928762434),
        (200.0, 500, -1102.6328448890488),
        (30.0, 1000, -324.92750790107118),
    ],
)
def test_log_t_tail_stays_finite_where_scipy_underflows(t, df, expected):
    assert log_t_sf(t, df) == pytest.approx(expected, rel=1e-12)


def test_t_pvalue_below_double_range_reports_its_log10():
    d = np.arange(1, 200_001) / 200_000
    r = compare_scores(d, np.full(d.size, 0.25))
    assert r.t_test.pvalue == 0.0
    assert r.t_test.log10_pvalue == pytest.approx(-24306.62, abs=0.01)  # t = 387.301, doubled
    assert "p < 1e-300 (log10 p = -24306" in text(r)
