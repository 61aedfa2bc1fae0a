"""McNemar's test for clustered cases (Durkalski et al. 2003).

Cases drawn from one document, user or prompt template tend to flip together, so they are not
independent and the plain McNemar test, which counts every case as a separate piece of evidence,
gives a p-value that is too small. The cluster-adjusted statistic keeps McNemar's numerator and
estimates its variance from how far each cluster leans towards A or B.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy import special

from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.table import PairedTable
from calculator.tails import log_normal_pvalue

__all__ = [
    "Clusters",
    "ClusteredTestResult",
    "cluster_discordant_counts",
    "cluster_score",
    "cluster_score_interval",
    "clustered_mcnemar",
    "effective_clusters",
    "interval_bound_of",
]

_LN10 = math.log(10.0)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClusteredTestResult:
    """Result of the cluster-adjusted McNemar test.

    Attributes
    ----------
    statistic : float or None
        X2 = (b - c)^2 / sum_i (b_i - c_i)^2, compared with chi-square on 1 df; None when no
        cluster leans either way (the ratio is 0/0).
    pvalue : float
        P[chi2_1 >= X2]; may underflow to 0.0, see `log10_pvalue`.
    log10_pvalue : float
        log10 of the p-value, finite for every input.
    clusters : int
        Number of clusters, including those whose cases all agree.
    """

    statistic: float | None
    pvalue: float
    log10_pvalue: float
    clusters: int

    def to_dict(self) -> dict[str, object]:
        """The result as plain JSON types (None, never NaN)."""
        return asdict(self)


def clustered_mcnemar(
    b_counts: Sequence[int] | np.ndarray, c_counts: Sequence[int] | np.ndarray
) -> ClusteredTestResult:
    """Cluster-adjusted McNemar test of Durkalski, Palesch, Lipsitz & Rust (2003).

    Parameters
    ----------
    b_counts, c_counts : sequence of int
        For each cluster i, b_i = cases in it that only A passes and c_i = cases only B passes.
        Equal lengths, at least one cluster, non-negative integers.

    Returns
    -------
    ClusteredTestResult

    Raises
    ------
    TypeError
        If the counts are not integers.
    ValueError
        If a count is negative, the lengths differ or there is no cluster.

    Notes
    -----
    With b = sum b_i and c = sum c_i,

        X2 = (b - c)^2 / sum_i (b_i - c_i)^2,   p = P[chi2_1 >= X2].

    The denominator estimates the variance of b - c from the clusters themselves, so cases that
    flip together count as one piece of evidence. When every cluster holds a single case, each
    (b_i - c_i)^2 is b_i + c_i and X2 is the uncorrected McNemar statistic (b - c)^2 / (b + c).

    Degenerate cases, decided on purpose:

    - sum_i (b_i - c_i)^2 = 0 happens exactly when every cluster has b_i = c_i (so b = c too),
      including when there are no discordant cases at all. No cluster leans either way, the
      statistic is 0/0 and is reported as None with p = 1, as the plain test reports p = 1
      without discordant pairs.
    - A single leaning cluster gives X2 = 1 whatever its counts: the chi-square reference is
      an approximation in the number of clusters and says little with only a few of them.

    The p-value is 2 Phi(-sqrt(X2)) (the chi-square 1-df tail), and its log10 comes from
    ``scipy.special.log_ndtr`` so that it stays finite where the p-value underflows.

    References
    ----------
    V. L. Durkalski, Y. Y. Palesch, S. R. Lipsitz and P. F. Rust, "Analysis of clustered
    matched-pair data," Statistics in Medicine, vol. 22, no. 15, pp. 2417-2428, 2003.

    Examples
    --------
    Four documents with (b_i, c_i) = (3, 0), (2, 1), (0, 2), (4, 1): b - c = 9 - 4 = 5 and
    sum (b_i - c_i)^2 = 9 + 1 + 4 + 9 = 23, so X2 = 25/23.

    >>> result = clustered_mcnemar([3, 2, 0, 4], [0, 1, 2, 1])
    >>> round(result.statistic, 4), round(result.pvalue, 4), result.clusters
    (1.087, 0.2971, 4)
    >>> clustered_mcnemar([1, 0], [1, 0]).pvalue  # every cluster balanced
    1.0
    """
    b_i = _check_counts(b_counts, "b_counts")
    c_i = _check_counts(c_counts, "c_counts")
    if b_i.size != c_i.size:
        raise CalculatorError(
            f"`b_counts` and `c_counts` must have one entry per cluster, but got {b_i.size} "
            f"and {c_i.size} entries."
        )
    if b_i.size == 0:
        raise CalculatorError("`b_counts` must hold at least one cluster, but got none.")
    lean = b_i - c_i
    denominator = float(np.sum(lean.astype(np.float64) ** 2))
    if denominator == 0.0:
        return ClusteredTestResult(
            statistic=None, pvalue=1.0, log10_pvalue=0.0, clusters=int(b_i.size)
        )
    difference = float(np.sum(lean))
    statistic = difference**2 / denominator
    log_p = min(0.0, math.log(2.0) + float(special.log_ndtr(-math.sqrt(statistic))))
    return ClusteredTestResult(
        statistic=statistic,
        pvalue=float(special.chdtrc(1, statistic)),  # chi-square(1) upper tail
        log10_pvalue=log_p / _LN10,
        clusters=int(b_i.size),
    )


def cluster_discordant_counts(
    a_pass: Sequence[bool] | np.ndarray,
    b_pass: Sequence[bool] | np.ndarray,
    groups: Sequence[object] | np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster discordant counts (b_i, c_i) from per-case outcomes and cluster labels.

    Parameters
    ----------
    a_pass, b_pass : sequence of bool
        Whether A (and B) passes each case.
    groups : sequence
        The cluster label of each case (any hashable, comparable values such as str or int).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        b_i (only A passes) and c_i (only B passes) for each cluster, in sorted label order;
        clusters where the systems always agree have b_i = c_i = 0 and are kept.

    Raises
    ------
    ValueError
        If the three sequences differ in length.

    Examples
    --------
    >>> b_i, c_i = cluster_discordant_counts(
    ...     [True, True, False, True], [False, True, True, False], ["d1", "d1", "d2", "d3"]
    ... )
    >>> b_i.tolist(), c_i.tolist()
    ([1, 0, 1], [0, 1, 0])
    """
    a_flags = np.asarray(a_pass, dtype=bool)
    b_flags = np.asarray(b_pass, dtype=bool)
    labels = np.asarray(groups)
    if not a_flags.shape == b_flags.shape == labels.shape or a_flags.ndim != 1:
        raise CalculatorError(
            "`a_pass`, `b_pass` and `groups` must be flat sequences of one length, but got "
            f"shapes {a_flags.shape}, {b_flags.shape} and {labels.shape}."
        )
    _, cluster_of_case = np.unique(labels, return_inverse=True)
    clusters = int(cluster_of_case.max()) + 1 if labels.size else 0
    only_a = np.bincount(cluster_of_case, weights=a_flags & ~b_flags, minlength=clusters)
    only_b = np.bincount(cluster_of_case, weights=b_flags & ~a_flags, minlength=clusters)
    return only_a.astype(np.int64), only_b.astype(np.int64)


