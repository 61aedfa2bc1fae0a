"""``python -m calculator teach``: the teaching instruments, as text or JSON.

    python -m calculator teach --n N --p10 P --p01 P [--p11 P] [--alpha X] [--level X] [--json]
    python -m calculator teach --table A B C D [--convention C] [--alternative H] [--points K]
        [--alpha X] [--level X] [--json]

With ``--n``, ``--p10`` and ``--p01``: each McNemar test's exact size and power and each
interval's coverage and mean width at N pairs
(:func:`calculator.teaching.operating_characteristics`). With ``--table``: the same at the
table's own proportions, the null distribution of its discordant split
(:func:`calculator.teaching.null_distribution`) and the sweep over agreement that keeps both pass
rates (:func:`calculator.teaching.margin_sweep`). Exit status 0, or 2 with one line on stderr.
"""

from __future__ import annotations

import argparse

from calculator.cli.arguments import UsageError, count, finite_number, level
from calculator.cli.output import print_json, print_lines
from calculator.errors import CalculatorError
from calculator.mcnemar import CONVENTIONS
from calculator.report.caveats import unreachable_sentence
from calculator.report.formatting import (
    format_p_equals,
    format_points,
    format_pvalue,
    format_pvalue_figures,
    plural,
)
from calculator.teaching import (
    ALTERNATIVES,
    MarginSweep,
    NullDistribution,
    OperatingCharacteristics,
    margin_sweep,
    null_distribution,
    operating_characteristics,
)

