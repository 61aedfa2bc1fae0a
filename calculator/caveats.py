"""Sentences that qualify a result the report would otherwise state too plainly.

- :func:`smallest_pvalue`: the smallest two-sided p-value the exact test can give with m pairs.
- :func:`few_pairs_caveat`: said when no split of the discordant pairs can reach alpha.
- :func:`zero_width_caveat`: said when the Wald interval collapses to a point.
"""

from __future__ import annotations

import math

import numpy as np

from calculator.formatting import plural
from calculator.intervals import DifferenceInterval

__all__ = ["few_pairs_caveat", "smallest_pvalue", "zero_width_caveat"]


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


def few_pairs_caveat(discordant: int, alpha: float, convention: str) -> str | None:
    """A sentence when no split of the m discordant pairs gives p <= alpha, else None.

    With m = 0 the report already says that no case tells the systems apart, so this is None.

    Examples
    --------
    >>> print(few_pairs_caveat(4, 0.05, "doubling"))
    With only 4 discordant pairs no split can give p ≤ 0.05: even 4 to 0 gives the exact test \
p = 2^(1 − 4) = 0.125, so a non-significant result here says little about whether the systems \
differ.
    >>> few_pairs_caveat(6, 0.05, "doubling") is None
    True
    """
    smallest = smallest_pvalue(discordant, convention)
    # smallest is an exact power of two, so this float comparison is exact at a tie (the one
    # rule of calculator.significance reduces to it).
    if discordant == 0 or smallest <= alpha:
        return None
    if convention == "doubling":
        test, power = "the exact test", f"2^(1 − {discordant:,})"
    else:
        test, power = "the mid-p test", f"2^(−{discordant:,})"
    value = f"{smallest:.4g}"  # a power of 2: 1, 0.5, 0.25, 0.125, 0.0625, 0.03125, ...
    return (
        f"With only {plural(discordant, 'discordant pair')} no split can give p ≤ {alpha:g}: "
        f"even {discordant:,} to 0 gives {test} p = {power} = {value}, so a non-significant "
        "result here says little about whether the systems differ."
    )


def zero_width_caveat(difference: DifferenceInterval) -> str | None:
    """A sentence when the Wald interval has zero width, else None.

    Wald's standard error is 0 when no case is discordant, or when every case is discordant
    and all in the same direction; the interval is then a single point, which is a failure of
    the method and not certainty about the difference.

    Examples
    --------
    >>> from calculator.intervals import difference_interval
    >>> zero_width_caveat(difference_interval(10, 0, 0, 10, method="wald"))[:39]
    'The Wald interval has zero width here: '
    """
    if difference.method != "wald" or difference.low != difference.high:
        return None
    return (
        "The Wald interval has zero width here: its standard error is 0 when no case is "
        "discordant, or when every case is discordant in the same direction, which is a flaw of "
        "the method and not certainty about the difference; the Newcombe, Tango or "
        "exact-compatible interval gives a usable range."
    )


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
    from scipy import stats

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
    return float(np.sum(stats.binom.pmf(rejecting, discordant, 0.5))) if rejecting else 0.0
