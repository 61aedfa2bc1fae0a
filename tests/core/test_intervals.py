"""Confidence intervals for the paired difference, against published values with provenance."""

import math

import numpy as np
import pytest
from scipy import optimize, special

from calculator import CI_METHODS, difference_interval
from calculator.intervals import VECTORISED, difference_limits

# --- R package contingencytables (Fagerland, Lydersen & Laake's package for their 2017 book
# "Statistical Analysis of Contingency Tables"), tests/testthat/test-ch8.R, Cavo (2012) data
# rbind(c(59, 6), c(16, 80)), i.e. a, b, c, d = 59, 6, 16, 80; printed to 4 decimals:
#   The Wald CI: estimate = -0.0621 (95% CI -0.1184 to -0.0058)
#   ... Agresti-Min adjustment: estimate = -0.0621 (95% CI -0.1182 to -0.0045)
#   ... Bonett-Price adjustment: estimate = -0.0621 (95% CI -0.1195 to -0.0032)
#   Newcombe square-and-add: estimate = -0.0621 (95% CI -0.1186 to -0.0046)
#   Tango asymptotic score CI: estimate = -0.0621 (95% CI -0.1240 to -0.0054)
CAVO_2012 = [
    ("wald", -0.1184, -0.0058),
    ("agresti-min", -0.1182, -0.0045),
    ("bonett-price", -0.1195, -0.0032),
    ("newcombe", -0.1186, -0.0046),
    ("tango", -0.1240, -0.0054),
]


@pytest.mark.parametrize(("method", "low", "high"), CAVO_2012)
def test_every_method_reproduces_contingencytables_on_cavo_2012(method, low, high):
    ci = difference_interval(59, 6, 16, 80, method=method)
    assert round(ci.estimate, 4) == -0.0621
    assert ci.low == pytest.approx(low, abs=5e-5)
    assert ci.high == pytest.approx(high, abs=5e-5)


# --- Newcombe (1998), Stat Med 17:2635, Table III, method 10, 95%, cells e, f, g, h = a, b, c, d
# (as copied into public test suites; one row, 1, 97, 1, 1, is left out: the printed 0.8736 is
# inconsistent with the same copy's method 8 value 0.8737, which must be equal there).
NEWCOMBE_TABLE_III = [
    ((36, 12, 2, 0), 0.0569, 0.3404),
    ((20, 12, 2, 16), 0.0562, 0.3292),  # also StatsDirect's matched-pairs odds-ratio example
    ((18, 12, 2, 18), 0.0562, 0.3290),
    ((36, 14, 0, 0), 0.1528, 0.4167),
    ((35, 14, 0, 1), 0.1461, 0.4175),
    ((18, 14, 0, 18), 0.1441, 0.3963),
    ((2, 97, 1, 0), 0.8721, 0.9854),
    ((0, 29, 1, 0), 0.6666, 0.9882),
    ((2, 98, 0, 0), 0.9178, 0.9945),
    ((1, 98, 0, 1), 0.9171, 0.9916),
    ((0, 30, 0, 0), 0.8395, 1.0),
    ((54, 0, 0, 0), -0.0664, 0.0664),
    ((53, 0, 0, 1), -0.0729, 0.0729),
    ((30, 0, 0, 24), -0.0358, 0.0358),
    ((29, 0, 0, 25), -0.0354, 0.0354),
    ((28, 0, 0, 26), -0.0352, 0.0352),
    ((27, 0, 0, 27), -0.0351, 0.0351),  # method 8 collapses to [0, 0] here; method 10 does not
]


@pytest.mark.parametrize(("table", "low", "high"), NEWCOMBE_TABLE_III)
def test_newcombe_reproduces_his_table_iii(table, low, high):
    ci = difference_interval(*table, method="newcombe")
    assert ci.low == pytest.approx(low, abs=5e-5)
    assert ci.high == pytest.approx(high, abs=5e-5)


# --- R package PropCIs, documented example output (PropCIs defines the difference as (c - b)/n,
# so its b and c are swapped relative to ours, and the sign flips):
#   diffpropci.mp(b = 40, c = 20, n = 160)      -> -0.21601726 -0.03089632  (Agresti-Min)
#   diffpropci.Wald.mp(b = 3, c = 9, n = 32)    -> -0.01448204  0.38948204  (Wald)
def test_agresti_min_matches_propcis_diffpropci_mp():
    ci = difference_interval(100, 20, 40, 0, method="agresti-min")
    assert ci.low == pytest.approx(-0.21601726, abs=5e-9)
    assert ci.high == pytest.approx(-0.03089632, abs=5e-9)


def test_wald_matches_propcis_diffpropci_wald_mp():
    ci = difference_interval(20, 9, 3, 0, method="wald")
    assert ci.low == pytest.approx(-0.01448204, abs=5e-9)
    assert ci.high == pytest.approx(0.38948204, abs=5e-9)


