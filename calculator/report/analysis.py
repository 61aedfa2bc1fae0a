"""The paste-ready report of an :class:`calculator.Analysis`: its rates, difference, tests and
caveats in sentences, with the decision's answer after them.

:func:`calculator.analyze` computes the numbers; :func:`analysis_report` words them, and the
page, the command line and the JSON (``"report"``) quote it through
:func:`calculator.report.words.text`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.gates import GateRates
from calculator.intervals import DifferenceInterval
from calculator.mcnemar import Chi2TestResult, ExactTestResult
from calculator.report.caveats import few_pairs_caveat, zero_width_caveat
from calculator.report.decision import decision_sentence, unclustered_figures_note
from calculator.report.formatting import (
    format_confidence,
    format_level,
    format_p_equals,
    format_percent,
    format_points,
    method_words,
    plural,
    points_of,
)
from calculator.report.reconcile import reconciliation
from calculator.table import PairedTable

if TYPE_CHECKING:
    from calculator.analysis import Analysis

__all__ = ["analysis_report", "build_report", "figures_report"]


def analysis_report(analysis: Analysis) -> str:
    """The paste-ready report of `analysis`: :func:`figures_report`, then the decision's answer
    when it says more than the figures (a one-sided or margin question, or clusters).

    A question other than the figures' own (two-sided "different") is named before its answer,
    with its margin, so that a pasted report never answers another question than the page or
    the command line it came from.

    Examples
    --------
    >>> from calculator import analyze
    >>> analysis_report(analyze(60, 15, 5, 20))[:46]
    'A passes 75 of 100 cases (75.0%) and B passes '
    >>> text = analysis_report(analyze(60, 5, 15, 20, question="non-inferior", margin=0.02))
    >>> "Question: non-inferior, margin 2 points: These cases show" in text
    True
    """
    figures, decision = figures_report(analysis), analysis.decision
    # With no discordant pair and no margin the decision only restates the figures' sentence.
    says_more = decision.clusters is not None or (
        decision.question != "different"
        and (analysis.table.discordant or decision.margin is not None)
    )
    if not says_more:
        return figures
    if decision.question == "different" and decision.margin is None:
        return f"{figures} {decision_sentence(decision)}"
    margin = "" if decision.margin is None else f", margin {points_of(decision.margin)}"
    return f"{figures}\n\nQuestion: {decision.question}{margin}: {decision_sentence(decision)}"


def figures_report(analysis: Analysis) -> str:
    """The report's figures without the decision's answer: :func:`build_report` (the rates, the
    difference, the tests, the caveats and the gates), and with clusters the note that these
    figures count cases as independent."""
    decision = analysis.decision
    # "No split can reach alpha" is about the two-sided test: not said beside a one-sided or
    # margin decision that reaches it.
    two_sided_caveat = decision.question == "different" or not decision.reject
    report = build_report(
        analysis.table,
        analysis.difference,
        analysis.binomial,
        analysis.chi2,
        analysis.gates,
        analysis.names,
        analysis.framing,
        few_pairs=two_sided_caveat,
    )
    if decision.clusters is not None:
        return f"{report} {unclustered_figures_note(decision.clusters)}"
    return report


def build_report(
    table: PairedTable,
    difference: DifferenceInterval,
    exact: ExactTestResult,
    chi2: Chi2TestResult,
    gates: GateRates,
    names: tuple[str, str],
    framing: str,
    *,
    few_pairs: bool = True,
) -> str:
    """Two to four plain sentences stating the rates, the difference, the tests and conventions.

    `few_pairs`: say when no split of the discordant pairs can reach alpha two-sided (left out
    beside a one-sided or margin decision that is significant).
    """
    name_a, name_b = names
    level = format_confidence(difference.level)
    method = method_words(difference.method, in_parentheses=True)
    passes_a, passes_b = table.a + table.b, table.a + table.c
    if framing == "pass":
        rates = (
            f"{name_a} passes {passes_a:,} of {plural(table.n, 'case')} "
            f"({format_percent(table.pass_rate_a)}) and {name_b} passes {passes_b:,} "
            f"({format_percent(table.pass_rate_b)})"
        )
        effect = (
            f"a pass-rate difference {name_a} − {name_b} of {format_points(difference.estimate)} "
            f"points ({level} CI {format_points(difference.low)} to "
            f"{format_points(difference.high)}, {method})."
        )
        split = f"{table.b:,} passed only by {name_a} and {table.c:,} only by {name_b}"
    else:
        rates = (
            f"{name_a} is wrong on {table.n - passes_a:,} of {plural(table.n, 'case')} "
            f"(error rate {format_percent(1 - table.pass_rate_a)}) and {name_b} on "
            f"{table.n - passes_b:,} ({format_percent(1 - table.pass_rate_b)})"
        )
        # The error-rate difference is minus the pass-rate difference; its interval flips too.
        effect = (
            f"an error-rate difference {name_a} − {name_b} of "
            f"{format_points(-difference.estimate)} points ({level} CI "
            f"{format_points(-difference.high)} to {format_points(-difference.low)}, {method})."
        )
        split = f"{name_a} alone is wrong on {table.c:,} and {name_b} alone on {table.b:,}"
    sentences = [f"{rates}: {effect}"]
    if not difference.contains_estimate:
        sentences.append(
            f"With so few cases the {method} interval, centred on an adjusted estimate, misses "
            "the observed difference; a higher level or the Newcombe or Tango interval avoids "
            "this."
        )
    if table.discordant == 0:
        sentences.append(
            "The two systems agree on every case, so no case tells them apart and McNemar's "
            "tests give p = 1."
        )
    else:
        if exact.convention == "doubling":
            test = "the exact two-sided McNemar test (doubled smaller binomial tail, "
        else:
            test = "the two-sided McNemar mid-p test ("
        corrected = "with" if chi2.continuity_correction else "without"
        alpha = gates.alpha
        sentences.append(
            f"Of the {plural(table.discordant, 'case')} where they disagree, {split}; {test}"
            f"conditional on the {plural(table.discordant, 'discordant pair')}) gives "
            f"{format_p_equals(exact.pvalue, exact.log10_pvalue, alpha=alpha)}, and McNemar's "
            f"chi-square {corrected} continuity correction is {chi2.statistic:.2f} "
            f"(1 df, {format_p_equals(chi2.pvalue, chi2.log10_pvalue, alpha=alpha)})."
        )
    caveats = (
        few_pairs_caveat(table.discordant, gates.alpha, exact.convention) if few_pairs else None,
        zero_width_caveat(difference),
        reconciliation(difference, exact),
    )
    sentences.extend(caveat for caveat in caveats if caveat)
    if gates.count > 1:
        sentences.append(_gates_sentence(gates))
    return " ".join(sentences)


def _gates_sentence(gates: GateRates) -> str:
    """The false-alarm rate of several gates and the per-gate levels that bound it."""
    correlation = "independent" if gates.rho == 0 else f"correlated (ρ = {gates.rho:g})"
    return (
        f"With {gates.count:,} {correlation} release gates each at α = {gates.alpha:g}, the "
        f"chance of at least one false alarm on a change that does nothing is "
        f"{format_percent(gates.false_alarm)}; testing each gate at "
        f"{format_level(gates.bonferroni_alpha)} (Bonferroni) or "
        f"{format_level(gates.sidak_alpha)} (Šidák) keeps "
        f"it at or below {gates.alpha:g}."
    )
