"""The release gate's verdict in words: ``cases --fail-if-worse`` on a table and on scores.

The gate's decision is :func:`calculator.release.gate_fails` (pass/fail cases) or
:func:`calculator.release.scores_gate_fails` (scores); this module says what it decided and
why, for the command line, the harness-log report and the JSON's readers alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.errors import CalculatorError
from calculator.rejection import smallest_pvalue
from calculator.release import (
    GATE_MARGIN_LIMIT,
    gate_fails,
    scores_gate_fails,
    scores_gate_undecided,
)
from calculator.report.decision import named_test
from calculator.report.figures import floor_undecided
from calculator.report.formatting import (
    format_p_equals,
    margin_number,
    plural,
    points_of,
)
from calculator.report.scores import permutation_p

if TYPE_CHECKING:
    from calculator.analysis import Analysis
    from calculator.scores import ScoresComparison

__all__ = [
    "gate_payload",
    "gate_verdict",
    "scores_gate_payload",
    "scores_gate_verdict",
    "too_wide_for_a_gate",
]


def too_wide_for_a_gate(margin: float, names: tuple[str, str] = ("A", "B")) -> str:
    """Why a margin above :data:`calculator.release.GATE_MARGIN_LIMIT` gets no gate verdict
    (:func:`calculator.release.gate_margin_too_wide`), as a clause after the margin: the
    command line's refusal and the page's sentence both say it.

    Examples
    --------
    >>> print(too_wide_for_a_gate(0.2))  # doctest: +NORMALIZE_WHITESPACE
    lets the gate pass B up to 20 points worse than A, more than the 10 points a release gate
    takes
    """
    name_a, name_b = names
    return (
        f"lets the gate pass {name_b} up to {margin_number(margin)} points worse than {name_a}, "
        f"more than the {margin_number(GATE_MARGIN_LIMIT)} points a release gate takes"
    )


def gate_verdict(analysis: Analysis, alpha: float) -> str:
    """The gate's verdict on a table, decided and worded from ``analysis.decision`` (with
    clusters, the cluster-aware test).

    Examples
    --------
    >>> from calculator import analyze
    >>> gate_verdict(analyze(60, 15, 5, 20), 0.05)
    'FAIL: B is worse than A at α = 0.05 (two-sided exact McNemar test, p = 0.041)'
    >>> gate_verdict(analyze(60, 5, 15, 20), 0.05)
    'pass: B is better than A at α = 0.05 (two-sided exact McNemar test, p = 0.041)'
    >>> gate_verdict(analyze(10, 0, 0, 0, margin=0.01), 0.05)
    'FAIL: B is not shown non-inferior to A at a margin of 1 point (p = 0.375 > α = 0.05)'
    """
    decision = analysis.decision
    if decision.question in ("better", "equivalent"):
        # The gate asks whether B is worse (with a margin: non-inferior); worded from a "better"
        # or equivalence decision it read "two-sided one-sided exact McNemar test".
        raise CalculatorError(
            f'The release gate answers "different", "worse" or "non-inferior", but the analysis '
            f'asks "{decision.question}": analyse the table without that question for the gate.'
        )
    if decision.question in ("non-inferior", "worse"):
        return _one_sided_verdict(analysis)
    name_a, name_b = analysis.names
    worse = gate_fails(analysis)
    verdict = f"FAIL: {name_b} is worse" if worse else f"pass: {name_b} is not shown worse"
    if not worse and decision.reject:  # significant, the other way: B better, said so
        verdict = f"pass: {name_b} is better"
    test = _two_sided_test(analysis)
    m = analysis.table.discordant
    clustered = decision.interval_method == "cluster-robust"
    # smallest_pvalue is a power of two, exact in floating point: this comparison is the rule.
    vacuous = (
        ""
        if worse or clustered or smallest_pvalue(m, analysis.convention) <= alpha
        else f"; with {plural(m, 'discordant pair')} no split could fail it"
    )
    return (
        f"{verdict} than {name_a} at α = {alpha:g} ({test}, "
        f"{format_p_equals(decision.pvalue, decision.log10_pvalue, alpha=alpha)}){vacuous}"
    )


def _two_sided_test(analysis: Analysis) -> str:
    """The two-sided test a gate without a margin or a one-sided question decides by."""
    decision = analysis.decision
    test = named_test(decision, two_sided=True)  # asked "different": the test is two-sided
    return f"two-sided {test}" if decision.method == "cluster" else test


def _gate_json(
    *,
    fails: bool | None,
    test: str,
    pvalue: float | None,
    alpha: float,
    sentence: str,
    pvalue_is_bound: bool = False,
) -> dict[str, object]:
    """The one form of the gate's verdict in the JSON, for every path that gates."""
    verdict = "undecided" if fails is None else ("fail" if fails else "pass")
    return {
        "verdict": verdict,
        "fails": fails,
        "test": test,
        "pvalue": pvalue,
        "pvalue_is_bound": pvalue_is_bound,
        "alpha": alpha,
        "sentence": sentence,
    }


