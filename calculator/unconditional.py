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
from scipy import special

from calculator._lazy_scipy import optimize
from calculator._validation import check_bounded_count, check_choice, check_count, message
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.tails import beta_quantile, half_cdf

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
# Below this a conditional tail is computed in the log domain, where it cannot underflow.
_TINY_TAIL = 1e-250
# At gamma = 0, a largest log P below this is computed again with every tail in the log domain.
_TINY_LOG_P = math.log(1e-240)
# Far tails are computed in blocks of this many rows of similar decay.
_FAR_BLOCK = 1024
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
    log10_pvalue : float
        Its base-10 log, computed in the log domain (finite where p underflows at gamma = 0).
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
    log10_pvalue: float
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

    P is summed in the log domain, so at gamma = 0 a p-value below the doubles still has its
    finite `log10_pvalue`; with gamma > 0, p is at least gamma.

    Cost: for each value of pi, the terms with m within 6 sqrt(n) + 1 of n pi (the rest weigh
    below 1e-31), so n is refused above :data:`MAX_UNCONDITIONAL_N`, where a call with the
    default grid took up to about 1.5 s on the development machine, and n x grid_points
    above 1,000 times that. One case is slower: at gamma = 0, a p-value below 1e-240 has its
    conditional tails computed again in the log domain (up to about 3 s at the bound).

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
            log10_pvalue=0.0,
            nuisance_low=low,
            nuisance_high=high,
            nuisance_at_maximum=None,
            **common,
        )
    grid = _grid(b + c, n, gamma, grid_points)
    where, largest = _maximum(grid, b, c, n, refine=maximisation == "refined", far=False)
    if gamma == 0.0 and largest < _TINY_LOG_P:  # p is tiny: every tail in the log domain
        where, largest = _maximum(grid, b, c, n, refine=maximisation == "refined", far=True)
    pvalue = min(1.0, math.exp(largest) + gamma)
    return UnconditionalTestResult(
        statistic=(b - c) ** 2 / (b + c),
        pvalue=pvalue,
        log10_pvalue=math.log10(pvalue) if gamma > 0 else largest / math.log(10.0),
        nuisance_low=low,
        nuisance_high=high,
        nuisance_at_maximum=where,
        **common,
    )


def _maximum(
    grid: np.ndarray, b: int, c: int, n: int, *, refine: bool, far: bool
) -> tuple[float, float]:
    """Where log P is largest on the grid (refined between its neighbours), and its value."""
    log_tails, log_choose = _conditional_tails(b, c, n, far=far), _log_choose(n)
    values = _log_tail_probabilities(grid, log_tails, log_choose)
    best = int(np.argmax(values))
    where, largest = float(grid[best]), float(values[best])
    if refine:
        where, largest = _refine(grid, best, log_tails, log_choose, where, largest)
    return where, largest


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


def _conditional_tails(b: int, c: int, n: int, *, far: bool) -> np.ndarray:
    """log q_m for m = 0..n: the log chance, given m discordant cases, that T >= T(b, c).

    Tails below 1e-250 are taken from the doubles (0 below about 1e-308) unless `far`, which
    computes them in the log domain: slower, and needed only when P itself is that small.
    """
    m = np.arange(n + 1, dtype=np.int64)
    gap2, seen = (b - c) ** 2, b + c
    if gap2 == 0:  # T(b, c) = 0: every table with a discordant case is as extreme
        return np.where(m > 0, 0.0, -np.inf)
    # The largest x <= m/2 with (m - 2x)^2 seen >= gap2 m, from a float guess checked in
    # integers (all below 2^63 for n up to MAX_UNCONDITIONAL_N).
    guess = np.floor((m - np.sqrt(gap2 * m / seen)) / 2).astype(np.int64)
    for _ in range(2):
        up = guess + 1
        guess = np.where(((m - 2 * up) ** 2 * seen >= gap2 * m) & (2 * up <= m), up, guess)
    down = (guess >= 0) & ((m - 2 * guess) ** 2 * seen < gap2 * m)
    guess = np.where(down, guess - 1, guess)
    # The two tails x <= k and x >= m - k are disjoint here (k < m/2), each of size cdf(k).
    tails = 2.0 * half_cdf(guess, m)
    with np.errstate(divide="ignore"):
        log_tails = np.log(tails)
    tiny = (guess >= 0) & (tails < _TINY_TAIL) & far
    if tiny.any():
        log_tails[tiny] = math.log(2.0) + _log_far_tail(guess[tiny], m[tiny])
    log_tails[0] = -np.inf  # no discordant case: T is undefined, never as extreme
    return log_tails


