"""Three or more systems over a suite of tasks: each task alone, and the suite stratified by
task.

Each task is compared as it would be alone (:func:`calculator.compare.compare_systems` on its
cases: Cochran's Q, every pair by the exact McNemar test adjusted over the pairs), and Holm's
adjustment runs across the tasks' Cochran p-values. The suite's own comparison is
:func:`compare_systems` on every task's cases together, and it is stratified by task as it
stands: Cochran's Q is the Cochran-Mantel-Haenszel statistic with each case its own stratum,
and its exact permutation distribution permutes each case's outcomes among the systems,
conditional on that case's number of passes; grouping the cases into tasks adds no
constraint that each case's own does not already impose, so pooling the cases over tasks
keeps that distribution exact under H0 (within every case the systems are exchangeable),
whatever the tasks' difficulties. Each pair's exact McNemar test on the summed table is the
task-stratified exact test likewise (:mod:`calculator.stratified`). Both answer for these
questions; whether a ranking would carry over to other tasks is another question, which a
handful of tasks can barely answer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calculator.clustered_exact import cluster_sign_flip
from calculator.compare.multiplicity import adjust_pvalues
from calculator.compare.systems import PairComparison, SystemComparison, compare_systems
from calculator.errors import CalculatorError
from calculator.scores.signflip import SignFlipTest

__all__ = ["SuiteComparison", "compare_suite"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SuiteComparison:
    """k systems over several tasks.

    Attributes
    ----------
    tasks : tuple of str
        The tasks, in the order first met.
    by_task : tuple of SystemComparison
        Each task's cases compared alone.
    holm_pvalues : tuple of float
        Each task's Cochran p (its decision p: the permutation p when computed) adjusted by
        Holm across the tasks.
    pooled : SystemComparison
        Every task's cases together: the suite's comparison, stratified by task (the module's
        docstring says why it stays exact).
    task_clustered : tuple of SignFlipTest
        For each pair of `pooled.pairs`, the exact sign-flip test of the tasks' leans (only
        the first minus only the second, per task), the task as the cluster: whether the lead
        would carry over to other tasks like these. Shown for contrast; with K leaning tasks
        its p cannot go below 2^(1 - K).
    """

    tasks: tuple[str, ...]
    by_task: tuple[SystemComparison, ...]
    holm_pvalues: tuple[float, ...]
    pooled: SystemComparison
    task_clustered: tuple[SignFlipTest, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types: "method" ("stratified": the pooled comparison is the suite's,
        stratified by task) and a row per task (its comparison and Holm-adjusted Cochran p)."""
        return {
            "method": "stratified",
            "strata": "task",
            "tasks": [
                {"task": task, "holm_pvalue": holm, **comparison.to_dict()}
                for task, comparison, holm in zip(
                    self.tasks, self.by_task, self.holm_pvalues, strict=True
                )
            ],
            "task_clustered_pairs": [
                {"a": pair.a, "b": pair.b, "sign_flip": test.to_dict()}
                for pair, test in zip(self.pooled.pairs, self.task_clustered, strict=True)
            ],
        }


def compare_suite(
    outcomes: np.ndarray,
    names: tuple[str, ...] | list[str],
    tasks: np.ndarray,
    pooled: SystemComparison | None = None,
    **options: object,
) -> SuiteComparison:
    """Compare k systems task by task and over the suite; `tasks` the task of each row of
    `outcomes`, `options` those of :func:`calculator.compare.compare_systems` (`pooled`: its
    result on every row, when already computed with the same options).

    Examples
    --------
    >>> rows = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 0], [1, 1, 1], [1, 0, 0]])
    >>> suite = compare_suite(rows, ["x", "y", "z"], np.array(list("ttttuu")))
    >>> suite.tasks, [c.n for c in suite.by_task], suite.pooled.n
    (('t', 'u'), [4, 2], 6)
    """
    tasks = np.asarray(tasks, dtype=object)
    outcomes = np.asarray(outcomes)
    if tasks.shape != (outcomes.shape[0],):
        raise CalculatorError(
            f"tasks must name the task of each of the {outcomes.shape[0]:,} cases; got "
            f"{tasks.shape[0]:,}"
        )
    order = tuple(dict.fromkeys(str(task) for task in tasks))
    labels = tasks.astype(str)
    by_task = tuple(
        compare_systems(outcomes[labels == task], list(names), **options) for task in order
    )
    decided = [comparison.cochran.decision_pvalue for comparison in by_task]
    holm = tuple(float(p) for p in adjust_pvalues(decided, method="holm"))
    pooled = pooled if pooled is not None else compare_systems(outcomes, list(names), **options)
    return SuiteComparison(
        tasks=order,
        by_task=by_task,
        holm_pvalues=holm,
        pooled=pooled,
        task_clustered=tuple(_task_clustered(pair, by_task) for pair in pooled.pairs),
    )


def _task_clustered(pair: PairComparison, by_task: tuple[SystemComparison, ...]) -> SignFlipTest:
    """The pair's exact sign flip of the tasks' leans (:func:`cluster_sign_flip`)."""
    tables = [comparison.pair(pair.a, pair.b) for comparison in by_task]
    return cluster_sign_flip([t.b_count for t in tables], [t.c_count for t in tables], unit="task")
