"""Planning under hostile input: every call answers or refuses, naming the bound (issue 16).

The inputs that once ran for minutes, took gigabytes or overflowed are each a test here, checked
for the answer or for a ValueError whose message names the limit. Reference values: the exact
power of a given n is recomputed here by full enumeration over every discordant count, the sum
written out in :func:`full_enumeration` (McNemar 1947; Connor 1987 for the model D ~ Bin(n, psi),
b | D ~ Bin(D, theta)), with rejection decided by the core's exact test (itself checked against
scipy.stats.binomtest in test_planning.py). Connor's (1987) closed form is recomputed from his
formula with scipy's normal quantiles. Nothing is timed here; bench_planning.py times the worst
cases.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats

from calculator.planning import (
    MAX_N,
    connor_n,
    exact_power,
    plan,
    power_curve,
    rejection_limits,
    simulate_optional_stopping,
)
from calculator.planning.power import MAX_TABULATED, limits_at, limits_between


def full_enumeration(n: int, p10: float, p01: float, alpha: float = 0.05) -> float:
    """Power summed over every D = 0..n, with the weights from scipy's binomial pmf."""
    psi = p10 + p01
    discordant = np.arange(n + 1)
    limits = rejection_limits(n, alpha=alpha)
    theta = p10 / psi
    conditional = stats.binom.cdf(limits, discordant, theta) + stats.binom.sf(
        discordant - limits - 1, discordant, theta
    )
    return float(stats.binom.pmf(discordant, n, psi) @ conditional)


# --- the cases that hung, ate memory or overflowed ---------------------------------------------


def test_a_tiny_difference_at_full_disagreement_is_refused_with_the_largest_n_considered() -> None:
    # plan --p10 0.5005 --p01 0.4995 ran for over 400 s and took 1.4 GB.
    with pytest.raises(ValueError, match=r"about 7,848,878 pairs .* the 131,071 pairs a search"):
        plan(p10=0.5005, p01=0.4995)


def test_a_plan_just_past_the_search_bound_is_refused_and_one_inside_answers() -> None:
    with pytest.raises(ValueError, match="more pairs than the 131,071 pairs a search considers"):
        plan(p10=0.503, p01=0.497)  # needs 218,187
    result = plan(p10=0.505, p01=0.495)
    # The smallest n reaching 80%: the power there reaches it and one pair fewer falls short.
    assert result.n == 78_595
    assert exact_power(result.n, 0.505, 0.495) >= 0.8
    assert exact_power(result.n - 1, 0.505, 0.495) < 0.8


def test_a_given_n_beyond_the_bound_is_refused_naming_it() -> None:
    # plan --n 10^10 was killed at 24 GB.
    with pytest.raises(ValueError, match=r"`n` must be .* at most 1,000,000 \(10\^6\)"):
        plan(p10=0.05, p01=0.45, n=10**10)
    with pytest.raises(ValueError, match="`max_n`"):
        plan(p10=0.05, p01=0.45, max_n=MAX_N + 1)
    with pytest.raises(ValueError, match="`n`"):
        exact_power(MAX_N + 1, 0.05, 0.45)
    with pytest.raises(ValueError, match="`max_discordant`"):
        rejection_limits(MAX_N + 1)
    with pytest.raises(ValueError, match="`n_values`"):
        power_curve(0.05, 0.45, [10, MAX_N + 1])


def test_rates_near_1e_170_give_an_answer_or_a_value_error_never_an_overflow() -> None:
    # --p10 1e-170 overflowed: delta^2 underflows to 0 in Connor's formula.
    with pytest.raises(ValueError, match=r"about 2\.4e\+171 pairs by Connor's approximation"):
        plan(p10=1e-170, p01=2e-170)
    result = plan(p10=1e-170, p01=2e-170, n=100)
    assert result.power == pytest.approx(0.0, abs=1e-300)
    assert result.connor_n is not None
    json.dumps(result.to_dict(), allow_nan=False)
    # Subnormal rates: Connor's n passes 10^308, so there is no number to report.
    with pytest.raises(ValueError, match="exceeds 10\\^308"):
        connor_n(1e-310, 2e-310)
    assert plan(p10=1e-310, p01=2e-310, n=100).connor_n is None