def _log_far_tail(k: np.ndarray, m: np.ndarray) -> np.ndarray:
    """log P[Binomial(m, 1/2) <= k] far in the lower tail, where it may underflow: the pmf at k
    times the sum of the ratios pmf(k - t) / pmf(k). Each step's ratio (k - t) / (m - k + t + 1)
    is at most r = k / (m - k + 1) < 1, so the terms beyond T with r^T < e^-45 do not count;
    rows are taken in blocks of similar r, each with its own T."""
    k, m = k.astype(np.float64), m.astype(np.float64)
    ratio = k / (m - k + 1.0)
    order = np.argsort(ratio)
    out = np.empty(len(k))
    for start in range(0, len(k), _FAR_BLOCK):
        rows = order[start : start + _FAR_BLOCK]
        kk, mm, worst = k[rows], m[rows], float(ratio[rows].max())
        needed = math.ceil(45.0 / -math.log(worst)) if worst > 0 else 0
        t = np.arange(1, min(int(kk.max()) + 1, needed + 16), dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            steps = np.log(kk[:, None] - t + 1.0) - np.log(mm[:, None] - kk[:, None] + t)
        steps = np.where(kk[:, None] - t + 1.0 > 0, steps, -np.inf)
        terms = np.concatenate([np.zeros((len(rows), 1)), np.cumsum(steps, axis=1)], axis=1)
        log_pmf = special.gammaln(mm + 1) - special.gammaln(kk + 1) - special.gammaln(mm - kk + 1)
        out[rows] = log_pmf - mm * math.log(2.0) + special.logsumexp(terms, axis=1)
    return out


def _log_choose(n: int) -> np.ndarray:
    """log C(n, m) for m = 0..n."""
    m = np.arange(n + 1, dtype=np.float64)
    return special.gammaln(n + 1.0) - special.gammaln(m + 1.0) - special.gammaln(n - m + 1.0)


def _log_tail_probabilities(
    pis: np.ndarray, log_tails: np.ndarray, log_choose: np.ndarray
) -> np.ndarray:
    """log P(pi), P(pi) = sum_m Binomial(n, pi)(m) q_m, at each pi in `pis`.

    For a block of values of pi from p0 to p1, only m within 6 sqrt(n) + 1 of [n p0, n p1] is
    summed: by Hoeffding's inequality the rest has probability below 2 exp(-72), about 1e-31,
    and P at its maximum is at least max_m q_m / (n + 1), so the maximum loses nothing.
    """
    n = len(log_tails) - 1
    out = np.empty(len(pis))
    reach = 6.0 * math.sqrt(n) + 1.0
    for start in range(0, len(pis), _BLOCK):
        block = pis[start : start + _BLOCK]
        first = max(0, math.floor(n * float(block.min()) - reach))
        last = min(n, math.ceil(n * float(block.max()) + reach))
        m = np.arange(first, last + 1, dtype=np.float64)
        terms = (
            log_choose[first : last + 1]
            + special.xlogy(m, block[:, None])
            + special.xlog1py(n - m, -block[:, None])
            + log_tails[first : last + 1]
        )
        out[start : start + _BLOCK] = special.logsumexp(terms, axis=1)
    return np.minimum(out, 0.0)


def _refine(
    grid: np.ndarray,
    best: int,
    log_tails: np.ndarray,
    log_choose: np.ndarray,
    where: float,
    largest: float,
) -> tuple[float, float]:
    """The maximum of log P between the grid points either side of `best`, if above the
    grid's."""
    left, right = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    if right <= left:
        return where, largest
    found = optimize.minimize_scalar(
        lambda pi: -float(_log_tail_probabilities(np.array([pi]), log_tails, log_choose)[0]),
        bounds=(float(left), float(right)),
        method="bounded",
        options={"xatol": 1e-12 * max(1.0, float(right))},
    )
    if -found.fun > largest:
        return float(found.x), float(-found.fun)
    return where, largest
