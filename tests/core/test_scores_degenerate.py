"""compare_scores on degenerate and hostile inputs: each decided on purpose and tested by name.
Every result must serialise to strict JSON (no NaN, no infinity)."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from calculator import compare_scores
from calculator.errors import CalculatorError
from calculator.report.figures import format_score
from calculator.report.words import payload, text
from calculator.scores import MAX_WORK, MIN_RESAMPLES


def _strict_json(result) -> dict:
    dumped = json.dumps(payload(result), allow_nan=False)  # raises on NaN or infinity
    assert not re.search(r"\b(nan|inf)\b", text(result), flags=re.IGNORECASE)
    return json.loads(dumped)


def test_every_difference_zero_gives_p_one_and_undefined_t():
    r = compare_scores([0.5, 1.0, 0.25, 0.75], [0.5, 1.0, 0.25, 0.75], margin=0.1)
    assert r.statistic == 0.0
    assert r.pvalue == 1.0 and r.permutation.method == "exact"
    assert r.signed_rank.pvalue == 1.0 and r.signed_rank.statistic is None
    assert r.signed_rank.zeros == 4
    assert r.t_test.statistic is None and r.t_test.pvalue is None
    assert "no spread" in r.t_test.undefined
    assert r.bootstrap.confidence_interval is None
    assert r.margin.outcome == "undetermined"
    assert "same score on every case" in text(r)
    _strict_json(r)


def test_one_case_answers_what_it_can():
    r = compare_scores([0.9], [0.4])
    assert r.n == 1
    assert r.statistic == pytest.approx(0.5)
    assert r.pvalue == 1.0 and r.permutation.patterns == 2  # + and - are equally extreme
    assert r.t_test.statistic is None and "degrees of freedom" in r.t_test.undefined
    assert r.confidence_interval is None
    assert r.bootstrap.confidence_interval is None and "1 case gives" in r.bootstrap.undefined
    assert r.signed_rank.pvalue == 1.0
    _strict_json(r)


def test_two_cases_give_a_t_test_but_no_bootstrap():
    r = compare_scores([1.0, 2.0], [0.5, 1.0])
    assert r.t_test.df == 1 and r.t_test.statistic == pytest.approx(3.0)
    assert r.pvalue == 0.5  # 2 of the 4 sign patterns are as extreme
    assert r.signed_rank.pvalue == 0.5 and r.signed_rank.method == "exact"
    assert r.bootstrap.confidence_interval is None
    assert "3 distinct resampled means" in r.bootstrap.undefined
    _strict_json(r)


def test_constant_differences_t_undefined_never_nan():
    # 0.3 - 0.2 and 0.7 - 0.6 differ in their last bits; they are the same difference.
    r = compare_scores([0.3, 0.7, 0.9, 0.5, 0.4, 0.8], [0.2, 0.6, 0.8, 0.4, 0.3, 0.7], margin=0.05)
    assert r.t_test.statistic is None and r.t_test.pvalue is None
    assert "every difference is the same" in r.t_test.undefined
    assert r.confidence_interval is None
    assert r.bootstrap.confidence_interval is None
    assert r.pvalue == 2 / 64  # all + and all - of 6 cases
    assert r.signed_rank.ties  # the rounded differences rank as one tie
    assert r.margin.outcome == "undetermined"
    assert "Paired t test: undefined" in text(r)
    _strict_json(r)


def test_rounded_differences_rank_as_ties():
    r = compare_scores([0.1, 0.7, 0.5], [0.3, 0.9, 0.2])
    assert (0.1 - 0.3) != (0.7 - 0.9)  # their floats differ ...
    assert r.signed_rank.ties  # ... yet they are the same difference


def test_nan_and_infinite_scores_are_excluded_and_counted():
    a = [0.5, math.nan, 0.75, math.inf, 1.0, 0.25, None]
    b = [0.25, 0.5, -math.inf, 0.5, 0.5, 0.0, 0.5]
    r = compare_scores(a, b)
    assert (r.rows, r.n) == (7, 3)
    assert r.excluded == {"missing_score": 2, "infinite_score": 2, "missing_cluster": 0}
    assert "4 rows of 7 left out: 2 with a missing score, 2 with an infinite score" in text(r)
    assert r.mean_a == pytest.approx(0.5833333333333334)
    _strict_json(r)


def test_missing_cluster_labels_are_excluded_and_counted():
    r = compare_scores([1, 2, 3, 4, 5], [0, 2, 1, 3, 5], clusters=["x", None, "y", "y", math.nan])
    assert r.excluded["missing_cluster"] == 2
    assert (r.n, r.clusters) == (3, 2)
    assert "2 with no cluster label" in text(r)


def test_no_finite_pair_is_refused():
    with pytest.raises(CalculatorError, match="No pair of finite scores is left: 2 rows"):
        compare_scores([math.nan, 1.0], [0.0, math.inf])


@pytest.mark.parametrize(
    ("a", "b", "kwargs", "message"),
    [
        ([], [], {}, "no score"),
        ([1, 2], [1], {}, "`a` has 2 and `b` has 1"),
        ([1, 2], [1, 2], {"level": 1.0}, "`level` must be a number strictly between 0 and 1"),
        ([1, 2], [1, 2], {"alternative": "bigger"}, "`alternative` must be one of"),
        ([1, 2], [1, 2], {"margin": -0.1}, "`margin` must be None or a positive finite"),
        ([1, 2], [1, 2], {"margin": math.inf}, "`margin` must be None or a positive finite"),
        ([1, 2], [1, 2], {"resamples": 10**9}, "`resamples` must be None or an integer"),
        ([1, 2], [1, 2], {"resamples": 10}, "`resamples` must be None or an integer"),
        ([1, 2], [1, 2], {"seed": -1}, "`seed` must be a non-negative integer"),
        ([1e308, 0], [-1e308, 0], {}, "overflows"),
        ([1, 2], [1, 2], {"clusters": [1]}, "one label per pair"),
    ],
)
def test_bad_values_are_refused_with_calculator_error(a, b, kwargs, message):
    with pytest.raises(CalculatorError, match=message):
        compare_scores(a, b, **kwargs)


@pytest.mark.parametrize(
    ("a", "kwargs"),
    [(["0.5", "1"], {}), ([True, False], {}), ([1, 2], {"seed": 1.5}), ([1, 2], {"margin": "1"})],
)
def test_wrong_types_raise_type_error(a, kwargs):
    with pytest.raises(TypeError):
        compare_scores(a, [1, 2], **kwargs)


def test_explicit_resamples_beyond_the_work_bound_are_refused():
    d = np.arange(1, 200_001) / 200_000  # 200,000 distinct differences
    with pytest.raises(CalculatorError, match="more than the bound of 100,000,000"):
        compare_scores(d, np.zeros(d.size), resamples=MIN_RESAMPLES)


def test_default_resamples_shrink_to_fit_the_bound():
    d = np.arange(1, 50_001) / 50_000  # 50,000 distinct differences: 2,000 resamples fit
    r = compare_scores(d, np.zeros(d.size))
    assert r.bootstrap.resamples == MAX_WORK // 50_000 == 2_000
    assert r.permutation.patterns == 2_000 and r.permutation.method == "monte-carlo"
    assert "2,000 resamples" in text(r)


def test_default_resamples_skip_what_would_exceed_the_bound_and_say_so():
    d = np.arange(1, 200_001) / 200_000
    r = compare_scores(d, np.zeros(d.size) + 0.25)
    assert r.bootstrap.confidence_interval is None
    assert "was not run" in r.bootstrap.undefined
    assert r.permutation is None and r.pvalue is None
    assert "the sign-flip permutation test was not run" in text(r)
    assert r.t_test.pvalue is not None and r.signed_rank.method == "normal"
    _strict_json(r)


def test_graded_scores_resample_by_value_at_a_million_cases(monkeypatch):
    # 10^6 judge grades: the multinomial sampler draws one count per distinct difference (the
    # sign-flip test's lattice path, exact by convolution, switched off so that its sampler runs).
    from calculator.scores import lattice

    monkeypatch.setattr(lattice, "MAX_SUPPORT", 0)
    rng = np.random.default_rng(0)
    a = rng.integers(0, 5, 10**6) / 4
    b = rng.integers(0, 5, 10**6) / 4
    r = compare_scores(a, b, resamples=MIN_RESAMPLES)
    assert r.bootstrap.resamples == MIN_RESAMPLES and r.permutation.patterns == MIN_RESAMPLES
    low, high = r.bootstrap.confidence_interval
    assert low < r.statistic < high


def test_tiny_and_huge_scores_keep_their_figures():
    base = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    other = np.array([2.0, 1.5, 3.0, 0.0, 5.5, 7.0, 2.5, 4.0])
    plain = compare_scores(base, other)
    for factor in (2.0**-1000, 2.0**900):
        r = compare_scores(base * factor, other * factor)
        assert r.t_test.statistic == pytest.approx(plain.t_test.statistic, rel=1e-12)
        assert r.pvalue == plain.pvalue
        assert r.signed_rank.pvalue == plain.signed_rank.pvalue
        assert r.statistic == pytest.approx(plain.statistic * factor, rel=1e-12)
        _strict_json(r)


@pytest.mark.parametrize(
    ("shift", "outcome"),
    [
        (0.0, "non-inferior"),  # A - B around 0, narrow: below +0.1
        (0.3, "worse-beyond-margin"),  # A - B around +0.3: entirely above +0.1
        (0.1, "worse-unsettled"),  # A - B around +0.1: above 0, across +0.1
    ],
)
def test_margin_outcomes_follow_where_the_interval_lies(shift, outcome):
    i = np.arange(200)
    a = 0.5 + 0.05 * np.sin(i)
    b = a - shift + 0.03 * np.cos(3 * i)
    r = compare_scores(a, b, margin=0.1)
    decision = r.margin
    assert decision.outcome == outcome
    assert decision.non_inferior == (outcome == "non-inferior")
    # The margin's interval is the headline's, for A - B (issue 30).
    assert (decision.low, decision.high) == pytest.approx(
        (r.confidence_interval.low, r.confidence_interval.high)
    )
    assert (decision.pvalue <= decision.alpha) == decision.non_inferior
    assert text(decision) in text(r)


def test_margin_not_shown_when_interval_spans_minus_margin_and_zero():
    r = compare_scores([0.9, 0.1, 0.6, 0.3, 0.8], [0.2, 0.8, 0.5, 0.4, 0.6], margin=0.05)
    assert r.margin.outcome == "not-shown"
    assert r.margin.high > 0.05 and r.margin.low < 0  # A - B
    assert "No difference is shown either way" in text(r.margin)


def test_margin_sentence_keeps_limits_off_the_margin():
    # A limit just below -0.1 must not print as -0.1 (the margin) or above it.
    assert format_score(-0.1000004, (-0.1, 0.0)) == "-0.1000004"
    assert format_score(1e-9, (0.0,)) == "+1.00e-09"


def test_pandas_nullable_missing_scores_and_labels_are_excluded_and_counted():
    import pandas as pd

    a = pd.Series([0.5, None, 0.75, 1.0, 0.25], dtype="Float64")
    b = pd.Series([0.25, 0.5, 0.5, 0.5, 0.0], dtype="Float64")
    clusters = pd.Series(["x", "y", pd.NA, "y", "x"], dtype="string")
    r = compare_scores(a, b, clusters=clusters)
    assert r.excluded == {"missing_score": 1, "infinite_score": 0, "missing_cluster": 1}
    assert (r.n, r.clusters) == (3, 2)


def test_ragged_scores_are_refused():
    with pytest.raises(CalculatorError, match="one-dimensional"):
        compare_scores([[1, 2], [3]], [1, 2])
