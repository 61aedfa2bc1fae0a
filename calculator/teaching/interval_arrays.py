"""The difference intervals of :mod:`calculator.intervals`, evaluated for many tables at once.

Each function takes arrays a, b, c, d (float) and the normal quantile z and returns the arrays of
lower and upper limits before clipping to [-1, 1]. They follow the formulas in the Notes of
:func:`calculator.difference_interval`; the tests check every one against it table by table.
Operating characteristics need the limits of tens of thousands of tables, which the scalar
functions (and Tango's root finder) would take seconds to give.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["COVERS", "VECTORISED", "uses_concordant_cells"]

Limits = tuple[np.ndarray, np.ndarray]
# Bisection halves [-1, 1] this many times: Tango's limits are then within 2^-19 (1.9e-6) of
# the root, enough for a mean width shown to three decimals; its coverage comes from the score
# itself (see COVERS), exactly.
_BISECTIONS = 20
# Methods known to depend on the table only through n, b and c (Fay & Lumbard's interval
# combines m out of n with b out of m).
_DISCORDANT_ONLY = frozenset({"agresti-min", "wald", "bonett-price", "tango", "exact-compatible"})


def uses_concordant_cells(method: str) -> bool:
    """Whether the method's limits depend on a and d separately, not only on n = a + b + c + d.

    Newcombe's does (its Wilson intervals use the two pass rates and its correlation uses
    a d - b c). A method not known to depend only on n, b and c is assumed to, so that nothing
    is left out of its sum.

    Examples
    --------
    >>> uses_concordant_cells("newcombe"), uses_concordant_cells("tango")
    (True, False)
    """
    return method not in _DISCORDANT_ONLY


def _wald(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, z: float) -> Limits:
    n = a + b + c + d
    estimate = (b - c) / n
    se = np.sqrt(np.maximum(0.0, (b + c) - (b - c) ** 2 / n)) / n
    return estimate - z * se, estimate + z * se


def _agresti_min(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, z: float) -> Limits:
    return _wald(a + 0.5, b + 0.5, c + 0.5, d + 0.5, z)


def _bonett_price(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, z: float) -> Limits:
    n_adj = a + b + c + d + 2.0
    p12, p21 = (b + 1) / n_adj, (c + 1) / n_adj
    centre = p12 - p21
    se = np.sqrt(np.maximum(0.0, (p12 + p21 - centre**2) / n_adj))
    return centre - z * se, centre + z * se


def _wilson(successes: np.ndarray, n: np.ndarray, z: float) -> Limits:
    proportion = successes / n
    z2 = z * z
    centre = proportion + z2 / (2 * n)
    spread = z * np.sqrt(proportion * (1 - proportion) / n + z2 / (4 * n * n))
    return (centre - spread) / (1 + z2 / n), (centre + spread) / (1 + z2 / n)


def _newcombe(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, z: float) -> Limits:
    n = a + b + c + d
    pass_a, pass_b = (a + b) / n, (a + c) / n
    low_a, high_a = _wilson(a + b, n, z)
    low_b, high_b = _wilson(a + c, n, z)
    cross = a * d - b * c
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    root = np.sqrt(np.where(margins > 0, margins, 1.0))
    phi = np.where(cross > n / 2, (cross - n / 2) / root, np.where(cross >= 0, 0.0, cross / root))
    phi = np.where(margins == 0, 0.0, phi)
    gap_low_a, gap_high_a = pass_a - low_a, high_a - pass_a
    gap_low_b, gap_high_b = pass_b - low_b, high_b - pass_b
    delta = np.sqrt(
        np.maximum(0.0, gap_low_a**2 - 2 * phi * gap_low_a * gap_high_b + gap_high_b**2)
    )
    epsilon = np.sqrt(
        np.maximum(0.0, gap_high_a**2 - 2 * phi * gap_high_a * gap_low_b + gap_low_b**2)
    )
    difference = pass_a - pass_b
    return difference - delta, difference + epsilon


def _tango_score(big: np.ndarray, small: np.ndarray, n: np.ndarray):
    """Tango's score T(d0) for the tables with discordant cells big >= small, as a function."""
    quad_a = 2.0 * n
    slope = 2.0 * n - big + small
    total = big + small
    gap = big - small

    def score(d0: np.ndarray) -> np.ndarray:
        quad_b = slope * d0 - total
        quad_c = -small * d0 * (1.0 - d0)
        root = np.sqrt(np.maximum(0.0, quad_b * quad_b - 4 * quad_a * quad_c))
        with np.errstate(divide="ignore", invalid="ignore"):
            # The non-negative root of A q^2 + B q + C, in the form without cancellation.
            q = np.where(quad_b <= 0, (root - quad_b) / (2 * quad_a), -2 * quad_c / (quad_b + root))
            variance = n * (2 * q + d0 * (1 - d0))
            numerator = gap - n * d0
            value = numerator / np.sqrt(variance)
        bad = ~(variance > 0)
        if bad.any():  # only at d0 = +/-1 with an extreme table: infinite, away from the estimate
            value[bad] = np.where(numerator[bad] == 0, 0.0, np.copysign(np.inf, numerator[bad]))
        return value

    return score


