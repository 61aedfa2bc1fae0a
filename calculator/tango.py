"""Tango's (1998) score statistic and score interval for the paired difference, over arrays.

- :func:`tango_score`: T(d0) for one table (the non-inferiority test uses it).
- :func:`tango_scores`: T(d0) for many tables at one d0 (the test's exact size sums over them).
- :func:`tango_limits`: the interval {d0 : |T(d0)| <= z} for many tables at once.
- :func:`tango_covers`: whether each table's interval holds a value, without its limits.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from calculator.errors import CalculatorError

__all__ = ["tango_covers", "tango_limits", "tango_score", "tango_scores"]

#: Halvings of [-1, 1] that put each limit within a double of the root (2^-64 < 1e-19); at
#: this setting the limits come from false position instead, which gets there in fewer steps.
FULL_PRECISION = 64
_MAX_STEPS = 200


def _score_function(big, small, n) -> Callable[[np.ndarray], np.ndarray]:  # noqa: ANN001
    """Tango's score T(d0) for the tables with discordant cells big >= small, as a function.

    T(d0) = (b - c - n d0) / sqrt(n (2 q + d0 (1 - d0))), q the restricted maximum-likelihood
    estimate of the smaller discordant cell's probability under pA - pB = d0: the non-negative
    root of 2n q^2 + (-(b + c) + (2n - b + c) d0) q - c d0 (1 - d0), taken in the form without
    cancellation. With the larger cell as b, q is small and 2q + d0(1 - d0) does not cancel near
    d0 = -1 (at n = 2.6e7 the other form loses 1e-8 in a limit).
    """
    quad_a = 2.0 * n
    slope = 2.0 * n - big + small
    total = big + small
    gap = big - small

    def score(d0: np.ndarray) -> np.ndarray:
        quad_b = slope * d0 - total
        quad_c = -small * d0 * (1.0 - d0)
        root = np.sqrt(np.maximum(0.0, quad_b * quad_b - 4 * quad_a * quad_c))
        with np.errstate(divide="ignore", invalid="ignore"):
            q = np.where(quad_b <= 0, (root - quad_b) / (2 * quad_a), -2 * quad_c / (quad_b + root))
            variance = n * (2 * q + d0 * (1 - d0))
            numerator = gap - n * d0
            value = np.asarray(numerator / np.sqrt(variance), dtype=np.float64)
        bad = ~(variance > 0)
        if bad.any():  # only at d0 = +/-1 with an extreme table: infinite, away from the estimate
            numerator = np.broadcast_to(numerator, value.shape)[bad]
            value[bad] = np.where(numerator == 0, 0.0, np.copysign(np.inf, numerator))
        return value

    return score


def tango_score(b: int, c: int, n: int, d0: float) -> float:
    """Tango's score statistic T(d0) for H0: pA - pB = d0, with the restricted MLE variance.

    T decreases in d0 and T(0)^2 is McNemar's uncorrected chi-square. Shared by the Tango
    interval and the non-inferiority test (:mod:`calculator.noninferiority`), so both use one
    formula (see :func:`_score_function`).

    Examples
    --------
    >>> round(tango_score(15, 5, 100, 0.0) ** 2, 6)
    5.0
    """
    if b < c:  # swapping b and c mirrors T
        return -tango_score(c, b, n, -d0)
    score = _score_function(np.float64(b), np.float64(c), np.float64(n))
    return float(score(np.array([d0], dtype=np.float64))[0])


def tango_scores(b: np.ndarray, c: np.ndarray | float, n: float, d0: float) -> np.ndarray:
    """T(d0) of many tables of n cases with b >= c each, at one d0: the arithmetic of
    :func:`tango_score` elementwise, so each value is the one it gives for that table.

    Examples
    --------
    >>> scores = tango_scores(np.arange(3), 0.0, 100, 0.05)
    >>> [float(t) == tango_score(b, 0, 100, 0.05) for b, t in enumerate(scores)]
    [True, True, True]
    """
    big = np.asarray(b, dtype=np.float64)
    if np.any(big < np.asarray(c, dtype=np.float64)):
        raise CalculatorError("tango_scores takes tables with b >= c")
    score = _score_function(big, np.asarray(c, dtype=np.float64), np.float64(n))
    return score(np.asarray([d0], dtype=np.float64))


def _bisect(below, low: np.ndarray, high: np.ndarray, halvings: int) -> np.ndarray:  # noqa: ANN001
    """The point where `below` turns from True (at `low`) to False (at `high`), elementwise."""
    low, high = low.copy(), high.copy()
    for _ in range(halvings):
        middle = (low + high) / 2
        left = below(middle)
        low = np.where(left, middle, low)
        high = np.where(left, high, middle)
    return (low + high) / 2


def _false_position(excess, low: np.ndarray, high: np.ndarray) -> np.ndarray:  # noqa: ANN001
    """The root of the decreasing `excess` between `low` (excess > 0) and `high` (< 0),
    elementwise, to a few doubles: false position with the Illinois modification, bisection
    where the secant is not finite. Each step keeps the root bracketed."""
    low, high = low.copy(), high.copy()
    e_low, e_high = excess(low), excess(high)
    true_low, true_high = e_low.copy(), e_high.copy()
    side = np.zeros(low.shape, dtype=np.int8)
    open_ = high - low > 4 * np.spacing(np.abs(low)) + 1e-300
    for _ in range(_MAX_STEPS):
        if not open_.any():
            break
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            secant = low + e_low * (high - low) / (e_low - e_high)
        usable = np.isfinite(secant) & (secant > low) & (secant < high)
        x = np.where(usable, secant, 0.5 * (low + high))
        value = excess(x)
        right = value >= 0  # the root is at or above x
        moved = np.where(right, -1, 1).astype(np.int8)
        repeat = moved == side
        new_low, new_high = np.where(right, x, low), np.where(right, high, x)
        new_e_low = np.where(right, value, np.where(repeat, e_low / 2, e_low))
        new_e_high = np.where(right, np.where(repeat, e_high / 2, e_high), value)
        low, high = np.where(open_, new_low, low), np.where(open_, new_high, high)
        e_low, e_high = np.where(open_, new_e_low, e_low), np.where(open_, new_e_high, e_high)
        true_low = np.where(open_ & right, value, true_low)
        true_high = np.where(open_ & ~right, value, true_high)
        side = np.where(open_, moved, side)
        open_ &= (value != 0) & (high - low > 4 * np.spacing(np.abs(x)) + 1e-300)
    return np.where(np.abs(true_low) <= np.abs(true_high), low, high)


def tango_limits(a, b, c, d, z: float, *, halvings: int = FULL_PRECISION):  # noqa: ANN001, ANN201
    """Tango's score interval for arrays of tables: the d0 with |T(d0)| <= z, by bisection.

    The larger discordant cell plays b and the interval is mirrored back; tables that differ
    only by swapping b and c (with the same n) share one solution. `halvings` below
    :data:`FULL_PRECISION` trade digits for time (20 put each end within 2^-19 = 1.9e-6).
    """
    b, c = np.asarray(b, dtype=np.float64), np.asarray(c, dtype=np.float64)
    n = np.asarray(a, dtype=np.float64) + b + c + np.asarray(d, dtype=np.float64)
    swap = b < c
    keys = np.stack([np.where(swap, c, b), np.where(swap, b, c), n]).reshape(3, -1)
    (big, small, total), back = np.unique(keys, axis=1, return_inverse=True)
    back = back.reshape(-1)
    estimate = (big - small) / total
    score = _score_function(big, small, total)
    minus_one, one = np.full_like(estimate, -1.0), np.ones_like(estimate)
    # The score falls as d0 rises and is 0 at the estimate.
    if halvings >= FULL_PRECISION:
        low = _false_position(lambda d0: score(d0) - z, minus_one, estimate)
        high = _false_position(lambda d0: score(d0) + z, estimate, one)
    else:
        low = _bisect(lambda d0: score(d0) > z, minus_one, estimate, halvings)
        high = _bisect(lambda d0: score(d0) >= -z, estimate, one, halvings)
    low = np.where(score(minus_one) <= z, -1.0, low)
    high = np.where(score(one) >= -z, 1.0, high)
    low, high = low[back].reshape(swap.shape), high[back].reshape(swap.shape)
    return np.where(swap, -high, low), np.where(swap, -low, high)


def tango_covers(a, b, c, d, z: float, truth: float) -> np.ndarray:  # noqa: ANN001
    """Whether Tango's interval holds `truth`: exactly when |T(truth)| <= z (the interval is
    the set of such d0), which needs no root finding."""
    b, c = np.asarray(b, dtype=np.float64), np.asarray(c, dtype=np.float64)
    swap = b < c
    big, small = np.where(swap, c, b), np.where(swap, b, c)
    mirrored = np.where(swap, -truth, truth)
    value = _score_function(big, small, np.asarray(a) + b + c + np.asarray(d))(mirrored)
    return np.abs(value) <= z
