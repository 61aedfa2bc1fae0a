"""The cluster-adjusted McNemar test (Durkalski, Palesch, Lipsitz & Rust 2003, Stat Med 22:2417).

X2 = (b - c)^2 / sum_i (b_i - c_i)^2 on 1 df (their test statistic). Reference values are worked by
hand in the comments; p-values of a given X2 come from scipy: ``scipy.stats.chi2.sf(x2, 1)`` (1.17).
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from calculator import mcnemar_chi2
from calculator.clustered import cluster_discordant_counts, clustered_mcnemar

# Hand-computed: (b_i, c_i) per cluster -> X2.
# scipy.stats.chi2.sf(X2, 1) for the p-value column.
HAND_EXAMPLES = [
    # b = 3+2+0+4 = 9, c = 0+1+2+1 = 4; (b-c)^2 = 25; sum (b_i-c_i)^2 = 9+1+4+9 = 23; X2 = 25/23
    ([3, 2, 0, 4], [0, 1, 2, 1], 25 / 23, 0.29715),
    # b = 5, c = 5: numerator 0, denominator (5-0)^2 + (0-5)^2 = 50; X2 = 0, p = 1
    ([5, 0], [0, 5], 0.0, 1.0),
    # b = 6, c = 0 in three clusters of 2: 36 / (4+4+4) = 3; plain McNemar would give 36/6 = 6
    ([2, 2, 2], [0, 0, 0], 3.0, 0.08326),
    # b = 10, c = 2: 64 / ((4-1)^2 + (6-1)^2 + 0) = 64/34; the concordant-only cluster counts
    ([4, 6, 0], [1, 1, 0], 64 / 34, 0.17007),
]


@pytest.mark.parametrize(("b_i", "c_i", "statistic", "pvalue"), HAND_EXAMPLES)
def test_hand_computed_examples(b_i, c_i, statistic, pvalue):
    result = clustered_mcnemar(b_i, c_i)
    assert result.statistic == pytest.approx(statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(pvalue, abs=5e-6)
    assert result.clusters == len(b_i)
    assert 10**result.log10_pvalue == pytest.approx(result.pvalue, rel=1e-9)


def test_clustering_makes_the_p_value_larger_than_the_plain_test_here():
    # Third example: the same b = 6, c = 0, plain X2 = 6 (p 0.014) but clustered X2 = 3 (p 0.083).
    clustered = clustered_mcnemar([2, 2, 2], [0, 0, 0])
    plain = mcnemar_chi2(6, 0)
    assert plain.statistic == pytest.approx(6.0)
    assert clustered.pvalue > plain.pvalue


@given(st.integers(0, 300), st.integers(0, 300))
def test_one_case_per_cluster_equals_the_uncorrected_mcnemar(b, c):
    # Each cluster holds one case, so (b_i - c_i)^2 = b_i + c_i and X2 = (b - c)^2 / (b + c).
    b_i = [1] * b + [0] * c + [0, 0]  # two concordant cases as clusters too
    c_i = [0] * b + [1] * c + [0, 0]
    result = clustered_mcnemar(b_i, c_i)
    plain = mcnemar_chi2(b, c)
    if b + c == 0:
        assert result.statistic is None and plain.statistic is None
        assert result.pvalue == plain.pvalue == 1.0
        return
    assert result.statistic == pytest.approx((b - c) ** 2 / (b + c), rel=1e-12, abs=1e-12)
    assert result.statistic == pytest.approx(plain.statistic, rel=1e-12, abs=1e-12)
    assert result.pvalue == pytest.approx(plain.pvalue, rel=1e-9, abs=1e-300)
    assert result.log10_pvalue == pytest.approx(plain.log10_pvalue, rel=1e-9, abs=1e-12)


def test_extreme_singletons_keep_a_finite_log_p():
    # b = 5000, c = 0 singletons: X2 = 5000, p far below 1e-300; same log10 p as the plain test.
    result = clustered_mcnemar([1] * 5000, [0] * 5000)
    assert result.pvalue == 0.0
    assert result.log10_pvalue == pytest.approx(mcnemar_chi2(5000, 0).log10_pvalue, rel=1e-9)
    assert math.isfinite(result.log10_pvalue) and result.log10_pvalue < -1000


def test_no_discordant_cases_gives_p_one():
    result = clustered_mcnemar([0, 0, 0], [0, 0, 0])
    assert result.statistic is None and result.pvalue == 1.0 and result.log10_pvalue == 0.0
    assert result.clusters == 3


def test_every_cluster_balanced_gives_p_one():
    result = clustered_mcnemar([2, 1], [2, 1])
    assert result.statistic is None and result.pvalue == 1.0


def test_a_single_leaning_cluster_gives_x2_of_one():
    assert clustered_mcnemar([7], [2]).statistic == pytest.approx(1.0)


def test_to_dict_is_plain():
    assert clustered_mcnemar([1], [1]).to_dict() == {
        "statistic": None,
        "pvalue": 1.0,
        "log10_pvalue": 0.0,
        "clusters": 1,
    }


@given(
    st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), min_size=1, max_size=30),
)
def test_invariants(clusters):
    b_i, c_i = [b for b, _ in clusters], [c for _, c in clusters]
    result = clustered_mcnemar(b_i, c_i)
    assert 0.0 <= result.pvalue <= 1.0
    swapped = clustered_mcnemar(c_i, b_i)
    assert swapped.statistic == result.statistic and swapped.pvalue == result.pvalue
    # Twice the clusters, each repeated: numerator x4, denominator x2, so X2 doubles.
    doubled = clustered_mcnemar(b_i * 2, c_i * 2)
    if result.statistic is None:
        assert doubled.statistic is None
    else:
        assert doubled.statistic == pytest.approx(2 * result.statistic, rel=1e-12, abs=1e-12)
    if result.statistic is not None:
        assert result.pvalue == pytest.approx(stats.chi2.sf(result.statistic, 1), rel=1e-12)


@pytest.mark.parametrize(
    ("b_i", "c_i", "error", "match"),
    [
        ([1.0, 2.0], [0, 1], TypeError, "integers"),
        ([True], [False], TypeError, "integers"),
        ([1, -3], [0, 1], ValueError, "got -3 for cluster 1"),
        ([1, 2], [0], ValueError, "one entry per cluster"),
        ([], [], ValueError, "at least one cluster"),
        ([[1, 2]], [[0, 1]], ValueError, "flat"),
    ],
)
def test_bad_counts(b_i, c_i, error, match):
    with pytest.raises(error, match=match):
        clustered_mcnemar(b_i, c_i)


@given(
    st.lists(
        st.tuples(st.booleans(), st.booleans(), st.sampled_from(["d1", "d2", "d3", "d4"])),
        min_size=1,
        max_size=40,
    )
)
def test_cluster_counts_match_a_direct_count(cases):
    a_pass = [a for a, _, _ in cases]
    b_pass = [b for _, b, _ in cases]
    groups = [g for _, _, g in cases]
    b_i, c_i = cluster_discordant_counts(a_pass, b_pass, groups)
    expected = defaultdict(lambda: [0, 0])
    for a, b, group in cases:
        expected[group][0] += a and not b
        expected[group][1] += b and not a
    labels = sorted(expected)
    assert b_i.tolist() == [expected[g][0] for g in labels]
    assert c_i.tolist() == [expected[g][1] for g in labels]
    assert int(np.sum(b_i)) == sum(a and not b for a, b in zip(a_pass, b_pass, strict=True))


def test_cluster_counts_need_equal_lengths():
    with pytest.raises(ValueError, match="one length"):
        cluster_discordant_counts([True], [True, False], ["d1"])
