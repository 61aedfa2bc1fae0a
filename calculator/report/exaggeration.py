"""The sentences of Type M and Type S in a plan (:class:`calculator.planning.SignAndMagnitude`):
what a significant result at the planned n looks like, on average (Gelman & Carlin 2014).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.formatting import format_percent, format_points, format_ratio

if TYPE_CHECKING:
    from calculator.planning.exaggeration import SignAndMagnitude

__all__ = ["exaggeration_line", "exaggeration_rate", "exaggeration_sentence"]


def _cases(n: int) -> str:
    return "1 paired case" if n == 1 else f"{n:,} paired cases"


def exaggeration_sentence(errors: SignAndMagnitude) -> str:
    """What a significant result at the planned n would say about the difference, on average.

    Examples
    --------
    >>> from calculator.planning.exaggeration import sign_and_magnitude
    >>> print(exaggeration_sentence(sign_and_magnitude(100, 0.05, 0.03)))
    ... # doctest: +NORMALIZE_WHITESPACE
    With 100 paired cases the two-sided exact McNemar test at α = 0.05 is significant with
    probability 4.9% (4.8% in the true direction). A significant estimate of the difference
    would be on average 3.89 times the size of the assumed difference of 2.0 points (Type M,
    the expected exaggeration ratio) and would have the wrong sign 2.2% of the time (Type S).
    """
    test = "exact McNemar test" if errors.test == "exact" else "McNemar chi-square test"
    start = (
        f"With {_cases(errors.n)} the two-sided {test} at α = {errors.alpha:g} is "
        f"significant with probability {format_percent(errors.power)}"
    )
    if errors.p10 == errors.p01:
        return (
            f"{start}, its size: with no difference assumed every significant result is a false "
            "alarm, and Type M and Type S are undefined."
        )
    if errors.type_m is None or errors.type_s is None:
        return f"{start}: no table of this size is significant, so Type M and Type S are undefined."
    difference = format_points(abs(errors.p10 - errors.p01)).lstrip("+")
    return (
        f"{start} ({format_percent(errors.power_true_direction)} in the true direction). A "
        "significant estimate of the difference would be on average "
        f"{format_ratio(errors.type_m)} times the size of the assumed difference of {difference} "
        "points (Type M, the expected exaggeration ratio) and would have the wrong sign "
        f"{exaggeration_rate(errors.type_s)} of the time (Type S)."
    )


def exaggeration_rate(value: float) -> str:
    """A wrong-sign rate as a percentage; below 0.01% as a bound, as no plan pins it closer."""
    return "less than 0.01%" if 0 < value < 1e-4 else format_percent(value)


def exaggeration_line(errors: SignAndMagnitude) -> str:
    """Type M and Type S as the plan's text lists them, on one line.

    Examples
    --------
    >>> from calculator.planning.exaggeration import sign_and_magnitude
    >>> exaggeration_line(sign_and_magnitude(500, 0.0025, 0.0225))
    'if significant      Type M 1.12 (expected exaggeration), Type S less than 0.01% (wrong sign)'
    """
    if errors.type_m is None or errors.type_s is None:
        return "if significant      Type M and Type S undefined (no difference or no rejection)"
    return (
        f"if significant      Type M {format_ratio(errors.type_m)} (expected exaggeration), "
        f"Type S {exaggeration_rate(errors.type_s)} (wrong sign)"
    )
