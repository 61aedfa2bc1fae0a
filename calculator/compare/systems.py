"""Three or more systems on the same cases: Cochran's Q, every pair, pass rates and a ranking.

:func:`compare_systems` takes an n x k array of 0/1 outcomes and the k system names and returns a
frozen :class:`SystemComparison` with a strict-JSON ``to_dict()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy import special

from calculator._validation import check_choice, check_probability
from calculator.compare.cochran import CochranQResult, cochran_q
from calculator.compare.letters import LetterDisplay, letter_groups
from calculator.compare.multiplicity import (
    ADJUSTMENTS,
    adjust_log10_pvalues,
    adjust_pvalues,
    agree_with_decisions,
)
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.intervals import CI_METHODS, difference_limits
from calculator.mcnemar import mcnemar_exact
from calculator.significance import adjusted_exact_tests_reject
from calculator.table import PairedTable
from calculator.tails import wilson_limits

__all__ = [
    "MAX_SYSTEMS",
    "PairComparison",
    "SystemComparison",
    "SystemRate",
    "compare_systems",
    "wilson_interval",
]

#: Most systems compared at once: 50 systems make 1,225 pairs.
MAX_SYSTEMS = 50
# Rows per block when counting co-passes with a float64 matrix product (exact below 2^53).
_BLOCK_ROWS = 1 << 16


@dataclass(frozen=True, slots=True, kw_only=True)
class SystemRate:
    """One system's passes out of n, its pass rate and a Wilson interval at the chosen level."""

    name: str
    passes: int
    n: int
    rate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class PairComparison:
    """Systems `a` and `b` compared on the same cases, as the two-system calculator would.

    `a_count` cases both pass, `b_count` only `a` passes, `c_count` only `b` passes, `d_count`
    both fail; `discordant` = b_count + c_count, the cases the pair's test rests on.
    `difference` = (b_count - c_count)/n is `a`'s pass rate minus `b`'s, with the
    interval of the chosen method; `pvalue` is the exact McNemar p (doubling); the adjusted
    p-value accounts for every pair of the comparison, and `reject` is adjusted p <= alpha.
    """

    a: str
    b: str
    a_count: int
    b_count: int
    c_count: int
    d_count: int
    difference: float
    low: float
    high: float
    pvalue: float
    log10_pvalue: float
    adjusted_pvalue: float
    log10_adjusted_pvalue: float
    reject: bool

    @property
    def table(self) -> PairedTable:
        """The pair's 2 x 2 table, ready for :func:`calculator.analyze`."""
        return PairedTable(self.a_count, self.b_count, self.c_count, self.d_count)

    @property
    def discordant(self) -> int:
        """The cases where exactly one of the two passes (b_count + c_count)."""
        return self.b_count + self.c_count

    def to_dict(self) -> dict[str, object]:
        """The fields, with `discordant` after the four counts (as every table's JSON has)."""
        fields = asdict(self)
        at = list(fields).index("d_count") + 1
        items = list(fields.items())
        return dict([*items[:at], ("discordant", self.discordant), *items[at:]])


