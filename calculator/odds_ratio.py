"""The matched-pairs odds ratio b/c with its exact conditional and mid-p confidence intervals.

Given the m = b + c discordant pairs, b is Binomial(m, theta) with theta = psi / (1 + psi), where
psi is the matched-pairs odds ratio. An interval for theta from b out of m maps to one for psi by
t / (1 - t). The exact (Clopper-Pearson) interval excludes 1 exactly when the exact McNemar test
(doubling convention) rejects at the same level; the mid-p interval does the same for the mid-p
test. This is the interval GraphPad, OpenEpi, StatsDirect and Stata's ``mcci`` report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from calculator._validation import check_choice, check_count, check_probability
from calculator.tails import beta_quantile

__all__ = ["ODDS_RATIO_METHODS", "OddsRatio", "odds_ratio"]

#: "exact": Clopper-Pearson on b out of b + c; "mid-p": its mid-p version.
ODDS_RATIO_METHODS = ("exact", "mid-p")


def _finite_or_none(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


@dataclass(frozen=True, slots=True, kw_only=True)
class OddsRatio:
    """The matched-pairs odds ratio b/c (A over B) with a confidence interval.

    Attributes
    ----------
    estimate : float or None
        b / c; ``math.inf`` when c = 0 < b, None when b = c = 0 (undefined).
    low, high : float
        Limits; `high` is ``math.inf`` when c = 0, `low` is 0 when b = 0.
    level : float
        Confidence level.
    method : str
        "exact" or "mid-p".
    """

    estimate: float | None
    low: float
    high: float
    level: float
    method: str

    @property
    def excludes_one(self) -> bool:
        """True when the whole interval lies on one side of 1 (no difference)."""
        return self.low > 1.0 or self.high < 1.0

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types: an infinite or undefined value is None, never inf or NaN."""
        return {
            "estimate": _finite_or_none(self.estimate),
            "low": _finite_or_none(self.low),
            "high": _finite_or_none(self.high),
            "level": self.level,
            "method": self.method,
        }


def _exact_lower(b: int, c: int, tail: float) -> float:
    """Clopper-Pearson lower limit of the odds ratio: P_theta[X >= b] = tail, 0 at b = 0.

    theta and 1 - theta are both computed as Beta quantiles, so that neither loses digits, and
    both are verified (scipy's inverse alone is wrong for large shapes: see
    :func:`calculator.tails.beta_quantile`).
    """
    if b == 0:
        return 0.0
    theta = beta_quantile(b, c + 1, tail)
    if c == 0:
        return theta / -math.expm1(math.log(tail) / b)  # theta = tail^(1/b)
    return theta / beta_quantile(c + 1, b, tail, upper=True)


def _tail_at_least(b: int, c: int, log_odds: float) -> float:
    """P[X >= b] for X ~ Binomial(b + c, theta), theta = expit(log_odds), b >= 1."""
    theta, rest = special.expit(log_odds), special.expit(-log_odds)
    if theta <= 0.5:
        return float(special.betainc(b, c + 1, theta))
    # 1 - I_{1 - theta}(c + 1, b), evaluated at the small argument to keep its digits.
    if c == 0:  # P[X = b] = theta^b
        return math.exp(-b * float(np.logaddexp(0.0, -log_odds)))
    return float(special.betaincc(c + 1, b, rest))


def _mid_p_lower(b: int, c: int, tail: float) -> float:
    """Mid-p lower limit of the odds ratio: P_theta[X > b] + P_theta[X = b] / 2 = tail."""
    if b == 0:
        return 0.0
    if c == 0:
        # P[X > m] = 0 and P[X = m] = theta^m: theta^m / 2 = tail.
        log_theta = math.log(2.0 * tail) / b
        return math.exp(log_theta) / -math.expm1(log_theta)
    from scipy.optimize import brentq  # first use only: scipy.optimize is slow to import

    def excess(log_odds: float) -> float:
        at_least = _tail_at_least(b, c, log_odds)  # P[X >= b]
        above = _tail_at_least(b + 1, c - 1, log_odds)  # P[X >= b + 1]
        return 0.5 * (at_least + above) - tail

    # The root lies between the limits that count X = b fully (exact) and not at all.
    low = math.log(_exact_lower(b, c, tail))
    high = math.log(_exact_lower(b + 1, c - 1, tail))
    if excess(low) >= 0:
        return math.exp(low)
    if excess(high) <= 0:
        return math.exp(high)
    return math.exp(brentq(excess, low, high, xtol=1e-14, rtol=1e-15, maxiter=200))


