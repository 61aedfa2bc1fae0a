"""The exact paired sign-flip permutation test of a mean difference on a lattice.

Under the null hypothesis that A and B are exchangeable on each question, each question's
difference d_i is as likely to be +d_i as -d_i, so the sum S = sum d_i has the distribution of
sum s_i |d_i| over the 2^n sign patterns s. When the differences are multiples of a common step
(pass shares over k_A and k_B repeats are multiples of 1 / (k_A k_B)), that distribution is found
exactly, without enumerating the patterns: the |d_i| equal to v, m of them, contribute
v (2K - m) with K ~ Binomial(m, 1/2), and the groups are convolved.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats

__all__ = ["SignFlipResult", "sign_flip_test"]

#: Largest support of the sum (in steps, after dividing by their common factor) computed;
#: beyond it the test is refused (its distribution would not fit in memory).
MAX_SUPPORT = 20_000_000
_DIRECT_COST = 50_000_000  # values added by the direct sums before an FFT convolution is used


@dataclass(frozen=True, slots=True, kw_only=True)
class SignFlipResult:
    """The exact sign-flip test of the mean paired difference.

    Attributes
    ----------
    mean_difference : float
        Mean over the questions of d_i (A minus B).
    pvalue : float
        Two-sided: P(|S| >= |observed S|) over the 2^n equally likely sign patterns.
    questions : int
        n, the questions compared (those with d_i = 0 included).
    method : str
        The test, in words.
    """

    mean_difference: float
    pvalue: float
    questions: int
    method: str = "exact paired sign-flip permutation test"

    def to_dict(self) -> dict[str, object]:
        """As plain JSON types."""
        return asdict(self)


def sign_flip_test(numerators: Sequence[int] | np.ndarray, step: float = 1.0) -> SignFlipResult:
    """Exact two-sided sign-flip test of the differences ``numerators * step``.

    Parameters
    ----------
    numerators : sequence of int
        Each question's difference in units of `step` (integers).
    step : float
        The lattice step (1 / (k_A k_B) for pass shares over k_A and k_B repeats).

    Returns
    -------
    SignFlipResult

    Raises
    ------
    ValueError
        On no question, a non-integer numerator, or a sum too wide to compute
        (:data:`MAX_SUPPORT`).

    Examples
    --------
    Five questions with differences 1, 1, 1, 1, 0: S = 4 is reached by one pattern in 16 (the
    zero flips nothing), and |S| >= 4 by two, so p = 2/16.

    >>> sign_flip_test([1, 1, 1, 1, 0]).pvalue
    0.125
    """
    values = np.asarray(numerators)
    if values.size == 0:
        raise ValueError("the sign-flip test needs at least one question, but got none.")
    if not np.issubdtype(values.dtype, np.integer):
        raise ValueError(f"the numerators must be integers, but got dtype {values.dtype}.")
    values = values.astype(np.int64)
    sizes = np.abs(values[values != 0])
    unit = int(np.gcd.reduce(sizes)) if sizes.size else 1  # every sum is a multiple of it
    sizes //= unit
    observed = int(values.sum()) // unit
    support = int(sizes.sum())
    if support > MAX_SUPPORT:
        raise ValueError(
            f"the differences sum to {support:,} steps in absolute value, over the limit of "
            f"{MAX_SUPPORT:,} for the exact test."
        )
    pmf, by_fft = _distribution(sizes)
    sums = np.arange(-support, support + 1)
    extreme = np.abs(sums) >= abs(observed)
    pvalue = min(1.0, float(pmf[extreme].sum()))
    method = "exact paired sign-flip permutation test"
    if by_fft:
        method += " (distribution by FFT convolution: p-values below about 1e-12 are not resolved)"
    return SignFlipResult(
        mean_difference=observed * unit * step / values.size,
        pvalue=pvalue if abs(observed) > 0 else 1.0,
        questions=int(values.size),
        method=method,
    )


def _distribution(sizes: np.ndarray) -> tuple[np.ndarray, bool]:
    """P(S = s) for s = -support..support, S = sum of +-sizes with independent fair signs; and
    whether an FFT convolution was used (when the direct sums would cost too much)."""
    from scipy import signal

    pmf, by_fft = np.ones(1), False
    for value, count in zip(*np.unique(sizes, return_counts=True), strict=True):
        value, count = int(value), int(count)
        weights = stats.binom.pmf(np.arange(count + 1), count, 0.5)
        # The `count` sizes equal to `value` add value (2K - count), K ~ Binomial(count, 1/2).
        if pmf.size * (count + 1) <= _DIRECT_COST:
            out = np.zeros(pmf.size + 2 * value * count)
            for k, weight in enumerate(weights):
                out[2 * value * k : 2 * value * k + pmf.size] += weight * pmf
        else:
            kernel = np.zeros(2 * value * count + 1)
            kernel[:: 2 * value] = weights
            out = np.clip(signal.fftconvolve(pmf, kernel), 0.0, None)
            by_fft = True
        pmf = out
    return pmf, by_fft


def share_numerators(
    passes_a: np.ndarray, repeats_a: np.ndarray, passes_b: np.ndarray, repeats_b: np.ndarray
) -> tuple[np.ndarray, float]:
    """Per-question differences of pass shares as integers on a common lattice, with its step.

    The share difference passes_a/k_a - passes_b/k_b is (passes_a L/k_a - passes_b L/k_b) / L
    with L the least common multiple of every repeat count.
    """
    counts = np.unique(np.concatenate([repeats_a, repeats_b])).astype(np.int64)
    lcm = 1
    for k in counts.tolist():
        lcm = lcm * k // math.gcd(lcm, k)
    a = passes_a.astype(np.int64) * (lcm // repeats_a.astype(np.int64))
    b = passes_b.astype(np.int64) * (lcm // repeats_b.astype(np.int64))
    return a - b, 1.0 / lcm
