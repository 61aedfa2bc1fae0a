"""Several systems' harness logs on the compare page: one uploaded file per system, read and
compared as ``python -m calculator compare LOG LOG ...`` does.

:func:`compare_log_uploads` is the one call the page makes (in a child, through
:func:`ui.isolation.isolated`): the logs read from their bytes, then a graded metric without a
threshold compared by ranks (Friedman, Nemenyi's CD, the signed-rank pairs; with several
tasks, each task's Friedman with Holm across them), else pass/fail outcomes compared by
Cochran's Q and the exact McNemar pairs (with several tasks, each task alone and the suite
stratified by task). The numbers come from the library; this module only chooses the same
path as the command line and carries the results back in one picklable value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

import numpy as np

from calculator.compare.friedman import FriedmanComparison, friedman_compare
from calculator.compare.friedman_suite import FriedmanSuite, friedman_by_task
from calculator.compare.suite import SuiteComparison, compare_suite
from calculator.compare.systems import SystemComparison
from calculator.errors import CalculatorError
from calculator.logs import read_log_data
from calculator.logs.select import MetricChoice
from calculator.logs.systems import load_log_suite
from calculator.logs.systems_scores import load_log_scores

__all__ = ["LogsComparison", "compare_log_uploads", "default_systems", "log_systems"]


def _stem(name: str) -> str:
    """A file's name as the command line names a system: no suffix, no lm-eval
    "__samples_..." tail."""
    return PurePath(name).stem.split("__samples_")[0]


def log_systems(files: tuple[tuple[str, bytes], ...]) -> tuple[str, ...] | None:
    """The model each upload's log names (its file's name when the log names none); None when
    no upload is a harness log (they are per-case files).

    Raises
    ------
    LogError
        When an upload is a near miss of a log, or unreadable as one.
    """
    from calculator.logs.sources import log_kind

    if not any(log_kind(name, data) is not None for name, data in files):
        return None
    return tuple(read_log_data([item], system=_stem(item[0])).system for item in files)


def default_systems(names: Sequence[str], systems: Sequence[str]) -> tuple[str, ...]:
    """Which system each upload is of, until the visitor says otherwise: the models the logs
    name when they name two or more (a model's logs of several tasks then go together), else
    each file its own system, named after the file.

    Examples
    --------
    >>> default_systems(["a.eval", "b.eval", "c.eval"], ["gpt", "gpt", "llama"])
    ('gpt', 'gpt', 'llama')
    >>> default_systems(["x.eval", "y.eval"], ["mock", "mock"])
    ('x', 'y')
    """
    if len(set(systems)) >= 2:
        return tuple(systems)
    return tuple(_stem(name) for name in names)


@dataclass(frozen=True, slots=True, kw_only=True)
class LogsComparison:
    """What the page shows for several systems' logs: `ranks` (scores) or `rates`
    (pass/fail), and the suite's view when the logs hold several tasks."""

    names: tuple[str, ...]
    choice: MetricChoice
    questions: int
    notes: tuple[str, ...] = ()
    ranks: FriedmanComparison | None = None
    ranks_by_task: FriedmanSuite | None = None
    rates: SystemComparison | None = None
    rates_by_task: SuiteComparison | None = None
    tasks: tuple[str, ...] = field(default=())


def compare_log_uploads(
    files: tuple[tuple[str, bytes], ...],
    systems: tuple[str, ...],
    *,
    metric: str | None = None,
    threshold: float | None = None,
    alpha: float = 0.05,
    adjust: str = "holm",
    better: str = "higher",
) -> LogsComparison:
    """Each (name, bytes) a log of the system named at its place in `systems` (a system's
    several files read together, as a folder: its tasks); compared as the command line's
    ``compare``.

    Raises
    ------
    LogError, CalculatorError
        As the readers and the comparison do, with the file's name.
    """
    grouped: dict[str, list[tuple[str, bytes]]] = {}
    for item, system in zip(files, systems, strict=True):
        grouped.setdefault(system, []).append(item)
    if len(grouped) < 2:
        raise CalculatorError(
            f"every log is of one system ({next(iter(grouped), '')}): name at least two "
            "systems, one for each model's logs"
        )
    logs = [
        dataclasses.replace(read_log_data(items, system=name), system=name)
        for name, items in grouped.items()
    ]
    notes = tuple(note for log in logs for note in log.notes)
    if threshold is None:
        scores = load_log_scores(logs, metric=metric)
        if scores is not None:
            tasks = tuple(dict.fromkeys(str(t) for t in scores.tasks))
            ranks = friedman_compare(scores.scores, scores.names, alpha=alpha, better=better)
            by_task = (
                friedman_by_task(
                    scores.scores, scores.names, scores.tasks, alpha=alpha, better=better
                )
                if len(tasks) > 1
                else None
            )
            return LogsComparison(
                names=scores.names,
                choice=scores.choice,
                questions=scores.n,
                notes=notes,
                ranks=ranks,
                ranks_by_task=by_task,
                tasks=tasks,
            )
    cases, choice, _, tasks = load_log_suite(logs, metric=metric, threshold=threshold)
    options = {"alpha": alpha, "adjust": adjust}
    rates = cases.compare(**options)
    labels = tuple(dict.fromkeys(str(t) for t in np.asarray(tasks).tolist()))
    suite = (
        compare_suite(cases.outcomes, cases.names, tasks, rates, **options)
        if len(labels) > 1
        else None
    )
    return LogsComparison(
        names=tuple(cases.names),
        choice=choice,
        questions=cases.n,
        notes=notes,
        rates=rates,
        rates_by_task=suite,
        tasks=labels,
    )
