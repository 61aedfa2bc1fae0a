"""Release decisions drawn from an analysis: the gate, and the clusters it counts.

The command line (``cases --fail-if-worse``) and the per-case page make the same two decisions,
so both live here:

- :func:`is_worse`: does the exact McNemar test find B worse than A at level alpha?
- :func:`gate_fails`: the release gate in the terms of the analysis' question: with a margin,
  B must be shown non-inferior; otherwise B must not be shown worse.
- :func:`scores_gate_fails`: the same gate on per-case scores (the mean score).
- :func:`gate_margin_too_wide`: the widest margin a gate on pass rates takes
  (:data:`GATE_MARGIN_LIMIT`), refused by the command line and given no verdict on the page.
- :func:`anytime_gate`: the gate by the one-sided anytime-valid test, for a file that is
  re-gated as it grows (``--fail-if-worse --anytime``).
- :func:`clusters_of`: the clusters of per-case results, for :func:`calculator.analyze`.

The sentence on how counting clusters moves the p-value is
:func:`calculator.report.clusters.describe_cluster_change`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from calculator.anytime import AnytimeAnalysis, anytime_analysis
from calculator.clustered import Clusters
from calculator.decision import Decision
from calculator.errors import CalculatorError
from calculator.significance import exact_test_rejects, pvalue_rejects

if TYPE_CHECKING:
    from calculator.analysis import Analysis
    from calculator.cases import PairedCases
    from calculator.scores import ScoresComparison

__all__ = [
    "GATE_MARGIN_LIMIT",
    "anytime_gate",
    "clusters_of",
    "gate_margin_too_wide",
    "gate_fails",
    "gate_question",
    "is_worse",
    "resamples_to_decide",
    "scores_gate_fails",
    "scores_gate_undecided",
]


#: Largest margin a release gate on pass rates takes: a gate that lets B ship more than 10 points
#: worse than A gates nothing, and such a value is most likely points typed as a share.
GATE_MARGIN_LIMIT = 0.10


def gate_margin_too_wide(margin: float | None) -> bool:
    """True when `margin` (a share of pass rate) is wider than a release gate takes: above
    :data:`GATE_MARGIN_LIMIT`. The command line refuses such a gate and the page words no
    verdict for it, so the two never disagree.

    Examples
    --------
    >>> gate_margin_too_wide(0.10), gate_margin_too_wide(0.1000001), gate_margin_too_wide(None)
    (False, True, False)
    """
    return margin is not None and margin > GATE_MARGIN_LIMIT


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
    2/64 = 0.03125) rejects at α = 0.03125, in the gate and in the JSON alike. A B that
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


def gate_fails(result: Analysis | Decision) -> bool:
    """The release gate: True when B must not ship, in the terms of the decision (an
    analysis' ``decision``, or a :class:`~calculator.Decision` itself).

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
    decision = result if isinstance(result, Decision) else result.decision
    if decision.question in ("better", "equivalent"):
        raise CalculatorError(
            f"the release gate asks whether B is worse; a {decision.question!r} decision does "
            "not answer that: decide the gate's own question (gate_question)"
        )
    if decision.question == "non-inferior":
        return not decision.reject
    if decision.question == "worse":
        return decision.reject
    return decision.reject and decision.estimate > 0  # A - B: A ahead, B worse


def anytime_gate(analysis: Analysis, prior_shape: float = 1.0) -> AnytimeAnalysis:
    """The anytime-valid release gate's test (``cases --fail-if-worse --anytime``): the
    one-sided anytime-valid test of "B passes no less often than A" at the decision's alpha;
    the gate fails when it rejects (``.rejects``). Its p comes from the final counts alone, so
    the verdict does not depend on the order of the file's rows; re-running it on a file that
    grows case by case fails it, when B is in truth no worse, with probability at most alpha
    over every re-run together (Ville's inequality), if the cases are appended in an order not
    chosen by their outcomes and each decision to go on uses only the cases seen.

    Examples
    --------
    >>> from calculator import analyze
    >>> gate = anytime_gate(analyze(50, 35, 15, 0))
    >>> gate.test.alternative, round(gate.test.pvalue, 4), gate.rejects
    ('less', 0.0511, False)
    """
    table = analysis.table
    return anytime_analysis(
        table.b,
        table.c,
        n=table.n,
        alternative="less",
        alpha=analysis.decision.alpha,
        prior_shape=prior_shape,
        names=analysis.names,
        framing=analysis.framing,
    )


def gate_question(question: str, margin: float | None) -> tuple[str, float | None]:
    """The question the release gate asks, given the one a page or a user asked.

    The gate (``cases --fail-if-worse``) fails when B is worse: with a margin, unless B is
    shown non-inferior; asked "worse", when the one-sided test shows it; otherwise when the
    two-sided test shows B behind. "Better" and "equivalent" are not the gate's questions, so
    it asks the two-sided one for them.

    Examples
    --------
    >>> gate_question("better", None), gate_question("equivalent", 0.05)
    (('different', None), ('different', None))
    >>> gate_question("non-inferior", 0.01)
    ('non-inferior', 0.01)
    """
    if question in ("non-inferior", "worse"):
        return question, margin
    return "different", None


def scores_gate_fails(result: ScoresComparison, alpha: float) -> bool:
    """The release gate on scores: True when B must not ship.

    With a margin, it fails unless B is shown non-inferior on the mean score
    (:mod:`calculator.scores.margin`). Without, it fails when B's mean is worse (lower; higher
    when ``result.better`` is "lower": error rates, losses) and the headline
    test (the sign-flip permutation test, or the paired t test when that one was not run)
    rejects at `alpha`; an undefined test never fails it. A Monte Carlo p at its floor above
    `alpha` decides nothing: with B's mean lower that is refused (:func:`scores_gate_undecided`).

    Raises
    ------
    calculator.errors.CalculatorError
        When :func:`scores_gate_undecided`: the message says how many resamples can decide.

    Examples
    --------
    >>> from calculator.scores import compare_scores
    >>> a, b = [0.9, 0.8, 0.75, 1.0, 0.6, 0.7], [0.5, 0.4, 0.35, 0.6, 0.2, 0.3]
    >>> scores_gate_fails(compare_scores(a, b), 0.05)  # p = 2/64 at most: B lower every time
    True
    """
    if result.margin is not None:
        return not result.margin.non_inferior
    if not _b_behind(result):
        return False
    if result.permutation is not None:
        rejects = result.permutation.rejects(alpha)
        if rejects is None:
            raise CalculatorError(_undecided(result.permutation.patterns, alpha))
        return rejects
    pvalue = result.t_test.pvalue
    return pvalue is not None and pvalue_rejects(pvalue, alpha)


def scores_gate_undecided(result: ScoresComparison, alpha: float) -> bool:
    """True when the gate on scores cannot be decided at `alpha`: B's mean is lower and the
    Monte Carlo sign-flip p sits at its floor 1/(R + 1) above `alpha`, so the R patterns cannot
    tell whether p <= alpha (:func:`calculator.significance.monte_carlo_rejects`);
    :func:`scores_gate_fails` then refuses to decide."""
    test = result.permutation
    return (
        result.margin is None
        and _b_behind(result)
        and test is not None
        and test.rejects(alpha) is None
    )


def _b_behind(result: ScoresComparison) -> bool:
    """B's mean is on the worse side of A's: lower, or higher when lower scores are better."""
    return result.statistic < 0 if result.better == "lower" else result.statistic > 0


def resamples_to_decide(alpha: float) -> int:
    """The fewest Monte Carlo resamples R whose floor 1/(R + 1) is at most `alpha`.

    Examples
    --------
    >>> resamples_to_decide(1e-5), resamples_to_decide(0.05)
    (99999, 19)
    """
    needed = max(1, math.ceil(1.0 / alpha) - 1)
    while 1.0 / (needed + 1) > alpha:
        needed += 1
    return needed


def _undecided(resamples: int, alpha: float) -> str:
    from calculator.scores.resampling import MAX_RESAMPLES

    needed = resamples_to_decide(alpha)
    advice = (
        f"at least {needed:,} resamples can decide it"
        if needed <= MAX_RESAMPLES
        else f"that takes {needed:,} resamples, more than the {MAX_RESAMPLES:,} allowed, so "
        f"the permutation test cannot decide a gate below α = 1/{MAX_RESAMPLES + 1:,}"
    )
    return (
        f"the release gate is not decided at α = {alpha:g}: none of the {resamples:,} "
        "random sign patterns was as extreme as the data, so all they show is p ≤ "
        f"1/{resamples + 1:,}, above α; {advice}"
    )
