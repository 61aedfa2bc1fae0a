"""The null distribution of the discordant split, with the tails that make the exact p-value.

When A and B pass equally often, each of the m = b + c discordant pairs is equally likely to
favour either system, so b given m is Binomial(m, 1/2). This module lays out that distribution for
a chart, marks which outcomes count towards the p-value under a convention and an alternative, and
says what the test can and cannot do at this m: the smallest p-value any split can give and the
test's actual size (its largest rejection probability under the null, below alpha because b is
discrete).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calculator._validation import check_choice, check_count, check_probability
from calculator.errors import CalculatorError
from calculator.mcnemar import ALTERNATIVES, CONVENTIONS, mcnemar_exact
from calculator.significance import exact_test_rejects
from calculator.tails import half_cdf, log_binom_half_pmf

__all__ = ["ALTERNATIVES", "MAX_BARS", "NullDistribution", "null_distribution"]

#: Up to this many discordant pairs every outcome 0..m is a bar; beyond it the distribution is
#: an outline drawn through at most OUTLINE_POINTS outcomes around its centre.
MAX_BARS = 400
OUTLINE_POINTS = 401
# Outcomes further than this many standard deviations from m/2 carry less than 1e-40 of the
# probability; the outline leaves them out.
_OUTLINE_SDS = 13.5


@dataclass(frozen=True, slots=True, kw_only=True)
class NullDistribution:
    """Binomial(m, 1/2), the observed b, and the outcomes behind the p-value.

    Attributes
    ----------
    discordant : int
        m = b + c.
    statistic : int
        The observed b (only A passes).
    convention, alternative : str
        As passed to :func:`null_distribution`.
    alpha : float
        Significance level.
    kind : str
        "bars" (every outcome 0..m is listed) or "outline" (a smooth outline through evenly
        spaced outcomes around m/2; m above `MAX_BARS`).
    outcomes : tuple of int
        Values of b listed, ascending.
    probabilities : tuple of float
        P[B = outcome] under the null, for each listed outcome.
    tail_weights : tuple of float
        For each listed outcome, the share of its probability that enters the p-value: 1 for
        an outcome more extreme than the observed one, 1/2 for an outcome exactly as extreme
        under mid-p, 1 for it under doubling, 0 otherwise.
    pvalue : float
        The exact p-value of the observed split (the weighted sum over all outcomes, capped at
        1 under doubling).
    log10_pvalue : float
        Its base-10 logarithm, finite for every m.
    smallest_pvalue : float
        The smallest p-value any split of m can give under this convention and alternative
        (two-sided doubling: 2^(1 - m); 1 at m = 0). Underflows to 0 past m = 1075 or so: see
        `log10_smallest_pvalue`.
    log10_smallest_pvalue : float
        Its base-10 logarithm, finite for every m.
    size : float
        P[p-value <= alpha] under the null: the test's actual type I error rate at this m.
    rejection_limit : int
        Two-sided: the largest k with min(b, m - b) <= k rejected; "greater": the largest b
        rejected; "less": the largest m - b rejected. -1 when no split is significant.
    reachable : bool
        Whether any split of m reaches alpha.
    """

    discordant: int
    statistic: int
    convention: str
    alternative: str
    alpha: float
    kind: str
    outcomes: tuple[int, ...]
    probabilities: tuple[float, ...]
    tail_weights: tuple[float, ...]
    pvalue: float
    log10_pvalue: float
    smallest_pvalue: float
    log10_smallest_pvalue: float
    size: float
    rejection_limit: int
    reachable: bool

    def to_dict(self) -> dict[str, object]:
        """Every field, JSON-ready (tuples become lists; every number is finite)."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name in self.__slots__
            for value in (getattr(self, name),)
        }


