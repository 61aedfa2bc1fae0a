"""The sign-flip permutation test of the mean difference A - B (by cluster with clusters).

Under the null hypothesis that A and B are exchangeable on each case (on each cluster), every
difference is as likely to have its sign flipped: the 2^n sign patterns are equally likely.
The p-value is the share of patterns whose sum of differences is at least as extreme as the
observed one: all of them while that is cheap (meet in the middle: 2 x 2^(n/2) sums); beyond,
the exact distribution of the sum by convolution when the differences lie on a common lattice
(pass shares over k repeats, graded scores 0, 0.25, 0.5, ...; :mod:`calculator.scores.lattice`),
else a seeded Monte Carlo sample of the patterns.

This is the one home of the test: :func:`calculator.compare_scores` uses :func:`sign_flip_test`,
the harness logs' per-question pass shares :func:`lattice_sign_flip`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from calculator.scores.lattice import FFT_BOUND_NOTE, integer_lattice, lattice_of, lattice_pvalue
from calculator.scores.resampling import chunks, plan_resamples, random_bits, work_width
from calculator.significance import monte_carlo_rejects, pvalue_rejects

__all__ = [
    "EXACT_MAX_UNITS",
    "SignFlipTest",
    "exact_count",
    "lattice_sign_flip",
    "sign_flip_test",
    "tail_of",
    "tolerance",
]

#: Most non-zero units enumerated exactly (2 x 2^15 partial sums, a few milliseconds).
EXACT_MAX_UNITS = 30


@dataclass(frozen=True, slots=True, kw_only=True)
class SignFlipTest:
    """The sign-flip permutation test. Build it with :func:`sign_flip_test`.

    Attributes
    ----------
    statistic : float
        The mean difference A - B (the test statistic; the sum of the differences orders the
        patterns the same way).
    pvalue : float
        Exact: the share of the 2^m patterns (m non-zero units) at least as extreme as the
        observed one, a multiple of 2^-m (by convolution: the same share, computed from the
        distribution of the sum rather than pattern by pattern). Monte Carlo: (k + 1) / (R + 1)
        for k of R random patterns at least as extreme (the observed pattern counts as one), as
        ``scipy.stats.permutation_test`` does.
    alternative : str
        "two-sided", "greater" (B's mean higher than A's) or "less".
    method : str
        "exact" (every pattern enumerated), "exact-convolution" (the differences on a lattice:
        the exact distribution of their sum by convolution, at any m) or "monte-carlo".
    patterns : int
        2^m patterns enumerated (exact), R random patterns drawn (Monte Carlo), or 0 by
        convolution (none enumerated; all 2^m counted through the distribution of the sum).
    standard_error : float
        Monte Carlo standard error of the p-value, sqrt(p (1 - p) / R); 0 when exact.
    unit : str
        "case", "cluster" or "question": what a sign flip flips.
    units, nonzero_units : int
        Units, and those whose difference (sum of differences) is not 0.
    seed : int or None
        The random seed of a Monte Carlo p-value; None when exact.
    note : str or None
        A limit of the computation (an FFT convolution does not resolve p-values below about
        1e-12); None when there is none.
    at_floor : bool
        True when no Monte Carlo pattern was as extreme as the data: `pvalue` is then its floor
        1/(R + 1), and all the patterns show is p <= that floor (:meth:`rejects`).
    pvalue_bound : bool
        Whether `pvalue` is only an upper bound, the p-value lying below what the computation
        resolves (an FFT convolution below 1e-12): to be written "p < ...", never decided below.
    """

    statistic: float
    pvalue: float
    alternative: str
    method: str
    patterns: int
    standard_error: float
    unit: str
    units: int
    nonzero_units: int
    seed: int | None
    note: str | None = None
    at_floor: bool = False
    pvalue_bound: bool = False

    def rejects(self, alpha: float) -> bool | None:
        """p <= alpha; None when the Monte Carlo p sits at its floor above `alpha`, where more
        patterns are needed to decide (:func:`calculator.significance.monte_carlo_rejects`)."""
        if self.pvalue_bound:  # p < pvalue: it rejects where the bound does
            return True if pvalue_rejects(self.pvalue, alpha) else None
        if self.method != "monte-carlo":
            return pvalue_rejects(self.pvalue, alpha)
        return monte_carlo_rejects(
            self.pvalue, alpha, resamples=self.patterns, at_floor=self.at_floor
        )

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types."""
        return asdict(self)


