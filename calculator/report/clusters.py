"""The sentence on clustered cases: how counting clusters moves McNemar's p-value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.formatting import format_p_equals

if TYPE_CHECKING:
    from calculator.clustered import ClusteredTestResult
    from calculator.mcnemar import Chi2TestResult

__all__ = ["describe_cluster_change"]


def describe_cluster_change(cluster: ClusteredTestResult, plain: Chi2TestResult) -> str:
    """One sentence comparing the cluster-adjusted test with the plain (uncorrected) chi-square.

    Parameters
    ----------
    cluster : ClusteredTestResult
        The cluster-adjusted McNemar test (:func:`calculator.clustered_mcnemar`).
    plain : Chi2TestResult
        McNemar's chi-square test of the same table, without continuity correction.

    Returns
    -------
    str
        The adjusted statistic and p, the plain p, and the factor by which counting clusters
        multiplies p (as a power of ten when it is beyond 1e300).

    Examples
    --------
    >>> from calculator import mcnemar_chi2
    >>> from calculator.clustered import clustered_mcnemar
    >>> cluster = clustered_mcnemar([3, 2, 0, 4], [0, 1, 2, 1])
    >>> text = describe_cluster_change(cluster, mcnemar_chi2(9, 4))
    >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
    cluster-adjusted McNemar X2 = 1.087, p = 0.297; plain chi-square p = 0.166, so counting
    clusters multiplies p by 1.8.
    >>> print(describe_cluster_change(clustered_mcnemar([15], [5]), mcnemar_chi2(15, 5)))
    ... # doctest: +NORMALIZE_WHITESPACE
    one cluster cannot carry a test: its cluster-adjusted McNemar X2 is 1 whatever the cases, so
    no p is given (plain chi-square p = 0.025, which counts every case as independent).
    """
    if cluster.statistic is None:
        return "no cluster leans towards either system (every b_i equals c_i), so p = 1."
    if cluster.clusters == 1:  # X2 = d^2/d^2 = 1 whatever the cases: no test to report
        plain_p = format_p_equals(plain.pvalue, plain.log10_pvalue)
        return (
            "one cluster cannot carry a test: its cluster-adjusted McNemar X2 is 1 whatever the "
            f"cases, so no p is given (plain chi-square {plain_p}, which counts every case as "
            "independent)."
        )
    factor = cluster.log10_pvalue - plain.log10_pvalue
    times = f"{10**factor:.2g}" if abs(factor) < 300 else f"10^{factor:.0f}"
    both = (
        f"cluster-adjusted McNemar X2 = {cluster.statistic:.3f}, "
        f"{format_p_equals(cluster.pvalue, cluster.log10_pvalue)}; plain chi-square "
        f"{format_p_equals(plain.pvalue, plain.log10_pvalue)}"
    )
    if times == "1":
        # Equal to two figures (exactly equal when every cluster holds one case).
        return f"{both}: counting clusters leaves p as it was."
    return f"{both}, so counting clusters multiplies p by {times}."
