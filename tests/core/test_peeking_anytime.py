"""The peeking simulation's cure (issue 34): on the same simulated experiments, the anytime-valid
test's false-alarm rate stays at alpha however many looks are taken (Ville's inequality), where
the fixed-n test's climbs; and its price in cases for the fixed-n test's power, by seeded
simulation whose figures are checked here against the scalar anytime-valid test
(:func:`calculator.anytime.anytime_test`, itself checked against its sources in
tests/core/test_anytime.py).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from calculator.anytime import anytime_test
from calculator.errors import CalculatorError
from calculator.planning import plan, simulate_optional_stopping
from calculator.planning.peeking import PRICE_HORIZON, anytime_price


@pytest.mark.parametrize(
    ("look_every", "looks", "disagreement", "alpha", "seed"),
    [(1, 200, 1.0, 0.05, 1), (20, 50, 0.2, 0.05, 2), (5, 100, 0.5, 0.1, 3), (50, 40, 0.3, 0.01, 4)],
)
def test_the_anytime_rate_stays_at_alpha_where_the_fixed_n_rate_climbs(
    look_every, looks, disagreement, alpha, seed
):
    result = simulate_optional_stopping(
        look_every=look_every,
        looks=looks,
        disagreement=disagreement,
        alpha=alpha,
        experiments=10_000,
        seed=seed,
    )
    anytime, error = result.anytime_false_positive_rate, result.anytime_standard_error
    bound = np.sqrt(alpha * (1 - alpha) / result.experiments)
    assert np.all(anytime <= alpha + 3 * bound)
    assert np.all(np.diff(anytime) >= 0)  # stopping at the first crossing: a running OR
    assert np.allclose(error, np.sqrt(anytime * (1 - anytime) / result.experiments))
    assert result.false_positive_rate[-1] > 1.5 * alpha > anytime[-1]


def test_the_two_rates_come_from_the_same_experiments():
    # The fixed-n rate is what it was before the anytime rate was added: same seed, same draws.
    first = simulate_optional_stopping(look_every=10, looks=20, experiments=2_000, seed=1)
    again = simulate_optional_stopping(look_every=10, looks=20, experiments=2_000, seed=1)
    assert first.to_dict() == again.to_dict()
    assert "anytime_false_positive_rate" in first.to_dict()


def _stopped_by_scalar_test(price, look: int) -> float:
    """The share stopped by `look`, recomputed with the scalar anytime_test on the same draws."""
    rng = np.random.default_rng(price.seed)
    looks = price.cases.size
    psi = price.p10 + price.p01
    new = rng.binomial(price.look_every, psi, size=(price.experiments, looks))
    m = np.cumsum(new, axis=1)
    b = np.cumsum(rng.binomial(new, price.p10 / psi), axis=1)
    stopped = 0
    for row in range(price.experiments):
        stopped += any(
            anytime_test(int(b[row, j]), int(m[row, j] - b[row, j])).pvalue <= price.alpha
            for j in range(look + 1)
        )
    return stopped / price.experiments


def test_the_price_is_the_first_look_with_the_power_and_the_scalar_test_agrees():
    fixed = plan(p10=0.15, p01=0.05)
    price = anytime_price(
        p10=0.15, p01=0.05, fixed_n=fixed.n, power=fixed.power, experiments=300, seed=5
    )
    assert price.n_for_power is not None and price.n_for_power > fixed.n
    look = int(np.flatnonzero(price.cases == price.n_for_power)[0])
    assert price.stopped[look] >= fixed.power > price.stopped[look - 1]
    assert price.stopped[look] == pytest.approx(_stopped_by_scalar_test(price, look))
    assert price.expected_cases <= price.n_for_power
    error = math.sqrt(price.stopped[look] * (1 - price.stopped[look]) / 300)
    assert price.stopped_error == pytest.approx(error)


def test_the_price_is_seeded_bounded_and_says_when_the_horizon_is_not_enough():
    one = anytime_price(p10=0.3, p01=0.1, fixed_n=60, power=0.8, seed=2)
    assert one.to_dict() == anytime_price(p10=0.3, p01=0.1, fixed_n=60, power=0.8, seed=2).to_dict()
    assert one.cases[-1] >= PRICE_HORIZON * 60 and one.cases.size <= 500
    short = anytime_price(p10=0.11, p01=0.1, fixed_n=100, power=0.9, seed=2)
    assert short.n_for_power is None and short.expected_cases is None


def test_the_price_refuses_no_difference_by_name():
    with pytest.raises(CalculatorError, match="`p10` and `p01` must differ"):
        anytime_price(p10=0.1, p01=0.1, fixed_n=100, power=0.8)
