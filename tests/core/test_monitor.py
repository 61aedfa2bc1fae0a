"""The monitor (issue 34, step 5): the anytime-valid test after every batch of cases, stopping
at the first look where the e-value has reached 1/alpha. Its figures are those of
:func:`calculator.anytime.anytime_test_path` and the confidence sequence's running
intersection over the discordant pairs seen (checked against exact rationals and mpmath in
tests/core/test_anytime.py); here, that the looks quote them and stop where they should.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from calculator.anytime import anytime_test_path
from calculator.confidence_sequence import confidence_sequence, confidence_sequence_path
from calculator.errors import CalculatorError
from calculator.monitor import MAX_LOOKS, monitor_outcomes


def outcomes(seed: int, n: int, pa: float, pb: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.random(n) < pa, rng.random(n) < pb


def discordant_path(a: np.ndarray, b: np.ndarray, cases: int) -> list[int]:
    a, b = a[:cases], b[:cases]
    return [int(x) for x, y in zip(a, b, strict=True) if x != y]


@pytest.mark.parametrize(("seed", "every"), [(1, 1), (2, 7), (3, 50), (4, 1000)])
def test_each_look_quotes_the_path_test_and_the_sets_intersected_over_the_looks(seed, every):
    a, b = outcomes(seed, 300, 0.75, 0.7)
    result = monitor_outcomes(a, b, every=every)
    low, high = 0.0, 1.0
    for i, cases in enumerate(result.cases):
        path = discordant_path(a, b, int(cases))
        test = anytime_test_path(path)
        assert (result.only_a[i], result.only_b[i]) == (test.only_a, test.only_b)
        assert result.log10_evalue[i] == pytest.approx(test.log10_evalue, abs=1e-9)
        assert result.log10_pvalue[i] == pytest.approx(test.log10_pvalue, abs=1e-9)
        at_look = confidence_sequence(test.only_a, test.only_b)
        low, high = max(low, at_look.low), min(high, at_look.high)
        if low > high:
            assert math.isnan(result.low[i]) and math.isnan(result.high[i])
        else:
            assert (result.low[i], result.high[i]) == pytest.approx((low, high), abs=1e-12)
    if every == 1:  # every set so far: the path's running intersection
        sequence = confidence_sequence_path(discordant_path(a, b, int(result.cases[-1])))
        if sequence.low is not None:
            assert result.low[-1] == pytest.approx(sequence.low, abs=1e-12)
            assert result.high[-1] == pytest.approx(sequence.high, abs=1e-12)


def test_it_stops_at_the_first_look_whose_p_reaches_alpha():
    a, b = outcomes(5, 2000, 0.8, 0.6)
    result = monitor_outcomes(a, b, every=10)
    assert result.crossed_at == result.cases.size - 1
    assert result.pvalue[-1] <= 0.05 < result.pvalue[:-1].min()
    assert result.cases[-1] < result.cases_read


def test_looks_are_bounded_and_every_defaults_to_the_smallest_that_keeps_to_the_bound():
    a, b = outcomes(8, 3 * MAX_LOOKS + 1, 0.7, 0.7)
    assert monitor_outcomes(a, b).every == 4
    with pytest.raises(CalculatorError, match="`every` must be at least 4 for 6,001 cases"):
        monitor_outcomes(a, b, every=3)
    assert monitor_outcomes(a[:50], b[:50]).every == 1


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_running_maxima_skip_only_values_that_cannot_count(alternative):
    # The path's p skips one-sided values where E <= 1 is certain; recomputed exactly at every
    # prefix, the maximum is the same.
    rng = np.random.default_rng(9)
    for share in (0.2, 0.5, 0.8):
        path = (rng.random(400) < share).astype(int)
        exact = max(
            0.0,
            *(
                anytime_test_path(path[: i + 1], alternative=alternative).log10_evalue
                for i in range(0, path.size, 1)
            ),
        )
        assert anytime_test_path(path, alternative=alternative).max_log10_evalue == (
            pytest.approx(exact, abs=1e-12)
        )


def test_without_a_crossing_every_look_is_kept_and_the_last_is_the_last_case():
    a, b = outcomes(6, 95, 0.7, 0.7)
    result = monitor_outcomes(a, b, every=10)
    assert result.crossed_at is None
    assert result.cases.tolist() == [*range(10, 100, 10)][:9] + [95]


def test_one_sided_monitoring_uses_the_one_sided_mixture():
    a, b = outcomes(7, 400, 0.6, 0.8)
    result = monitor_outcomes(a, b, every=400, alternative="greater")
    test = anytime_test_path(discordant_path(a, b, 400), alternative="greater")
    assert result.log10_pvalue[-1] == pytest.approx(test.log10_pvalue, abs=1e-9)


NO_CASES = np.zeros(0, dtype=bool)


@pytest.mark.parametrize(
    ("a", "b", "options", "match"),
    [
        (np.array([True]), np.array([True, False]), {}, "same length"),
        (NO_CASES, NO_CASES, {}, "`a_pass` must be 1 to 2,000,000 cases"),
        (np.array([1, 0]), np.array([0, 1]), {}, "`a_pass` must be a one-dimensional array"),
        (np.array([True]), np.array([False]), {"every": 0}, "`every` must be"),
    ],
)
def test_refusals_name_the_value(a, b, options, match):
    with pytest.raises(CalculatorError, match=match):
        monitor_outcomes(a, b, **options)
