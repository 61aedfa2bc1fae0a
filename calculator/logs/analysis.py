"""The analysis of two paired logs: a table and tests per task, the pooled table, the
task-clustered test and Holm's adjustment across tasks; by question when cases are repeats.

Repeats of a question (Inspect epochs, HELM train trials) are not independent cases. For them
the plain McNemar test is not reported; two tests by question are: the clustered McNemar test
with the question as the cluster (Durkalski et al. 2003, :mod:`calculator.clustered`), held at
the p of the exact sign-flip test of the questions' leans b_i - c_i that it approximates
(:mod:`calculator.clustered_exact`), and an exact test of the per-question pass shares: their
sign flip (:mod:`calculator.scores.signflip`) when A and B have as many repeats of each
question, else the permutation of the labels within each question
(:mod:`calculator.logs.share_permutation`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calculator.analysis import Analysis, analyze
from calculator.clustered import ClusteredTestResult, Clusters, clustered_mcnemar
from calculator.clustered_exact import cluster_sign_flip, held_at_exact, log10_of
from calculator.compare.conjunction import TaskCount, better_on_tasks
from calculator.compare.multiplicity import adjust_pvalues
from calculator.logs.pairing import MAX_LATTICE, PairedLogs, TaskCases
from calculator.logs.share_permutation import (
    LabelPermutationTest,
    label_permutation_test,
    unequal_repeats,
)
from calculator.scores.lattice import LatticeTooWide
from calculator.scores.signflip import SignFlipTest, lattice_sign_flip
from calculator.stratified import suite_method

__all__ = ["TASK_TESTS", "LogAnalysis", "TaskAnalysis", "analyze_logs", "input_summary"]

#: The codes of a task's test (:attr:`TaskAnalysis.test`), worded by
#: :func:`calculator.report.suite.task_test_words`: the two-sided exact McNemar test (no
#: repeats); with repeats the clustered McNemar test by question, as it is ("clustered") or held
#: at the exact sign-flip test's p ("clustered-held").
TASK_TESTS = ("exact", "clustered", "clustered-held")


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskAnalysis:
    """One task: its paired cases, the analysis of its table, and with repeats the tests by
    question. `pvalue` is the task's test, `test` its code (:data:`TASK_TESTS`): the two-sided
    exact McNemar test without repeats; with them the clustered McNemar test by question, held
    at the exact sign-flip test of the questions' leans (`by_question_exact`) where that one's
    p is larger (:func:`calculator.clustered_exact.held_at_exact`).
    `shares_grid` is 1/step of the pass shares when their sign-flip test was left out, its
    exact distribution too costly on so fine a grid (None otherwise)."""

    task: str
    paired: TaskCases = field(repr=False)
    analysis: Analysis = field(repr=False)
    by_question: ClusteredTestResult | None
    shares: SignFlipTest | LabelPermutationTest | None
    pvalue: float
    test: str
    holm_pvalue: float | None = None
    by_question_exact: SignFlipTest | None = None
    shares_grid: int | None = None

    @property
    def family_pvalue(self) -> float:
        """The p that decides the task's row: Holm-adjusted across the tasks when there are
        several, the task's own p when it is the only one (a family of one, which Holm leaves
        as it is)."""
        return self.pvalue if self.holm_pvalue is None else self.holm_pvalue

    def rejects(self) -> bool:
        """Whether the task's row shows a difference: :attr:`family_pvalue` at most alpha."""
        return self.family_pvalue <= self.analysis.decision.alpha

    def to_dict(self) -> dict[str, object]:
        """As plain JSON types."""
        cases = self.paired.cases
        t = cases.table
        return {
            **self.paired.counts(),
            "table": t.to_dict(),
            "test": self.test,
            "pvalue": self.pvalue,
            "holm_pvalue": self.holm_pvalue,
            "clustered_by_question": None
            if self.by_question is None
            else self.by_question.to_dict(),
            "sign_flip_by_question": None
            if self.by_question_exact is None
            else self.by_question_exact.to_dict(),
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
        The analysis of the summed table (every task's cases, each question counted once). Its
        decision is the suite's answer (:attr:`method`): with several tasks the task-stratified
        exact McNemar test, which is the summed table's exact test
        (:mod:`calculator.stratified`), and with a margin Tango's test of the micro-averaged
        difference on that table.
    by_task : ClusteredTestResult or None
        With several tasks, the clustered McNemar test with the task as the cluster: another
        question (would the lead carry over to other tasks like these?), shown for contrast.
    by_task_exact : SignFlipTest or None
        With several tasks, the exact sign-flip test of the tasks' leans, which `by_task`
        approximates and is held at (:attr:`by_task_pvalue`).
    repeats : bool
        Whether some task's cases are repeats of questions. Then the per-case tests of
        `pooled` treat dependent samples as independent and are not reported, and its decision
        (the question, margin and gate asked) counts the questions as clusters, as
        ``calculator.analyze(..., clusters=...)`` does for ``cases --group``.
    """

    paired: PairedLogs
    tasks: tuple[TaskAnalysis, ...]
    pooled: Analysis = field(repr=False)
    by_task: ClusteredTestResult | None
    repeats: bool
    by_task_exact: SignFlipTest | None = None
    #: With several tasks and no repeats, on how many tasks each system does better
    #: (:func:`calculator.compare.conjunction.better_on_tasks`); else none.
    tasks_better: tuple[TaskCount, ...] = ()

    @property
    def by_task_pvalue(self) -> tuple[float, bool] | None:
        """The task-clustered test's p held at the exact sign-flip test of the tasks' leans
        (:func:`calculator.clustered_exact.held_at_exact`), and whether it was; None with one
        task."""
        if self.by_task is None or self.by_task_exact is None:
            return None
        _, held = held_at_exact(self.by_task.log10_pvalue, log10_of(self.by_task_exact.pvalue))
        return (self.by_task_exact.pvalue if held else self.by_task.pvalue), held

    @property
    def method(self) -> str:
        """The code of the test that answers the suite's question
        (:func:`calculator.stratified.suite_method`): "stratified" for several tasks, with
        repeats "stratified-by-question" (each question a cluster of its repeats, within its
        task), "by-question" for one task of repeats, "exact" for one task."""
        return suite_method(len(self.tasks), self.repeats)

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
        "by_task": paired.choices_by_task(),
        "threshold": paired.threshold,
        "stated_better": paired.stated_better,
        "files": {"A": list(paired.sources[0]), "B": list(paired.sources[1])},
        "names": list(paired.names),
        "tasks_only_in": {
            "A": list(paired.unpaired_tasks[0]),
            "B": list(paired.unpaired_tasks[1]),
        },
        "tasks_paired_by_content": [pair.to_dict() for pair in paired.content_pairs],
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
    repeats = any(task.paired.repeats for task in tasks)
    clusters = _question_clusters(tasks) if repeats else None
    pooled = analyze(
        *map(int, counts), alpha=alpha, names=paired.names, clusters=clusters, **question
    )
    by_task = by_task_exact = None
    if len(tasks) > 1:
        b_i = [task.analysis.table.b for task in tasks]
        c_i = [task.analysis.table.c for task in tasks]
        by_task = clustered_mcnemar(b_i, c_i)
        by_task_exact = cluster_sign_flip(b_i, c_i, unit="task")
    return LogAnalysis(
        paired=paired,
        tasks=tuple(tasks),
        pooled=pooled,
        by_task=by_task,
        by_task_exact=by_task_exact,
        repeats=repeats,
        tasks_better=_tasks_better(tasks, pooled, alpha) if not repeats else (),
    )


def _tasks_better(
    tasks: list[TaskAnalysis], pooled: Analysis, alpha: float
) -> tuple[TaskCount, ...]:
    """With several tasks, the partial-conjunction count of the tasks each system does better
    on, in the direction asked (both when two-sided)."""
    if len(tasks) < 2:
        return ()
    tables = [task.analysis.table for task in tasks]
    return better_on_tasks(
        [task.task for task in tasks],
        [t.b for t in tables],
        [t.c for t in tables],
        pooled.decision.names,
        alternative=pooled.decision.alternative,
        alpha=alpha,
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
            test="exact",
        )
    b_i, c_i = cases.cluster_counts()
    by_question = clustered_mcnemar(b_i, c_i)
    exact = cluster_sign_flip(b_i, c_i, unit="question")
    _, held = held_at_exact(by_question.log10_pvalue, log10_of(exact.pvalue))
    shares, grid = None, None
    counts = task.share_counts
    try:
        if counts is not None and unequal_repeats(counts[1], counts[3]):
            shares = label_permutation_test(*counts)  # the sign flip is not exact there
        elif task.shares is not None:
            shares = lattice_sign_flip(task.shares[0], step=task.shares[1], unit="question")
    except LatticeTooWide:  # left out, and said so: the clustered test is the task's
        grid = None if task.shares is None else round(1.0 / task.shares[1])
    if task.shares_too_fine:  # finer than 64-bit integers hold: left out, said the same way
        grid = MAX_LATTICE
    return TaskAnalysis(
        task=task.task,
        paired=task,
        analysis=analysis,
        by_question=by_question,
        by_question_exact=exact,
        shares=shares,
        shares_grid=grid,
        pvalue=exact.pvalue if held else by_question.pvalue,
        test="clustered-held" if held else "clustered",
    )


def _question_clusters(tasks: list[TaskAnalysis]) -> Clusters:
    """Every task's cases by question (each case its own cluster in a task without repeats),
    so that the pooled decision and gate count questions, as ``cases --group`` counts groups.
    A label is the task's number and the question's id, so a question is a cluster within its
    task: the decision is stratified by task with the questions as clusters."""
    a_pass, b_pass, labels = [], [], []
    for number, task in enumerate(tasks):
        cases = task.paired.cases
        column = cases.group_column
        keys = cases.cases[column] if column else cases.cases.index.to_series()
        labels += [f"{number}\x00{key}" for key in keys.astype("str")]
        a_pass.append(cases.a_pass)
        b_pass.append(cases.b_pass)
    return Clusters.from_outcomes(
        np.concatenate(a_pass), np.concatenate(b_pass), np.asarray(labels), column="question"
    )


def _shares_dict(test: SignFlipTest | LabelPermutationTest) -> dict[str, object]:
    """The pass-share test in JSON: its keys as before it shared the scores' test, then that
    test's own fields ("test.method" says which test: the sign flip, or with unequal repeats
    the permutation of the labels within each question)."""
    return {
        "mean_difference": test.statistic,
        "pvalue": test.pvalue,
        "questions": test.units,
        "method": test.method,
        "test": test.to_dict(),
    }


def _replace_holm(task: TaskAnalysis, holm: float) -> TaskAnalysis:
    import dataclasses

    return dataclasses.replace(task, holm_pvalue=holm)
