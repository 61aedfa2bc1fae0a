"""calculator.release: the release gate `is_worse` and the cluster sentence.

Exact p-values in the tables are binomial sums worked by hand: with b only-A and c only-B cases,
the doubled tail is 2 * sum_{k <= min(b, c)} C(b + c, k) / 2^(b + c), capped at 1.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import analyze, mcnemar_chi2
from calculator.clustered import clustered_mcnemar
from calculator.release import is_worse
from calculator.report.clusters import describe_cluster_change

# (b, c, alpha, worse): hand-computed doubled tails.
GATE = [
    (6, 0, 0.03125, True),  # p = 2 / 2^6 = 0.03125: p equal to alpha rejects
    (6, 0, 0.0312, False),  # just below that p
    (10, 0, 0.01, True),  # p = 2 / 2^10 = 0.00195
    (4, 1, 0.05, False),  # p = 2 * (1 + 5) / 2^5 = 0.375
    (0, 10, 0.05, False),  # B better, p = 0.00195: never "worse"
    (0, 0, 0.5, False),  # no discordant pairs: p = 1
    (5, 5, 0.99, False),  # b == c: not worse whatever alpha
]


@pytest.mark.parametrize(("b", "c", "alpha", "worse"), GATE)
def test_is_worse_against_hand_computed_exact_tails(b, c, alpha, worse) -> None:
    assert is_worse(analyze(3, b, c, 2), alpha) is worse


@given(
    b=st.integers(0, 60),
    c=st.integers(0, 60),
    alpha=st.floats(1e-6, 0.5),
)
def test_is_worse_only_when_b_leads_and_p_is_at_most_alpha(b, c, alpha) -> None:
    analysis = analyze(1, b, c, 1)
    if is_worse(analysis, alpha):
        assert b > c and analysis.exact.pvalue <= alpha * (1 + 1e-12)
        assert not is_worse(analyze(1, c, b, 1), alpha)  # the mirror table is never worse
    elif b > c:
        assert analysis.exact.pvalue > alpha


def test_cluster_sentence_gives_both_p_values_and_the_factor() -> None:
    # Durkalski et al. (2003), X2 = (b - c)^2 / sum_i (b_i - c_i)^2: b = 9, c = 4, and the
    # per-cluster differences 3, 1, -2, 3 give X2 = 25 / 23 = 1.087.
    cluster = clustered_mcnemar([3, 2, 0, 4], [0, 1, 2, 1])
    text = describe_cluster_change(cluster, mcnemar_chi2(9, 4))
    assert "X2 = 1.087" in text and "p = 0.297" in text and "p = 0.166" in text
    assert text.endswith("multiplies p by 1.8.")


def test_cluster_sentence_without_a_leaning_cluster() -> None:
    cluster = clustered_mcnemar([1, 2], [1, 2])
    assert cluster.statistic is None
    assert "every b_i equals c_i" in describe_cluster_change(cluster, mcnemar_chi2(3, 3))


def test_cluster_sentence_says_p_is_unchanged_when_every_cluster_is_one_case() -> None:
    # One case per cluster: the cluster-adjusted statistic equals McNemar's (Durkalski et al.
    # 2003), so "multiplies p by 1" would be an odd way to say nothing changed.
    from calculator import mcnemar_chi2
    from calculator.clustered import clustered_mcnemar

    cluster = clustered_mcnemar([1, 1, 1, 0, 0], [0, 0, 0, 1, 0])
    text = describe_cluster_change(cluster, mcnemar_chi2(3, 1))
    assert text.endswith("counting clusters leaves p as it was.")
    assert "multiplies" not in text
