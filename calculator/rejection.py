"""Where each McNemar test starts to reject: for every discordant count m, the largest minority
count k such that the splits with min(b, m - b) <= k are rejected at level alpha.

The one home of the rejection region, used by the planning functions (power and sample size),
the teaching section's size and power, and the release checks.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from calculator._lazy_scipy import stats
from calculator.tails import half_cdf, log_binom_half_pmf

__all__ = ["TESTS", "TIE_TOLERANCE", "chi2_conditional_size", "rejection_limits", "smallest_pvalue"]

#: The two-sided tests: the exact test (doubling), its mid-p version, and the chi-square test
#: without and with Edwards' continuity correction.
TESTS = ("exact", "mid-p", "chi2", "chi2-corrected")
#: The searches accept a p-value within this relative distance above alpha, so that a dyadic
#: alpha such as 1/16, which some exact p-values equal, is not lost to rounding; the limit they
#: find is then settled by the one rule of :mod:`calculator.significance`.
TIE_TOLERANCE = 1e-9


def rejection_limits(discordant: np.ndarray, test: str, alpha: float) -> np.ndarray:
    """For each m in `discordant`, the largest k with min(b, m - b) <= k rejected (-1: none).

    Parameters
    ----------
    discordant : numpy.ndarray of int
        Discordant counts m (non-negative, any order).
    test : {"exact", "mid-p", "chi2", "chi2-corrected"}
    alpha : float
        Significance level, in (0, 1).

    Notes
    -----
    Each test's two-sided p-value never falls as the split min(b, m - b) grows towards m/2.
    Exact test: the largest k with 2 P[Bin(m, 1/2) <= k] <= alpha, from a normal guess stepped
    to the exact limit. Chi-square test: the largest k with (m - 2k)^2 / m >= chi2_{1, 1-alpha},
    settled in integer arithmetic. The mid-p and corrected chi-square tests: bisection on k in
    [0, m // 2] for all m at once, on the p-value of :func:`calculator.mcnemar_exact` and
    :func:`calculator.mcnemar_chi2`. A limit whose p-value lies within a relative
    :data:`TIE_TOLERANCE` above alpha is settled by the one p <= alpha rule
    (:func:`calculator.significance.exact_test_rejects`, exact at a tie).

    Examples
    --------
    >>> rejection_limits(np.arange(10), "exact", 0.05).tolist()
    [-1, -1, -1, -1, -1, -1, 0, 0, 0, 1]
    >>> rejection_limits(np.arange(10), "mid-p", 0.05).tolist()
    [-1, -1, -1, -1, -1, 0, 0, 0, 1, 1]
    >>> rejection_limits(np.arange(10), "chi2", 0.05).tolist()
    [-1, -1, -1, -1, 0, 0, 0, 0, 1, 1]
    """
    m = np.asarray(discordant, dtype=np.int64)
    if test == "chi2":
        return _stepped(m, alpha, test)
    found = _stepped(m, alpha, test) if test == "exact" else _bisected(m, test, alpha)
    return _settle(m, found, test, alpha)


def _settle(m: np.ndarray, limit: np.ndarray, test: str, alpha: float) -> np.ndarray:
    """The limits found with :data:`TIE_TOLERANCE`, decided by the one p <= alpha rule.

    The search accepts a p-value up to a relative 1e-9 above alpha; a limit whose p lies in that
    band is settled here by :func:`calculator.significance.exact_test_rejects` (exact arithmetic
    at a tie: 2/2^6 = 1/32 rejects at alpha = 1/32) or, for the continuous corrected chi-square
    p, by the plain comparison of :func:`calculator.significance.rejects`. The p-value falls by
    far more than 1e-9 from one split to the next, so only the limit itself can be in the band.
    """
    from calculator.significance import exact_test_rejects

    limit = np.array(limit, dtype=np.int64, copy=True)
    candidates = np.flatnonzero((limit >= 0) & (m > 0))
    if candidates.size == 0:
        return limit
    log_p = _log_pvalue(limit[candidates], m[candidates], test)
    for index in candidates[log_p > math.log(alpha)]:
        k, total = int(limit[index]), int(m[index])
        if test == "chi2-corrected":
            keep = False  # a continuous p above alpha does not reject
        else:
            convention = "doubling" if test == "exact" else "mid-p"
            keep = exact_test_rejects(k, total - k, alpha, convention=convention)
        if not keep:
            limit[index] -= 1
    return limit


def _bisected(m: np.ndarray, test: str, alpha: float) -> np.ndarray:
    """The limits by bisection on k in [0, m // 2], for any of the tests."""
    log_alpha = math.log(alpha) + math.log1p(TIE_TOLERANCE)
    low = np.full(m.shape, -1, dtype=np.int64)  # rejected (or -1)
    high = m // 2 + 1  # not rejected (or one past the last split)
    while np.any(open_ := high - low > 1):
        middle = (low + high) // 2
        rejected = open_ & (_log_pvalue(middle, m, test) <= log_alpha)
        low = np.where(rejected, middle, low)
        high = np.where(open_ & ~rejected, middle, high)
    return low


def _log_pvalue(k: np.ndarray, m: np.ndarray, test: str) -> np.ndarray:
    """log of the two-sided p-value of the split (k, m - k), k <= m/2, vectorised; 0 at m = 0."""
    k = np.asarray(k, dtype=np.float64)
    m = np.asarray(m, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if test in ("chi2", "chi2-corrected"):
            gap = m - 2 * k
            if test == "chi2-corrected":
                gap = np.maximum(0.0, gap - 1)
            root = gap / np.sqrt(m)
            log_p = np.minimum(0.0, math.log(2.0) + special.log_ndtr(-root))
        else:
            log_cdf = np.log(half_cdf(k, m))
            if test == "exact":
                log_p = np.minimum(0.0, math.log(2.0) + log_cdf)
            else:
                below = np.log(half_cdf(k - 1, m))
                log_p = np.logaddexp(log_cdf, below)
                balanced = 2 * k == m
                log_pmf = log_binom_half_pmf(k, m)
                log_p = np.where(balanced, np.log1p(-0.5 * np.exp(log_pmf)), log_p)
        return np.where(m == 0, 0.0, log_p)


def _stepped(discordant: np.ndarray, alpha: float, test: str) -> np.ndarray:
    """k(D) for each D in `discordant` (non-negative int64 values), exact or chi-square test."""
    root = np.sqrt(discordant)
    z = stats.norm.isf(alpha / 2)
    if test == "chi2":
        critical = stats.chi2.isf(alpha, 1) * discordant
        limit = np.floor((discordant - z * root) / 2).astype(np.int64)
        # Settle the rounding of the square root against the integer inequality itself.
        limit += ((discordant - 2 * (limit + 1)) ** 2 >= critical) & (limit + 1 < discordant / 2)
        limit -= (discordant - 2 * limit) ** 2 < critical
        limit[discordant == 0] = -1
        return np.maximum(limit, -1)
    half_alpha = alpha / 2 * (1 + TIE_TOLERANCE)
    # Normal guess with continuity correction, then step to the exact limit; after the first
    # pass only the counts that moved are looked at again.
    limit = np.clip(np.floor((discordant - z * root) / 2 - 0.5).astype(np.int64), -1, None)
    cdf = stats.binom.cdf(limit, discordant, 0.5)
    moving = np.flatnonzero(cdf > half_alpha)
    while moving.size:
        cdf[moving] -= stats.binom.pmf(limit[moving], discordant[moving], 0.5)
        limit[moving] -= 1
        moving = moving[cdf[moving] > half_alpha]
    moving = np.arange(discordant.size)
    while moving.size:
        after = cdf[moving] + stats.binom.pmf(limit[moving] + 1, discordant[moving], 0.5)
        step = after <= half_alpha
        moving = moving[step]
        limit[moving] += 1
        cdf[moving] = after[step]
    return np.maximum(limit, -1)


def smallest_pvalue(discordant: int, convention: str) -> float:
    """The smallest two-sided p-value of the exact McNemar test with m discordant pairs.

    It comes from the most lopsided split, m to 0: 2^(1 - m) under doubling (1 at m <= 1) and
    2^(-m) for the mid-p value (P[T = 0]; 1 at m = 0).

    Examples
    --------
    >>> smallest_pvalue(5, "doubling"), smallest_pvalue(5, "mid-p")
    (0.0625, 0.03125)
    >>> smallest_pvalue(0, "mid-p"), smallest_pvalue(1, "doubling")
    (1.0, 1.0)
    """
    if discordant == 0:
        return 1.0
    exponent = 1 - discordant if convention == "doubling" else -discordant
    return min(1.0, math.ldexp(1.0, exponent))


def chi2_conditional_size(discordant: int, alpha: float, *, correction: bool = False) -> float:
    """How often McNemar's chi-square test rejects a true null given m discordant pairs.

    Under H0 the split b of the m discordant pairs is Binomial(m, 1/2); the test rejects when
    its p-value is at most alpha (the one rule, :func:`calculator.significance.rejects`), so
    its conditional size is the binomial probability of the splits that reject. Published
    sizes of the chi-square test average this over the distribution of m and so look closer
    to alpha than it is at a given m.

    Examples
    --------
    >>> round(chi2_conditional_size(4, 0.05), 4)  # 4-0 and 0-4 reject: 2/16
    0.125
    >>> chi2_conditional_size(0, 0.05)
    0.0
    """
    from calculator.mcnemar import mcnemar_chi2
    from calculator.significance import rejects

    if discordant == 0:
        return 0.0
    splits = range(discordant + 1)
    rejecting = [
        b
        for b in splits
        if rejects(mcnemar_chi2(b, discordant - b, correction=correction).log10_pvalue, alpha)
    ]
    # The sum of C(m, b) / 2^m over the rejecting splits, in whole numbers: exact, and one
    # rounding at the end (Python divides integers correctly rounded).
    return sum(math.comb(discordant, b) for b in rejecting) / 2**discordant