__all__ = ["add_parser", "build_payload", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``teach`` subcommand to `subparsers`; it runs :func:`run`."""
    parser = subparsers.add_parser(
        "teach",
        help="the test's real error rates at n pairs, the null distribution, what pairing buys",
        description="Exact size and power of McNemar's tests and coverage of the difference "
        "intervals at n pairs; with --table, also the null distribution of the discordant "
        "split and the p-values as agreement moves with both pass rates fixed.",
    )
    truth = parser.add_argument_group("the truth, as cell probabilities (or use --table)")
    truth.add_argument("--n", type=count("--n"), help="number of pairs")
    truth.add_argument("--p10", type=finite_number("--p10"), help="share only A passes")
    truth.add_argument("--p01", type=finite_number("--p01"), help="share only B passes")
    truth.add_argument(
        "--p11", type=finite_number("--p11"), help="share both pass (only Newcombe uses it)"
    )
    parser.add_argument(
        "--table",
        nargs=4,
        type=count("a table cell"),
        metavar=("A", "B", "C", "D"),
        help="a paired table: both pass, only A, only B, both fail",
    )
    parser.add_argument("--alpha", type=level("--alpha"), default=0.05, help="level (0.05)")
    parser.add_argument("--level", type=level("--level"), default=0.95, help="confidence (0.95)")
    parser.add_argument("--convention", choices=CONVENTIONS, default="doubling")
    parser.add_argument("--alternative", choices=ALTERNATIVES, default="two-sided")
    parser.add_argument(
        "--points", type=count("--points"), default=101, help="most tables in the sweep (101)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def build_payload(args: argparse.Namespace) -> dict[str, object]:
    """The JSON document for parsed arguments (what ``--json`` prints)."""
    null, sweep, oc = _instruments(args)
    if null is None or sweep is None:
        return {"operating_characteristics": oc.to_dict()}
    a, b, c, d = args.table
    return {
        "table": {"a": a, "b": b, "c": c, "d": d},
        "null_distribution": null.to_dict(),
        "operating_characteristics": oc.to_dict(),
        "margin_sweep": sweep.to_dict(),
    }


def run(args: argparse.Namespace) -> int:
    """Print the instruments for parsed arguments; invalid values raise (exit status 2)."""
    if args.json:
        print_json(build_payload(args))
        return 0
    null, sweep, oc = _instruments(args)
    lines: list[str] = []
    if null is not None and sweep is not None:
        lines += [*_null_text(null), "", *_sweep_text(sweep, null.alpha), ""]
    print_lines([*lines, *_oc_text(oc)])
    return 0


def _instruments(
    args: argparse.Namespace,
) -> tuple[NullDistribution | None, MarginSweep | None, OperatingCharacteristics]:
    """The three instruments for a table, or the operating characteristics alone."""
    common = {"alpha": args.alpha, "level": args.level}
    if args.table is None:
        missing = [name for name in ("n", "p10", "p01") if getattr(args, name) is None]
        if missing:
            options = ", ".join(f"--{name}" for name in missing)
            raise UsageError(
                f"teach: give --table A B C D, or --n, --p10 and --p01 (missing {options})"
            )
        oc = operating_characteristics(args.n, args.p10, args.p01, p11=args.p11, **common)
        return None, None, oc
    if any(value is not None for value in (args.n, args.p10, args.p01, args.p11)):
        raise UsageError("teach: give --table or --n/--p10/--p01, not both")
    a, b, c, d = args.table
    n = a + b + c + d
    if n == 0:
        raise CalculatorError("the table is empty (a + b + c + d = 0)")
    null = null_distribution(
        b + c, b, convention=args.convention, alternative=args.alternative, alpha=args.alpha
    )
    sweep = margin_sweep(a, b, c, d, args.points, convention=args.convention)
    oc = operating_characteristics(n, b / n, c / n, p11=a / n, **common)
    return null, sweep, oc


def _null_text(null: NullDistribution) -> list[str]:
    m = null.discordant
    smallest = format_pvalue_figures(
        null.smallest_pvalue, null.alpha, log10_pvalue=null.log10_smallest_pvalue
    )
    lines = [
        f"null distribution   b ~ Binomial({m:,}, 1/2); observed b = {null.statistic:,}, "
        f"{format_p_equals(null.pvalue, null.log10_pvalue, alpha=null.alpha)} "
        f"({null.convention}, {null.alternative})",
        f"smallest p          {smallest} (the most lopsided split of {m:,} pairs)",
        f"actual size         {_against(null.size, null.alpha)} at α = {null.alpha:g}",
    ]
    if not null.reachable:
        lines.append(f"                    {unreachable_sentence(m, null.alpha)}")
    return lines


def _sweep_text(sweep: MarginSweep, alpha: float) -> list[str]:
    """The sweep's first, entered and last rows; each p never reads on the wrong side of alpha."""
    entered = sweep.entered_index
    # The mid-p value is not an exact test's p: its column says so.
    binomial = "mid-p    " if sweep.convention == "mid-p" else "exact p  "
    return [
        f"pass rates fixed    agreement   {binomial}  unpaired p (both two-sided)",
        *(
            f"  a = {a:<12,} {agreement:9.3f}   {format_pvalue(exact, alpha=alpha):<9}  "
            f"{format_pvalue(unpaired, alpha=alpha)}" + ("   <- entered" if i == entered else "")
            for i, (a, agreement, exact, unpaired) in enumerate(
                zip(
                    sweep.a, sweep.agreement, sweep.exact_pvalue, sweep.unpaired_pvalue, strict=True
                )
            )
            if i in (0, entered, len(sweep.a) - 1)
        ),
    ]


def _four(value: float) -> str:
    """A probability or width with four decimals that never reads 0 or 1 when it is not.

    Examples
    --------
    >>> _four(0.0294), _four(0.0), _four(3e-7), _four(0.99996), _four(1.0)
    ('0.0294', '0.0000', '3e-07', '> 0.9999', '1.0000')
    """
    text = f"{value:.4f}"
    if value != 0 and float(text) == 0:
        return f"{value:.0e}"
    if value != 1 and float(text) == 1:
        return "> 0.9999"
    return text


def _against(size: float, alpha: float) -> str:
    """A test's size, read against alpha: never on the wrong side of it, never 0 unless 0.

    Examples
    --------
    >>> _against(0.03125, 0.03125), _against(0.0, 0.05), _against(0.0500004, 0.05)
    ('0.03125', '0', '0.0500004')
    """
    return "0" if size == 0 else format_pvalue(size, alpha=alpha)


def _oc_text(oc: OperatingCharacteristics) -> list[str]:
    lines = [
        f"n = {plural(oc.n, 'pair')}, p10 = {oc.p10:.4g}, p01 = {oc.p01:.4g}; true difference "
        f"A − B = {format_points(oc.difference)} points",
        f"test                            size (α = {oc.alpha:g})   power",
        *(
            f"  {t.name:<30}{_against(t.size, oc.alpha):>10}   {_four(t.power):>8}"
            for t in oc.tests
        ),
        f"interval                        coverage ({oc.level:g})   mean width",
    ]
    for interval in oc.intervals:
        if interval.coverage is None:
            lines += [f"  {interval.name}", f"    {interval.note}"]
        else:
            lines.append(
                f"  {interval.name:<30}{_four(interval.coverage):>10}   "
                f"{_four(interval.mean_width):>10}"
            )
    left_out = (
        "no table left out"
        if oc.truncation_error == 0
        else f"the tables left out have probability below {oc.truncation_error:.1g}"
    )
    lines.append(f"(exact sums; {left_out})")
    return lines
