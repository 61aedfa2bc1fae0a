"""The partial-conjunction count of tasks with an effect (Benjamini & Heller 2008; Dror, Baumer,
Bogomolov & Reichart 2017, TACL 5:471).

References used below, each with its provenance:
- Dror et al. (2017)'s example as quoted in issue #35 (the paper itself was not at hand): six
  p-values 0.168, 0.297, 0.357, 0.019, 0.218, 0.001 at alpha 0.05 give K-Bonferroni 1,
  K-Fisher 2, and Holm names the sixth. The partial-conjunction p-values below were computed
  by hand from the formulas (Bonferroni: 6 x 0.001, 5 x 0.019; Fisher: chi-square tails with
  scipy 1.17.1 ``stats.chi2.sf(-2 * sum(log p), 2 * (m - u + 1))``).
- scipy 1.17.1: ``scipy.stats.combine_pvalues(p, method="fisher")`` for u = 1 (the global null).
- scipy 1.17.1: ``scipy.stats.binomtest(b, b + c, 0.5, alternative="less")`` for the one-sided
  exact McNemar p of "B better".
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from calculator.compare.conjunction import better_on_tasks, partial_conjunction

DROR = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]


# Dror et al. (2017), quoted in issue #35; the p-values of u = 1, 2 by hand as above.
@pytest.mark.parametrize(
    ("pvalues", "bonferroni", "fisher", "named", "bonferroni_p", "fisher_p"),
    [(DROR, 1, 2, ("6",), (0.006, 0.095), (0.0010237, 0.039898))],
)
def test_dror_et_al_example(pvalues, bonferroni, fisher, named, bonferroni_p, fisher_p):
    result = partial_conjunction(pvalues, alpha=0.05)
    assert result.bonferroni_count == bonferroni
    assert result.fisher_count == fisher
    assert result.holm_named == named
    assert result.bonferroni_pvalues[:2] == pytest.approx(bonferroni_p, rel=1e-12)
    assert result.fisher_pvalues[:2] == pytest.approx(fisher_p, abs=5e-7)


@given(st.lists(st.floats(1e-12, 1.0), min_size=1, max_size=12))
def test_fisher_at_u_one_is_fishers_combination(pvalues):
    result = partial_conjunction(pvalues)
    expected = stats.combine_pvalues(pvalues, method="fisher").pvalue
    assert result.fisher_pvalues[0] == pytest.approx(expected, rel=1e-9, abs=1e-300)


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=12), st.sampled_from([0.01, 0.05, 0.2]))
def test_counts_are_bounded_monotone_and_cover_holms_names(pvalues, alpha):
    result = partial_conjunction(pvalues, alpha=alpha)
    m = len(pvalues)
    assert 0 <= result.bonferroni_count <= m and 0 <= result.fisher_count <= m
    for series in (result.bonferroni_pvalues, result.fisher_pvalues):
        assert all(0 <= p <= 1 for p in series)
        assert list(series) == sorted(series)
    # Holm's names are held at family-wise alpha, so the count is at least as many.
    assert len(result.holm_named) <= result.bonferroni_count
    # The Bonferroni count u needs p_(u) <= alpha: never more than the tasks with p <= alpha.
    assert result.bonferroni_count <= sum(p <= alpha for p in pvalues)


def test_the_count_holds_its_level_when_no_task_has_an_effect():
    # 20 tasks, no effect anywhere: uniform p-values; a count of at least 1 is a false claim.
    rng = np.random.default_rng(7)
    draws = rng.random((4000, 20))
    false_bonferroni = np.mean([partial_conjunction(p).bonferroni_count > 0 for p in draws])
    false_fisher = np.mean([partial_conjunction(p).fisher_count > 0 for p in draws])
    naive = np.mean((draws <= 0.05).any(axis=1))
    assert false_bonferroni <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 4000)
    assert false_fisher <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 4000)
    assert naive > 0.6  # counting the tasks with p <= alpha claims one most of the time


# scipy 1.17.1 binomtest(b, b + c, 0.5, alternative="less").pvalue: B better on a task.
@pytest.mark.parametrize(("b", "c"), [(1, 12), (0, 9), (5, 6), (7, 2), (0, 0)])
def test_one_sided_task_pvalues_are_the_exact_binomial_tails(b, c):
    (count,) = better_on_tasks(["t"], [b], [c], ("A", "B"), alternative="greater")
    expected = stats.binomtest(b, b + c, 0.5, alternative="less").pvalue if b + c else 1.0
    assert count.better == "B" and count.other == "A"
    assert count.count.pvalues[0] == pytest.approx(expected, rel=1e-12)


def test_two_sided_asks_both_directions_each_at_half_alpha():
    counts = better_on_tasks(["t1", "t2"], [0, 9], [9, 0], ("A", "B"), alpha=0.05)
    assert [(c.better, c.alpha) for c in counts] == [("B", 0.025), ("A", 0.025)]
    assert [c.count.holm_named for c in counts] == [("t1",), ("t2",)]
    (less,) = better_on_tasks(["t1", "t2"], [0, 9], [9, 0], ("A", "B"), alternative="less")
    assert less.better == "A" and less.alpha == 0.05


@pytest.mark.parametrize("bad", [[], [0.5, 1.2], [float("nan")]])
def test_bad_pvalues_are_refused(bad):
    with pytest.raises(ValueError, match="pvalues"):
        partial_conjunction(bad)
