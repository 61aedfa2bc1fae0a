"""McNemar's exact unconditional test (Suissa-Shuster, Berger-Boos): the published value, a second
implementation in exact rationals, refusals and invariants."""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from calculator.errors import CalculatorError
from calculator.mcnemar import mcnemar_chi2, mcnemar_exact
from calculator.unconditional import (
    DEFAULT_GAMMA,
    MAX_UNCONDITIONAL_N,
    mcnemar_unconditional,
)

# --- R package contingencytables 3.0.0 (Fagerland, Lydersen & Laake), tests/testthat/test-ch8.R:
#   n_short <- floor(cavo_2012 / 10)
#   McNemar_exact_unconditional_test_paired_2x2(n_short)
#     -> "The McNemar exact unconditional test: P = 0.542071"
# cavo_2012 is rbind(c(59, 6), c(16, 80)) (Cavo et al. 2012, complete response before and after
# consolidation therapy; the book's Table 8.3); divided by 10 and floored it is
# rbind(c(5, 0), c(1, 8)): a, b, c, d = 5, 0, 1, 8, n = 14. This is not a published table of the
# book, only the package's own small test case. Defaults: gamma = 0.0001, 1000 equally spaced
# values of pi over the 99.99% Clopper-Pearson interval, maximum on that grid plus gamma.
CONTINGENCYTABLES_CH8 = [
    ((5, 0, 1, 8), 0.542071),
    ((0, 0, 0, 0), 1.0),  # McNemar_exact_unconditional_test_paired_2x2(tea * 0) -> P = 1.000000
]


@pytest.mark.parametrize(("table", "expected"), CONTINGENCYTABLES_CH8)
def test_grid_maximum_reproduces_contingencytables(table, expected):
    result = mcnemar_unconditional(*table, maximisation="grid")
    assert result.pvalue == pytest.approx(expected, abs=5e-7)
    assert result.gamma == DEFAULT_GAMMA == 0.0001


def test_refined_maximum_is_at_least_the_grid_maximum_and_close_to_it():
    grid = mcnemar_unconditional(5, 0, 1, 8, maximisation="grid")
    refined = mcnemar_unconditional(5, 0, 1, 8)
    assert grid.pvalue <= refined.pvalue <= grid.pvalue + 2e-6
    assert grid.nuisance_low <= refined.nuisance_at_maximum <= grid.nuisance_high


# --- A second implementation: every table (x, y, n - x - y) enumerated, its trinomial chance at
# each grid value of pi in exact rationals (fractions.Fraction of the grid's doubles), the
# tables at least as extreme chosen by the integer comparison (x - y)^2 (b + c) >= (b - c)^2
# (x + y). It shares no code with the library: only the grid (its ends checked against scipy's
# beta quantiles here) is the same.


def _exact_tail(b: int, c: int, n: int, pi: Fraction) -> Fraction:
    gap2, seen = (b - c) ** 2, b + c
    total = Fraction(0)
    for x in range(n + 1):
        for y in range(n + 1 - x):
            if x + y == 0 or (x - y) ** 2 * seen < gap2 * (x + y):
                continue
            ways = math.factorial(n) // (
                math.factorial(x) * math.factorial(y) * math.factorial(n - x - y)
            )
            total += ways * (pi / 2) ** (x + y) * (1 - pi) ** (n - x - y)
    return total


def _exact_pvalue(table, gamma: float, points: int) -> Fraction:
    a, b, c, d = table
    n, m = sum(table), b + c
    low = 0.0 if m == 0 else stats.beta.ppf(gamma / 2, m, n - m + 1)
    high = 1.0 if m == n else stats.beta.ppf(1 - gamma / 2, m + 1, n - m)
    result = mcnemar_unconditional(*table, gamma=gamma, grid_points=points, maximisation="grid")
    assert result.nuisance_low == pytest.approx(low, rel=1e-10, abs=1e-15)
    assert result.nuisance_high == pytest.approx(high, rel=1e-10)
    grid = np.linspace(result.nuisance_low, result.nuisance_high, points)
    best = max(_exact_tail(b, c, n, Fraction(float(pi))) for pi in grid)
    return min(Fraction(1), best + Fraction(gamma)), result.pvalue


@pytest.mark.parametrize(
    "table", [(5, 0, 1, 8), (1, 1, 7, 12), (3, 6, 1, 2), (0, 4, 0, 0), (2, 3, 3, 2)]
)
def test_library_agrees_with_exact_rational_enumeration(table):
    exact, library = _exact_pvalue(table, DEFAULT_GAMMA, 41)
    assert library == pytest.approx(float(exact), rel=1e-12, abs=1e-15)


def test_published_table_agrees_with_enumeration_on_the_full_grid():
    exact, library = _exact_pvalue((5, 0, 1, 8), DEFAULT_GAMMA, 1000)
    assert library == pytest.approx(float(exact), rel=1e-12)
    assert round(float(exact), 6) == 0.542071


def test_pvalue_is_one_without_discordant_pairs():
    result = mcnemar_unconditional(10, 0, 0, 4)
    assert result.pvalue == 1.0
    assert result.statistic is None and result.nuisance_at_maximum is None