def _check_counts(values: object, name: str) -> np.ndarray:
    counts = np.asarray(values)
    if counts.ndim != 1:
        raise CalculatorError(
            f"`{name}` must be a flat sequence of counts, but got shape {counts.shape}."
        )
    if counts.size and (counts.dtype.kind not in "iu"):
        raise CalculatorTypeError(
            f"`{name}` must hold integers, but got values of type {counts.dtype}."
        )
    negative = np.flatnonzero(counts < 0) if counts.size else np.array([], dtype=int)
    if negative.size:
        first = int(negative[0])
        raise CalculatorError(
            f"`{name}` must be non-negative, but got {int(counts[first])} for cluster {first}."
        )
    return counts.astype(np.int64)


@dataclass(frozen=True, slots=True, kw_only=True)
class Clusters:
    """Per-cluster counts for a cluster-aware decision: b_i, c_i and the cluster sizes n_i.

    Build it with :meth:`from_outcomes` (per-case outcomes and labels) or :meth:`from_counts`.

    Attributes
    ----------
    b_counts, c_counts : tuple of int
        Cases of each cluster that only A passes, and only B passes.
    sizes : tuple of int
        Cases in each cluster, agreeing ones included (n_i >= b_i + c_i).
    column : str or None
        The column the clusters came from, for the sentences.
    """

    b_counts: tuple[int, ...]
    c_counts: tuple[int, ...]
    sizes: tuple[int, ...]
    column: str | None = None

    @classmethod
    def from_counts(
        cls,
        b_counts: Sequence[int] | np.ndarray,
        c_counts: Sequence[int] | np.ndarray,
        sizes: Sequence[int] | np.ndarray,
        *,
        column: str | None = None,
    ) -> Clusters:
        """Checked per-cluster counts (non-negative integers, n_i >= b_i + c_i, n_i >= 1)."""
        b_i = _check_counts(b_counts, "b_counts")
        c_i = _check_counts(c_counts, "c_counts")
        n_i = _check_counts(sizes, "sizes")
        if not b_i.size == c_i.size == n_i.size or b_i.size == 0:
            raise CalculatorError(
                "`b_counts`, `c_counts` and `sizes` must have one entry per cluster and at "
                f"least one cluster, but got {b_i.size}, {c_i.size} and {n_i.size} entries."
            )
        bad = np.flatnonzero((n_i < b_i + c_i) | (n_i < 1))
        if bad.size:
            i = int(bad[0])
            raise CalculatorError(
                f"Cluster {i} holds {int(n_i[i])} cases but {int(b_i[i] + c_i[i])} discordant "
                "ones: each size must be at least 1 and at least b_i + c_i."
            )
        return cls(
            b_counts=tuple(int(x) for x in b_i),
            c_counts=tuple(int(x) for x in c_i),
            sizes=tuple(int(x) for x in n_i),
            column=column,
        )

    @classmethod
    def from_outcomes(
        cls,
        a_pass: Sequence[bool] | np.ndarray,
        b_pass: Sequence[bool] | np.ndarray,
        groups: Sequence[object] | np.ndarray,
        *,
        column: str | None = None,
    ) -> Clusters:
        """The clusters of per-case outcomes, one per distinct label of `groups`."""
        b_i, c_i = cluster_discordant_counts(a_pass, b_pass, groups)
        _, cluster_of_case = np.unique(np.asarray(groups), return_inverse=True)
        n_i = np.bincount(cluster_of_case.ravel(), minlength=b_i.size)
        return cls.from_counts(b_i, c_i, n_i, column=column)

    @property
    def count(self) -> int:
        """Number of clusters."""
        return len(self.sizes)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """d_i = c_i - b_i (B's lead in cluster i) and n_i, as float arrays."""
        lead = np.asarray(self.c_counts, dtype=np.float64) - np.asarray(self.b_counts, np.float64)
        return lead, np.asarray(self.sizes, dtype=np.float64)


