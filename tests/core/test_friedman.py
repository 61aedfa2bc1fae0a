"""Friedman's test, the Iman-Davenport F, Nemenyi's critical difference and the pairs.

References used below, each with its provenance:
- scipy 1.17.1: ``scipy.stats.friedmanchisquare(*columns)`` (statistic and chi-square p, with
  its tie correction) on tables drawn here with ``numpy.random.default_rng`` and fixed seeds,
  rounded so that rows hold ties.
- Brute force: every one of the (k!)^n arrangements of each case's ranks among the systems of a
  3-system x 4-case table (1,296 arrangements), Q computed for each.
- Demšar (2006), JMLR 7:1-30: Table 5(a), the Nemenyi q_0.05 for k = 2..10 (1.960, 2.343,
  2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164), and the worked example of section 3.2.2:
  four classifiers on 14 data sets with average ranks 3.143, 2.000, 2.893 and 1.964 give
  chi2_F = 9.28, F_F = 3.69 and CD = 1.25 (as recalled from the paper; the data table itself
  was not at hand, so the statistics are checked from the printed average ranks).
"""

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from calculator.compare.friedman import (
    friedman_compare,
    friedman_exact_pvalue,
    friedman_statistic,
    iman_davenport,
    nemenyi_critical_difference,
    row_ranks,
)


@pytest.mark.parametrize(
    ("seed", "n", "k", "decimals"), [(1, 30, 3, 1), (2, 12, 5, 0), (3, 200, 4, 2)]
)
def test_friedman_chi_square_matches_scipy(seed, n, k, decimals):
    rng = np.random.default_rng(seed)
    scores = np.round(rng.normal(size=(n, k)) + np.linspace(0, 1, k), decimals)
    result = friedman_compare(scores, [f"s{j}" for j in range(k)])
    reference = stats.friedmanchisquare(*scores.T)
    assert result.statistic == pytest.approx(reference.statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(reference.pvalue, rel=1e-9)


# Demšar (2006), section 3.2.2: n = 14, k = 4, average ranks as printed.
DEMSAR_RANKS = (3.143, 2.000, 2.893, 1.964)


def test_demsar_worked_example_from_its_average_ranks():
    n, k = 14, 4
    chi2 = 12 * n / (k * (k + 1)) * (sum(r * r for r in DEMSAR_RANKS) - k * (k + 1) ** 2 / 4)
    assert chi2 == pytest.approx(9.28, abs=0.02)  # the ranks are rounded to 3 decimals
    assert iman_davenport(9.28, n, k)[0] == pytest.approx(3.69, abs=0.005)
    assert nemenyi_critical_difference(k, n) == pytest.approx(1.25, abs=0.005)
    # Only the gap 3.143 - 1.964 = 1.179 < 1.25 is close; none exceeds the CD (Demšar).
    gaps = [abs(a - b) for a, b in itertools.combinations(DEMSAR_RANKS, 2)]
    assert max(gaps) < nemenyi_critical_difference(k, n)


# Demšar (2006), Table 5(a): q_0.05 of the Nemenyi test for k = 2..10.
@pytest.mark.parametrize(
    ("k", "q"),
    list(
        zip(
            range(2, 11),
            (1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164),
            strict=True,
        )
    ),
)
def test_nemenyi_q_matches_demsar_table(k, q):
    # CD = q sqrt(k (k + 1) / (6 n)); at n = k (k + 1) / 6 the CD is q itself.
    n = k * (k + 1) / 6
    assert nemenyi_critical_difference(k, n) == pytest.approx(q, abs=1.5e-3)


def brute_force_pvalue(ranks: np.ndarray) -> float:
    observed = friedman_statistic(ranks)
    arrangements = [list(itertools.permutations(row)) for row in ranks]
    values = [
        friedman_statistic(np.array(choice, dtype=float))
        for choice in itertools.product(*arrangements)
    ]
    return sum(v >= observed - 1e-9 for v in values) / len(values)


# Brute force over 6^4 = 1,296 arrangements (ties included: row 2 and row 4).
@pytest.mark.parametrize(
    "scores",
    [
        [[3, 2, 1], [5, 5, 1], [2, 1, 0], [1, 2, 2]],
        [[3, 2, 1], [3, 2, 1], [3, 1, 2], [1, 3, 2]],
        [[1, 1, 1], [2, 1, 0], [0, 1, 2], [4, 4, 0]],
    ],
)
def test_exact_pvalue_by_enumeration_on_a_3_by_4_table(scores):
    ranks = row_ranks(np.array(scores, dtype=float))
    assert friedman_exact_pvalue(ranks) == pytest.approx(brute_force_pvalue(ranks), rel=1e-12)


def test_large_tables_fall_back_to_the_f_test_by_name():
    rng = np.random.default_rng(4)
    scores = rng.normal(size=(60, 6))
    result = friedman_compare(scores, list("ABCDEF"))
    assert result.exact_pvalue is None and result.method == "f"
    assert result.decision_pvalue == result.f_pvalue


def test_every_case_tied_gives_p_one():
    result = friedman_compare(np.ones((5, 3)), ["A", "B", "C"])
    assert result.statistic is None and result.decision_pvalue == 1.0 and not result.reject


@given(
    st.integers(2, 8).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(0, 3), min_size=3, max_size=3), min_size=n, max_size=n
        )
    )
)
def test_properties_of_small_tables(rows):
    result = friedman_compare(np.array(rows, dtype=float), ["A", "B", "C"])
    assert sum(result.average_ranks) == pytest.approx(3 * 4 / 2)
    for p in (result.pvalue, result.f_pvalue, result.decision_pvalue):
        assert 0.0 <= p <= 1.0
    assert result.method == "exact"
    assert len(result.pairs) == 3
    for pair in result.pairs:
        assert pair.adjusted_pvalue >= pair.pvalue - 1e-15
        assert pair.beyond_cd == (abs(pair.rank_gap) > result.critical_difference)
    json.dumps(result.to_dict(), allow_nan=False)


