"""Three or more systems scored on the same cases: Friedman's test, Nemenyi's critical
difference, and every pair's Wilcoxon signed-rank test adjusted by Holm.

:func:`friedman_compare` takes an n x k array of scores (higher is better) and the k names, and
returns a frozen :class:`FriedmanComparison`: the systems' average ranks (rank 1 the best),
Friedman's chi-square with the Iman-Davenport F, the exact permutation p when the table is
small enough, Nemenyi's critical difference with the pairs further apart, and each pair's
signed-rank test. The pass/fail counterpart is :func:`calculator.compare.compare_systems`
(Cochran's Q).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from calculator._lazy_scipy import stats
from calculator._validation import check_choice, check_probability
from calculator.compare.letters import LetterDisplay, letter_groups
from calculator.compare.multiplicity import adjust_pvalues
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.scores.signedrank import signed_rank_test

__all__ = [
    "EXACT_MAX_WORK",
    "FriedmanComparison",
    "RankPair",
    "cd_cliques",
    "friedman_compare",
    "friedman_exact_pvalue",
    "friedman_statistic",
    "iman_davenport",
    "nemenyi_critical_difference",
]

#: Most work (distinct partial rank-sum vectors x arrangements of a row, summed over rows) for
#: the exact permutation p (about half a second of CPU); beyond it the p is not enumerated and
#: the F p-value decides. 3 systems reach about 40 cases, 4 systems about 10.
EXACT_MAX_WORK = 500_000


@dataclass(frozen=True, slots=True, kw_only=True)
class RankPair:
    """Systems `a` and `b` compared case by case: the Wilcoxon signed-rank test of a - b
    (two-sided), its p adjusted by Holm over every pair, and the gap in average rank a - b
    (a's minus b's, the same direction as the test; rank 1 is the best, so negative when a
    ranks better) against Nemenyi's critical difference."""

    a: str
    b: str
    rank_gap: float
    beyond_cd: bool
    statistic: float | None
    pvalue: float
    method: str
    adjusted_pvalue: float
    reject: bool

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class FriedmanComparison:
    """Every figure comparing k systems' scores on the same n cases (:func:`friedman_compare`).

    `statistic` is Friedman's chi-square with midranks for ties (the tie-corrected form), on
    `df` = k - 1; `pvalue` its chi-square p; `f_statistic` the Iman-Davenport F on
    (`f_df1`, `f_df2`) with `f_pvalue`; `exact_pvalue` the permutation p (None when not
    enumerated); `method` the p that decides ("exact" or "f"); `critical_difference`
    Nemenyi's at `alpha`. `ranking` is by average rank, best first; `mean_scores` each system's
    mean score, for reading beside its rank.
    """

    names: tuple[str, ...]
    n: int
    alpha: float
    average_ranks: tuple[float, ...]
    mean_scores: tuple[float, ...]
    statistic: float | None
    df: int
    pvalue: float
    f_statistic: float | None
    f_df1: int
    f_df2: int
    f_pvalue: float
    exact_pvalue: float | None
    method: str
    critical_difference: float
    ranking: tuple[str, ...]
    pairs: tuple[RankPair, ...]
    better: str = "higher"

    @property
    def decision_pvalue(self) -> float:
        """The p the verdict rests on: the exact one when enumerated, else the F p."""
        return self.exact_pvalue if self.method == "exact" else self.f_pvalue

    @property
    def reject(self) -> bool:
        return self.decision_pvalue <= self.alpha

    def cliques(self) -> tuple[tuple[str, ...], ...]:
        """The groups of systems whose average ranks lie within Nemenyi's critical difference
        of each other (:func:`cd_cliques`), best first."""
        ranks = dict(zip(self.names, self.average_ranks, strict=True))
        return cd_cliques(
            self.ranking, [ranks[name] for name in self.ranking], self.critical_difference
        )

    def letter_display(self) -> LetterDisplay:
        """Groups not separated by the Holm-adjusted signed-rank tests, in rank order."""
        return letter_groups(self.ranking, ((p.a, p.b) for p in self.pairs if p.reject))

    def to_dict(self) -> dict[str, object]:
        """Strict-JSON shape (an undefined statistic is None)."""
        fields = {key: getattr(self, key) for key in self.__slots__ if key != "pairs"}
        return {
            **{k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()},
            "decision_pvalue": self.decision_pvalue,
            "reject": self.reject,
            "pairs": [pair.to_dict() for pair in self.pairs],
            "groups": self.letter_display().to_dict(),
            "cliques": [list(clique) for clique in self.cliques()],
        }


def row_ranks(scores: np.ndarray) -> np.ndarray:
    """Each case's ranks of the k systems, 1 the highest score, midranks for ties."""
    return stats.rankdata(-scores, axis=1, method="average")