def cluster_score(clusters: Clusters, null_difference: float) -> float:
    """The cluster-robust score statistic for H0: pB - pA = D0, positive when B does better.

    Z(D0) = (sum_i d_i - n D0) / sqrt(sum_i (d_i - n_i D0)^2), with d_i = c_i - b_i and n the
    number of cases. At D0 = 0 its square is the clustered McNemar statistic of Durkalski et al.
    (2003), :func:`clustered_mcnemar`; see :func:`cluster_score_interval` for the references.

    Examples
    --------
    >>> clusters = Clusters.from_counts([3, 2, 0, 4], [0, 1, 2, 1], [5, 5, 5, 5])
    >>> round(cluster_score(clusters, 0.0) ** 2, 4)  # 25/23, Durkalski's X2
    1.087
    """
    lead, sizes = clusters.arrays()
    numerator = float(np.sum(lead) - np.sum(sizes) * null_difference)
    variance = float(np.sum((lead - sizes * null_difference) ** 2))
    if variance == 0.0:
        return 0.0 if numerator == 0.0 else math.copysign(math.inf, numerator)
    return numerator / math.sqrt(variance)


def effective_clusters(clusters: Clusters) -> float:
    """n^2 / sum_i n_i^2, the effective number of clusters: the number of clusters when they
    are of one size, fewer when their sizes differ (900 of 1,000 cases in one cluster and 100
    of one case each give 1.23).

    Examples
    --------
    >>> effective_clusters(Clusters.from_counts([1, 0], [0, 1], [900, 100]))
    1.2195121951219512
    """
    _, sizes = clusters.arrays()
    n = float(np.sum(sizes))
    return n * n / float(np.sum(sizes * sizes))


