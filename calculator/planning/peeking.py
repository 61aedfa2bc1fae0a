"""What peeking does, and its cure.

- :func:`simulate_optional_stopping`: the false-positive rate when an experiment stops at its
  first significant look, for the fixed-n test and, on the same simulated sequences, for the
  anytime-valid test (:mod:`calculator.anytime`), which stays at or below alpha.
- :func:`anytime_price`: what that costs in cases: how many cases the anytime-valid test,
  looked at every so often and stopped at its first rejection, needs for the power the fixed-n
  test has at its planned n, and how many it uses on average, by seeded simulation with its
  Monte Carlo error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calculator._validation import (
    check_bounded_count,
    check_count,
    check_probability,
    message,
)
from calculator.anytime import log_mixture_evalue
from calculator.errors import CalculatorError
from calculator.planning.inputs import MAX_N, check_test
from calculator.planning.power import MAX_TABULATED, limits_at

__all__ = ["AnytimePrice", "OptionalStopping", "anytime_price", "simulate_optional_stopping"]

_MAX_LOOKS = 1_000
_MAX_EXPERIMENTS = 1_000_000
# Looks of all experiments held at once (several int64 arrays of this many elements).
_MAX_DRAWS = 2_000_000


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionalStopping:
    """False-positive rate when an experiment is tested at every look and stops when significant.

    Attributes
    ----------
    looks : numpy.ndarray of int
        1, 2, ..., the number of looks allowed.
    cases : numpy.ndarray of int
        Cases seen by each look (look_every * looks).
    false_positive_rate : numpy.ndarray of float
        Share of experiments (all with no real difference) declared significant at or before each
        look.
    standard_error : numpy.ndarray of float
        Monte Carlo standard error of each rate, sqrt(r (1 - r) / experiments).
    anytime_false_positive_rate, anytime_standard_error : numpy.ndarray of float
        The same for the two-sided anytime-valid test (the uniform mixture's e-value reaching
        1/alpha) at the same looks of the same experiments: at most alpha at every look, up to
        the Monte Carlo error.
    alpha, disagreement, look_every, experiments, seed, test
        The simulation's settings.
    """

    looks: np.ndarray
    cases: np.ndarray
    false_positive_rate: np.ndarray
    standard_error: np.ndarray
    anytime_false_positive_rate: np.ndarray
    anytime_standard_error: np.ndarray
    alpha: float
    disagreement: float
    look_every: int
    experiments: int
    seed: int
    test: str

    def to_dict(self) -> dict[str, object]:
        return {
            "looks": self.looks.tolist(),
            "cases": self.cases.tolist(),
            "false_positive_rate": self.false_positive_rate.tolist(),
            "standard_error": self.standard_error.tolist(),
            "anytime_false_positive_rate": self.anytime_false_positive_rate.tolist(),
            "anytime_standard_error": self.anytime_standard_error.tolist(),
            "alpha": self.alpha,
            "disagreement": self.disagreement,
            "look_every": self.look_every,
            "experiments": self.experiments,
            "seed": self.seed,
            "test": self.test,
        }


def simulate_optional_stopping(
    *,
    look_every: int = 10,
    looks: int = 20,
    disagreement: float = 0.2,
    alpha: float = 0.05,
    experiments: int = 10_000,
    seed: int = 0,
    test: str = "exact",
) -> OptionalStopping:
    """Simulate experiments with no real difference, tested after every `look_every` cases.

    Parameters
    ----------
    look_every : int
        Cases added between looks, from 1 to :data:`~calculator.planning.inputs.MAX_N`.
    looks : int
        Largest number of looks (1 to 1000).
    disagreement : float
        Share of cases where the systems disagree, in (0, 1]; each disagreement favours A or B
        with probability 1/2, as there is no real difference.
    alpha : float
        Level at which each look declares significance, in (0, 1).
    experiments : int
        Number of simulated experiments (1 to 1,000,000), with experiments x looks at most
        2,000,000.
    seed : int
        Seed of the numpy random Generator, so a run can be repeated exactly.
    test : {"exact", "chi2"}
        Test applied at each look.

    Returns
    -------
    OptionalStopping
        For each number of looks L, the share of experiments that stopped with a significant
        result at one of the first L looks. With one look it is the test's actual size.

    Notes
    -----
    Each block of `look_every` cases adds Bin(look_every, psi) discordant pairs, of which
    Bin(that, 1/2) favour A; cumulative sums give (b, c) at every look for all experiments at
    once, and a look rejects when min(b, c) <= k(b + c), the limit of
    :func:`~calculator.planning.power.rejection_limits`. Stopping at the first rejection makes
    "rejected by look L" the running OR over looks. The nominal alpha holds only for L = 1.
    The anytime-valid test is applied to the same (b, c) at the same looks: it rejects when the
    uniform mixture's e-value, 2^m B(b + 1, c + 1), reaches 1/alpha, and by Ville's inequality
    its rate stays at or below alpha however many looks are taken.

    References
    ----------
    .. [1] Armitage, P., McPherson, C. K. & Rowe, B. C. (1969). Repeated significance tests on
           accumulating data. Journal of the Royal Statistical Society A 132(2), 235-244.

    Examples
    --------
    >>> result = simulate_optional_stopping(look_every=10, looks=20, experiments=2000, seed=1)
    >>> bool(result.false_positive_rate[-1] > 2 * result.alpha)
    True
    >>> bool(result.anytime_false_positive_rate[-1] <= result.alpha)
    True
    """
    look_every = check_count(look_every, "look_every", maximum=MAX_N)
    if look_every == 0:
        raise CalculatorError(message("look_every", "at least 1", 0))
    looks = check_bounded_count(looks, "looks", 1, _MAX_LOOKS)
    experiments = check_bounded_count(experiments, "experiments", 1, _MAX_EXPERIMENTS)
    if experiments * looks > _MAX_DRAWS:
        raise CalculatorError(
            f"`experiments` x `looks` must be at most {_MAX_DRAWS:,}, but got "
            f"{experiments:,} x {looks:,} = {experiments * looks:,}: the simulation holds every "
            "look of every experiment in memory at once."
        )
    disagreement = check_probability(disagreement, "disagreement", open_interval=False)
    if disagreement == 0:
        raise CalculatorError(
            "`disagreement` must be above 0, but got 0: with no disagreement no look can reject."
        )
    alpha = check_probability(alpha, "alpha")
    seed = check_count(seed, "seed", maximum=None)
    test = check_test(test)
    rng = np.random.default_rng(seed)
    new_discordant = rng.binomial(look_every, disagreement, size=(experiments, looks))
    new_for_a = rng.binomial(new_discordant, 0.5)
    discordant = np.cumsum(new_discordant, axis=1)
    for_a = np.cumsum(new_for_a, axis=1)
    # The limits only at the discordant counts that occur, which are few beside 0..max: marked
    # in a table over their range (or sorted out, for a range too long to mark).
    low, high = int(discordant.min()), int(discordant.max())
    if high - low < 8 * _MAX_DRAWS:
        marks = np.zeros(high - low + 1, dtype=bool)
        marks[discordant.ravel() - low] = True
        seen = np.flatnonzero(marks) + low
    else:  # sorted by hand: numpy's unique hashes, which is slow for many distinct values
        ordered = np.sort(discordant, axis=None)
        seen = ordered[np.append(True, ordered[1:] != ordered[:-1])]
    if seen.size > MAX_TABULATED:
        raise CalculatorError(
            f"these settings reach {seen.size:,} different numbers of discordant pairs, more "
            f"than the {MAX_TABULATED:,} one simulation tests: use fewer experiments or looks."
        )
    limits = limits_at(seen, alpha, test)[np.searchsorted(seen, discordant)]
    significant = np.minimum(for_a, discordant - for_a) <= limits
    rate = np.logical_or.accumulate(significant, axis=1).mean(axis=0)
    anytime = log_mixture_evalue(for_a, discordant - for_a) >= math.log(1 / alpha)
    anytime_rate = np.logical_or.accumulate(anytime, axis=1).mean(axis=0)
    look_numbers = np.arange(1, looks + 1)
    return OptionalStopping(
        looks=look_numbers,
        cases=look_numbers * look_every,
        false_positive_rate=rate,
        standard_error=np.sqrt(rate * (1 - rate) / experiments),
        anytime_false_positive_rate=anytime_rate,
        anytime_standard_error=np.sqrt(anytime_rate * (1 - anytime_rate) / experiments),
        alpha=alpha,
        disagreement=disagreement,
        look_every=look_every,
        experiments=experiments,
        seed=seed,
        test=test,
    )


#: Looks the price simulation takes at most: its resolution in cases is max_cases / this.
_PRICE_LOOKS = 500
#: The price simulation follows experiments up to this many times the fixed-n test's n.
PRICE_HORIZON = 5


@dataclass(frozen=True, slots=True, kw_only=True)
class AnytimePrice:
    """What the anytime-valid test costs in cases, for the power the fixed-n test has at its n.

    Attributes
    ----------
    p10, p01, alpha : float
        The assumed cells and the level (the two-sided tests').
    fixed_n : int
        The fixed-n test's number of cases (the plan's n).
    power : float
        The power aimed at: the fixed-n test's at `fixed_n`.
    look_every : int
        Cases between looks of the simulated monitor (the resolution of `n_for_power`).
    cases : numpy.ndarray of int
        Cases by each look, up to ``PRICE_HORIZON x fixed_n``.
    stopped : numpy.ndarray of float
        Share of the experiments whose e-value had reached 1/alpha by each look: the power of
        the anytime-valid test monitored that far.
    n_for_power : int or None
        The first look's cases where `stopped` reaches `power`; None if none does by the
        horizon.
    stopped_error : float or None
        Monte Carlo standard error of `stopped` at `n_for_power`.
    expected_cases, expected_cases_error : float or None
        Mean cases used when the monitor stops at its first rejection or at `n_for_power`,
        whichever comes first, and its Monte Carlo standard error.
    experiments, seed
        The simulation's settings.
    """

    p10: float
    p01: float
    alpha: float
    fixed_n: int
    power: float
    look_every: int
    cases: np.ndarray
    stopped: np.ndarray
    n_for_power: int | None
    stopped_error: float | None
    expected_cases: float | None
    expected_cases_error: float | None
    experiments: int
    seed: int

    def to_dict(self) -> dict[str, object]:
        return {
            "p10": self.p10,
            "p01": self.p01,
            "alpha": self.alpha,
            "fixed_n": self.fixed_n,
            "power": self.power,
            "look_every": self.look_every,
            "n_for_power": self.n_for_power,
            "stopped_error": self.stopped_error,
            "expected_cases": self.expected_cases,
            "expected_cases_error": self.expected_cases_error,
            "experiments": self.experiments,
            "seed": self.seed,
        }


def anytime_price(
    *,
    p10: float,
    p01: float,
    fixed_n: int,
    power: float,
    alpha: float = 0.05,
    experiments: int = 2_000,
    seed: int = 0,
) -> AnytimePrice:
    """How many cases the anytime-valid test needs for `power`, by seeded simulation.

    Experiments where A alone passes with probability `p10` and B alone with `p01` are
    followed up to ``PRICE_HORIZON x fixed_n`` cases, looked at every ``look_every`` cases
    (at most 500 looks), and stopped at the first look where the two-sided uniform mixture's
    e-value reaches 1/alpha. The first look by which a share `power` of them has stopped is
    the anytime-valid test's n for that power (to within `look_every` cases, and its Monte
    Carlo error); looking after every case could only stop sooner. Bounded: at most
    4,000 x 500 looks, a fraction of a second.

    Examples
    --------
    >>> price = anytime_price(p10=0.15, p01=0.05, fixed_n=194, power=0.8, seed=1)
    >>> price.n_for_power > 194, price.expected_cases < price.n_for_power
    (True, True)
    """
    p10 = check_probability(p10, "p10", open_interval=False)
    p01 = check_probability(p01, "p01", open_interval=False)
    if p10 == p01 or p10 + p01 > 1:
        raise CalculatorError(
            f"`p10` and `p01` must differ and sum to at most 1, but got {p10:g} and {p01:g}: "
            "with no difference no number of cases gives power."
        )
    fixed_n = check_bounded_count(fixed_n, "fixed_n", 1, MAX_N)
    power = check_probability(power, "power")
    alpha = check_probability(alpha, "alpha")
    experiments = check_bounded_count(experiments, "experiments", 1, 4_000)
    seed = check_count(seed, "seed", maximum=None)
    horizon = PRICE_HORIZON * fixed_n
    look_every = max(1, math.ceil(horizon / _PRICE_LOOKS))
    looks = math.ceil(horizon / look_every)
    rng = np.random.default_rng(seed)
    psi = p10 + p01
    new_discordant = rng.binomial(look_every, psi, size=(experiments, looks))
    discordant = np.cumsum(new_discordant, axis=1)
    for_a = np.cumsum(rng.binomial(new_discordant, p10 / psi), axis=1)
    crossed = log_mixture_evalue(for_a, discordant - for_a) >= math.log(1 / alpha)
    crossed = np.logical_or.accumulate(crossed, axis=1)
    stopped = crossed.mean(axis=0)
    cases = np.arange(1, looks + 1) * look_every
    reached = np.flatnonzero(stopped >= power)
    if reached.size == 0:
        n_for_power = stopped_error = expected = expected_error = None
    else:
        last = int(reached[0])
        n_for_power = int(cases[last])
        stopped_error = math.sqrt(stopped[last] * (1 - stopped[last]) / experiments)
        # Cases used: the first crossing's look, or the last look allowed.
        first = np.where(crossed[:, last], np.argmax(crossed[:, : last + 1], axis=1), last)
        used = cases[first]
        expected = float(used.mean())
        expected_error = (
            float(used.std(ddof=1) / math.sqrt(experiments)) if experiments > 1 else 0.0
        )
    return AnytimePrice(
        p10=p10,
        p01=p01,
        alpha=alpha,
        fixed_n=fixed_n,
        power=power,
        look_every=look_every,
        cases=cases,
        stopped=stopped,
        n_for_power=n_for_power,
        stopped_error=stopped_error,
        expected_cases=expected,
        expected_cases_error=expected_error,
        experiments=experiments,
        seed=seed,
    )
