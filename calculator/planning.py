"""Planning a paired comparison: power, sample size, and what peeking does to the error rate.

Contents, in reading order:

- :func:`cells_from_rates`: the plan's inputs in everyday terms, turned into p10 and p01.
- :func:`rejection_limits`: for each discordant count, the largest minority count the test rejects.
- :func:`exact_power`, :func:`power_curve`: power by exact enumeration over the discordant count.
- :func:`connor_n`: Connor's (1987) closed-form sample size, for comparison.
- :func:`minimum_detectable_difference`: the smallest difference n pairs detect with the power.
- :func:`plan`: all of it at once, as a :class:`PowerPlan` (required n or power at a given n).
- :func:`simulate_optional_stopping`: the false-positive rate when someone stops at the first
  significant look.

Cell probabilities: p10 is the share of cases only A passes, p01 the share only B passes; the share
of disagreement is psi = p10 + p01 and the pass-rate difference A - B is delta = p10 - p01.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from calculator._validation import (
    check_bounded_count,
    check_choice,
    check_count,
    check_probability,
)

__all__ = [
    "PLAN_TESTS",
    "DEFAULT_MAX_N",
    "OptionalStopping",
    "PowerCurve",
    "PowerPlan",
    "cells_from_rates",
    "connor_n",
    "exact_power",
    "minimum_detectable_difference",
    "plan",
    "power_curve",
    "rejection_limits",
    "simulate_optional_stopping",
]

#: "exact": the two-sided exact McNemar test (doubling convention); "chi2": the uncorrected
#: chi-square test.
PLAN_TESTS = ("exact", "chi2")
#: Plans needing more pairs than this are refused rather than searched.
DEFAULT_MAX_N = 10_000_000
# A p-value within this relative distance of alpha counts as reaching it, so that a dyadic
# alpha such as 1/16, which some exact p-values equal, is not lost to rounding.
_TIE_TOLERANCE = 1e-9
# The power curve draws every n up to this many; past it, the saw-tooth is too fine to see and
# _CURVE_SAMPLES evenly spaced sizes draw the curve.
_CURVE_POINTS = 600
_CURVE_SAMPLES = 240
# Elements per block when power is summed for many n at once (bounds memory).
_BLOCK_ELEMENTS = 1 << 21
_MAX_LOOKS = 1_000
_MAX_EXPERIMENTS = 1_000_000


# --- inputs ------------------------------------------------------------------------------------


def cells_from_rates(
    *, pass_rate_a: float, difference: float, disagreement: float
) -> tuple[float, float]:
    """Turn a pass rate, a difference and a share of disagreement into (p10, p01).

    Parameters
    ----------
    pass_rate_a : float
        Expected share of cases A passes, in [0, 1].
    difference : float
        Pass-rate difference A - B worth detecting (negative when B is better).
    disagreement : float
        Expected share of cases where exactly one system passes, psi = p10 + p01, in [0, 1].

    Returns
    -------
    (p10, p01) : tuple of float
        p10 = (psi + delta)/2 (only A passes), p01 = (psi - delta)/2 (only B passes).

    Raises
    ------
    TypeError, ValueError
        If an input is not a number in range, if |difference| exceeds the disagreement (a
        difference is made only of cases where the systems disagree), or if the pass rate of A
        cannot hold p10 (A must pass at least p10 of the cases and fail at least p01).

    Examples
    --------
    >>> p10, p01 = cells_from_rates(pass_rate_a=0.80, difference=0.02, disagreement=0.10)
    >>> round(p10, 4), round(p01, 4)
    (0.06, 0.04)
    >>> cells_from_rates(pass_rate_a=0.80, difference=0.2, disagreement=0.1)
    Traceback (most recent call last):
    ...
    ValueError: `difference` must be at most the share of disagreement 0.1 in size, but got 0.2: \
