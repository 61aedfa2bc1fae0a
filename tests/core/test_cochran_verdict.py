"""Cochran's Q: one p-value decides, a Monte Carlo p at its floor is a bound, and the Monte Carlo
is fast enough for many systems.

References, each with its provenance:
- The ten cases below (three systems), where the two sentences once disagreed: chi-square
  p = 0.0439 (Q = 6.25 on 2 df, ``scipy.stats.chi2.sf(6.25, 2)`` = exp(-3.125) = 0.043937) and
  permutation p = 0.0549, here recomputed by enumerating all 3^8 arrangements of the eight
  informative cases (``itertools.product``, exact fractions) in :func:`brute_force_pvalue`.
- Monte Carlo p-values (1 + #{Q* >= Q}) / (1 + R): Phipson & Smyth (2010), Statistical
  Applications in Genetics and Molecular Biology 9(1), article 39; compared with the exact
  permutation p of the same data within 4 binomial standard errors.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from calculator.compare import cochran, cochran_q, compare_systems
from calculator.report.compare import describe_cochran, describe_pairs

# The verdict said "not shown" by the permutation p = 0.055 while the pairs
# sentence said "Cochran's Q rejects" by the chi-square p = 0.044.
SPLIT = np.array(
    [[0, 1, 0], [0, 1, 0], [0, 1, 0], [0, 0, 1], [0, 1, 1]]
    + [[0, 0, 0], [0, 0, 0], [1, 1, 0], [0, 1, 0], [1, 1, 0]],
    dtype=bool,
)


def brute_force_pvalue(x: np.ndarray) -> Fraction:
    """Share of all arrangements of each row's passes with Q at least the observed Q."""
    k = x.shape[1]
    rows = [row for row in x.astype(int).tolist() if 0 < sum(row) < k]

    def spread(chosen_rows):  # sum of squared column totals: Q grows with it, rows fixed
        return sum(sum(row[j] for row in chosen_rows) ** 2 for j in range(k))

    observed = spread(rows)
    choices = [
        [tuple(int(j in c) for j in range(k)) for c in itertools.combinations(range(k), sum(row))]
        for row in rows
    ]
    arrangements = list(itertools.product(*choices))
    return Fraction(sum(spread(a) >= observed for a in arrangements), len(arrangements))


def test_the_reference_values_of_the_split_example():
    q = cochran_q(SPLIT)
    assert q.statistic == pytest.approx(6.25)
    assert q.pvalue == pytest.approx(stats.chi2.sf(6.25, 2), rel=1e-12)
    assert round(q.pvalue, 4) == 0.0439
    assert q.method == "exact"
    assert q.exact_pvalue == pytest.approx(float(brute_force_pvalue(SPLIT)), rel=1e-12)
    assert round(q.exact_pvalue, 4) == 0.0549


def test_the_verdict_and_the_pairs_sentence_use_the_same_pvalue():
    result = compare_systems(SPLIT, ["A", "B", "C"])
    assert result.cochran.decision_pvalue == result.cochran.exact_pvalue
    assert result.cochran.rejects(0.05) is False
    verdict = describe_cochran(result)
    assert "By the exact permutation p, the data do not show" in verdict
    pairs = describe_pairs(result)
    assert "does not differ" in pairs or "0 of the 3 pairs" in pairs
    assert "rejects" not in pairs  # was: "Cochran's Q rejects equal pass rates" by chi-square


def test_when_q_rejects_the_pairs_sentence_names_the_same_basis():
    # Twelve cases A alone passes, ten C alone, one where all but A pass: Q rejects, and the
    # pairs sentence, if it speaks of Q, says which p it used.
    x = np.array([[1, 0, 0]] * 12 + [[0, 0, 1]] * 10 + [[0, 1, 1]], dtype=bool)
    result = compare_systems(x, ["A", "B", "C"])
    assert result.cochran.rejects(0.05) is True
    assert "rejected at α = 0.05" in describe_cochran(result)
    pairs = describe_pairs(result)
    if "Cochran's Q rejects" in pairs:
        assert "by the exact permutation p" in pairs