# --- Fagerland, Lydersen & Laake (2014), Stat Med 33:2850, Table V, airway hyper-responsiveness
# data (a, b, c, d = 1, 1, 7, 12), three decimals.
@pytest.mark.parametrize(
    ("method", "low", "high"), [("tango", -0.517, -0.026), ("newcombe", -0.507, -0.026)]
)
def test_fagerland_2014_ahr_example(method, low, high):
    ci = difference_interval(1, 1, 7, 12, method=method)
    assert ci.low == pytest.approx(low, abs=5e-4)
    assert ci.high == pytest.approx(high, abs=5e-4)


def test_seed_page_agresti_min_interval():
    # calculator-page.txt: 60, 15, 5, 20 -> +10.0 pts, 95% CI +1.2 to +18.4 pts (Agresti-Min).
    ci = difference_interval(60, 15, 5, 20)
    assert (round(100 * ci.estimate, 1), round(100 * ci.low, 1), round(100 * ci.high, 1)) == (
        10.0,
        1.2,
        18.4,
    )
    assert ci.method == "agresti-min" and ci.level == 0.95


def test_tango_limits_are_roots_of_the_score_statistic():
    # Independent check of the root finding: |T(limit)| = z at both interior limits, with T
    # written out from Tango (1998).
    a, b, c, d = 20, 12, 2, 16
    n = a + b + c + d
    z = special.ndtri(0.975)

    def score(d0):
        big_a, big_b, big_c = 2 * n, -b - c + (2 * n - b + c) * d0, -c * d0 * (1 - d0)
        q = (math.sqrt(big_b**2 - 4 * big_a * big_c) - big_b) / (2 * big_a)
        return (b - c - n * d0) / math.sqrt(n * (2 * q + d0 * (1 - d0)))

    ci = difference_interval(a, b, c, d, method="tango")
    assert score(ci.low) == pytest.approx(z, abs=1e-9)
    assert score(ci.high) == pytest.approx(-z, abs=1e-9)
    assert optimize.brentq(lambda x: score(x) - z, -0.99, 0.2) == pytest.approx(ci.low, abs=1e-12)


@pytest.mark.parametrize("method", CI_METHODS)
def test_wider_at_higher_level(method):
    low_level = difference_interval(60, 15, 5, 20, level=0.5, method=method)
    high_level = difference_interval(60, 15, 5, 20, level=0.999, method=method)
    assert high_level.low < low_level.low < low_level.high < high_level.high


@pytest.mark.parametrize("method", CI_METHODS)
@pytest.mark.parametrize(
    "table",
    [
        (0, 0, 0, 1),
        (1, 0, 0, 0),
        (0, 1, 0, 0),
        (0, 0, 1, 0),
        (0, 0, 5000, 0),
        (10**9,) * 4,
        (0, 10**9, 0, 0),
        (3, 4, 4, 3),
    ],
)
def test_extreme_tables_give_finite_limits_in_range(method, table):
    ci = difference_interval(*table, method=method)
    assert -1.0 <= ci.low <= ci.estimate <= ci.high <= 1.0
    assert all(math.isfinite(v) for v in (ci.low, ci.high))


def test_wald_collapses_without_discordant_pairs():
    # Why Wald is offered for teaching only: zero width when b + c = 0.
    ci = difference_interval(10, 0, 0, 10, method="wald")
    assert ci.low == ci.high == 0.0


def test_interval_needs_a_case_and_a_valid_level_and_method():
    with pytest.raises(ValueError, match="empty"):
        difference_interval(0, 0, 0, 0)
    with pytest.raises(ValueError, match="`level` must be a number strictly between 0 and 1"):
        difference_interval(1, 2, 3, 4, level=1.0)
    with pytest.raises(ValueError, match="`method` must be one of"):
        difference_interval(1, 2, 3, 4, method="exact")


def test_interval_unpacks_as_low_high():
    low, high = difference_interval(60, 15, 5, 20).interval
    assert low < high


def test_tango_keeps_its_digits_near_the_boundary():
    # 0, 0, c, 1 with c = 25,978,719: high-precision bisection of T(D0) = -/+z (mpmath, 50 digits)
    # gives -0.99999999320503259 to -0.99999966576812262; the direct formula cancels in
    # 2q + D0(1 - D0) near D0 = -1 and used to miss the lower limit by 1.3e-8.
    ci = difference_interval(0, 0, 25_978_719, 1, method="tango")
    assert ci.low == pytest.approx(-0.99999999320503259, abs=1e-13)
    assert ci.high == pytest.approx(-0.99999966576812262, abs=1e-13)
    mirrored = difference_interval(0, 25_978_719, 0, 1, method="tango")
    assert (mirrored.low, mirrored.high) == (-ci.high, -ci.low)


def test_every_method_is_registered_once_with_its_array_form():
    # Adding a method takes its module and its registration: a key in CI_METHOD_NAMES without
    # an array form in VECTORISED (or the reverse) would leave the page, the teaching sums or
    # compare without it.
    assert set(VECTORISED) == set(CI_METHODS)
    for method in CI_METHODS:
        a, b, c, d = (np.array([v], dtype=np.float64) for v in (60, 15, 5, 20))
        low, high = difference_limits(a, b, c, d, level=0.9, method=method)
        ci = difference_interval(60, 15, 5, 20, level=0.9, method=method)
        assert (float(low[0]), float(high[0])) == (ci.low, ci.high), method