@dataclass(frozen=True, slots=True, kw_only=True)
class SystemComparison:
    """Every figure comparing k systems on the same n cases (see :func:`compare_systems`)."""

    names: tuple[str, ...]
    n: int
    alpha: float
    adjust: str
    family_size: int
    ci_method: str
    level: float
    cochran: CochranQResult
    systems: tuple[SystemRate, ...]
    pairs: tuple[PairComparison, ...]
    ranking: tuple[str, ...]
    all_pass: int
    all_fail: int
    outcomes: np.ndarray = field(repr=False, compare=False)

    @property
    def agreeing(self) -> int:
        """Cases on which every system agrees (all pass or all fail): they carry no evidence."""
        return self.all_pass + self.all_fail

    def pair(self, first: str, second: str) -> PairComparison:
        """The comparison of two systems, in either order (`first` becomes `a`)."""
        for pair in self.pairs:
            if (pair.a, pair.b) == (first, second):
                return pair
            if (pair.a, pair.b) == (second, first):
                return _swapped(pair)
        raise CalculatorError(f"No pair of systems {first!r} and {second!r}; names: {self.names}.")

    def rank(self, name: str) -> int:
        """`name`'s place by pass rate, shared by systems with as many passes (1, 2, 2, 4).

        Systems with the same number of passes are tied: none is ranked above the other.
        """
        if name not in self.names:
            raise CalculatorError(f"No system {name!r}; names: {self.names}.")
        passes = {system.name: system.passes for system in self.systems}
        return 1 + sum(count > passes[name] for count in passes.values())

    def not_separated(self, name: str) -> tuple[str, ...]:
        """Systems that `name` is not told apart from after the adjustment, in ranking order."""
        if name not in self.names:
            raise CalculatorError(f"No system {name!r}; names: {self.names}.")
        together = set()
        for pair in self.pairs:  # one pass over the pairs, not a look-up per system
            if not pair.reject and name in (pair.a, pair.b):
                together.add(pair.b if pair.a == name else pair.a)
        return tuple(other for other in self.ranking if other in together)

    def letter_display(self) -> LetterDisplay:
        """The groups of systems not separated from each other after the adjustment, lettered
        in rank order (:func:`calculator.compare.letters.letter_groups`)."""
        return letter_groups(self.ranking, ((p.a, p.b) for p in self.pairs if p.reject))

    def separating_cases(self, first: str, second: str) -> tuple[np.ndarray, np.ndarray]:
        """Row positions (from 0) where only `first` passes, and where only `second` passes."""
        self.pair(first, second)  # validates both names
        x = self.outcomes[:, self.names.index(first)]
        y = self.outcomes[:, self.names.index(second)]
        return np.flatnonzero(x & ~y), np.flatnonzero(~x & y)

    def to_dict(self) -> dict[str, object]:
        """Strict-JSON shape: every number finite, undefined values None."""
        return {
            "n": self.n,
            "alpha": self.alpha,
            "adjust": self.adjust,
            "family_size": self.family_size,
            "ci_method": self.ci_method,
            "level": self.level,
            "cochran": self.cochran.to_dict(),
            "systems": [system.to_dict() for system in self.systems],
            "ranking": [
                {
                    "name": name,
                    "rank": self.rank(name),
                    "not_separated_from": list(self.not_separated(name)),
                }
                for name in self.ranking
            ],
            "groups": self.letter_display().to_dict(),
            "pairs": [pair.to_dict() for pair in self.pairs],
            "agreement": {
                "all_pass": self.all_pass,
                "all_fail": self.all_fail,
                "informative": self.n - self.agreeing,
            },
        }


