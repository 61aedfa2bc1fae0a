"""The one data model of a paired comparison: two systems scored on the same cases.

Every reader's product becomes a :class:`PairedData` before it is compared: a table of counts
typed in (:func:`of_table`), a per-case file or two (:func:`of_cases`), a long file or two
harness logs paired task by task (:func:`of_logs`). It holds what a comparison needs and
nothing of where it came from beyond the ledger:

- the systems' `names` and the `outcome` kind, pass/fail or scores;
- the `tasks`, each its paired cases (:class:`calculator.logs.TaskCases`), with whether a
  task's cases are repeats of questions; a per-case file is one task, a typed table none;
- the `table` of pass/fail counts over every task's cases;
- the `clusters` (a group column's name) and the `repeats` ("none", "equal", "unequal");
- the `ledger`: what was read, used and left out, as the reader counted it (its rows, files,
  tasks and findings), for the report's input lines;
- the :class:`~calculator.chooser.Shape` the chooser reads, declared here once from the fields
  above: the chooser never asks what kind of object it was given.

Examples
--------
>>> data = of_table(60, 15, 5, 20)
>>> data.outcome, data.tasks, data.table.n, data.shape.tasks
('pass/fail', (), 100, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.chooser import PASS_FAIL, SCORES, Shape
from calculator.table import PairedTable

if TYPE_CHECKING:
    from calculator.cases import PairedCases
    from calculator.logs import PairedLogs, TaskCases

__all__ = ["PairedData", "of_cases", "of_logs", "of_table"]

#: What a ledger is: none (a typed table), a per-case file's rows, or logs' (or a long file's)
#: tasks.
LEDGERS = ("table", "cases", "logs")


@dataclass(frozen=True, slots=True, kw_only=True)
class PairedData:
    """Two systems on the same cases, whatever was read (the module's docstring).

    Attributes
    ----------
    names : (str, str)
        Systems A and B.
    outcome : str
        "pass/fail" or "scores".
    table : PairedTable
        Both pass, only A passes, only B passes, both fail, over every task's cases.
    tasks : tuple of TaskCases
        The tasks' paired cases; one for a per-case file, none for a typed table.
    clusters : str or None
        The group column whose values group the cases (None: no clusters).
    repeats : str
        "none", "equal" or "unequal" (A and B repeat some question a different number of
        times).
    ledger : str
        "table", "cases" or "logs": which of `cases` and `logs` holds the reader's count of
        what was read, used and left out.
    shape : Shape
        What the chooser reads (:func:`calculator.chooser.choose`).
    cases : PairedCases or None
        A per-case file's paired cases with their ledger (rows read, used, excluded, findings).
    logs : PairedLogs or None
        Paired logs or a long file with their ledger (sources, metric and why, tasks paired and
        not, notes).
    scores : (A's, B's, clusters) or None
        A per-case file's scores, when already read.
    framing : str
        "pass" or "correct": whether the table counts passes or correct answers.
    """

    names: tuple[str, str]
    outcome: str
    table: PairedTable
    tasks: tuple[TaskCases, ...] = field(repr=False)
    clusters: str | None
    repeats: str
    ledger: str
    shape: Shape
    cases: PairedCases | None = field(default=None, repr=False)
    logs: PairedLogs | None = field(default=None, repr=False)
    scores: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = field(
        default=None, repr=False
    )
    #: What the outcome counts: "pass" (A's and B's passes) or "correct" (correct answers).
    framing: str = "pass"

    @property
    def n(self) -> int:
        """Cases (pairs) compared."""
        return self.table.n


def of_table(
    a: int,
    b: int,
    c: int,
    d: int,
    names: tuple[str, str] = ("A", "B"),
    *,
    framing: str = "pass",
) -> PairedData:
    """A table of counts typed in: both pass, only A, only B, both fail (with `framing`
    "correct": both correct, only A correct, only B correct, neither).

    Raises :class:`~calculator.errors.CalculatorError` for counts that are no table."""
    table = PairedTable(a, b, c, d)
    return PairedData(
        names=names,
        outcome=PASS_FAIL,
        table=table,
        tasks=(),
        clusters=None,
        repeats="none",
        ledger="table",
        shape=Shape(),
        framing=framing,
    )


def of_cases(
    cases: PairedCases,
    *,
    scores: bool = False,
    read: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None,
) -> PairedData:
    """Paired per-case outcomes (:func:`calculator.cases.load_cases`), or with `scores` their
    columns compared as scores (`read`: the scores when already read,
    :func:`calculator.cases.scores_input.paired_scores_of`)."""
    from calculator.logs.pairing import TaskCases

    group = cases.group_column
    if scores:
        values = _score_values(cases) if read is None else read
        shape = Shape(
            outcome=SCORES,
            clusters=group is not None,
            score_names=tuple(map(str, cases.outcome_columns)),
            score_range=_score_range(values[:2]),
        )
    else:
        values, shape = None, Shape(clusters=group is not None)
    return PairedData(
        names=cases.names,
        outcome=shape.outcome,
        table=cases.table,
        tasks=(TaskCases(task="", cases=cases, repeats=False),),
        clusters=group,
        repeats="none",
        ledger="cases",
        shape=shape,
        cases=cases,
        scores=values,
    )


def of_logs(paired: PairedLogs) -> PairedData:
    """Two logs (or a long file's two systems) paired task by task
    (:func:`calculator.workflow.pair_two_logs`)."""
    tasks = paired.tasks
    uneven = next((task.task for task in tasks if _uneven(task)), None)
    repeats = "none"
    if any(task.repeats for task in tasks):
        repeats = "equal" if uneven is None else "unequal"
    outcome = SCORES if paired.scores else PASS_FAIL
    shape = Shape(
        outcome=outcome,
        tasks=len(tasks),
        repeats=repeats,
        score_names=_metric_names(paired) if paired.scores else (),
        uneven_task=uneven,
        score_range=_score_range(_log_scores(tasks)) if paired.scores else None,
        better=paired.stated_better if paired.scores else None,
    )
    table = PairedTable(*(sum(task.cases.table.cells[i] for task in tasks) for i in range(4)))
    return PairedData(
        names=paired.names,
        outcome=outcome,
        table=table,
        tasks=tasks,
        clusters=None,
        repeats=repeats,
        ledger="logs",
        shape=shape,
        logs=paired,
    )


def _uneven(task: TaskCases) -> bool:
    """Whether A and B repeat some question of `task` a different number of times."""
    counts = task.share_counts
    if task.question_scores is not None:
        return True
    return counts is not None and bool(np.any(np.asarray(counts[1]) != np.asarray(counts[3])))


def _metric_names(paired: PairedLogs) -> tuple[str, ...]:
    """The metrics compared as scores: one, or each task's own."""
    if paired.metric.metric is not None or not paired.task_metrics:
        return (str(paired.metric.metric),)
    return tuple(dict.fromkeys(str(c.metric) for c in paired.task_metrics.values()))


def _score_values(cases: PairedCases) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    from calculator.cases.scores_input import paired_scores_of

    return paired_scores_of(cases)


def _log_scores(tasks: tuple[TaskCases, ...]) -> list[np.ndarray]:
    """A's and B's scores of every task that has cases."""
    return [
        np.asarray(s, dtype=float) for t in tasks if t.cases.n for s in _score_values(t.cases)[:2]
    ]


def _score_range(parts) -> tuple[float, float] | None:
    """The smallest and largest finite score among `parts` (None: no finite score)."""
    arrays = [np.asarray(p, dtype=float) for p in parts]
    scores = np.concatenate(arrays) if arrays else np.empty(0)
    scores = scores[np.isfinite(scores)]
    return (float(scores.min()), float(scores.max())) if scores.size else None
