"""Two systems' logs paired task by task through the per-case loader, and analysed.

Each task's rows of the chosen metric become two per-case files (:class:`CaseFile`: the case id,
the question, the value) that :func:`calculator.cases.load_cases` pairs and validates as it
does any two files: the pairing, the exclusions and their findings are its own. Repeats
(Inspect epochs, HELM train trials) are paired by (question, repeat) with the question as the
cluster; the per-question pass shares are compared too, by the exact sign-flip test
(:func:`calculator.scores.signflip.lattice_sign_flip`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases import CaseFile, load_cases
from calculator.logs.select import (
    MetricChoice,
    choose_filter,
    choose_metric,
    refuse_duplicates,
    refuse_mixed,
)
from calculator.logs.table import LogError, LogTable

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pandas as pd

    from calculator.cases import PairedCases

__all__ = [
    "MAX_EXCLUDED_SHARE",
    "PairedLogs",
    "TaskCases",
    "align_tasks",
    "pair_logs",
    "share_numerators",
]

#: Largest share of either system's rows left out before the pairing is refused.
MAX_EXCLUDED_SHARE = 0.05


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskCases:
    """One task's paired cases and whether its cases are repeats of questions."""

    task: str
    cases: PairedCases = field(repr=False)
    repeats: bool
    shares: tuple[np.ndarray, float] | None = field(default=None, repr=False)
    rows_given: tuple[int, int] = (0, 0)
    repeats_unpaired: tuple[int, int] = (0, 0)

    def counts(self) -> dict[str, object]:
        """The task's pairing in JSON: repeats, rows read and used, rows excluded by reason."""
        return {
            "task": self.task,
            "repeats": self.repeats,
            "rows_read": self.cases.rows_read,
            "rows_used": self.cases.rows_used,
            "excluded": dict(self.cases.excluded),
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

    @property
    def analysed_as(self) -> str:
        """ "scores" (a graded metric without a threshold: mean scores compared) or
        "pass/fail" (McNemar's test)."""
        return "scores" if self.scores else "pass/fail"


def pair_logs(
    a: LogTable,
    b: LogTable,
    *,
    metric: str | None = None,
    filter: str | None = None,  # noqa: A002 - the harness's own word
    threshold: float | None = None,
    allow_exclusions: bool = False,
    max_excluded_share: float = MAX_EXCLUDED_SHARE,
    scores: bool = False,
) -> PairedLogs:
    """Pair two systems' logs on one metric, task by task.

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
    frames = align_tasks([a.frame, b.frame], (a, b))
    choice = choose_metric(frames[0], frames[1], (a, b), metric, threshold, scores)
    as_scores = scores and choice.graded and threshold is None
    # The filter is chosen among the rows of the metric compared: a task that does not log it
    # (a generation task beside multiple-choice ones) does not need one.
    with_metric = [f[f["metric"] == choice.metric] for f in frames]
    a_rows, b_rows, filters = choose_filter(
        dataclasses.replace(a, frame=with_metric[0]),
        dataclasses.replace(b, frame=with_metric[1]),
        filter,
        (a.filters, b.filters),
    )
    used_filters = sorted(set(filters.values()))
    rows = [a_rows, b_rows]
    for frame in rows:
        refuse_duplicates(frame, choice.metric, allow_exclusions)
    refuse_mixed(rows[0], rows[1], choice, allow_exclusions or threshold is not None or as_scores)
    without = sorted((_tasks(frames[0]) | _tasks(frames[1])) - (_tasks(rows[0]) | _tasks(rows[1])))
    notes = [*a.notes, *b.notes]
    if without:
        notes.append(
            f"{len(without)} task(s) do not log {choice.metric!r} and are left out: "
            f"{', '.join(without[:5])}" + (" ..." if len(without) > 5 else "")
        )
    _refuse_different_documents(rows[0], rows[1])
    names = _names(a.system, b.system)
    tasks_a, tasks_b = _tasks(rows[0]), _tasks(rows[1])
    tasks = []
    by_task = [dict(tuple(frame.groupby("task", sort=False))) for frame in rows]  # split once
    for task in sorted(tasks_a & tasks_b):
        task_rows = [by_task[0][task], by_task[1][task]]
        tasks.append(_pair_task(task, task_rows, names, threshold, as_scores))
    if not tasks:
        raise LogError(
            f"the logs share no task (A: {', '.join(sorted(tasks_a)[:5])}; B: "
            f"{', '.join(sorted(tasks_b)[:5])})."
        )
    paired = PairedLogs(
        format=a.format,
        names=names,
        sources=(a.sources, b.sources),
        metric=choice,
        filter=filter
        if filter is not None
        else (used_filters[0] if len(used_filters) == 1 else None),
        task_filters=filters,
        tasks=tuple(tasks),
        unpaired_tasks=(tuple(sorted(tasks_a - tasks_b)), tuple(sorted(tasks_b - tasks_a))),
        notes=tuple(dict.fromkeys(notes)),
        threshold=threshold,
        scores=as_scores,
    )
    if not allow_exclusions:
        _refuse_large_exclusions(paired, rows, max_excluded_share)
    return paired


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


def _refuse_different_documents(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """lm-eval's ``doc_hash`` must agree for a (task, doc_id) both logs hold."""
    if a["hash"].isna().all() or b["hash"].isna().all():
        return
    keys = ["task", "case"]
    left = a[keys + ["hash"]].drop_duplicates(keys)
    right = b[keys + ["hash"]].drop_duplicates(keys)
    both = left.merge(right, on=keys, suffixes=("_a", "_b"))
    both = both[both["hash_a"].notna() & both["hash_b"].notna()]
    differ = both[both["hash_a"] != both["hash_b"]]
    if len(differ):
        first = differ.iloc[0]
        raise LogError(
            f"{len(differ):,} of {len(both):,} documents differ between the logs under the same "
            f"task and doc_id (lm-eval's doc_hash; the first: task {first['task']!r}, doc_id "
            f"{first['case']}): these are different questions (another task, dataset version or "
            "order), not paired cases; compare logs of the same task and data."
        )


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
    shares = _share_differences(rows, threshold) if repeats and not scores else None
    return TaskCases(
        task=task,
        cases=cases,
        repeats=repeats,
        shares=shares,
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
    rows: list[pd.DataFrame], threshold: float | None
) -> tuple[np.ndarray, float] | None:
    """Each question's pass share of A minus B's (every repeat of each), on a lattice."""
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
    both = per_question[0].merge(
        per_question[1], left_index=True, right_index=True, suffixes=("_a", "_b")
    )
    if both.empty:
        return None
    return share_numerators(
        both["passed_a"].to_numpy(),
        both["usable_a"].to_numpy(),
        both["passed_b"].to_numpy(),
        both["usable_b"].to_numpy(),
    )


def share_numerators(
    passes_a: np.ndarray, repeats_a: np.ndarray, passes_b: np.ndarray, repeats_b: np.ndarray
) -> tuple[np.ndarray, float]:
    """Per-question differences of pass shares as integers on a common lattice, with its step.

    The share difference passes_a/k_a - passes_b/k_b is (passes_a L/k_a - passes_b L/k_b) / L
    with L the least common multiple of every repeat count.
    """
    import math

    counts = np.unique(np.concatenate([repeats_a, repeats_b])).astype(np.int64)
    lcm = 1
    for k in counts.tolist():
        lcm = lcm * k // math.gcd(lcm, k)
    a = passes_a.astype(np.int64) * (lcm // repeats_a.astype(np.int64))
    b = passes_b.astype(np.int64) * (lcm // repeats_b.astype(np.int64))
    return a - b, 1.0 / lcm


def _refuse_large_exclusions(paired: PairedLogs, rows: list[pd.DataFrame], limit: float) -> None:
    """More than `limit` of a side's rows left out (tasks or cases the other log lacks, rows
    the loader excluded) is refused: such a remainder is rarely a random one."""
    reasons: dict[str, int] = {}
    for task in paired.tasks:
        for reason, count in task.cases.excluded.items():
            reasons[reason] = reasons.get(reason, 0) + count
    used = sum(task.cases.n for task in paired.tasks)
    for side, frame in enumerate(rows):
        unpaired = paired.unpaired_tasks[side]
        by_design = sum(task.repeats_unpaired[side] for task in paired.tasks)
        total = len(frame) - by_design
        left_out = total - used
        if not total or left_out / total <= limit:
            continue
        name = paired.names[side]
        detail = ", ".join(
            f"{reason.replace('_', ' ')} {count:,}" for reason, count in reasons.items() if count
        )
        if unpaired:
            detail = f"{len(unpaired)} task(s) only in {name}'s log; " + detail
        raise LogError(
            f"{left_out:,} of {name}'s {total:,} rows ({left_out / total:.1%}) would be left out "
            f"({detail or 'unpaired'}), over the limit of {limit:.0%}: the two runs were not made "
            "on the same questions (a --limit run, another task list, failed samples), or rows "
            "could not be read; rerun on the same questions, or pass --allow-exclusions to "
            "analyse the paired cases only."
        )


def _names(a: str, b: str) -> tuple[str, str]:
    from calculator.cases.names import neutral_text

    if a == b or not a or not b:
        return "A", "B"
    return neutral_text(a)[:60], neutral_text(b)[:60]
