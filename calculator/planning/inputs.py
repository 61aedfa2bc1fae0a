"""The plan's inputs: the effect as cell probabilities, from rates, and their checks.

Cell probabilities: p10 is the share of cases only A passes, p01 the share only B passes; the share
of disagreement is psi = p10 + p01 and the pass-rate difference A - B is delta = p10 - p01.
"""

from __future__ import annotations

import numpy as np

from calculator._validation import check_choice, check_probability
from calculator.errors import CalculatorError, CalculatorTypeError

__all__ = [
    "DEFAULT_MAX_N",
    "MAX_N",
    "PLAN_TESTS",
    "cells_from_rates",
    "check_cells",
    "check_difference",
    "check_test",
]

#: "exact": the two-sided exact McNemar test (doubling convention); "chi2": the uncorrected
#: chi-square test.
PLAN_TESTS = ("exact", "chi2")
#: Largest number of pairs any plan considers, given or searched for. Beyond it a plan is
#: refused with Connor's approximate n, which costs nothing: exact power by enumeration costs
#: O(sqrt(n)) per n, and sizing a study searches and tabulates around the answer, so a larger
#: bound could not promise an answer within seconds and a bounded amount of memory.
MAX_N = 1_000_000
#: The default `max_n` of :func:`~calculator.planning.plan`: all of :data:`MAX_N`.
DEFAULT_MAX_N = MAX_N


def cells_from_rates(
    *, pass_rate_a: float, difference: float, disagreement: float
) -> tuple[float, float]:
    """Turn a pass rate, a difference and a share of disagreement into (p10, p01).

    Parameters
    ----------
    pass_rate_a : float
        Expected share of cases A passes, in [0, 1].
    difference : float
        Pass-rate difference A - B worth detecting (negative when B is better).
    disagreement : float
        Expected share of cases where exactly one system passes, psi = p10 + p01, in [0, 1].

    Returns
    -------
    (p10, p01) : tuple of float
        p10 = (psi + delta)/2 (only A passes), p01 = (psi - delta)/2 (only B passes).

    Raises
    ------
    TypeError, ValueError
        If an input is not a number in range, if |difference| exceeds the disagreement (a
        difference is made only of cases where the systems disagree), or if the pass rate of A
        cannot hold p10 (A must pass at least p10 of the cases and fail at least p01).

    Examples
    --------
    >>> p10, p01 = cells_from_rates(pass_rate_a=0.80, difference=0.02, disagreement=0.10)
    >>> round(p10, 4), round(p01, 4)
    (0.06, 0.04)
    >>> cells_from_rates(pass_rate_a=0.80, difference=0.2, disagreement=0.1)
    Traceback (most recent call last):
    ...
    calculator.errors.CalculatorError: `difference` must be at most the share of disagreement 0.1 \
in size, but got 0.2: a difference between the pass rates comes only from cases where the systems \
disagree.
    """
    pass_rate_a = check_probability(pass_rate_a, "pass_rate_a", open_interval=False)
    disagreement = check_probability(disagreement, "disagreement", open_interval=False)
    if isinstance(difference, bool) or not isinstance(difference, int | float | np.number):
        raise CalculatorTypeError(
            f"`difference` must be a number from -1 to 1, but got {difference!r}."
        )
    difference = float(difference)
    if not abs(difference) <= disagreement:  # also rejects NaN
        raise CalculatorError(
            f"`difference` must be at most the share of disagreement {disagreement:g} in size, "
            f"but got {difference:g}: a difference between the pass rates comes only from cases "
            "where the systems disagree."
        )
    p10 = (disagreement + difference) / 2
    p01 = (disagreement - difference) / 2
    if p10 > pass_rate_a + 1e-12:
        raise CalculatorError(
            f"`pass_rate_a` must be at least {p10:g} (the share where only A passes), but got "
            f"{pass_rate_a:g}: lower the difference or the disagreement, or raise the pass rate."
        )
    if p01 > 1 - pass_rate_a + 1e-12:
        raise CalculatorError(
            f"`pass_rate_a` must be at most {1 - p01:g} (A fails wherever only B passes, "
            f"{p01:g} of the cases), but got {pass_rate_a:g}."
        )
    return p10, p01


def check_cells(p10: object, p01: object) -> tuple[float, float]:
    p10 = check_probability(p10, "p10", open_interval=False)
    p01 = check_probability(p01, "p01", open_interval=False)
    if p10 + p01 > 1 + 1e-12:
        raise CalculatorError(
            f"`p10` + `p01` must be at most 1 (both are shares of the same cases), but got "
            f"{p10:g} + {p01:g} = {p10 + p01:g}."
        )
    if p10 + p01 == 0:
        raise CalculatorError(
            "`p10` + `p01` must be above 0, but got 0: with no disagreement no case tells the "
            "systems apart, and the test can never reject."
        )
    return p10, p01


def check_test(test: object) -> str:
    return check_choice(test, "test", PLAN_TESTS)


def check_difference(p10: float, p01: float) -> None:
    if p10 == p01:
        raise CalculatorError(
            f"`p10` and `p01` must differ, but both are {p10:g}: with no difference the power "
            "never rises above alpha, so no number of pairs reaches the target."
        )
