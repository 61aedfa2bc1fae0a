"""The BCa interval counts resampled means tied with the estimate as half below (review 4, B2).

scipy's z0 is Phi^-1((#{theta* < theta} + #{theta* <= theta}) / (2B)) (``_percentile_of_score``
in scipy/stats/_resampling.py); the calculator counted ties as above, which on lattice data
(zeros, graded scores) pulled z0 down (-0.225 where scipy has +0.074) and both ends with it.

Reference values: scipy 1.17.1,
``stats.bootstrap((d,), np.mean, method="BCa", n_resamples=200_000,
rng=np.random.default_rng(1)).confidence_interval`` on each d below:
- 3 of 30 differences +1, the rest 0: (0.03333..., 0.26666...) = (1/30, 8/30);
- 1 of 10 differences +1, the rest 0: (0, 0.5);
- 20 graded differences (graded20.csv of the review, A - B on a 0.25 grid): (-0.225, 0.225).
On these lattices 200,000 resamples put both methods' ends on the same lattice point; the test
also recomputes scipy's interval here.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from calculator import compare_scores
from calculator.report.words import text
from calculator.scores.bootstrap import share_below

GRADED_A = [0.5, 0.5, 0.75, 1, 0, 0, 1, 1, 0.25, 0.25, 1, 0.5, 0.25, 1, 0.25, 0.5, 0.75, 0.5, 0, 0]
GRADED_B = [
    1,
    0.75,
    1,
    0.5,
    1,
    0.25,
    0.5,
    0.75,
    0,
    0.25,
    0,
    0.5,
    1,
    0,
    0.25,
    0.5,
    1,
    0.25,
    0.5,
    0.25,
]

CASES = {
    "3 of 30": (np.array([1.0] * 3 + [0.0] * 27), (1 / 30, 8 / 30)),
    "1 of 10": (np.array([1.0] + [0.0] * 9), (0.0, 0.5)),
    "graded": (np.subtract(GRADED_A, GRADED_B), (-0.225, 0.225)),
}


def test_a_tie_counts_one_half():
    # (#< + #<=) / (2B): one below, two tied, one above -> (1 + 3) / 8
    assert share_below(np.array([0.0, 0.1, 0.1, 0.3]), 0.1) == 0.5
    assert share_below(np.array([0.0, 0.2]), 0.1) == 0.5  # no tie: the plain share


@pytest.mark.parametrize("name", sorted(CASES))
def test_bca_on_tied_lattice_data_equals_scipy(name):
    d, expected = CASES[name]
    got = compare_scores(d, np.zeros_like(d), resamples=200_000).bootstrap.confidence_interval
    assert (got.low, got.high) == pytest.approx(expected, abs=1e-12)
    ci = stats.bootstrap(
        (d,), np.mean, method="BCa", n_resamples=200_000, rng=np.random.default_rng(1)
    ).confidence_interval
    assert (got.low, got.high) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_bias_correction_is_positive_when_ties_sit_at_the_estimate():
    d, _ = CASES["3 of 30"]
    z0 = compare_scores(d, np.zeros_like(d), resamples=200_000).bootstrap.bias_correction
    # P(theta* < 0.1) = P(Bin(30, 0.1) < 3) = 0.411, P(= 3) = 0.236: the share is
    # 0.411 + 0.236 / 2 = 0.529 and z0 = Phi^-1(0.529) = +0.074 (scipy.stats.binom).
    below = stats.binom.cdf(2, 30, 0.1) + stats.binom.pmf(3, 30, 0.1) / 2
    assert z0 == pytest.approx(stats.norm.ppf(below), abs=0.01)
    assert z0 > 0


def test_an_interval_at_a_level_the_resamples_cannot_reach_says_so():
    # Review 4, C12: 99.999% from 10,000 resamples puts 10,000 x 0.000005 = 0.05 resamples
    # beyond each end (before the BCa adjustment moves the tails a little).
    rng = np.random.default_rng(3)
    a = rng.uniform(0.3, 0.9, 100)
    b = a - 0.045 + rng.normal(0.0, 0.02, 100)
    extreme = compare_scores(a, b, level=1 - 1e-5).bootstrap
    assert extreme.few_tail_resamples and extreme.tail_resamples < 0.2
    assert "too few to place the ends of a 99.999% interval" in text(
        compare_scores(a, b, level=1 - 1e-5)
    )
    usual = compare_scores(a, b).bootstrap  # 95%: about 250 beyond each end
    assert not usual.few_tail_resamples and usual.tail_resamples > 100
    assert "too few to place" not in text(compare_scores(a, b))
