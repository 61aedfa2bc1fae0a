"""The cluster-aware decision: the cluster-robust score statistic, its interval, and every
question asked of clustered cases.

References: at D0 = 0 the statistic is Durkalski et al. (2003)'s clustered McNemar X2
(Statistics in Medicine 22:2417-2428), whose worked four-cluster example (25/23) is in
tests/core/test_clustered.py; with one case per cluster it is McNemar's uncorrected
chi-square. The interval's ends are checked against an independent computation written here:
the statistic summed case by case over the clusters with numpy and each end found by
scipy.optimize.brentq.
"""

from __future__ import annotations

import math
from dataclasses import astuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, special, stats

from calculator import analyze, mcnemar_chi2
from calculator.clustered import (
    Clusters,
    cluster_aware_test,
    cluster_score,
    cluster_score_interval,
    clustered_mcnemar,
)
from calculator.release import gate_fails
from calculator.report.decision import named_test
from calculator.report.words import text
from calculator.table import PairedTable


def docs(lose: int, win: int, *, per: int = 25, lead: int = 8) -> tuple[PairedTable, Clusters]:
    """`lose` documents where only A passes `lead` of `per` cases, `win` where only B does;
    the other cases of each document both pass."""
    b_i = [lead] * lose + [0] * win
    c_i = [0] * lose + [lead] * win
    clusters = Clusters.from_counts(b_i, c_i, [per] * (lose + win))
    n = per * (lose + win)
    b, c = sum(b_i), sum(c_i)
    return PairedTable(n - b - c, b, c, 0), clusters


def per_case(clusters: Clusters) -> tuple[np.ndarray, np.ndarray]:
    """Every case's B - A (1, -1 or 0) and its cluster label."""
    diffs, labels = [], []
    for i, (b, c, n) in enumerate(
        zip(clusters.b_counts, clusters.c_counts, clusters.sizes, strict=True)
    ):
        diffs += [-1] * b + [1] * c + [0] * (n - b - c)
        labels += [i] * n
    return np.array(diffs, float), np.array(labels)


def independent_score(diffs: np.ndarray, labels: np.ndarray, d0: float) -> float:
    residual = diffs - d0
    by_cluster = np.bincount(labels, weights=residual)
    return residual.sum() / math.sqrt(np.sum(by_cluster**2))


def test_forty_documents_half_lost_half_won_give_an_interval_of_about_eight_points_at_90_percent():
    table, clusters = docs(20, 20)
    low, high = cluster_score_interval(clusters, 0.90)
    diffs, labels = per_case(clusters)
    z = special.ndtri(0.95)
    ref_low = optimize.brentq(lambda d: independent_score(diffs, labels, d) - z, -0.5, 0.0)
    ref_high = optimize.brentq(lambda d: independent_score(diffs, labels, d) + z, 0.0, 0.5)
    assert (low, high) == pytest.approx((ref_low, ref_high), abs=1e-10)
    assert high == pytest.approx(0.086, abs=0.001) and low == pytest.approx(-high)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6)), min_size=5, max_size=30
    )
)
def test_interval_ends_solve_the_score_equation(rows):
    clusters = Clusters.from_counts(
        [r[0] for r in rows], [r[1] for r in rows], [r[0] + r[1] + r[2] + 1 for r in rows]
    )
    if not any(clusters.b_counts) and not any(clusters.c_counts):
        return  # no discordant case: Z is 0/0 at 0 and +-sqrt(effective clusters) elsewhere
    low, high = cluster_score_interval(clusters, 0.95)
    diffs, labels = per_case(clusters)
    estimate = diffs.mean()
    assert low <= estimate <= high
    z = special.ndtri(0.975)
    for end in (low, high):
        if -1.0 < end < 1.0:
            assert abs(independent_score(diffs, labels, end)) == pytest.approx(z, rel=1e-6)


def test_at_zero_the_statistic_is_durkalskis_and_with_singletons_mcnemars():
    clusters = Clusters.from_counts([3, 2, 0, 4], [0, 1, 2, 1], [5, 5, 5, 5])
    assert cluster_score(clusters, 0.0) ** 2 == pytest.approx(
        clustered_mcnemar([3, 2, 0, 4], [0, 1, 2, 1]).statistic
    )
    singles = Clusters.from_counts(
        [1] * 7 + [0] * 3 + [0] * 5, [0] * 7 + [1] * 3 + [0] * 5, [1] * 15
    )
    assert cluster_score(singles, 0.0) ** 2 == pytest.approx(mcnemar_chi2(7, 3).statistic)


