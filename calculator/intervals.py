"""Confidence intervals for the paired pass-rate difference (b - c) / n.

Each method is one function of arrays of the four counts and the normal quantile z
(:data:`VECTORISED`), written once: `difference_interval` validates one table, evaluates the
method at it and clips the limits to [-1, 1]; the teaching section's coverage sums and the
comparison of many systems call the same functions on thousands of tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import NamedTuple

import numpy as np
from scipy import special

from calculator._validation import check_choice, check_probability
from calculator.errors import CalculatorError
from calculator.fay_lumbard import exact_compatible_arrays, exact_compatible_limits
from calculator.table import PairedTable
from calculator.tails import wilson_limits
from calculator.tango import tango_covers, tango_limits, tango_score

__all__ = [
    "COVERS",
    "CI_METHODS",
    "CI_METHOD_NAMES",
    "VECTORISED",
    "ConfidenceInterval",
    "DifferenceInterval",
    "difference_interval",
    "difference_limits",
    "tango_score",
    "uses_concordant_cells",
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


Limits = tuple[np.ndarray, np.ndarray]


def _agresti_min(a, b, c, d, z: float) -> Limits:  # noqa: ANN001
    """Wald on the table with 1/2 added to each cell (Agresti & Min 2005)."""
    return _wald(a + 0.5, b + 0.5, c + 0.5, d + 0.5, z)


def _wald(a, b, c, d, z: float) -> Limits:  # noqa: ANN001
    """(b - c)/n +/- z sqrt((b + c) - (b - c)^2 / n) / n; zero width when b + c = 0."""
    n = a + b + c + d
    estimate = (b - c) / n
    se = np.sqrt(np.maximum(0.0, (b + c) - (b - c) ** 2 / n)) / n
    return estimate - z * se, estimate + z * se


def _bonett_price(a, b, c, d, z: float) -> Limits:  # noqa: ANN001
    """Laplace-adjusted Wald: p12 = (b+1)/(n+2), p21 = (c+1)/(n+2) (Bonett & Price 2012)."""
    n_adj = a + b + c + d + 2.0
    p12, p21 = (b + 1) / n_adj, (c + 1) / n_adj
    centre = p12 - p21
    se = np.sqrt(np.maximum(0.0, (p12 + p21 - centre**2) / n_adj))
    return centre - z * se, centre + z * se


def _exact_products(a, b, c, d) -> tuple[np.ndarray, np.ndarray]:  # noqa: ANN001
    """a d - b c and (a + b)(c + d)(a + c)(b + d) in exact integer arithmetic, then as floats:
    in int64 while the products fit, else in Python integers."""
    cells = [np.asarray(v, dtype=np.float64) for v in (a, b, c, d)]
    if float(sum(np.max(v, initial=0.0) for v in cells)) < 40_000:  # n^4 < 2.6e18 < 2^63
        a, b, c, d = (v.astype(np.int64) for v in cells)
        cross, margins = a * d - b * c, (a + b) * (c + d) * (a + c) * (b + d)
        return cross.astype(np.float64), margins.astype(np.float64)
    a, b, c, d = (np.array([int(x) for x in v.ravel()], dtype=object) for v in cells)
    cross, margins = a * d - b * c, (a + b) * (c + d) * (a + c) * (b + d)
    shape = cells[0].shape
    return (
        np.array([float(x) for x in cross]).reshape(shape),
        np.array([float(x) for x in margins]).reshape(shape),
    )


def _newcombe(a, b, c, d, z: float) -> Limits:  # noqa: ANN001
    """Square-and-add of Wilson intervals for pA and pB, Newcombe (1998) method 10."""
    n = a + b + c + d
    pass_a, pass_b = (a + b) / n, (a + c) / n
    low_a, high_a = wilson_limits(a + b, n, z)
    low_b, high_b = wilson_limits(a + c, n, z)
    cross, margins = _exact_products(a, b, c, d)  # exact, as the sign of cross - n/2 decides
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


def _exact_compatible(a, b, c, d, z: float) -> Limits:  # noqa: ANN001
    """Fay & Lumbard's interval at the level whose normal quantile is z (see
    :func:`calculator.fay_lumbard.exact_compatible_limits`)."""
    level = float(special.ndtr(z) - special.ndtr(-z))
    return exact_compatible_arrays(b, c, np.asarray(a) + b + c + d, level)


#: Every interval method over arrays, by key: limits(a, b, c, d, z) with float arrays of
#: counts and the normal quantile z = Phi^-1(1 - (1 - level)/2) gives the arrays of lower and
#: upper limits before clipping to [-1, 1]. :func:`difference_interval` is each at one table.
VECTORISED: dict[str, Callable[..., Limits]] = {
    "agresti-min": _agresti_min,
    "wald": _wald,
    "bonett-price": _bonett_price,
    "newcombe": _newcombe,
    "tango": tango_limits,
    "exact-compatible": _exact_compatible,
}
#: Coverage decided without the limits, for methods where that is exact and cheaper.
COVERS: dict[str, Callable[..., np.ndarray]] = {"tango": tango_covers}
# Methods known to depend on the table only through n, b and c (Fay & Lumbard's interval
# combines m out of n with b out of m).
_DISCORDANT_ONLY = frozenset({"agresti-min", "wald", "bonett-price", "tango", "exact-compatible"})
#: Methods whose limits need a root-finder over a numerical integral for each table (tens of
#: milliseconds a table); the others cost microseconds a table.
COSTLY = frozenset({"exact-compatible"})


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


def difference_limits(a, b, c, d, *, level: float, method: str) -> Limits:  # noqa: ANN001
    """The limits of `method` for arrays of tables (float arrays of counts), clipped to [-1, 1].

    The array form of :func:`difference_interval`, which is this at one table; the caller has
    validated the tables (n > 0), the level and the method.

    Examples
    --------
    >>> low, high = difference_limits(np.array([60.0, 70.0]), np.array([15.0, 4.0]),
    ...     np.array([5.0, 12.0]), np.array([20.0, 14.0]), level=0.95, method="agresti-min")
    >>> np.round(low, 3).tolist(), np.round(high, 3).tolist()
    ([0.012, -0.156], [0.184, -0.001])
    """
    low, high = _unclipped(a, b, c, d, level, method)
    return np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0)


def _unclipped(a, b, c, d, level: float, method: str) -> Limits:  # noqa: ANN001
    if method == "exact-compatible":  # the level itself, not through z and back
        return exact_compatible_arrays(b, c, a + b + c + d, level)
    return VECTORISED[method](a, b, c, d, float(special.ndtri(0.5 + level / 2)))


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
    # The array form at one table, as numpy scalars (cheaper than one-element arrays).
    if method == "exact-compatible":  # cached: tables differing only in a and d share it
        low, high = exact_compatible_limits(table.b, table.c, table.n, level)
    else:
        cells = (np.float64(v) for v in (table.a, table.b, table.c, table.d))
        low, high = (float(v) for v in _unclipped(*cells, level, method))
    return DifferenceInterval(
        estimate=table.difference,
        low=min(1.0, max(-1.0, low)),
        high=min(1.0, max(-1.0, high)),
        level=level,
        method=method,
    )
