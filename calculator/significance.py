"""One rule for "p <= alpha": the comparison every decision, gate and caveat makes.

A p-value of the exact McNemar test is a binomial tail, a multiple of 2^-m, and can equal alpha
exactly (6 cases only A passes, none only B: p = 2/2^6 = 0.03125). Computed in floating point
it comes out a few ulps off (0.031250000000000014), and a plain ``p <= alpha`` then says "not
significant" where the test rejects. So:

- :func:`exact_test_rejects` decides the exact McNemar test in exact rational arithmetic
  whenever the floating-point p is within a relative 1e-9 of alpha (and the number of discordant
  pairs is small enough for it to be cheap); elsewhere the floating-point comparison is
  already right.
- :func:`rejects` decides a test whose p-value is continuous (a score or chi-square test):
  ``log10 p <= log10 alpha``, on the log scale so that a p-value that underflows still decides.
- :func:`pvalue_rejects` decides a test whose p-value exists only as a float that cannot
  underflow (a permutation p, count over patterns, or a t test's p): ``p <= alpha``.
- :func:`agree_with_decisions` puts a reported p-value on the side of alpha its decision is on
  (1/32 computed as 0.031250000000000014 is reported as alpha = 0.03125 when it rejects), so
  ``reject == (pvalue <= alpha)`` holds in every JSON; compare and the exact decision use it.
- :func:`monte_carlo_rejects` decides a Monte Carlo permutation p, (k + 1)/(R + 1): as
  :func:`pvalue_rejects`, except that a p at its floor 1/(R + 1) (no resample as extreme as the
  data) is only a bound, and decides nothing at an alpha below it (None: more resamples are
  needed). Cochran's Q in ``compare`` and the scores' sign-flip test both decide through it.

alpha is compared at its exact binary value (``Fraction(alpha)``): a level a person types as a
power of two (0.03125, 0.015625) is exact, and a decimal such as 0.05 is not a multiple of 2^-m,
so no binomial tail ties with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from calculator.mcnemar import EXACT_TIE_LIMIT, exact_pvalue_fraction, mcnemar_exact

__all__ = [
    "EXACT_TIE_LIMIT",
    "agree_with_decisions",
    "adjusted_exact_tests_reject",
    "exact_pvalue_fraction",
    "exact_test_rejects",
    "monte_carlo_rejects",
    "pvalue_rejects",
    "rejects",
]

# Within this relative distance of alpha a floating-point tail may sit on the wrong side.
_NEAR = 1e-9


def rejects(log10_pvalue: float, alpha: float) -> bool:
    """p <= alpha for a continuous p-value, compared on the log scale.

    Examples
    --------
    >>> rejects(math.log10(0.04), 0.05), rejects(-400.0, 1e-300), rejects(0.0, 0.99)
    (True, True, False)
    """
    return log10_pvalue <= math.log10(alpha)


def pvalue_rejects(pvalue: float, alpha: float) -> bool:
    """p <= alpha for a p-value given as a float that does not underflow: a permutation
    p-value (a count over the sign patterns, at least one over their number) or a t test's.

    A permutation p over 2^k patterns is a dyadic fraction, exact in floating point, so it
    ties exactly with a dyadic alpha (1/32 rejects at 0.03125).

    Examples
    --------
    >>> pvalue_rejects(1 / 32, 0.03125), pvalue_rejects(0.0500001, 0.05)
    (True, False)
    """
    return pvalue <= alpha


def monte_carlo_rejects(
    pvalue: float, alpha: float, *, resamples: int, at_floor: bool
) -> bool | None:
    """p <= alpha for a Monte Carlo p-value (k + 1)/(R + 1); None when it cannot be decided.

    When no resample was as extreme as the data (`at_floor`, k = 0), all the R resamples show is
    p <= 1/(R + 1) (Phipson & Smyth 2010, Stat Appl Genet Mol Biol 9:39). An alpha below that
    floor can then be neither reached nor ruled out: None, and more resamples are needed.

    Examples
    --------
    >>> monte_carlo_rejects(1 / 10_001, 0.05, resamples=10_000, at_floor=True)
    True
    >>> monte_carlo_rejects(1 / 10_001, 1e-5, resamples=10_000, at_floor=True) is None
    True
    >>> monte_carlo_rejects(3 / 10_001, 1e-5, resamples=10_000, at_floor=False)
    False
    """
    if at_floor and alpha < 1.0 / (resamples + 1):
        return None
    return pvalue_rejects(pvalue, alpha)


def exact_test_rejects(
    b: int,
    c: int,
    alpha: float,
    *,
    convention: str = "doubling",
    alternative: str = "two-sided",
    log10_pvalue: float | None = None,
) -> bool:
    """True when the exact McNemar p-value is at most `alpha`, exactly at a tie.

    Parameters
    ----------
    b, c : int
        Discordant counts: only A passes, only B passes.
    alpha : float
        The level, strictly between 0 and 1.
    convention, alternative
        As :func:`calculator.mcnemar_exact`.
    log10_pvalue : float, optional
        The test's log10 p-value when already computed.

    Examples
    --------
    >>> exact_test_rejects(6, 0, 0.03125)  # p = 2/64 exactly
    True
    >>> exact_test_rejects(6, 0, 0.031249)
    False
    """
    if log10_pvalue is None:
        log10_pvalue = mcnemar_exact(
            b, c, convention=convention, alternative=alternative
        ).log10_pvalue
    return _at_most(b, c, log10_pvalue, 1, alpha, convention, alternative)


def _at_most(
    b: int,
    c: int,
    log10_pvalue: float,
    multiplier: int,
    alpha: float,
    convention: str,
    alternative: str,
) -> bool:
    """multiplier x p <= alpha for the exact McNemar p of (b, c), exactly near a tie."""
    scaled = log10_pvalue + math.log10(multiplier)
    log_alpha = math.log10(alpha)
    if abs(scaled - log_alpha) > _NEAR / math.log(10.0):
        return scaled <= log_alpha
    exact = exact_pvalue_fraction(b, c, convention=convention, alternative=alternative)
    if exact is None:
        return scaled <= log_alpha
    return multiplier * exact <= Fraction(float(alpha))


def adjusted_exact_tests_reject(
    splits: list[tuple[int, int]], log10_pvalues: list[float], alpha: float, method: str
) -> list[bool]:
    """Which of a family of two-sided exact McNemar tests have an adjusted p <= alpha.

    The rule of :func:`exact_test_rejects`, applied to Bonferroni's adjusted p = min(1, K p)
    and Holm's step-down adjusted p = max over i <= j of min(1, (K - i) p_(i)) (p sorted
    ascending, i from 0): with alpha < 1 the latter is at most alpha exactly when every
    (K - i) p_(i) with i <= j is. Each product is compared in exact arithmetic near a tie.

    Parameters
    ----------
    splits : list of (int, int)
        Each test's discordant counts (b, c).
    log10_pvalues : list of float
        Each test's log10 p-value (doubling convention), in the same order.
    alpha : float
        The family's level.
    method : {"holm", "bonferroni"}

    Examples
    --------
    Three pairs, each with 6 discordant cases all one way (p = 1/32), at alpha = 3/32: every
    Bonferroni-adjusted p is 3/32 exactly, which is at most alpha.

    >>> logs = [math.log10(1 / 32)] * 3
    >>> adjusted_exact_tests_reject([(6, 0)] * 3, logs, 3 / 32, "bonferroni")
    [True, True, True]
    """
    family = len(splits)
    if method == "bonferroni":
        return [
            _at_most(b, c, log_p, family, alpha, "doubling", "two-sided")
            for (b, c), log_p in zip(splits, log10_pvalues, strict=True)
        ]
    order = sorted(range(family), key=log10_pvalues.__getitem__)
    rejected = [False] * family
    for step, index in enumerate(order):
        b, c = splits[index]
        if not _at_most(b, c, log10_pvalues[index], family - step, alpha, "doubling", "two-sided"):
            break
        rejected[index] = True
    return rejected


def agree_with_decisions(
    adjusted: Sequence[float],
    log10_adjusted: Sequence[float],
    rejected: Sequence[bool],
    alpha: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Adjusted p-values (and their logs) put on the side of alpha their decisions are on.

    The decisions come from :func:`adjusted_exact_tests_reject` (or :func:`exact_test_rejects`
    for one test), which settle a tie with alpha in exact arithmetic. The floating-point
    products K p can sit a few ulps on the other side of such a tie (p = 1/32 computed as
    0.031250000000000014, times 3 is 0.09375000000000004 against alpha = 3/32), so a rejected
    pair would be reported with an adjusted p above alpha. Such a value is within a relative
    1e-9 of alpha and at most alpha in exact arithmetic: it is reported as alpha. A pair not
    rejected whose floating-point value came out at or below alpha is reported as the next
    double above alpha. Every other value is unchanged, so ``reject == (adjusted <= alpha)``
    and ``reject == (log10 adjusted <= log10 alpha)`` hold for every pair.

    Parameters
    ----------
    adjusted, log10_adjusted : sequence of float
        Adjusted p-values and their base-10 logs, as :func:`adjust_pvalues` and
        :func:`adjust_log10_pvalues` give them.
    rejected : sequence of bool
        Each test's decision, in the same order.
    alpha : float
        The family's level, strictly between 0 and 1.

    Returns
    -------
    tuple of numpy.ndarray
        The adjusted p-values and their base-10 logs.

    Examples
    --------
    >>> p, log_p = agree_with_decisions([0.09375000000000004], [-1.02802872360024], [True], 3 / 32)
    >>> p.tolist() == [3 / 32], bool(log_p[0] <= math.log10(3 / 32))
    (True, True)
    """
    values = np.array(adjusted, dtype=np.float64)
    logs = np.array(log10_adjusted, dtype=np.float64)
    reject = np.asarray(rejected, dtype=bool)
    log_alpha = math.log10(alpha)
    values[reject & (values > alpha)] = alpha
    logs[reject & (logs > log_alpha)] = log_alpha
    values[~reject & (values <= alpha)] = np.nextafter(alpha, 1.0)
    logs[~reject & (logs <= log_alpha)] = np.nextafter(log_alpha, 0.0)
    return values, logs
