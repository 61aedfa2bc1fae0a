"""Cochran's Q for k systems scored pass/fail on the same n cases.

The chi-square p-value, and a permutation p-value conditional on each case's number of passes:
exact by convolution when that stays small, else a seeded Monte Carlo with its standard error, else
none (said so in the result). Only the column totals matter to Q once the row totals are fixed.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import defaultdict
from dataclasses import asdict, dataclass

import numpy as np
from scipy import special

from calculator._validation import check_count
from calculator.mcnemar import mcnemar_exact
from calculator.significance import monte_carlo_rejects, pvalue_rejects

__all__ = [
    "MAX_EXACT_STEPS",
    "MAX_RESAMPLES",
    "MAX_RESAMPLE_DRAWS",
    "PERMUTATION_METHODS",
    "CochranQResult",
    "cochran_q",
    "log_chi2_sf",
]

#: Work of the exact convolution (new states built, times k, summed over cases) beyond which the
#: exact permutation p is replaced by the Monte Carlo one: a quarter of a second at most, enough for
#: 3 systems on about 70 cases that separate them, 5 systems on about 20, 10 systems on about 8.
MAX_EXACT_STEPS = 100_000
#: Random numbers the Monte Carlo may draw (resamples times the cost of one resample, about k per
#: case that separates the systems), about half a second: at the default 9,999 resamples, 24
#: systems on 200 such cases, or any number of cases for few systems (drawn as counts). Beyond it
#: the permutation p is not computed; by then the cases that separate the systems are many and
#: the chi-square p is close.
MAX_RESAMPLE_DRAWS = 50_000_000
#: Most Monte Carlo resamples a caller may ask for: the floor 1/(R + 1) of the p-value then reaches
#: 1e-6, and the budget above still bounds the work.
MAX_RESAMPLES = 1_000_000
#: How `exact_pvalue` was obtained: exactly, by Monte Carlo, or not at all (data too large).
PERMUTATION_METHODS = ("exact", "monte-carlo", "none")

_LN10 = math.log(10.0)


@dataclass(frozen=True, slots=True, kw_only=True)
class CochranQResult:
    """Cochran's Q test of equal pass rates across k systems.

    Attributes
    ----------
    statistic : float or None
        Q; None when no case separates the systems (every case all-pass or all-fail).
    df : int
        k - 1.
    pvalue, log10_pvalue : float
        P[chi2_{k-1} >= Q] and its base-10 log (finite far below 1e-300); 1 and 0 when Q is None.
    exact_pvalue : float or None
        Permutation p-value conditional on each case's number of passes; None when `method` is
        "none".
    method : {"exact", "monte-carlo", "none"}
        How `exact_pvalue` was obtained.
    standard_error : float or None
        Monte Carlo standard error of `exact_pvalue` (None unless `method` is "monte-carlo").
    resamples, seed : int or None
        Monte Carlo resamples and the generator's seed (None unless "monte-carlo").
    informative_cases : int
        Cases where the systems do not all agree; only they move Q.
    at_floor : bool
        True when no Monte Carlo resample was as extreme as the data: `exact_pvalue` is then its
        floor 1/(resamples + 1), and all the resamples show is p <= that floor.
    resamples_not_drawn : int
        With `method` "none", the resamples asked for that were not drawn because the draws
        would exceed :data:`MAX_RESAMPLE_DRAWS` (0 when none were asked for, and otherwise).

    The p-value that decides is :attr:`decision_pvalue` (the permutation p when computed, else
    the chi-square p), through :meth:`rejects`; every sentence about Q uses that one.
    """

    statistic: float | None
    df: int
    pvalue: float
    log10_pvalue: float
    exact_pvalue: float | None
    method: str
    standard_error: float | None
    resamples: int | None
    seed: int | None
    informative_cases: int
    at_floor: bool = False
    resamples_not_drawn: int = 0

    @property
    def decision_pvalue(self) -> float:
        """The p-value the verdict rests on: the permutation p when computed, else chi-square."""
        return self.pvalue if self.exact_pvalue is None else self.exact_pvalue

    @property
    def floor(self) -> float | None:
        """1/(resamples + 1), the smallest Monte Carlo p-value (None unless "monte-carlo")."""
        return None if self.resamples is None else 1.0 / (self.resamples + 1)

    def rejects(self, alpha: float) -> bool | None:
        """Whether equal pass rates are rejected at `alpha` (p <= alpha, by
        :attr:`decision_pvalue`); None when the Monte Carlo p sits at its floor above `alpha`,
        where more resamples are needed to decide.

        Examples
        --------
        >>> x = np.array([[1, 0, 0]] * 8 + [[0, 1, 1]], dtype=bool)
        >>> r = cochran_q(x, resamples=99)
        >>> r.method, r.at_floor, r.rejects(0.05), r.rejects(0.001)
        ('exact', False, True, False)
        """
        if self.resamples is None:
            return pvalue_rejects(self.decision_pvalue, alpha)
        return monte_carlo_rejects(
            self.decision_pvalue, alpha, resamples=self.resamples, at_floor=self.at_floor
        )

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def log_chi2_sf(x: float, df: int) -> float:
    """Natural log of P[chi2_df >= x], finite where the tail underflows a double.

    Examples
    --------
    >>> round(log_chi2_sf(8.4706, 2), 4)  # exp(-x/2) for two degrees of freedom
    -4.2353
    >>> round(log_chi2_sf(4000.0, 3) / math.log(10), 2)
    -866.89
    """
    tail = float(special.chdtrc(df, x))
    if tail > 1e-280:
        return math.log(tail)
    # Upper incomplete gamma Gamma(s, y)/Gamma(s), s = df/2, y = x/2, by its asymptotic series
    # y^(s-1) e^-y / Gamma(s) * sum_j (s-1)(s-2)...(s-j) / y^j; here y > 300 >> s, so the terms
    # fall fast (the series ends for an even df).
    s, y = df / 2.0, x / 2.0
    total, term = 1.0, 1.0
    for j in range(1, 200):
        term *= (s - j) / y
        total += term
        if abs(term) < 1e-17 * abs(total):
            break
    return (s - 1.0) * math.log(y) - y - math.lgamma(s) + math.log(total)


def cochran_q(outcomes: np.ndarray, *, resamples: int = 9_999, seed: int = 0) -> CochranQResult:
    """Cochran's Q on an n x k array of 0/1 outcomes (validated by the caller).

    Parameters
    ----------
    outcomes : numpy.ndarray of bool, shape (n, k)
        One row per case, one column per system; True is a pass.
    resamples : int
        Monte Carlo resamples when the exact permutation distribution is too large, 0 to
        :data:`MAX_RESAMPLES` (0: no Monte Carlo).
    seed : int
        Seed of the Monte Carlo generator, so that a result can be reproduced.

    Returns
    -------
    CochranQResult

    Notes
    -----
    With column totals T_j, row totals R_i and N = sum T_j,
    Q = (k - 1)(k sum T_j^2 - N^2) / sum R_i (k - R_i), compared with chi-square on k - 1
    degrees of freedom. For k = 2 it is the uncorrected McNemar chi-square (b - c)^2 / (b + c).

    Under the null hypothesis every arrangement of a case's R_i passes among the k systems is
    equally likely, independently across cases. Given the row totals, Q grows with sum T_j^2
    alone, so the permutation p is P[sum T_j^2 >= observed]. Its distribution is built case by
    case over the sorted column-total vectors (the order of the columns does not change sum
    T_j^2), which equals enumerating all prod_i C(k, R_i) arrangements; when that would exceed
    :data:`MAX_EXACT_STEPS` steps, `resamples` random arrangements are drawn instead and
    p = (1 + #{Q* >= Q}) / (1 + resamples), which is never 0 (Phipson & Smyth 2010). Cases that
    all pass or all fail are left out of both: they shift every column total alike. For k = 2
    the permutation test is the exact McNemar test (b out of b + c is Binomial(b + c, 1/2), and
    Q >= observed means |b - c| at least as large), so its doubled p is used at any size.

    References
    ----------
    .. [1] Cochran, W. G. (1950). The comparison of percentages in matched samples. Biometrika
           37(3/4), 256-266.
    .. [2] Phipson, B. & Smyth, G. K. (2010). Permutation P-values should never be zero.
           Statistical Applications in Genetics and Molecular Biology 9(1), article 39.

    Examples
    --------
    >>> x = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [1, 1]], dtype=bool)
    >>> r = cochran_q(x)
    >>> r.statistic, round(r.pvalue, 4), r.exact_pvalue, r.method
    (1.0, 0.3173, 0.625, 'exact')
    """
    resamples = check_count(resamples, "resamples", maximum=MAX_RESAMPLES)
    seed = check_count(seed, "seed", maximum=None)
    n, k = outcomes.shape
    row_totals = np.count_nonzero(outcomes, axis=1)
    by_total = np.bincount(row_totals, minlength=k + 1)  # cases with r passes, r = 0..k
    informative = outcomes[(row_totals > 0) & (row_totals < k)]
    columns = np.count_nonzero(informative, axis=0).astype(np.int64)
    denominator = sum(int(by_total[r]) * r * (k - r) for r in range(1, k))
    if denominator == 0:
        return CochranQResult(
            statistic=None,
            df=k - 1,
            pvalue=1.0,
            log10_pvalue=0.0,
            exact_pvalue=1.0,
            method="exact",
            standard_error=None,
            resamples=None,
            seed=None,
            informative_cases=0,
        )
    total = int(columns.sum())
    observed = int(np.dot(columns, columns))  # sum T_j^2 over informative cases, exact
    statistic = (k - 1) * (k * observed - total * total) / denominator
    log_p = min(0.0, log_chi2_sf(statistic, k - 1))
    counts = {r: int(by_total[r]) for r in range(1, k) if by_total[r]}
    fields = dict(
        statistic=float(statistic),
        df=k - 1,
        pvalue=math.exp(log_p),
        log10_pvalue=log_p / _LN10,
        informative_cases=len(informative),
    )
    if k == 2:  # the permutation test is then the exact McNemar test, for any number of cases
        b = int(np.count_nonzero(informative[:, 0]))
        exact = mcnemar_exact(b, len(informative) - b).pvalue
    else:
        exact = _exact_tail(counts, k, observed)
    if exact is not None:
        return CochranQResult(
            **fields,
            exact_pvalue=exact,
            method="exact",
            standard_error=None,
            resamples=None,
            seed=None,
        )
    simulated = _monte_carlo_tail(counts, k, observed, resamples, seed)
    if simulated is None:
        return CochranQResult(
            **fields,
            exact_pvalue=None,
            method="none",
            standard_error=None,
            resamples=None,
            seed=None,
            resamples_not_drawn=resamples,
        )
    return CochranQResult(
        **fields,
        exact_pvalue=simulated[0],
        method="monte-carlo",
        standard_error=simulated[1],
        resamples=resamples,
        seed=seed,
        at_floor=simulated[2],
    )


@functools.lru_cache(maxsize=4096)
def _splits(block_sizes: tuple[int, ...], passes: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Ways to place `passes` among blocks of tied columns: (passes per block, probability).

    The probability is prod_i C(g_i, h_i) / C(k, passes), a multivariate hypergeometric; there
    are at most C(k, passes) ways, which the caller has bounded.
    """
    ways = math.comb(sum(block_sizes), passes)
    result: list[tuple[tuple[int, ...], float]] = []

    def place(index: int, left: int, placed: tuple[int, ...], weight: int) -> None:
        if index == len(block_sizes):
            if left == 0:
                result.append((placed, weight / ways))
            return
        room = sum(block_sizes[index + 1 :])
        size = block_sizes[index]
        for h in range(max(0, left - room), min(size, left) + 1):
            place(index + 1, left - h, (*placed, h), weight * math.comb(size, h))

    place(0, passes, (), 1)
    return tuple(result)