def odds_ratio(b: int, c: int, *, level: float = 0.95, method: str = "exact") -> OddsRatio:
    """Matched-pairs odds ratio b/c with a conditional confidence interval.

    The ratio is A over B: the odds that a discordant case is one that only A passes. It is
    above 1 when A passes more often, as the difference A - B is then positive.

    Parameters
    ----------
    b, c : int
        Discordant counts: only A passes, only B passes.
    level : float
        Confidence level, strictly between 0 and 1.
    method : {"exact", "mid-p"}
        "exact": the central Clopper-Pearson interval for theta = b / (b + c); "mid-p": the
        interval whose ends give a one-sided mid-p value of (1 - level) / 2.

    Returns
    -------
    OddsRatio

    Raises
    ------
    TypeError, ValueError
        On a count that is not a non-negative integer, a level outside (0, 1), an unknown
        method.

    Notes
    -----
    With m = b + c and tail = (1 - level) / 2, the limits for theta solve, for "exact",
    P_theta[X >= b] = tail (lower) and P_theta[X <= b] = tail (upper), that is the Beta
    quantiles B(tail; b, c + 1) and B(1 - tail; b + 1, c); for "mid-p", P_theta[X > b] +
    P_theta[X = b]/2 = tail and P_theta[X < b] + P_theta[X = b]/2 = tail. Each maps to the odds
    ratio by t / (1 - t), with t and 1 - t each computed directly (the mid-p root is found on
    the log-odds scale); the upper limit is the reciprocal of the lower limit for c/b.

    At b = 0 the lower limit is 0; at c = 0 the upper limit is infinite (None in JSON); with no
    discordant pairs the estimate is undefined and the interval is 0 to infinity.

    The exact interval excludes 1 exactly when the doubled exact McNemar p-value is below
    1 - level (at equality the limit is 1 itself). The mid-p interval excludes 1 exactly when
    the mid-p McNemar p-value is below 1 - level, for every level of at least 0.25 (at b == c
    the two-sided mid-p value 1 - P[X = b]/2 is at least 0.75, and the interval always
    contains 1).

    References
    ----------
    .. [1] Breslow, N. E. & Day, N. E. (1980). Statistical Methods in Cancer Research, Vol. 1,
           IARC, pp. 164-166.
    .. [2] Liddell, F. D. K. (1983). Simplified exact analysis of case-referent studies:
           matched pairs; dichotomous exposure. Journal of Epidemiology and Community Health
           37(1), 82-84.
    .. [3] Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
           matched-pairs data: mid-p and asymptotic are better than exact conditional. BMC
           Medical Research Methodology 13:91.

    Examples
    --------
    >>> r = odds_ratio(12, 2)
    >>> r.estimate, round(r.low, 6), round(r.high, 6)
    (6.0, 1.335744, 55.197091)
    >>> odds_ratio(5, 0).to_dict()["high"] is None
    True
    """
    b = check_count(b, "b")
    c = check_count(c, "c")
    level = check_probability(level, "level")
    check_choice(method, "method", ODDS_RATIO_METHODS)
    tail = (1.0 - level) / 2.0
    lower = _exact_lower if method == "exact" else _mid_p_lower
    low = lower(b, c, tail)
    # theta_upper(b, c) = 1 - theta_lower(c, b), so psi_upper(b, c) = 1 / psi_lower(c, b).
    low_reversed = lower(c, b, tail)
    high = 1.0 / low_reversed if low_reversed > 0.0 else math.inf
    estimate = (None if b == 0 else math.inf) if c == 0 else b / c
    return OddsRatio(estimate=estimate, low=low, high=high, level=level, method=method)
