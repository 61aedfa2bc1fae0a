"""Sample size: Connor's closed form, the exact required n, the minimum detectable difference."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calculator._lazy_scipy import optimize, stats
from calculator._validation import check_count, check_probability
from calculator.errors import CalculatorError
from calculator.planning.inputs import MAX_N, check_cells, check_difference, check_test
from calculator.planning.power import (
    MAX_TABULATED,
    PowerModel,
    conditional_power,
    expected,
    limits_between,
    window,
)

__all__ = ["RequiredN", "connor_n", "minimum_detectable_difference", "required_n"]

# Discordant counts a search tabulates from D = 0: half of what one call may compute, as the search
# also sums the power at many sizes near the answer.
_SEARCH_TABULATED = MAX_TABULATED // 2


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
        As :func:`exact_power`, for a `power` outside (0, 1), when p10 == p01 (no difference,
        no finite n), or when n would exceed 10^308 (a difference near 1e-160 or less).

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
    p10, p01 = check_cells(p10, p01)
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    check_difference(p10, p01)
    psi, delta = p10 + p01, p10 - p01
    root = stats.norm.isf(alpha / 2) * math.sqrt(psi) + stats.norm.ppf(power) * math.sqrt(
        max(0.0, psi - delta**2)
    )
    # (root / delta)^2 rather than root^2 / delta^2, which underflows for rates near 1e-170.
    # A power so low that the root is negative is reached, by the approximation, at any n.
    ratio = max(0.0, float(root)) / abs(delta)
    pairs = ratio * ratio  # a float product overflows to inf, with no error or warning
    if not math.isfinite(pairs):
        raise CalculatorError(
            f"the difference {p10 - p01:+g} is too small for any number of pairs that a computer "
            "can count: Connor's approximation exceeds 10^308."
        )
    return max(1, math.ceil(pairs))


@dataclass(frozen=True, slots=True)
class RequiredN:
    n: int
    power: float
    non_monotone: bool
    stable_n: int


def required_n(
    p10: float, p01: float, alpha: float, target: float, test: str, max_n: int
) -> RequiredN:
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
    max_n, bound = _search_limit(p10 + p01, max_n)
    too_small = (
        f"the difference {p10 - p01:+g} is too small for power {target!r} at alpha {alpha!r}"
    )
    if approximate > 4 * max_n:
        raise CalculatorError(
            f"the plan needs about {_pairs(approximate)} pairs by Connor's approximation, far more "
            f"than {bound}: {too_small}."
        )
    model = PowerModel(p10, p01, alpha, test)
    psi = model.psi
    gap = abs(0.5 - model.theta)
    c = stats.norm.isf(alpha / 2) / 2 if test == "chi2" else math.sqrt(math.log(2 / alpha) / 2)
    floor_target = (1 + target) / 2
    s = math.sqrt(math.log(1 / (1 - floor_target)) / 2)
    # No table beyond what max_n pairs could reach (memory); the bound is then weaker.
    reach_of_max_n = int(window(np.array([max_n]), psi)[1][0])
    table_end = min(math.ceil(((c + s) / gap) ** 2) + 1, reach_of_max_n)
    margin = max(0.0, gap * math.sqrt(table_end) - c)
    tail_bound = -math.expm1(-2 * margin**2)
    rates = model.ensure(table_end)[: table_end + 1]
    upper = np.maximum.accumulate(rates)
    lower = np.minimum(np.minimum.accumulate(rates[::-1])[::-1], tail_bound)

    def upper_power(n: int) -> float:
        return float(expected(np.array([n]), psi, upper, beyond=1.0)[0])

    def lower_power(n: int) -> float:
        return float(expected(np.array([n]), psi, lower, beyond=tail_bound)[0])

    if upper_power(max_n) < target:
        raise CalculatorError(f"the plan needs more pairs than {bound}: {too_small}.")
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
        raise CalculatorError(f"the plan needs {n:,} pairs, more than {bound}: {too_small}.")
    dips = candidates[(candidates > n) & (powers < target)]
    achieved = float(powers[reached[0]]) if reached.size else float(model.power(np.array([n]))[0])
    return RequiredN(
        n=n,
        power=achieved,
        non_monotone=bool(dips.size),
        stable_n=int(dips[-1]) + 1 if dips.size else n,
    )


def _pairs(count: int) -> str:
    """A count of pairs for a message: 1,234,567, or 2.4e+171 when it has over 15 digits."""
    return f"{count:,}" if count < 10**15 else f"{float(count):.2g}"


def _search_limit(psi: float, max_n: int) -> tuple[int, str]:
    """The largest n a search considers, and how a message names that bound.

    The search tabulates r(D) from D = 0 to past the window of its largest n, and computes power
    at many n near the answer, so that n is the largest whose window ends below half of
    :data:`MAX_TABULATED`; with much disagreement this is less than `max_n` (about 131,000 pairs
    when the systems always disagree).
    """

    def fits(n: int) -> bool:
        return int(window(np.array([n]), psi)[1][0]) < _SEARCH_TABULATED

    if fits(max_n):
        return max_n, f"`max_n` = {max_n:,} pairs"
    low, high = 0, max_n  # fits(0) holds, fits(max_n) does not
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low, (
        f"the {low:,} pairs a search considers when the systems disagree on {psi * 100:.3g}% "
        f"of the cases (it computes the test for at most {_SEARCH_TABULATED:,} discordant "
        "counts)"
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
        Number of paired cases, from 1 to :data:`~calculator.planning.inputs.MAX_N`.
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
    n = check_count(n, "n", maximum=MAX_N)
    if n == 0:
        raise CalculatorError("`n` must be at least 1, but got 0.")
    disagreement = check_probability(disagreement, "disagreement", open_interval=False)
    if disagreement == 0:
        raise CalculatorError(
            "`disagreement` must be above 0, but got 0: with no disagreement no difference can "
            "be detected."
        )
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    test = check_test(test)
    # Only the discordant counts holding all but 1e-15 of Bin(n, psi) matter: O(sqrt(n)) per try.
    low, high = (int(end[0]) for end in window(np.array([n]), disagreement))
    discordant = np.arange(low, high + 1)
    weights = stats.binom.pmf(discordant, n, disagreement)
    limits = limits_between(low, high, alpha, test)

    def shortfall(delta: float) -> float:
        theta = (disagreement + delta) / (2 * disagreement)
        return float(weights @ conditional_power(discordant, theta, limits)) - power

    if shortfall(disagreement) < 0:
        raise CalculatorError(
            f"{n:,} pairs cannot reach power {power:g} when the systems disagree on "
            f"{disagreement:g} of the cases, even if one system wins every disagreement: "
            "add pairs or lower the target power."
        )
    if shortfall(0.0) >= 0:
        return 0.0
    # Bracket around the normal approximation, (z_{1-alpha/2} + z_power) sqrt(psi / n), when it
    # holds the root: far fewer steps than from [0, psi] when n is large.
    guess = (stats.norm.isf(alpha / 2) + stats.norm.ppf(power)) * math.sqrt(disagreement / n)
    low, high = 0.0, disagreement
    if guess > 0 and 2 * guess < disagreement:
        if shortfall(guess / 2) < 0:
            low = guess / 2
        if shortfall(2 * guess) >= 0:
            high = 2 * guess
    return float(optimize.brentq(shortfall, low, high, xtol=1e-9))
