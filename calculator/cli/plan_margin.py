"""``python -m calculator plan --margin M``: pairs for a non-inferiority comparison, or its power.

B is to be shown no worse than A by more than the margin (pB - pA > -M), by Tango's score test
at the one-sided level ``--alpha``. The effect is given as for the other plans (``--p10`` and
``--p01``, or the rates); ``--n N`` reports the power at N, otherwise the smallest n reaching
``--power`` (0.8) is found. ``--json`` prints
:meth:`calculator.planning.NonInferiorityPlan.to_dict`.
"""

from __future__ import annotations

import argparse

from calculator.cli.output import print_json
from calculator.errors import CalculatorError
from calculator.planning import NonInferiorityPlan, cells_from_rates, noninferiority_plan
from calculator.report.formatting import format_points, format_pvalue, points_of

__all__ = ["run_margin"]


def run_margin(args: argparse.Namespace) -> int:
    """Print the non-inferiority plan; invalid values raise CalculatorError (exit status 2)."""
    if args.test != "exact":
        raise CalculatorError(
            "`--test` does not apply with `--margin`: a non-inferiority plan uses Tango's score "
            "test."
        )
    p10, p01 = args.p10, args.p01
    rates = (args.pass_rate_a, args.difference, args.disagreement)
    if p10 is None and p01 is None and all(value is not None for value in rates):
        p10, p01 = cells_from_rates(
            pass_rate_a=args.pass_rate_a,
            difference=args.difference,
            disagreement=args.disagreement,
        )
    elif p10 is None or p01 is None or any(value is not None for value in rates):
        raise CalculatorError(
            "give either `--p10` and `--p01`, or `--pass-rate-a`, `--difference` and "
            "`--disagreement`."
        )
    result = noninferiority_plan(
        p10=p10,
        p01=p01,
        margin=args.margin,
        alpha=args.alpha,
        power=0.8 if args.power is None else args.power,
        n=args.n,
    )
    if args.json:
        print_json(result.to_dict())
    else:
        print(_text(result))
    return 0


def _text(result: NonInferiorityPlan) -> str:
    lines = [
        result.sentence(),
        "",
        f"cells               only A passes p10 = {result.p10:.4g}, only B passes p01 = "
        f"{result.p01:.4g}",
        f"margin              {points_of(result.margin)} (B - A > -{points_of(result.margin)} "
        f"to be shown); true B - A {format_points(result.difference)} points",
    ]
    if result.solved_for == "n":
        lines.append(
            f"required n          {result.n:,} (exact power {result.power:.4f}, target "
            f"{result.target_power:g})"
        )
    else:
        lines.append(f"power at n = {result.n:,}    {result.power:.4f}")
    if result.solved_for == "n" and result.non_monotone:
        lines.append(
            f"saw-tooth           some sizes above {result.n:,} fall below the target again; "
            f"from {result.stable_n:,} on the power stays above it"
        )
    if result.approximate_n is not None:
        lines.append(f"Nam (1997) n        {result.approximate_n:,}")
    # Never a non-zero size shown as 0, nor one just above alpha shown at it.
    size = result.size_when_b_never_wins
    size = "0" if size == 0 else format_pvalue(size, alpha=result.alpha)
    way = "above" if result.size_when_b_never_wins > result.alpha else "within"
    lines.append(
        f"size if B never wins {size} at the null boundary "
        f"p10 = margin, p01 = 0 ({way} alpha = {result.alpha:g}: the score test is a "
        "large-sample test)"
    )
    return "\n".join(lines)