def friedman_statistic(ranks: np.ndarray) -> float | None:
    """Friedman's chi-square from an n x k array of within-row ranks (midranks for ties).

    Notes
    -----
    Q = (k - 1) sum_j (R_j - n (k + 1)/2)^2 / (sum_ij r_ij^2 - n k (k + 1)^2 / 4), with R_j the
    rank sums: without ties, 12 / (n k (k + 1)) sum_j R_j^2 - 3 n (k + 1); with ties, the same
    divided by 1 - sum (t^3 - t) / (n k (k^2 - 1)), as ``scipy.stats.friedmanchisquare``.
    None when every row is all ties (the denominator is 0).
    """
    n, k = ranks.shape
    spread = float(np.sum(ranks**2)) - n * k * (k + 1) ** 2 / 4
    if spread <= 1e-9 * n * k:
        return None
    sums = ranks.sum(axis=0)
    return (k - 1) * float(np.sum((sums - n * (k + 1) / 2) ** 2)) / spread


def iman_davenport(chi2: float, n: int, k: int) -> tuple[float, float]:
    """The Iman-Davenport F = (n - 1) Q / (n (k - 1) - Q) on (k - 1, (k - 1)(n - 1)) degrees of
    freedom, and its p (0 when Q reaches its maximum n (k - 1): every case ranks alike).

    Examples
    --------
    Demšar (2006), section 3.2.2: Q = 9.28 on 14 data sets and 4 classifiers gives F = 3.69.

    >>> round(iman_davenport(9.28, 14, 4)[0], 2)
    3.69
    """
    denominator = n * (k - 1) - chi2
    if denominator <= 1e-12 * n * k or n < 2:
        return math.inf if n >= 2 else math.nan, 0.0 if n >= 2 else 1.0
    f = (n - 1) * chi2 / denominator
    return f, float(stats.f.sf(f, k - 1, (k - 1) * (n - 1)))


