"""The paired-difference interval compatible with the exact McNemar test (Fay & Lumbard 2021).

The difference in pass rates A - B is delta = tau (2 beta - 1), where tau is the probability that
a case is discordant and beta the probability that a discordant case is one only A passes. The
interval melds two exact one-sample confidence distributions (Fay, Proschan & Brittain 2015): a
Clopper-Pearson one for tau from the m = b + c discordant cases out of n, and one for beta from
the b out of m. Its upper limit is the delta at which

    P_U(delta) = P[T (2 B - 1) >= delta] = (1 - level) / 2,

with B ~ Beta(b + 1, c) (the upper confidence distribution of beta) and T ~ Beta(m + 1, n - m)
for delta > 0 or T ~ Beta(m, n - m + 1) for delta < 0 (whichever gives the larger probability).
At delta = 0, P_U(0) = P[B >= 1/2] = P[Binomial(m, 1/2) <= b], the one-sided exact McNemar
p-value: so the interval excludes 0 exactly when the doubled exact p-value is below 1 - level.
The lower limit is minus the upper limit with b and c swapped.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

__all__ = ["exact_compatible_limits", "upper_tail_probability"]


def _tanh_sinh_rule(step: float, reach: float = 3.3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tanh-sinh nodes on (-1, 1) as their distances 1 + x and 1 - x (each to full relative
    precision near its end), and the weights. Step 1/32 reaches 1e-15 for these integrands."""
    k = np.arange(-round(reach / step), round(reach / step) + 1) * step
    y = 0.5 * math.pi * np.sinh(k)
    weights = step * 0.5 * math.pi * np.cosh(k) / np.cosh(y) ** 2
    return np.exp(y) / np.cosh(y), np.exp(-y) / np.cosh(y), weights


_FROM_LOW, _FROM_HIGH, _WEIGHTS = _tanh_sinh_rule(1.0 / 32.0)


def upper_tail_probability(delta: float, b: int, c: int, n: int) -> float:
    """P_U(delta) = P[T (2 B - 1) >= delta] for -1 <= delta <= 1 (see the module docstring).

    Computed as an integral over the quantile u of T, so that the integrand is bounded, and
    analytic inside the range however concentrated T is (n up to 10^12): P = integral over u in
    (0, 1) of P[B >= 1/2 + delta / (2 t(u))] du with t(u) the u-quantile of T, by tanh-sinh
    quadrature, which is not troubled by the quantile's singular ends.

    Examples
    --------
    >>> round(upper_tail_probability(0.0, 4, 12, 100), 6)  # P[Binomial(16, 1/2) <= 4]
    0.038406
    """
    m = b + c
    if c == 0:  # B = 1: P_U(delta) = P[T >= delta]
        if delta <= 0:
            return 1.0
        return 1.0 if m == n else float(special.betaincc(m + 1, n - m, delta))
    if delta == 0:
        return float(special.betaincc(b + 1, c, 0.5))
    if delta > 0 and m == n:  # T = 1
        return float(special.betaincc(b + 1, c, 0.5 + delta / 2))
    # T's upper confidence distribution for delta > 0, its lower one for delta < 0. Below the
    # quantile `start` of |delta|, B would have to exceed 1 (delta > 0: probability 0) or lie
    # below 0 (delta < 0: probability 1).
    shape = (m + 1, n - m) if delta > 0 else (m, n - m + 1)
    start = float(special.betainc(*shape, abs(delta)))
    rest = float(special.betaincc(*shape, abs(delta)))  # 1 - start, to full precision
    base = 0.0 if delta > 0 else start
    if rest <= 0.0:
        return base
    u = start + 0.5 * rest * _FROM_LOW
    t = np.where(
        u < 0.5,
        special.betaincinv(*shape, u),
        special.betainccinv(*shape, 0.5 * rest * _FROM_HIGH),
    )
    with np.errstate(divide="ignore"):
        threshold = 0.5 + delta / (2.0 * t)
    threshold = np.clip(np.nan_to_num(threshold, posinf=1.0, neginf=0.0), 0.0, 1.0)
    value = base + 0.5 * rest * float(special.betaincc(b + 1, c, threshold) @ _WEIGHTS)
    return min(1.0, max(0.0, value))


def _upper_limit(b: int, c: int, n: int, tail: float) -> float:
    """The delta with P_U(delta) = tail; its sign is that of P_U(0) - tail."""
    m = b + c
    if c == 0:
        return 1.0 if m == n else float(special.betainccinv(m + 1, n - m, tail))
    at_zero = upper_tail_probability(0.0, b, c, n)
    if at_zero == tail:
        # The doubled exact p equals 1 - level, so the test rejects (p <= alpha) and the
        # inverted interval is open at 0: its end is the largest double below 0.
        return -5e-324
    if m == n:  # T = 1: P_U(delta) = P[B >= (1 + delta)/2]
        return 2.0 * float(special.betainccinv(b + 1, c, tail)) - 1.0
    from scipy.optimize import brentq  # first use only

    def excess(delta: float) -> float:
        return upper_tail_probability(delta, b, c, n) - tail

    # Brackets from 2B - 1 lying in [-1, 1]: P_U(delta) <= P[T_U >= delta], so the limit is at
    # most T_U's upper tail quantile; P_U(delta) >= P[T_L <= -delta] for delta < 0, so it is at
    # least minus T_L's lower tail quantile.
    if at_zero > tail:  # P_U falls from P_U(0) > tail to 0
        high = min(1.0, float(special.betainccinv(m + 1, n - m, tail)))
        root = brentq(excess, 0.0, high, xtol=1e-300, rtol=1e-13, maxiter=200)
        return max(root, 5e-324)
    low = max(-1.0, -float(special.betaincinv(m, n - m + 1, tail)))
    if excess(low) < 0:  # not expected; fall back on the whole range
        low = -1.0
    root = brentq(excess, low, 0.0, xtol=1e-300, rtol=1e-13, maxiter=200)
    return min(root, -5e-324)  # P_U(0) < tail: the limit is below 0, however close


def exact_compatible_limits(b: int, c: int, n: int, level: float) -> tuple[float, float]:
    """Fay & Lumbard's (2021) limits for the pass-rate difference A - B = (b - c)/n.

    Parameters
    ----------
    b, c : int
        Discordant counts: only A passes, only B passes.
    n : int
        All cases, n >= b + c and n >= 1.
    level : float
        Confidence level in (0, 1); each tail gets (1 - level)/2.

    Returns
    -------
    (low, high) : tuple of float
        The central interval. It excludes 0 exactly when the doubled exact McNemar p-value is
        below 1 - level; at m = 0 it is +/- the Clopper-Pearson upper limit for 0 discordant
        cases out of n.

    References
    ----------
    .. [1] Fay, M. P. & Lumbard, K. (2021). Confidence intervals for difference in proportions
           for matched pairs compatible with exact McNemar's or sign tests. Statistics in
           Medicine 40(5), 1147-1159.
    .. [2] Fay, M. P., Proschan, M. A. & Brittain, E. (2015). Combining one-sample confidence
           procedures for inference in the two-sample case. Biometrics 71(1), 146-156.

    Examples
    --------
    >>> low, high = exact_compatible_limits(4, 12, 100, 0.95)
    >>> round(low, 4), round(high, 4)
    (-0.17, 0.0077)
    """
    tail = (1.0 - level) / 2.0
    return -_upper_limit(c, b, n, tail), _upper_limit(b, c, n, tail)