def floor_data() -> np.ndarray:
    # 60 cases only A passes, 2 where only A fails: no resample comes near (p about 3^-60).
    return np.array([[1, 0, 0]] * 60 + [[0, 1, 1]] * 2, dtype=bool)


def test_a_monte_carlo_p_at_its_floor_is_written_as_a_bound(monkeypatch):
    monkeypatch.setattr(cochran, "MAX_EXACT_STEPS", 0)
    result = compare_systems(floor_data(), ["A", "B", "C"], resamples=999)
    q = result.cochran
    assert q.method == "monte-carlo" and q.at_floor and q.floor == pytest.approx(1 / 1000)
    assert q.exact_pvalue == pytest.approx(1 / 1000)
    text = describe_cochran(result)
    assert "permutation p ≤ 1/1,000 (Monte Carlo: none of 999 resamples" in text
    assert "permutation p = 0.001" not in text
    assert q.rejects(0.05) is True and "rejected at α = 0.05" in text
    assert result.to_dict()["cochran"]["at_floor"] is True


def test_a_monte_carlo_p_at_its_floor_never_decides_below_it(monkeypatch):
    monkeypatch.setattr(cochran, "MAX_EXACT_STEPS", 0)
    result = compare_systems(floor_data(), ["A", "B", "C"], resamples=999, alpha=0.0005)
    assert result.cochran.rejects(0.0005) is None
    text = describe_cochran(result)
    assert "cannot tell whether p ≤ α = 0.0005" in text and "more resamples" in text
    assert "do not show" not in text and "rejected" not in text
    assert "Cochran's Q rejects" not in describe_pairs(result)
    # Enough resamples decide it.
    more = compare_systems(floor_data(), ["A", "B", "C"], resamples=9_999, alpha=0.0005)
    assert more.cochran.rejects(0.0005) is True


def test_a_monte_carlo_p_above_its_floor_is_an_estimate():
    x = np.random.default_rng(1).random((20, 24)) < 0.5
    q = cochran_q(x, resamples=999)
    assert q.method == "monte-carlo" and not q.at_floor and q.exact_pvalue > q.floor


@pytest.mark.parametrize(("k", "n"), [(4, 14), (5, 10)])
def test_the_vectorised_monte_carlo_agrees_with_the_exact_permutation_p(monkeypatch, k, n):
    # Cases of several numbers of passes, drawn together by the one-by-one route.
    rng = np.random.default_rng(k)
    x = rng.random((n, k)) < np.linspace(0.25, 0.75, k)
    exact = cochran_q(x)
    assert exact.method == "exact"
    monkeypatch.setattr(cochran, "MAX_EXACT_STEPS", 0)
    simulated = cochran_q(x, resamples=20_000, seed=5)
    assert simulated.method == "monte-carlo"
    assert abs(simulated.exact_pvalue - exact.exact_pvalue) < 4 * simulated.standard_error + 1e-4


def test_twenty_four_systems_on_twenty_cases_get_a_monte_carlo_p():
    # A 1.1 kB file of this shape took 55 s; the time is measured in benchmarks/bench_compare.py.
    x = np.random.default_rng(1).random((20, 24)) < 0.5
    q = cochran_q(x)
    assert q.method == "monte-carlo" and q.resamples == 9_999
    assert abs(q.exact_pvalue - q.pvalue) < 0.05  # many cases per df: the two are close


def test_resamples_are_bounded():
    with pytest.raises(ValueError, match="`resamples` must be a non-negative integer of at most"):
        cochran_q(SPLIT, resamples=cochran.MAX_RESAMPLES + 1)


@settings(max_examples=25, deadline=None)
@given(resamples=st.integers(1, 300), seed=st.integers(0, 2**32))
def test_a_monte_carlo_p_lies_between_its_floor_and_1(resamples, seed):
    x = np.random.default_rng(seed).random((12, 9)) < 0.5
    q = cochran_q(x, resamples=resamples, seed=seed)
    if q.method == "monte-carlo":
        assert 1 / (resamples + 1) <= q.exact_pvalue <= 1
        assert q.at_floor == (q.exact_pvalue == 1 / (resamples + 1))
