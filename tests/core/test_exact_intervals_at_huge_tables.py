"""Exact intervals at tables the page and the command line accept, up to n = 10^12.

scipy's Beta inverse (``special.betaincinv``) can be far off for large shape parameters, and
the exact-compatible and odds-ratio intervals used it unchecked: at these tables they returned
limits off by half their width, a low limit above the high one, or stopped with a root-finder
error. Every inverse is now verified by its forward function and refined when it misses
(:func:`calculator.tails.beta_quantile`).

References were computed with mpmath 1.3.0 at 30 significant digits:

- Beta quantiles and odds-ratio limits: Illinois false position on
  ``mpmath.betainc(a, b, 0, x, regularized=True) - 0.025`` (lower tail) or
  ``mpmath.betainc(a, b, x, 1, regularized=True) - 0.025`` (upper tail) to 1e-25 relative, the
  odds ratio being theta / (1 - theta).
- Exact-compatible limits: the defining equation P_U(delta) = 0.025 of Fay & Lumbard (2021),
  P_U(delta) = P[T (2B - 1) >= delta] with B ~ Beta(b + 1, c) and T ~ Beta(m + 1, n - m)
  (delta >= 0) or Beta(m, n - m + 1) (delta < 0), integrated over t with the Beta density by
  ``mpmath.quad`` with breakpoints at T's mean +/- j sd (j = -12..12) (the integrand of
  tests/core/test_exact_compatible.py's ``_mp_upper_tail`` with those breakpoints), then one
  Newton step from the calculator's limit with a finite-difference slope (step 1e-6 relative).
  The lower limit of (b, c) is minus the upper limit of (c, b).
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from calculator import difference_interval, odds_ratio
from calculator.fay_lumbard import exact_compatible_limits, upper_tail_probability
from calculator.tails import QUANTILE_RTOL, ULP_WINDOW, beta_quantile


def test_beta_quantile_is_verified_where_scipy_misses():
    # scipy 1.x: betaincinv(1000, 1e9, 0.025) = 1.9e-6, where betainc gives 1.0.
    assert special.betainc(1000, 1e9, special.betaincinv(1000, 1e9, 0.025)) > 0.5  # the bug
    x = beta_quantile(1000, 1e9, 0.025)
    assert x == pytest.approx(9.3897210855639634042e-7, rel=1e-12)
    assert special.betainc(1000, 1e9, x) == pytest.approx(0.025, rel=QUANTILE_RTOL)
    upper = beta_quantile(1000, 1e9, 0.975, upper=True)
    assert upper == pytest.approx(9.3897210855639634042e-7, rel=1e-9)


# b, c, n, low, high: the tables of issue 23 (a = n - b - c, d = 0).
MPMATH_EXACT_COMPATIBLE = [
    # ?a=199999001&b=249&c=750&d=0: the low limit was -830/n, the method's is about -564/n.
    (249, 750, 200_000_000, -2.8223167256287693e-6, -2.1902033863531697e-6),
    # n = 10^10: the root-finder stopped with "f(a) and f(b) must have different signs".
    (249, 750, 10**10, -5.6446339275235903e-8, -4.3804064766839072e-8),
    # n = 10^12: the low limit (-5.65e-10) was above the high one (-9.39e-10).
    (249, 751, 10**12, -5.6549483343811346e-10, -4.390096091002408e-10),
]


@pytest.mark.parametrize(("b", "c", "n", "low", "high"), MPMATH_EXACT_COMPATIBLE)
def test_exact_compatible_limits_at_huge_tables_match_mpmath(b, c, n, low, high):
    got_low, got_high = exact_compatible_limits(b, c, n, 0.95)
    assert got_low == pytest.approx(low, rel=1e-10)
    assert got_high == pytest.approx(high, rel=1e-10)
    ci = difference_interval(n - b - c, b, c, 0, method="exact-compatible")
    assert ci.low <= ci.estimate <= ci.high


def test_odds_ratio_at_a_billion_discordant_pairs_contains_its_estimate():
    # ?a=0&b=1000&c=1000000000&d=0 read "1.00e-06 (95% CI 1.90e-06 to 1.06e-06)".
    result = odds_ratio(1000, 10**9)
    assert result.low == pytest.approx(9.3897298928687188918e-7, rel=1e-10)
    assert result.high == pytest.approx(1.0639521700373001476e-6, rel=1e-10)
    assert result.low <= result.estimate <= result.high
    mid = odds_ratio(1000, 10**9, method="mid-p")
    assert result.low <= mid.low <= mid.estimate <= mid.high <= result.high


# --- properties over huge tables ------------------------------------------------------------

huge_tables = st.tuples(
    st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**12)
).filter(lambda t: sum(t) > 0)


def _tail_holds(value: float, tail: float) -> bool:
    return math.isclose(value, tail, rel_tol=1e-7)


@settings(max_examples=12)
@given(huge_tables, st.sampled_from([0.9, 0.95, 0.99]))
def test_exact_compatible_limits_are_ordered_contain_the_estimate_and_solve_their_equation(
    table, level
):
    b, c, rest = table
    n = b + c + rest
    low, high = exact_compatible_limits(b, c, n, level)
    estimate = (b - c) / n
    assert -1 <= low <= estimate <= high <= 1
    tail = (1 - level) / 2
    if abs(high) > 0 and high < 1 and c > 0 and b + c < n:
        assert _tail_holds(upper_tail_probability(high, b, c, n), tail)
    if abs(low) > 0 and low > -1 and b > 0 and b + c < n:
        assert _tail_holds(upper_tail_probability(-low, c, b, n), tail)


@settings(max_examples=40)
@given(st.integers(0, 10**12), st.integers(0, 10**12), st.sampled_from(["exact", "mid-p"]))
def test_odds_ratio_limits_are_ordered_and_contain_the_estimate(b, c, method):
    result = odds_ratio(b, c, method=method)
    assert 0 <= result.low <= result.high
    if result.estimate is not None:
        assert result.low <= result.estimate <= result.high


# Shapes up to 10^10: beyond, scipy's forward function itself (betainc) varies by about 1e-5
# relative from one double to the next near the centre (a = b = 5.5e10), and no quantile can
# be checked to better than that.
@settings(max_examples=60)
@given(
    st.floats(1, 1e10),
    st.floats(1, 1e10),
    st.floats(1e-12, 0.5),
    st.booleans(),
)
def test_beta_quantile_satisfies_its_forward_function(a, b, p, upper):
    x = beta_quantile(a, b, p, upper=upper)
    forward = special.betaincc if upper else special.betainc
    value = forward(a, b, x)
    if not math.isclose(value, p, rel_tol=QUANTILE_RTOL):
        # Only where no double near x does visibly better: p lies within the forward
        # function's values at the doubles up to ULP_WINDOW either side.
        near, down, up = [value], x, x
        for _ in range(ULP_WINDOW):
            down, up = np.nextafter(down, -np.inf), np.nextafter(up, np.inf)
            near += [forward(a, b, down), forward(a, b, up)]
        assert min(near) <= p <= max(near)