def test_pairs_are_signed_rank_tests_adjusted_by_holm():
    rng = np.random.default_rng(9)
    scores = rng.normal(size=(40, 3)) + [0.0, 0.3, 1.0]
    result = friedman_compare(scores, ["A", "B", "C"])
    raw = [
        stats.wilcoxon(scores[:, j] - scores[:, m], correction=False).pvalue
        for j, m in itertools.combinations(range(3), 2)
    ]
    assert [pair.pvalue for pair in result.pairs] == pytest.approx(raw, rel=1e-9)
    order = np.argsort(raw)
    holm = np.maximum.accumulate([min(1, (3 - i) * raw[j]) for i, j in enumerate(order)])
    expected = np.empty(3)
    expected[order] = holm
    assert [pair.adjusted_pvalue for pair in result.pairs] == pytest.approx(expected)
    assert result.ranking[0] == "C" and math.isfinite(result.critical_difference)


def test_rank_gap_reads_a_minus_b_like_every_difference():
    # Ranks by hand (1 = highest score): rows 1-3 rank A 1, B 2, C 3; row 4 ranks B 1, A 2,
    # C 3. Average ranks A 1.25, B 1.75, C 3.00, so A − B = -0.50, A − C = -1.75,
    # B − C = -1.25: negative when the first ranks better, in the pair's own order A − B.
    x = [[0.9, 0.5, 0.1], [0.8, 0.6, 0.2], [0.7, 0.4, 0.3], [0.6, 0.7, 0.1]]
    result = friedman_compare(x, ["A", "B", "C"])
    gaps = {(p.a, p.b): p.rank_gap for p in result.pairs}
    assert gaps == pytest.approx({("A", "B"): -0.50, ("A", "C"): -1.75, ("B", "C"): -1.25})
    assert result.to_dict()["pairs"][0]["rank_gap"] == pytest.approx(-0.50)


@given(
    st.lists(st.lists(st.integers(0, 3), min_size=4, max_size=4), min_size=2, max_size=8),
    st.sampled_from(["higher", "lower"]),
)
def test_rank_gap_is_first_average_rank_minus_second(rows, better):
    result = friedman_compare(np.array(rows, dtype=float), list("ABCD"), better=better)
    ranks = dict(zip(result.names, result.average_ranks, strict=True))
    for pair in result.pairs:
        assert pair.rank_gap == pytest.approx(ranks[pair.a] - ranks[pair.b])
