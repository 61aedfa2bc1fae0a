"""McNemar's exact unconditional test (Suissa & Shuster), with Berger & Boos's restriction.

The exact conditional test fixes the number of discordant pairs m = b + c; this one does not. Under
the null hypothesis the discordant cells are equally likely, each with probability pi / 2, where
pi, the chance that a case is discordant, is a nuisance parameter. The p-value is the largest
chance, over pi, of a table at least as far from the null as the one observed. Berger & Boos
search pi only within a 1 - gamma confidence interval and add gamma, which keeps the test valid
and makes it less conservative.

- :data:`MAX_UNCONDITIONAL_N`: the largest table (in cases) the test is computed for.
- :class:`UnconditionalTestResult`, :func:`mcnemar_unconditional`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
from scipy import optimize, special

from calculator._validation import check_bounded_count, check_choice, check_count, message
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.tails import beta_quantile

__all__ = [
    "DEFAULT_GAMMA",
    "DEFAULT_GRID_POINTS",
    "MAXIMISATIONS",
    "MAX_UNCONDITIONAL_N",
    "UnconditionalTestResult",
    "mcnemar_unconditional",
]

#: Berger & Boos's gamma by default, as in Fagerland, Lydersen & Laake's R package
#: contingencytables (``McNemar_exact_unconditional_test_paired_2x2``).
DEFAULT_GAMMA = 1e-4
#: Equally spaced values of the nuisance parameter searched first, as contingencytables does.
DEFAULT_GRID_POINTS = 1000
#: "grid": the largest value on the grid; "refined": that, then a bounded search between the
#: grid points either side of it (never below the grid's value).
MAXIMISATIONS = ("refined", "grid")
#: The largest number of cases the test is computed for. Measured on the development machine
#: (2 shared cores), the slowest tables at n = 250,000 (b and c near n/4, or near n/2 and
#: unequal) took 1.0 to 1.6 s with the default grid; this bound leaves a margin for slower
#: machines. The measurement: ``python -c "import time; from calculator.unconditional import
#: mcnemar_unconditional as u; t = time.perf_counter(); u(124990, 62500, 62510, 0, gamma=0);
#: print(time.perf_counter() - t)"``.
MAX_UNCONDITIONAL_N = 200_000
# At gamma = 0, a second grid covers the 1 - _NEAR_GAMMA interval for pi.
_NEAR_GAMMA = 1e-6
# Grids are evaluated in blocks of this many values of pi, to bound the memory of a block.
_BLOCK = 16


@dataclass(frozen=True, slots=True, kw_only=True)
class UnconditionalTestResult:
    """Result of McNemar's exact unconditional test (two-sided).

    Attributes
    ----------
    statistic : float or None
        The observed (b - c)^2 / (b + c); None without discordant pairs (then p = 1).
    pvalue : float
        The largest tail probability over the nuisance parameter searched, plus `gamma`,
        capped at 1.
    gamma : float
        Berger & Boos's gamma; 0 searches every pi from 0 to 1 and adds nothing.
    nuisance_low, nuisance_high : float
        The range of pi searched: the 1 - gamma Clopper-Pearson interval for the share of
        discordant cases, or 0 to 1 when gamma is 0.
    nuisance_at_maximum : float or None
        The pi at which the tail probability is largest; None without discordant pairs.
    grid_points : int
        Values of pi on the grid.
    maximisation : str
        "refined" or "grid".
    n : int
        Cases in the table.
    """

    statistic: float | None
    pvalue: float
    gamma: float
    nuisance_low: float
    nuisance_high: float
    nuisance_at_maximum: float | None
    grid_points: int
    maximisation: str
    n: int

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def mcnemar_unconditional(
    a: int,
    b: int,
    c: int,
    d: int,
    *,
    gamma: float = DEFAULT_GAMMA,
    grid_points: int = DEFAULT_GRID_POINTS,
    maximisation: str = "refined",
) -> UnconditionalTestResult:
    """McNemar's exact unconditional test of equal pass rates, two-sided.

    Parameters
    ----------
    a, b, c, d : int
        Both pass, only A passes, only B passes, both fail; n = a + b + c + d is at most
        :data:`MAX_UNCONDITIONAL_N`.
    gamma : float
        Berger & Boos's gamma, from 0 (no restriction) to below 1; 0.0001 by default.
    grid_points : int
        Equally spaced values of the nuisance parameter, 2 to 100,000 (1,000), with
        n x grid_points at most :data:`MAX_UNCONDITIONAL_N` x 1,000.
    maximisation : {"refined", "grid"}
        Take the largest grid value ("grid", as contingencytables does), or refine it by a
        bounded search between the grid points either side of it ("refined").

    Returns
    -------
    UnconditionalTestResult

    Raises
    ------
    CalculatorError
        On a count that is not a non-negative integer, n above :data:`MAX_UNCONDITIONAL_N`,
        gamma outside [0, 1), or a grid size outside 2 to 100,000.

    Notes
    -----
    The statistic is T(x, y) = (x - y)^2 / (x + y) for discordant counts x and y, undefined at
    x + y = 0 (such tables are never counted as extreme). Under the null hypothesis
    (x, y, n - x - y) is trinomial with probabilities (pi/2, pi/2, 1 - pi), so, with
    M ~ Binomial(n, pi) the number of discordant cases and x | M = m ~ Binomial(m, 1/2),

        P(pi) = sum_m P[M = m] q_m,   q_m = P[T(x, m - x) >= T(b, c) | M = m],

    and the p-value is min(1, max_{pi in C} P(pi) + gamma), where C is the two-sided
    1 - gamma Clopper-Pearson interval for pi from b + c out of n (Berger & Boos), or [0, 1]
    when gamma = 0 (Suissa & Shuster). The comparison T >= T(b, c) is made in integers,
    (2x - m)^2 (b + c) >= (b - c)^2 m, so ties are never lost to rounding; q_m is then a
    doubled binomial tail. The maximum is searched on `grid_points` equally spaced values
    from the ends of C (contingencytables' grid), then refined between the neighbours of the
    best one. At gamma = 0 a second grid of the same size covers the 1 - 10^-6
    Clopper-Pearson interval, since with many cases and few discordant ones the peak of P
    can be narrower than the spacing of a grid over [0, 1]. A grid can still miss a peak
    narrower than its spacing elsewhere; the restricted search of Berger & Boos (the
    default) is the better-conditioned one. Without discordant pairs no table is as extreme
    (T is undefined) and p = 1.

    Cost: for each value of pi, the terms with m within 6 sqrt(n) + 1 of n pi (the rest weigh
    below 1e-31), so n is refused above :data:`MAX_UNCONDITIONAL_N`, where a call with the
    default grid takes about a second on one core, and n x grid_points above 1,000 times that.

    References
    ----------
    .. [1] Suissa, S. & Shuster, J. J. (1991). The 2 x 2 matched-pairs trial: exact
           unconditional design and analysis. Biometrics 47(2), 361-372.
    .. [2] Berger, R. L. & Boos, D. D. (1994). P values maximised over a confidence set for
           the nuisance parameter. Journal of the American Statistical Association 89(427),
           1012-1016.
    .. [3] Fagerland, M. W., Lydersen, S. & Laake, P. (2017). Statistical Analysis of
           Contingency Tables. Chapman & Hall/CRC, Chapter 8 (R package contingencytables).

    Examples
    --------
    >>> r = mcnemar_unconditional(5, 0, 1, 8, maximisation="grid")
    >>> round(r.pvalue, 6), r.statistic
    (0.542071, 1.0)
    """
    a, b, c, d = (check_count(v, name) for v, name in zip((a, b, c, d), "abcd", strict=True))
    gamma = _check_gamma(gamma)
    grid_points = check_bounded_count(grid_points, "grid_points", 2, 100_000)
    check_choice(maximisation, "maximisation", MAXIMISATIONS)
    n = a + b + c + d
    _check_cost(n, grid_points)
    low, high = _nuisance_range(b + c, n, gamma)
    common = {"gamma": gamma, "grid_points": grid_points, "maximisation": maximisation, "n": n}
    if b + c == 0:
        return UnconditionalTestResult(
            statistic=None,
            pvalue=1.0,
            nuisance_low=low,
            nuisance_high=high,
            nuisance_at_maximum=None,
            **common,
        )
    tails, log_choose = _conditional_tails(b, c, n), _log_choose(n)
    grid = _grid(b + c, n, gamma, grid_points)
    values = _tail_probabilities(grid, tails, log_choose)
    best = int(np.argmax(values))
    where, largest = float(grid[best]), float(values[best])
    if maximisation == "refined":
        where, largest = _refine(grid, best, tails, log_choose, where, largest)
    return UnconditionalTestResult(
        statistic=(b - c) ** 2 / (b + c),
        pvalue=min(1.0, largest + gamma),
        nuisance_low=low,
        nuisance_high=high,
        nuisance_at_maximum=where,
        **common,
    )


def _check_gamma(gamma: object) -> float:
    allowed = "a number from 0 to below 1"
    if isinstance(gamma, bool) or not isinstance(gamma, int | float | np.floating | np.integer):
        raise CalculatorTypeError(message("gamma", allowed, gamma))
    value = float(gamma)
    if not 0.0 <= value < 1.0:  # also NaN
        raise CalculatorError(message("gamma", allowed, gamma))
    return value


def _check_cost(n: int, grid_points: int) -> None:
    """Refuse a table whose test would take more than about a second or two."""
    if n > MAX_UNCONDITIONAL_N:
        allowed = (
            f"at most {MAX_UNCONDITIONAL_N:,} cases for the exact unconditional test "
            "(its cost grows with n; the exact conditional and mid-p tests have no such bound)"
        )
        raise CalculatorError(message("n", allowed, n))
    budget = MAX_UNCONDITIONAL_N * DEFAULT_GRID_POINTS
    if n * grid_points > budget:
        allowed = f"at most {budget // max(n, 1):,} for a table of {n:,} cases (n x grid_points "
        raise CalculatorError(message("grid_points", f"{allowed}at most {budget:,})", grid_points))


def _grid(m: int, n: int, gamma: float, grid_points: int) -> np.ndarray:
    """The values of pi searched first: equally spaced over the nuisance range; at gamma = 0
    also over the 1 - 10^-6 Clopper-Pearson interval, where a narrow peak could fall between
    the points of a grid over [0, 1]."""
    grid = np.linspace(*_nuisance_range(m, n, gamma), grid_points)
    if gamma == 0.0:
        near = np.linspace(*_nuisance_range(m, n, _NEAR_GAMMA), grid_points)
        grid = np.unique(np.concatenate([grid, near]))
    return grid


def _nuisance_range(m: int, n: int, gamma: float) -> tuple[float, float]:
    """The two-sided 1 - gamma Clopper-Pearson interval for pi from m out of n; [0, 1] at
    gamma = 0 (and at n = 0, where there is nothing to estimate from)."""
    if gamma == 0.0 or n == 0:
        return 0.0, 1.0
    low = 0.0 if m == 0 else float(beta_quantile(m, n - m + 1, gamma / 2))
    high = 1.0 if m == n else float(beta_quantile(m + 1, n - m, gamma / 2, upper=True))
    return low, high


def _conditional_tails(b: int, c: int, n: int) -> np.ndarray:
    """q_m for m = 0..n: the chance, given m discordant cases, that T is at least T(b, c)."""
    m = np.arange(n + 1, dtype=np.int64)
    gap2, seen = (b - c) ** 2, b + c
    if gap2 == 0:  # T(b, c) = 0: every table with a discordant case is as extreme
        return (m > 0).astype(np.float64)
    # The largest x <= m/2 with (m - 2x)^2 seen >= gap2 m, from a float guess checked in
    # integers (all below 2^63 for n up to MAX_UNCONDITIONAL_N).
    guess = np.floor((m - np.sqrt(gap2 * m / seen)) / 2).astype(np.int64)
    for _ in range(2):
        up = guess + 1
        guess = np.where(((m - 2 * up) ** 2 * seen >= gap2 * m) & (2 * up <= m), up, guess)
    down = (guess >= 0) & ((m - 2 * guess) ** 2 * seen < gap2 * m)
    guess = np.where(down, guess - 1, guess)
    # The two tails x <= k and x >= m - k are disjoint here (k < m/2), each of size cdf(k).
    tails = np.where(guess >= 0, 2.0 * special.bdtr(np.maximum(guess, 0), m, 0.5), 0.0)
    tails[0] = 0.0  # no discordant case: T is undefined, never as extreme
    return tails


def _log_choose(n: int) -> np.ndarray:
    """log C(n, m) for m = 0..n."""
    m = np.arange(n + 1, dtype=np.float64)
    return special.gammaln(n + 1.0) - special.gammaln(m + 1.0) - special.gammaln(n - m + 1.0)


def _tail_probabilities(pis: np.ndarray, tails: np.ndarray, log_choose: np.ndarray) -> np.ndarray:
    """P(pi) = sum_m Binomial(n, pi)(m) q_m at each pi in `pis`.

    For a block of values of pi from p0 to p1, only m within 6 sqrt(n) + 1 of [n p0, n p1] is
    summed: by Hoeffding's inequality the rest has probability below 2 exp(-72), about 1e-31.
    """
    n = len(tails) - 1
    out = np.empty(len(pis))
    reach = 6.0 * math.sqrt(n) + 1.0
    for start in range(0, len(pis), _BLOCK):
        block = pis[start : start + _BLOCK]
        first = max(0, math.floor(n * float(block.min()) - reach))
        last = min(n, math.ceil(n * float(block.max()) + reach))
        m = np.arange(first, last + 1, dtype=np.float64)
        log_pmf = (
            log_choose[first : last + 1]
            + special.xlogy(m, block[:, None])
            + special.xlog1py(n - m, -block[:, None])
        )
        out[start : start + _BLOCK] = np.exp(log_pmf) @ tails[first : last + 1]
    return np.minimum(out, 1.0)


def _refine(
    grid: np.ndarray,
    best: int,
    tails: np.ndarray,
    log_choose: np.ndarray,
    where: float,
    largest: float,
) -> tuple[float, float]:
    """The maximum of P between the grid points either side of `best`, if above the grid's."""
    left, right = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    if right <= left:
        return where, largest
    found = optimize.minimize_scalar(
        lambda pi: -float(_tail_probabilities(np.array([pi]), tails, log_choose)[0]),
        bounds=(float(left), float(right)),
        method="bounded",
        options={"xatol": 1e-12 * max(1.0, float(right))},
    )
    if -found.fun > largest:
        return float(found.x), float(-found.fun)
    return where, largest
