"""The matched-pairs odds ratio b/c and its exact and mid-p conditional intervals."""

import json
import math

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import analyze, mcnemar_exact
from calculator.odds_ratio import odds_ratio

# --- StatsDirect help page "Exact matched pairs" (Liddell 1983 method), example from Armitage &
# Berry (1994, p. 127): two culture media on 50 sputum specimens, 20 / 12 / 2 / 16. Printed:
#   Point estimate of relative risk (R') = 6
#   Exact 95% confidence interval = 1.335744 to 55.197091
#   F = 4, P (two sided) = 0.0129


def test_exact_interval_reproduces_statsdirect_armitage_berry_example():
    result = odds_ratio(12, 2)
    assert result.estimate == 6.0
    assert result.low == pytest.approx(1.335744, abs=5e-7)
    assert result.high == pytest.approx(55.197091, abs=5e-7)
    assert round(mcnemar_exact(12, 2).pvalue, 4) == 0.0129


# --- Own high-precision reference: mpmath 1.3 at 40 digits, solving the defining tail equations
# (binomial sums written out term by term) with mpmath.findroot. Exact: P_t[X >= b] = tail and
# P_t[X <= b] = tail; mid-p: P_t[X > b] + P_t[X = b]/2 = tail and P_t[X < b] + P_t[X = b]/2 =
# tail; t = theta, the odds ratio is t / (1 - t).


def _mp_limits(b, c, level, method):
    mpmath.mp.dps = 40
    m, tail = b + c, (1 - mpmath.mpf(level)) / 2

    def pmf(k, t):
        return mpmath.binomial(m, k) * t**k * (1 - t) ** (m - k)

    def at_least(t):  # P[X >= b] (exact) or P[X > b] + P[X = b]/2 (mid-p)
        above = mpmath.fsum(pmf(k, t) for k in range(b + 1, m + 1))
        return above + (pmf(b, t) if method == "exact" else pmf(b, t) / 2)

    def at_most(t):
        below = mpmath.fsum(pmf(k, t) for k in range(b))
        return below + (pmf(b, t) if method == "exact" else pmf(b, t) / 2)

    def solve(function, target):
        # Bisection on the log-odds scale (function rises with t) to 1e-40, then the odds ratio.
        lo, hi = mpmath.mpf(-80), mpmath.mpf(80)
        for _ in range(140):
            mid = (lo + hi) / 2
            if function(1 / (1 + mpmath.exp(-mid))) < target:
                lo = mid
            else:
                hi = mid
        return mpmath.exp((lo + hi) / 2)

    low = mpmath.mpf(0) if b == 0 else solve(at_least, tail)
    high = mpmath.inf if c == 0 else solve(lambda t: -at_most(t), -tail)
    return low, high


REFERENCE_TABLES = [
    (12, 2, 0.95),
    (4, 12, 0.95),  # the McNemar article's example 70/4/12/14
    (15, 5, 0.95),
    (2, 10, 0.99),
    (0, 7, 0.95),
    (7, 0, 0.90),
    (1, 1, 0.95),
    (25, 25, 0.80),
    (1, 40, 0.95),
    (60, 45, 0.95),
]


@pytest.mark.parametrize("method", ["exact", "mid-p"])
@pytest.mark.parametrize(("b", "c", "level"), REFERENCE_TABLES)
def test_limits_match_mpmath_to_nine_significant_digits(b, c, level, method):
    result = odds_ratio(b, c, level=level, method=method)
    low, high = _mp_limits(b, c, level, method)
    if b == 0:
        assert result.low == 0.0
    else:
        assert result.low == pytest.approx(float(low), rel=1e-9)
    if c == 0:
        assert result.high == math.inf
    else:
        assert result.high == pytest.approx(float(high), rel=1e-9)


@pytest.mark.parametrize("method", ["exact", "mid-p"])
def test_extreme_tables_keep_six_digits(method):
    # 1 against 10^9: the limits are near 1e-11 and 5e-9; reversing b and c inverts them.
    small = odds_ratio(1, 10**9, method=method)
    large = odds_ratio(10**9, 1, method=method)
    assert small.low == pytest.approx(1 / large.high, rel=1e-9)
    assert small.high == pytest.approx(1 / large.low, rel=1e-9)
    assert 0 < small.low < 1e-9 < small.high < 1e-8


def test_zero_cells_give_zero_or_infinite_limits_and_null_in_json():
    assert odds_ratio(0, 5).low == 0.0
    data = odds_ratio(5, 0).to_dict()
    assert data["high"] is None and data["estimate"] is None and data["low"] > 0
    none = odds_ratio(0, 0)
    assert none.estimate is None and none.low == 0.0 and none.high == math.inf
    json.dumps(none.to_dict(), allow_nan=False)


def test_analysis_reports_the_odds_ratio_beside_the_difference():
    data = analyze(70, 4, 12, 14).to_dict()
    assert data["odds_ratio"]["method"] == "exact"
    assert data["odds_ratio"]["estimate"] == pytest.approx(1 / 3)
    assert analyze(70, 4, 12, 14, convention="mid-p").to_dict()["odds_ratio"]["method"] == "mid-p"
    json.dumps(analyze(0, 0, 5, 0).to_dict(), allow_nan=False)


def test_bad_input_is_refused_with_the_argument_named():
    with pytest.raises(ValueError, match="`method`"):
        odds_ratio(1, 2, method="wald")
    with pytest.raises(ValueError, match="`level`"):
        odds_ratio(1, 2, level=1.0)
    with pytest.raises(ValueError, match="`b`"):
        odds_ratio(-1, 2)
    with pytest.raises(TypeError):
        odds_ratio("1", 2)


# --- Compatibility with the tests, over many tables. The levels avoid dyadic values of
# 1 - level, at which an exact p-value can equal alpha and the limit is exactly 1.

counts = st.integers(min_value=0, max_value=300)
levels = st.sampled_from([0.8, 0.9, 0.95, 0.99, 0.999])


@given(counts, counts, levels)
def test_exact_interval_excludes_one_exactly_when_the_exact_test_rejects(b, c, level):
    rejects = mcnemar_exact(b, c).pvalue <= 1 - level
    assert odds_ratio(b, c, level=level).excludes_one == rejects


@given(counts, counts, levels)
def test_mid_p_interval_excludes_one_exactly_when_the_mid_p_test_rejects(b, c, level):
    rejects = mcnemar_exact(b, c, convention="mid-p").pvalue <= 1 - level
    assert odds_ratio(b, c, level=level, method="mid-p").excludes_one == rejects


@given(counts, counts, st.sampled_from(["exact", "mid-p"]))
def test_intervals_nest_contain_the_estimate_and_mirror(b, c, method):
    narrow = odds_ratio(b, c, level=0.9, method=method)
    wide = odds_ratio(b, c, level=0.99, method=method)
    assert wide.low <= narrow.low and narrow.high <= wide.high
    if narrow.estimate is not None:
        assert narrow.low <= narrow.estimate <= narrow.high
    mirror = odds_ratio(c, b, level=0.9, method=method)
    if narrow.low > 0:
        assert mirror.high == pytest.approx(1 / narrow.low, rel=1e-12)
    exact = odds_ratio(b, c, level=0.9)
    if b + c > 0 and method == "mid-p":  # the mid-p interval lies inside the exact one
        assert exact.low <= narrow.low * (1 + 1e-12) and narrow.high <= exact.high * (1 + 1e-12)
