"""Type M and Type S of a planned comparison (issue 34), against a brute-force enumeration.

Provenance. The reference is computed in this file, independently of the library's rejection
limits and closed-form partial sums: every table (b, c) with b + c <= n, its trinomial
probability from log-factorials, and the exact McNemar test's doubled p from
``scipy.stats.binom.cdf`` (scipy 1.x) at each table; power, Type S and Type M are then the sums
Gelman & Carlin (2014, Perspect Psychol Sci 9:641) define.

Card et al.'s worked case (issue 34 quotes "n = 500, cells 0.0025 / 0.0225: power about 0.80,
Type M about 1.12", after Card, Henderson, Khandelwal, Jia, Mahowald & Jurafsky 2020, EMNLP,
"With Little Power Comes Great Responsibility"): this enumeration gives, for the two-sided exact
test (doubling) at alpha = 0.05, power 0.7976 and Type M 1.1158, i.e. 0.80 and 1.12 as quoted,
with Type S 3.9e-8. Which cell is "only A passes" does not matter: swapping them swaps the
direction and keeps all three figures.

The low-power case, n = 100 with cells 0.05 / 0.03 (a 2-point difference on 8% disagreement),
gives power 0.0490, Type M 3.885 and Type S 0.0223 by the same enumeration. And a case by hand:
n = 6 rejects only when all six disagree one way, so power = p10^6 + p01^6 and Type M =
6 / (6 |p10 - p01|).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import special, stats

from calculator.errors import CalculatorError
from calculator.planning import exact_power, plan
from calculator.planning.exaggeration import sign_and_magnitude


def brute_force(n: int, p10: float, p01: float, alpha: float = 0.05) -> tuple[float, ...]:
    """(power, power in the true direction, Type S, Type M) summed over every table (b, c)."""
    b, c = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = b + c <= n
    b, c = b[keep], c[keep]
    rest = 1 - p10 - p01
    log_pmf = (
        special.gammaln(n + 1)
        - special.gammaln(b + 1)
        - special.gammaln(c + 1)
        - special.gammaln(n - b - c + 1)
        + special.xlogy(b, p10)
        + special.xlogy(c, p01)
        + special.xlogy(n - b - c, rest)
    )
    pmf = np.exp(log_pmf)
    pvalue = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(b, c), b + c, 0.5))
    significant = (pvalue <= alpha) & (b + c > 0)
    delta = p10 - p01
    power = pmf[significant].sum()
    right = pmf[significant & (np.sign(b - c) == np.sign(delta))].sum()
    if delta == 0:
        return power, power, float("nan"), float("nan")
    type_m = (pmf * np.abs(b - c) / n)[significant].sum() / (abs(delta) * power)
    return power, right, (power - right) / power, type_m


# --- brute force above; the figures printed in the module docstring, to their printed digits ---
REFERENCE = [
    # n, p10, p01, power, Type S, Type M
    (500, 0.0025, 0.0225, 0.7976, 3.9e-8, 1.1158),  # Card et al. (2020)'s case, as issue 34
    (500, 0.0225, 0.0025, 0.7976, 3.9e-8, 1.1158),  # the same with the cells swapped
    (100, 0.05, 0.03, 0.0490, 0.0223, 3.885),  # low power
]


@pytest.mark.parametrize(("n", "p10", "p01", "power", "type_s", "type_m"), REFERENCE)
def test_power_type_m_and_type_s_match_the_brute_force_enumeration(
    n, p10, p01, power, type_s, type_m
):
    result = sign_and_magnitude(n, p10, p01)
    expected = brute_force(n, p10, p01)
    assert result.power == pytest.approx(expected[0], rel=1e-9)
    assert result.power_true_direction == pytest.approx(expected[1], rel=1e-9)
    assert result.type_s == pytest.approx(expected[2], rel=1e-6, abs=1e-14)
    assert result.type_m == pytest.approx(expected[3], rel=1e-9)
    assert round(result.power, 4) == power
    assert result.type_s == pytest.approx(type_s, rel=0.02)
    assert result.type_m == pytest.approx(type_m, abs=6e-4)


def test_card_et_al_figures_read_as_the_issue_quotes_them():
    result = sign_and_magnitude(500, 0.0025, 0.0225)
    assert (round(result.power, 2), round(result.type_m, 2)) == (0.80, 1.12)


def test_six_pairs_by_hand():
    result = sign_and_magnitude(6, 0.3, 0.5)
    assert result.power == pytest.approx(0.3**6 + 0.5**6, rel=1e-12)
    assert result.power_true_direction == pytest.approx(0.5**6, rel=1e-12)
    assert result.type_s == pytest.approx(0.3**6 / (0.3**6 + 0.5**6), rel=1e-12)
    assert result.type_m == pytest.approx(5.0, rel=1e-12)


def test_no_difference_leaves_type_m_and_s_undefined_and_power_is_the_size():
    result = sign_and_magnitude(200, 0.04, 0.04)
    assert (result.type_m, result.type_s) == (None, None)
    assert result.power == pytest.approx(brute_force(200, 0.04, 0.04)[0], rel=1e-9)
    assert result.power <= 0.05


def test_no_significant_table_leaves_them_undefined():
    result = sign_and_magnitude(5, 0.3, 0.1)  # five pairs never reach p <= 0.05
    assert result.power == 0.0 and (result.type_m, result.type_s) == (None, None)


def test_n_beyond_the_bound_is_refused_by_name_and_the_bound_answers_quickly():
    with pytest.raises(CalculatorError, match="`n` must be"):
        sign_and_magnitude(1_000_001, 0.1, 0.05)
    assert sign_and_magnitude(1_000_000, 0.5, 0.49).type_m > 1


def test_the_plan_carries_them_in_its_json():
    shape = plan(p10=0.0025, p01=0.0225, n=500).to_dict()
    assert shape["type_m"] == pytest.approx(1.1158, abs=6e-4)
    assert shape["power_true_direction"] == pytest.approx(0.7976, abs=5e-5)
    assert plan(p10=0.065, p01=0.02).to_dict()["type_s"] < 1e-4


def test_type_m_falls_towards_one_and_power_rises_on_a_coarse_grid_of_n():
    # Power of a discrete test is saw-toothed in n (tests/core/test_planning.py), so "grows with
    # n" is checked on a grid whose steps are far larger than the teeth.
    results = [sign_and_magnitude(n, 0.06, 0.03) for n in (50, 200, 800, 3200)]
    powers = [r.power for r in results]
    exaggerations = [r.type_m for r in results]
    assert powers == sorted(powers) and exaggerations == sorted(exaggerations, reverse=True)
    assert exaggerations[-1] == pytest.approx(1.0, abs=0.01)


# --- invariants ---------------------------------------------------------------------------------
sizes = st.integers(min_value=1, max_value=3_000)
cells = st.floats(min_value=0.0, max_value=0.5, allow_nan=False)


@given(n=sizes, p10=cells, p01=cells)
def test_power_is_the_plans_exact_power_and_the_parts_add_up(n, p10, p01):
    if p10 + p01 == 0:
        return
    result = sign_and_magnitude(n, p10, p01)
    assert result.power == pytest.approx(exact_power(n, p10, p01), rel=1e-9, abs=1e-15)
    if result.type_s is not None:
        assert result.power_true_direction + result.type_s * result.power == pytest.approx(
            result.power, rel=1e-9, abs=1e-15
        )


@given(n=sizes, p=st.floats(min_value=1e-4, max_value=0.5))
def test_at_zero_effect_power_is_the_size_at_most_alpha(n, p):
    result = sign_and_magnitude(n, p, p)
    assert result.power <= 0.05 + 1e-12
    assert (result.type_m, result.type_s) == (None, None)


@given(n=sizes, p10=cells, p01=cells)
def test_type_s_is_at_most_one_half_and_swapping_the_cells_keeps_every_figure(n, p10, p01):
    if p10 + p01 == 0:
        return
    result, swapped = sign_and_magnitude(n, p10, p01), sign_and_magnitude(n, p01, p10)
    assert result.power == pytest.approx(swapped.power, rel=1e-9, abs=1e-15)
    if result.type_s is not None:
        # theta > 1/2 makes b >= D - k at least as likely as b <= k, for every D
        assert 0.0 <= result.type_s <= 0.5 + 1e-12
        assert result.type_s == pytest.approx(swapped.type_s, rel=1e-6, abs=1e-12)
        assert result.type_m == pytest.approx(swapped.type_m, rel=1e-9)


@given(n=sizes, p10=st.floats(min_value=1e-3, max_value=1.0))
def test_type_s_is_zero_when_one_system_never_wins_alone(n, p10):
    result = sign_and_magnitude(n, p10, 0.0)
    if result.type_s is not None:
        assert result.type_s == 0.0
        assert result.power_true_direction == result.power