def interval_bound_of(level: float) -> float:
    """z^2 at `level` (two-sided): the cluster-robust interval is bounded only when the
    effective number of clusters (:func:`effective_clusters`) exceeds it; at or below it no
    finite interval covers the set of differences the data allow, whatever the data.

    Examples
    --------
    >>> round(interval_bound_of(0.95), 4), round(interval_bound_of(0.90), 4)
    (3.8415, 2.7055)
    """
    z = float(special.ndtri(0.5 + level / 2.0))
    return z * z


def cluster_score_interval(clusters: Clusters, level: float) -> tuple[float, float]:
    """The D0 with |Z(D0)| <= z_{(1+level)/2}: a cluster-robust interval for pB - pA.

    Parameters
    ----------
    clusters : Clusters
        Per-cluster counts.
    level : float
        Confidence level, strictly between 0 and 1.

    Returns
    -------
    (float, float)
        The interval for pB - pA, within [-1, 1]; the whole of [-1, 1] when the clusters are
        too few or too unequal to bound it (n^2 <= z^2 sum_i n_i^2).

    Notes
    -----
    With S = sum_i d_i, n = sum_i n_i and z the normal quantile, |Z(D0)| <= z is the quadratic
    inequality

        (n^2 - z^2 sum n_i^2) D0^2 - 2 (n S - z^2 sum n_i d_i) D0 + (S^2 - z^2 sum d_i^2) <= 0,

    which holds at the estimate S/n. When its leading coefficient is positive (n^2 / sum n_i^2,
    an effective number of clusters, exceeds z^2) the set is the interval between the two
    roots; otherwise no finite interval covers it and [-1, 1] is returned.

    Z is the ratio-estimator statistic of Obuchowski (1998) for a difference of correlated
    proportions from clustered data, with its variance taken under the null (the residuals
    d_i - n_i D0 rather than d_i - n_i S/n), as Durkalski et al. (2003) take it at D0 = 0;
    inverting a score statistic in this way is how Tango (1998) builds the paired interval.

    References
    ----------
    .. [1] Obuchowski, N. A. (1998). On the comparison of correlated proportions for clustered
           data. Statistics in Medicine 17(13), 1495-1507.
    .. [2] Durkalski, V. L., Palesch, Y. Y., Lipsitz, S. R. & Rust, P. F. (2003). Analysis of
           clustered matched-pair data. Statistics in Medicine 22(15), 2417-2428.
    .. [3] Tango, T. (1998). Equivalence test and confidence interval for the difference in
           proportions for the paired-sample design. Statistics in Medicine 17(8), 891-908.

    Examples
    --------
    >>> clusters = Clusters.from_counts([8, 0] * 20, [0, 8] * 20, [25] * 40)
    >>> [round(100 * x, 1) for x in cluster_score_interval(clusters, 0.90)]
    [-8.6, 8.6]
    """
    lead, sizes = clusters.arrays()
    z2 = interval_bound_of(level)
    if effective_clusters(clusters) <= z2:  # n^2 <= z^2 sum n_i^2: no finite interval
        return -1.0, 1.0
    n, total = float(np.sum(sizes)), float(np.sum(lead))
    quad_a = n * n - z2 * float(np.sum(sizes * sizes))
    half_b = -(n * total - z2 * float(np.sum(sizes * lead)))
    quad_c = total * total - z2 * float(np.sum(lead * lead))
    if quad_a <= 0.0:  # rounding at the boundary
        return -1.0, 1.0
    root = math.sqrt(max(0.0, half_b * half_b - quad_a * quad_c))
    low, high = (-half_b - root) / quad_a, (-half_b + root) / quad_a
    return max(-1.0, low), min(1.0, high)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClusterAwareTest:
    """A test of pB - pA that counts clusters, and its interval (see :func:`cluster_aware_test`).

    Attributes
    ----------
    statistic : float
        z at the null boundary, positive when B does better than it.
    log10_pvalue : float
        log10 of the p-value.
    low, high, level : float
        The interval for pB - pA and its level.
    """

    statistic: float
    log10_pvalue: float
    low: float
    high: float
    level: float


