"""Clusters too few or too unequal to bound the difference (statistics 4, C6).

With one cluster, or an effective number of clusters n^2 / sum n_i^2 at most z^2, the
cluster-robust interval {D0 : |Z(D0)| <= z} is not bounded (its quadratic's leading coefficient
n^2 - z^2 sum n_i^2 is not positive; calculator.clustered.cluster_score_interval), so the hull
is [-1, 1]. Before, the answer read "the 90% cluster-robust interval ..., -100.0 to +100.0
points, does not lie entirely above -2 points (... p = 0.841 ...)": with one cluster
Z(D0) = +/-1 whatever the data (the one residual over its own size), so p = Phi(-1) = 0.841
one-sided (scipy.stats.norm.sf(1) = 0.15866, and 1 - 0.15866 = 0.84134) is no evidence.
Now the answer says the clusters cannot bound the difference and quotes no p.

z^2 references: scipy.stats.norm.ppf(0.95)**2 = 2.7055 (90%), norm.ppf(0.975)**2 = 3.8415 (95%).
"""

from __future__ import annotations

import pytest

from calculator import analyze
from calculator.clustered import Clusters, effective_clusters, interval_bound_of
from calculator.report.decision import decision_pvalue
from calculator.report.words import text


def test_one_cluster_gives_no_interval_and_quotes_no_p():
    one = Clusters.from_counts([15], [5], [100])
    decision = analyze(60, 15, 5, 20, margin=0.02, clusters=one).decision
    assert decision.pvalue == pytest.approx(0.8413447460685429, rel=1e-12)
    assert not decision.interval_bounded and decision.effective_clusters == 1.0
    sentence = text(decision)
    assert "one cluster cannot bound the difference" in sentence
    assert "z² = 2.71" in sentence and "-100.0" not in sentence and "0.841" not in sentence
    assert decision_pvalue(decision) == "not quoted"
    assert decision.to_dict()["interval_bounded"] is False


def test_unequal_clusters_below_z_squared_are_named_too_unequal():
    # 900 cases in one cluster and 100 of one case each: n^2 / sum n_i^2 = 10^6 / 810,100.
    sizes = [900] + [1] * 100
    b = [100] + [1] * 60 + [0] * 40
    c = [60] + [0] * 60 + [0] * 40
    clusters = Clusters.from_counts(b, c, sizes)
    assert effective_clusters(clusters) == pytest.approx(1e6 / 810_100, rel=1e-12)
    assert interval_bound_of(0.95) == pytest.approx(3.841458820694124, rel=1e-12)
    decision = analyze(680, 160, 60, 100, clusters=clusters).decision
    assert not decision.interval_bounded
    assert "the 101 clusters are too few or too unequal in size" in text(decision)


def test_enough_equal_clusters_keep_their_interval():
    clusters = Clusters.from_counts([8, 0] * 20, [0, 8] * 20, [25] * 40)
    decision = analyze(680, 160, 160, 0, margin=0.05, clusters=clusters).decision
    assert decision.interval_bounded and decision.effective_clusters == 40.0
    assert "-8.6 to +8.6 points" in text(decision)