def test_connor_n_for_tiny_rates_follows_his_formula() -> None:
    # Connor (1987): n = (z_{1-alpha/2} sqrt(psi) + z_power sqrt(psi - delta^2))^2 / delta^2.
    p10, p01 = 1e-170, 2e-170
    psi, delta = p10 + p01, p10 - p01
    z_alpha, z_power = stats.norm.isf(0.025), stats.norm.ppf(0.8)
    # Scaled by 1e170 so that nothing underflows: n = (z_a sqrt(3) + z_p sqrt(3))^2 1e170.
    expected = (z_alpha * math.sqrt(psi * 1e170) + z_power * math.sqrt(psi * 1e170)) ** 2 / (
        delta * 1e170
    ) ** 2
    assert connor_n(p10, p01) == pytest.approx(expected * 1e170, rel=1e-12)


# --- the largest accepted sizes answer ---------------------------------------------------------


@pytest.mark.parametrize(("p10", "p01"), [(0.25, 0.25), (0.05, 0.45), (0.4, 0.6)])
def test_power_at_the_largest_n_answers_with_a_bounded_curve(p10: float, p01: float) -> None:
    result = plan(p10=p10, p01=p01, n=MAX_N)
    assert 0.0 <= result.power <= 1.0
    assert result.minimum_detectable_difference is not None
    curve = result.power_curve()
    assert 2 <= curve.n.size <= 241 and MAX_N in curve.n.tolist()
    assert curve.n[-1] == 2 * MAX_N
    assert np.all((curve.power >= 0) & (curve.power <= 1))
    json.dumps(result.to_dict(), allow_nan=False)
    json.dumps(curve.to_dict(), allow_nan=False)


def test_many_wide_windows_at_once_are_refused_naming_the_count() -> None:
    sizes = np.linspace(100_000, MAX_N, 200).astype(np.int64)
    with pytest.raises(ValueError, match=f"more than the {MAX_TABULATED:,} one call computes"):
        power_curve(0.25, 0.25, sizes)


@pytest.mark.parametrize(
    ("n", "p10", "p01"), [(500, 0.05, 0.45), (3_000, 0.1, 0.12), (20_000, 0.3, 0.31)]
)
def test_windowed_exact_power_equals_full_enumeration(n: int, p10: float, p01: float) -> None:
    # Only the D carrying all but 1e-15 of the probability are summed.
    assert exact_power(n, p10, p01) == pytest.approx(full_enumeration(n, p10, p01), abs=1e-13)


def test_power_beyond_the_table_equals_windowed_exact_power() -> None:
    # Sizes whose windows end past MAX_TABULATED are computed on their windows alone.
    sizes = np.array([600_000, 1_000_000])
    powers = power_curve(0.4, 0.45, sizes)
    for n, value in zip(sizes, powers, strict=True):
        assert value == pytest.approx(exact_power(int(n), 0.4, 0.45), abs=1e-12)


def test_limits_on_a_range_equal_the_table() -> None:
    table = rejection_limits(200_000)
    assert np.array_equal(limits_between(150_000, 150_500, 0.05, "exact"), table[150_000:150_501])
    points = np.array([199_999, 70_001, 5, 131_072])
    assert np.array_equal(limits_at(points, 0.05, "exact"), table[points])
    chi2_table = rejection_limits(100_000, test="chi2")
    assert np.array_equal(limits_at(points[1:3], 0.05, "chi2"), chi2_table[points[1:3]])


# --- the simulation ------------------------------------------------------------------------------


def test_simulation_bounds_the_draws_held_in_memory() -> None:
    with pytest.raises(ValueError, match=r"`experiments` x `looks` must be at most 2,000,000"):
        simulate_optional_stopping(experiments=1_000_000, looks=3)
    with pytest.raises(ValueError, match="`look_every`"):
        simulate_optional_stopping(look_every=MAX_N + 1)


def test_simulation_with_large_looks_tests_only_the_counts_seen() -> None:
    # 10^6 cases between looks: the discordant counts seen are a few thousand values near
    # 200,000 k, so no table from 0 to 10^7 is built. With one look the rate is the test's size,
    # at most alpha, and the Monte Carlo error at 2,000 experiments is about 0.005.
    result = simulate_optional_stopping(
        look_every=MAX_N, looks=10, disagreement=0.2, experiments=2_000, seed=3
    )
    assert result.false_positive_rate[0] <= 0.05 + 3 * 0.005
    assert np.all(np.diff(result.false_positive_rate) >= 0)
