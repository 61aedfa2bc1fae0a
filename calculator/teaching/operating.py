"""Operating characteristics at n pairs: each test's real size and power, each interval's coverage.

Nothing here is simulated. With n pairs and cell probabilities p10 (only A passes) and p01 (only B
passes), the discordant count m is Binomial(n, p10 + p01) and, given m, b is Binomial(m, theta)
with theta = p10 / (p10 + p01). A test rejects on a set of tables, an interval covers the true
difference on a set of tables, and the probability of each set is a sum over this distribution.
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass

import numpy as np
from scipy import special

from calculator._validation import check_count, check_probability
from calculator.errors import CalculatorError
from calculator.intervals import (
    CI_METHOD_NAMES,
    CI_METHODS,
    COSTLY,
    COVERS,
    VECTORISED,
    uses_concordant_cells,
)
from calculator.rejection import rejection_limits

__all__ = [
    "MAX_COSTLY_TABLES",
    "MAX_N",
    "OC_TESTS",
    "IntervalCharacteristics",
    "OperatingCharacteristics",
    "TestCharacteristics",
    "operating_characteristics",
    "rejection_limits",
]


def _binom():  # noqa: ANN202
    """scipy.stats.binom, imported on first use: scipy.stats takes about 0.9 s to import, and
    the calculator page imports this module at start while its section is folded."""
    from scipy.stats import binom

    return binom


#: The tests whose size and power are computed: the exact test (doubling), its mid-p version,
#: and the chi-square test without and with Edwards' continuity correction.
OC_TESTS = {
    "exact": "Exact (doubling)",
    "mid-p": "Mid-p (not an exact test)",
    "chi2": "Chi-square",
    "chi2-corrected": "Chi-square, corrected",
}
#: Largest n accepted: the interval sums grow about linearly with n (about 60 n tables).
MAX_N = 20_000
#: Each dimension of the sum leaves out at most this much probability in its two tails.
TAIL_EPSILON = 1e-12
#: The costly interval methods (:data:`calculator.intervals.COSTLY`: the exact-compatible one,
#: a root-finder over a numerical integral, about 1.3 ms of CPU a table over arrays, 2 s at the
#: bound) are evaluated when there are at most this many tables (m, b): every n up to 50
#: whatever the cell probabilities, and the calculator's example (n = 100 with 15% and 5%
#: discordant: 1,203 tables). Past it the method is reported with a note saying so.
MAX_COSTLY_TABLES = 1_500
# A method that depends on a and d separately (Newcombe) sums over (m, b, a), which holds
# about n^1.5 tables; past this many it is reported with a note instead (from about n = 250).
_MAX_EXPANDED_TABLES = 400_000
_TANGO_HALVINGS = 20


@dataclass(frozen=True, slots=True, kw_only=True)
class TestCharacteristics:
    """Rejection probabilities of one test at level alpha.

    `size` is under the null with the same disagreement (p10 = p01 = (p10 + p01)/2), `power`
    under the given cell probabilities (equal to `size` when p10 = p01).
    """

    __test__ = False  # not a pytest test class, despite its name

    test: str
    name: str
    size: float
    power: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class IntervalCharacteristics:
    """Coverage probability and expected width of one interval method.

    Both are None when the method could not be evaluated at this n; `note` then says why.
    """

    method: str
    name: str
    coverage: float | None
    mean_width: float | None
    note: str | None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class OperatingCharacteristics:
    """Size and power of each test and coverage of each interval for n pairs.

    Attributes
    ----------
    n : int
        Pairs.
    p10, p01, p11 : float
        Cell probabilities: only A passes, only B passes, both pass (p11 matters only to the
        Newcombe interval, which uses the two concordant cells separately).
    difference : float
        The true pass-rate difference A - B, p10 - p01, that an interval should cover.
    alpha, level : float
        Significance level of the tests and confidence level of the intervals.
    tests : tuple of TestCharacteristics
    intervals : tuple of IntervalCharacteristics
    truncation_error : float
        Upper bound on the probability of the tables left out of the sums: every size, power
        and coverage is exact to within it, every mean width to within twice it.
    """

    n: int
    p10: float
    p01: float
    p11: float
    difference: float
    alpha: float
    level: float
    tests: tuple[TestCharacteristics, ...]
    intervals: tuple[IntervalCharacteristics, ...]
    truncation_error: float

    def to_dict(self) -> dict[str, object]:
        result = {name: getattr(self, name) for name in self.__slots__}
        result["tests"] = [test.to_dict() for test in self.tests]
        result["intervals"] = [interval.to_dict() for interval in self.intervals]
        return result


def operating_characteristics(
    n: int,
    p10: float,
    p01: float,
    *,
    p11: float | None = None,
    alpha: float = 0.05,
    level: float = 0.95,
) -> OperatingCharacteristics:
    """Exact size and power of each McNemar test and coverage of each difference interval.

    Parameters
    ----------
    n : int
        Number of pairs, 1 to `MAX_N`.
    p10, p01 : float
        Probabilities that only A passes and that only B passes, each in [0, 1], sum <= 1.
    p11 : float, optional
        Probability that both pass, in [0, 1 - p10 - p01]; only the Newcombe interval depends
        on it. Default: the concordant share split evenly, (1 - p10 - p01)/2.
    alpha : float
        Significance level of the tests, in (0, 1).
    level : float
        Confidence level of the intervals, in (0, 1).

    Returns
    -------
    OperatingCharacteristics

    Raises
    ------
    TypeError, ValueError
        For n outside 1..MAX_N or not an integer, a probability outside its range, or alpha or
        level outside (0, 1).

    Notes
    -----
    Tests: each of the four tests rejects the split (b, m - b) when min(b, m - b) <= k(m), a
    limit found for every m at once (:func:`calculator.rejection.rejection_limits`), each
    split decided by the one p <= alpha rule of :mod:`calculator.significance`. Its rejection
    probability is

        sum_m P[m] (P[b <= k(m) | m] + P[b >= m - k(m) | m]),

    with m ~ Bin(n, psi), psi = p10 + p01, and b | m ~ Bin(m, theta): theta = p10/psi for
    power, theta = 1/2 for size (the null with the same disagreement).

    Intervals: coverage is the probability of the tables whose interval contains p10 - p01,
    and the mean width is the expected upper minus lower limit, summed over the tables (m, b)
    and, for Newcombe, over the both-pass count a | m, b ~ Bin(n - m, p11 / (1 - psi)). Every
    method in :data:`calculator.CI_METHODS` is included, each evaluated over all tables at once
    by its array form (:data:`calculator.intervals.VECTORISED`, the function that
    :func:`calculator.difference_interval` evaluates at one table). The exact-compatible
    interval, which needs a root-finder per table, is computed when there are at most
    :data:`MAX_COSTLY_TABLES` tables and is otherwise reported with a note instead of figures.

    Each sum runs over the central range of each binomial, leaving out at most 1e-12 of the
    probability in each tail; the total left out is reported as `truncation_error` (of order
    1e-12). That makes the cost grow with sqrt(n) for the tests and about linearly for the
    intervals, hence the bound `MAX_N`.

    References
    ----------
    .. [1] Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
           matched-pairs data: mid-p and asymptotic are better than exact conditional.
           BMC Medical Research Methodology 13:91.
    .. [2] Fagerland, M. W., Lydersen, S. & Laake, P. (2014). Recommended tests and confidence
           intervals for paired binomial proportions. Statistics in Medicine 33(16), 2850-2875.

    Examples
    --------
    >>> oc = operating_characteristics(100, 0.15, 0.05)
    >>> {t.test: round(t.size, 4) for t in oc.tests}["exact"]
    0.0294
    >>> coverage = {i.method: i.coverage for i in oc.intervals}
    >>> round(coverage["wald"], 3), round(coverage["agresti-min"], 3)
    (0.947, 0.952)
    """
    n = check_count(n, "n")
    if not 1 <= n <= MAX_N:
        raise CalculatorError(f"`n` must be between 1 and {MAX_N:,}, but got {n}.")
    p10 = check_probability(p10, "p10", open_interval=False)
    p01 = check_probability(p01, "p01", open_interval=False)
    psi = p10 + p01
    if psi > 1 + 1e-12:
        raise CalculatorError(f"`p10` + `p01` must be at most 1, but got {p10} + {p01} = {psi}.")
    psi = min(psi, 1.0)
    if p11 is None:
        p11 = (1.0 - psi) / 2
    p11 = check_probability(p11, "p11", open_interval=False)
    if p11 > 1.0 - psi + 1e-12:
        raise CalculatorError(f"`p11` must be at most 1 - p10 - p01 = {1 - psi}, but got {p11}.")
    alpha = check_probability(alpha, "alpha")
    level = check_probability(level, "level")
    discordant, weights, m_omitted = _central_binomial(n, psi)
    tests = tuple(
        TestCharacteristics(
            test=key,
            name=name,
            size=_rejection_probability(discordant, weights, 0.5, key, alpha),
            power=_rejection_probability(discordant, weights, _theta(p10, p01), key, alpha),
        )
        for key, name in OC_TESTS.items()
    )
    grid = _TableGrid(n, p10, p01, p11, discordant, weights, m_omitted)
    z = float(special.ndtri(0.5 + level / 2))
    intervals = tuple(grid.interval(method, z, level, p10 - p01) for method in CI_METHODS)
    return OperatingCharacteristics(
        n=n,
        p10=p10,
        p01=p01,
        p11=p11,
        difference=p10 - p01,
        alpha=alpha,
        level=level,
        tests=tests,
        intervals=intervals,
        truncation_error=grid.omitted,
    )


def _theta(p10: float, p01: float) -> float:
    psi = p10 + p01
    return 0.5 if psi == 0 else p10 / psi


def _central_binomial(size: int, p: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Counts of Bin(size, p) outside whose range at most TAIL_EPSILON lies, their
    probabilities, and the probability left out."""
    counts, group, weights, omitted = _central_ranges(np.array([size]), p)
    return counts, weights, float(omitted[0])


