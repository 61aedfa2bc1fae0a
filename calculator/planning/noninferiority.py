"""Planning a non-inferiority comparison: the power of n pairs, and the pairs a margin needs.

The test is Tango's (1998) score test of H0: pA - pB >= margin against H1: pA - pB < margin
(:func:`calculator.noninferiority.score_test`, one-sided at level alpha), the test behind
``analyze(..., margin=...)``. Its power is computed exactly, by enumeration of its rejection region,
as for the McNemar plans: for each discordant count D the test rejects exactly when at least
c*(D) of the D discordant pairs favour B, so

    power(n) = sum_D P[D] P[C >= c*(D) | D],   D ~ Bin(n, psi),  C | D ~ Bin(D, p01/psi),

summed over the D carrying all but 1e-15 of the probability. Here p10 is the share of cases only A
passes and p01 the share only B passes, as in the rest of :mod:`calculator.planning`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from calculator._lazy_scipy import stats
from calculator._validation import check_count, check_probability, message
from calculator.errors import CalculatorError
from calculator.noninferiority import check_alpha, score_test
from calculator.planning.inputs import DEFAULT_MAX_N, MAX_N
from calculator.planning.power import window
from calculator.tango import tango_scores

__all__ = ["NonInferiorityPlan", "boundary_size", "noninferiority_plan", "noninferiority_power"]


def _check_effect(p10: object, p01: object, margin: object) -> tuple[float, float, float]:
    original = margin
    p10 = check_probability(p10, "p10", open_interval=False)
    p01 = check_probability(p01, "p01", open_interval=False)
    if p10 + p01 > 1 + 1e-12:
        raise CalculatorError(
            f"`p10` + `p01` must be at most 1 (both are shares of the same cases), but got "
            f"{p10:g} + {p01:g} = {p10 + p01:g}."
        )
    try:
        margin = check_probability(margin, "margin")
    except ValueError:
        margin = math.nan  # reported below with the narrower range
    if not 0 < margin < 0.5:
        raise CalculatorError(message("margin", "a number strictly between 0 and 0.5", original))
    return p10, p01, margin


def _rejects(b: int, c: int, n: int, margin: float, log_alpha: float) -> bool:
    """Whether the non-inferiority score test rejects at (b, c) among n pairs."""
    return score_test(b, c, n, -margin, "greater")[1] <= log_alpha


def _thresholds(n: int, low: int, high: int, margin: float, alpha: float) -> np.ndarray:
    """c*(D) for D = low..high: the fewest pairs favouring B that reject; D + 1 if none do.

    For fixed D the test's z rises with c (one more pair favouring B and one fewer favouring A),
    so the rejected c form an upper run. c*(D) moves by a pair or so from one D to the next, so
    each D starts from the last answer and steps: about two score tests per D.
    """
    log_alpha = math.log(alpha)
    thresholds = np.empty(high - low + 1, dtype=np.int64)
    # First D: bisection for the smallest rejecting c in [0, D + 1].
    below, above = -1, low + 1  # not rejected at below (or none), rejected at above (or none)
    while above - below > 1:
        middle = (below + above) // 2
        if _rejects(low - middle, middle, n, margin, log_alpha):
            above = middle
        else:
            below = middle
    guess = above
    for index, discordant in enumerate(range(low, high + 1)):
        if guess > discordant:  # none rejected at the last D: here, if any, c = D does
            guess = discordant if _rejects(0, discordant, n, margin, log_alpha) else discordant + 1
        if guess <= discordant and _rejects(discordant - guess, guess, n, margin, log_alpha):
            while guess > 0 and _rejects(discordant - guess + 1, guess - 1, n, margin, log_alpha):
                guess -= 1
        else:
            while guess <= discordant and not _rejects(
                discordant - guess, guess, n, margin, log_alpha
            ):
                guess += 1
        thresholds[index] = guess
    return thresholds


def _tight_window(n: int, psi: float) -> tuple[int, int]:
    """Discordant counts outside [low, high] have probability at most 1e-17 on each side.

    Binomial quantiles, inside the Bernstein window of :func:`window`: about a third narrower,
    which matters here, where each count costs two score tests. The upper end comes from the
    lower quantile of n - D ~ Bin(n, 1 - psi), as scipy's isf is unreliable this far out.
    """
    bound_low, bound_high = (int(end[0]) for end in window(np.array([n]), psi))
    low = int(stats.binom.ppf(1e-17, n, psi)) if psi > 0 else 0
    high = n - int(stats.binom.ppf(1e-17, n, 1 - psi)) if psi < 1 else n
    return max(low, bound_low), min(high, bound_high)


def _power(n: int, p10: float, p01: float, margin: float, alpha: float) -> float:
    psi = p10 + p01
    if psi == 0:  # no discordant pair, ever: the test decides on (0, 0, n) alone
        return 1.0 if _rejects(0, 0, n, margin, math.log(alpha)) else 0.0
    low, high = _tight_window(n, psi)
    discordant = np.arange(low, high + 1)
    thresholds = _thresholds(n, low, high, margin, alpha)
    weights = stats.binom.pmf(discordant, n, psi)
    # P[C >= c*] with C ~ Bin(D, p01/psi); sf(c* - 1) is 0 when c* = D + 1.
    favour_b = stats.binom.sf(thresholds - 1, discordant, p01 / psi)
    return min(1.0, max(0.0, float(weights @ favour_b)))


def noninferiority_power(
    n: int, p10: float, p01: float, *, margin: float, alpha: float = 0.05
) -> float:
    """Power of Tango's non-inferiority score test of B against A for n pairs, exactly.

    Parameters
    ----------
    n : int
        Number of paired cases, from 1 to :data:`~calculator.planning.inputs.MAX_N`.
    p10, p01 : float
        True shares of cases only A passes and only B passes (p10 + p01 <= 1; 0 is allowed,
        as the test can decide with no discordant pair).
    margin : float
        Delta, strictly between 0 and 0.5: B is shown non-inferior when pA - pB < Delta.
    alpha : float
        One-sided significance level, strictly between 0 and 0.5.

    Returns
    -------
    float
        P(the test rejects H0: pA - pB >= margin) when the shares are p10 and p01.

    Notes
    -----
    See the module's docstring for the sum. At the null boundary (p01 - p10 = -margin) the
    power is the test's actual size, which for this asymptotic test can exceed alpha a little.

    References
    ----------
    .. [1] Tango, T. (1998). Equivalence test and confidence interval for the difference in
           proportions for the paired-sample design. Statistics in Medicine 17(8), 891-908.
    .. [2] Nam, J. (1997). Establishing equivalence of two treatments and sample size
           requirements in matched-pairs design. Biometrics 53(4), 1422-1430.

    Examples
    --------
    With no discordant pair at all, n cases where A never beats B show non-inferiority at a
    one-point margin once n Delta / (1 - Delta) > 1.645^2, that is from n = 268 on:

    >>> [noninferiority_power(n, 0.0, 0.0, margin=0.01) for n in (267, 268)]
    [0.0, 1.0]
    """
    n = check_count(n, "n", minimum=1, maximum=MAX_N)
    p10, p01, margin = _check_effect(p10, p01, margin)
    alpha = check_alpha(alpha)
    return _power(n, p10, p01, margin, alpha)


# --- sample size --------------------------------------------------------------------------------

# A search evaluates the power at about ten sizes, each costing two score tests per discordant
# count in its window; windows wider than this are refused, which bounds a search to seconds.
_SEARCH_WINDOW = 8_192
_SECANT_STEPS = 12


@dataclass(frozen=True, slots=True, kw_only=True)
class NonInferiorityPlan:
    """A non-inferiority comparison, sized or with its power. Build it with
    :func:`noninferiority_plan`.

    Attributes
    ----------
    p10, p01 : float
        True shares of cases only A passes and only B passes.
    margin : float
        Delta: B is to be shown no worse than A by more than this (pA - pB < Delta).
    alpha : float
        One-sided significance level.
    target_power : float
        The power the plan aims for.
    solved_for : str
        "n" (the smallest n found reaching `target_power`) or "power" (the power at a given n).
    n : int
        The required n, or the n given.
    power : float
        Exact power of Tango's score test at `n`.
    approximate_n : int or None
        Nam's (1997) normal approximation to the required n; None when no n reaches the
        target by it (B truly worse by the margin or more).
    stable_n : int
        When solved for n: the size from which the power stays at or above the target (equal
        to `n` unless some larger size falls short again: the saw-tooth); else `n`.
    size_when_b_never_wins : float
        The test's exact size at `n` at the null boundary where B never beats A (p10 = margin,
        p01 = 0): the asymptotic score test is liberal there (about 7% at alpha = 5%).
    """

    p10: float
    p01: float
    margin: float
    alpha: float
    target_power: float
    solved_for: str
    n: int
    power: float
    approximate_n: int | None
    stable_n: int
    size_when_b_never_wins: float

    @property
    def non_monotone(self) -> bool:
        """True when some size above `n` falls below the target power again."""
        return self.stable_n > self.n

    @property
    def difference(self) -> float:
        """pA - pB = p10 - p01, the true difference in pass rates, A minus B (the direction
        of every difference the calculator prints)."""
        return self.p10 - self.p01

    def to_dict(self) -> dict[str, object]:
        """Inputs and results as plain JSON types."""
        return {
            "test": "tango-score non-inferiority",
            "p10": self.p10,
            "p01": self.p01,
            "disagreement": self.p10 + self.p01,
            "difference_a_minus_b": self.difference,
            "margin": self.margin,
            "alpha": self.alpha,
            "target_power": self.target_power,
            "solved_for": self.solved_for,
            "n": self.n,
            "power": self.power,
            "approximate_n": self.approximate_n,
            "stable_n": self.stable_n,
            "size_when_b_never_wins": self.size_when_b_never_wins,
        }


def _approximate_n(p10: float, p01: float, margin: float, alpha: float, power: float):
    """Nam's (1997) sample size for the score test, or None when B is worse by the margin.

    With delta = p10 - p01 (A minus B) and v0 = 2 q + Delta (1 - Delta), q the restricted
    estimate of p01 under pA - pB = Delta in the limit, the test's z is about
    (sqrt(n) (Delta - delta) - z_alpha sqrt(v0)) / sqrt(psi - delta^2) standard normal, so
    n = ((z_alpha sqrt(v0) + z_power sqrt(psi - delta^2)) / (Delta - delta))^2.
    """
    delta, psi = p10 - p01, p10 + p01
    if delta >= margin:
        return None
    quad_b = -psi + (2 - p10 + p01) * margin
    quad_c = -p01 * margin * (1 - margin)
    q = (math.sqrt(quad_b**2 - 8 * quad_c) - quad_b) / 4
    null_variance = 2 * q + margin * (1 - margin)
    root = stats.norm.isf(alpha) * math.sqrt(null_variance) + stats.norm.ppf(power) * math.sqrt(
        max(0.0, psi - delta**2)
    )
    return max(1, math.ceil((max(0.0, root) / (margin - delta)) ** 2))


def _search_limit(psi: float, max_n: int) -> tuple[int, str]:
    """The largest n a search considers: `max_n`, or less where the windows grow too wide."""

    def fits(n: int) -> bool:
        low, high = (int(end[0]) for end in window(np.array([n]), psi))
        return high - low + 1 <= _SEARCH_WINDOW

    if fits(max_n):
        return max_n, f"`max_n` = {max_n:,} pairs"
    low, high = 1, max_n
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low, (
        f"the {low:,} pairs a non-inferiority search considers when the systems disagree on "
        f"{psi * 100:.3g}% of the cases"
    )


def _required_n(p10, p01, margin, alpha, target, max_n) -> int:
    """Smallest n found with power >= target: secant steps on the power, then unit steps.

    The power of a discrete test is saw-toothed in n, but at the sizes where the score test is
    planned the teeth are small beside the slope, so a secant search from Nam's approximation
    lands within a few pairs, and unit steps then give an n reaching the target whose
    predecessor does not.
    """
    approximate = _approximate_n(p10, p01, margin, alpha, target)
    limit, bound = _search_limit(p10 + p01, max_n)
    short = f"the margin {margin:g} with A − B = {p10 - p01:+g} needs more pairs than {bound}"
    if approximate is None:
        raise CalculatorError(
            f"B is worse than A by {p10 - p01:g}, at least the margin {margin:g}: no number of "
            "pairs shows non-inferiority, the power stays at most about alpha."
        )
    if approximate > 4 * limit:
        raise CalculatorError(f"{short} (about {approximate:,} by Nam's approximation).")

    def gap(n: int) -> float:
        return _power(n, p10, p01, margin, alpha) - target

    if gap(limit) < 0:
        raise CalculatorError(f"{short}.")
    below, above = 0, limit  # gap < 0 at below (n = 0 has no power), >= 0 at above
    # The normal model's slope of the power in n, phi(z_power) (z_alpha + z_power) / (2 n),
    # gives the first step; later steps are secants through the last two sizes.
    z_power = stats.norm.ppf(target)
    slope_times_n = stats.norm.pdf(z_power) * (stats.norm.isf(alpha) + z_power) / 2
    n = min(approximate, limit)
    previous: tuple[int, float] | None = None
    for _ in range(_SECANT_STEPS):
        value = gap(n)
        below, above = (n, above) if value < 0 else (below, n)
        if above - below <= 1:
            break
        if previous is None or previous[1] == value:
            candidate = n - round(value * n / max(slope_times_n, 1e-3))
        else:
            candidate = n - round(value * (n - previous[0]) / (value - previous[1]))
        previous = (n, value)
        if not below < candidate < above:
            candidate = (below + above) // 2
        n = candidate
    return _smallest_reaching(above, gap)


#: Sizes checked on either side of a size where the power crosses the target: the saw-tooth's
#: teeth are a few pairs wide at the sizes the score test is planned for. Past
#: :data:`_SMALL_PLAN` pairs the teeth are far smaller than the power's rise over a few pairs,
#: and each evaluation is dearer, so :data:`_TOOTH_LARGE` sizes are checked.
_TOOTH = 32
_TOOTH_LARGE = 4
_SMALL_PLAN = 10_000


def _tooth(n: int) -> int:
    return _TOOTH if n <= _SMALL_PLAN else _TOOTH_LARGE


def _smallest_reaching(n: int, gap) -> int:  # noqa: ANN001 - gap: Callable[[int], float]
    """The smallest size reaching the target below `n` (where it is reached): sizes are
    stepped down until :func:`_tooth` in a row fall short, so a size below a dip is found."""
    best, short, tooth = n, 0, _tooth(n)
    while n > 1 and short < tooth:
        n -= 1
        if gap(n) >= 0:
            best, short = n, 0
        else:
            short += 1
    return best


def _stable_n(n: int, gap) -> int:  # noqa: ANN001 - gap: Callable[[int], float]
    """The size from which the power stays at or above the target: one past the last size
    above `n` that falls short, looking until :func:`_tooth` sizes in a row reach it."""
    stable, reached, size, tooth = n, 0, n, _tooth(n)
    while reached < tooth and size < MAX_N:
        size += 1
        if gap(size) < 0:
            stable, reached = size + 1, 0
        else:
            reached += 1
    return stable


def noninferiority_plan(
    *,
    p10: float,
    p01: float,
    margin: float,
    alpha: float = 0.05,
    power: float = 0.8,
    n: int | None = None,
    max_n: int = DEFAULT_MAX_N,
) -> NonInferiorityPlan:
    """Size a non-inferiority comparison of B against A, or find the power of a given size.

    Parameters
    ----------
    p10, p01 : float
        True shares of cases only A passes and only B passes.
    margin : float
        Delta, strictly between 0 and 0.5 (0.01 = one point): B is to be shown no worse than
        A by more than Delta. Choose it before seeing the data.
    alpha : float
        One-sided significance level, strictly between 0 and 0.5.
    power : float
        Target power, in (0, 1).
    n : int, optional
        Number of pairs (1 to :data:`~calculator.planning.inputs.MAX_N`). Omitted: the
        smallest n reaching `power` is searched for.
    max_n : int
        Largest n searched; with much disagreement the search stops earlier (windows of at most
        8,192 discordant counts), to bound its time, and says so when it needs more.

    Returns
    -------
    NonInferiorityPlan

    Raises
    ------
    TypeError, ValueError
        Naming the input and why, when B is worse than A by the margin or more (no n reaches
        the power) or when the plan needs more pairs than the search considers.

    Notes
    -----
    Power is exact (:func:`noninferiority_power`); the search starts from Nam's (1997) normal
    approximation, reported as `approximate_n`. Power is saw-toothed in n, as for the McNemar
    plans: the required n is the smallest n whose power reaches the target (sizes are
    stepped down past a dip until 32 in a row fall short; 4 past 10,000 pairs, where the
    teeth are far smaller than the power's rise), and `stable_n` is where it stays above.
    The score test is liberal where B never beats A: `size_when_b_never_wins` is its exact
    size there at n.

    Examples
    --------
    Equal pass rates, 20% disagreement, a margin of 5 points: Nam's approximation gives 507
    pairs; the exact power first reaches 80% at 501.

    >>> result = noninferiority_plan(p10=0.1, p01=0.1, margin=0.05)
    >>> result.approximate_n, result.n, round(result.power, 4)
    (507, 501, 0.8002)

    With 4% disagreement and a 2-point margin, 662 pairs reach 80% though sizes up to 676 dip
    below it again:

    >>> result = noninferiority_plan(p10=0.02, p01=0.02, margin=0.02)
    >>> result.n, result.non_monotone, result.stable_n >= 676
    (662, True, True)
    """
    p10, p01, margin = _check_effect(p10, p01, margin)
    alpha = check_alpha(alpha)
    power = check_probability(power, "power")
    max_n = check_count(max_n, "max_n", minimum=1, maximum=MAX_N)
    approximate = _approximate_n(p10, p01, margin, alpha, power)
    if n is None:
        n = _required_n(p10, p01, margin, alpha, power, max_n)
        solved_for = "n"
        stable = _stable_n(n, lambda size: _power(size, p10, p01, margin, alpha) - power)
    else:
        n = check_count(n, "n", minimum=1, maximum=MAX_N)
        solved_for = "power"
        stable = n
    return NonInferiorityPlan(
        p10=p10,
        p01=p01,
        margin=margin,
        alpha=alpha,
        target_power=power,
        solved_for=solved_for,
        n=n,
        power=_power(n, p10, p01, margin, alpha),
        approximate_n=approximate,
        stable_n=stable,
        size_when_b_never_wins=_power(n, margin, 0.0, margin, alpha),
    )


#: The widest window of counts :func:`boundary_size` sums over (about 1 ms, the decision's time
#: budget): past about 2 million cases at a 5-point margin (11 million at 1 point), where the
#: size has come close to alpha, it is not summed.
BOUNDARY_WINDOW = 8_192


def boundary_size(
    n: int, margin: float, alpha: float, *, superiority: bool = False
) -> float | None:
    """The exact size of Tango's margin test for n pairs where one system never beats the other
    at the null boundary, or None where the sum would be dear.

    Non-inferiority (H0: pA - pB >= margin) at p10 = margin, p01 = 0, the plan's
    `size_when_b_never_wins`; with `superiority` (H0: pA - pB >= -margin) at p10 = 0,
    p01 = margin. One discordant cell holds k ~ Bin(n, margin) cases, and the size is the mass
    of the k the test rejects at, decided as :func:`calculator.noninferiority.score_test` does.
    None when those k span more than :data:`BOUNDARY_WINDOW` (:func:`~.power.window`).

    >>> round(boundary_size(300, 0.02, 0.05), 4), boundary_size(10**12, 0.05, 0.05) is None
    (0.0602, True)
    """
    low, high = (int(end[0]) for end in window(np.array([n]), margin))
    if high - low + 1 > BOUNDARY_WINDOW:
        return None
    counts = np.arange(low, high + 1, dtype=np.float64)
    # T(margin) of the tables with k cases only one system passes: (b, c) = (k, 0) for
    # non-inferiority, whose p is Phi(T); (0, k) for superiority, whose p is Phi(-T) (the mirror).
    score = tango_scores(counts, 0.0, float(n), margin)
    log_p = special.log_ndtr(-score if superiority else score)
    rejected = counts[log_p <= math.log(alpha)]
    return float(stats.binom.pmf(rejected, n, margin).sum())