def cluster_aware_test(
    table: PairedTable, clusters: Clusters, *, null: float, alternative: str, level: float
) -> ClusterAwareTest:
    """A test of H0: pB - pA = `null` that is never stronger than either the cluster-robust
    score test or Tango's score test of the same table, and the interval that matches it.

    Parameters
    ----------
    table : PairedTable
        The paired table of all the cases.
    clusters : Clusters
        The same cases by cluster (sum b_i = b, sum c_i = c, sum n_i = n).
    null : float
        D0, the null value of pB - pA (0, or minus or plus a margin).
    alternative : {"two-sided", "greater", "less"}
        "greater": H1 pB - pA > D0.
    level : float
        Level of the interval (1 - alpha for a two-sided test, 1 - 2 alpha for one-sided).

    Notes
    -----
    z is whichever of the cluster-robust Z(D0) (:func:`cluster_score`) and Tango's T(D0) is
    smaller in size (they share the numerator b - c - n D0, so their sign), and the interval is
    the hull of the two intervals, so the test rejects exactly when the interval clears D0.
    Taking the weaker of the two keeps the decision from claiming more than the plain test when
    clusters vary less than independent cases would, and gives a usable answer when the
    cluster-robust variance is degenerate (every case agreeing: then Z is +/- the effective
    number of clusters, whatever D0).

    Examples
    --------
    >>> clusters = Clusters.from_counts([8, 0] * 20, [0, 8] * 20, [25] * 40)
    >>> result = cluster_aware_test(
    ...     PairedTable(680, 160, 160, 0), clusters, null=-0.05, alternative="greater", level=0.9
    ... )
    >>> round(result.statistic, 3), round(100 * result.low, 1)
    (0.976, -8.6)
    """
    from calculator.noninferiority import b_minus_a_interval, score_test

    if not (sum(clusters.b_counts), sum(clusters.c_counts), sum(clusters.sizes)) == (
        table.b,
        table.c,
        table.n,
    ):
        raise CalculatorError(
            "The clusters must hold the table's cases: sum b_i, sum c_i and sum n_i must be "
            f"b = {table.b}, c = {table.c} and n = {table.n}."
        )
    tango, _ = score_test(table.b, table.c, table.n, null, "two-sided")
    robust = cluster_score(clusters, null)
    z = tango if abs(tango) <= abs(robust) else robust
    log_p = log_normal_pvalue(z, alternative)
    tango_low, tango_high = b_minus_a_interval(table, (1.0 - level) / 2.0)
    robust_low, robust_high = cluster_score_interval(clusters, level)
    return ClusterAwareTest(
        statistic=z,
        log10_pvalue=log_p / _LN10,
        low=min(tango_low, robust_low),
        high=max(tango_high, robust_high),
        level=level,
    )