def _blocks(state: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Distinct values of a sorted state and how many columns share each."""
    values, sizes = [], []
    for value, group in itertools.groupby(state):
        values.append(value)
        sizes.append(len(list(group)))
    return tuple(values), tuple(sizes)


def _exact_tail(counts: dict[int, int], k: int, observed: int) -> float | None:
    """P[sum T_j^2 >= observed] exactly, or None if it would take over MAX_EXACT_STEPS steps."""
    cases = sum(counts.values())
    # Even for k = 2 the states after i cases number about i/2, so the work is at least n^2/2;
    # one case with r passes can lead to C(k, r) states.
    if cases * cases > 2 * MAX_EXACT_STEPS or any(
        math.comb(k, r) * k > MAX_EXACT_STEPS for r in counts
    ):
        return None
    states: dict[tuple[int, ...], float] = {(0,) * k: 1.0}
    steps = 0
    for passes in sorted(counts):
        for _ in range(counts[passes]):
            following: defaultdict[tuple[int, ...], float] = defaultdict(float)
            for state, probability in states.items():
                values, sizes = _blocks(state)
                ways = _splits(sizes, passes)
                steps += len(ways) * k
                if steps > MAX_EXACT_STEPS:
                    return None
                for placed, weight in ways:
                    new_state: list[int] = []
                    for value, size, h in zip(values, sizes, placed, strict=True):
                        new_state += [value] * (size - h) + [value + 1] * h
                    following[tuple(new_state)] += probability * weight
            states = following
    inside = [p for state, p in states.items() if sum(t * t for t in state) >= observed]
    if len(inside) == len(states):
        return 1.0  # every arrangement is as extreme (Q = 0): exactly 1, not 1 - 1e-16
    return min(1.0, sum(inside))


def _monte_carlo_tail(
    counts: dict[int, int], k: int, observed: int, resamples: int, seed: int
) -> tuple[float, float, bool] | None:
    """(p, standard error, at the floor) from `resamples` random arrangements, or None.

    None when `resamples` is 0 or the draws would exceed :data:`MAX_RESAMPLE_DRAWS`. "At the
    floor" means no resample was as extreme as the data, so p = 1/(resamples + 1).

    Cases with r passes are drawn either all at once, as multinomial counts over the C(k, r)
    arrangements (a binomial draw per arrangement, whatever the number of cases), or one by one,
    whichever is cheaper; the one-by-one cases of every r are drawn together, for a chunk of
    resamples at a time, in a few array operations (:func:`_draw_one_by_one`).
    """
    if resamples == 0:
        return None
    cost = sum(_draw_cost(k, r, m) for r, m in counts.items())
    if cost * resamples > MAX_RESAMPLE_DRAWS:
        return None
    counted = {r: m for r, m in counts.items() if _BINOMIAL_COST * math.comb(k, r) <= m * k}
    single = np.repeat(
        np.array([r for r in sorted(counts) if r not in counted], dtype=np.intp),
        [counts[r] for r in sorted(counts) if r not in counted],
    )
    rng = np.random.default_rng(seed)
    chunk = max(1, min(resamples, _CHUNK_DRAWS // max(cost, 1)))
    exceed = 0
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        totals = _draw_one_by_one(rng, k, single, size)
        for r, m in sorted(counted.items()):
            totals += _draw_counted(rng, k, r, m, size)
        sums = np.einsum("ij,ij->i", totals, totals)  # exact: integers far below 2^53
        exceed += int(np.count_nonzero(sums >= observed))
    pvalue = (1 + exceed) / (1 + resamples)
    return pvalue, math.sqrt(pvalue * (1 - pvalue) / resamples), exceed == 0


# A binomial draw costs about as much as this many random keys of the one-by-one route.
_BINOMIAL_COST = 8
# Random keys per chunk of resamples (8 MB of float64), which bounds the memory of the draws.
_CHUNK_DRAWS = 1_000_000


def _draw_cost(k: int, r: int, m: int) -> int:
    """Cost of one resample of the m cases with r passes, by the cheaper route."""
    return min(_BINOMIAL_COST * math.comb(k, r), m * k)


def _draw_counted(rng: np.random.Generator, k: int, r: int, m: int, size: int) -> np.ndarray:
    """Column totals of m cases with r passes each, as multinomial counts of the C(k, r)
    arrangements (chosen when they are few): shape (size, k)."""
    arrangements = math.comb(k, r)
    chosen = np.array(list(itertools.combinations(range(k), r)), dtype=np.intp)
    incidence = np.zeros((arrangements, k), dtype=np.float64)
    np.put_along_axis(incidence, chosen.reshape(arrangements, r), 1.0, axis=1)
    drawn = rng.multinomial(m, np.full(arrangements, 1.0 / arrangements), size=size)
    return drawn.astype(np.float64) @ incidence  # exact: counts far below 2^53


def _draw_one_by_one(rng: np.random.Generator, k: int, passes: np.ndarray, size: int) -> np.ndarray:
    """Column totals of cases with `passes[i]` passes each, placed at random: shape (size, k).

    Each case passes on the systems holding its r smallest of k uniform random keys; every
    ordering of the keys is equally likely, so every set of r systems is (ties have probability
    about 2^-53 per pair of keys).
    """
    if len(passes) == 0:
        return np.zeros((size, k), dtype=np.float64)
    keys = rng.random((size, len(passes), k))
    cut = np.sort(keys, axis=2)[:, np.arange(len(passes)), passes - 1]
    return np.count_nonzero(keys <= cut[:, :, None], axis=1).astype(np.float64)
