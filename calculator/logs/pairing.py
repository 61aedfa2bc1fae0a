"""Two systems' logs paired task by task through the per-case loader, and analysed.

Each task's rows of the chosen metric become two per-case files (:class:`CaseFile`: the case id,
the question, the value) that :func:`calculator.cases.load_cases` pairs and validates as it
does any two files: the pairing, the exclusions and their findings are its own. Repeats
(Inspect epochs, HELM train trials) are paired by (question, repeat) with the question as the
cluster; the per-question pass shares are compared too, by the exact sign-flip test
(:func:`calculator.scores.signflip.lattice_sign_flip`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.analysis import MAX_NAME_LENGTH
from calculator.cases import CaseFile, load_cases
from calculator.logs.content_match import ContentPair, match_by_content
from calculator.logs.pairing_checks import (
    HASHED,
    refuse_different_documents,
    refuse_large_exclusions,
    refuse_uneven_repeats,
)
from calculator.logs.question_means import pair_question_means
from calculator.logs.select import (
    MetricChoice,
    choose_metric,
    refuse_duplicates,
    refuse_mixed,
)
from calculator.logs.table import LogError, LogTable
from calculator.logs.task_choice import Asked, choose_by_task, overall_choice
from calculator.text import clip, printable

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    import pandas as pd

    from calculator.cases import PairedCases

__all__ = [
    "MAX_EXCLUDED_SHARE",
    "PairedLogs",
    "TaskCases",
    "align_tasks",
    "pair_logs",
    "refuse_different_documents",
    "share_numerators",
]

#: Largest share of either system's rows left out before the pairing is refused.
MAX_EXCLUDED_SHARE = 0.05
#: Largest lattice of pass shares (the least common multiple of the repeat counts): 2^53, so
#: that every numerator and their sum stay exact in 64-bit integers and in floats.
MAX_LATTICE = 2**53


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskCases:
    """One task's paired cases and whether its cases are repeats of questions."""

    task: str
    cases: PairedCases = field(repr=False)
    repeats: bool
    shares: tuple[np.ndarray, float] | None = field(default=None, repr=False)
    #: Per question: A's passes and repeats, B's passes and repeats (what `shares` comes from).
    share_counts: tuple[np.ndarray, ...] | None = field(default=None, repr=False)
    #: The pass shares' lattice is finer than :data:`MAX_LATTICE` (the least common multiple of
    #: the questions' repeat counts): their exact test is left out, the rest is analysed.
    shares_too_fine: bool = False
    rows_given: tuple[int, int] = (0, 0)
    repeats_unpaired: tuple[int, int] = (0, 0)
    #: Scores with different repeat numbers in A and B: the cases are questions at their means
    #: (:func:`~calculator.logs.question_means.pair_question_means`), with its sums and samples.
    question_scores: tuple[np.ndarray, ...] | None = field(default=None, repr=False)
    samples_used: tuple[int, int] | None = None

    def counts(self) -> dict[str, object]:
        """The task's pairing in JSON: repeats, rows read and used, rows excluded by reason."""
        return {
            "task": self.task,
            "repeats": self.repeats,
            "rows_read": self.cases.rows_read,
            "rows_used": self.cases.rows_used,
            "excluded": dict(self.cases.excluded),
            "samples": self.samples(),
        }

    def samples(self) -> dict[str, object]:
        """Each log's samples of the task, those used and those no repeat of the other log
        pairs (with question means, every sample of a question both logs score is used)."""
        used = self.samples_used
        if used is None:
            used = tuple(g - u for g, u in zip(self.rows_given, self.repeats_unpaired, strict=True))
        return {
            "given": {"A": self.rows_given[0], "B": self.rows_given[1]},
            "used": {"A": used[0], "B": used[1]},
            "repeats_unpaired": {"A": self.repeats_unpaired[0], "B": self.repeats_unpaired[1]},
            "by_question_means": self.question_scores is not None,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class PairedLogs:
    """Two logs paired task by task on one metric (and filter)."""

    format: str
    names: tuple[str, str]
    sources: tuple[tuple[str, ...], tuple[str, ...]]
    metric: MetricChoice
    filter: str | None
    task_filters: dict[str, str]
    tasks: tuple[TaskCases, ...]
    unpaired_tasks: tuple[tuple[str, ...], tuple[str, ...]]
    notes: tuple[str, ...]
    threshold: float | None
    scores: bool = False
    #: Each paired task's metric and why (:mod:`calculator.logs.task_choice`); `metric` is
    #: their common choice, its name None when the tasks use different metrics.
    task_metrics: dict[str, MetricChoice] = field(default_factory=dict)
    #: Why each task's filter in `task_filters` was chosen.
    filter_reasons: dict[str, str] = field(default_factory=dict)
    #: Tasks of other names paired by their questions' content (B's under A's name).
    content_pairs: tuple[ContentPair, ...] = ()
    #: "lower" or "higher" when the logs state the compared metric's direction (lm-eval's
    #: results file; :func:`calculator.logs.directions.stated_better`), else None.
    stated_better: str | None = None

    def choices_by_task(self) -> dict[str, dict[str, object]]:
        """Each paired task's metric and filter with why, as plain JSON types."""
        return {
            task: {
                "metric": choice.metric,
                "metric_reason": choice.reason,
                "filter": self.task_filters.get(task),
                "filter_reason": self.filter_reasons.get(task),
            }
            for task, choice in sorted(self.task_metrics.items())
        }

    @property
    def analysed_as(self) -> str:
        """ "scores" (a graded metric without a threshold: mean scores compared) or
        "pass/fail" (McNemar's test)."""
        return "scores" if self.scores else "pass/fail"


def pair_logs(
    a: LogTable,
    b: LogTable,
    *,
    metric: str | Asked | None = None,
    filter: str | Asked | None = None,  # noqa: A002 - the harness's own word
    threshold: float | None = None,
    allow_exclusions: bool = False,
    max_excluded_share: float = MAX_EXCLUDED_SHARE,
    scores: bool = False,
) -> PairedLogs:
    """Pair two systems' logs task by task, each task on its own metric and filter: the one
    asked for (`metric`, `filter`: a name for every task that has it, or an
    :class:`~calculator.logs.task_choice.Asked` with names per task), else the task's primary
    one (:mod:`calculator.logs.task_choice`).

    With `scores`, a graded metric (values other than 0 and 1: BLEU, F1, a judge's grade,
    Inspect's partial credit) given without `threshold` is paired as scores, each finite value
    usable, for :func:`calculator.logs.scores.analyze_log_scores`; without it such a metric is
    refused unless `threshold` cuts it into pass/fail.

    Raises
    ------
    LogError
        When the logs are of different harnesses or the same log twice; a filter or a metric
        cannot be chosen; documents differ under the same id (lm-eval ``doc_hash``); or rows
        would be left out systematically (repeated cases, partial credit, more than
        `max_excluded_share` of a system's rows unpaired) and `allow_exclusions` is False.
    """
    if a.format != b.format:
        raise LogError(
            f"A is an {a.format} log and B an {b.format} log: compare logs of one harness."
        )
    if a.data_key == b.data_key:
        raise LogError(
            f"A and B are the same log ({', '.join(a.sources[:2])}): a system compared with itself "
            "always gives p = 1; give B's log as the second."
        )
    frames, content_pairs, content_notes = _aligned(a, b)
    picked = choose_by_task(
        frames,
        (a, b),
        metric if isinstance(metric, Asked) else Asked(every=metric),
        filter if isinstance(filter, Asked) else Asked(every=filter),
        threshold,
        scores,
    )
    if not picked.metrics and picked.left_out:  # no task has a metric: the logs' refusal
        asked = metric.every if isinstance(metric, Asked) else metric
        choose_metric(frames[0], frames[1], (a, b), asked, threshold, scores)
        raise LogError(next(iter(picked.left_out.values()), "the logs share no task."))
    if not picked.metrics:
        raise _no_common_task(*(f["task"].unique() for f in frames), content_notes)
    choice = overall_choice(picked.metrics, (a, b))
    as_scores = scores and picked.graded and threshold is None
    rows = list(picked.rows)
    for frame in rows:
        refuse_duplicates(frame, None, allow_exclusions)
    _refuse_mixed_by_metric(
        rows, picked.metrics, allow_exclusions or threshold is not None or as_scores
    )
    notes = [*a.notes, *b.notes, *content_notes, *picked.left_out.values()]
    refuse_different_documents(rows[0], rows[1], log_format=a.format)
    names = _names(a.system, b.system)
    tasks_a = _tasks(rows[0]) - set(picked.left_out)
    tasks_b = _tasks(rows[1]) - set(picked.left_out)
    tasks = []
    by_task = [dict(tuple(frame.groupby("task", sort=False))) for frame in rows]  # split once
    for task in sorted(tasks_a & tasks_b):
        task_rows = [by_task[0][task], by_task[1][task]]
        tasks.append(_pair_task(task, task_rows, names, threshold, as_scores))
    if not tasks:
        raise _no_common_task(tasks_a, tasks_b, content_notes)
    paired = PairedLogs(
        format=a.format,
        names=names,
        sources=(a.sources, b.sources),
        metric=choice,
        filter=_one_filter(picked.filters, filter),
        task_filters=picked.filters,
        task_metrics=picked.metrics,
        filter_reasons=picked.filter_reasons,
        content_pairs=content_pairs,
        tasks=tuple(tasks),
        unpaired_tasks=(tuple(sorted(tasks_a - tasks_b)), tuple(sorted(tasks_b - tasks_a))),
        notes=tuple(dict.fromkeys(notes)),
        threshold=threshold,
        scores=as_scores,
    )
    if not allow_exclusions:
        refuse_uneven_repeats(paired, rows, max_excluded_share)
        refuse_large_exclusions(paired, rows, max_excluded_share)
    return paired


def _no_common_task(tasks_a: Iterable, tasks_b: Iterable, notes: Sequence[str]) -> LogError:
    """The refusal of two logs without a common task, with the first note of the content
    match (a partial match, said why it is not paired)."""
    a, b = (", ".join(sorted(map(str, tasks))[:5]) for tasks in (tasks_a, tasks_b))
    return LogError(
        f"the logs share no task (A: {a}; B: {b})" + "".join(f"; {n}" for n in notes[:1]) + "."
    )


def _aligned(a: LogTable, b: LogTable) -> tuple[list[pd.DataFrame], tuple, tuple[str, ...]]:
    """A's and B's rows with their tasks aligned: renamed ones paired by content
    (:func:`~calculator.logs.content_match.match_by_content`), then :func:`align_tasks`."""
    frames, pairs, notes = [a.frame, b.frame], (), ()
    if a.format in HASHED:  # a task renamed between the runs: paired by its questions
        frames, pairs, notes = match_by_content(frames, HASHED[a.format][2])
    return align_tasks(frames, (a, b)), pairs, notes


def _refuse_mixed_by_metric(rows: list[pd.DataFrame], metrics: dict, allow: bool) -> None:
    """:func:`~calculator.logs.select.refuse_mixed` for each metric the tasks use."""
    for name in dict.fromkeys(choice.metric for choice in metrics.values()):
        one = next(choice for choice in metrics.values() if choice.metric == name)
        refuse_mixed(*(r[r["metric"] == name] for r in rows), one, allow)


def _one_filter(filters: dict[str, str], asked: str | Asked | None) -> str | None:
    """The filter asked for every task, else the one filter every task used (None: several,
    or none)."""
    if isinstance(asked, Asked):
        asked = asked.every if not asked.by_task else None
    if asked is not None:
        return asked
    used = set(filters.values())
    return used.pop() if len(used) == 1 else None


def _tasks(frame: pd.DataFrame) -> set[str]:
    """The tasks of a long table (``unique`` first: a set of the column looks at every row
    one by one)."""
    return set(frame["task"].unique())


def align_tasks(frames: list[pd.DataFrame], logs: Sequence[LogTable]) -> list[pd.DataFrame]:
    """One task in each log under several names: the same task when at most one name is the
    log's own (the others are file names: a HELM file without its run spec, lm-eval's file
    stem), refused when two are (different tasks). The task takes the log's own name, else the
    first log's."""
    tasks = [sorted(f["task"].unique()) for f in frames]
    if any(len(names) != 1 for names in tasks) or len({names[0] for names in tasks}) == 1:
        return frames
    own = list(dict.fromkeys(t[0] for t, log in zip(tasks, logs, strict=True) if log.tasks_named))
    if len(own) > 1:
        if len(logs) == 2:
            raise LogError(
                f"A is task {tasks[0][0]!r} and B task {tasks[1][0]!r}: different questions "
                "under the same ids; compare logs of the same task."
            )
        raise LogError(
            f"the logs are of different tasks ({', '.join(map(repr, own[:5]))}): different "
            "questions under the same ids; compare logs of the same task."
        )
    label = own[0] if own else tasks[0][0]
    return [f.assign(task=label) for f in frames]


#: What a log's "hash" column digests, by format: (the cases, their id, the digest).
def _pair_task(
    task: str,
    rows: list[pd.DataFrame],
    names: tuple[str, str],
    threshold: float | None,
    scores: bool = False,
) -> TaskCases:
    """One task's cases (`rows`: A's and B's rows of the task) paired by the per-case loader
    (by question, or question and repeat); with `scores`, every finite value is a score
    (:func:`~calculator.cases.scores_input.load_score_cases`) and no pass shares are computed."""
    numbers = [set(r["repeat"]) for r in rows]
    repeats = any(len(n) > 1 for n in numbers) or any(r.duplicated("case").any() for r in rows)
    paired_rows = rows
    if scores and numbers[0] != numbers[1]:
        # 3 epochs against 1: each question is compared by its mean over every repeat.
        cases, question_scores, used = pair_question_means(task, rows, names)
        return TaskCases(
            task=task,
            cases=cases,
            repeats=True,
            rows_given=(len(rows[0]), len(rows[1])),
            question_scores=question_scores,
            samples_used=used,
        )
    if numbers[0] != numbers[1]:
        # Repeats are paired by number (epoch 1 with epoch 1): those only one log has are used
        # by the per-question pass shares, not by the pairing.
        common = numbers[0] & numbers[1]
        paired_rows = [r[r["repeat"].isin(common)] for r in rows]
        repeats = True
    files = [_case_file(r, name, task, repeats) for r, name in zip(paired_rows, names, strict=True)]
    group = "question" if repeats else None
    if scores:
        from calculator.cases.scores_input import load_score_cases

        cases = load_score_cases(
            files[0],
            files[1],
            ("value", "value"),
            id_column="case",
            group_column=group,
            names=names,
        )
    else:
        cases = load_cases(
            files[0],
            files[1],
            id_column="case",
            a_column="value",
            b_column="value",
            group_column=group,
            threshold=threshold,
            names=names,
        )
    shares, too_fine = None, False
    if repeats and not scores:
        try:
            shares = _share_differences(rows, threshold, task)
        except LogError:  # a lattice too fine for 64-bit integers: that test alone is left out
            too_fine = True
    return TaskCases(
        task=task,
        cases=cases,
        repeats=repeats,
        shares=shares,
        shares_too_fine=too_fine,
        share_counts=_share_counts(rows, threshold) if repeats and not scores else None,
        rows_given=(len(paired_rows[0]), len(paired_rows[1])),
        repeats_unpaired=(len(rows[0]) - len(paired_rows[0]), len(rows[1]) - len(paired_rows[1])),
    )


def _case_file(rows: pd.DataFrame, name: str, task: str, repeats: bool) -> CaseFile:
    import pandas as pd

    case = rows["case"].to_numpy()
    if repeats:
        case = rows["case"].str.cat(rows["repeat"].astype("str"), sep="#").to_numpy()
    frame = pd.DataFrame(
        {"case": case, "question": rows["case"].to_numpy(), "value": rows["value"].to_numpy()}
    )
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    return CaseFile(name=f"{name} [{task}]", format="jsonl", frame=frame)


def _share_differences(
    rows: list[pd.DataFrame], threshold: float | None, task: str = ""
) -> tuple[np.ndarray, float] | None:
    """Each question's pass share of A minus B's (every repeat of each), on a lattice."""
    both = _per_question(rows, threshold)
    if both.empty:
        return None
    return share_numerators(
        both["passed_a"].to_numpy(),
        both["usable_a"].to_numpy(),
        both["passed_b"].to_numpy(),
        both["usable_b"].to_numpy(),
        where=f"task {task!r}: " if task else "",
    )


def share_numerators(
    passes_a: np.ndarray,
    repeats_a: np.ndarray,
    passes_b: np.ndarray,
    repeats_b: np.ndarray,
    *,
    where: str = "",
) -> tuple[np.ndarray, float]:
    """Per-question differences of pass shares as integers on a common lattice, with its step.

    The share difference passes_a/k_a - passes_b/k_b is (passes_a L/k_a - passes_b L/k_b) / L
    with L the least common multiple of every repeat count.

    Raises
    ------
    LogError
        When L is over :data:`MAX_LATTICE`, or times the questions over 2^62 (the numerators or
        their sum would not fit 64-bit integers); `where` (the task) begins the message.
    """
    import math

    counts = np.unique(np.concatenate([repeats_a, repeats_b])).astype(np.int64)
    # Each numerator is at most L in absolute value: their sum over the questions stays exact
    # in 64-bit integers when L times the questions is at most 2^62.
    limit = min(MAX_LATTICE, 2**62 // max(len(passes_a), 1))
    lcm = 1
    for k in counts.tolist():
        lcm = lcm * k // math.gcd(lcm, k)
        if lcm > limit:
            raise LogError(
                f"{where}the questions' numbers of scored repeats ({counts.min():,} to "
                f"{counts.max():,}, {counts.size:,} different counts) have a least common "
                f"multiple over {limit:,}: their pass shares lie on a lattice too fine for "
                "the exact sign-flip test; give logs whose questions have the same number of "
                "scored repeats (rerun the samples that errored)."
            )
    a = passes_a.astype(np.int64) * (lcm // repeats_a.astype(np.int64))
    b = passes_b.astype(np.int64) * (lcm // repeats_b.astype(np.int64))
    return a - b, 1.0 / lcm


def _names(a: str, b: str) -> tuple[str, str]:

    if a == b or not a or not b:
        return "A", "B"
    return clip(printable(a), MAX_NAME_LENGTH), clip(printable(b), MAX_NAME_LENGTH)


def _share_counts(rows: list[pd.DataFrame], threshold: float | None) -> tuple | None:
    """Each question's passes and repeats for A, then for B (None without a common question)."""
    both = _per_question(rows, threshold)
    if both.empty:
        return None
    return tuple(both[k].to_numpy() for k in ("passed_a", "usable_a", "passed_b", "usable_b"))


def _per_question(rows: list[pd.DataFrame], threshold: float | None) -> pd.DataFrame:
    """Per question both logs hold: each log's passes and usable repeats."""
    per_question = []
    for frame in rows:
        values = frame["value"]
        passed = values >= threshold if threshold is not None else values == 1.0
        usable = values.notna() & ((values == 0.0) | (values == 1.0) | (threshold is not None))
        grouped = (
            frame.assign(passed=passed & usable, usable=usable)
            .groupby("case")[["passed", "usable"]]
            .sum()
        )
        per_question.append(grouped[grouped["usable"] > 0])
    return per_question[0].merge(
        per_question[1], left_index=True, right_index=True, suffixes=("_a", "_b")
    )