a difference between the pass rates comes only from cases where the systems disagree.
    """
    pass_rate_a = check_probability(pass_rate_a, "pass_rate_a", open_interval=False)
    disagreement = check_probability(disagreement, "disagreement", open_interval=False)
    if isinstance(difference, bool) or not isinstance(difference, int | float | np.number):
        raise TypeError(f"`difference` must be a number from -1 to 1, but got {difference!r}.")
    difference = float(difference)
    if not abs(difference) <= disagreement:  # also rejects NaN
        raise ValueError(
            f"`difference` must be at most the share of disagreement {disagreement:g} in size, "
            f"but got {difference:g}: a difference between the pass rates comes only from cases "
            "where the systems disagree."
        )
    p10 = (disagreement + difference) / 2
    p01 = (disagreement - difference) / 2
    if p10 > pass_rate_a + 1e-12:
        raise ValueError(
            f"`pass_rate_a` must be at least {p10:g} (the share where only A passes), but got "
            f"{pass_rate_a:g}: lower the difference or the disagreement, or raise the pass rate."
        )
    if p01 > 1 - pass_rate_a + 1e-12:
        raise ValueError(
            f"`pass_rate_a` must be at most {1 - p01:g} (A fails wherever only B passes, "
            f"{p01:g} of the cases), but got {pass_rate_a:g}."
        )
    return p10, p01


def _check_cells(p10: object, p01: object) -> tuple[float, float]:
    p10 = check_probability(p10, "p10", open_interval=False)
    p01 = check_probability(p01, "p01", open_interval=False)
    if p10 + p01 > 1 + 1e-12:
        raise ValueError(
            f"`p10` + `p01` must be at most 1 (both are shares of the same cases), but got "
            f"{p10:g} + {p01:g} = {p10 + p01:g}."
        )
    if p10 + p01 == 0:
        raise ValueError(
            "`p10` + `p01` must be above 0, but got 0: with no disagreement no case tells the "
            "systems apart, and the test can never reject."
        )
    return p10, p01


def _check_test(test: object) -> str:
    return check_choice(test, "test", PLAN_TESTS)


# --- the test's rejection region ---------------------------------------------------------------


def rejection_limits(
    max_discordant: int, *, alpha: float = 0.05, test: str = "exact"
) -> np.ndarray:
    """For each discordant count D = 0..max_discordant, the largest k with min(b, c) <= k rejected.

    Parameters
    ----------
    max_discordant : int
        Largest discordant count D in the table.
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
    max_discordant = check_count(max_discordant, "max_discordant")
    alpha = check_probability(alpha, "alpha")
    test = _check_test(test)
    # Tables are cached per power-of-two size, so one alpha serves many plans.
    size = 1 << max(6, max_discordant.bit_length())
    return _limits_table(size, alpha, test)[: max_discordant + 1]


@functools.lru_cache(maxsize=4)
def _limits_table(size: int, alpha: float, test: str) -> np.ndarray:
    discordant = np.arange(size, dtype=np.int64)
    root = np.sqrt(discordant)
    z = stats.norm.isf(alpha / 2)
    if test == "chi2":
        critical = stats.chi2.isf(alpha, 1) * discordant
        limit = np.floor((discordant - z * root) / 2).astype(np.int64)
        # Settle the rounding of the square root against the integer inequality itself.
        limit += ((discordant - 2 * (limit + 1)) ** 2 >= critical) & (limit + 1 < discordant / 2)
        limit -= (discordant - 2 * limit) ** 2 < critical
        limit[discordant == 0] = -1
    else:
        half_alpha = alpha / 2 * (1 + _TIE_TOLERANCE)
        # Normal guess with continuity correction, then step to the exact limit.
        limit = np.floor((discordant - z * root) / 2 - 0.5).astype(np.int64)
        limit = np.clip(limit, -1, None)
        cdf = stats.binom.cdf(limit, discordant, 0.5)
        while (too_high := cdf > half_alpha).any():
            cdf[too_high] -= stats.binom.pmf(limit[too_high], discordant[too_high], 0.5)
            limit[too_high] -= 1
        while True:
            after = cdf + stats.binom.pmf(limit + 1, discordant, 0.5)
            step = after <= half_alpha
            if not step.any():
                break
            limit[step] += 1
            cdf[step] = after[step]
    limit = np.maximum(limit, -1)
    limit.flags.writeable = False
    return limit


@functools.lru_cache(maxsize=4)
def _rate_table(size: int, theta: float, alpha: float, test: str) -> np.ndarray:
    """Conditional power for D = 0..size-1, cached: a plan and its power curve share it."""
    limits = rejection_limits(size - 1, alpha=alpha, test=test)
    table = _conditional_power(np.arange(size), theta, limits)
    table.flags.writeable = False
    return table


def _conditional_power(discordant: np.ndarray, theta: float, limits: np.ndarray) -> np.ndarray:
    """P(reject | D) when b ~ Bin(D, theta): both tails, b <= k(D) or b >= D - k(D)."""
    k = limits[discordant]
    # binom.cdf(-1) = 0 and binom.sf(D) = 0, so k = -1 gives 0 with no special case.
    return stats.binom.cdf(k, discordant, theta) + stats.binom.sf(
        discordant - k - 1, discordant, theta
    )


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
        For a non-integer or negative `n`, a probability outside [0, 1], p10 + p01 > 1 or = 0,
        `alpha` outside (0, 1), or an unknown `test`.

    Notes
    -----
    With psi = p10 + p01 and theta = p10/psi, the discordant count is D ~ Bin(n, psi) and, given
    D, b ~ Bin(D, theta). With k(D) from :func:`rejection_limits`,

        power = sum_{D=0}^{n} P[D] (P[b <= k(D) | D] + P[b >= D - k(D) | D]),

    one vectorised pass over D, O(n). At p10 = p01 this is the test's actual size, which for the
    exact test is at most alpha and for the chi-square test can exceed it.

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
    n = check_count(n, "n")
    p10, p01 = _check_cells(p10, p01)
    alpha = check_probability(alpha, "alpha")
    test = _check_test(test)
    psi = p10 + p01
    discordant = np.arange(n + 1)
    weights = stats.binom.pmf(discordant, n, psi)
    limits = rejection_limits(n, alpha=alpha, test=test)
    return _clip_probability(float(weights @ _conditional_power(discordant, p10 / psi, limits)))


def _clip_probability(value: float) -> float:
    # Sums of rounded terms can overshoot [0, 1] by an ulp or two.
    return min(1.0, max(0.0, value))


