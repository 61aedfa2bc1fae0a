"""Three or more systems over several tasks in words: a line per task (each system's pass rate,
the task's Cochran's Q with Holm across tasks, the pairs that differ within it) and the line
that says the pooled comparison below is the suite's, stratified by task."""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.compare import ADJUSTMENT_NAMES
from calculator.report.formatting import format_p_equals, format_percent, format_points, plural

if TYPE_CHECKING:
    from calculator.compare.suite import SuiteComparison
    from calculator.compare.systems import SystemComparison

__all__ = ["STRATIFIED_WORDS", "suite_lines"]

#: Why the pooled comparison over every task's cases is the suite's, stratified by task.
STRATIFIED_WORDS = (
    "Cochran's exact permutation distribution permutes each question's outcomes among the "
    "systems given its number of passes, each question its own stratum, finer than its task, "
    "so pooling the questions over tasks keeps it exact; and each pair's exact McNemar test of "
    "the summed table is the task-stratified one"
)


def suite_lines(suite: SuiteComparison) -> list[str]:
    """The tasks' lines, then the line that names the pooled comparison that follows.

    Examples
    --------
    >>> import numpy as np
    >>> from calculator.compare.suite import compare_suite
    >>> rows = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 0], [1, 1, 1], [1, 0, 0]])
    >>> lines = suite_lines(compare_suite(rows, ["x", "y", "z"], np.array(list("ttttuu"))))
    >>> print(lines[0][:60])
    task t (4 cases): x 75.0%, y 25.0%, z 25.0%; Cochran's Q exa
    """
    lines = [_task_line(task, c, holm, suite) for task, c, holm in _rows(suite)]
    pooled = suite.pooled
    lines += [
        "",
        f"pooled    all {plural(pooled.n, 'question')} of the {plural(len(suite.tasks), 'task')}"
        f", stratified by task: the suite's answer, below ({STRATIFIED_WORDS}). The rows by "
        "task answer each task alone, Cochran's p Holm-adjusted across tasks; whether a "
        "ranking would carry over to other tasks like these is another question, which "
        f"{plural(len(suite.tasks), 'task')} can barely answer",
        _contrast_line(suite),
    ]
    return lines


def _contrast_line(suite: SuiteComparison) -> str:
    """Each pair's exact sign flip with the task as the cluster, shown for contrast."""
    pairs = "; ".join(
        f"{pair.a} − {pair.b} {format_p_equals(test.pvalue, alpha=suite.pooled.alpha)}"
        for pair, test in zip(suite.pooled.pairs, suite.task_clustered, strict=True)
    )
    k = len(suite.tasks)
    return (
        "by task   shown for contrast, not the answer: each pair's exact sign-flip test of the "
        f"tasks' leans, the task as the cluster (unadjusted): {pairs}; with {k} tasks no p "
        f"can go below 2^(1 − {k}) = {2.0 ** (1 - k):.4g}"
    )


def _rows(suite: SuiteComparison) -> list[tuple[str, SystemComparison, float]]:
    return list(zip(suite.tasks, suite.by_task, suite.holm_pvalues, strict=True))


def _task_line(task: str, c: SystemComparison, holm: float, suite: SuiteComparison) -> str:
    rates = ", ".join(f"{system.name} {format_percent(system.rate)}" for system in c.systems)
    q = c.cochran
    test = {
        "exact": "exact permutation",
        "monte-carlo": "Monte Carlo permutation",
        "none": "chi-square",
    }[q.method]
    p = format_p_equals(q.decision_pvalue, alpha=c.alpha)
    held = format_p_equals(holm, alpha=c.alpha)
    differ = [
        f"{pair.a} − {pair.b} {format_points(pair.difference)} pts"
        for pair in c.pairs
        if pair.reject
    ]
    pairs = (
        f"pairs differing after {ADJUSTMENT_NAMES[c.adjust]} over "
        f"{plural(c.family_size, 'pair')}: {', '.join(differ) if differ else 'none'}"
    )
    return (
        f"task {task} ({plural(c.n, 'case')}): {rates}; Cochran's Q {test} {p}, Holm-adjusted "
        f"across {plural(len(suite.tasks), 'task')} {held}; {pairs}"
    )