#: Rounding of a sum of probabilities: within this of 0 or 1 a sum is 0 or 1 (a coverage of
#: every table summed to 0.9999999999999997 and printed as 99.99999999999997%).
_SUM_ROUNDING = 64 * sys.float_info.epsilon


def _coverage(weight: np.ndarray, covered: np.ndarray) -> float:
    """The probability of the tables whose interval covers, in [0, 1]: 1 when every table
    covers, where the sum of all the tables' probabilities rounds to 0.9999999999999997
    (the tails left out are within ``truncation_error``, as everywhere)."""
    total = min(1.0, max(0.0, float(weight @ covered)))
    if bool(np.all(covered)) and total >= 1.0 - _SUM_ROUNDING:
        return 1.0
    return total


def _central_ranges(
    sizes: np.ndarray, p: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The central ranges of Bin(size, p) for several sizes at once, flattened.

    Returns the counts, the index of the size each count belongs to, the probability of each
    count, and per size the probability left out of its range (at most TAIL_EPSILON).
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    if p <= 0 or p >= 1:
        counts = sizes.copy() if p >= 1 else np.zeros_like(sizes)
        index = np.arange(len(sizes))
        return counts, index, np.ones(len(sizes)), np.zeros(len(sizes))
    smallest = min(p, 1.0 - p)
    if int(sizes.max(initial=0)) * smallest <= TAIL_EPSILON / 2:
        # Every count but the mode (0 or size) has probability at most size * p, below the
        # tail bound, so the mode alone is the range. (Boost's binomial pmf overflows on
        # subnormal p, such as 1.1e-308.)
        counts = sizes.copy() if p > 0.5 else np.zeros_like(sizes)
        omitted = -np.expm1(sizes * np.log1p(-smallest))  # 1 - (1 - p)^size
        return counts, np.arange(len(sizes)), 1.0 - omitted, omitted
    low = np.maximum(0, _binom().ppf(TAIL_EPSILON / 2, sizes, p)).astype(np.int64)
    high = np.minimum(sizes, _binom().isf(TAIL_EPSILON / 2, sizes, p)).astype(np.int64)
    high = np.maximum(high, low)
    lengths = high - low + 1
    index = np.repeat(np.arange(len(sizes)), lengths)
    starts = np.cumsum(lengths) - lengths
    counts = low[index] + (np.arange(int(lengths.sum())) - starts[index])
    weights = _binom().pmf(counts, sizes[index], p)
    omitted = _binom().cdf(low - 1, sizes, p) + _binom().sf(high, sizes, p)
    return counts, index, weights, omitted


# --- tests -------------------------------------------------------------------------------------


def _rejection_probability(
    discordant: np.ndarray, weights: np.ndarray, theta: float, test: str, alpha: float
) -> float:
    limits = rejection_limits(discordant, test, alpha)
    lower = _binom().cdf(limits, discordant, theta)  # 0 where the limit is -1
    upper = _binom().sf(discordant - limits - 1, discordant, theta)
    conditional = np.where(2 * limits >= discordant, 1.0, lower + upper)
    conditional = np.where(limits < 0, 0.0, conditional)
    return min(1.0, max(0.0, float(weights @ conditional)))


# --- intervals ---------------------------------------------------------------------------------


class _TableGrid:
    """The tables (m, b) with non-negligible probability, expanded over a when needed."""

    def __init__(
        self,
        n: int,
        p10: float,
        p01: float,
        p11: float,
        discordant: np.ndarray,
        weights: np.ndarray,
        m_omitted: float,
    ) -> None:
        self.n = n
        b, index, b_weight, b_omitted = _central_ranges(discordant, _theta(p10, p01))
        self.m = discordant[index]
        self.b = b
        self.weight = weights[index] * b_weight
        self._omitted = m_omitted + float(weights @ b_omitted)
        concordant = 1.0 - p10 - p01
        self._both_pass_rate = 0.0 if concordant <= 0 else min(1.0, p11 / concordant)
        self._full: tuple[np.ndarray, ...] | None = None

    @property
    def omitted(self) -> float:
        """Probability left out of the sums used so far."""
        return self._omitted + (self._full[5] if self._full is not None else 0.0)

    def expanded_size(self) -> int:
        """How many tables (m, b, a) the sum over the both-pass count would hold."""
        if self._full is not None:
            return len(self._full[0])
        sizes, index = np.unique(self.n - self.m, return_inverse=True)
        rate = self._both_pass_rate
        if rate <= 0 or rate >= 1:
            return len(self.m)
        low = np.maximum(0, _binom().ppf(TAIL_EPSILON / 2, sizes, rate))
        high = np.minimum(sizes, _binom().isf(TAIL_EPSILON / 2, sizes, rate))
        return int(np.maximum(high - low + 1, 1)[index].sum())

    def _expanded(self) -> tuple[np.ndarray, ...]:
        """(a, b, c, d, weight, omitted) over every table, a | m ~ Bin(n - m, p11/(1 - psi))."""
        if self._full is None:
            a, index, a_weight, a_omitted = _central_ranges(self.n - self.m, self._both_pass_rate)
            b = self.b[index]
            c = self.m[index] - b
            d = self.n - a - b - c
            weight = self.weight[index] * a_weight
            self._full = (a, b, c, d, weight, float(self.weight @ a_omitted))
        return self._full

    def interval(
        self, method: str, z: float, level: float, truth: float
    ) -> IntervalCharacteristics:
        name = CI_METHOD_NAMES.get(method, method)
        if uses_concordant_cells(method) and self.expanded_size() > _MAX_EXPANDED_TABLES:
            note = (
                f"Not computed: this method uses the both-pass and both-fail counts separately, "
                f"and at n = {self.n:,} the exact sum runs over {self.expanded_size():,} tables "
                f"(the limit is {_MAX_EXPANDED_TABLES:,})."
            )
            return IntervalCharacteristics(
                method=method, name=name, coverage=None, mean_width=None, note=note
            )
        if uses_concordant_cells(method):
            a, b, c, d, weight, _ = self._expanded()
        else:
            b, c = self.b, self.m - self.b
            a, d = self.n - b - c, np.zeros_like(b)
            weight = self.weight
        if method in COSTLY and len(b) > MAX_COSTLY_TABLES:
            note = (
                f"Not computed: this method needs a root-finder over a numerical integral for "
                f"each table, and n = {self.n:,} has {len(b):,} tables with non-negligible "
                f"probability (the limit is {MAX_COSTLY_TABLES:,})."
            )
            return IntervalCharacteristics(
                method=method, name=name, coverage=None, mean_width=None, note=note
            )
        # Tango's ends need only the three decimals of a mean width: 20 halvings (1.9e-6); its
        # coverage comes from the score itself (COVERS), exactly.
        options = {"halvings": _TANGO_HALVINGS} if method == "tango" else {}
        low, high = VECTORISED[method](a, b, c, d, z, **options)
        low, high = np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0)
        if method in COVERS:
            covered = COVERS[method](a, b, c, d, z, truth)
        else:
            covered = (low <= truth) & (truth <= high)
        return IntervalCharacteristics(
            method=method,
            name=name,
            coverage=_coverage(weight, covered),
            mean_width=max(0.0, float(weight @ (high - low))),
            note=None,
        )