def test_forty_documents_half_lost_half_won_are_not_shown_non_inferior_at_a_margin():
    # Plain Tango: the 90% interval for A - B is about +-2.9 points and lies below +5; counting
    # the 40 documents it is about +-8.6 and does not.
    table, clusters = docs(20, 20)
    plain = analyze(*astuple(table), margin=0.05)
    assert plain.decision.reject and not gate_fails(plain)
    counted = analyze(*astuple(table), margin=0.05, clusters=clusters)
    assert not counted.decision.reject and gate_fails(counted)
    assert counted.decision.high > 0.05  # A - B reaches above the margin (issue 30)
    assert "cluster-robust" in text(counted.decision)


def test_without_a_margin_the_gate_uses_the_cluster_adjusted_p():
    # 23 documents where B loses 8 cases, 17 where it wins 8: plain exact p = 0.009,
    # Durkalski X2 = 36 / 40 = 0.9, p = 0.343. The exact sign-flip test of the 40 leans +-8,
    # which X2 approximates, is the two-sided binomial test of 23 of 40:
    # scipy.stats.binomtest(23, 40).pvalue = 0.4296; the decision is held at it (statistics
    # review 4, A1), where it used to report the chi-square's 0.343.
    table, clusters = docs(23, 17)
    plain = analyze(*astuple(table))
    assert plain.exact.pvalue < 0.01 and gate_fails(plain)
    counted = analyze(*astuple(table), clusters=clusters)
    durkalski = clustered_mcnemar(list(clusters.b_counts), list(clusters.c_counts)).pvalue
    assert durkalski == pytest.approx(0.3428, abs=1e-4)
    assert counted.decision.pvalue == pytest.approx(stats.binomtest(23, 40).pvalue, rel=1e-9)
    assert (
        named_test(counted.decision)
        == "cluster-robust score test, held at the exact sign-flip test's p"
    )
    assert not gate_fails(counted)
    for question in ("worse", "better"):
        one_sided = analyze(*astuple(table), question=question, clusters=clusters).decision
        assert named_test(one_sided).startswith("cluster-robust score test")
        assert one_sided.level == pytest.approx(0.90)


def test_the_test_rejects_exactly_when_the_interval_clears_the_null():
    table, clusters = docs(23, 17)
    for null in (-0.12, -0.08, -0.05, 0.0, 0.03):
        result = cluster_aware_test(table, clusters, null=null, alternative="greater", level=0.9)
        assert (result.log10_pvalue <= math.log10(0.05)) == (result.low > null)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=12
    ),
    st.sampled_from(["different", "better", "worse"]),
)
def test_counting_clusters_never_claims_more_than_the_exact_test(rows, question):
    # Three singleton clusters where only A passes: the score statistics give a one-sided
    # p of 0.04, the exact test 1/8; the decision keeps the exact test's p as its floor.
    clusters = Clusters.from_counts(
        [r[0] for r in rows], [r[1] for r in rows], [r[0] + r[1] + r[2] + 1 for r in rows]
    )
    b, c, n = sum(clusters.b_counts), sum(clusters.c_counts), sum(clusters.sizes)
    table = PairedTable(n - b - c, b, c, 0)
    counted = analyze(*astuple(table), question=question, clusters=clusters).decision
    plain = analyze(*astuple(table), question=question).decision
    assert counted.log10_pvalue >= plain.log10_pvalue - 1e-12
    assert not (counted.reject and not plain.reject)


def test_five_clusters_leaning_alike_are_held_at_the_sign_flip_p():
    # Statistics review 4, A1, on clustered cases: 5 documents of 10 cases, 3 passed only by A
    # in each. Durkalski X2 = 15^2 / 45 = 5 (chi-square p = 0.025) and the exact McNemar p of
    # 15 to 0 is 6e-5, so the decision said "different" at 0.05. The 5 leans can take 2^5 sign
    # patterns, 2 of them as extreme: the exact sign-flip p is 2/32 = 0.0625.
    clusters = Clusters.from_counts([3] * 5, [0] * 5, [10] * 5)
    decision = analyze(35, 15, 0, 0, clusters=clusters).decision
    assert decision.pvalue == pytest.approx(0.0625, rel=1e-12) and not decision.reject
    assert named_test(decision) == "cluster-robust score test, held at the exact sign-flip test's p"
    one_sided = analyze(35, 15, 0, 0, question="worse", clusters=clusters).decision
    assert one_sided.pvalue == pytest.approx(1 / 32, rel=1e-12) and one_sided.reject


def test_a_sign_flip_hold_at_a_dyadic_alpha_rejects_at_the_tie():
    # 5 clusters leaning 3-0 to A, one-sided: the exact sign-flip p is 1/32 exactly, so at
    # alpha = 1/32 it rejects (p <= alpha), as the exact McNemar test does at its own ties.
    clusters = Clusters.from_counts([3] * 5, [0] * 5, [10] * 5)
    decision = analyze(35, 15, 0, 0, question="worse", alpha=1 / 32, clusters=clusters).decision
    assert decision.pvalue == 1 / 32 and decision.reject