def wilson_interval(passes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a pass rate, passes out of n (n > 0).

    Notes
    -----
    :func:`calculator.tails.wilson_limits` at z = Phi^-1(1 - (1 - level)/2), clipped to [0, 1]
    (0 exactly at no passes, 1 at all); Wilson (1927), cited there.

    Examples
    --------
    >>> [round(v, 4) for v in wilson_interval(28, 46)]
    [0.4646, 0.7361]
    """
    low, high = wilson_limits(passes, n, float(special.ndtri(0.5 + level / 2)))
    return (0.0 if passes == 0 else max(0.0, low)), (1.0 if passes == n else min(1.0, high))


def compare_systems(
    outcomes: object,
    names: Sequence[str],
    *,
    alpha: float = 0.05,
    adjust: str = "holm",
    ci_method: str = "agresti-min",
    level: float = 0.95,
    resamples: int = 9_999,
    seed: int = 0,
) -> SystemComparison:
    """Compare k >= 2 systems scored pass/fail on the same n cases.

    Parameters
    ----------
    outcomes : array_like, shape (n, k)
        One row per case, one column per system, each 1 (or True) for a pass and 0 for a fail.
    names : sequence of str
        The k system names, distinct, in the order of the columns.
    alpha : float
        Significance level of each pairwise decision after the adjustment.
    adjust : {"holm", "bonferroni"}
        Adjustment of the pairwise p-values for the k (k - 1)/2 pairs.
    ci_method : {"agresti-min", "wald", "bonett-price", "newcombe", "tango"}
        Interval method for each pair's difference (as :func:`calculator.difference_interval`).
    level : float
        Confidence level of the pairwise and per-system intervals.
    resamples, seed : int
        Monte Carlo resamples and seed for Cochran's permutation p when it is not exact.

    Returns
    -------
    SystemComparison

    Raises
    ------
    TypeError
        If `outcomes` is not numeric or `names` is not a sequence of strings.
    ValueError
        On an array that is not n x k with n >= 1 and 2 <= k <= MAX_SYSTEMS, a value other than
        0 or 1, repeated or empty names, or a bad `alpha`, `adjust`, `ci_method` or `level`.

    Notes
    -----
    Cochran's Q tests whether all k pass rates are equal (:func:`calculator.compare.cochran_q`).
    Each pair (j, l), j < l in column order, gets its 2 x 2 table, the pass-rate difference with
    its interval and the exact McNemar p, adjusted over the K = k (k - 1)/2 pairs by Holm or
    Bonferroni (:func:`calculator.compare.adjust_pvalues`). Systems are ranked by pass rate
    (ties keep column order); two systems are "not separated" when their pair is not rejected
    after the adjustment. Cases where every system agrees carry no evidence about any
    difference; they are counted in `all_pass` and `all_fail`.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 1, 0], [1, 0, 0]])
    >>> r = compare_systems(x, ["A", "B", "C"])
    >>> round(r.cochran.statistic, 3), r.ranking, r.family_size
    (3.5, ('A', 'B', 'C'), 3)
    >>> p = r.pair("A", "C")
    >>> p.b_count, p.c_count, p.difference
    (3, 0, 0.6)
    """
    x, names = _check_outcomes(outcomes, names)
    alpha = check_probability(alpha, "alpha")
    adjust = check_choice(adjust, "adjust", ADJUSTMENTS)
    ci_method = check_choice(ci_method, "ci_method", CI_METHODS)
    level = check_probability(level, "level")
    n, k = x.shape
    passes = np.count_nonzero(x, axis=0)
    both = _co_passes(x)
    systems = tuple(
        SystemRate(name=name, passes=int(t), n=n, rate=int(t) / n, low=low, high=high)
        for name, t in zip(names, passes, strict=True)
        for low, high in [wilson_interval(int(t), n, level)]
    )
    row_totals = np.count_nonzero(x, axis=1)
    pairs = _pairs(names, passes, both, n, alpha, adjust, ci_method, level)
    ranking = tuple(names[j] for j in sorted(range(k), key=lambda j: -int(passes[j])))
    return SystemComparison(
        names=names,
        n=n,
        alpha=alpha,
        adjust=adjust,
        family_size=len(pairs),
        ci_method=ci_method,
        level=level,
        cochran=cochran_q(x, resamples=resamples, seed=seed),
        systems=systems,
        pairs=pairs,
        ranking=ranking,
        all_pass=int(np.count_nonzero(row_totals == k)),
        all_fail=int(np.count_nonzero(row_totals == 0)),
        outcomes=x,
    )


def _check_outcomes(outcomes: object, names: object) -> tuple[np.ndarray, tuple[str, ...]]:
    """The outcomes as a read-only boolean array and the names as a tuple, or raise."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise CalculatorTypeError(f"`names` must be a sequence of strings, but got {names!r}.")
    for name in names:
        if not isinstance(name, str):
            raise CalculatorTypeError(
                f"`names` must be a sequence of strings, but got {name!r} in it."
            )
        if not name.strip():
            raise CalculatorError("`names` must not contain an empty name.")
    if len(set(names)) != len(names):
        repeated = next(name for name in names if names.count(name) > 1)
        raise CalculatorError(f"`names` must be distinct, but {repeated!r} occurs more than once.")
    array = np.asarray(outcomes)
    if array.dtype.kind not in "biuf":
        raise CalculatorTypeError(
            f"`outcomes` must be an array of 0s and 1s, but has dtype {array.dtype}."
        )
    if array.ndim != 2 or array.shape[0] == 0:
        raise CalculatorError(
            f"`outcomes` must be a 2-D array with one row per case (at least one), but has "
            f"shape {array.shape}."
        )
    k = array.shape[1]
    if k != len(names):
        raise CalculatorError(f"`outcomes` has {k} columns but `names` has {len(names)} names.")
    if not 2 <= k <= MAX_SYSTEMS:
        raise CalculatorError(f"The comparison needs 2 to {MAX_SYSTEMS} systems, but got {k}.")
    if array.dtype.kind != "b":
        bad = (array != 0) & (array != 1)  # NaN is unequal to both
        if bad.any():
            row, column = (int(i) for i in np.argwhere(bad)[0])
            raise CalculatorError(
                f"`outcomes` must hold only 0 and 1, but row {row} (counting from 0), system "
                f"{names[column]!r} holds {array[row, column].item()!r}."
            )
    boolean = np.ascontiguousarray(array != 0)
    boolean.setflags(write=False)
    return boolean, tuple(names)