def null_distribution(
    m: int,
    b: int,
    *,
    convention: str = "doubling",
    alternative: str = "two-sided",
    alpha: float = 0.05,
) -> NullDistribution:
    """Binomial(m, 1/2) with the observed b and the outcomes that make its exact p-value.

    Parameters
    ----------
    m : int
        Discordant pairs, b + c.
    b : int
        Pairs only A passes, 0 <= b <= m.
    convention : {"doubling", "mid-p"}
        How the p-value is formed, as in :func:`calculator.mcnemar_exact`.
    alternative : {"two-sided", "greater", "less"}
        "greater": B passes more often than A (evidence is c > b, small b); "less": A passes
        more often (large b).
    alpha : float
        Significance level, in (0, 1).

    Returns
    -------
    NullDistribution

    Raises
    ------
    TypeError, ValueError
        For a count that is not a non-negative integer, b > m, an unknown convention or
        alternative, or alpha outside (0, 1).

    Notes
    -----
    With X ~ Binomial(m, 1/2) and k = min(b, m - b):

    - two-sided, doubling: p = min(1, 2 P[X <= k]); the tails are X <= k and X >= m - k.
    - two-sided, mid-p: p = 2 P[X <= k] - P[X = k] for b != m/2, so the two observed-as-extreme
      outcomes count half; at b = m/2 only b itself is as extreme and p = 1 - P[X = b]/2.
    - "greater": p = P[X <= b]; "less": p = P[X >= b]; mid-p subtracts P[X = b]/2.

    The p-value never falls as the split moves towards m/2 (two-sided), or as b rises
    ("greater"), so the rejected outcomes form the tails beyond `rejection_limit`, found by
    bisection with O(log m) exact p-values, each decided by the one p <= alpha rule of
    :func:`calculator.significance.exact_test_rejects` (exact arithmetic at a tie). The size is
    the null probability of those tails, computed with the regularised
    incomplete beta function, so it costs the same at m = 10 and m = 10^9. At m = 0 nothing can
    be rejected: p = 1, size 0.

    Examples
    --------
    Five discordant pairs can never give a two-sided p at or below 0.05: the most lopsided split
    gives 2 / 2^5 = 0.0625.

    >>> nd = null_distribution(5, 0)
    >>> nd.smallest_pvalue, nd.reachable, nd.size
    (0.0625, False, 0.0)
    >>> nd = null_distribution(10, 2)
    >>> round(nd.pvalue, 4), nd.rejection_limit, round(nd.size, 5)
    (0.1094, 1, 0.02148)
    """
    m = check_count(m, "m")
    b = check_count(b, "b")
    if b > m:
        raise CalculatorError(f"`b` must be at most m = {m}, but got {b}.")
    check_choice(convention, "convention", CONVENTIONS)
    check_choice(alternative, "alternative", ALTERNATIVES)
    alpha = check_probability(alpha, "alpha")
    outcomes, log_probabilities, kind = _layout(m)
    weights = _tail_weights(outcomes, m, b, convention, alternative)
    exact = mcnemar_exact(b, m - b, convention=convention, alternative=alternative)
    limit = _rejection_limit(m, convention, alternative, alpha)
    side = "two-sided" if alternative == "two-sided" else "greater"
    smallest = mcnemar_exact(0, m, convention=convention, alternative=side)
    return NullDistribution(
        discordant=m,
        statistic=b,
        convention=convention,
        alternative=alternative,
        alpha=alpha,
        kind=kind,
        outcomes=tuple(int(x) for x in outcomes),
        probabilities=tuple(float(p) for p in np.exp(log_probabilities)),
        tail_weights=tuple(float(w) for w in weights),
        pvalue=exact.pvalue,  # mcnemar_exact's own (a rational k/2^m for small m)
        log10_pvalue=exact.log10_pvalue,
        smallest_pvalue=smallest.pvalue,
        log10_smallest_pvalue=smallest.log10_pvalue,
        size=_size(m, limit, alternative),
        rejection_limit=limit,
        reachable=limit >= 0,
    )


def _layout(m: int) -> tuple[np.ndarray, np.ndarray, str]:
    """Outcomes to list and their log probabilities: all of 0..m, or an outline around m/2."""
    if m <= MAX_BARS:
        outcomes = np.arange(m + 1, dtype=np.int64)
        kind = "bars"
    else:
        half_width = _OUTLINE_SDS * math.sqrt(m) / 2
        low = max(0, math.floor(m / 2 - half_width))
        high = min(m, math.ceil(m / 2 + half_width))
        outcomes = np.unique(np.linspace(low, high, OUTLINE_POINTS).round().astype(np.int64))
        kind = "outline"
    return outcomes, log_binom_half_pmf(outcomes, m), kind


def _tail_weights(
    outcomes: np.ndarray, m: int, b: int, convention: str, alternative: str
) -> np.ndarray:
    """Share of each outcome's probability that the p-value counts (see `NullDistribution`)."""
    if m == 0:  # no discordant pair: p = 1 by definition, the one outcome counts in full
        return np.ones(len(outcomes))
    edge = 0.5 if convention == "mid-p" else 1.0
    if alternative == "greater":
        return np.where(outcomes < b, 1.0, np.where(outcomes == b, edge, 0.0))
    if alternative == "less":
        return np.where(outcomes > b, 1.0, np.where(outcomes == b, edge, 0.0))
    k = min(b, m - b)
    distance = np.minimum(outcomes, m - outcomes)  # how balanced each split is
    if 2 * k == m:  # the observed split is the balanced one
        return np.where(outcomes == k, edge, 1.0)
    return np.where(distance < k, 1.0, np.where(distance == k, edge, 0.0))


def _rejection_limit(m: int, convention: str, alternative: str, alpha: float) -> int:
    """Largest extremeness index rejected at alpha (-1 if none), by bisection.

    The index j runs over b for "greater", over m - b for "less" (both from 0 to m), and over
    min(b, m - b) for two-sided (0 to m // 2); the p-value never falls as j grows. Each split is
    decided by the one p <= alpha rule (:func:`calculator.significance.exact_test_rejects`,
    exact arithmetic at a tie).
    """
    side = "two-sided" if alternative == "two-sided" else "greater"
    top = m // 2 if alternative == "two-sided" else m

    def rejected(j: int) -> bool:
        return exact_test_rejects(j, m - j, alpha, convention=convention, alternative=side)

    if m == 0 or not rejected(0):
        return -1
    low, high = 0, top  # p(low) <= alpha; find the largest such index
    if rejected(high):
        return high
    while high - low > 1:
        middle = (low + high) // 2
        if rejected(middle):
            low = middle
        else:
            high = middle
    return low


def _size(m: int, limit: int, alternative: str) -> float:
    """Null probability of the rejected outcomes."""
    if limit < 0:
        return 0.0
    one_tail = float(half_cdf(limit, m))
    if alternative != "two-sided":
        return one_tail
    if 2 * limit >= m:
        return 1.0
    return min(1.0, 2.0 * one_tail)
