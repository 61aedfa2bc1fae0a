"""Exact operating characteristics (calculator.teaching.operating_characteristics).

Provenance of the reference values:

- Brute force: every table (a, b, c, d) of n pairs, its multinomial probability from
  scipy.stats.multinomial.pmf, each test decided by calculator.mcnemar_exact / mcnemar_chi2 and
  each interval by calculator.difference_interval, one table at a time. This shares no code
  with the summation under test (which works on (m, b) with array formulas and bisection).
- calculator.planning.exact_power: the planning module's own enumeration of the exact and
  chi-square tests' power (tested there against scipy.stats.binomtest and Monte Carlo).
- A seeded Monte Carlo (numpy default_rng(20131), 40,000 tables): the exact figures must lie
  within 4 standard errors sqrt(p (1 - p) / N) of the simulated rates.
- Published sources (Fagerland, Lydersen & Laake's contingencytables R code by complete
  enumeration, the mid-p size claim of Fagerland et al. 2013 over its 9595 scenarios, P. Laud's
  chi-square sizes) are checked in test_teaching_published.py.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from calculator import CI_METHODS, difference_interval, mcnemar_chi2, mcnemar_exact
from calculator.intervals import VECTORISED
from calculator.planning import exact_power
from calculator.teaching import operating_characteristics
from calculator.teaching.operating import MAX_COSTLY_TABLES, MAX_N, OC_TESTS, rejection_limits

TESTS = {
    "exact": lambda b, c: mcnemar_exact(b, c).pvalue,
    "mid-p": lambda b, c: mcnemar_exact(b, c, convention="mid-p").pvalue,
    "chi2": lambda b, c: mcnemar_chi2(b, c).pvalue,
    "chi2-corrected": lambda b, c: mcnemar_chi2(b, c, correction=True).pvalue,
}


def _tables(n: int):
    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c in range(n + 1 - a - b):
                yield a, b, c, n - a - b - c


def _brute_force(n, p11, p10, p01, alpha, level, methods=CI_METHODS):
    cells = [p11, p10, p01, 1 - p11 - p10 - p01]
    rejection = dict.fromkeys(TESTS, 0.0)
    coverage = dict.fromkeys(CI_METHODS, 0.0)
    width = dict.fromkeys(CI_METHODS, 0.0)
    for table in _tables(n):
        weight = stats.multinomial.pmf(table, n, cells)
        a, b, c, d = table
        for key, pvalue in TESTS.items():
            rejection[key] += weight * (pvalue(b, c) <= alpha)
        for method in methods:
            low, high = difference_interval(a, b, c, d, level=level, method=method).interval
            coverage[method] += weight * (low <= p10 - p01 <= high)
            width[method] += weight * (high - low)
    return rejection, coverage, width


# --- reference: brute force over every table ------------------------------------------------


@pytest.mark.parametrize(
    ("n", "p11", "p10", "p01", "alpha", "level"),
    [
        (12, 0.3, 0.25, 0.1, 0.05, 0.95),
        (9, 0.1, 0.2, 0.2, 0.1, 0.9),
        (4, 0.5, 0.3, 0.05, 0.05, 0.95),
    ],
)
def test_matches_brute_force_over_every_table(n, p11, p10, p01, alpha, level) -> None:
    # Table-by-table methods are computed only up to n = 4 (15 tables of (m, b)).
    methods = CI_METHODS if n <= 4 else tuple(VECTORISED)
    rejection, coverage, width = _brute_force(n, p11, p10, p01, alpha, level, methods)
    result = operating_characteristics(n, p10, p01, p11=p11, alpha=alpha, level=level)
    for test in result.tests:
        assert test.power == pytest.approx(rejection[test.test], abs=1e-12), test.test
    for interval in result.intervals:
        if interval.coverage is None:  # a table-by-table method past its table limit
            assert interval.note and interval.method not in VECTORISED
            continue
        assert interval.coverage == pytest.approx(coverage[interval.method], abs=1e-12)
        # Tango's limits are within 1.9e-6 each (20 bisections), so its width within 4e-6.
        assert interval.mean_width == pytest.approx(width[interval.method], abs=5e-6)


def test_size_is_power_at_equal_discordant_cells() -> None:
    # Size: the null with the same disagreement, p10 = p01 = (0.25 + 0.1) / 2.
    rejection, _, _ = _brute_force(12, 0.3, 0.175, 0.175, 0.05, 0.95, methods=())
    result = operating_characteristics(12, 0.25, 0.1, p11=0.3)
    for test in result.tests:
        assert test.size == pytest.approx(rejection[test.test], abs=1e-12)


@pytest.mark.parametrize(("n", "p10", "p01"), [(100, 0.15, 0.05), (500, 0.2, 0.25), (37, 0.5, 0.1)])
def test_exact_and_chi2_power_match_the_planning_enumeration(n, p10, p01) -> None:
    result = {t.test: t for t in operating_characteristics(n, p10, p01).tests}
    assert result["exact"].power == pytest.approx(exact_power(n, p10, p01), abs=1e-11)
    assert result["chi2"].power == pytest.approx(exact_power(n, p10, p01, test="chi2"), abs=1e-11)
    psi = p10 + p01
    assert result["exact"].size == pytest.approx(exact_power(n, psi / 2, psi / 2), abs=1e-11)


@pytest.mark.parametrize("test", list(OC_TESTS))
def test_rejection_limits_agree_with_the_core_tests(test: str) -> None:
    discordant = np.arange(0, 301)
    for alpha in (0.01, 0.05):
        limits = rejection_limits(discordant, test, alpha)
        for m in discordant[::3]:
            k = int(limits[m])
            if k >= 0:
                assert TESTS[test](k, m - k) <= alpha * (1 + 1e-9), (m, k)
            if k + 1 <= m // 2:
                assert TESTS[test](k + 1, m - k - 1) > alpha, (m, k)


def test_array_limits_equal_the_scalar_intervals_on_every_small_table() -> None:
    z = stats.norm.isf(0.025)
    tables = np.array([t for n in (1, 2, 7, 20) for t in _tables(n)], dtype=np.float64)
    a, b, c, d = tables.T
    for method, limits in VECTORISED.items():
        low, high = limits(a, b, c, d, z)
        low, high = np.clip(low, -1, 1), np.clip(high, -1, 1)
        # Tango's ends come from 20 bisections (within 1.9e-6); the closed forms are exact.
        tolerance = 2e-6 if method == "tango" else 1e-12
        for row, lo, hi in zip(tables.astype(int), low, high, strict=True):
            expected = difference_interval(*row, method=method).interval
            assert lo == pytest.approx(expected[0], abs=tolerance), (method, row)
            assert hi == pytest.approx(expected[1], abs=tolerance), (method, row)


# --- reference: seeded Monte Carlo ----------------------------------------------------------


def test_agrees_with_a_seeded_monte_carlo() -> None:
    n, cells, draws = 60, [0.45, 0.2, 0.1, 0.25], 40_000
    rng = np.random.default_rng(20131)
    tables, counts = np.unique(rng.multinomial(n, cells, size=draws), axis=0, return_counts=True)
    rejected = dict.fromkeys(TESTS, 0)
    covered = dict.fromkeys(("wald", "agresti-min", "newcombe", "tango"), 0)
    for (a, b, c, d), count in zip(tables, counts, strict=True):
        for key, pvalue in TESTS.items():
            rejected[key] += count * (pvalue(int(b), int(c)) <= 0.05)
        for method in covered:
            low, high = difference_interval(int(a), int(b), int(c), int(d), method=method).interval
            covered[method] += count * (low <= 0.1 <= high)
    result = operating_characteristics(n, 0.2, 0.1, p11=0.45)
    for test in result.tests:
        rate = rejected[test.test] / draws
        se = math.sqrt(test.power * (1 - test.power) / draws)
        assert abs(rate - test.power) < 4 * se, test.test
    for interval in result.intervals:
        if interval.method in covered:
            rate = covered[interval.method] / draws
            se = math.sqrt(interval.coverage * (1 - interval.coverage) / draws)
            assert abs(rate - interval.coverage) < 4 * se, interval.method


# --- what the figures show ------------------------------------------------------------------


def test_wald_undercovers_with_few_discordant_pairs() -> None:
    # Wald's interval has zero width when b = c = 0, which is likely when disagreement is rare.
    result = {i.method: i for i in operating_characteristics(50, 0.02, 0.0).intervals}
    assert result["wald"].coverage < 0.7 < result["agresti-min"].coverage


def test_every_interval_method_is_listed_in_order() -> None:
    result = operating_characteristics(3, 0.2, 0.1)
    assert tuple(i.method for i in result.intervals) == CI_METHODS


def test_newcombe_past_its_table_limit_says_why() -> None:
    result = {i.method: i for i in operating_characteristics(2000, 0.15, 0.05).intervals}
    assert result["newcombe"].coverage is None
    assert "both-pass" in result["newcombe"].note
    assert result["tango"].coverage == pytest.approx(0.95, abs=0.005)


def test_no_disagreement_at_all() -> None:
    result = operating_characteristics(30, 0.0, 0.0)
    assert all(t.size == 0.0 and t.power == 0.0 for t in result.tests)
    assert {i.method: i.coverage for i in result.intervals}["wald"] == 1.0


def test_to_dict_is_strict_json_with_null_where_not_computed() -> None:
    data = operating_characteristics(2000, 0.15, 0.05).to_dict()
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text)["tests"][0]["test"] == "exact"
    assert data["truncation_error"] < 1e-10


@pytest.mark.parametrize(
    ("args", "kwargs", "error"),
    [
        ((0, 0.1, 0.1), {}, ValueError),
        ((MAX_N + 1, 0.1, 0.1), {}, ValueError),
        ((10.5, 0.1, 0.1), {}, ValueError),
        (("10", 0.1, 0.1), {}, TypeError),
        ((10, 0.7, 0.4), {}, ValueError),
        ((10, -0.1, 0.4), {}, ValueError),
        ((10, 0.1, 0.1), {"p11": 0.9}, ValueError),
        ((10, 0.1, 0.1), {"alpha": 0.0}, ValueError),
        ((10, 0.1, 0.1), {"level": 1.0}, ValueError),
    ],
)
def test_bad_input_is_refused(args, kwargs, error) -> None:
    with pytest.raises(error):
        operating_characteristics(*args, **kwargs)


# --- properties -----------------------------------------------------------------------------


cells = st.tuples(st.floats(min_value=0, max_value=1), st.floats(min_value=0, max_value=1)).map(
    lambda pair: (pair[0] * (1 - pair[1] / 2), pair[1] / 2 * (1 - pair[0]))
)


@settings(max_examples=40)
@given(n=st.integers(min_value=1, max_value=300), cells=cells)
def test_probabilities_stay_in_range_and_the_exact_test_keeps_its_level(n, cells) -> None:
    p10, p01 = cells
    result = operating_characteristics(n, p10, p01)
    for test in result.tests:
        assert 0.0 <= test.size <= 1.0 and 0.0 <= test.power <= 1.0
    exact = {t.test: t for t in result.tests}
    assert exact["exact"].size <= 0.05 + 1e-12
    assert exact["chi2-corrected"].size <= exact["chi2"].size + 1e-12
    for interval in result.intervals:
        if interval.coverage is not None:
            assert 0.0 <= interval.coverage <= 1.0
            assert 0.0 <= interval.mean_width <= 2.0


@settings(max_examples=40)
@given(n=st.integers(min_value=1, max_value=500), psi=st.floats(min_value=0, max_value=1))
def test_power_equals_size_when_the_systems_are_equal(n, psi) -> None:
    for test in operating_characteristics(n, psi / 2, psi / 2).tests:
        assert test.power == pytest.approx(test.size, abs=1e-12)


def test_exact_size_keeps_alpha_over_a_grid() -> None:
    for n, psi in itertools.product((5, 17, 60, 250, 1000), (0.05, 0.3, 0.7, 1.0)):
        size = operating_characteristics(n, psi / 2, psi / 2).tests[0].size
        assert size <= 0.05, (n, psi)


@pytest.mark.parametrize(
    ("p10", "p01"), [(1.1125369292536007e-308, 0.0), (0.0, 5e-324), (1e-20, 1e-18)]
)
def test_vanishing_disagreement_is_no_error(p10, p01):
    # Found by the hypothesis test above in CI: Boost's binomial pmf overflowed at a subnormal
    # rate (OverflowError in ibeta_derivative). With n p below the tail bound every table has
    # b = c = 0, so no test can reject.
    result = operating_characteristics(3, p10, p01)
    assert all(test.size == 0.0 and test.power == 0.0 for test in result.tests)
    coverage = {interval.method: interval.coverage for interval in result.intervals}
    assert all(value is None or 0.0 <= value <= 1.0 for value in coverage.values())
    # Agresti-Min's interval at b = c = 0 has positive width around 0, so it always covers.
    assert coverage["agresti-min"] == pytest.approx(1.0)


def test_exact_compatible_coverage_is_computed_at_classroom_sizes() -> None:
    # Issue 25: "not computed" from n = 5 before the method had an array form. Its coverage is
    # checked against the brute force over every table (test_matches_brute_force_over_every_table,
    # n = 9 and 12); here it is computed up to the bound and is at least the level (the
    # interval is compatible with the exact test, which is conservative).
    for n, p10, p01 in [(5, 0.2, 0.1), (30, 0.3, 0.3), (50, 0.3, 0.3), (100, 0.15, 0.05)]:
        result = {i.method: i for i in operating_characteristics(n, p10, p01).intervals}
        interval = result["exact-compatible"]
        assert interval.note is None, n
        assert 0.95 <= interval.coverage <= 1.0 and 0 < interval.mean_width < 2, n


def test_exact_compatible_past_its_table_bound_says_where_the_bound_is() -> None:
    result = {i.method: i for i in operating_characteristics(60, 0.3, 0.3).intervals}
    interval = result["exact-compatible"]
    assert interval.coverage is None and interval.mean_width is None
    assert "n = 60 " in interval.note and f"{MAX_COSTLY_TABLES:,}" in interval.note