def _co_passes(x: np.ndarray) -> np.ndarray:
    """k x k matrix of cases where both systems pass (exact integer counts)."""
    k = x.shape[1]
    both = np.zeros((k, k), dtype=np.float64)
    for start in range(0, x.shape[0], _BLOCK_ROWS):
        block = x[start : start + _BLOCK_ROWS].astype(np.float64)
        both += block.T @ block
    return np.rint(both).astype(np.int64)


def _pairs(
    names: tuple[str, ...],
    passes: np.ndarray,
    both: np.ndarray,
    n: int,
    alpha: float,
    adjust: str,
    ci_method: str,
    level: float,
) -> tuple[PairComparison, ...]:
    """Every pair j < l: its table, difference interval, exact p and adjusted p."""
    rows = []
    for j in range(len(names)):
        for m in range(j + 1, len(names)):
            a = int(both[j, m])
            b, c = int(passes[j]) - a, int(passes[m]) - a
            rows.append((j, m, a, b, c, n - a - b - c))
    exact = [mcnemar_exact(b, c) for _, _, _, b, c, _ in rows]
    adjusted = adjust_pvalues([e.pvalue for e in exact], method=adjust)
    log_adjusted = adjust_log10_pvalues([e.log10_pvalue for e in exact], method=adjust)
    # Every pair's interval in one call over arrays (the exact-compatible method's root-finder
    # then runs once for all pairs, not once a pair).
    cells = np.array([row[2:] for row in rows], dtype=np.float64).reshape(-1, 4).T
    lows, highs = difference_limits(*cells, level=level, method=ci_method)
    # The one p <= alpha rule (calculator.significance), exact where a product ties with alpha.
    rejected = adjusted_exact_tests_reject(
        [row[3:5] for row in rows], [e.log10_pvalue for e in exact], alpha, adjust
    )
    # The reported adjusted p-values on the side of alpha the decisions are on (ties).
    adjusted, log_adjusted = agree_with_decisions(adjusted, log_adjusted, rejected, alpha)
    pairs = []
    for (j, m, a, b, c, d), test, p_adj, log_adj, low, high, reject in zip(
        rows, exact, adjusted, log_adjusted, lows, highs, rejected, strict=True
    ):
        pairs.append(
            PairComparison(
                a=names[j],
                b=names[m],
                a_count=a,
                b_count=b,
                c_count=c,
                d_count=d,
                difference=(b - c) / n,
                low=float(low),
                high=float(high),
                pvalue=test.pvalue,
                log10_pvalue=test.log10_pvalue,
                adjusted_pvalue=float(p_adj),
                log10_adjusted_pvalue=float(log_adj),
                reject=reject,
            )
        )
    return tuple(pairs)


def _swapped(pair: PairComparison) -> PairComparison:
    """The same comparison read from the other side: cells b and c and the signs swap."""
    return PairComparison(
        a=pair.b,
        b=pair.a,
        a_count=pair.a_count,
        b_count=pair.c_count,
        c_count=pair.b_count,
        d_count=pair.d_count,
        difference=-pair.difference,
        low=-pair.high,
        high=-pair.low,
        pvalue=pair.pvalue,
        log10_pvalue=pair.log10_pvalue,
        adjusted_pvalue=pair.adjusted_pvalue,
        log10_adjusted_pvalue=pair.log10_adjusted_pvalue,
        reject=pair.reject,
    )
