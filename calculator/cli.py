"""The command line: ``python -m calculator COMMAND ...``.

``table A B C D`` prints the report for a paired table (``--json`` for the machine-readable
shape of :meth:`calculator.Analysis.to_dict`); ``cases`` analyses per-case files
(:mod:`calculator.cli_cases`) and ``plan`` sizes a comparison (:mod:`calculator.cli_plan`).
Every usage error and every invalid value exits with status 2 and one line on stderr, never a
traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from calculator import cli_cases, cli_plan
from calculator.analysis import analyze
from calculator.formatting import format_p_equals, format_percent, format_points, format_pvalue
from calculator.intervals import CI_METHODS
from calculator.mcnemar import CONVENTIONS

__all__ = ["main", "UsageError"]

EXIT_USAGE = 2


class UsageError(Exception):
    """A command-line mistake; its message is the one line printed on stderr."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the whole usage block and exits; one clear line is easier to act on.
    def error(self, message: str) -> None:
        raise UsageError(f"{self.prog}: {message}")


def _add_table_command(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "table",
        help="analyse a paired 2 x 2 table",
        description="McNemar's tests and the pass-rate difference for a paired table: "
        "A B C D = both pass, only A passes, only B passes, both fail.",
    )
    for cell, meaning in zip(
        "ABCD", ("both pass", "only A passes", "only B passes", "both fail"), strict=True
    ):
        parser.add_argument(cell, type=_count(cell.lower()), help=f"cases where {meaning}")
    parser.add_argument("--level", type=float, default=0.95, help="confidence level (0.95)")
    parser.add_argument(
        "--ci-method", choices=CI_METHODS, default="agresti-min", help="interval method"
    )
    parser.add_argument(
        "--convention", choices=CONVENTIONS, default="doubling", help="exact test's two-sided rule"
    )
    parser.add_argument("--correction", action="store_true", help="continuity-correct chi-square")
    parser.add_argument("--gates", type=_count("gates"), default=1, help="number of gates (1)")
    parser.add_argument("--alpha", type=float, default=0.05, help="level of each gate (0.05)")
    parser.add_argument("--rho", type=float, default=0.0, help="correlation between gates (0)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=_run_table)


def _run_table(args: argparse.Namespace) -> int:
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
        print(json.dumps(result.to_dict(), allow_nan=False, ensure_ascii=False, indent=2))
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


def _count(name: str):
    """An argparse type that accepts whole numbers written as integers only."""

    def parse(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} must be a non-negative integer, but got {text!r}"
            ) from None

    return parse


#: Functions that add one subcommand each to the parser.
SUBCOMMANDS = (_add_table_command, cli_cases.add_parser, cli_plan.add_parser)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m calculator", description=__doc__.split("\n\n")[0])
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for add_command in SUBCOMMANDS:
        add_command(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except UsageError as error:
        return _fail(str(error))
    except (TypeError, ValueError, OSError) as error:
        return _fail(f"error: {error}")


def _fail(message: str) -> int:
    print(message.replace("\n", " "), file=sys.stderr)
    return EXIT_USAGE
