"""``python -m calculator table A B C D``: the report for a paired 2 x 2 table.

A B C D = both pass, only A passes, only B passes, both fail. ``--json`` prints
:meth:`calculator.Analysis.to_dict`.
"""

from __future__ import annotations

import argparse

from calculator.analysis import analyze
from calculator.cli.arguments import count, print_json
from calculator.formatting import format_p_equals, format_percent, format_points, format_pvalue
from calculator.intervals import CI_METHODS
from calculator.mcnemar import CONVENTIONS

__all__ = ["add_parser", "run"]


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
    parser.add_argument("--gates", type=count("gates"), default=1, help="number of gates (1)")
    parser.add_argument("--alpha", type=float, default=0.05, help="level of each gate (0.05)")
    parser.add_argument("--rho", type=float, default=0.0, help="correlation between gates (0)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the analysis for parsed `args`; invalid values raise ValueError (exit status 2)."""
    result = analyze(
        args.A,
        args.B,
        args.C,
        args.D,
        level=args.level,
        ci_method=args.ci_method,
        correction=args.correction,
        convention=args.convention,
        gates=args.gates,
        alpha=args.alpha,
        rho=args.rho,
    )
    if args.json:
        print_json(result.to_dict())
        return 0
    diff, exact, chi2 = result.difference, result.exact, result.chi2
    chi2_text = (
        "undefined (no discordant pairs)" if chi2.statistic is None else f"{chi2.statistic:.4f}"
    )
    lines = [
        result.report,
        "",
        f"pass rates          A {format_percent(result.table.pass_rate_a)}, "
        f"B {format_percent(result.table.pass_rate_b)} (n = {result.table.n:,})",
        f"difference A - B    {format_points(diff.estimate)} pts, {diff.level:g} CI "
        f"{format_points(diff.low)} to {format_points(diff.high)} ({diff.method})",
        f"exact McNemar p     {format_pvalue(exact.pvalue, exact.log10_pvalue)} "
        f"({exact.convention}; mid-p "
        f"{format_pvalue(result.mid_p.pvalue, result.mid_p.log10_pvalue)})",
        f"McNemar chi-square  {chi2_text}, 1 df, "
        f"{format_p_equals(chi2.pvalue, chi2.log10_pvalue)}"
        f"{' (continuity corrected)' if chi2.continuity_correction else ''}",
        f"unpaired z-test p   {format_pvalue(result.unpaired.pvalue, result.unpaired.log10_pvalue)}"
        " (ignores the pairing; for contrast only)",
    ]
    print("\n".join(lines))
    return 0