def tail_of(alternative: str) -> str:
    """Which tail of the sum of A - B counts as extreme: "both", "lower" for "greater" (B's
    mean higher means A - B low), "upper" for "less"."""
    return {"two-sided": "both", "greater": "lower", "less": "upper"}[alternative]


def tolerance(values: np.ndarray) -> float:
    """Sums within this of the observed one count as ties: 16 epsilons per unit summed, which
    is more than the rounding of any sum of the values and far less than a real gap."""
    return 16.0 * np.finfo(float).eps * float(np.abs(values).sum())


def exact_count(values: np.ndarray, tail: str) -> tuple[int, int]:
    """Sign patterns of `values` whose sum is at least as extreme as the observed sum, and 2^m.

    Parameters
    ----------
    values : numpy.ndarray
        m values (m <= 40; here at most :data:`EXACT_MAX_UNITS`); their signs are flipped.
    tail : {"both", "lower", "upper"}

    Notes
    -----
    Meet in the middle: the 2^h sums of the first half and the sorted 2^(m - h) sums of the
    second; for each first-half sum x, a binary search counts the second-half sums y with
    x + y beyond the threshold. O(2^(m/2) m) time and memory.

    Examples
    --------
    >>> exact_count(np.array([1.0, 2.0, 3.0]), "both")  # sums +-6, +-4, +-2, 0, 0
    (2, 8)
    """
    m = int(values.size)
    total = 1 << m
    observed = float(values.sum())
    gamma = tolerance(values)
    half = m // 2
    first, second = _all_sums(values[:half]), np.sort(_all_sums(values[half:]))
    if tail == "upper":
        return _at_least(first, second, observed - gamma), total
    if tail == "lower":
        return _at_least(-first, np.sort(-second), -observed - gamma), total
    threshold = abs(observed) - gamma
    if threshold <= 0:
        return total, total
    upper = _at_least(first, second, threshold)
    lower = _at_least(-first, np.sort(-second), threshold)
    return upper + lower, total


def _all_sums(values: np.ndarray) -> np.ndarray:
    sums = np.zeros(1)
    for value in values:
        sums = np.concatenate((sums + value, sums - value))
    return sums


def _at_least(first: np.ndarray, second: np.ndarray, threshold: float) -> int:
    """Pairs (x, y), y from the sorted `second`, with x + y >= threshold."""
    below = np.searchsorted(second, threshold - first, side="left")
    return int(first.size * second.size - below.sum())


def sign_flip_test(
    units: np.ndarray,
    *,
    total_cases: int,
    scale: float,
    alternative: str,
    resamples: int | None,
    rng: np.random.Generator,
    seed: int,
    unit: str,
    rounding: float = 0.0,
) -> tuple[SignFlipTest | None, str | None]:
    """The sign-flip test on `units` (scaled differences, or scaled cluster sums).

    Exact when at most :data:`EXACT_MAX_UNITS` units are non-zero; else exact by convolution
    when the units lie on a common lattice (within `rounding` of its points: rounded scores
    written as decimals) whose sum stays within
    :data:`~calculator.scores.lattice.MAX_SUPPORT` steps; otherwise a Monte Carlo
    p-value from random patterns drawn from `rng`, as many as
    :func:`~calculator.scores.resampling.plan_resamples` grants for `resamples` (None: the
    default). `total_cases` and `scale` turn the sum back into the mean difference.

    Returns
    -------
    (SignFlipTest, None), or (None, the reason) when the Monte Carlo test would exceed the
    bound on random draws at the default resamples.
    """
    nonzero = units[units != 0]
    m = int(nonzero.size)
    common = {
        "statistic": float(units.sum()) / total_cases * scale,
        "alternative": alternative,
        "unit": unit,
        "units": int(units.size),
        "nonzero_units": m,
    }
    tail = tail_of(alternative)
    if m <= EXACT_MAX_UNITS:
        count, patterns = exact_count(nonzero, tail)
        exact = SignFlipTest(
            **common,
            pvalue=count / patterns,
            method="exact",
            patterns=patterns,
            standard_error=0.0,
            seed=None,
        )
        return exact, None
    lattice = lattice_of(nonzero, rounding)
    if lattice is not None:
        pvalue, note = lattice_pvalue(lattice, tail)
        return _by_convolution(common, pvalue, note), None
    magnitudes = np.abs(nonzero)
    values, counts = np.unique(magnitudes, return_counts=True)
    width = work_width(m, int(values.size))
    planned, note = plan_resamples(resamples, width, "the sign-flip permutation test")
    if planned is None:
        return None, note
    if width < m:  # by value: one binomial count per distinct magnitude
        hits = _hits_by_value(values, counts, float(nonzero.sum()), tail, planned, rng)
    else:
        hits = _hits_by_case(magnitudes, float(nonzero.sum()), tail, planned, rng)
    pvalue = (hits + 1) / (planned + 1)
    test = SignFlipTest(
        **common,
        pvalue=pvalue,
        method="monte-carlo",
        patterns=planned,
        standard_error=math.sqrt(pvalue * (1.0 - pvalue) / planned),
        seed=seed,
        at_floor=hits == 0,
    )
    return test, None


