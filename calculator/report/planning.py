"""The sentences of the planning results: a power plan and a non-inferiority plan, each in a
sentence to paste into a design document (:func:`calculator.report.words.text` of a
``PowerPlan`` or a ``NonInferiorityPlan``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.figures import format_share
from calculator.report.formatting import format_percent, format_points, points_of

if TYPE_CHECKING:
    from calculator.planning.design import PowerPlan
    from calculator.planning.detect import DetectCheck
    from calculator.planning.noninferiority import NonInferiorityPlan

__all__ = ["cells_phrase", "detect_sentence", "noninferiority_plan_sentence", "power_plan_sentence"]


def _cases(n: int) -> str:
    return "1 paired case" if n == 1 else f"{n:,} paired cases"


def power_plan_sentence(plan: PowerPlan) -> str:
    """The power plan in a sentence, to paste into a design document."""
    test = "exact McNemar test" if plan.test == "exact" else "McNemar chi-square test"
    assumption = (
        f"if only A passes {format_percent(plan.p10)} of cases and only B passes "
        f"{format_percent(plan.p01)} (a difference A − B of "
        f"{format_points(plan.difference)} points, "
        f"disagreement on {format_percent(plan.disagreement)})"
    )
    if plan.solved_for == "n":
        text = (
            f"With {_cases(plan.n)}, a two-sided {test} at α = {plan.alpha:g} has "
            f"{format_percent(plan.power)} power {assumption}; Connor's approximation gives "
            f"{plan.connor_n:,}."
        )
        if plan.non_monotone:
            text += (
                f" Because the test is discrete, some larger samples have less power; from "
                f"{plan.stable_n:,} cases on, power stays at or above "
                f"{format_percent(plan.target_power)}."
            )
        return text
    text = (
        f"With {_cases(plan.n)}, a two-sided {test} at α = {plan.alpha:g} has "
        f"{format_percent(plan.power)} power {assumption}."
    )
    if plan.minimum_detectable_difference is not None:
        text += (
            f" At that disagreement, the smallest difference detected with "
            f"{format_percent(plan.target_power)} power is "
            f"{format_points(plan.minimum_detectable_difference).lstrip('+')} points."
        )
    return text


def noninferiority_plan_sentence(plan: NonInferiorityPlan) -> str:
    """The non-inferiority plan in a sentence a protocol can quote: the cases, the margin, the
    test and its one-sided level, the assumed cell probabilities and the exact power.

    Examples
    --------
    >>> from calculator.planning import noninferiority_plan
    >>> print(noninferiority_plan_sentence(noninferiority_plan(p10=0.1, p01=0.1, margin=0.05)))
    ... # doctest: +NORMALIZE_WHITESPACE
    Both systems are run on the same 501 cases, and B is declared non-inferior to A if Tango's
    score test for paired proportions rejects H0: pA − pB ≥ 5 points at one-sided α = 0.05.
    Assuming only A passes 10.0% of cases and only B passes 10.0% (A − B = 0.0 points), the
    test's exact power is 80.0%: it shows B no worse than A by more than 5 points with that
    probability.
    """
    margin = points_of(plan.margin)
    cases = "1 case" if plan.n == 1 else f"{plan.n:,} cases"
    return (
        f"Both systems are run on the same {cases}, and B is declared non-inferior to A if "
        f"Tango's score test for paired proportions rejects H0: pA − pB ≥ {margin} at "
        f"one-sided α = {plan.alpha:g}. Assuming only A passes {format_percent(plan.p10)} of "
        f"cases and only B passes {format_percent(plan.p01)} (A − B = "
        f"{format_points(plan.difference)} points), the test's exact power is "
        f"{format_percent(plan.power)}: it shows B no worse than A by more than {margin} with "
        "that probability."
    )


def cells_phrase(p10: float, p01: float) -> str:
    """The discordant cells of a plan as a percentage of cases, each with its share.

    Examples
    --------
    >>> cells_phrase(0.065, 0.02)
    'only A passes 6.5% of cases (p10 = 0.065), only B passes 2.0% (p01 = 0.02)'
    """
    return (
        f"only A passes {format_percent(p10)} of cases (p10 = {format_share(p10)}), "
        f"only B passes {format_percent(p01)} (p01 = {format_share(p01)})"
    )


def detect_sentence(check: DetectCheck, names: tuple[str, str] = ("A", "B")) -> str:
    """Whether a comparison already run could tell the systems apart by a difference the user
    named (:func:`calculator.planning.detect.detect_check`).

    Examples
    --------
    >>> from calculator.planning.detect import detect_check
    >>> print(detect_sentence(detect_check(500, 60, 0.03)))  # doctest: +NORMALIZE_WHITESPACE
    To detect a difference of 3 points between A and B (either way) with 80.0% power, at the
    share of cases they disagree on here (12.0%), the two-sided exact McNemar test at α = 0.05
    needs 1,096 cases; this comparison has 500, 0.456 times that, and its power for that
    difference is 44.6%: at this n a difference of that size would often go undetected, so a
    non-significant result would be weak evidence against it. The difference is the one asked
    about, not the one observed (power at the observed difference only restates the p-value).
    """
    name_a, name_b = names
    test = "exact McNemar test" if check.test == "exact" else "McNemar chi-square test"
    points = f"{check.difference * 100:g} point{'' if check.difference == 0.01 else 's'}"
    start = (
        f"To detect a difference of {points} between {name_a} and {name_b} (either way) with "
        f"{format_percent(check.power)} power, at the share of cases they disagree on here "
        f"({format_percent(check.disagreement)}), the two-sided {test} at α = {check.alpha:g} "
    )
    power_here = f"its power for that difference is {format_percent(check.power_at_n)}"
    if check.required_n is None or check.ratio is None:
        middle = (
            f"needs more than 1,000,000 cases (the search's bound); this comparison has "
            f"{check.n:,}, and {power_here}"
        )
    else:
        middle = (
            f"needs {check.required_n:,} cases; this comparison has {check.n:,}, "
            f"{check.ratio:.3g} times that, and {power_here}"
        )
    if check.power_at_n >= check.power:
        verdict = ": it has at least the target power for a difference of that size."
    else:
        verdict = (
            ": at this n a difference of that size would often go undetected, so a "
            "non-significant result would be weak evidence against it."
        )
    return (
        f"{start}{middle}{verdict} The difference is the one asked about, not the one observed "
        "(power at the observed difference only restates the p-value)."
    )
