"""On how many of m tasks does one system do better? The partial-conjunction count.

:func:`partial_conjunction` takes m per-task p-values, each testing "no effect on this task"
against an effect in one stated direction, and returns the number of tasks with an effect that
is claimed at family-wise level alpha (Benjamini & Heller 2008; Dror, Baumer, Bogomolov &
Reichart 2017), by the Bonferroni combination (valid whatever the dependence between the
tasks) and by Fisher's (valid for independent tasks), and the tasks Holm's procedure names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from calculator._lazy_scipy import stats
from calculator._validation import check_probability
from calculator.compare.multiplicity import adjust_pvalues
from calculator.errors import CalculatorError
from calculator.mcnemar import mcnemar_exact

__all__ = ["PartialConjunction", "TaskCount", "better_on_tasks", "partial_conjunction"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PartialConjunction:
    """The partial-conjunction counts of m tasks at level alpha.

    Attributes
    ----------
    tasks : tuple of str
        The tasks, in the order given.
    pvalues : tuple of float
        Each task's one-sided p-value, in that order.
    alpha : float
        The family-wise level.
    bonferroni_pvalues, fisher_pvalues : tuple of float
        For u = 1, ..., m, the p-value of "fewer than u tasks have an effect", by the
        Bonferroni and Fisher combinations, made non-decreasing in u (the hypotheses are
        nested, so they are tested in sequence).
    bonferroni_count, fisher_count : int
        The largest u whose p-value is at most alpha (0 when none is): with probability at
        least 1 - alpha, at least that many tasks have an effect in the stated direction.
    holm_named : tuple of str
        The tasks Holm's procedure rejects at alpha: each named task has an effect, all named
        together at family-wise level alpha (never more than `bonferroni_count`).
    """

    tasks: tuple[str, ...]
    pvalues: tuple[float, ...]
    alpha: float
    bonferroni_pvalues: tuple[float, ...]
    fisher_pvalues: tuple[float, ...]
    bonferroni_count: int
    fisher_count: int
    holm_named: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        fields = asdict(self).items()
        return {key: list(value) if isinstance(value, tuple) else value for key, value in fields}


def partial_conjunction(
    pvalues: Sequence[float], *, alpha: float = 0.05, tasks: Sequence[str] | None = None
) -> PartialConjunction:
    """How many of m tasks have an effect, at family-wise level alpha.

    Parameters
    ----------
    pvalues : sequence of float
        One p-value per task, each in [0, 1], testing no effect on that task against an effect
        in one direction (the same for every task).
    alpha : float
        Family-wise level of the count and of the named tasks.
    tasks : sequence of str, optional
        The tasks' names (default "1", "2", ...).

    Returns
    -------
    PartialConjunction

    Raises
    ------
    ValueError
        On no p-value, a p-value outside [0, 1], a bad alpha, or names that do not match.

    Notes
    -----
    With the p-values sorted p_(1) <= ... <= p_(m), the partial-conjunction null H^{u/m}, "fewer
    than u of the m tasks have an effect", has the p-values (Benjamini & Heller 2008)

    - Bonferroni: min(1, (m - u + 1) p_(u)), valid whatever the dependence between tasks;
    - Fisher: P[chi2 with 2 (m - u + 1) df >= -2 sum_{i >= u} log p_(i)], valid for independent
      tasks (for discrete p-values, such as exact tests', it is conservative).

    H^{u/m} true implies H^{(u+1)/m} true, so the hypotheses are tested in sequence for u = 1,
    2, ... until one is not rejected (Dror et al. 2017's K-Bonferroni and K-Fisher): the count
    is the largest u whose running maximum of p-values is at most alpha, and the chance that it
    exceeds the true number of tasks with an effect is at most alpha. Counting the tasks with
    p <= alpha would not be: with many tasks and no effect, some fall below alpha by chance.
    The count does not say which tasks; Holm's procedure names some (Dror et al. 2017).

    References
    ----------
    .. [1] Benjamini, Y. & Heller, R. (2008). Screening for partial conjunction hypotheses.
           Biometrics 64(4), 1215-1222.
    .. [2] Dror, R., Baumer, G., Bogomolov, M. & Reichart, R. (2017). Replicability analysis
           for natural language processing: testing significance with multiple datasets.
           Transactions of the Association for Computational Linguistics 5, 471-486.

    Examples
    --------
    Dror et al. (2017)'s example, six datasets at alpha = 0.05:

    >>> r = partial_conjunction([0.168, 0.297, 0.357, 0.019, 0.218, 0.001])
    >>> r.bonferroni_count, r.fisher_count, r.holm_named
    (1, 2, ('6',))
    """
    values = np.asarray(pvalues, dtype=np.float64).ravel()
    if values.size == 0:
        raise CalculatorError("`pvalues` must hold at least one p-value, but is empty.")
    if not np.all((values >= 0.0) & (values <= 1.0)):  # also rejects NaN
        raise CalculatorError(f"`pvalues` must all be numbers from 0 to 1, but got {pvalues}.")
    alpha = check_probability(alpha, "alpha")
    m = values.size
    names = tuple(str(i + 1) for i in range(m)) if tasks is None else tuple(map(str, tasks))
    if len(names) != m:
        raise CalculatorError(f"`tasks` names {len(names)} tasks but there are {m} p-values.")
    ordered = np.sort(values)
    remaining = m - np.arange(m)  # m - u + 1 for u = 1..m
    bonferroni = np.maximum.accumulate(np.minimum(1.0, remaining * ordered))
    with np.errstate(divide="ignore"):  # log 0 = -inf: that combination's p is 0
        tail_logs = np.cumsum(np.log(ordered)[::-1])[::-1]  # sum_{i >= u} log p_(i)
    fisher = np.maximum.accumulate(stats.chi2.sf(-2.0 * tail_logs, 2 * remaining))
    holm = adjust_pvalues(values, method="holm")
    return PartialConjunction(
        tasks=names,
        pvalues=tuple(float(p) for p in values),
        alpha=alpha,
        bonferroni_pvalues=tuple(float(p) for p in bonferroni),
        fisher_pvalues=tuple(float(p) for p in fisher),
        bonferroni_count=int(np.count_nonzero(bonferroni <= alpha)),
        fisher_count=int(np.count_nonzero(fisher <= alpha)),
        holm_named=tuple(name for name, p in zip(names, holm, strict=True) if p <= alpha),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskCount:
    """On how many tasks `better` passes more often than `other`: the partial-conjunction
    count at `alpha` of the tasks' one-sided exact McNemar p-values in that direction."""

    better: str
    other: str
    alpha: float
    count: PartialConjunction

    def to_dict(self) -> dict[str, object]:
        return {"better": self.better, "other": self.other, **self.count.to_dict()}


def better_on_tasks(
    tasks: Sequence[str],
    only_a: Sequence[int],
    only_b: Sequence[int],
    names: tuple[str, str],
    *,
    alternative: str | None = "two-sided",
    alpha: float = 0.05,
) -> tuple[TaskCount, ...]:
    """The partial-conjunction counts of the tasks on which one system passes more often.

    Parameters
    ----------
    tasks : sequence of str
        The tasks.
    only_a, only_b : sequence of int
        Each task's discordant counts: cases only A passes (b) and only B passes (c).
    names : (str, str)
        The names of A and B.
    alternative : {"two-sided", "greater", "less"} or None
        The direction asked: "greater" (B's pass rate higher) counts the tasks B does better
        on, at `alpha`; "less" those A does better on; "two-sided" (or None) both, each at
        alpha/2, so that the two counts hold together at family-wise level alpha (Bonferroni).
    alpha : float
        Family-wise level.

    Returns
    -------
    tuple of TaskCount
        One count per direction asked (B better first).

    Notes
    -----
    Each task's p for "B better" is its one-sided exact McNemar p, P[X <= b] with
    X ~ Bin(b + c, 1/2) (:func:`calculator.mcnemar.mcnemar_exact` with alternative "greater");
    for "A better", P[X >= b]. Then :func:`partial_conjunction`.

    Examples
    --------
    >>> (c,) = better_on_tasks(["t1", "t2", "t3"], [1, 0, 5], [12, 9, 6], ("A", "B"),
    ...                        alternative="greater")
    >>> c.better, c.count.bonferroni_count, c.count.fisher_count, c.count.holm_named
    ('B', 2, 2, ('t1', 't2'))
    """
    if alternative not in (None, "two-sided", "greater", "less"):
        raise CalculatorError(
            f"`alternative` must be 'two-sided', 'greater', 'less' or None, but got "
            f"{alternative!r}."
        )
    if not len(tasks) == len(only_a) == len(only_b):
        raise CalculatorError(
            f"Each task needs its two discordant counts: {len(tasks)} tasks, "
            f"{len(only_a)} and {len(only_b)} counts."
        )
    directions = {"greater": ("greater",), "less": ("less",)}.get(alternative, ("greater", "less"))
    level = alpha if len(directions) == 1 else alpha / 2
    counts = []
    for direction in directions:
        pvalues = [
            mcnemar_exact(int(b), int(c), alternative=direction).pvalue
            for b, c in zip(only_a, only_b, strict=True)
        ]
        better, other = names[::-1] if direction == "greater" else names
        counts.append(
            TaskCount(
                better=better,
                other=other,
                alpha=level,
                count=partial_conjunction(pvalues, alpha=level, tasks=tasks),
            )
        )
    return tuple(counts)
