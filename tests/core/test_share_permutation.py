"""The exact permutation test of per-question pass shares with unequal repeats
(calculator.logs.share_permutation; statistics review 4, B1).

Reference: for every question, every choice of which of its k_A + k_B samples are A's
(``itertools.combinations``), all combinations over the questions enumerated; the p-value is the
share of them whose sum of A's share minus B's is as extreme as the observed one.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import calculator.logs.share_permutation as module
from calculator.errors import CalculatorError
from calculator.logs.share_permutation import label_permutation_test, unequal_repeats


def enumerated(xa, ka, xb, kb, alternative: str) -> float:
    per_question = []
    for passes_a, k_a, passes_b, k_b in zip(xa, ka, xb, kb, strict=True):
        samples = [1] * (passes_a + passes_b) + [0] * (k_a + k_b - passes_a - passes_b)
        sums = []
        for chosen in itertools.combinations(range(k_a + k_b), k_a):
            x = sum(samples[j] for j in chosen)
            sums.append(Fraction(x, k_a) - Fraction(sum(samples) - x, k_b))
        per_question.append(sums)
    observed = sum(
        Fraction(a, k) - Fraction(b, j) for a, k, b, j in zip(xa, ka, xb, kb, strict=True)
    )
    hits = total = 0
    for combination in itertools.product(*per_question):
        value = sum(combination)
        total += 1
        hits += {
            "two-sided": abs(value) >= abs(observed),
            "greater": value <= observed,
            "less": value >= observed,
        }[alternative]
    return hits / total


@pytest.mark.parametrize("trial", range(12))
def test_equals_full_enumeration(trial):
    rng = np.random.default_rng(trial)
    questions = int(rng.integers(1, 5))
    ka, kb = rng.integers(1, 4, questions), rng.integers(1, 4, questions)
    xa = np.array([rng.integers(0, k + 1) for k in ka])
    xb = np.array([rng.integers(0, k + 1) for k in kb])
    for alternative in ("two-sided", "greater", "less"):
        got = label_permutation_test(xa, ka, xb, kb, alternative=alternative).pvalue
        assert got == pytest.approx(
            enumerated(xa.tolist(), ka.tolist(), xb.tolist(), kb.tolist(), alternative),
            rel=1e-12,
            abs=1e-15,
        )


def test_fft_path_equals_the_direct_convolution(monkeypatch):
    rng = np.random.default_rng(3)
    xa, xb = rng.binomial(5, 0.9, 300), rng.binomial(1, 0.9, 300)
    ka, kb = np.full(300, 5), np.ones(300, dtype=int)
    direct = label_permutation_test(xa, ka, xb, kb)
    monkeypatch.setattr(module, "_DIRECT_WORK", 0)
    by_fft = label_permutation_test(xa, ka, xb, kb)
    assert by_fft.note is not None and direct.note is None
    assert by_fft.pvalue == pytest.approx(direct.pvalue, rel=1e-9)


def test_one_question_three_against_one():
    # A 3 of 3, B 0 of 1: 1 of the C(4, 3) = 4 labellings is as extreme (docstring example).
    result = label_permutation_test([3], [3], [0], [1])
    assert result.pvalue == 0.25 and result.statistic == 1.0 and result.nonzero_units == 1
    assert math.isclose(label_permutation_test([3], [3], [0], [1], alternative="less").pvalue, 0.25)
    assert label_permutation_test([3], [3], [0], [1], alternative="greater").pvalue == 1.0


def test_refusals_and_the_switch():
    with pytest.raises(CalculatorError, match="at least one question"):
        label_permutation_test([], [], [], [])
    assert unequal_repeats([3, 3], [3, 1]) and not unequal_repeats([2, 3], [2, 3])


def test_too_wide_a_sum_takes_the_normal_approximation(monkeypatch):
    # Mean 0 and variance sum_i step_i^2 Var(x_i) (the hypergeometric variance, as
    # scipy.stats.hypergeom.var gives it): at 300 questions it is within 0.01 of the exact p.
    rng = np.random.default_rng(4)
    ka, kb = rng.integers(1, 6, 300), rng.integers(1, 4, 300)
    xa, xb = rng.binomial(ka, 0.7), rng.binomial(kb, 0.6)
    exact = label_permutation_test(xa, ka, xb, kb)
    monkeypatch.setattr(module, "MAX_SUPPORT", 0)
    approximate = label_permutation_test(xa, ka, xb, kb)
    assert exact.method == "exact-label-permutation"
    assert approximate.method == "normal-label-permutation"
    assert approximate.pvalue == pytest.approx(exact.pvalue, abs=0.01)
    for alternative in ("greater", "less"):
        one = label_permutation_test(xa, ka, xb, kb, alternative=alternative)
        monkeypatch.setattr(module, "MAX_SUPPORT", 4_000_000)
        assert one.pvalue == pytest.approx(
            label_permutation_test(xa, ka, xb, kb, alternative=alternative).pvalue, abs=0.01
        )
        monkeypatch.setattr(module, "MAX_SUPPORT", 0)


def test_the_normal_variance_is_the_hypergeometric_one(monkeypatch):
    from scipy import stats

    monkeypatch.setattr(module, "MAX_SUPPORT", 0)
    # one question, 3 repeats against 2, 2 passes: step L/3 + L/2 with L = 6 is 5, x has
    # variance scipy.stats.hypergeom.var(5, 2, 3) = 0.36, so sd 5 * 0.6 = 3; observed: A 2 of 3,
    # B 0 of 2 gives 2 * 2 - 0 * 3 = 4, z = 4/3.
    result = label_permutation_test([2], [3], [0], [2])
    sd = 5 * math.sqrt(stats.hypergeom.var(5, 2, 3))
    assert result.pvalue == pytest.approx(2 * stats.norm.sf(4 / sd), rel=1e-12)


def test_the_scores_label_permutation_on_pass_fail_is_the_shares_normal_approximation():
    """On 0/1 scores the scores' test (issue 32) and the pass shares' normal approximation are
    one test: s^2 (1/k_A + 1/k_B) with s^2 = t (M - t) / (M (M - 1)) is the hypergeometric
    variance t (M - t) / (k_A k_B (M - 1)) of the share difference."""
    from calculator.logs.share_permutation import _normal_pvalue, score_label_permutation

    rng = np.random.default_rng(3)
    ka = rng.integers(1, 4, 200)
    kb = rng.integers(1, 6, 200)
    xa, xb = rng.binomial(ka, 0.7), rng.binomial(kb, 0.6)
    lcm = int(np.lcm.reduce(np.concatenate([ka, kb])))
    laws: dict = {}
    for key in zip(ka.tolist(), kb.tolist(), (xa + xb).tolist(), strict=True):
        laws[key] = laws.get(key, 0) + 1
    observed = int(np.sum(xa * (lcm // ka) - xb * (lcm // kb)))
    for alternative in ("two-sided", "greater", "less"):
        scores = score_label_permutation(
            (xa, xb), (ka, kb), (xa, xb), alternative=alternative
        )  # 0/1 scores: their sums of squares are their sums
        shares = _normal_pvalue(laws, lcm, observed, alternative)
        assert scores.pvalue == pytest.approx(shares, rel=1e-9)
    assert scores.statistic == pytest.approx(np.mean(xa / ka - xb / kb))