def gate_payload(analysis: Analysis, alpha: float) -> dict[str, object]:
    """The gate's verdict on a table for the JSON's "gate" key: "verdict" ("pass" or "fail"),
    "fails", the "test" that decided it, its "pvalue" and the "alpha" it was held to (with a
    margin or the question "worse", the decision's own), and the "sentence" the text prints.

    Examples
    --------
    >>> from calculator import analyze
    >>> gate = gate_payload(analyze(60, 15, 5, 20), 0.05)
    >>> gate["verdict"], gate["test"], round(gate["pvalue"], 4), gate["alpha"]
    ('fail', 'two-sided exact McNemar test', 0.0414, 0.05)
    """
    decision = analysis.decision
    sentence = gate_verdict(analysis, alpha)  # refuses the questions a gate does not answer
    if decision.question == "non-inferior":
        test = f"one-sided {named_test(decision)} of non-inferiority"
        level = decision.alpha
    elif decision.question == "worse":
        test, level = named_test(decision), decision.alpha
    else:
        test, level = _two_sided_test(analysis), alpha
    return _gate_json(
        fails=gate_fails(analysis),
        test=test,
        pvalue=decision.pvalue,
        alpha=level,
        sentence=sentence,
    )


def _one_sided_verdict(analysis: Analysis) -> str:
    """With a margin (pass only when B is shown non-inferior) or the question "worse" (fail
    when B is shown worse): the verdict with the reason."""
    decision = analysis.decision
    name_a, name_b = analysis.names
    # "p = 0.375", or "p < 1e-300 (log10 p = ...)": never "p = < 1e-300".
    p_text = format_p_equals(decision.pvalue, decision.log10_pvalue, alpha=decision.alpha)
    side = "≤" if decision.reject else ">"
    shown = "shown" if decision.reject else "not shown"
    if decision.question == "non-inferior":
        margin = points_of(decision.margin or 0.0)
        reason = f"{name_b} is {shown} non-inferior to {name_a} at a margin of {margin}"
    else:
        # The decision's own test: exact, mid-p or cluster-robust ("the one-sided exact test"
        # was said of all three).
        reason = f"{name_b} is {shown} worse than {name_a} by the {named_test(decision)}"
    verdict = "FAIL" if gate_fails(analysis) else "pass"
    return f"{verdict}: {reason} ({p_text} {side} α = {decision.alpha:g})"


