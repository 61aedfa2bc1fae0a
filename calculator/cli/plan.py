"""``python -m calculator plan``: the number of pairs a comparison needs, or the power it has.

Give the cell probabilities (``--p10``, ``--p01``) or the rates (``--pass-rate-a``,
``--difference``, ``--disagreement``). With ``--power P`` (default 0.8) the smallest n reaching P is
found; with ``--n N`` the power at N is reported, with the smallest difference N pairs detect with
80% power. ``--json`` prints :meth:`calculator.planning.PowerPlan.to_dict`.
"""

from __future__ import annotations

import argparse

from calculator.cli.arguments import count
from calculator.cli.output import print_json, write
from calculator.cli.plan_margin import cells_line, power_line, required_line, run_margin
from calculator.planning import MAX_N, PLAN_TESTS, PowerPlan, plan
from calculator.report.exaggeration import exaggeration_line, exaggeration_sentence
from calculator.report.figures import format_share
from calculator.report.formatting import format_percent, format_points
from calculator.report.words import text

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``plan`` subcommand to `subparsers`; it runs :func:`run`."""
    parser = subparsers.add_parser(
        "plan",
        help="sample size or power for a paired comparison",
        description="Size a paired comparison of systems A and B for McNemar's test: the smallest "
        "number of cases reaching a power, or the power of a given number.",
    )
    cells = parser.add_argument_group(
        "the effect, as cell probabilities or as rates (one way only)"
    )
    cells.add_argument("--p10", type=float, help="share of cases only A passes")
    cells.add_argument("--p01", type=float, help="share of cases only B passes")
    cells.add_argument("--pass-rate-a", type=float, help="expected pass rate of A")
    cells.add_argument("--difference", type=float, help="pass-rate difference A − B to detect")
    cells.add_argument("--disagreement", type=float, help="share of cases the systems disagree on")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--power", type=float, help="target power; find the n (default 0.8)")
    target.add_argument("--n", type=count("n", MAX_N), help="number of pairs; report its power")
    parser.add_argument("--test", choices=PLAN_TESTS, default="exact", help="test (exact)")
    parser.add_argument(
        "--margin",
        type=float,
        help="plan a non-inferiority comparison instead: show B no worse than A by more than "
        "this (0.01 = one point), by Tango's score test at one-sided level --alpha",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the plan for parsed arguments; invalid values raise CalculatorError (exit status 2)."""
    if args.margin is not None:
        return run_margin(args)
    result = plan(
        p10=args.p10,
        p01=args.p01,
        pass_rate_a=args.pass_rate_a,
        difference=args.difference,
        disagreement=args.disagreement,
        alpha=args.alpha,
        power=0.8 if args.power is None else args.power,
        n=args.n,
        test=args.test,
    )
    if args.json:
        print_json(result.to_dict())
    else:
        write(_text(result))
    return 0


def _text(result: PowerPlan) -> str:
    """The sentence, then its figures as it gives them (percentages, points), shares after."""
    lines = [
        text(result),
        "",
        cells_line(result.p10, result.p01),
        f"disagreement        {format_percent(result.disagreement)} of cases "
        f"({format_share(result.disagreement)}); difference A − B "
        f"{format_points(result.difference)} points "
        f"({'+' if result.difference > 0 else ''}{format_share(result.difference)})",
    ]
    if result.pass_rate_a is not None:
        a, b = result.pass_rate_a, result.pass_rate_b
        lines.append(
            f"pass rates          A {format_percent(a)} ({format_share(a)}), "
            f"B {format_percent(b)} ({format_share(b)})"
        )
    target = format_percent(result.target_power)
    if result.solved_for == "n":
        lines += [
            required_line(result.n, result.power, result.target_power),
            f"Connor (1987) n     {result.connor_n:,}",
            "saw-tooth           "
            + (
                f"some larger n fall below the target; from {result.stable_n:,} on it holds"
                if result.non_monotone
                else "no larger n falls below the target"
            ),
        ]
    else:
        detectable = result.minimum_detectable_difference
        lines += [
            power_line(result.n, result.power),
            "detectable          "
            + (
                f"{format_points(detectable).lstrip('+')} points ({format_share(detectable)}), the "
                f"smallest |difference| with {target} power"
                if detectable is not None
                else f"no difference reaches {target} power at this disagreement"
            ),
        ]
    if result.sign_magnitude is not None:
        lines += [
            exaggeration_line(result.sign_magnitude),
            "",
            exaggeration_sentence(result.sign_magnitude),
        ]
    return "\n".join(lines)
