"""Power, sample size and optional stopping (calculator.planning).

Provenance of the reference values is stated above each table or test: hand arithmetic written
out in comments, scipy.stats.binomtest and the core's own tests as independent deciders of
rejection, Connor (1987) for his approximation, seeded brute-force Monte Carlo with a tolerance
derived from its standard error, and brute-force scans of every n for the saw-tooth.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from calculator import mcnemar_chi2, mcnemar_exact
from calculator.planning import (
    cells_from_rates,
    connor_n,
    exact_power,
    minimum_detectable_difference,
    plan,
    power_curve,
    rejection_limits,
    simulate_optional_stopping,
)

# --- rejection region --------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1, 0.2])
def test_exact_limits_match_scipy_binomtest(alpha: float) -> None:
    # Reference: scipy.stats.binomtest(k, D, 0.5).pvalue (two-sided). For p = 1/2 the null is
    # symmetric, so scipy's "as likely or less" rule equals the doubling convention. The p-value
    # rises with k up to D/2, so checking k(D) (rejected) and k(D) + 1 (not) pins the region.
    limits = rejection_limits(150, alpha=alpha)
    assert limits[0] == -1  # no discordant pairs: p = 1
    for discordant in range(1, 151):
        k = int(limits[discordant])
        if k >= 0:
            assert stats.binomtest(k, discordant, 0.5).pvalue <= alpha, discordant
        if k + 1 <= discordant // 2:
            assert stats.binomtest(k + 1, discordant, 0.5).pvalue > alpha, discordant


@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_limits_agree_with_the_core_tests(alpha: float) -> None:
    # The region must be exactly where calculator.mcnemar_exact / mcnemar_chi2 give p <= alpha.
    exact = rejection_limits(400, alpha=alpha)
    chi2 = rejection_limits(400, alpha=alpha, test="chi2")
    for discordant in range(1, 401, 7):
        for limits, pvalue in (
            (exact, lambda b, c: mcnemar_exact(b, c).pvalue),
            (chi2, lambda b, c: mcnemar_chi2(b, c).pvalue),
        ):
            k = int(limits[discordant])
            if k >= 0:
                assert pvalue(k, discordant - k) <= alpha
            if k + 1 <= discordant // 2:
                assert pvalue(k + 1, discordant - k - 1) > alpha


def test_limits_never_fall_and_rise_by_at_most_one() -> None:
    for test in ("exact", "chi2"):
        steps = np.diff(rejection_limits(20_000, alpha=0.05, test=test))
        assert set(np.unique(steps)) <= {0, 1}


# --- exact power: hand-computed cases ----------------------------------------------------------

# Exact test at alpha = 0.05 (doubling): D <= 5 never rejects (2 * 2^-5 = 0.0625 > 0.05);
# D = 6, 7, 8 reject only 0 vs D (2 * 2^-6 = 0.03125; 2 * 7/64 = 0.219 is too big for k = 1).
# So with p10 = 0.3, p01 = 0.5 (psi = 0.8, 1 - psi = 0.2):
#   n = 5: power 0.
#   n = 6: P(all six discordant, all one way) = 0.3^6 + 0.5^6 = 0.000729 + 0.015625 = 0.016354.
#   n = 7: D = 7: 0.3^7 + 0.5^7 = 0.0002187 + 0.0078125 = 0.0080312;
#          D = 6: C(7,6) * 0.2 * (0.3^6 + 0.5^6) = 7 * 0.2 * 0.016354 = 0.0228956;
#          total 0.0309268.
# Chi-square at alpha = 0.05 (critical 3.8415): D = 4 rejects 0 vs 4 (X2 = 16/4 = 4), D <= 3
# never (X2 <= 3), so n = 4 has power 0.3^4 + 0.5^4 = 0.0081 + 0.0625 = 0.0706.
HAND_CASES = [
    (5, "exact", 0.0),
    (6, "exact", 0.016354),
    (7, "exact", 0.0309268),
    (4, "chi2", 0.0706),
]


@pytest.mark.parametrize(("n", "test", "expected"), HAND_CASES)
def test_power_matches_hand_arithmetic(n: int, test: str, expected: float) -> None:
    assert exact_power(n, 0.3, 0.5, test=test) == pytest.approx(expected, abs=1e-12)


def test_power_with_every_case_discordant_is_a_binomial_tail() -> None:
    # psi = 1: D = n for certain, so power = P(b <= k) + P(b >= n - k), b ~ Bin(n, p10).
    # n = 20, alpha = 0.05: k(20) = 5 (2 * P[Bin(20, 1/2) <= 5] = 0.0414; <= 6 gives 0.115).
    expected = stats.binom.cdf(5, 20, 0.2) + stats.binom.sf(14, 20, 0.2)
    assert exact_power(20, 0.2, 0.8) == pytest.approx(expected, rel=1e-12)


# --- exact power vs seeded brute-force Monte Carlo ---------------------------------------------

# Each simulated experiment draws the table (a + d, b, c) ~ Multinomial(n; 1 - psi, p10, p01) and
# decides with the p-value computed directly, p = min(1, 2 P[Bin(b + c, 1/2) <= min(b, c)]) or
# the chi-square p, independent of rejection_limits. With 200,000 experiments the standard
# error is sqrt(P (1 - P) / 200,000) <= 0.00112; the tolerance is 4.5 standard errors, which a
# correct implementation misses with probability below 1e-5 per case.
SIMULATIONS = 200_000
MONTE_CARLO_CASES = [
    (25, 0.05, 0.45, 0.05, "exact"),
    (60, 0.10, 0.25, 0.05, "exact"),
    (200, 0.08, 0.03, 0.01, "exact"),
    (40, 0.30, 0.15, 0.05, "chi2"),
]


@pytest.mark.parametrize(("n", "p10", "p01", "alpha", "test"), MONTE_CARLO_CASES)
def test_power_matches_brute_force_simulation(
    n: int, p10: float, p01: float, alpha: float, test: str
) -> None:
    rng = np.random.default_rng(20240607)
    counts = rng.multinomial(n, [1 - p10 - p01, p10, p01], size=SIMULATIONS)
    b, c = counts[:, 1], counts[:, 2]
    discordant = b + c
    if test == "exact":
        pvalue = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(b, c), discordant, 0.5))
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            statistic = np.where(discordant > 0, (b - c) ** 2 / discordant, 0.0)
        pvalue = stats.chi2.sf(statistic, 1)
    simulated = np.mean(pvalue <= alpha)
    exact = exact_power(n, p10, p01, alpha=alpha, test=test)
    standard_error = math.sqrt(exact * (1 - exact) / SIMULATIONS)
    assert abs(simulated - exact) <= 4.5 * standard_error


def test_power_curve_equals_exact_enumeration() -> None:
    sizes = np.arange(0, 400)
    for p10, p01, test in ((0.05, 0.45, "exact"), (0.2, 0.8, "exact"), (0.1, 0.2, "chi2")):
        curve = power_curve(p10, p01, sizes, test=test)
        full = [exact_power(int(n), p10, p01, test=test) for n in sizes]
        np.testing.assert_allclose(curve, full, rtol=0, atol=1e-12)


# --- Connor (1987) -----------------------------------------------------------------------------


def test_connor_example() -> None:
    # Connor (1987, Biometrics 43:207), his example: p10 = 0.05, p01 = 0.45, alpha = 0.05,
    # power 0.8 -> n = 23. By hand: psi = 0.5, delta^2 = 0.16,
    # (1.95996 * sqrt(0.5) + 0.84162 * sqrt(0.34))^2 / 0.16 = (1.38590 + 0.49075)^2 / 0.16
    # = 3.52182 / 0.16 = 22.01 -> 23.
    assert connor_n(0.05, 0.45, alpha=0.05, power=0.8) == 23
    assert connor_n(0.45, 0.05) == 23  # the direction of the difference does not matter


def test_plan_for_connors_example_reports_the_exact_n_beside_his() -> None:
    # Brute force: the first n with exact power >= 0.8 (powers listed for the record).
    powers = {n: exact_power(n, 0.05, 0.45) for n in range(20, 27)}
    assert powers[24] < 0.8 <= powers[25]  # 0.7994 and 0.8202
    result = plan(p10=0.05, p01=0.45, alpha=0.05, power=0.8)
    assert (result.n, result.connor_n) == (25, 23)
    assert result.power == pytest.approx(powers[25], abs=1e-12)


# --- required n and the saw-tooth, by brute force ----------------------------------------------


def brute_force_required_n(p10: float, p01: float, target: float, alpha: float, test: str):
    """Scan every n with full enumeration until well past any dip; return (n, dips, stable)."""
    stop = 3 * connor_n(p10, p01, alpha=alpha, power=target) + 60
    powers = np.array(
        [exact_power(n, p10, p01, alpha=alpha, test=test) for n in range(1, stop + 1)]
    )
    n = int(np.flatnonzero(powers >= target)[0]) + 1
    dips = [m for m in range(n + 1, stop + 1) if powers[m - 1] < target]
    return n, bool(dips), (dips[-1] + 1 if dips else n)


SAW_TOOTH_CASES = [
    # (p10, p01, target, alpha, test); the first two have dips, the third does not.
    (0.2, 0.8, 0.8, 0.05, "exact"),  # n = 20, power falls at 21 and 22, stable from 23
    (0.3, 0.7, 0.9, 0.05, "exact"),
    (0.05, 0.45, 0.8, 0.05, "exact"),
    (0.25, 0.75, 0.8, 0.05, "chi2"),
    (0.1, 0.4, 0.5, 0.1, "exact"),
    (0.02, 0.2, 0.9, 0.01, "chi2"),
]


@pytest.mark.parametrize(("p10", "p01", "target", "alpha", "test"), SAW_TOOTH_CASES)
def test_required_n_and_saw_tooth_flag_match_brute_force(
    p10: float, p01: float, target: float, alpha: float, test: str
) -> None:
    result = plan(p10=p10, p01=p01, power=target, alpha=alpha, test=test)
    assert (result.n, result.non_monotone, result.stable_n) == brute_force_required_n(
        p10, p01, target, alpha, test
    )


def test_saw_tooth_example_by_hand() -> None:
    # psi = 1, so power(n) = P(b <= k(n)) + P(b >= n - k(n)), b ~ Bin(n, 0.2), and k(20) = 5,
    # k(21) = 5, k(22) = 5, k(23) = 6: the region stays put while n grows, so power drops.
    result = plan(p10=0.2, p01=0.8)
    assert (result.n, result.non_monotone, result.stable_n) == (20, True, 23)
    assert exact_power(21, 0.2, 0.8) < 0.8 and exact_power(22, 0.2, 0.8) < 0.8
    assert rejection_limits(23)[20:].tolist() == [5, 5, 5, 6]


def test_required_n_near_100_000() -> None:
    # Large n: the exact n sits just above Connor's, and the power really reaches the target.
    result = plan(p10=0.102, p01=0.098)
    assert 90_000 < result.connor_n <= result.n < 110_000
    assert exact_power(result.n, 0.102, 0.098) >= 0.8 > exact_power(result.n - 1, 0.102, 0.098)


# --- properties --------------------------------------------------------------------------------

probabilities = st.floats(0.05, 0.95)


@given(n=st.integers(1, 300), psi=probabilities, alpha=st.sampled_from([0.01, 0.05, 0.1]))
def test_power_without_difference_is_the_actual_size(n: int, psi: float, alpha: float) -> None:
    # Size by its definition: sum over D of P[D] * P_{1/2}(min(b, D - b) <= k(D)), with the
    # null tail 2 P[Bin(D, 1/2) <= k] taken from scipy directly.
    discordant = np.arange(n + 1)
    k = rejection_limits(n, alpha=alpha)
    null_tail = np.where(k >= 0, 2 * stats.binom.cdf(k, discordant, 0.5), 0.0)
    size = float(stats.binom.pmf(discordant, n, psi) @ null_tail)
    power = exact_power(n, psi / 2, psi / 2, alpha=alpha)
    assert power == pytest.approx(size, abs=1e-12)
    assert power <= alpha + 1e-12


@given(
    n=st.integers(1, 300),
    psi=probabilities,
    small=st.floats(0, 1),
    large=st.floats(0, 1),
    test=st.sampled_from(["exact", "chi2"]),
)
def test_power_grows_with_the_difference_at_fixed_n_and_disagreement(
    n: int, psi: float, small: float, large: float, test: str
) -> None:
    small, large = sorted((small * psi, large * psi))
    weak = exact_power(n, (psi + small) / 2, (psi - small) / 2, test=test)
    strong = exact_power(n, (psi + large) / 2, (psi - large) / 2, test=test)
    assert weak <= strong + 1e-12
    # and the direction does not matter (two-sided)
    mirrored = exact_power(n, (psi - large) / 2, (psi + large) / 2, test=test)
    assert mirrored == pytest.approx(strong, abs=1e-12)


@given(
    psi=st.floats(0.3, 1.0),
    share=st.floats(0.35, 1.0),
    target=st.floats(0.2, 0.95),
    test=st.sampled_from(["exact", "chi2"]),
)
def test_reported_n_is_the_first_to_reach_the_target(
    psi: float, share: float, target: float, test: str
) -> None:
    delta = share * psi
    p10, p01 = (psi + delta) / 2, (psi - delta) / 2
    result = plan(p10=p10, p01=p01, power=target, test=test)
    assert result.power >= target
    assert exact_power(result.n, p10, p01, test=test) == pytest.approx(result.power, abs=1e-12)
    earlier = power_curve(p10, p01, np.arange(1, result.n), test=test)
    assert (earlier < target).all()


# --- minimum detectable difference -------------------------------------------------------------


@pytest.mark.parametrize(("n", "psi", "test"), [(100, 0.2, "exact"), (500, 0.1, "chi2")])
def test_minimum_detectable_difference_reaches_the_power_exactly(
    n: int, psi: float, test: str
) -> None:
    delta = minimum_detectable_difference(n, psi, power=0.8, test=test)
    at = exact_power(n, (psi + delta) / 2, (psi - delta) / 2, test=test)
    below = exact_power(n, (psi + 0.99 * delta) / 2, (psi - 0.99 * delta) / 2, test=test)
    assert at == pytest.approx(0.8, abs=1e-7)
    assert below < 0.8


def test_minimum_detectable_difference_too_few_pairs_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot reach power 0.8"):
        minimum_detectable_difference(5, 0.5)
    assert plan(p10=0.3, p01=0.2, n=5).minimum_detectable_difference is None


# --- inputs as rates ---------------------------------------------------------------------------


def test_rates_convert_to_cells_and_are_shown() -> None:
    # p10 = (0.10 + 0.03)/2 = 0.065, p01 = (0.10 - 0.03)/2 = 0.035; B passes 0.80 - 0.03 = 0.77.
    p10, p01 = cells_from_rates(pass_rate_a=0.8, difference=0.03, disagreement=0.1)
    assert (p10, p01) == pytest.approx((0.065, 0.035))
    result = plan(pass_rate_a=0.8, difference=0.03, disagreement=0.1)
    assert (result.p10, result.p01) == pytest.approx((0.065, 0.035))
    assert result.pass_rate_b == pytest.approx(0.77)
    assert result.to_dict()["pass_rate_a"] == 0.8
    assert result.n == plan(p10=p10, p01=p01).n


# --- invalid plans -----------------------------------------------------------------------------

INVALID_PLANS = [
    ({"p10": 0.7, "p01": 0.5}, "`p10` \\+ `p01` must be at most 1"),
    ({"p10": -0.1, "p01": 0.5}, "`p10` must be a number from 0 to 1, but got -0.1"),
    ({"p10": 0.1, "p01": 0.3, "power": 1.0}, "`power` must be a number strictly between 0 and 1"),
    ({"p10": 0.1, "p01": 0.3, "power": 0.0}, "`power`"),
    ({"p10": 0.1, "p01": 0.3, "alpha": 1.5}, "`alpha` must be a number strictly between"),
    ({"p10": 0.1, "p01": 0.3, "alpha": float("nan")}, "`alpha`"),
    ({"p10": 0.2, "p01": 0.2}, "`p10` and `p01` must differ"),
    ({"p10": 0.0, "p01": 0.0}, "`p10` \\+ `p01` must be above 0"),
    ({"p10": 0.1}, "`p01` is missing"),
    ({"p10": 0.1, "p01": 0.2, "difference": 0.1}, "not both"),
    (
        {"pass_rate_a": 0.8, "difference": 0.2, "disagreement": 0.1},
        "`difference` must be at most the share of disagreement 0.1",
    ),
    (
        {"pass_rate_a": 0.02, "difference": 0.05, "disagreement": 0.1},
        "`pass_rate_a` must be at least 0.075",
    ),
    (
        {"pass_rate_a": 0.99, "difference": -0.05, "disagreement": 0.1},
        "`pass_rate_a` must be at most 0.925",
    ),
    ({"pass_rate_a": 0.8, "difference": 0.05}, "`disagreement` missing"),
    ({"p10": 0.1, "p01": 0.3, "test": "wald"}, '`test` must be one of "exact", "chi2"'),
    ({"p10": 0.1, "p01": 0.3, "n": -4}, "`n` must be at least 1, but got -4"),
    ({"p10": 0.1, "p01": 0.3, "n": 0}, "`n` must be at least 1"),
    ({"p10": 0.5001, "p01": 0.4999, "max_n": 10_000}, "`max_n` = 10,000"),
]


@pytest.mark.parametrize(("arguments", "message"), INVALID_PLANS)
def test_invalid_plans_name_the_input_and_why(arguments: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        plan(**arguments)


def test_wrong_types_raise_type_error() -> None:
    with pytest.raises(TypeError, match="`p10`"):
        plan(p10="0.1", p01=0.2)
    with pytest.raises(TypeError, match="`difference`"):
        plan(pass_rate_a=0.8, difference="big", disagreement=0.1)
    with pytest.raises(TypeError, match="`n_values`"):
        power_curve(0.1, 0.2, [1.5, 2.0])


# --- JSON shapes -------------------------------------------------------------------------------


def test_to_dict_when_solving_for_n_is_strict_json() -> None:
    shape = plan(p10=0.2, p01=0.8).to_dict()
    json.dumps(shape, allow_nan=False)
    assert {"n", "achieved_power", "connor_n", "non_monotone", "stable_n"} <= shape.keys()
    assert (shape["n"], shape["non_monotone"], shape["solved_for"]) == (20, True, "n")
    assert "power" not in shape


def test_to_dict_for_a_given_n_reports_its_power() -> None:
    shape = plan(p10=0.05, p01=0.45, n=20).to_dict()
    json.dumps(shape, allow_nan=False)
    assert shape["power"] == pytest.approx(exact_power(20, 0.05, 0.45))
    assert shape["solved_for"] == "power" and "achieved_power" not in shape
    assert shape["connor_n"] == 23 and shape["minimum_detectable_difference"] > 0.4


def test_power_curve_covers_the_plan_and_marks_it() -> None:
    result = plan(p10=0.2, p01=0.8)
    curve = result.power_curve()
    assert curve.chosen_n == 20 and curve.n[0] == 1 and curve.n[-1] >= result.stable_n
    np.testing.assert_allclose(curve.power[19], result.power, atol=1e-12)
    wide = plan(p10=0.102, p01=0.098).power_curve()
    assert len(wide.n) <= 241 and wide.chosen_n in wide.n


# --- optional stopping -------------------------------------------------------------------------


def exact_optional_stopping(look_every: int, looks: int, psi: float, alpha: float) -> np.ndarray:
    """P(significant at some look <= L), by dynamic programming over (b, c); no simulation.

    Each look adds look_every cases, each only-A with probability psi/2, only-B psi/2. Mass in
    states where the doubling p-value (from scipy's binomial cdf) is <= alpha stops there.
    """
    size = look_every * looks + 1
    step = np.zeros((look_every + 1, look_every + 1))
    for b in range(look_every + 1):
        for c in range(look_every + 1 - b):
            step[b, c] = stats.multinomial.pmf(
                [b, c, look_every - b - c], look_every, [psi / 2, psi / 2, 1 - psi]
            )
    grid_b, grid_c = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    pvalue = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(grid_b, grid_c), grid_b + grid_c, 0.5))
    stops = pvalue <= alpha
    alive = np.zeros((size, size))
    alive[0, 0] = 1.0
    stopped, rates = 0.0, []
    for _ in range(looks):
        moved = np.zeros((size, size))
        for b, c in zip(*np.nonzero(step), strict=True):
            moved[b:, c:] += step[b, c] * alive[: size - b, : size - c]
        stopped += moved[stops].sum()
        moved[stops] = 0.0
        alive = moved
        rates.append(stopped)
    return np.array(rates)


def test_optional_stopping_matches_exact_dynamic_programming() -> None:
    # Tolerance: 4.5 simulation standard errors (sqrt(r (1 - r) / 20,000) <= 0.0036).
    result = simulate_optional_stopping(
        look_every=5, looks=8, disagreement=0.5, alpha=0.05, experiments=20_000, seed=7
    )
    exact = exact_optional_stopping(5, 8, 0.5, 0.05)
    tolerance = 4.5 * np.sqrt(exact * (1 - exact) / 20_000) + 1e-12
    assert (np.abs(result.false_positive_rate - exact) <= tolerance).all()
    assert exact[-1] > exact[0]  # more looks, more false positives


def test_one_look_is_the_tests_actual_size() -> None:
    # One look after 60 cases is the fixed-n test: its rate estimates exact_power at p10 = p01.
    result = simulate_optional_stopping(
        look_every=60, looks=1, disagreement=0.4, experiments=50_000, seed=3
    )
    size = exact_power(60, 0.2, 0.2)
    assert size <= 0.05
    assert abs(result.false_positive_rate[0] - size) <= 4.5 * math.sqrt(size * (1 - size) / 50_000)


def test_peeking_inflates_false_positives_well_above_alpha() -> None:
    result = simulate_optional_stopping(look_every=20, looks=50, disagreement=0.3, seed=11)
    assert (np.diff(result.false_positive_rate) >= 0).all()
    assert result.false_positive_rate[-1] > 3 * result.alpha
    json.dumps(result.to_dict(), allow_nan=False)


def test_simulation_is_reproducible_by_seed() -> None:
    first = simulate_optional_stopping(seed=5, experiments=3_000)
    again = simulate_optional_stopping(seed=5, experiments=3_000)
    other = simulate_optional_stopping(seed=6, experiments=3_000)
    np.testing.assert_array_equal(first.false_positive_rate, again.false_positive_rate)
    assert not np.array_equal(first.false_positive_rate, other.false_positive_rate)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"look_every": 0}, "`look_every` must be at least 1"),
        ({"looks": 0}, "`looks` must be an integer from 1 to 1,000"),
        ({"experiments": 2_000_000}, "`experiments` must be an integer from 1 to 1,000,000"),
        ({"disagreement": 0.0}, "`disagreement` must be above 0"),
        ({"seed": -1}, "`seed` must be a non-negative integer"),
        ({"alpha": 0.0}, "`alpha`"),
    ],
)
def test_simulation_rejects_bad_settings(arguments: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate_optional_stopping(**arguments)
