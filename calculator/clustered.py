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
from scipy import special, stats

from calculator.errors import CalculatorError, CalculatorTypeError

__all__ = ["ClusteredTestResult", "clustered_mcnemar", "cluster_discordant_counts"]

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
        pvalue=float(stats.chi2.sf(statistic, 1)),
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