def lattice_sign_flip(
    numerators: np.ndarray | list[int],
    *,
    step: float = 1.0,
    alternative: str = "two-sided",
    unit: str = "question",
) -> SignFlipTest:
    """The exact sign-flip test of differences ``numerators * step`` on a lattice, at any size.

    Parameters
    ----------
    numerators : sequence of int
        Each unit's difference A - B in steps (integers); zeros count as units.
    step : float
        The lattice step (1 / (k_A k_B) for pass shares over k_A and k_B repeats).
    alternative : {"two-sided", "greater", "less"}
    unit : str
        What a sign flip flips, for the result ("question").

    Raises
    ------
    calculator.errors.CalculatorError
        On no unit, a non-integer numerator, or a sum too wide to compute.

    Examples
    --------
    Five questions with differences 1, 1, 1, 1, 0: S = 4 is reached by one pattern in 16 (the
    zero flips nothing), and |S| >= 4 by two, so p = 2/16.

    >>> lattice_sign_flip([1, 1, 1, 1, 0]).pvalue
    0.125
    """
    values = np.asarray(numerators)
    lattice = integer_lattice(values, unit)
    common = {
        "statistic": float(values.sum()) * step / values.size,
        "alternative": alternative,
        "unit": unit,
        "units": int(values.size),
        "nonzero_units": int(np.count_nonzero(values)),
    }
    pvalue, note = lattice_pvalue(lattice, tail_of(alternative))
    return _by_convolution(common, pvalue, note)


def _by_convolution(common: dict, pvalue: float, note: str | None) -> SignFlipTest:
    return SignFlipTest(
        **common,
        pvalue=pvalue,
        method="exact-convolution",
        patterns=0,
        standard_error=0.0,
        seed=None,
        note=note,
        pvalue_bound=note == FFT_BOUND_NOTE,
    )


def _hits_by_value(
    values: np.ndarray,
    counts: np.ndarray,
    observed: float,
    tail: str,
    resamples: int,
    rng: np.random.Generator,
) -> int:
    """Random patterns at least as extreme, drawn by distinct magnitude: the number of positive
    signs among the c_k units of magnitude v_k is Binomial(c_k, 1/2) and the sum is
    sum_k (2 pos_k - c_k) v_k, the law of flipping every unit, for one draw per value."""
    gamma = tolerance(values * counts)
    hits = 0
    for rows in chunks(resamples, 4 * values.size):
        positive = rng.binomial(counts, 0.5, size=(rows, values.size))
        hits += _extreme((2 * positive - counts) @ values, observed, gamma, tail)
    return hits


def _hits_by_case(
    magnitudes: np.ndarray, observed: float, tail: str, resamples: int, rng: np.random.Generator
) -> int:
    """Random patterns at least as extreme, one random sign per unit."""
    gamma = tolerance(magnitudes)
    total = float(magnitudes.sum())
    hits = 0
    for rows in chunks(resamples, magnitudes.size):
        sums = 2.0 * (random_bits(rng, rows, magnitudes.size) @ magnitudes) - total
        hits += _extreme(sums, observed, gamma, tail)
    return hits


def _extreme(sums: np.ndarray, observed: float, gamma: float, tail: str) -> int:
    """How many `sums` are at least as extreme as `observed` (within `gamma`) in `tail`."""
    if tail == "upper":
        return int(np.count_nonzero(sums >= observed - gamma))
    if tail == "lower":  # -sums has the law of sums; this keeps swapping A and B exact
        return int(np.count_nonzero(-sums <= observed + gamma))
    return int(np.count_nonzero(np.abs(sums) >= abs(observed) - gamma))
