"""``python -m calculator table A B C D``: the report for a paired 2 x 2 table.

A B C D = both pass, only A passes, only B passes, both fail. ``--json`` prints
:meth:`calculator.Analysis.to_dict`.
"""

from __future__ import annotations

import argparse

from calculator.analysis import Analysis
from calculator.anytime import anytime_of
from calculator.cli.arguments import count, prior_shape
from calculator.cli.output import print_json, print_lines
from calculator.cli.question import (
    add_question_arguments,
    alpha_value,
    analysis_text,
    question_arguments,
)
from calculator.errors import CalculatorError
from calculator.gates import MAX_GATES
from calculator.intervals import CI_METHODS
from calculator.mcnemar import CONVENTIONS
from calculator.paired_data import of_table
from calculator.report.anytime import anytime_lines
from calculator.report.decision_lines import decision_lines
from calculator.report.formatting import (
    format_confidence,
    format_p_equals,
    format_percent,
    format_points,
    format_pvalue,
    format_ratio,
    method_words,
)
from calculator.report.square import unconditional_line, unconditional_payload
from calculator.report.words import payload
from calculator.unconditional import mcnemar_unconditional
from calculator.workflow import TestOptions, compare

__all__ = ["add_parser", "anytime_of", "run", "text_lines"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``table`` subcommand to `subparsers`; it runs :func:`run`."""
    parser = subparsers.add_parser(
        "table",
        help="analyse a paired 2 x 2 table",
        description="McNemar's tests and the pass-rate difference for a paired table: "
        "A B C D = both pass, only A passes, only B passes, both fail.",
    )
    for cell, meaning in zip(
        "ABCD", ("both pass", "only A passes", "only B passes", "both fail"), strict=True
    ):
        parser.add_argument(cell, type=count(cell.lower()), help=f"cases where {meaning}")
    parser.add_argument("--level", type=float, default=0.95, help="confidence level (0.95)")
    parser.add_argument(
        "--ci-method", choices=CI_METHODS, default="agresti-min", help="interval method"
    )
    parser.add_argument(
        "--convention", choices=CONVENTIONS, default="doubling", help="exact test's two-sided rule"
    )
    parser.add_argument("--correction", action="store_true", help="continuity-correct chi-square")
    parser.add_argument(
        "--gates", type=count("gates", MAX_GATES), default=1, help="number of gates (1)"
    )
    parser.add_argument(
        "--alpha",
        type=alpha_value,
        default=0.05,
        help="level of each gate and of the decision, below 0.5 (0.05)",
    )
    parser.add_argument("--rho", type=float, default=0.0, help="correlation between gates (0)")
    parser.add_argument(
        "--anytime-prior",
        type=prior_shape("--anytime-prior"),
        default=1.0,
        metavar="K",
        help="k of the Beta(k, k) mixture of the anytime-valid test (1: uniform)",
    )
    add_question_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the analysis for parsed `args`; invalid values raise CalculatorError (exit 2)."""
    options = TestOptions(
        level=args.level,
        ci_method=args.ci_method,
        correction=args.correction,
        convention=args.convention,
        gates=args.gates,
        rho=args.rho,
    )
    data = of_table(args.A, args.B, args.C, args.D)
    result = compare(data, question_arguments(args), options).analysis
    anytime = anytime_of(result, args.anytime_prior)
    if args.json:
        document = {**payload(result), "unconditional": _unconditional(args)}
        print_json({**document, "anytime": payload(anytime)})
        return 0
    unconditional = _unconditional_text(args, result.gates.alpha)
    print_lines([*text_lines(result), unconditional, *anytime_lines(anytime)])
    return 0


def _unconditional_text(args: argparse.Namespace, alpha: float) -> str:
    """The text report's line for McNemar's exact unconditional test, or its refusal."""
    label = "unconditional p     "
    try:
        test = mcnemar_unconditional(args.A, args.B, args.C, args.D)
        return label + unconditional_line(test, alpha=alpha)
    except CalculatorError as error:
        return label + f"not computed: {error}"


def _unconditional(args: argparse.Namespace) -> dict[str, object]:
    """McNemar's exact unconditional test for the JSON, or, above its bound on n, its refusal
    (the counts themselves were checked by ``analyze``)."""
    try:
        return unconditional_payload(mcnemar_unconditional(args.A, args.B, args.C, args.D))
    except CalculatorError as error:
        return {"refused": str(error)}


def text_lines(result: Analysis) -> list[str]:
    """The text report: the paste-ready sentences, then one figure a line, worded as the page.

    Examples
    --------
    >>> from calculator import analyze
    >>> print("\\n".join(text_lines(analyze(60, 15, 5, 20))[2:5]))
    pass rates          A 75.0%, B 65.0% (n = 100)
    difference A − B    +10.0 points, 95% CI +1.2 to +18.4 (Agresti-Min)
    exact McNemar p     0.041 (doubled smaller tail; mid-p 0.027)
    """
    diff, exact, chi2, alpha = result.difference, result.binomial, result.chi2, result.gates.alpha
    chi2_text = (
        "undefined (no discordant pairs)" if chi2.statistic is None else f"{chi2.statistic:.4f}"
    )
    if exact.convention == "doubling":
        mid_p = format_pvalue(result.mid_p.pvalue, result.mid_p.log10_pvalue, alpha=alpha)
        label, rule = "exact McNemar p     ", f"doubled smaller tail; mid-p {mid_p}"
    else:  # mid-p is not an exact p: it is not labelled as one
        label, rule = "McNemar mid-p       ", "two-sided, the observed split counted half"
    odds = result.odds_ratio
    odds_text = (
        "undefined (no discordant pairs)"
        if odds.estimate is None
        else f"{format_ratio(odds.estimate)}, {format_confidence(odds.level)} CI "
        f"{format_ratio(odds.low)} to {format_ratio(odds.high)} "
        f"({'exact conditional' if odds.method == 'exact' else 'mid-p'})"
    )
    return [
        *analysis_text(result),
        "",
        f"pass rates          A {format_percent(result.table.pass_rate_a)}, "
        f"B {format_percent(result.table.pass_rate_b)} (n = {result.table.n:,})",
        f"difference A − B    {format_points(diff.estimate)} points, "
        f"{format_confidence(diff.level)} CI {format_points(diff.low)} to "
        f"{format_points(diff.high)} "
        f"({method_words(diff.method, in_parentheses=True)})",
        f"{label}{format_pvalue(exact.pvalue, exact.log10_pvalue, alpha=alpha)} ({rule})",
        f"odds ratio b/c      {odds_text}",
        f"McNemar chi-square  {chi2_text}, 1 df, "
        f"{format_p_equals(chi2.pvalue, chi2.log10_pvalue, alpha=alpha)}"
        f"{' (continuity corrected)' if chi2.continuity_correction else ''}",
        "unpaired z-test p   "
        f"{format_pvalue(result.unpaired.pvalue, result.unpaired.log10_pvalue, alpha=alpha)}"
        " (ignores the pairing; for contrast only)",
        *decision_lines(result),
    ]
