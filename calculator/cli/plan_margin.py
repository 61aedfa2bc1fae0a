"""``python -m calculator plan --margin M``: pairs for a non-inferiority comparison, or its power.

B is to be shown no worse than A by more than the margin (pA - pB < M), by Tango's score test
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
from calculator.report.figures import format_share
from calculator.report.formatting import format_percent, format_points, format_pvalue, points_of
from calculator.report.planning import cells_phrase
from calculator.report.words import text

__all__ = ["cells_line", "power_line", "required_line", "run_margin"]


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
        text(result),
        "",
        cells_line(result.p10, result.p01),
        f"margin              {points_of(result.margin)} (A − B < +{points_of(result.margin)} "
        f"to be shown); true A − B {format_points(result.difference)} points",
    ]
    if result.solved_for == "n":
        lines.append(required_line(result.n, result.power, result.target_power))
    else:
        lines.append(power_line(result.n, result.power))
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
        f"p10 = margin, p01 = 0 ({way} α = {result.alpha:g}: the score test is a "
        "large-sample test)"
    )
    return "\n".join(lines)


# The lines below the plan's sentence give its figures as the sentence does (percentages and
# points), each followed by the share the JSON holds.


def cells_line(p10: float, p01: float) -> str:
    """The discordant cells as the sentence gives them, with p10 and p01 as shares.

    Examples
    --------
    >>> cells_line(0.065, 0.02)
    'cells               only A passes 6.5% of cases (p10 = 0.065), only B passes 2.0% (p01 = 0.02)'
    """
    return f"cells               {cells_phrase(p10, p01)}"


def required_line(n: int, power: float, target: float) -> str:
    """The required number of pairs with its exact power and the target, as percentages.

    Examples
    --------
    >>> required_line(354, 0.80039, 0.8)
    'required n          354: exact power 80.0% (0.8004), target 80.0%'
    """
    return (
        f"required n          {n:,}: exact power {format_percent(power)} ({format_share(power)}), "
        f"target {format_percent(target)}"
    )


def power_line(n: int, power: float) -> str:
    """The power at a given number of pairs, as a percentage with the share.

    Examples
    --------
    >>> power_line(200, 0.51834)
    'power at n = 200    51.8% (0.5183)'
    """
    return f"{f'power at n = {n:,}':<19} {format_percent(power)} ({format_share(power)})"