def _window(n: np.ndarray, psi: float) -> tuple[np.ndarray, np.ndarray]:
    """Discordant counts outside [low, high] have total probability below 1e-15 for Bin(n, psi).

    Bernstein's inequality, P(|D - n psi| >= t) <= 2 exp(-t^2 / (2 (s^2 + t/3))), with
    s^2 = n psi (1 - psi) and t = 12 s + 50, gives an exponent of at least 36.
    """
    spread = 12 * np.sqrt(n * psi * (1 - psi)) + 50
    low = np.maximum(0, np.floor(n * psi - spread)).astype(np.int64)
    high = np.minimum(n, np.ceil(n * psi + spread)).astype(np.int64)
    return low, high


def _expected(n_values: np.ndarray, psi: float, table: np.ndarray, beyond: float) -> np.ndarray:
    """E[f(D)] for D ~ Bin(n, psi), each n; f(D) = table[D], or `beyond` past the table's end.

    Only the window of :func:`_window` is summed, so the cost per n is O(sqrt(n)). The weights
    start from the pmf at the window's low end and follow the ratio
    pmf(D + 1)/pmf(D) = (n - D)/(D + 1) psi/(1 - psi) in the log domain (relative error about
    1e-13), which is several times faster than the pmf at every point.
    """
    n_values = np.asarray(n_values, dtype=np.int64)
    low, high = _window(n_values, psi)
    width = int((high - low).max()) + 1 if n_values.size else 1
    rows = max(1, _BLOCK_ELEMENTS // width)
    offsets = np.arange(width)
    result = np.empty(n_values.shape, dtype=np.float64)
    for start in range(0, n_values.size, rows):
        block = slice(start, start + rows)
        n_block = n_values[block, None]
        # Past a row's window the weight is 0; clipping keeps the indices valid there.
        discordant = np.minimum(low[block, None] + offsets, high[block, None])
        inside = offsets <= (high - low)[block, None]
        if psi == 1:  # D = n for certain
            weights = ((discordant == n_block) & inside).astype(np.float64)
        else:
            steps = np.log((n_block - discordant + 1) / np.maximum(discordant, 1))
            steps += math.log(psi) - math.log1p(-psi)
            steps[:, 0] = stats.binom.logpmf(low[block], n_values[block], psi)
            steps[~inside] = -np.inf  # the window is a prefix of each row: weight 0 after it
            weights = np.exp(np.cumsum(steps, axis=1))
        values = table[np.minimum(discordant, table.size - 1)]
        if int(high[block].max()) >= table.size:
            values = np.where(discordant < table.size, values, beyond)
        result[block] = np.einsum("ij,ij->i", weights, values)
    return np.clip(result, 0.0, 1.0)


class _PowerModel:
    """Conditional power r(D) for one plan, tabulated over D and extended on demand."""

    def __init__(self, p10: float, p01: float, alpha: float, test: str) -> None:
        self.psi = p10 + p01
        self.theta = p10 / self.psi
        self.alpha = alpha
        self.test = test
        self.table = np.zeros(0)

    def ensure(self, max_discordant: int) -> np.ndarray:
        if self.table.size <= max_discordant:
            size = 1 << max(6, max_discordant.bit_length())
            self.table = _rate_table(size, self.theta, self.alpha, self.test)
        return self.table

    def power(self, n_values: np.ndarray) -> np.ndarray:
        """Power at each n (any order)."""
        n_values = np.asarray(n_values, dtype=np.int64)
        _, high = _window(n_values, self.psi)
        table = self.ensure(int(high.max()) if n_values.size else 0)
        return _expected(n_values, self.psi, table, beyond=math.nan)

    def power_run(self, first: int, last: int) -> np.ndarray:
        """Power at n = first, first + 1, ..., last, stepping the pmf from one n to the next.

        pmf_{n+1}(D) = (1 - psi) pmf_n(D) + psi pmf_n(D - 1) costs O(window) per n, with no
        special functions. The array spans every window in the run, so the mass that leaves it
        is below 1e-15 per step.
        """
        sizes = np.arange(first, last + 1, dtype=np.int64)
        if sizes.size == 0:
            return np.zeros(0)
        lows, highs = _window(sizes, self.psi)
        low, high = int(lows.min()), int(highs.max())
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
    a value differs from :func:`exact_power` by less than 1e-14 and costs O(sqrt(n)).

    Parameters
    ----------
    p10, p01, alpha, test
        As in :func:`exact_power`.
    n_values : array_like of int
        Sample sizes, each a non-negative integer.

    Returns
    -------
    numpy.ndarray of float
        Power at each n, in the order given.

    Examples
    --------
    >>> power_curve(0.05, 0.45, [6, 23]).round(4).tolist()
    [0.0083, 0.7766]
    """
    p10, p01 = _check_cells(p10, p01)
    alpha = check_probability(alpha, "alpha")
    test = _check_test(test)
    n_array = np.asarray(n_values)
    if n_array.ndim != 1 or not np.issubdtype(n_array.dtype, np.integer):
        raise TypeError(
            f"`n_values` must be a one-dimensional list of integers, but got {n_values!r}."
        )
    if (n_array < 0).any():
        raise ValueError(f"`n_values` must be non-negative integers, but got {int(n_array.min())}.")
    return _PowerModel(p10, p01, alpha, test).power(n_array)


# --- sample size -------------------------------------------------------------------------------


def connor_n(p10: float, p01: float, *, alpha: float = 0.05, power: float = 0.8) -> int:
    """Connor's (1987) approximate number of pairs for the two-sided McNemar test.

    Parameters
    ----------
    p10, p01 : float
        Probabilities that only A passes and that only B passes (p10 != p01).
    alpha : float
        Two-sided significance level, in (0, 1).
    power : float
        Target power, in (0, 1).

    Returns
    -------
    int
        n rounded up.

    Raises
    ------
    ValueError
        As :func:`exact_power`, for a `power` outside (0, 1), or when p10 == p01 (no difference,
        no finite n).

    Notes
    -----
    With psi = p10 + p01 and delta = p10 - p01,

        n = (z_{1-alpha/2} sqrt(psi) + z_{power} sqrt(psi - delta^2))^2 / delta^2.

    It rests on a normal approximation; the exact test's required n can differ by several pairs.

    References
    ----------
    .. [1] Connor, R. J. (1987). Sample size for testing differences in proportions for the
           paired-sample design. Biometrics 43(1), 207-211.

    Examples
    --------
    Connor's example (p10 = 0.05, p01 = 0.45, alpha 0.05, power 0.8):

    >>> connor_n(0.05, 0.45)
    23
    """
    p10, p01 = _check_cells(p10, p01)
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    _check_difference(p10, p01)
    psi, delta = p10 + p01, p10 - p01
    root = stats.norm.isf(alpha / 2) * math.sqrt(psi) + stats.norm.ppf(power) * math.sqrt(
        psi - delta**2
    )
    return max(1, math.ceil(root**2 / delta**2))


def _check_difference(p10: float, p01: float) -> None:
    if p10 == p01:
        raise ValueError(
            f"`p10` and `p01` must differ, but both are {p10:g}: with no difference the power "
            "never rises above alpha, so no number of pairs reaches the target."
        )


@dataclass(frozen=True, slots=True)
class _RequiredN:
    n: int
    power: float
    non_monotone: bool
    stable_n: int


def _required_n(
    p10: float, p01: float, alpha: float, target: float, test: str, max_n: int
) -> _RequiredN:
    """Smallest n with power >= target, and whether power dips below target at some larger n.

    Scanning every n is O(n^1.5); bounds confine the scan to a short stretch. Let r(D) be the
    conditional power. With U(n) = E[max_{D' <= D} r(D')] and L(n) = E[min_{D' >= D} r(D')],
    both nondecreasing in n because D ~ Bin(n, psi) grows stochastically with n,
    L(n) <= power(n) <= U(n). Below n_a, the largest n with U(n) < target, no n reaches the
    target; from n_b, the smallest n with L(n) >= target, every n does. Only n in (n_a, n_b)
    are computed exactly.

    The suffix minimum needs r beyond the table. With g = |1/2 - theta|, the limit satisfies
    k(D) >= D/2 - c sqrt(D) - 1 (c = sqrt(ln(2/alpha)/2) for the exact test by Hoeffding's
    inequality, c = z_{1-alpha/2}/2 for chi-square), so by Hoeffding again
    r(D) >= 1 - exp(-2 (g sqrt(D) - c)^2), rising in D. The table runs to where this bound
    passes (1 + target)/2, and that bound stands in for r beyond.
    """
    approximate = connor_n(p10, p01, alpha=alpha, power=target)
    if approximate > 4 * max_n:
        raise ValueError(
            f"the plan needs about {approximate:,} pairs by Connor's approximation, far more "
            f"than `max_n` = {max_n:,}: the difference {p10 - p01:+g} is too small for power "
            f"{target:g} at alpha {alpha:g}."
        )
    model = _PowerModel(p10, p01, alpha, test)
    psi = model.psi
    gap = abs(0.5 - model.theta)
    c = stats.norm.isf(alpha / 2) / 2 if test == "chi2" else math.sqrt(math.log(2 / alpha) / 2)
    floor_target = (1 + target) / 2
    s = math.sqrt(math.log(1 / (1 - floor_target)) / 2)
    # No table beyond what max_n pairs could reach (memory); the bound is then weaker.
    reach_of_max_n = int(_window(np.array([max_n]), psi)[1][0])
    table_end = min(math.ceil(((c + s) / gap) ** 2) + 1, reach_of_max_n)
    margin = max(0.0, gap * math.sqrt(table_end) - c)
    tail_bound = -math.expm1(-2 * margin**2)
    rates = model.ensure(table_end)[: table_end + 1]
    upper = np.maximum.accumulate(rates)
    lower = np.minimum(np.minimum.accumulate(rates[::-1])[::-1], tail_bound)

    def upper_power(n: int) -> float:
        return float(_expected(np.array([n]), psi, upper, beyond=1.0)[0])

    def lower_power(n: int) -> float:
        return float(_expected(np.array([n]), psi, lower, beyond=tail_bound)[0])

    if upper_power(max_n) < target:
        raise ValueError(
            f"the plan needs more than `max_n` = {max_n:,} pairs: the difference "
            f"{p10 - p01:+g} is too small for power {target:g} at alpha {alpha:g}."
        )
    guess = min(max_n, approximate)
    # n_a: largest n with U(n) < target (U(0) = 0 < target, U(max_n) >= target).
    n_a = _smallest_where(lambda n: upper_power(n) >= target, 0, max_n, guess) - 1
    # n_b: smallest n with L(n) >= target. L is below U, so n_b > n_a + 1 unless they meet;
    # past max_n + 1 the scan is cut off, which only a table cut short for memory can cause.
    n_b = _smallest_where(lambda n: lower_power(n) >= target, n_a, max_n + 1, n_a + 1)
    candidates = np.arange(n_a + 1, n_b)
    powers = model.power_run(n_a + 1, n_b - 1)
    reached = np.flatnonzero(powers >= target)
    n = int(candidates[reached[0]]) if reached.size else n_b
    if n > max_n:
        raise ValueError(
            f"the plan needs {n:,} pairs, more than `max_n` = {max_n:,}: the difference "
            f"{p10 - p01:+g} is too small for power {target:g} at alpha {alpha:g}."
        )
    dips = candidates[(candidates > n) & (powers < target)]
    achieved = float(powers[reached[0]]) if reached.size else float(model.power(np.array([n]))[0])
    return _RequiredN(
        n=n,
        power=achieved,
        non_monotone=bool(dips.size),
        stable_n=int(dips[-1]) + 1 if dips.size else n,
    )


def _smallest_where(holds, false_at: int, true_at: int, guess: int) -> int:
    """Smallest n in (false_at, true_at] where the monotone predicate holds; `true_at` if none.

    Gallops from `guess` in doubling steps to bracket the change, then bisects, so the cost is
    logarithmic in the distance from the guess rather than in the whole range.
    """
    guess = min(max(guess, false_at + 1), true_at)
    step = 1
    if holds(guess):
        above = guess
        below = max(false_at, guess - step)
        while below > false_at and holds(below):
            above, step = below, 2 * step
            below = max(false_at, below - step)
    else:
        below = guess
        above = min(true_at, guess + step)
        while above < true_at and not holds(above):
            below, step = above, 2 * step
            above = min(true_at, above + step)
    while above - below > 1:
        middle = (below + above) // 2
        below, above = (below, middle) if holds(middle) else (middle, above)
    return above


def minimum_detectable_difference(
    n: int,
    disagreement: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    test: str = "exact",
) -> float:
    """Smallest |p10 - p01| that n pairs detect with the given power, at a fixed disagreement.

    Parameters
    ----------
    n : int
        Number of paired cases (at least 1).
    disagreement : float
        Share of cases where the systems disagree, psi = p10 + p01, in (0, 1].
    alpha, power, test
        Significance level, target power (both in (0, 1)) and test, as in :func:`plan`.

    Returns
    -------
    float
        delta in [0, psi]: the difference in pass rates, as a proportion (0.05 = 5 points).

    Raises
    ------
    ValueError
        For invalid inputs, or when even delta = psi (one system passes every case where they
        disagree) falls short of the power.

    Notes
    -----
    At fixed n and psi the distribution of D does not depend on delta, and the conditional
    power of a symmetric two-tailed region rises with |theta - 1/2|, so power rises with |delta|
    and a root finder (Brent's method) brackets the answer between 0 and psi.

    Examples
    --------
    >>> round(minimum_detectable_difference(100, 0.2), 4)
    0.1277
    """
    n = check_count(n, "n")
    if n == 0:
        raise ValueError("`n` must be at least 1, but got 0.")
    disagreement = check_probability(disagreement, "disagreement", open_interval=False)
    if disagreement == 0:
        raise ValueError(
            "`disagreement` must be above 0, but got 0: with no disagreement no difference can "
            "be detected."
        )
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    test = _check_test(test)
    # Only the discordant counts holding all but 1e-15 of Bin(n, psi) matter: O(sqrt(n)) per try.
    low, high = (int(end[0]) for end in _window(np.array([n]), disagreement))
    discordant = np.arange(low, high + 1)
    weights = stats.binom.pmf(discordant, n, disagreement)
    limits = rejection_limits(high, alpha=alpha, test=test)

    def shortfall(delta: float) -> float:
        theta = (disagreement + delta) / (2 * disagreement)
        return float(weights @ _conditional_power(discordant, theta, limits)) - power

    if shortfall(disagreement) < 0:
        raise ValueError(
            f"{n:,} pairs cannot reach power {power:g} when the systems disagree on "
            f"{disagreement:g} of the cases, even if one system wins every disagreement: "
            "add pairs or lower the target power."
        )
    if shortfall(0.0) >= 0:
        return 0.0
    return float(optimize.brentq(shortfall, 0.0, disagreement, xtol=1e-9))


# --- the plan ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerCurve:
    """Power against the number of pairs, for the chart."""

    n: np.ndarray
    power: np.ndarray
    target_power: float
    chosen_n: int
    alpha: float

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n.tolist(),
            "power": self.power.tolist(),
            "target_power": self.target_power,
            "chosen_n": self.chosen_n,
            "alpha": self.alpha,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerPlan:
    """A sized comparison. Build it with :func:`plan`.

    Attributes
    ----------
    p10, p01 : float
        Probabilities that only A passes and that only B passes.
    alpha : float
        Significance level.
    test : str
        "exact" or "chi2".
    target_power : float
        The power the plan aims for.
    solved_for : str
        "n" (the smallest n reaching `target_power`) or "power" (the power at a given n).
    n : int
        The required n, or the n given.
    power : float
        Exact power at `n`.
    connor_n : int or None
        Connor's approximate n for `target_power` (None when p10 == p01).
    non_monotone : bool or None
        When solving for n: True if some larger n has power below the target.
    stable_n : int or None
        When solving for n: the smallest n from which power never falls below the target.
    minimum_detectable_difference : float or None
        When n is given: the smallest |p10 - p01| detected with `target_power` at this
        disagreement, or None if no difference is.
    pass_rate_a : float or None
        The pass rate of A, when the plan was given as rates.
    """

    p10: float
    p01: float
    alpha: float
    test: str
    target_power: float
    solved_for: str
    n: int
    power: float
    connor_n: int | None
    non_monotone: bool | None = None
    stable_n: int | None = None
    minimum_detectable_difference: float | None = None
    pass_rate_a: float | None = None

    @property
    def disagreement(self) -> float:
        """psi = p10 + p01, the share of cases where exactly one system passes."""
        return self.p10 + self.p01

    @property
    def difference(self) -> float:
        """delta = p10 - p01, the pass-rate difference A - B."""
        return self.p10 - self.p01

    @property
    def pass_rate_b(self) -> float | None:
        """The pass rate of B, pass_rate_a - delta, when the plan was given as rates."""
        return None if self.pass_rate_a is None else self.pass_rate_a - self.difference

    def to_dict(self) -> dict[str, object]:
        """Inputs and results as plain JSON types.

        Solving for n gives "n", "achieved_power", "connor_n", "non_monotone" and "stable_n";
        a given n gives "n", "power", "connor_n" and "minimum_detectable_difference".
        """
        shape: dict[str, object] = {
            "p10": self.p10,
            "p01": self.p01,
            "disagreement": self.disagreement,
            "difference": self.difference,
            "pass_rate_a": self.pass_rate_a,
            "pass_rate_b": self.pass_rate_b,
            "alpha": self.alpha,
            "test": self.test,
            "target_power": self.target_power,
            "solved_for": self.solved_for,
            "n": self.n,
        }
        if self.solved_for == "n":
            shape |= {
                "achieved_power": self.power,
                "connor_n": self.connor_n,
                "non_monotone": self.non_monotone,
                "stable_n": self.stable_n,
            }
        else:
            shape |= {
                "power": self.power,
                "connor_n": self.connor_n,
                "minimum_detectable_difference": self.minimum_detectable_difference,
            }
        return shape

    def power_curve(self, n_max: int | None = None) -> PowerCurve:
        """Power for n = 1..n_max (default: past both n and `stable_n`), for the chart.

        Up to 600 sizes every n is drawn, which shows the saw-tooth; beyond, 240 evenly spaced
        sizes are, including the plan's n.
        """
        if n_max is None:
            n_max = max(40, 2 * self.n, (self.stable_n or 0) + self.n // 4, self.connor_n or 0)
        n_max = check_count(n_max, "n_max")
        if n_max < 1:
            raise ValueError(f"`n_max` must be at least 1, but got {n_max}.")
        if n_max <= _CURVE_POINTS:
            sizes = np.arange(1, n_max + 1)
        else:
            sizes = np.unique(
                np.append(np.linspace(1, n_max, _CURVE_SAMPLES).round().astype(np.int64), self.n)
            )
        powers = _PowerModel(self.p10, self.p01, self.alpha, self.test).power(sizes)
        return PowerCurve(
            n=sizes,
            power=powers,
            target_power=self.target_power,
            chosen_n=self.n,
            alpha=self.alpha,
        )

    def sentence(self) -> str:
        """A sentence describing the plan, to paste into a design document."""
        test = "exact McNemar test" if self.test == "exact" else "McNemar chi-square test"
        assumption = (
            f"if only A passes {_percent(self.p10)} of cases and only B passes "
            f"{_percent(self.p01)} (a difference of {self.difference * 100:+.1f} points, "
            f"disagreement on {_percent(self.disagreement)})"
        )
        if self.solved_for == "n":
            text = (
                f"With {self.n:,} paired cases, a two-sided {test} at alpha = {self.alpha:g} has "
                f"{_percent(self.power)} power {assumption}; Connor's approximation gives "
                f"{self.connor_n:,}."
            )
            if self.non_monotone:
                text += (
                    f" Because the test is discrete, some larger samples have less power; from "
                    f"{self.stable_n:,} cases on, power stays at or above "
                    f"{_percent(self.target_power)}."
                )
            return text
        text = (
            f"With {self.n:,} paired cases, a two-sided {test} at alpha = {self.alpha:g} has "
            f"{_percent(self.power)} power {assumption}."
        )
        if self.minimum_detectable_difference is not None:
            text += (
                f" At that disagreement, the smallest difference detected with "
                f"{_percent(self.target_power)} power is "
                f"{self.minimum_detectable_difference * 100:.1f} points."
            )
        return text


def _percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def plan(
    *,
    p10: float | None = None,
    p01: float | None = None,
    pass_rate_a: float | None = None,
    difference: float | None = None,
    disagreement: float | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    n: int | None = None,
    test: str = "exact",
    max_n: int = DEFAULT_MAX_N,
) -> PowerPlan:
    """Size a paired comparison of two systems, or find the power of a given size.

    Give either `p10` and `p01`, or `pass_rate_a`, `difference` and `disagreement` (converted
    by :func:`cells_from_rates`).

    Parameters
    ----------
    p10, p01 : float, optional
        Probabilities that only A passes and that only B passes.
    pass_rate_a, difference, disagreement : float, optional
        The expected pass rate of A, the difference A - B worth detecting, and the share of
        cases where the systems disagree.
    alpha : float
        Significance level of the two-sided test, in (0, 1).
    power : float
        Target power, in (0, 1).
    n : int, optional
        Number of pairs. Omitted: the smallest n reaching `power` is found. Given: the power at
        n and the minimum detectable difference are reported.
    test : {"exact", "chi2"}
        The exact McNemar test (doubling convention) or the uncorrected chi-square test.
    max_n : int
        Largest n searched.

    Returns
    -------
    PowerPlan

    Raises
    ------
    TypeError, ValueError
        Naming the input and why: a rate outside [0, 1], p10 + p01 > 1 or = 0, `alpha` or
        `power` outside (0, 1), a difference larger than the disagreement allows, both or
        neither way of giving the rates, p10 == p01 when solving for n, or a plan needing more
        than `max_n` pairs.

    Notes
    -----
    Power is computed exactly (see :func:`exact_power`). It is saw-toothed in n: going from n to
    n + 1 pairs can lower it, because the discrete test's actual size jumps as the rejection
    region grows by whole counts. The required n is the smallest n whose power reaches the target;
    `non_monotone` says whether some larger n falls short again, and `stable_n` where that stops.

    References
    ----------
    .. [1] Connor, R. J. (1987). Sample size for testing differences in proportions for the
           paired-sample design. Biometrics 43(1), 207-211.
    .. [2] Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
           matched-pairs data: mid-p and asymptotic are better than exact conditional.
           BMC Medical Research Methodology 13:91.

    Examples
    --------
    Connor's example: his approximation gives 23 pairs, the exact test needs 25.

    >>> result = plan(p10=0.05, p01=0.45)
    >>> result.n, round(result.power, 4), result.connor_n, result.non_monotone
    (25, 0.8202, 23, False)

    When the systems disagree on every case, 20 pairs reach 80% power but 21 and 22 do not:

    >>> result = plan(p10=0.2, p01=0.8)
    >>> result.n, round(result.power, 4), result.non_monotone, result.stable_n
    (20, 0.8042, True, 23)
    >>> round(plan(p10=0.05, p01=0.45, n=20).power, 4)
    0.6937
    """
    rates_given = (pass_rate_a, difference, disagreement)
    if p10 is not None or p01 is not None:
        if any(value is not None for value in rates_given):
            raise ValueError(
                "give either `p10` and `p01`, or `pass_rate_a`, `difference` and "
                "`disagreement`, not both."
            )
        if p10 is None or p01 is None:
            missing = "p01" if p01 is None else "p10"
            raise ValueError(f"`{missing}` is missing: give both `p10` and `p01`.")
    elif any(value is None for value in rates_given):
        names = ("pass_rate_a", "difference", "disagreement")
        missing = ", ".join(
            f"`{name}`" for name, v in zip(names, rates_given, strict=True) if v is None
        )
        raise ValueError(
            f"{missing} missing: give `p10` and `p01`, or `pass_rate_a`, `difference` and "
            "`disagreement`."
        )
    else:
        p10, p01 = cells_from_rates(
            pass_rate_a=pass_rate_a, difference=difference, disagreement=disagreement
        )
        pass_rate_a = float(pass_rate_a)
    p10, p01 = _check_cells(p10, p01)
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    test = _check_test(test)
    max_n = check_count(max_n, "max_n")
    common = {
        "p10": p10,
        "p01": p01,
        "alpha": alpha,
        "test": test,
        "target_power": power,
        "pass_rate_a": pass_rate_a,
        "connor_n": None if p10 == p01 else connor_n(p10, p01, alpha=alpha, power=power),
    }
    if n is None:
        _check_difference(p10, p01)
        required = _required_n(p10, p01, alpha, power, test, max_n)
        return PowerPlan(
            **common,
            solved_for="n",
            n=required.n,
            power=required.power,
            non_monotone=required.non_monotone,
            stable_n=required.stable_n,
        )
    n = check_count(n, "n")
    if n == 0:
        raise ValueError("`n` must be at least 1, but got 0.")
    try:
        detectable = minimum_detectable_difference(
            n, p10 + p01, alpha=alpha, power=power, test=test
        )
    except ValueError:  # no difference reaches the power at this n: reported as None
        detectable = None
    return PowerPlan(
        **common,
        solved_for="power",
        n=n,
        power=float(_PowerModel(p10, p01, alpha, test).power(np.array([n]))[0]),
        minimum_detectable_difference=detectable,
    )


# --- optional stopping -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionalStopping:
    """False-positive rate when an experiment is tested at every look and stops when significant.

    Attributes
    ----------
    looks : numpy.ndarray of int
        1, 2, ..., the number of looks allowed.
    cases : numpy.ndarray of int
        Cases seen by each look (look_every * looks).
    false_positive_rate : numpy.ndarray of float
        Share of experiments (all with no real difference) declared significant at or before each
        look.
    standard_error : numpy.ndarray of float
        Monte Carlo standard error of each rate, sqrt(r (1 - r) / experiments).
    alpha, disagreement, look_every, experiments, seed, test
        The simulation's settings.
    """

    looks: np.ndarray
    cases: np.ndarray
    false_positive_rate: np.ndarray
    standard_error: np.ndarray
    alpha: float
    disagreement: float
    look_every: int
    experiments: int
    seed: int
    test: str

    def to_dict(self) -> dict[str, object]:
        return {
            "looks": self.looks.tolist(),
            "cases": self.cases.tolist(),
            "false_positive_rate": self.false_positive_rate.tolist(),
            "standard_error": self.standard_error.tolist(),
            "alpha": self.alpha,
            "disagreement": self.disagreement,
            "look_every": self.look_every,
            "experiments": self.experiments,
            "seed": self.seed,
            "test": self.test,
        }


def simulate_optional_stopping(
    *,
    look_every: int = 10,
    looks: int = 20,
    disagreement: float = 0.2,
    alpha: float = 0.05,
    experiments: int = 10_000,
    seed: int = 0,
    test: str = "exact",
) -> OptionalStopping:
    """Simulate experiments with no real difference, tested after every `look_every` cases.

    Parameters
    ----------
    look_every : int
        Cases added between looks (at least 1).
    looks : int
        Largest number of looks (1 to 1000).
    disagreement : float
        Share of cases where the systems disagree, in (0, 1]; each disagreement favours A or B
        with probability 1/2, as there is no real difference.
    alpha : float
        Level at which each look declares significance, in (0, 1).
    experiments : int
        Number of simulated experiments (1 to 1,000,000).
    seed : int
        Seed of the numpy random Generator, so a run can be repeated exactly.
    test : {"exact", "chi2"}
        Test applied at each look.

    Returns
    -------
    OptionalStopping
        For each number of looks L, the share of experiments that stopped with a significant
        result at one of the first L looks. With one look it is the test's actual size.

    Notes
    -----
    Each block of `look_every` cases adds Bin(look_every, psi) discordant pairs, of which
    Bin(that, 1/2) favour A; cumulative sums give (b, c) at every look for all experiments at
    once, and a look rejects when min(b, c) <= k(b + c) from :func:`rejection_limits`. Stopping
    at the first rejection makes "rejected by look L" the running OR over looks. The nominal
    alpha holds only for L = 1.

    References
    ----------
    .. [1] Armitage, P., McPherson, C. K. & Rowe, B. C. (1969). Repeated significance tests on
           accumulating data. Journal of the Royal Statistical Society A 132(2), 235-244.

    Examples
    --------
    >>> result = simulate_optional_stopping(look_every=10, looks=20, experiments=2000, seed=1)
    >>> bool(result.false_positive_rate[-1] > 2 * result.alpha)
    True
    """
    look_every = check_count(look_every, "look_every")
    if look_every == 0:
        raise ValueError("`look_every` must be at least 1, but got 0.")
    looks = check_bounded_count(looks, "looks", 1, _MAX_LOOKS)
    experiments = check_bounded_count(experiments, "experiments", 1, _MAX_EXPERIMENTS)
    disagreement = check_probability(disagreement, "disagreement", open_interval=False)
    if disagreement == 0:
        raise ValueError(
            "`disagreement` must be above 0, but got 0: with no disagreement no look can reject."
        )
    alpha = check_probability(alpha, "alpha")
    seed = check_count(seed, "seed", maximum=None)
    test = _check_test(test)
    rng = np.random.default_rng(seed)
    new_discordant = rng.binomial(look_every, disagreement, size=(experiments, looks))
    new_for_a = rng.binomial(new_discordant, 0.5)
    discordant = np.cumsum(new_discordant, axis=1)
    for_a = np.cumsum(new_for_a, axis=1)
    limits = rejection_limits(look_every * looks, alpha=alpha, test=test)
    significant = np.minimum(for_a, discordant - for_a) <= limits[discordant]
    rate = np.logical_or.accumulate(significant, axis=1).mean(axis=0)
    look_numbers = np.arange(1, looks + 1)
    return OptionalStopping(
        looks=look_numbers,
        cases=look_numbers * look_every,
        false_positive_rate=rate,
        standard_error=np.sqrt(rate * (1 - rate) / experiments),
        alpha=alpha,
        disagreement=disagreement,
        look_every=look_every,
        experiments=experiments,
        seed=seed,
        test=test,
    )
