"""Exact power of the two-sided McNemar test, by enumeration over the discordant count.

- :func:`rejection_limits`: for each discordant count, the largest minority count the test rejects.
- :func:`conditional_power`: P(reject | D) for one effect.
- :func:`exact_power`, :func:`power_curve`: power at one n, or at many.
- :class:`PowerModel`: the conditional power of one plan, tabulated and shared by the searches.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from calculator._lazy_scipy import stats
from calculator._validation import check_count, check_probability, message
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.planning.inputs import MAX_N, check_cells, check_test
from calculator.rejection import rejection_limits as _limits_of

__all__ = [
    "MAX_TABULATED",
    "PowerModel",
    "clear_caches",
    "conditional_power",
    "exact_power",
    "expected",
    "limits_at",
    "limits_between",
    "power_curve",
    "rejection_limits",
    "window",
]

# Elements per block when power is summed for many n at once (bounds memory).
_BLOCK_ELEMENTS = 1 << 21
# Windows up to this wide get their weights from the ratio of successive pmf values; wider ones
# from the pmf itself, as the rounding of the ratios would add up past about 1e-12 (the pmf at
# every point costs about three times as much).
_RATIO_WIDTH = 4096
# Limits for discordant counts below this come from one cached table.
_SMALL_TABLE = 1 << 16
#: Most discordant counts whose conditional power one call tabulates or sums (limits and power
#: for each cost a few incomplete beta functions). It bounds every planning call to seconds and
#: well under 1 GB; a request that would need more is refused with the reason.
MAX_TABULATED = 1 << 18


# --- the test's rejection region ---------------------------------------------------------------


def rejection_limits(
    max_discordant: int, *, alpha: float = 0.05, test: str = "exact"
) -> np.ndarray:
    """For each discordant count D = 0..max_discordant, the largest k with min(b, c) <= k rejected.

    Parameters
    ----------
    max_discordant : int
        Largest discordant count D in the table, at most :data:`MAX_N`.
    alpha : float
        Significance level, in (0, 1).
    test : {"exact", "chi2"}
        The exact test (doubling convention) or the uncorrected chi-square test.

    Returns
    -------
    numpy.ndarray of int64
        ``limits[D]``; -1 where no split of D pairs is significant. Read-only.

    Notes
    -----
    Exact test: the largest k with 2 P[Bin(D, 1/2) <= k] <= alpha. Chi-square test: the largest
    k with (D - 2k)^2 / D >= chi2_{1, 1-alpha}. Both regions are symmetric, b <= k or b >= D - k,
    and never overlap because k < D/2. As
    P[Bin(D + 1) <= k] <= P[Bin(D) <= k] <= P[Bin(D + 1) <= k + 1], the limit never falls and
    rises by at most one as D grows.

    Examples
    --------
    >>> rejection_limits(9).tolist()
    [-1, -1, -1, -1, -1, -1, 0, 0, 0, 1]
    >>> rejection_limits(9, test="chi2").tolist()
    [-1, -1, -1, -1, 0, 0, 0, 0, 1, 1]
    """
    max_discordant = check_count(max_discordant, "max_discordant", maximum=MAX_N)
    alpha = check_probability(alpha, "alpha")
    test = check_test(test)
    # Tables are cached per power-of-two size, so one alpha serves many plans.
    size = 1 << max(6, max_discordant.bit_length())
    return _limits_table(size, alpha, test)[: max_discordant + 1]


def limits_between(low: int, high: int, alpha: float, test: str) -> np.ndarray:
    """k(D) for D = low..high, as :func:`rejection_limits` gives them; O(high - low).

    Small ranges come from the cached table; others are computed for the range alone, so that
    the limits near a large D cost nothing for the D far below it.
    """
    if high < _SMALL_TABLE:
        return rejection_limits(high, alpha=alpha, test=test)[low:]
    return _limits_of(np.arange(low, high + 1, dtype=np.int64), test, alpha)


def limits_at(discordant: np.ndarray, alpha: float, test: str) -> np.ndarray:
    """k(D) for each D in `discordant` (non-negative integers, any order), cost O(its size)."""
    discordant = np.asarray(discordant, dtype=np.int64)
    if discordant.size == 0:
        return np.zeros(0, dtype=np.int64)
    if int(discordant.max()) < _SMALL_TABLE:
        return rejection_limits(int(discordant.max()), alpha=alpha, test=test)[discordant]
    return _limits_of(discordant, test, alpha)


@functools.lru_cache(maxsize=4)
def _limits_table(size: int, alpha: float, test: str) -> np.ndarray:
    limit = _limits_of(np.arange(size, dtype=np.int64), test, alpha)
    limit.flags.writeable = False
    return limit


@functools.lru_cache(maxsize=4)
def _rate_table(size: int, theta: float, alpha: float, test: str) -> np.ndarray:
    """Conditional power for D = 0..size-1, cached: a plan and its power curve share it."""
    limits = rejection_limits(size - 1, alpha=alpha, test=test)
    table = conditional_power(np.arange(size), theta, limits)
    table.flags.writeable = False
    return table


def conditional_power(discordant: np.ndarray, theta: float, limits: np.ndarray) -> np.ndarray:
    """P(reject | D) when b ~ Bin(D, theta): both tails, b <= k(D) or b >= D - k(D).

    `limits` holds k(D) for each D in `discordant`, in the same order.
    """
    # b >= D - k is D - b <= k with D - b ~ Bin(D, 1 - theta): both tails are lower tails, which
    # the incomplete beta function gives faster than an upper one. binom.cdf(-1) = 0, so
    # k = -1 gives 0 with no special case.
    return stats.binom.cdf(limits, discordant, theta) + stats.binom.cdf(
        limits, discordant, 1 - theta
    )


def clear_caches() -> None:
    """Forget the cached tables of limits and conditional power (a benchmark's "cold" run)."""
    _limits_table.cache_clear()
    _rate_table.cache_clear()


# --- power -------------------------------------------------------------------------------------


def exact_power(
    n: int, p10: float, p01: float, *, alpha: float = 0.05, test: str = "exact"
) -> float:
    """Power of the two-sided McNemar test for n pairs, by exact enumeration.

    Parameters
    ----------
    n : int
        Number of paired cases.
    p10, p01 : float
        Probabilities that only A passes and that only B passes; p10 + p01 in (0, 1].
    alpha : float
        Significance level, in (0, 1).
    test : {"exact", "chi2"}
        Which test's power: the exact test (doubling convention) or the uncorrected chi-square.

    Returns
    -------
    float
        P(the test rejects), counting rejections in either direction.

    Raises
    ------
    TypeError, ValueError
        For a non-integer or negative `n`, an `n` above :data:`MAX_N`, a probability outside
        [0, 1], p10 + p01 > 1 or = 0, `alpha` outside (0, 1), or an unknown `test`.

    Notes
    -----
    With psi = p10 + p01 and theta = p10/psi, the discordant count is D ~ Bin(n, psi) and, given
    D, b ~ Bin(D, theta). With k(D) from :func:`rejection_limits`,

        power = sum_{D=0}^{n} P[D] (P[b <= k(D) | D] + P[b >= D - k(D) | D]),

    one vectorised pass over the D that carry all but 1e-15 of Bin(n, psi)'s probability (all of
    them up to n = 100 or so; about 24 sqrt(n psi (1 - psi)) + 100 of them beyond), so the cost
    is O(sqrt(n)). At p10 = p01 this is the test's actual size, which for the exact test is at
    most alpha and for the chi-square test can exceed it. `n` is at most :data:`MAX_N`.

    References
    ----------
    .. [1] McNemar, Q. (1947). Note on the sampling error of the difference between correlated
           proportions or percentages. Psychometrika 12(2), 153-157.
    .. [2] Connor, R. J. (1987). Sample size for testing differences in proportions for the
           paired-sample design. Biometrics 43(1), 207-211.

    Examples
    --------
    Six pairs can reject only when all six disagree the same way, so the power is p10^6 + p01^6:

    >>> round(exact_power(6, 0.3, 0.5), 6)
    0.016354
    >>> round(exact_power(23, 0.05, 0.45), 4)
    0.7766
    """
    n = check_count(n, "n", maximum=MAX_N)
    p10, p01 = check_cells(p10, p01)
    alpha = check_probability(alpha, "alpha")
    test = check_test(test)
    psi = p10 + p01
    low, high = (int(end[0]) for end in window(np.array([n]), psi))
    discordant = np.arange(low, high + 1)
    weights = stats.binom.pmf(discordant, n, psi)
    limits = limits_between(low, high, alpha, test)
    return _clip_probability(float(weights @ conditional_power(discordant, p10 / psi, limits)))


def _clip_probability(value: float) -> float:
    # Sums of rounded terms can overshoot [0, 1] by an ulp or two.
    return min(1.0, max(0.0, value))


def window(n: np.ndarray, psi: float) -> tuple[np.ndarray, np.ndarray]:
    """Discordant counts outside [low, high] have total probability below 1e-15 for Bin(n, psi).

    Bernstein's inequality, P(|D - n psi| >= t) <= 2 exp(-t^2 / (2 (s^2 + t/3))), with
    s^2 = n psi (1 - psi) and t = 12 s + 50, gives an exponent of at least 36.
    """
    spread = 12 * np.sqrt(n * psi * (1 - psi)) + 50
    low = np.maximum(0, np.floor(n * psi - spread)).astype(np.int64)
    high = np.minimum(n, np.ceil(n * psi + spread)).astype(np.int64)
    return low, high


def expected(
    n_values: np.ndarray, psi: float, table: np.ndarray, beyond: float, start: int = 0
) -> np.ndarray:
    """E[f(D)] for D ~ Bin(n, psi), each n; f(D) = table[D - start], or `beyond` past its end.

    Only the window of :func:`window` is summed, so the cost per n is O(sqrt(n)); every window
    must begin at or after `start`. In windows up to 4,096 counts wide the weights start from
    the pmf at the window's low end and follow the ratio pmf(D + 1)/pmf(D) =
    (n - D)/(D + 1) psi/(1 - psi) in the log domain (absolute error below about 1e-12),
    several times faster than the pmf at every point; wider windows take the pmf at every point.
    """
    n_values = np.asarray(n_values, dtype=np.int64)
    low, high = window(n_values, psi)
    width = int((high - low).max()) + 1 if n_values.size else 1
    rows = max(1, _BLOCK_ELEMENTS // width)
    offsets = np.arange(width)
    result = np.empty(n_values.shape, dtype=np.float64)
    end = start + table.size
    for first in range(0, n_values.size, rows):
        block = slice(first, first + rows)
        n_block = n_values[block, None]
        # Past a row's window the weight is 0; clipping keeps the indices valid there.
        discordant = np.minimum(low[block, None] + offsets, high[block, None])
        inside = offsets <= (high - low)[block, None]
        if psi == 1:  # D = n for certain
            weights = ((discordant == n_block) & inside).astype(np.float64)
        elif width > _RATIO_WIDTH:  # the ratios' rounding would add up: the pmf itself
            weights = np.where(inside, stats.binom.pmf(discordant, n_block, psi), 0.0)
        else:
            steps = np.log((n_block - discordant + 1) / np.maximum(discordant, 1))
            steps += math.log(psi) - math.log1p(-psi)
            steps[:, 0] = _log_pmf(low[block], n_values[block], psi)
            steps[~inside] = -np.inf  # the window is a prefix of each row: weight 0 after it
            weights = np.exp(np.cumsum(steps, axis=1))
        values = table[np.minimum(discordant, end - 1) - start]
        if int(high[block].max()) >= end:
            values = np.where(discordant < end, values, beyond)
        result[block] = np.einsum("ij,ij->i", weights, values)
    return np.clip(result, 0.0, 1.0)


def _log_pmf(k: np.ndarray, n: np.ndarray, psi: float) -> np.ndarray:
    """log P[Bin(n, psi) = k], from the pmf itself unless it underflows.

    scipy's logpmf goes through log-gamma functions of size about n log n, whose rounding costs
    about 1e-9 of relative accuracy at n = 10^6; the pmf is accurate to a few ulps.
    """
    pmf = stats.binom.pmf(k, n, psi)
    with np.errstate(divide="ignore"):
        return np.where(pmf > 1e-300, np.log(pmf), stats.binom.logpmf(k, n, psi))


class PowerModel:
    """Conditional power r(D) for one plan, tabulated over D and extended on demand."""

    def __init__(self, p10: float, p01: float, alpha: float, test: str) -> None:
        self.psi = p10 + p01
        self.theta = p10 / self.psi
        self.alpha = alpha
        self.test = test
        self.table = np.zeros(0)

    def ensure(self, max_discordant: int) -> np.ndarray:
        """r(D) for D = 0..max_discordant at least (cached per power-of-two size)."""
        if self.table.size <= max_discordant:
            size = 1 << max(6, max_discordant.bit_length())
            self.table = _rate_table(size, self.theta, self.alpha, self.test)
        return self.table

    def power(self, n_values: np.ndarray) -> np.ndarray:
        """Power at each n (any order).

        A table already built serves when it reaches far enough. Otherwise r is computed at the
        discordant counts inside some window, unless those cover most of 0..max and that fits
        in :data:`MAX_TABULATED`: then one cached table from D = 0 is built and shared. For large
        n, or with disagreement near 1 (windows about 100 counts wide), the windows are a small
        part of 0..n. More than :data:`MAX_TABULATED` counts inside windows are refused
        (ValueError), as their cost would run to many seconds.
        """
        n_values = np.asarray(n_values, dtype=np.int64)
        if n_values.size == 0:
            return np.zeros(0)
        lows, highs = window(n_values, self.psi)
        top = int(highs.max())
        if top < self.table.size:
            return expected(n_values, self.psi, self.table, beyond=math.nan)
        base = int(lows.min())
        # Mark every D inside some window: +1 where a window opens, -1 past where it closes.
        marks = np.zeros(top - base + 2, dtype=np.int64)
        np.add.at(marks, lows - base, 1)
        np.add.at(marks, highs - base + 1, -1)
        covered = np.flatnonzero(np.cumsum(marks[:-1]) > 0) + base
        if top < MAX_TABULATED and 2 * covered.size > top:
            return expected(n_values, self.psi, self.ensure(top), beyond=math.nan)
        if covered.size > MAX_TABULATED:
            raise CalculatorError(
                f"these sizes need the test at {covered.size:,} discordant counts, more than "
                f"the {MAX_TABULATED:,} one call computes: ask for fewer or smaller sizes."
            )
        limits = limits_at(covered, self.alpha, self.test)
        table = np.full(top - base + 1, math.nan)
        table[covered - base] = conditional_power(covered, self.theta, limits)
        return expected(n_values, self.psi, table, beyond=math.nan, start=base)

    def power_run(self, first: int, last: int) -> np.ndarray:
        """Power at n = first, first + 1, ..., last, every n of the run.

        When the windows overlap a lot, the pmf is stepped from one n to the next,
        pmf_{n+1}(D) = (1 - psi) pmf_n(D) + psi pmf_n(D - 1), O(span) per n with no special
        functions; the array spans every window in the run, so the mass that leaves it is below
        1e-15 per step. When the run is long beside one window (disagreement near 1, where a
        window is about 100 counts wide), each n is summed over its own window instead, so the
        cost stays O(run x window) rather than O(run^2).
        """
        sizes = np.arange(first, last + 1, dtype=np.int64)
        if sizes.size == 0:
            return np.zeros(0)
        lows, highs = window(sizes, self.psi)
        low, high = int(lows.min()), int(highs.max())
        widest = int((highs - lows).max()) + 1
        if high - low + 1 > 4 * widest:
            return self.power(sizes)
        rates = self.ensure(high)[low : high + 1]
        pmf = stats.binom.pmf(np.arange(low, high + 1), first, self.psi)
        powers = np.empty(sizes.size)
        powers[0] = pmf @ rates
        for index in range(1, sizes.size):
            stepped = (1 - self.psi) * pmf
            stepped[1:] += self.psi * pmf[:-1]
            pmf = stepped
            powers[index] = pmf @ rates
        return np.clip(powers, 0.0, 1.0)


def power_curve(
    p10: float, p01: float, n_values: object, *, alpha: float = 0.05, test: str = "exact"
) -> np.ndarray:
    """Exact power (as :func:`exact_power`) for many sample sizes at once.

    Each n sums only the discordant counts holding all but 1e-15 of Bin(n, psi)'s probability, so
    a value differs from :func:`exact_power` by about 1e-12 at most and costs O(sqrt(n)).

    Parameters
    ----------
    p10, p01, alpha, test
        As in :func:`exact_power`.
    n_values : array_like of int
        Sample sizes, each an integer from 0 to :data:`MAX_N`.

    Returns
    -------
    numpy.ndarray of float
        Power at each n, in the order given.

    Examples
    --------
    >>> power_curve(0.05, 0.45, [6, 23]).round(4).tolist()
    [0.0083, 0.7766]
    """
    p10, p01 = check_cells(p10, p01)
    alpha = check_probability(alpha, "alpha")
    test = check_test(test)
    n_array = np.asarray(n_values)
    if n_array.ndim != 1 or not np.issubdtype(n_array.dtype, np.integer):
        raise CalculatorTypeError(
            message("n_values", "a one-dimensional list of integers", n_values)
        )
    if n_array.size and not 0 <= int(n_array.min()) <= int(n_array.max()) <= MAX_N:
        wrong = int(n_array.min()) if int(n_array.min()) < 0 else int(n_array.max())
        raise CalculatorError(message("n_values", f"integers from 0 to {MAX_N:,}", wrong))
    return PowerModel(p10, p01, alpha, test).power(n_array)
