"""Invariants of compare_scores (hypothesis, the deterministic profile of tests/conftest.py).

Scores are drawn on a grid of eighths, so that a - b and (a + c) - (b + c) are the same double
and "unchanged" can mean equal, not merely close.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import compare_scores
from calculator.report.words import payload as json_of

RESAMPLES = 1_000
grid = st.integers(-16, 16).map(lambda k: k / 8)


@st.composite
def paired(draw, min_size=1, max_size=40):
    n = draw(st.integers(min_size, max_size))
    a = draw(st.lists(grid, min_size=n, max_size=n))
    b = draw(st.lists(grid, min_size=n, max_size=n))
    return a, b


def _without(result, *keys):
    data = json_of(result)
    for key in keys:
        data.pop(key)
    return data


@given(paired())
def test_swapping_a_and_b_flips_the_sign_and_keeps_every_two_sided_p(pair):
    a, b = pair
    r, s = compare_scores(a, b, resamples=RESAMPLES), compare_scores(b, a, resamples=RESAMPLES)
    assert s.statistic == -r.statistic
    assert (s.mean_a, s.mean_b) == (r.mean_b, r.mean_a)
    assert s.pvalue == r.pvalue
    assert s.t_test.pvalue == r.t_test.pvalue
    assert s.signed_rank.pvalue == r.signed_rank.pvalue
    if r.confidence_interval is not None:
        assert tuple(s.confidence_interval) == (
            -r.confidence_interval.high,
            -r.confidence_interval.low,
        )
    else:
        assert s.confidence_interval is None


@given(paired(), st.sampled_from(["greater", "less"]))
def test_swapping_a_and_b_swaps_the_one_sided_alternatives(pair, alternative):
    a, b = pair
    other = "less" if alternative == "greater" else "greater"
    r = compare_scores(a, b, alternative=alternative, resamples=RESAMPLES)
    s = compare_scores(b, a, alternative=other, resamples=RESAMPLES)
    assert s.pvalue == r.pvalue
    assert s.t_test.pvalue == r.t_test.pvalue
    assert s.signed_rank.pvalue == r.signed_rank.pvalue


@given(paired(), grid, st.sampled_from(["two-sided", "greater"]), st.booleans())
def test_adding_a_constant_to_both_changes_nothing_but_the_means(pair, constant, side, margin):
    a, b = pair
    kwargs = {
        "alternative": side,
        "resamples": RESAMPLES,
        "margin": 0.25 if margin and side == "two-sided" else None,
    }
    r = compare_scores(a, b, **kwargs)
    s = compare_scores(np.add(a, constant), np.add(b, constant), **kwargs)
    assert _without(s, "mean", "report") == _without(r, "mean", "report")
    assert s.mean_a == pytest.approx(r.mean_a + constant, abs=1e-12)
    assert s.mean_b == pytest.approx(r.mean_b + constant, abs=1e-12)


@given(paired(max_size=30), st.sampled_from(["two-sided", "greater", "less"]))
def test_exact_permutation_p_is_a_multiple_of_two_to_the_minus_n(pair, alternative):
    a, b = pair
    r = compare_scores(a, b, alternative=alternative, resamples=RESAMPLES)
    assert r.permutation.method == "exact"
    scaled = r.pvalue * 2 ** len(a)
    assert scaled == math.floor(scaled) and scaled >= 1


@given(paired(min_size=31, max_size=40), st.integers(0, 2**32))
def test_the_same_seed_gives_the_same_result(pair, seed):
    a, b = pair
    r = compare_scores(a, b, resamples=RESAMPLES, seed=seed)
    s = compare_scores(a, b, resamples=RESAMPLES, seed=seed)
    assert json_of(r) == json_of(s)


@given(paired(), st.sampled_from(["two-sided", "greater", "less"]))
def test_pvalues_are_probabilities_and_the_t_interval_holds_the_mean(pair, alternative):
    a, b = pair
    r = compare_scores(a, b, alternative=alternative, resamples=RESAMPLES)
    for p in (r.pvalue, r.signed_rank.pvalue, r.t_test.pvalue):
        assert p is None or 0.0 < p <= 1.0
    if r.confidence_interval is not None:
        low, high = r.confidence_interval
        assert low < r.statistic < high