def test_statistic_is_the_uncorrected_mcnemar_chi_square():
    assert mcnemar_unconditional(3, 9, 2, 5).statistic == mcnemar_chi2(9, 2).statistic


# --- Refusals: the message repeats the bad value and says what is allowed.
REFUSALS = [
    ((-1, 0, 1, 8), {}, "`a` must be a non-negative integer, but got -1."),
    ((5, 0.5, 1, 8), {}, "`b` must be a non-negative integer, but got 0.5."),
    ((5, 0, 1, 8), {"gamma": 1.0}, "`gamma` must be a number from 0 to below 1, but got 1.0."),
    ((5, 0, 1, 8), {"gamma": -0.1}, "`gamma` must be a number from 0 to below 1"),
    ((5, 0, 1, 8), {"grid_points": 1}, "`grid_points` must be an integer from 2 to 100,000"),
    ((5, 0, 1, 8), {"maximisation": "exact"}, '`maximisation` must be one of "refined", "grid"'),
]


@pytest.mark.parametrize(("table", "options", "words"), REFUSALS)
def test_bad_input_is_refused_by_name(table, options, words):
    with pytest.raises(CalculatorError, match=words.replace("(", r"\(").replace(")", r"\)")):
        mcnemar_unconditional(*table, **options)


def test_a_table_beyond_the_computing_bound_is_refused_by_name_and_quickly():
    start = time.perf_counter()
    with pytest.raises(CalculatorError) as caught:
        mcnemar_unconditional(MAX_UNCONDITIONAL_N, 1, 0, 0)
    assert time.perf_counter() - start < 0.5
    assert str(caught.value).startswith(
        f"`n` must be at most {MAX_UNCONDITIONAL_N:,} cases for the exact unconditional test"
    )
    assert f"but got {MAX_UNCONDITIONAL_N + 1}." in str(caught.value)


def test_a_grid_too_fine_for_the_table_is_refused_by_name():
    with pytest.raises(CalculatorError, match="`grid_points` must be at most 2,000 for a table"):
        mcnemar_unconditional(100_000, 0, 0, 0, grid_points=2001)


# --- Invariants.
small = st.integers(min_value=0, max_value=12)


@given(small, small, small, small, st.sampled_from([0.0, 1e-4, 1e-3, 0.05]))
def test_pvalue_lies_in_the_unit_interval_and_is_at_least_gamma(a, b, c, d, gamma):
    result = mcnemar_unconditional(a, b, c, d, gamma=gamma, grid_points=200)
    assert gamma <= result.pvalue <= 1.0 or result.pvalue == 1.0
    assert 0.0 <= result.nuisance_low <= result.nuisance_high <= 1.0


@given(small, small, small, small)
def test_swapping_the_discordant_cells_keeps_the_pvalue(a, b, c, d):
    assert mcnemar_unconditional(a, b, c, d).pvalue == mcnemar_unconditional(a, c, b, d).pvalue


@given(small, small, small, small, st.sampled_from([1e-4, 1e-3, 0.05]))
def test_berger_boos_pvalue_is_at_most_the_unrestricted_supremum_plus_gamma(a, b, c, d, gamma):
    # The restricted search covers a subset of [0, 1], so its maximum is at most the
    # unrestricted one; both are searched numerically, hence the small allowance.
    restricted = mcnemar_unconditional(a, b, c, d, gamma=gamma)
    unrestricted = mcnemar_unconditional(a, b, c, d, gamma=0.0)
    assert restricted.pvalue <= min(1.0, unrestricted.pvalue + gamma) + 1e-7


@given(small, small, small, small)
def test_refining_never_lowers_the_grid_maximum(a, b, c, d):
    grid = mcnemar_unconditional(a, b, c, d, grid_points=50, maximisation="grid")
    refined = mcnemar_unconditional(a, b, c, d, grid_points=50)
    assert refined.pvalue >= grid.pvalue


# --- Far below the doubles, at gamma = 0: with every case discordant one way, (0, 0, 5000, 0),
# only the observed split and its mirror are as extreme, so P(pi) = pi^5000 2^-4999, largest at
# pi = 1: p = 2^-4999, log10 p = -4999 log10(2) = -1504.8489483242...; with n = b + c the
# unconditional test is the exact conditional one, whose log10 p the library has already.
def test_log10_pvalue_is_finite_where_p_underflows():
    result = mcnemar_unconditional(0, 0, 5000, 0, gamma=0.0)
    assert result.pvalue == 0.0
    assert result.log10_pvalue == pytest.approx(-4999 * math.log10(2), rel=1e-12)
    same = mcnemar_unconditional(0, 3, 2000, 0, gamma=0.0)
    assert same.log10_pvalue == pytest.approx(mcnemar_exact(3, 2000).log10_pvalue, rel=1e-12)


@given(small, small, small, small, st.sampled_from([0.0, 1e-4]))
def test_log10_pvalue_is_the_log_of_p(a, b, c, d, gamma):
    result = mcnemar_unconditional(a, b, c, d, gamma=gamma, grid_points=100)
    assert result.log10_pvalue == pytest.approx(math.log10(result.pvalue), abs=1e-12)