def _tango(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, z: float) -> Limits:
    """Tango's score interval: both ends by bisection on the score, all tables at once.

    As in the scalar version, the larger discordant cell plays b (then the restricted estimate
    q is the small cell's probability and does not cancel) and the interval is mirrored back.
    Tables that differ only by swapping b and c (and n) share one solution.
    """
    swap = b < c
    n = a + b + c + d
    keys = np.stack([np.where(swap, c, b), np.where(swap, b, c), n])
    (big, small, total), back = np.unique(keys, axis=1, return_inverse=True)
    back = back.reshape(-1)
    estimate = (big - small) / total
    score = _tango_score(big, small, total)
    # The score falls as d0 rises and is 0 at the estimate.
    low = _bisect(lambda d0: score(d0) > z, np.full_like(estimate, -1.0), estimate)
    low = np.where(score(np.full_like(estimate, -1.0)) <= z, -1.0, low)
    high = _bisect(lambda d0: score(d0) >= -z, estimate, np.ones_like(estimate))
    high = np.where(score(np.ones_like(estimate)) >= -z, 1.0, high)
    low, high = low[back], high[back]
    return np.where(swap, -high, low), np.where(swap, -low, high)


def _bisect(below: Callable[[np.ndarray], np.ndarray], low: np.ndarray, high: np.ndarray):
    """The point where `below` turns from True (at `low`) to False (at `high`), elementwise."""
    low, high = low.copy(), high.copy()
    for _ in range(_BISECTIONS):
        middle = (low + high) / 2
        left = below(middle)
        low = np.where(left, middle, low)
        high = np.where(left, high, middle)
    return (low + high) / 2


def _tango_covers(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, z: float, truth: float
) -> np.ndarray:
    """Whether Tango's interval holds `truth`: exactly when |T(truth)| <= z (the interval is
    the set of such d0), which needs no root finding."""
    swap = b < c
    big, small = np.where(swap, c, b), np.where(swap, b, c)
    mirrored = np.where(swap, -truth, truth)
    value = _tango_score(big, small, a + b + c + d)(mirrored)
    return np.abs(value) <= z


#: Array forms of the interval methods, by the keys of :data:`calculator.CI_METHODS`.
VECTORISED: dict[str, Callable[..., Limits]] = {
    "agresti-min": _agresti_min,
    "wald": _wald,
    "bonett-price": _bonett_price,
    "newcombe": _newcombe,
    "tango": _tango,
}
#: Coverage decided without the limits, for methods where that is exact and cheaper.
COVERS: dict[str, Callable[..., np.ndarray]] = {"tango": _tango_covers}
