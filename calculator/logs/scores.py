"""Two logs paired on a graded metric, compared as scores: task by task and pooled.

A graded metric (HELM's graded stats, Inspect's partial credit P = 0.5, lm-eval's per-sample
BLEU, ROUGE or F1) given without a threshold is compared by its mean with
:func:`calculator.compare_scores`: per task with the question as the cluster when the cases are
repeats of questions, and pooled over every task's questions, each counted once, when there are
several: the suite's answer, as for pass/fail logs (:mod:`calculator.stratified`). Its sign flip
flips each question's difference alone (with repeats, each question's cluster within its task),
so it is stratified by task as it stands: the task adds no constraint a question's own sign
does not. The comparison with the task as the cluster asks another question (would the lead
carry over to other tasks like these?) and is kept beside it, for contrast (`by_task`). Holm's
adjustment runs across the tasks' p-values, as for pass/fail logs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from calculator.compare.multiplicity import adjust_pvalues
from calculator.logs.pairing import PairedLogs, TaskCases
from calculator.logs.share_permutation import LabelPermutationTest, score_label_permutation
from calculator.logs.table import LogError
from calculator.scores import ScoresComparison, compare_scores

__all__ = ["LogScores", "TaskScores", "analyze_log_scores", "headline_pvalue"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskScores:
    """One task's paired scores and their comparison; `pvalue` is :func:`headline_pvalue`, or
    with A and B holding different numbers of repeats (`by_question`) the permutation test of
    the labels within each question, the comparison then being of the questions' means."""

    task: str
    paired: TaskCases = field(repr=False)
    comparison: ScoresComparison = field(repr=False)
    pvalue: float
    holm_pvalue: float | None = None
    by_question: LabelPermutationTest | None = None

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types: the counts of the pairing, then the comparison as "scores"."""
        return {
            **self.paired.counts(),
            "pvalue": self.pvalue,
            "holm_pvalue": self.holm_pvalue,
            "scores": self.comparison.to_dict(),
            "label_permutation_by_question": None
            if self.by_question is None
            else self.by_question.to_dict(),
            "issues": [issue.to_dict() for issue in self.paired.cases.issues],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class LogScores:
    """The comparison of two logs' scores: per task, and pooled over the tasks.

    Attributes
    ----------
    paired : PairedLogs
    tasks : tuple of TaskScores
        Holm-adjusted across tasks when there are several.
    pooled : ScoresComparison
        Every task's pairs, each question counted once: the suite's answer (clustered by
        question within its task with repeats).
    repeats : bool
        Whether some task's cases are repeats of questions.
    by_task : ScoresComparison or None
        With several tasks, every task's pairs with the task as the cluster: shown for
        contrast, never the answer.
    """

    paired: PairedLogs
    tasks: tuple[TaskScores, ...]
    pooled: ScoresComparison
    repeats: bool
    by_task: ScoresComparison | None = None


def headline_pvalue(comparison: ScoresComparison) -> float:
    """The p-value a comparison is judged by: the sign-flip permutation test's, the paired t
    test's when the permutation test was not run, 1 when neither is defined (no spread)."""
    if comparison.pvalue is not None:
        return comparison.pvalue
    return 1.0 if comparison.t_test.pvalue is None else comparison.t_test.pvalue


def analyze_log_scores(paired: PairedLogs, **options: object) -> LogScores:
    """Compare two logs paired as scores (:func:`~calculator.logs.pairing.pair_logs` with
    ``scores=True``); `options` are those of :func:`calculator.compare_scores` (level,
    alternative, margin, resamples, seed).

    Raises
    ------
    LogError
        When the logs were paired as pass/fail, or a task has no case with two scores.
    """
    from calculator.cases.scores_input import paired_scores_of

    if not paired.scores:
        raise LogError(
            "these logs were paired as pass/fail outcomes: analyse them with analyze_logs."
        )
    parts, tasks = [], []
    for task in paired.tasks:
        if task.cases.n == 0:
            raise LogError(
                f"task {task.task!r}: no case with a score in both logs ({task.cases.rows_read:,} "
                "rows read)."
            )
        a, b, clusters = paired_scores_of(task.cases)
        comparison = compare_scores(a, b, clusters=clusters, names=paired.names, **options)
        by_question = None
        if task.question_scores is not None:
            sa, ka, qa, sb, kb, qb, pools = task.question_scores
            by_question = score_label_permutation(
                (sa, sb), (ka, kb), (qa, qb), alternative=comparison.alternative, pools=pools
            )
        tasks.append(
            TaskScores(
                task=task.task,
                paired=task,
                comparison=comparison,
                pvalue=headline_pvalue(comparison) if by_question is None else by_question.pvalue,
                by_question=by_question,
            )
        )
        parts.append((a, b, clusters, task.task))
    if len(tasks) > 1:
        adjusted = adjust_pvalues([t.pvalue for t in tasks], method="holm")
        tasks = [
            dataclasses.replace(t, holm_pvalue=float(p))
            for t, p in zip(tasks, adjusted, strict=True)
        ]
        a = np.concatenate([part[0] for part in parts])
        b = np.concatenate([part[1] for part in parts])
        labels = np.concatenate([np.full(part[0].size, part[3], dtype=object) for part in parts])
        questions = _question_labels(parts)
        pooled = compare_scores(a, b, clusters=questions, names=paired.names, **options)
        by_task = compare_scores(a, b, clusters=labels, names=paired.names, **options)
    else:
        pooled, by_task = tasks[0].comparison, None
    return LogScores(
        paired=paired,
        tasks=tuple(tasks),
        pooled=pooled,
        repeats=any(task.repeats for task in paired.tasks),
        by_task=by_task,
    )


def _question_labels(parts: list[tuple]) -> np.ndarray | None:
    """Each case's question within its task (the task's number and the question), when some
    task's cases are repeats of questions; None when every case is its own question."""
    if all(part[2] is None for part in parts):
        return None
    return np.concatenate(
        [
            np.asarray(
                [
                    f"{number}\x00{label}"
                    for label in (np.arange(a.size) if clusters is None else clusters)
                ],
                dtype=object,
            )
            for number, (a, _, clusters, _) in enumerate(parts)
        ]
    )