def scores_gate_verdict(result: ScoresComparison, alpha: float) -> str:
    """The gate's verdict on per-case scores, worded from its test.

    Examples
    --------
    >>> from calculator.scores import compare_scores
    >>> a, b = [0.9, 0.8, 0.75, 1.0, 0.6, 0.7], [0.5, 0.4, 0.35, 0.6, 0.2, 0.3]
    >>> scores_gate_verdict(compare_scores(a, b), 0.05)  # doctest: +NORMALIZE_WHITESPACE
    'FAIL: B is worse than A at α = 0.05, higher scores taken as better (two-sided
    sign-flip permutation test, p = 0.031)'
    """
    name_a, name_b = result.names
    if scores_gate_undecided(result, alpha):  # a Monte Carlo p at its floor, above alpha
        test = result.permutation
        sides = "two-sided" if result.alternative == "two-sided" else "one-sided"
        return (
            f"undecided: whether {name_b} is worse than {name_a} at α = {alpha:g}, "
            f"{_direction(result)} ({sides} sign-flip permutation test, {permutation_p(test)}): "
            f"{floor_undecided(test.patterns, alpha, 'random sign patterns')}"
        )
    fails = scores_gate_fails(result, alpha)
    if result.margin is not None:
        shown = "not shown" if fails else "shown"
        verdict = "FAIL" if fails else "pass"
        # Decided at the margin decision's own one-sided level, (1 - level)/2 (the command line
        # makes it `alpha`); worded at that level, so p and alpha never contradict the verdict.
        decided = result.margin
        p = (
            "t undefined"
            if decided.pvalue is None
            else format_p_equals(decided.pvalue, alpha=decided.alpha)
        )
        return (
            f"{verdict}: {name_b} is {shown} non-inferior to {name_a} at a margin of "
            f"{margin_number(decided.margin, points=False)} (one-sided paired t test, {p}, "
            f"α = {decided.alpha:g})"
        )
    verdict = f"FAIL: {name_b} is worse" if fails else f"pass: {name_b} is not shown worse"
    sides = "two-sided" if result.alternative == "two-sided" else "one-sided"
    if result.permutation is not None:
        test = f"{sides} sign-flip permutation test, {permutation_p(result.permutation, alpha)}"
    else:
        t = result.t_test
        shown = "t undefined" if t.pvalue is None else format_p_equals(t.pvalue, alpha=alpha)
        test = f"{sides} paired t test, {shown}"
    return f"{verdict} than {name_a} at α = {alpha:g}, {_direction(result)} ({test})"


def scores_gate_payload(result: ScoresComparison, alpha: float) -> dict[str, object]:
    """The gate's verdict on scores for the JSON's "gate" key, as :func:`gate_payload`:
    "verdict" is "undecided" where a Monte Carlo p at its floor cannot decide at `alpha`, and
    "pvalue_is_bound" says the p is then only a bound, p <= 1/(R + 1).

    Examples
    --------
    >>> from calculator.scores import compare_scores
    >>> a, b = [0.9, 0.8, 0.75, 1.0, 0.6, 0.7], [0.5, 0.4, 0.35, 0.6, 0.2, 0.3]
    >>> gate = scores_gate_payload(compare_scores(a, b), 0.05)
    >>> gate["verdict"], gate["test"], gate["pvalue"], gate["alpha"]
    ('fail', 'two-sided sign-flip permutation test', 0.03125, 0.05)
    """
    sentence = scores_gate_verdict(result, alpha)
    sides = "two-sided" if result.alternative == "two-sided" else "one-sided"
    if result.margin is not None:
        decided = result.margin
        return _gate_json(
            fails=scores_gate_fails(result, alpha),
            test="one-sided paired t test of non-inferiority",
            pvalue=decided.pvalue,
            alpha=decided.alpha,
            sentence=sentence,
        )
    test = result.permutation
    if test is not None:
        undecided = scores_gate_undecided(result, alpha)
        return _gate_json(
            fails=None if undecided else scores_gate_fails(result, alpha),
            test=f"{sides} sign-flip permutation test",
            pvalue=test.pvalue,
            alpha=alpha,
            sentence=sentence,
            pvalue_is_bound=test.at_floor,
        )
    return _gate_json(
        fails=scores_gate_fails(result, alpha),
        test=f"{sides} paired t test",
        pvalue=result.t_test.pvalue,
        alpha=alpha,
        sentence=sentence,
    )


def _direction(result: ScoresComparison) -> str:
    """Which way the gate read "worse": a metric's direction is not in its numbers."""
    return f"{result.better} scores taken as better"
