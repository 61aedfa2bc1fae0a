"""Planning a paired comparison: power, sample size, and what peeking does to the error rate.

Modules, in reading order:

- :mod:`~calculator.planning.inputs`: :func:`cells_from_rates` (the plan's inputs in everyday
  terms, turned into p10 and p01) and the checks of the effect and the test.
- :mod:`~calculator.planning.power`: :func:`rejection_limits`, and :func:`exact_power` and
  :func:`power_curve` by exact enumeration over the discordant count.
- :mod:`~calculator.planning.sample_size`: :func:`connor_n` (Connor's 1987 closed form), the exact
  required n, and :func:`minimum_detectable_difference`.
- :mod:`~calculator.planning.design`: :func:`plan`, all of it at once, as a :class:`PowerPlan`
  (required n, or power at a given n), with its :class:`PowerCurve`.
- :mod:`~calculator.planning.noninferiority`: :func:`noninferiority_plan` and
  :func:`noninferiority_power`, for showing B no worse than A by more than a margin (Tango's
  score test, exact power by enumeration of its rejection region).
- :mod:`~calculator.planning.peeking`: :func:`simulate_optional_stopping`, the false-positive rate
  when someone stops at the first significant look.

Every call is bounded: no plan considers more than :data:`MAX_N` pairs, and no call computes the
test at more than :data:`~calculator.planning.power.MAX_TABULATED` discordant counts; beyond
either, a ValueError says so and names the bound, so that a call answers within seconds and in
well under 1 GB.

Cell probabilities: p10 is the share of cases only A passes, p01 the share only B passes; the share
of disagreement is psi = p10 + p01 and the pass-rate difference A - B is delta = p10 - p01.
"""

from calculator.planning.design import PowerCurve, PowerPlan, plan
from calculator.planning.inputs import DEFAULT_MAX_N, MAX_N, PLAN_TESTS, cells_from_rates
from calculator.planning.noninferiority import (
    NonInferiorityPlan,
    noninferiority_plan,
    noninferiority_power,
)
from calculator.planning.peeking import OptionalStopping, simulate_optional_stopping
from calculator.planning.power import exact_power, power_curve, rejection_limits
from calculator.planning.sample_size import connor_n, minimum_detectable_difference

__all__ = [
    "PLAN_TESTS",
    "DEFAULT_MAX_N",
    "MAX_N",
    "NonInferiorityPlan",
    "OptionalStopping",
    "PowerCurve",
    "PowerPlan",
    "cells_from_rates",
    "connor_n",
    "exact_power",
    "minimum_detectable_difference",
    "noninferiority_plan",
    "noninferiority_power",
    "plan",
    "power_curve",
    "rejection_limits",
    "simulate_optional_stopping",
]
