"""What peeking does: the false-positive rate when an experiment stops at its first significant
look."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calculator._validation import (
    check_bounded_count,
    check_count,
    check_probability,
    message,
)
from calculator.errors import CalculatorError
from calculator.planning.inputs import MAX_N, check_test
from calculator.planning.power import MAX_TABULATED, limits_at

__all__ = ["OptionalStopping", "simulate_optional_stopping"]

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
    alpha, disagreement, look_every, experiments, seed, test
        The simulation's settings.
    """

    looks: np.ndarray
    cases: np.ndarray
    false_positive_rate: np.ndarray
    standard_error: np.ndarray
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

    References
    ----------
    .. [1] Armitage, P., McPherson, C. K. & Rowe, B. C. (1969). Repeated significance tests on
           accumulating data. Journal of the Royal Statistical Society A 132(2), 235-244.

    Examples
    --------
    >>> result = simulate_optional_stopping(look_every=10, looks=20, experiments=2000, seed=1)
    >>> bool(result.false_positive_rate[-1] > 2 * result.alpha)
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
    look_numbers = np.arange(1, looks + 1)
    return OptionalStopping(
        looks=look_numbers,
        cases=look_numbers * look_every,
        false_positive_rate=rate,
        standard_error=np.sqrt(rate * (1 - rate) / experiments),
        alpha=alpha,
        disagreement=disagreement,
        look_every=look_every,
        experiments=experiments,
        seed=seed,
        test=test,
    )
