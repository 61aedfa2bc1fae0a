"""Three or more systems' scores over a suite of tasks: Friedman's test over every question,
and each task's own, Holm-adjusted across the tasks.

Friedman's test ranks the systems within each block; with the question as the block, the
permutation distribution permutes each question's scores among the systems, each question its
own stratum, which is finer than its task: pooling the questions over tasks keeps the test
valid whatever the tasks' difficulties (as for Cochran's Q, :mod:`calculator.compare.suite`).
Each task's Friedman test answers for that task alone; their p-values are adjusted by Holm
across the tasks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from calculator.compare.friedman import EXACT_MAX_WORK, FriedmanComparison, friedman_compare
from calculator.compare.multiplicity import adjust_pvalues

__all__ = ["FriedmanSuite", "friedman_by_task"]


@dataclass(frozen=True, slots=True, kw_only=True)
class FriedmanSuite:
    """Each task's Friedman comparison (None for a task of fewer than 2 questions), its size,
    and its decision p adjusted by Holm across the tasks that have one (None elsewhere)."""

    tasks: tuple[str, ...]
    sizes: tuple[int, ...]
    by_task: tuple[FriedmanComparison | None, ...]
    holm_pvalues: tuple[float | None, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "method": "friedman by task, each question a block; Holm across tasks",
            "tasks": [
                {
                    "task": task,
                    "n": size,
                    "holm_pvalue": holm,
                    **({} if result is None else result.to_dict()),
                }
                for task, size, result, holm in zip(
                    self.tasks, self.sizes, self.by_task, self.holm_pvalues, strict=True
                )
            ],
        }


def friedman_by_task(
    scores: np.ndarray,
    names: Sequence[str],
    tasks: np.ndarray,
    *,
    alpha: float = 0.05,
    better: str = "higher",
) -> FriedmanSuite:
    """Friedman's test within each task (`tasks`: the task of each row of `scores`), Holm
    across them; the exact enumeration's bound is shared out among the tasks.

    Examples
    --------
    >>> x = np.array([[3, 2, 1], [3, 1, 2], [3, 2, 1], [1, 2, 3], [2, 1, 3], [1, 3, 2]])
    >>> suite = friedman_by_task(x, ["a", "b", "c"], np.array(list("tttuuu")))
    >>> suite.tasks, suite.sizes, [round(r.average_ranks[0], 2) for r in suite.by_task]
    (('t', 'u'), (3, 3), [1.0, 2.67])
    """
    labels = np.asarray(tasks).astype(str)
    order = tuple(dict.fromkeys(labels.tolist()))
    work = max(1, EXACT_MAX_WORK // max(1, len(order)))
    results: list[FriedmanComparison | None] = []
    sizes = []
    for task in order:
        rows = np.asarray(scores)[labels == task]
        sizes.append(int(rows.shape[0]))
        results.append(
            friedman_compare(rows, list(names), alpha=alpha, better=better, max_work=work)
            if rows.shape[0] >= 2
            else None
        )
    decided = [r.decision_pvalue for r in results if r is not None]
    adjusted = iter(adjust_pvalues(decided, method="holm") if decided else [])
    holm = tuple(None if r is None else float(next(adjusted)) for r in results)
    return FriedmanSuite(tasks=order, sizes=tuple(sizes), by_task=tuple(results), holm_pvalues=holm)