def nemenyi_critical_difference(k: int, n: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference of average ranks, q_alpha sqrt(k (k + 1) / (6 n)), with
    q_alpha the studentized range quantile (k groups, infinite df) over sqrt 2.

    Examples
    --------
    Demšar (2006), section 3.2.2: k = 4, n = 14 at alpha = 0.05 gives CD = 1.25.

    >>> round(nemenyi_critical_difference(4, 14), 2)
    1.25
    """
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    return float(q * math.sqrt(k * (k + 1) / (6 * n)))


def cd_cliques(
    ranking: Sequence[str], ranks: Sequence[float], cd: float
) -> tuple[tuple[str, ...], ...]:
    """The maximal groups of systems no two of whose average ranks differ by more than `cd`,
    in rank order: the bars of a critical-difference diagram (Demšar 2006, section 3.2.2).

    Notes
    -----
    `ranks` are the average ranks of `ranking`, in that order (ascending: best first). Average
    ranks lie on a line, so a group with spread at most `cd` holds every system ranked between
    its ends: the maximal groups are the runs ``ranking[i..j]`` with ``ranks[j] - ranks[i] <=
    cd`` that no longer run contains. A system in no run of two stands alone (its own group):
    every other system's average rank is further than `cd` from its own.

    Examples
    --------
    Demšar (2006), section 3.2.4: average ranks 1.964, 2.000, 2.893 and 3.143 at the CD of
    alpha = 0.10 (1.12) give two groups, C4.5 worse than C4.5+m and C4.5+m+cf, and C4.5+cf in
    both.

    >>> cd_cliques(["m+cf", "m", "cf", "c4.5"], [1.964, 2.000, 2.893, 3.143], 1.12)
    (('m+cf', 'm', 'cf'), ('cf', 'c4.5'))
    """
    ranking = tuple(ranking)
    values = [float(r) for r in ranks]
    if len(values) != len(ranking) or any(b < a for a, b in zip(values, values[1:], strict=False)):
        raise CalculatorError(
            f"`ranks` must be the {len(ranking)} average ranks of `ranking` in ascending order, "
            f"but got {values!r}."
        )
    cliques: list[tuple[str, ...]] = []
    reach = -1
    for i in range(len(ranking)):
        j = i
        while j + 1 < len(ranking) and values[j + 1] - values[i] <= cd:
            j += 1
        if j > reach:  # not inside the run that starts before it
            cliques.append(ranking[i : j + 1])
            reach = j
    return tuple(cliques)


def friedman_exact_pvalue(ranks: np.ndarray, max_work: int = EXACT_MAX_WORK) -> float | None:
    """P[Q >= observed Q] when each case's ranks are permuted among the systems, every
    arrangement equally likely (H0), by enumerating the rank sums; None past `max_work`.

    Notes
    -----
    Within a row the sum of squared ranks does not change under permutation, so Q is an
    increasing function of sum_j R_j^2, and the p is the share of arrangements whose rank sums
    have a sum of squares at least the observed one. The distribution of the vector of rank
    sums is built row by row (a dictionary of vectors and counts; doubled ranks keep midranks
    whole), with the rows' distinct arrangements, so tied rows count each once per
    permutation of the systems, as all k! are equally likely. Work is the number of partial
    vectors times a row's distinct arrangements, summed over the rows.

    Examples
    --------
    >>> friedman_exact_pvalue(np.array([[1, 2, 3], [1, 2, 3], [1, 3, 2]]))
    0.19444444444444445
    """
    doubled = np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)
    k = doubled.shape[1]
    states: Counter = Counter({(0,) * k: 1})
    work = 0
    # The distinct arrangements of each row are counted before any is listed (k!/prod t! for
    # ties of sizes t): listing the k! permutations of a row of 50 systems would never end.
    sizes = [_distinct_count(row.tolist()) for row in doubled]
    if sizes[0] + (sizes[0] * sizes[1] if len(sizes) > 1 else 0) > max_work:
        return None  # after the first row the states are its arrangements: the second's work
    for row, distinct in zip(doubled, sizes, strict=True):
        work += len(states) * distinct
        if work > max_work:
            return None
        weight = math.factorial(k) // distinct  # the k! orders, each distinct one prod t! times
        orders = (
            itertools.permutations(row.tolist())  # no ties: every order distinct (C speed)
            if weight == 1
            else _distinct_orders(row.tolist())
        )
        arrangements = dict.fromkeys(orders, weight)
        following: Counter = Counter()
        for sums, count in states.items():
            for arrangement, times in arrangements.items():
                following[tuple(s + a for s, a in zip(sums, arrangement, strict=True))] += (
                    count * times
                )
        states = following
    observed = int(np.sum(doubled.sum(axis=0) ** 2))
    total = sum(states.values())
    extreme = sum(c for sums, c in states.items() if sum(s * s for s in sums) >= observed)
    return extreme / total


def _distinct_count(values: list[int]) -> int:
    """How many distinct orderings `values` has: k! / prod t! over the sizes t of its ties."""
    count = math.factorial(len(values))
    for times in Counter(values).values():
        count //= math.factorial(times)
    return count


def _distinct_orders(values: list[int]) -> list[tuple[int, ...]]:
    """Every distinct ordering of `values` (a multiset), each once, without listing the k!
    permutations.

    >>> sorted(_distinct_orders([1, 1, 2]))
    [(1, 1, 2), (1, 2, 1), (2, 1, 1)]
    """
    counts = Counter(values)
    found: list[tuple[int, ...]] = []

    def extend(prefix: list[int]) -> None:
        if len(prefix) == len(values):
            found.append(tuple(prefix))
            return
        for value in list(counts):
            if counts[value]:
                counts[value] -= 1
                extend([*prefix, value])
                counts[value] += 1

    extend([])
    return found


def friedman_compare(
    scores: object,
    names: Sequence[str],
    *,
    alpha: float = 0.05,
    max_work: int = EXACT_MAX_WORK,
    better: str = "higher",
) -> FriedmanComparison:
    """Compare k >= 2 systems' scores on the same n cases; `better` says which scores are
    better ("higher", or "lower" for error rates and losses): rank 1 goes to the best.

    Parameters
    ----------
    scores : array_like, shape (n, k)
        One row per case, one column per system, finite numbers.
    names : sequence of str
        The k system names, distinct, in the order of the columns.
    alpha : float
        Level of the overall test, of the critical difference and of each pair after Holm.
    max_work : int
        Bound on the exact enumeration (:func:`friedman_exact_pvalue`).

    Returns
    -------
    FriedmanComparison

    Raises
    ------
    TypeError, ValueError
        On names that are not distinct strings, or scores that are not an n x k array of
        finite numbers with n >= 2 and 2 <= k <= 50.

    Notes
    -----
    Each case ranks the systems (1 the highest score, midranks for ties); Friedman's test asks
    whether the average ranks differ more than chance arrangements would (Friedman 1937). The
    verdict rests on the exact permutation p when it is enumerated, else on the Iman-Davenport
    F, which Demšar (2006) recommends over the chi-square. Nemenyi's critical difference
    (Demšar 2006, section 3.2.2) marks the pairs whose average ranks lie further apart. Each
    pair's own test is the Wilcoxon signed-rank test of its score differences
    (:func:`calculator.scores.signedrank.signed_rank_test`, as two systems' scores are compared
    elsewhere), adjusted by Holm over the k (k - 1)/2 pairs; the two may disagree, since the
    ranks of a pair depend on the other systems and the signed ranks do not.

    References
    ----------
    .. [1] Friedman, M. (1937). The use of ranks to avoid the assumption of normality implicit
           in the analysis of variance. JASA 32(200), 675-701.
    .. [2] Iman, R. L. & Davenport, J. M. (1980). Approximations of the critical region of the
           Friedman statistic. Communications in Statistics A 9(6), 571-595.
    .. [3] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
           Journal of Machine Learning Research 7, 1-30.

    Examples
    --------
    >>> x = [[0.9, 0.5, 0.1], [0.8, 0.6, 0.2], [0.7, 0.4, 0.3], [0.6, 0.7, 0.1]]
    >>> r = friedman_compare(x, ["A", "B", "C"])
    >>> r.average_ranks, round(r.statistic, 2), r.method, r.ranking
    ((1.25, 1.75, 3.0), 6.5, 'exact', ('A', 'B', 'C'))
    """
    x, names = _check_scores(scores, names)
    alpha = check_probability(alpha, "alpha")
    check_choice(better, "better", ("higher", "lower"))
    n, k = x.shape
    oriented = x if better == "higher" else -x  # larger is better from here on
    ranks = row_ranks(oriented)
    average = ranks.mean(axis=0)
    chi2 = friedman_statistic(ranks)
    if chi2 is None:  # every case ties every system: nothing tells them apart
        f, f_p, p, exact = None, 1.0, 1.0, 1.0
    else:
        f, f_p = iman_davenport(chi2, n, k)
        p = float(stats.chi2.sf(chi2, k - 1))
        exact = friedman_exact_pvalue(ranks, max_work)
    cd = nemenyi_critical_difference(k, n, alpha)
    order = sorted(range(k), key=lambda j: average[j])
    return FriedmanComparison(
        names=names,
        n=n,
        alpha=alpha,
        average_ranks=tuple(float(v) for v in average),
        mean_scores=tuple(float(v) for v in x.mean(axis=0)),
        statistic=chi2,
        df=k - 1,
        pvalue=p,
        f_statistic=None if f is None or math.isinf(f) else f,
        f_df1=k - 1,
        f_df2=(k - 1) * (n - 1),
        f_pvalue=f_p,
        exact_pvalue=exact,
        method="exact" if exact is not None else "f",
        critical_difference=cd,
        ranking=tuple(names[j] for j in order),
        pairs=_pairs(oriented, names, average, cd, alpha),
        better=better,
    )


def _pairs(
    x: np.ndarray, names: tuple[str, ...], average: np.ndarray, cd: float, alpha: float
) -> tuple[RankPair, ...]:
    """Every pair j < l: its signed-rank test, Holm-adjusted, and its gap against the CD."""
    k = len(names)
    index = [(j, m) for j in range(k) for m in range(j + 1, k)]
    tests = [
        signed_rank_test(x[:, j] - x[:, m], alternative="two-sided", unit="case") for j, m in index
    ]
    adjusted = adjust_pvalues([t.pvalue for t in tests], method="holm")
    return tuple(
        RankPair(
            a=names[j],
            b=names[m],
            rank_gap=float(average[j] - average[m]),
            beyond_cd=bool(abs(average[j] - average[m]) > cd),
            statistic=test.statistic,
            pvalue=test.pvalue,
            method=test.method,
            adjusted_pvalue=float(p),
            reject=bool(p <= alpha),
        )
        for (j, m), test, p in zip(index, tests, adjusted, strict=True)
    )


def _check_scores(scores: object, names: object) -> tuple[np.ndarray, tuple[str, ...]]:
    """The scores as a float array and the names as a tuple, or raise."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise CalculatorTypeError(f"`names` must be a sequence of strings, but got {names!r}.")
    if not all(isinstance(name, str) and name.strip() for name in names):
        raise CalculatorTypeError(f"`names` must be non-empty strings, but got {names!r}.")
    if len(set(names)) != len(names):
        raise CalculatorError(f"`names` must be distinct, but got {names!r}.")
    array = np.asarray(scores)
    if array.dtype.kind not in "biuf":
        raise CalculatorTypeError(f"`scores` must be numbers, but has dtype {array.dtype}.")
    if array.ndim != 2 or array.shape[0] < 2 or array.shape[1] != len(names):
        raise CalculatorError(
            f"`scores` must be an n x k array with n >= 2 cases and one column per name "
            f"({len(names)}), but has shape {array.shape}."
        )
    if not 2 <= array.shape[1] <= 50:
        raise CalculatorError(f"The comparison needs 2 to 50 systems, but got {array.shape[1]}.")
    if not np.all(np.isfinite(array)):
        row, column = (int(i) for i in np.argwhere(~np.isfinite(array))[0])
        raise CalculatorError(
            f"`scores` must be finite, but row {row} (counting from 0), system "
            f"{names[column]!r} holds {array[row, column]!r}."
        )
    return array.astype(np.float64), tuple(names)
