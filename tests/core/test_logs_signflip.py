"""The exact sign-flip test by convolution (calculator.scores.signflip.lattice_sign_flip, the one
home of the test, used for the harness logs' pass shares) against brute-force enumeration of the
2^n sign patterns, computed here, and the lattice of pass-share differences."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.logs.pairing import share_numerators
from calculator.scores.signflip import lattice_sign_flip as sign_flip_test


def brute_force(values: list[int]) -> float:
    observed = abs(sum(values))
    hits = sum(
        abs(sum(s * v for s, v in zip(signs, values, strict=True))) >= observed
        for signs in itertools.product((1, -1), repeat=len(values))
    )
    return hits / 2 ** len(values)


@given(st.lists(st.integers(-4, 4), min_size=1, max_size=12))
def test_exact_p_equals_enumeration(values):
    assert sign_flip_test(values).pvalue == pytest.approx(brute_force(values), rel=1e-12)


@given(st.lists(st.integers(-3, 3), min_size=1, max_size=12))
def test_p_is_a_multiple_of_two_to_the_minus_n(values):
    p = sign_flip_test(values).pvalue
    assert p * 2 ** len(values) == pytest.approx(round(p * 2 ** len(values)), abs=1e-6)


@given(st.lists(st.integers(-3, 3), min_size=1, max_size=10))
def test_swapping_a_and_b_keeps_p_and_flips_the_mean(values):
    forward, backward = sign_flip_test(values), sign_flip_test([-v for v in values])
    assert forward.pvalue == pytest.approx(backward.pvalue)
    assert forward.statistic == -backward.statistic


def test_worked_values():
    # Ten questions all leaning to A by one: only the all-plus and all-minus patterns reach
    # |S| = 10, so p = 2 / 1024.
    assert sign_flip_test([1] * 10).pvalue == pytest.approx(2 / 1024)
    assert sign_flip_test([0, 0, 0]).pvalue == 1.0
    result = sign_flip_test([3, -1, 2], step=1 / 3)
    assert result.statistic == pytest.approx((3 - 1 + 2) / 3 / 3)


def test_large_n_is_exact_and_fast_enough():
    # 10,000 questions of differences in {-1, 0, 1}: the binomial tail, computed directly.
    from scipy import stats

    rng = np.random.default_rng(5)
    values = rng.choice([-1, 0, 1], size=10_000, p=[0.3, 0.38, 0.32])
    nonzero = int(np.count_nonzero(values))
    plus = int((values > 0).sum())
    expected = stats.binomtest(plus, nonzero, 0.5).pvalue  # symmetric: two tails exactly
    assert sign_flip_test(values).pvalue == pytest.approx(expected, rel=1e-9)


def test_refusals():
    with pytest.raises(ValueError, match="at least one question"):
        sign_flip_test([])
    with pytest.raises(ValueError, match="integers"):
        sign_flip_test([0.5, 1.0])


@given(
    st.lists(
        st.tuples(st.integers(1, 4), st.integers(1, 4)).flatmap(
            lambda k: st.tuples(
                st.integers(0, k[0]), st.just(k[0]), st.integers(0, k[1]), st.just(k[1])
            )
        ),
        min_size=1,
        max_size=8,
    )
)
def test_share_numerators_are_the_share_differences_on_a_lattice(rows):
    passes_a, k_a, passes_b, k_b = (np.array(column) for column in zip(*rows, strict=True))
    numerators, step = share_numerators(passes_a, k_a, passes_b, k_b)
    for n, pa, ka, pb, kb in zip(numerators, passes_a, k_a, passes_b, k_b, strict=True):
        assert Fraction(int(n)) * Fraction(step).limit_denominator(1000) == Fraction(
            int(pa), int(ka)
        ) - Fraction(int(pb), int(kb))


def test_the_fft_path_agrees_with_the_direct_sums(monkeypatch):
    import calculator.scores.lattice as signflip

    rng = np.random.default_rng(11)
    values = rng.choice([-3, -2, -1, 0, 1, 2, 3], size=400)
    direct = sign_flip_test(values)
    monkeypatch.setattr(signflip, "_DIRECT_COST", 0)
    fft = sign_flip_test(values)
    assert "FFT" in fft.note and direct.note is None
    assert fft.pvalue == pytest.approx(direct.pvalue, abs=1e-12)
