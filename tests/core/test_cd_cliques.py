"""The critical-difference diagram's groups (cliques) and Friedman by task.

References used below, each with its provenance:
- Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7,
  1-30, sections 3.2.2 and 3.2.4: four classifiers (C4.5, C4.5+m, C4.5+cf, C4.5+m+cf) on 14 data
  sets with average ranks 3.143, 2.000, 2.893 and 1.964. At alpha = 0.05 the CD is 1.25 and no
  two differ (the largest gap, 1.179, is below it): one group of all four. At alpha = 0.10 the
  CD is 1.12 (q_0.10 = 2.291): "the performance of pure C4.5 is significantly worse than that
  of C4.5+m and C4.5+m+cf", while the data cannot place C4.5+cf (paraphrased) - two groups,
  {C4.5+m+cf, C4.5+m, C4.5+cf} and {C4.5+cf, C4.5}.
- Brute force: every subset of the systems, kept when no two average ranks differ by more than
  the CD, and the maximal ones under inclusion (an independent computation of the cliques,
  with no use of the ordering).
- scipy 1.17.1: ``scipy.stats.friedmanchisquare(*columns)`` within each task.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from calculator.compare.friedman import cd_cliques, friedman_compare, nemenyi_critical_difference
from calculator.compare.friedman_suite import friedman_by_task
from calculator.compare.multiplicity import adjust_pvalues
from calculator.errors import CalculatorError

DEMSAR = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}


def _ordered(ranks: dict[str, float]) -> tuple[list[str], list[float]]:
    names = sorted(ranks, key=ranks.get)
    return names, [ranks[n] for n in names]


@pytest.mark.parametrize(
    ("alpha", "printed_cd", "groups"),
    [
        (0.05, 1.25, [("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]),
        (0.10, 1.12, [("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5")]),
    ],
)
def test_demsar_published_groups(alpha, printed_cd, groups):
    cd = nemenyi_critical_difference(4, 14, alpha)
    assert cd == pytest.approx(printed_cd, abs=0.005)
    assert list(cd_cliques(*_ordered(DEMSAR), cd)) == groups


def _brute_force(names, ranks, cd):
    within = [
        set(subset)
        for size in range(1, len(names) + 1)
        for subset in itertools.combinations(range(len(names)), size)
        if max(ranks[i] for i in subset) - min(ranks[i] for i in subset) <= cd
    ]
    maximal = [s for s in within if not any(s < other for other in within)]
    return sorted(tuple(names[i] for i in sorted(s)) for s in maximal)


@given(
    st.lists(st.floats(1.0, 8.0, allow_nan=False), min_size=1, max_size=8),
    st.floats(0.0, 4.0, allow_nan=False),
)
def test_cliques_are_the_maximal_groups_within_the_cd(values, cd):
    ranks = sorted(round(v, 2) for v in values)
    names = [f"s{i}" for i in range(len(ranks))]
    found = cd_cliques(names, ranks, cd)
    assert sorted(found) == _brute_force(names, ranks, cd)
    assert {n for c in found for n in c} == set(names)  # every system drawn


def test_cliques_agree_with_the_pairs_beyond_the_cd():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(25, 6)) + np.linspace(0, 1.5, 6)
    r = friedman_compare(x, list("ABCDEF"))
    together = {frozenset(p) for c in r.cliques() for p in itertools.combinations(c, 2)}
    for pair in r.pairs:
        assert (frozenset((pair.a, pair.b)) in together) == (not pair.beyond_cd)
    payload = r.to_dict()
    assert payload["cliques"] == [list(c) for c in r.cliques()]
    assert payload["critical_difference"] == r.critical_difference


def test_ranks_out_of_order_are_refused():
    with pytest.raises(CalculatorError, match="ascending"):
        cd_cliques(["a", "b"], [2.0, 1.0], 0.5)


def test_friedman_by_task_matches_scipy_within_each_task_and_holm_across():
    rng = np.random.default_rng(3)
    x = np.round(rng.normal(size=(90, 3)) + [0, 0.3, 0.6], 1)
    tasks = np.array(["t1"] * 40 + ["t2"] * 50)
    suite = friedman_by_task(x, ["a", "b", "c"], tasks)
    assert suite.tasks == ("t1", "t2") and suite.sizes == (40, 50)
    for task, result in zip(suite.tasks, suite.by_task, strict=True):
        reference = stats.friedmanchisquare(*x[tasks == task].T)
        assert result.statistic == pytest.approx(reference.statistic, rel=1e-12)
    decided = [r.decision_pvalue for r in suite.by_task]
    assert list(suite.holm_pvalues) == pytest.approx(list(adjust_pvalues(decided)))


def test_a_task_of_one_question_has_no_friedman():
    x = np.array([[1.0, 2, 3], [3, 2, 1], [2, 1, 3], [0, 1, 2]])
    suite = friedman_by_task(x, ["a", "b", "c"], np.array(["t", "t", "t", "u"]))
    assert suite.by_task[1] is None and suite.holm_pvalues[1] is None
    assert suite.holm_pvalues[0] == suite.by_task[0].decision_pvalue  # a family of one


def test_many_systems_skip_the_enumeration_without_listing_permutations():
    # 50 systems: 50! orders per case; the bound is checked before any is listed (before the
    # fix the first row's permutations were listed, which never ended).
    x = np.random.default_rng(1).normal(size=(200, 50))
    result = friedman_compare(x, [f"s{j}" for j in range(50)])
    assert result.exact_pvalue is None and result.method == "f"


def test_tied_rows_of_many_systems_are_enumerated_by_their_distinct_orders():
    # 12 systems tied but for one on each of 3 cases: 12 distinct orders per case, so the
    # exact p is enumerated; by symmetry every arrangement of the lone winners among the 12
    # systems is as likely, and P[sum of squared rank sums >= observed] counts them:
    # the observed (three different winners) is the least extreme of the 12^3 outcomes.
    x = np.zeros((3, 12))
    x[0, 0] = x[1, 1] = x[2, 2] = 1.0
    result = friedman_compare(x, [f"s{j}" for j in range(12)])
    assert result.method == "exact" and result.exact_pvalue == pytest.approx(1.0)


def test_cd_groups_in_words_name_a_lone_system_apart():
    from calculator.report.friedman import describe_cliques

    x = np.random.default_rng(1).normal(size=(60, 4)) + [0, 0.1, 0.2, 3]
    result = friedman_compare(x, list("ABCD"))
    assert [len(c) for c in result.cliques()] == [1, 3]  # D first and alone, as the ranks say
    words = describe_cliques(result)
    assert "{B (2.88), C (2.93), A (3.15)}" in words
    assert "D (1.03) stands apart: its average rank lies further than the CD" in words
