"""The plan: a sized comparison (:class:`PowerPlan`), its power curve, and :func:`plan`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calculator._validation import check_count, check_probability, message
from calculator.errors import CalculatorError
from calculator.planning.exaggeration import SignAndMagnitude, sign_and_magnitude
from calculator.planning.inputs import (
    DEFAULT_MAX_N,
    MAX_N,
    cells_from_rates,
    check_cells,
    check_difference,
    check_test,
)
from calculator.planning.power import MAX_TABULATED, PowerModel, window
from calculator.planning.sample_size import connor_n, minimum_detectable_difference, required_n

__all__ = ["PowerCurve", "PowerPlan", "plan"]

# The power curve draws every n up to this many; past it, the saw-tooth is too fine to see and
# _CURVE_SAMPLES evenly spaced sizes draw the curve.
_CURVE_POINTS = 600
_CURVE_SAMPLES = 240


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerCurve:
    """Power against the number of pairs, for the chart."""

    n: np.ndarray
    power: np.ndarray
    target_power: float
    chosen_n: int
    alpha: float

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n.tolist(),
            "power": self.power.tolist(),
            "target_power": self.target_power,
            "chosen_n": self.chosen_n,
            "alpha": self.alpha,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerPlan:
    """A sized comparison. Build it with :func:`plan`.

    Attributes
    ----------
    p10, p01 : float
        Probabilities that only A passes and that only B passes.
    alpha : float
        Significance level.
    test : str
        "exact" or "chi2".
    target_power : float
        The power the plan aims for.
    solved_for : str
        "n" (the smallest n reaching `target_power`) or "power" (the power at a given n).
    n : int
        The required n, or the n given.
    power : float
        Exact power at `n`.
    connor_n : int or None
        Connor's approximate n for `target_power` (None when p10 == p01).
    non_monotone : bool or None
        When solving for n: True if some larger n has power below the target.
    stable_n : int or None
        When solving for n: the smallest n from which power never falls below the target.
    minimum_detectable_difference : float or None
        When n is given: the smallest |p10 - p01| detected with `target_power` at this
        disagreement, or None if no difference is.
    pass_rate_a : float or None
        The pass rate of A, when the plan was given as rates.
    sign_magnitude : SignAndMagnitude or None
        At `n`: power in the true direction, Type M (the expected exaggeration of a significant
        estimate) and Type S (its wrong-sign rate), by
        :func:`~calculator.planning.exaggeration.sign_and_magnitude`.
    """

    p10: float
    p01: float
    alpha: float
    test: str
    target_power: float
    solved_for: str
    n: int
    power: float
    connor_n: int | None
    non_monotone: bool | None = None
    stable_n: int | None = None
    minimum_detectable_difference: float | None = None
    pass_rate_a: float | None = None
    sign_magnitude: SignAndMagnitude | None = None

    @property
    def disagreement(self) -> float:
        """psi = p10 + p01, the share of cases where exactly one system passes."""
        return self.p10 + self.p01

    @property
    def difference(self) -> float:
        """delta = p10 - p01, the pass-rate difference A - B."""
        return self.p10 - self.p01

    @property
    def pass_rate_b(self) -> float | None:
        """The pass rate of B, pass_rate_a - delta, when the plan was given as rates."""
        return None if self.pass_rate_a is None else self.pass_rate_a - self.difference

    def to_dict(self) -> dict[str, object]:
        """Inputs and results as plain JSON types.

        Solving for n gives "n", "achieved_power", "connor_n", "non_monotone" and "stable_n";
        a given n gives "n", "power", "connor_n" and "minimum_detectable_difference". Both give
        "power_true_direction", "type_m" and "type_s" at that n (None where undefined).
        """
        shape: dict[str, object] = {
            "p10": self.p10,
            "p01": self.p01,
            "disagreement": self.disagreement,
            "difference": self.difference,
            "pass_rate_a": self.pass_rate_a,
            "pass_rate_b": self.pass_rate_b,
            "alpha": self.alpha,
            "test": self.test,
            "target_power": self.target_power,
            "solved_for": self.solved_for,
            "n": self.n,
        }
        if self.solved_for == "n":
            shape |= {
                "achieved_power": self.power,
                "connor_n": self.connor_n,
                "non_monotone": self.non_monotone,
                "stable_n": self.stable_n,
            }
        else:
            shape |= {
                "power": self.power,
                "connor_n": self.connor_n,
                "minimum_detectable_difference": self.minimum_detectable_difference,
            }
        if self.sign_magnitude is not None:
            shape |= {
                "power_true_direction": self.sign_magnitude.power_true_direction,
                "type_m": self.sign_magnitude.type_m,
                "type_s": self.sign_magnitude.type_s,
            }
        return shape

    def power_curve(self, n_max: int | None = None) -> PowerCurve:
        """Power for n = 1..n_max (default: past both n and `stable_n`), for the chart.

        Up to 600 sizes every n is drawn, which shows the saw-tooth; beyond, 240 evenly spaced
        sizes are, including the plan's n. When the sizes are so large that 240 of them would
        need the test at more than :data:`~calculator.planning.power.MAX_TABULATED` discordant
        counts (wide windows, far apart), fewer sizes are drawn: the curve is smooth there.
        `n_max` is at most twice :data:`~calculator.planning.inputs.MAX_N`.
        """
        if n_max is None:
            n_max = max(40, 2 * self.n, (self.stable_n or 0) + self.n // 4, self.connor_n or 0)
            n_max = min(n_max, 2 * MAX_N)
        n_max = check_count(n_max, "n_max", maximum=2 * MAX_N)
        if n_max < 1:
            raise CalculatorError(message("n_max", "at least 1", n_max))
        if n_max <= _CURVE_POINTS:
            sizes = np.arange(1, n_max + 1)
        else:
            low, high = (int(end[0]) for end in window(np.array([n_max]), self.disagreement))
            samples = _CURVE_SAMPLES
            if high >= MAX_TABULATED:  # each size costs its own window of counts
                samples = max(2, min(_CURVE_SAMPLES, MAX_TABULATED // (high - low + 1) - 2))
            sizes = np.unique(
                np.append(np.linspace(1, n_max, samples).round().astype(np.int64), self.n)
            )
        powers = PowerModel(self.p10, self.p01, self.alpha, self.test).power(sizes)
        return PowerCurve(
            n=sizes,
            power=powers,
            target_power=self.target_power,
            chosen_n=self.n,
            alpha=self.alpha,
        )


def plan(
    *,
    p10: float | None = None,
    p01: float | None = None,
    pass_rate_a: float | None = None,
    difference: float | None = None,
    disagreement: float | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    n: int | None = None,
    test: str = "exact",
    max_n: int = DEFAULT_MAX_N,
) -> PowerPlan:
    """Size a paired comparison of two systems, or find the power of a given size.

    Give either `p10` and `p01`, or `pass_rate_a`, `difference` and `disagreement` (converted
    by :func:`cells_from_rates`).

    Parameters
    ----------
    p10, p01 : float, optional
        Probabilities that only A passes and that only B passes.
    pass_rate_a, difference, disagreement : float, optional
        The expected pass rate of A, the difference A - B worth detecting, and the share of
        cases where the systems disagree.
    alpha : float
        Significance level of the two-sided test, in (0, 1).
    power : float
        Target power, in (0, 1).
    n : int, optional
        Number of pairs, from 1 to :data:`~calculator.planning.inputs.MAX_N`. Omitted: the
        smallest n reaching `power` is found. Given: the power at n and the minimum detectable
        difference are reported.
    test : {"exact", "chi2"}
        The exact McNemar test (doubling convention) or the uncorrected chi-square test.
    max_n : int
        Largest n searched, at most :data:`~calculator.planning.inputs.MAX_N` (the default).
        With much disagreement the search may stop earlier, to bound its time and memory; a
        plan needing more pairs than it considers is refused, naming the bound.

    Returns
    -------
    PowerPlan

    Raises
    ------
    TypeError, ValueError
        Naming the input and why: a rate outside [0, 1], p10 + p01 > 1 or = 0, `alpha` or
        `power` outside (0, 1), a difference larger than the disagreement allows, both or
        neither way of giving the rates, p10 == p01 when solving for n, an `n` or `max_n` above
        :data:`~calculator.planning.inputs.MAX_N`, or a plan needing more pairs than the search
        considers.

    Notes
    -----
    Power is computed exactly (see :func:`exact_power`). It is saw-toothed in n: going from n to
    n + 1 pairs can lower it, because the discrete test's actual size jumps as the rejection
    region grows by whole counts. The required n is the smallest n whose power reaches the target;
    `non_monotone` says whether some larger n falls short again, and `stable_n` where that stops.

    References
    ----------
    .. [1] Connor, R. J. (1987). Sample size for testing differences in proportions for the
           paired-sample design. Biometrics 43(1), 207-211.
    .. [2] Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
           matched-pairs data: mid-p and asymptotic are better than exact conditional.
           BMC Medical Research Methodology 13:91.

    Examples
    --------
    Connor's example: his approximation gives 23 pairs, the exact test needs 25.

    >>> result = plan(p10=0.05, p01=0.45)
    >>> result.n, round(result.power, 4), result.connor_n, result.non_monotone
    (25, 0.8202, 23, False)

    When the systems disagree on every case, 20 pairs reach 80% power but 21 and 22 do not:

    >>> result = plan(p10=0.2, p01=0.8)
    >>> result.n, round(result.power, 4), result.non_monotone, result.stable_n
    (20, 0.8042, True, 23)
    >>> round(plan(p10=0.05, p01=0.45, n=20).power, 4)
    0.6937
    """
    rates_given = (pass_rate_a, difference, disagreement)
    if p10 is not None or p01 is not None:
        if any(value is not None for value in rates_given):
            raise CalculatorError(
                "give either `p10` and `p01`, or `pass_rate_a`, `difference` and "
                "`disagreement`, not both."
            )
        if p10 is None or p01 is None:
            missing = "p01" if p01 is None else "p10"
            raise CalculatorError(f"`{missing}` is missing: give both `p10` and `p01`.")
    elif any(value is None for value in rates_given):
        names = ("pass_rate_a", "difference", "disagreement")
        missing = ", ".join(
            f"`{name}`" for name, v in zip(names, rates_given, strict=True) if v is None
        )
        raise CalculatorError(
            f"{missing} missing: give `p10` and `p01`, or `pass_rate_a`, `difference` and "
            "`disagreement`."
        )
    else:
        p10, p01 = cells_from_rates(
            pass_rate_a=pass_rate_a, difference=difference, disagreement=disagreement
        )
        pass_rate_a = float(pass_rate_a)
    p10, p01 = check_cells(p10, p01)
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    test = check_test(test)
    max_n = check_count(max_n, "max_n", maximum=MAX_N)
    if n is not None:
        n = check_count(n, "n", maximum=MAX_N, minimum=1)
    common = {
        "p10": p10,
        "p01": p01,
        "alpha": alpha,
        "test": test,
        "target_power": power,
        "pass_rate_a": pass_rate_a,
        "connor_n": _connor_or_none(p10, p01, alpha, power),
    }
    if n is None:
        check_difference(p10, p01)
        required = required_n(p10, p01, alpha, power, test, max_n)
        return PowerPlan(
            **common,
            sign_magnitude=sign_and_magnitude(required.n, p10, p01, alpha=alpha, test=test),
            solved_for="n",
            n=required.n,
            power=required.power,
            non_monotone=required.non_monotone,
            stable_n=required.stable_n,
        )
    try:
        detectable = minimum_detectable_difference(
            n, p10 + p01, alpha=alpha, power=power, test=test
        )
    except ValueError:  # no difference reaches the power at this n: reported as None
        detectable = None
    return PowerPlan(
        **common,
        sign_magnitude=sign_and_magnitude(n, p10, p01, alpha=alpha, test=test),
        solved_for="power",
        n=n,
        power=float(PowerModel(p10, p01, alpha, test).power(np.array([n]))[0]),
        minimum_detectable_difference=detectable,
    )


def _connor_or_none(p10: float, p01: float, alpha: float, power: float) -> int | None:
    """Connor's n, or None with no difference or one too small for any countable n."""
    if p10 == p01:
        return None
    try:
        return connor_n(p10, p01, alpha=alpha, power=power)
    except ValueError:
        return None
