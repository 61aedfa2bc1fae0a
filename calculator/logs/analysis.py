"""The analysis of two paired logs: a table and tests per task, the pooled table, the
task-clustered test and Holm's adjustment across tasks; by question when cases are repeats.

Repeats of a question (Inspect epochs, HELM train trials) are not independent cases. For them
the plain McNemar test is not reported; two tests by question are: the clustered McNemar test
with the question as the cluster (Durkalski et al. 2003, :mod:`calculator.clustered`), and the
exact sign-flip test of the per-question pass shares (:mod:`calculator.scores.signflip`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calculator.analysis import Analysis, analyze
from calculator.clustered import ClusteredTestResult, clustered_mcnemar
from calculator.compare.multiplicity import adjust_pvalues
from calculator.logs.pairing import PairedLogs, TaskCases
from calculator.scores.lattice import LatticeTooWide
from calculator.scores.signflip import SignFlipTest, lattice_sign_flip

__all__ = ["LogAnalysis", "TaskAnalysis", "analyze_logs", "input_summary"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskAnalysis:
    """One task: its paired cases, the analysis of its table, and with repeats the tests by
    question. `pvalue` is the task's test (by question with repeats, else exact McNemar).
    `shares_grid` is 1/step of the pass shares when their sign-flip test was left out, its
    exact distribution too costly on so fine a grid (None otherwise)."""

    task: str
    paired: TaskCases = field(repr=False)
    analysis: Analysis = field(repr=False)
    by_question: ClusteredTestResult | None
    shares: SignFlipTest | None
    pvalue: float
    test: str
    holm_pvalue: float | None = None
    shares_grid: int | None = None

    def to_dict(self) -> dict[str, object]:
        """As plain JSON types."""
        cases = self.paired.cases
        t = cases.table
        return {
            **self.paired.counts(),
            "table": {"a": t.a, "b": t.b, "c": t.c, "d": t.d, "n": t.n},
            "test": self.test,
            "pvalue": self.pvalue,
            "holm_pvalue": self.holm_pvalue,
            "clustered_by_question": None
            if self.by_question is None
            else self.by_question.to_dict(),
            "pass_share_sign_flip": None if self.shares is None else _shares_dict(self.shares),
            "pass_share_sign_flip_left_out": None
            if self.shares_grid is None
            else {"reason": "grid too fine", "grid_steps": self.shares_grid},
            "issues": [issue.to_dict() for issue in cases.issues],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class LogAnalysis:
    """The whole comparison of two logs.

    Attributes
    ----------
    paired : PairedLogs
        What was compared (format, metric and why, filter, tasks).
    tasks : tuple of TaskAnalysis
        One per task, Holm-adjusted across tasks when there are several.
    pooled : Analysis
        The analysis of the pooled table (every task's cases).
    by_task : ClusteredTestResult or None
        With several tasks, the clustered McNemar test with the task as the cluster.
    repeats : bool
        Whether some task's cases are repeats of questions (then the per-case tests of
        `pooled` treat dependent samples as independent and are not reported).
    """

    paired: PairedLogs
    tasks: tuple[TaskAnalysis, ...]
    pooled: Analysis = field(repr=False)
    by_task: ClusteredTestResult | None
    repeats: bool

    def input_summary(self) -> dict[str, object]:
        """The "input" section: format, metric (with why and the others), filter, files."""
        return input_summary(self.paired)


def input_summary(paired: PairedLogs) -> dict[str, object]:
    """The "input" section of two paired logs: format, metric (with why and the others),
    filter, files, names, the tasks only one log holds and the readers' notes."""
    return {
        "format": paired.format,
        "metric": paired.metric.metric,
        "metric_reason": paired.metric.reason,
        "other_metrics": list(paired.metric.others),
        "filter": paired.filter,
        "filters_by_task": dict(paired.task_filters),
        "threshold": paired.threshold,
        "files": {"A": list(paired.sources[0]), "B": list(paired.sources[1])},
        "names": list(paired.names),
        "tasks_only_in": {
            "A": list(paired.unpaired_tasks[0]),
            "B": list(paired.unpaired_tasks[1]),
        },
        "notes": list(paired.notes),
    }


def analyze_logs(paired: PairedLogs, *, alpha: float = 0.05, **question: object) -> LogAnalysis:
    """Analyse two paired logs (`question`: the options of :func:`calculator.analyze`); logs
    paired as scores are analysed by :func:`calculator.logs.scores.analyze_log_scores`."""
    if paired.scores:
        from calculator.logs.table import LogError

        raise LogError(
            f"{paired.metric.metric!r} was paired as scores: compare it with analyze_log_scores, "
            "or pair it with a threshold for McNemar's test."
        )
    tasks = [_task(task, paired.names, alpha, question) for task in paired.tasks]
    if len(tasks) > 1:
        adjusted = adjust_pvalues([task.pvalue for task in tasks], method="holm")
        tasks = [_replace_holm(task, float(p)) for task, p in zip(tasks, adjusted, strict=True)]
    counts = np.sum([task.paired.cases.counts for task in tasks], axis=0)
    pooled = analyze(*map(int, counts), alpha=alpha, names=paired.names, **question)
    by_task = None
    if len(tasks) > 1:
        b_i = [task.analysis.table.b for task in tasks]
        c_i = [task.analysis.table.c for task in tasks]
        by_task = clustered_mcnemar(b_i, c_i)
    return LogAnalysis(
        paired=paired,
        tasks=tuple(tasks),
        pooled=pooled,
        by_task=by_task,
        repeats=any(task.paired.repeats for task in tasks),
    )


def _task(task: TaskCases, names: tuple[str, str], alpha: float, question: dict) -> TaskAnalysis:
    cases = task.cases
    if cases.n == 0:
        from calculator.logs.table import LogError

        raise LogError(
            f"task {task.task!r}: no usable case ({cases.rows_read:,} rows read; excluded: "
            + ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in cases.excluded.items() if v)
            + ")."
        )
    analysis = analyze(*cases.counts, alpha=alpha, names=names, **question)
    if not task.repeats:
        return TaskAnalysis(
            task=task.task,
            paired=task,
            analysis=analysis,
            by_question=None,
            shares=None,
            pvalue=analysis.exact.pvalue,
            test="exact McNemar test",
        )
    by_question = clustered_mcnemar(*cases.cluster_counts())
    shares, grid = None, None
    if task.shares is not None:
        try:
            shares = lattice_sign_flip(task.shares[0], step=task.shares[1], unit="question")
        except LatticeTooWide:  # left out, and said so: the clustered test is the task's
            grid = round(1.0 / task.shares[1])
    return TaskAnalysis(
        task=task.task,
        paired=task,
        analysis=analysis,
        by_question=by_question,
        shares=shares,
        shares_grid=grid,
        pvalue=by_question.pvalue,
        test="clustered McNemar test, question as cluster",
    )


def _shares_dict(test: SignFlipTest) -> dict[str, object]:
    """The pass-share test in JSON: its keys as before it shared the scores' test, then that
    test's own fields."""
    method = "exact paired sign-flip permutation test"
    if test.note:
        method += f" ({test.note})"
    return {
        "mean_difference": test.statistic,
        "pvalue": test.pvalue,
        "questions": test.units,
        "method": method,
        "test": test.to_dict(),
    }


def _replace_holm(task: TaskAnalysis, holm: float) -> TaskAnalysis:
    import dataclasses

    return dataclasses.replace(task, holm_pvalue=holm)
