"""The exact distribution of a sign-flip sum when the differences lie on a common lattice.

Under the null hypothesis each unit's difference d_i is as likely to be +d_i as -d_i, so the sum
S = sum d_i has the law of sum s_i |d_i| over the 2^m equally likely sign patterns s. When the
differences are integer multiples of a common step (pass shares over k_A and k_B repeats are
multiples of 1 / (k_A k_B); graded scores 0, 0.25, ..., 1 of 0.25), that law is found exactly
without enumerating the patterns: the m_v magnitudes equal to v contribute v (2K - m_v) with
K ~ Binomial(m_v, 1/2), and the groups are convolved. Used by :mod:`calculator.scores.signflip`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from calculator._lazy_scipy import stats
from calculator.errors import CalculatorError

__all__ = [
    "MAX_SUPPORT",
    "MAX_WORK",
    "Lattice",
    "LatticeTooWide",
    "integer_lattice",
    "lattice_of",
    "lattice_pvalue",
]

#: Largest support of the sum (in steps, after dividing by their common factor) computed; a
#: wider one is refused for integers and left to the Monte Carlo test for other numbers.
MAX_SUPPORT = 20_000_000
#: Most distinct magnitudes examined for a lattice (graded scores have a handful).
MAX_DISTINCT = 4_096
#: Largest denominator tried for a magnitude written as a fraction.
MAX_DENOMINATOR = 1_000_000
#: Most work (values added, or FFT size times its log) the convolution may take (under a second
#: on one core); beyond it, Monte Carlo is used for differences that are not integers to begin
#: with (many distinct magnitudes on a fine grid: 2,000 BLEU differences with one decimal), and
#: integer differences are refused (:class:`LatticeTooWide`): pass shares over 16 to 20 repeats
#: (errored samples) lie on a grid of 1/232,560 whose convolution took 86 s and 4.8 GB.
MAX_WORK = 200_000_000
_DIRECT_COST = 50_000_000  # values added by the direct sums before an FFT convolution is used
#: Smallest p-value an FFT convolution resolves (its rounding, about 1e-16 of the largest mass
#: at each of millions of points): a p below it is given as this bound (:data:`FFT_BOUND_NOTE`).
FFT_RESOLUTION = 1e-12
_FFT_NOTE = "distribution by FFT convolution: p-values below about 1e-12 are not resolved"
#: The note of a p-value given as :data:`FFT_RESOLUTION` because it lies below it.
FFT_BOUND_NOTE = (
    "distribution by FFT convolution, which resolves p-values down to about 1e-12: p is below it"
)


class LatticeTooWide(CalculatorError):
    """Integer differences whose exact distribution would take more than :data:`MAX_SUPPORT`
    steps or :data:`MAX_WORK` work to compute."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Lattice:
    """Non-zero magnitudes in steps (divided by their greatest common divisor) and the observed
    sum in the same steps."""

    sizes: np.ndarray
    observed: int


def integer_lattice(values: np.ndarray, unit: str = "question") -> Lattice:
    """The lattice of integer differences (zeros allowed), refused when it cannot be computed
    (:class:`LatticeTooWide` when too wide or too costly)."""
    if values.size == 0:
        raise CalculatorError(f"the sign-flip test needs at least one {unit}, but got none.")
    if not np.issubdtype(values.dtype, np.integer):
        raise CalculatorError(f"the numerators must be integers, but got dtype {values.dtype}.")
    lattice = _reduced(values.astype(np.int64))
    support = int(lattice.sizes.sum())
    if support > MAX_SUPPORT:
        raise LatticeTooWide(
            f"the differences sum to {support:,} steps in absolute value, over the limit of "
            f"{MAX_SUPPORT:,} for the exact test."
        )
    work = _work(lattice.sizes)
    if work > MAX_WORK:
        raise LatticeTooWide(
            f"the exact distribution of the differences' sum ({lattice.sizes.size:,} non-zero, "
            f"{support:,} steps in all) would take {work:.2g} operations, over the limit of "
            f"{MAX_WORK:.2g} for the exact test."
        )
    return lattice


