"""Confidence intervals for the paired pass-rate difference (b - c) / n.

Each method is one function of the four counts and the normal quantile z; `difference_interval`
validates the input, picks the method by name and clips the limits to [-1, 1].
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import NamedTuple

from scipy import special

from calculator._validation import check_choice, check_probability
from calculator.errors import CalculatorError
from calculator.fay_lumbard import exact_compatible_limits
from calculator.table import PairedTable

__all__ = [
    "CI_METHODS",
    "CI_METHOD_NAMES",
    "ConfidenceInterval",
    "DifferenceInterval",
    "difference_interval",
    "tango_score",
]


class ConfidenceInterval(NamedTuple):
    """Lower and upper limits; unpacks as ``low, high = ci``."""

    low: float
    high: float


@dataclass(frozen=True, slots=True, kw_only=True)
class DifferenceInterval:
    """The pass-rate difference A - B with a confidence interval.

    `estimate` is always the observed (b - c)/n, whatever adjustment the method makes.
    """

    estimate: float
    low: float
    high: float
    level: float
    method: str

    @property
    def interval(self) -> ConfidenceInterval:
        return ConfidenceInterval(self.low, self.high)

    @property
    def contains_estimate(self) -> bool:
        """False only for an adjusted method at a low level on a handful of cases (see Notes
        of :func:`difference_interval`)."""
        return self.low <= self.estimate <= self.high

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def _agresti_min(a: int, b: int, c: int, d: int, z: float) -> tuple[float, float]:
    """Wald on the table with 1/2 added to each cell (Agresti & Min 2005)."""
    n_adj = a + b + c + d + 2.0
    b_adj, c_adj = b + 0.5, c + 0.5
    centre = (b_adj - c_adj) / n_adj
    se = math.sqrt(max(0.0, (b_adj + c_adj) - (b_adj - c_adj) ** 2 / n_adj)) / n_adj
    return centre - z * se, centre + z * se


def _wald(a: int, b: int, c: int, d: int, z: float) -> tuple[float, float]:
    """(b - c)/n +/- z sqrt((b + c) - (b - c)^2 / n) / n; zero width when b + c = 0."""
    n = a + b + c + d
    estimate = (b - c) / n
    se = math.sqrt(max(0.0, (b + c) - (b - c) ** 2 / n)) / n
    return estimate - z * se, estimate + z * se


def _bonett_price(a: int, b: int, c: int, d: int, z: float) -> tuple[float, float]:
    """Laplace-adjusted Wald: p12 = (b+1)/(n+2), p21 = (c+1)/(n+2) (Bonett & Price 2012)."""
    n_adj = a + b + c + d + 2.0
    p12, p21 = (b + 1) / n_adj, (c + 1) / n_adj
    centre = p12 - p21
    se = math.sqrt(max(0.0, (p12 + p21 - centre**2) / n_adj))
    return centre - z * se, centre + z * se


def _wilson(successes: int, n: int, z: float) -> tuple[float, float]:
    proportion = successes / n
    z2 = z * z
    centre = proportion + z2 / (2 * n)
    spread = z * math.sqrt(proportion * (1 - proportion) / n + z2 / (4 * n * n))
    return (centre - spread) / (1 + z2 / n), (centre + spread) / (1 + z2 / n)


def _newcombe(a: int, b: int, c: int, d: int, z: float) -> tuple[float, float]:
    """Square-and-add of Wilson intervals for pA and pB, Newcombe (1998) method 10."""
    n = a + b + c + d
    pass_a, pass_b = (a + b) / n, (a + c) / n
    low_a, high_a = _wilson(a + b, n, z)
    low_b, high_b = _wilson(a + c, n, z)
    cross = a * d - b * c  # exact integer arithmetic
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    if margins == 0:
        phi = 0.0
    elif cross > n / 2:
        phi = (cross - n / 2) / math.sqrt(margins)
    elif cross >= 0:
        phi = 0.0
    else:
        phi = cross / math.sqrt(margins)
    gap_low_a, gap_high_a = pass_a - low_a, high_a - pass_a
    gap_low_b, gap_high_b = pass_b - low_b, high_b - pass_b
    delta = math.sqrt(max(0.0, gap_low_a**2 - 2 * phi * gap_low_a * gap_high_b + gap_high_b**2))
    epsilon = math.sqrt(max(0.0, gap_high_a**2 - 2 * phi * gap_high_a * gap_low_b + gap_low_b**2))
    difference = pass_a - pass_b
    return difference - delta, difference + epsilon


def tango_score(b: int, c: int, n: int, d0: float) -> float:
    """Tango's score statistic T(d0) for H0: pA - pB = d0, with the restricted MLE variance.

    T(d0) = (b - c - n d0) / sqrt(n (2 q + d0 (1 - d0))), where q is the maximum-likelihood
    estimate of the "only B passes" probability under pA - pB = d0 (Tango 1998). T decreases in
    d0 and T(0)^2 is McNemar's uncorrected chi-square. Shared by the Tango interval and the
    non-inferiority test (:mod:`calculator.noninferiority`), so both use one formula.

    Examples
    --------
    >>> round(tango_score(15, 5, 100, 0.0) ** 2, 6)
    5.0
    """
    if b < c:
        # With the larger discordant cell as b, q (the smaller cell's probability) is small and
        # 2q + d0(1 - d0) does not cancel near d0 = -1. Swapping b and c mirrors T.
        return -tango_score(c, b, n, -d0)
    quad_a = 2.0 * n
    quad_b = -b - c + (2.0 * n - b + c) * d0
    quad_c = -c * d0 * (1.0 - d0)
    root = math.sqrt(max(0.0, quad_b**2 - 4 * quad_a * quad_c))
    # The non-negative root of A q^2 + B q + C, in the form without cancellation.
    q = (root - quad_b) / (2 * quad_a) if quad_b <= 0 else -2 * quad_c / (quad_b + root)
    variance = n * (2 * q + d0 * (1 - d0))
    if variance <= 0:
        # Only at d0 = +/-1 with an extreme table: the score is infinite in the direction away
        # from the estimate.
        return math.copysign(math.inf, (b - c) - n * d0) if (b - c) != n * d0 else 0.0
    return ((b - c) - n * d0) / math.sqrt(variance)


def _tango(a: int, b: int, c: int, d: int, z: float) -> tuple[float, float]:
    """Score interval: the D0 with |T(D0)| <= z (Tango 1998), ends found by brentq."""
    # Imported here: scipy.optimize takes about 0.7 s to import, and only Tango needs it.
    from scipy.optimize import brentq

    if b < c:
        # Work with the larger discordant cell as b: then q, the smaller cell's probability,
        # is small, and 2q + d0(1 - d0) does not cancel near d0 = -1 (at n = 2.6e7 the direct
        # form loses 1e-8 in a limit). Swapping b and c mirrors the interval.
        low, high = _tango(a, c, b, d, z)
        return -high, -low
    n = a + b + c + d
    estimate = (b - c) / n

    def score(d0: float) -> float:
        return tango_score(b, c, n, d0)

    # T decreases in d0 and T(estimate) = 0; each end is where |T| reaches z, or the boundary.
    low = -1.0 if score(-1.0) <= z else brentq(lambda d0: score(d0) - z, -1.0, estimate, xtol=1e-15)
    high = 1.0 if score(1.0) >= -z else brentq(lambda d0: score(d0) + z, estimate, 1.0, xtol=1e-15)
    return low, high


#: The methods computed from z, by key.
_Z_METHODS: dict[str, Callable[[int, int, int, int, float], tuple[float, float]]] = {
    "agresti-min": _agresti_min,
    "wald": _wald,
    "bonett-price": _bonett_price,
    "newcombe": _newcombe,
    "tango": _tango,
}
#: Display name of each interval method, for reports and labels.
CI_METHOD_NAMES = {
    "agresti-min": "Agresti-Min",
    "wald": "Wald",
    "bonett-price": "Bonett-Price",
    "newcombe": "Newcombe",
    "tango": "Tango score",
    "exact-compatible": "Exact-compatible (Fay-Lumbard)",
}
CI_METHODS = tuple(CI_METHOD_NAMES)


def difference_interval(
    a: int, b: int, c: int, d: int, *, level: float = 0.95, method: str = "agresti-min"
) -> DifferenceInterval:
    """Confidence interval for the paired pass-rate difference A - B = (b - c)/n.

    Parameters
    ----------
    a, b, c, d : int
        The paired table (both pass, only A, only B, both fail); n = a + b + c + d must be > 0.
    level : float
        Confidence level, strictly between 0 and 1.
    method : {"agresti-min", "wald", "bonett-price", "newcombe", "tango", "exact-compatible"}
        Interval method.

    Returns
    -------
    DifferenceInterval
        The estimate (b - c)/n and limits clipped to [-1, 1].

    Raises
    ------
    TypeError, ValueError
        On an invalid count, an empty table, a level outside (0, 1) or an unknown method.

    Notes
    -----
    With z = Phi^-1(1 - (1 - level)/2):

    - agresti-min: add 1/2 to every cell, then Wald: (b* - c*)/n* +/- z sqrt((b* + c*) -
      (b* - c*)^2/n*)/n* with n* = n + 2.
    - wald: (b - c)/n +/- z sqrt((b + c) - (b - c)^2/n)/n; zero width at b + c = 0, so it is
      offered for teaching only.
    - bonett-price: p12 = (b + 1)/(n + 2), p21 = (c + 1)/(n + 2),
      (p12 - p21) +/- z sqrt((p12 + p21 - (p12 - p21)^2)/(n + 2)).
    - newcombe: square-and-add of the Wilson intervals of pA and pB with Newcombe's corrected
      phi (method 10).
    - tango: the set of D0 whose score statistic has |T(D0)| <= z, using the restricted maximum
      likelihood estimate of the discordant cell probability.
    - exact-compatible: Fay & Lumbard's (2021) melded interval (see
      :mod:`calculator.fay_lumbard`), which excludes 0 exactly when the exact McNemar test
      (doubling convention) gives p < 1 - level. It does not use z.

    Every method's limits are clipped to [-1, 1]. The adjusted methods (agresti-min,
    bonett-price) are centred on a shrunken estimate, so at a low level on very few cases their
    interval can miss the observed (b - c)/n: Agresti-Min at level 0.8 on 0, 0, 5, 0 gives
    about -0.999 to -0.429 around an estimate of -1. At levels of 0.9 and above no table with
    n <= 60 does this (checked exhaustively); `contains_estimate` reports it, and the report
    says so.

    References
    ----------
    .. [1] Agresti, A. & Min, Y. (2005). Simple improved confidence intervals for comparing
           matched proportions. Statistics in Medicine 24(5), 729-740.
    .. [2] Bonett, D. G. & Price, R. M. (2012). Adjusted Wald confidence interval for a
           difference of binomial proportions based on paired data. Journal of Educational and
           Behavioral Statistics 37(4), 479-488.
    .. [3] Newcombe, R. G. (1998). Improved confidence intervals for the difference between
           binomial proportions based on paired data. Statistics in Medicine 17(22), 2635-2650.
    .. [4] Tango, T. (1998). Equivalence test and confidence interval for the difference in
           proportions for the paired-sample design. Statistics in Medicine 17(8), 891-908.
    .. [5] Fagerland, M. W., Lydersen, S. & Laake, P. (2014). Recommended tests and confidence
           intervals for paired binomial proportions. Statistics in Medicine 33(16), 2850-2875.
    .. [6] Fay, M. P. & Lumbard, K. (2021). Confidence intervals for difference in proportions
           for matched pairs compatible with exact McNemar's or sign tests. Statistics in
           Medicine 40(5), 1147-1159.

    Examples
    --------
    >>> ci = difference_interval(60, 15, 5, 20)
    >>> round(ci.estimate, 3), round(ci.low, 3), round(ci.high, 3)
    (0.1, 0.012, 0.184)
    >>> low, high = difference_interval(60, 15, 5, 20, method="tango").interval
    """
    table = PairedTable(a, b, c, d)
    level = check_probability(level, "level")
    check_choice(method, "method", CI_METHODS)
    if table.n == 0:
        raise CalculatorError("The table is empty (a + b + c + d = 0): an interval needs a case.")
    if method == "exact-compatible":
        low, high = exact_compatible_limits(table.b, table.c, table.n, level)
    else:
        z = float(special.ndtri(0.5 + level / 2))
        low, high = _Z_METHODS[method](table.a, table.b, table.c, table.d, z)
    return DifferenceInterval(
        estimate=table.difference,
        low=min(1.0, max(-1.0, low)),
        high=min(1.0, max(-1.0, high)),
        level=level,
        method=method,
    )
