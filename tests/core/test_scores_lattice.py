"""The sign-flip test exact by convolution when the differences lie on a common lattice
(calculator.scores.lattice, reached through compare_scores beyond EXACT_MAX_UNITS non-zero
cases): against brute-force enumeration of the 2^n sign patterns (computed here), the binomial
law (scipy.stats.binom / binomtest) and, as a property, the meet-in-the-middle enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from calculator import compare_scores
from calculator.report.words import text
from calculator.scores import lattice, signflip
from calculator.scores.lattice import lattice_of, lattice_pvalue
from calculator.scores.signflip import exact_count


def brute_force(values, alternative):
    """Share of the 2^n sign patterns at least as extreme (ties within 1e-9); "greater" (B
    higher) counts sums of A - B at or below the observed one."""
    observed = float(np.sum(values))
    hits = 0
    for signs in itertools.product((1.0, -1.0), repeat=len(values)):
        s = float(np.dot(signs, values))
        if alternative == "two-sided":
            hits += abs(s) >= abs(observed) - 1e-9
        elif alternative == "greater":
            hits += s <= observed + 1e-9
        else:
            hits += s >= observed - 1e-9
    return hits / 2 ** len(values)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(
    ("a", "b"),
    [
        # Judge grades (multiples of 0.25).
        ([1, 0.75, 0.5, 1, 0.25, 0.75, 1, 0.5, 0.75, 1, 0, 0.5],
         [0.75, 0.75, 0.25, 0.5, 0.25, 0.5, 1, 0.75, 0.25, 0.75, 0, 0.25]),
        # BLEU written with one decimal: 0.1 is no binary fraction, the grid is found within
        # the rounding of the differences.
        ([31.2, 45.0, 12.7, 28.9, 50.3, 19.4, 33.3, 41.8, 27.5, 36.1, 22.2, 48.6],
         [29.8, 46.1, 10.2, 25.0, 49.9, 21.3, 30.1, 40.2, 27.0, 33.9, 20.9, 47.7]),
    ],
)  # fmt: skip
def test_lattice_path_equals_brute_force(monkeypatch, a, b, alternative):
    monkeypatch.setattr(signflip, "EXACT_MAX_UNITS", 3)  # past it: the lattice path
    r = compare_scores(a, b, alternative=alternative)
    assert r.permutation.method == "exact-convolution"
    d = np.array(a) - np.array(b)
    assert r.pvalue == pytest.approx(brute_force(d, alternative), rel=1e-12)


@pytest.mark.parametrize("alternative", ["two-sided", "less"])
def test_forty_equal_magnitudes_give_the_binomial_tail(alternative):
    # |d| all 0.5: S = 0.5 (2K - 40), K ~ Binomial(40, 1/2), 27 positives. scipy:
    # 2 * stats.binom.sf(26, 40, 0.5) two-sided; stats.binom.sf(26, 40, 0.5) for "less".
    d = np.array([0.5] * 27 + [-0.5] * 13)
    r = compare_scores(d, np.zeros(40), alternative=alternative)
    exact = stats.binom.sf(26, 40, 0.5) * (2 if alternative == "two-sided" else 1)
    assert (r.permutation.method, r.permutation.patterns) == ("exact-convolution", 0)
    assert r.pvalue == pytest.approx(exact, rel=1e-12)
    assert "exact over all 2^40 sign patterns" in text(r)


def test_ten_thousand_graded_cases_are_exact():
    # Differences of -0.25, 0, 0.25: the sign test. scipy: stats.binomtest(plus, nonzero).
    rng = np.random.default_rng(5)
    d = rng.choice([-0.25, 0.0, 0.25], size=10_000, p=[0.3, 0.38, 0.32])
    plus, nonzero = int((d > 0).sum()), int(np.count_nonzero(d))
    r = compare_scores(d + 0.5, np.full(10_000, 0.5))
    assert r.permutation.method == "exact-convolution"
    assert r.pvalue == pytest.approx(stats.binomtest(plus, nonzero, 0.5).pvalue, rel=1e-9)


def test_continuous_scores_stay_monte_carlo():
    rng = np.random.default_rng(1)
    a, b = rng.random(200), rng.random(200)
    assert lattice_of(a - b) is None
    assert compare_scores(a, b, resamples=1_000).permutation.method == "monte-carlo"


def test_clusters_on_a_lattice_are_exact(monkeypatch):
    # Six clusters of graded differences: the sign flips whole clusters, 2^6 patterns.
    monkeypatch.setattr(signflip, "EXACT_MAX_UNITS", 2)
    d = np.array([0.25, 0.5, -0.25, 0.75, 0.5, 0.25, -0.5, 0.25, 1.0, 0.5, 0.25, 0.0])
    clusters = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    sums = np.bincount(clusters, weights=d)
    r = compare_scores(d, np.zeros(12), clusters=clusters)
    assert r.permutation.method == "exact-convolution"
    assert r.pvalue == pytest.approx(brute_force(sums, "two-sided"), rel=1e-12)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(-8, 8).filter(bool), min_size=1, max_size=14),
    st.sampled_from([1, 2, 4, 5, 10, 3]),
    st.sampled_from(["both", "upper", "lower"]),
)
def test_convolution_equals_enumeration(numerators, denominator, tail):
    values = np.array(numerators) / denominator
    found = lattice_of(values)
    assert found is not None
    count, total = exact_count(values, tail)
    p, _ = lattice_pvalue(found, tail)
    assert p == pytest.approx(count / total, rel=1e-12)
    assert p * total == pytest.approx(round(p * total), abs=1e-6)  # a multiple of 2^-m


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-6, 6), min_size=1, max_size=40), st.sampled_from(["greater", "less"]))
def test_swapping_a_and_b_swaps_the_one_sided_p_exactly(numerators, alternative):
    other = "less" if alternative == "greater" else "greater"
    d = np.array(numerators) / 4
    forward = signflip.lattice_sign_flip(numerators, step=0.25, alternative=alternative)
    backward = signflip.lattice_sign_flip([-n for n in numerators], step=0.25, alternative=other)
    assert forward.pvalue == backward.pvalue
    assert forward.statistic == pytest.approx(float(d.mean()))


def test_too_wide_a_lattice_is_left_to_monte_carlo(monkeypatch):
    monkeypatch.setattr(lattice, "MAX_SUPPORT", 10)
    assert lattice_of(np.array([0.25] * 41)) is None


def test_a_lattice_too_costly_to_convolve_is_left_to_monte_carlo(monkeypatch):
    # 2,000 BLEU differences written with one decimal: on the 0.1 grid, but with hundreds of
    # distinct magnitudes the convolution would take seconds: the Monte Carlo test runs.
    rng = np.random.default_rng(0)
    d = np.round(rng.normal(0, 50, 2000), 1)
    d = d[d != 0] / 64
    assert lattice_of(d, 1e-13) is None
    monkeypatch.setattr(lattice, "MAX_WORK", 10**12)
    assert lattice_of(d, 1e-13) is not None
    a = np.round(rng.normal(30, 10, 2000), 1)
    b = np.round(rng.normal(30, 10, 2000), 1)
    monkeypatch.setattr(lattice, "MAX_WORK", 10**12)
    assert compare_scores(a, b, resamples=1_000).permutation.method == "exact-convolution"
    monkeypatch.setattr(lattice, "MAX_WORK", 10**6)
    assert compare_scores(a, b, resamples=1_000).permutation.method == "monte-carlo"