def lattice_of(values: np.ndarray, rounding: float = 0.0) -> Lattice | None:
    """The lattice of non-zero float differences, or None when they lie on none small enough.

    Each distinct magnitude is written as the nearest fraction with a denominator of at most
    :data:`MAX_DENOMINATOR`; the lattice is accepted when every value is within `rounding`
    (plus a few machine epsilons) of its point and the sum spans at most :data:`MAX_SUPPORT`
    steps.

    Examples
    --------
    >>> lattice_of(np.array([0.25, -0.5, 0.75])).sizes.tolist()
    [1, 2, 3]
    >>> lattice_of(np.array([0.1234567891, 0.5])) is None
    True
    """
    magnitudes = np.unique(np.abs(values))
    if magnitudes.size == 0 or magnitudes.size > MAX_DISTINCT:
        return None
    tolerance = rounding + 4 * np.finfo(float).eps * float(magnitudes.max())
    common = 1
    for value in magnitudes.tolist():
        fraction = Fraction(value).limit_denominator(MAX_DENOMINATOR)
        if abs(value - fraction.numerator / fraction.denominator) > tolerance:
            return None
        common = common * fraction.denominator // math.gcd(common, fraction.denominator)
        if common > MAX_SUPPORT:
            return None
    scaled = values * common
    numerators = np.rint(scaled)
    if np.abs(scaled - numerators).max() > tolerance * common:
        return None
    lattice = _reduced(numerators.astype(np.int64))
    if int(lattice.sizes.sum()) > MAX_SUPPORT or _work(lattice.sizes) > MAX_WORK:
        return None
    return lattice


def lattice_pvalue(lattice: Lattice, tail: str) -> tuple[float, str | None]:
    """The exact p-value in `tail` ("both", "upper": S >= observed, "lower": S <= observed),
    and a note when the FFT convolution limits its resolution: below :data:`FFT_RESOLUTION`,
    the p-value returned is that bound, with :data:`FFT_BOUND_NOTE`."""
    support = int(lattice.sizes.sum())
    pmf, by_fft = _distribution(lattice.sizes)
    sums = np.arange(-support, support + 1)
    observed = lattice.observed
    if tail in ("upper", "lower"):
        # S is symmetric: P(S <= o) is computed as P(S >= -o), so that swapping A and B (which
        # negates o and swaps the tails) gives the same number to the last bit.
        extreme = sums >= (observed if tail == "upper" else -observed)
    elif observed == 0:
        return 1.0, None
    else:
        extreme = np.abs(sums) >= abs(observed)
    pvalue = min(1.0, float(pmf[extreme].sum()))
    if by_fft and pvalue < FFT_RESOLUTION:  # rounding, not a p: only the bound is known
        return FFT_RESOLUTION, FFT_BOUND_NOTE
    return pvalue, _FFT_NOTE if by_fft else None


def _reduced(numerators: np.ndarray) -> Lattice:
    sizes = np.abs(numerators[numerators != 0])
    unit = int(np.gcd.reduce(sizes)) if sizes.size else 1  # every sum is a multiple of it
    return Lattice(sizes=sizes // unit, observed=int(numerators.sum()) // unit)


def _groups(sizes: np.ndarray) -> list[tuple[int, int, bool]]:
    """(magnitude, count, by FFT) per distinct magnitude, in the order they are convolved: the
    direct sums while they cost at most :data:`_DIRECT_COST`, an FFT beyond."""
    groups, size = [], 1
    for value, count in zip(*np.unique(sizes, return_counts=True), strict=True):
        value, count = int(value), int(count)
        groups.append((value, count, size * (count + 1) > _DIRECT_COST))
        size += 2 * value * count
    return groups


def _work(sizes: np.ndarray) -> float:
    """The convolution's cost, as :func:`_distribution` will spend it: per group, the values
    added by the direct sums, or the FFT's length times its logarithm."""
    total, size = 0.0, 1
    for value, count, by_fft in _groups(sizes):
        length = size + 2 * value * count
        if by_fft:
            total += length * math.log2(length)
        else:
            total += size * min(count + 1, size) + length
        size = length
    return total


def _distribution(sizes: np.ndarray) -> tuple[np.ndarray, bool]:
    """P(S = s) for s = -support..support, S = sum of +-sizes with independent fair signs; and
    whether an FFT convolution was used (when the direct sums would cost too much)."""
    from scipy import signal

    pmf, any_fft = np.ones(1), False
    for value, count, by_fft in _groups(sizes):
        weights = stats.binom.pmf(np.arange(count + 1), count, 0.5)
        # The `count` sizes equal to `value` add value (2K - count), K ~ Binomial(count, 1/2).
        if not by_fft:
            # out[i + 2 value k] += pmf[i] weights[k], looping over the shorter of the two.
            out = np.zeros(pmf.size + 2 * value * count)
            if pmf.size <= count + 1:
                for i, mass in enumerate(pmf):
                    out[i : i + 2 * value * count + 1 : 2 * value] += mass * weights
            else:
                for k, weight in enumerate(weights):
                    out[2 * value * k : 2 * value * k + pmf.size] += weight * pmf
        else:
            kernel = np.zeros(2 * value * count + 1)
            kernel[:: 2 * value] = weights
            out = np.clip(signal.fftconvolve(pmf, kernel), 0.0, None)
            any_fft = True
        pmf = out
    return pmf, any_fft
