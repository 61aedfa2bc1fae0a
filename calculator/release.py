"""Release decisions drawn from an analysis: the gate and the cluster sentence.

The command line (``cases --fail-if-worse``) and the per-case page make the same two decisions,
so both live here:

- :func:`is_worse`: does the exact McNemar test find B worse than A at level alpha?
- :func:`gate_fails`: the release gate in the terms of the analysis' question: with a margin,
  B must be shown non-inferior; otherwise B must not be shown worse.
- :func:`describe_cluster_change`: one sentence on how counting clusters moves the p-value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.clustered import Clusters
from calculator.formatting import format_pvalue
from calculator.significance import exact_test_rejects

if TYPE_CHECKING:
    from calculator.analysis import Analysis
    from calculator.cases import PairedCases
    from calculator.clustered import ClusteredTestResult
    from calculator.mcnemar import Chi2TestResult

__all__ = ["clusters_of", "describe_cluster_change", "gate_fails", "is_worse"]


def clusters_of(cases: PairedCases) -> Clusters | None:
    """The clusters of per-case results by their group column, or None without one: what
    :func:`calculator.analyze` takes so that the decision and the gate count clusters."""
    if not cases.group_column:
        return None
    labels = cases.cases[cases.group_column].astype("str").to_numpy()
    return Clusters.from_outcomes(cases.a_pass, cases.b_pass, labels, column=cases.group_column)


def is_worse(analysis: Analysis, alpha: float) -> bool:
    """True when B passes fewer cases than A and the two-sided exact p is at most `alpha`.

    Parameters
    ----------
    analysis : Analysis
        The analysis of the paired table (:func:`calculator.analyze`).
    alpha : float
        Level of the gate.

    Returns
    -------
    bool
        True when the gate fails: c < b and the exact McNemar p (two-sided, in the analysis'
        convention) is at most `alpha`.

    Notes
    -----
    The comparison is :func:`calculator.significance.exact_test_rejects`, the one rule for
    p <= alpha: an exact p equal to alpha in exact arithmetic (b = 6, c = 0 gives
    2/64 = 0.03125) rejects at alpha = 0.03125, in the gate and in the JSON alike. A B that
    passes more cases than A never fails the gate, however small p is.

    Examples
    --------
    >>> from calculator import analyze
    >>> is_worse(analyze(3, 6, 0, 0), 0.03125)  # p = 2 / 2**6
    True
    >>> is_worse(analyze(3, 0, 6, 0), 0.05)  # B better
    False
    """
    table, exact = analysis.table, analysis.binomial
    return table.c < table.b and exact_test_rejects(
        table.b, table.c, alpha, convention=exact.convention, log10_pvalue=exact.log10_pvalue
    )


def gate_fails(analysis: Analysis) -> bool:
    """The release gate: True when B must not ship, in the terms of ``analysis.decision``.

    - question "non-inferior" (a margin was given): fails unless B is shown non-inferior, i.e.
      unless Tango's score test rejects "B worse by the margin or more" at alpha. Absence of
      evidence of a drop does not pass this gate; evidence that any drop is smaller does.
    - question "worse" (one-sided): fails when the one-sided exact test shows B worse.
    - otherwise ("different"): fails when the decision's two-sided test rejects and B is
      behind: :func:`is_worse` for the exact test, or the cluster-aware test when the analysis
      counted clusters (``analyze(..., clusters=...)``), so a group column is never ignored.

    Examples
    --------
    >>> from calculator import analyze
    >>> gate_fails(analyze(1000, 0, 0, 0, margin=0.01))  # shown non-inferior
    False
    >>> gate_fails(analyze(10, 0, 0, 0, margin=0.01))  # too few cases to show it
    True
    """
    decision = analysis.decision
    if decision.question == "non-inferior":
        return not decision.reject
    if decision.question == "worse":
        return decision.reject
    return decision.reject and decision.estimate < 0


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
    """
    if cluster.statistic is None:
        return "no cluster leans towards either system (every b_i equals c_i), so p = 1."
    factor = cluster.log10_pvalue - plain.log10_pvalue
    times = f"{10**factor:.2g}" if abs(factor) < 300 else f"10^{factor:.0f}"
    both = (
        f"cluster-adjusted McNemar X2 = {cluster.statistic:.3f}, "
        f"p = {format_pvalue(cluster.pvalue, cluster.log10_pvalue)}; plain chi-square "
        f"p = {format_pvalue(plain.pvalue, plain.log10_pvalue)}"
    )
    if times == "1":
        # Equal to two figures (exactly equal when every cluster holds one case).
        return f"{both}: counting clusters leaves p as it was."
    return f"{both}, so counting clusters multiplies p by {times}."
