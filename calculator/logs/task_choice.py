"""Each task's metric and filter: the task's own primary ones unless the user named them.

A benchmark's tasks log different metrics (``acc`` for multiple choice, ``exact_match`` for
generation) and filters (gsm8k's ``strict-match`` and ``flexible-extract``, a self-consistency
task's ``maj@5``): one name for a whole folder loses the tasks that lack it. So each task is
compared on its own choice, stated with its reason:

- the metric: the one asked for this task (``TASK=NAME``), else the one asked for every task
  when the task logs it, else the task's first pass/fail metric in the log's order (HELM: the
  first of its correctness stats; with a threshold, or for scores, the first graded one when
  the task has no pass/fail metric). Whether a metric is pass/fail is judged on every task's
  values of it (:func:`calculator.logs.select.metric_kinds`), so an easy task where both pass
  everything keeps its metric;
- the filter (lm-eval): likewise the one asked for, else the task's only or first filter (in
  the log's order, lm-eval's ``filter_list``), the first both logs hold.

A task none of whose metrics can be an outcome is left out with a note; a task compared as
scores beside tasks compared as pass/fail is refused when asked for, else left out with a note.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from calculator.cases.columns import is_bookkeeping
from calculator.logs.select import MetricChoice, metric_kinds, preferred_metric
from calculator.logs.table import LogError, LogTable

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

__all__ = ["Asked", "TaskChoices", "choose_by_task", "overall_choice"]

ASKED = "the one asked for"
ASKED_TASK = "the one asked for this task"


@dataclass(frozen=True, slots=True, kw_only=True)
class Asked:
    """A name asked for every task that has it (`every`) and names asked per task."""

    every: str | None = None
    by_task: Mapping[str, str] = field(default_factory=dict)

    def add(self, text: str) -> Asked:
        """This with `text` added: ``NAME`` (for every task: at most once) or ``TASK=NAME``
        (the task before the last "=", as HELM's run names hold "="; each task at most once).

        Raises
        ------
        LogError
            For an empty side of "=", a second plain name, or a task named twice.
        """
        task, equals, name = text.strip().rpartition("=")
        if not equals:
            if self.every is not None:
                raise LogError(
                    f"given twice ({self.every!r}, then {name!r}); one name is used for every "
                    "task that logs it: give it once (one task's: TASK=NAME)"
                )
            return Asked(every=name, by_task=self.by_task)
        task, name = task.strip(), name.strip()
        if not task or not name:
            raise LogError(f"{text!r}: give NAME for every task, or TASK=NAME for one task")
        if task in self.by_task:
            raise LogError(
                f"task {task!r} given twice ({self.by_task[task]!r}, then {name!r}); name each "
                "task once"
            )
        return Asked(every=self.every, by_task={**self.by_task, task: name})

    def of(self, task: str, logged: list[str]) -> tuple[str | None, str]:
        """The name asked for `task` among `logged`, and its reason (None: none asked)."""
        if task in self.by_task:
            return self.by_task[task], ASKED_TASK
        if self.every is not None and self.every in logged:
            return self.every, ASKED
        return None, ""


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskChoices:
    """Each task's metric and filter, the rows they keep, and the tasks left out (with why)."""

    rows: tuple[pd.DataFrame, pd.DataFrame]
    metrics: dict[str, MetricChoice]
    filters: dict[str, str]
    filter_reasons: dict[str, str]
    left_out: dict[str, str]
    graded: bool


def choose_by_task(
    frames: list[pd.DataFrame],
    tables: tuple[LogTable, LogTable],
    metric: Asked,
    filter: Asked,  # noqa: A002 - the harness's own word
    threshold: float | None,
    scores: bool,
) -> TaskChoices:
    """Each task's metric and filter in two aligned logs (`frames`: their rows).

    Raises
    ------
    LogError
        When a name asked for is in neither log's task (or not in both logs), is corpus-level,
        or a task's two logs share no filter.
    """
    orders = [_by_task(f, "metric") for f in frames]
    common = sorted(set(orders[0]) & set(orders[1]))
    _check_asked(metric, "--metric", orders, [t.metrics for t in tables], tables)
    kinds = metric_kinds(frames[0], frames[1], [m for m in tables[0].metrics if _usable(m)])
    metrics: dict[str, MetricChoice] = {}
    left_out: dict[str, str] = {}
    for task in common:
        order = [m for m in orders[0][task] if m in set(orders[1][task])]
        chosen = _task_metric(task, order, metric, kinds, tables, threshold, scores)
        if isinstance(chosen, str):
            left_out[task] = chosen
        else:
            metrics[task] = chosen
    filter_orders = [_by_task(f, "filter") for f in frames]
    _check_asked(filter, "--filter", filter_orders, [t.filters for t in tables], tables)
    graded = _settle_kinds(metrics, left_out, metric, threshold, scores)
    masks = [
        f["metric"] == f["task"].map({t: c.metric for t, c in metrics.items()}) for f in frames
    ]
    with_metric = [f[m] for f, m in zip(frames, masks, strict=True)]
    filters, reasons = _task_filters(with_metric, filter, tables)
    _refuse_filter_unused(filter, filters, filter_orders, left_out)
    one_sided = _one_sided(frames, orders, kinds, filter)
    keep_metric = {**one_sided[0], **{t: c.metric for t, c in metrics.items()}}
    keep_filter = {**one_sided[1], **filters}
    rows = []
    for frame in frames:
        keep = frame["metric"] == frame["task"].map(keep_metric)
        keep &= frame["filter"].isna() | (frame["filter"] == frame["task"].map(keep_filter))
        rows.append(frame[keep])
    return TaskChoices(
        rows=(rows[0], rows[1]),
        metrics=metrics,
        filters=filters,
        filter_reasons=reasons,
        left_out=left_out,
        graded=graded,
    )


def overall_choice(
    metrics: dict[str, MetricChoice], tables: tuple[LogTable, LogTable]
) -> MetricChoice:
    """One choice for every task when they agree; else ``metric`` None (see each task's). The
    others are every metric both logs hold that no task uses (bookkeeping left out)."""
    names = {choice.metric for choice in metrics.values()}
    reasons = {choice.reason for choice in metrics.values()}
    first = next(iter(metrics.values()))
    both = set(tables[1].metrics)
    others = tuple(m for m in tables[0].metrics if m in both and m not in names and _usable(m))
    if len(names) == 1 and len(reasons) == 1:
        return MetricChoice(
            metric=first.metric, reason=first.reason, others=others, graded=first.graded
        )
    return MetricChoice(
        metric=None,
        reason="each task's own (see by task)",
        others=others,
        graded=first.graded,
    )


def _usable(metric: str) -> bool:
    return not is_bookkeeping(metric)


def _by_task(frame: pd.DataFrame, column: str) -> dict[str, list[str]]:
    """Each task's distinct values of `column`, in the log's order (missing ones left out)."""
    pairs = frame[["task", column]].dropna(subset=[column]).drop_duplicates()
    return {
        str(t): [str(v) for v in values] for t, values in pairs.groupby("task", sort=False)[column]
    }


def _check_asked(
    asked: Asked,
    option: str,
    orders: list[dict[str, list[str]]],
    logged: list[tuple[str, ...]],
    tables: tuple[LogTable, LogTable],
) -> None:
    """Refuse a name asked for that no task of both logs has, or a task not in both logs."""
    if asked.every is not None and not (asked.every in logged[0] and asked.every in logged[1]):
        if option == "--metric":
            found = ", ".join(dict.fromkeys([*logged[0], *logged[1]])) or "none"
            found = f"the metrics found: {found}"
        else:
            found = (
                f"their filters: {_label(tables[0])} {', '.join(logged[0]) or 'none'}; "
                f"{_label(tables[1])} {', '.join(logged[1]) or 'none'}"
            )
        raise LogError(f"{option} {asked.every!r} is not in both logs; {found}.")
    for task, name in asked.by_task.items():
        if task not in orders[0] or task not in orders[1]:
            common = sorted(set(orders[0]) & set(orders[1]))
            raise LogError(
                f"{option} {task}={name}: task {task!r} is not in both logs; the tasks both "
                f"hold: {', '.join(common[:8]) or 'none'}"
                + (" ..." if len(common) > 8 else "")
                + "."
            )
        if not (name in orders[0][task] and name in orders[1][task]):
            found = ", ".join(dict.fromkeys([*orders[0][task], *orders[1][task]]))
            raise LogError(
                f"{option} {task}={name}: task {task!r} does not log {name!r} in both logs; "
                f"it logs: {found}."
            )
    for name in [asked.every, *asked.by_task.values()]:
        if name is not None and any(name in t.corpus_metrics for t in tables):
            raise LogError(
                f"{option} {name!r} is a corpus-level metric (logged per case as [gold, "
                "prediction] pairs, computed over all cases at once): it cannot be split into "
                "per-case scores, so it cannot be compared case by case; choose another metric."
            )


def _task_metric(
    task: str,
    order: list[str],
    asked: Asked,
    kinds: dict[str, str],
    tables: tuple[LogTable, LogTable],
    threshold: float | None,
    scores: bool,
) -> MetricChoice | str:
    """The task's metric, or why none can be compared (a note)."""
    usable = [m for m in order if _usable(m)]
    wanted, reason = asked.of(task, order)
    if wanted is not None:
        return MetricChoice(
            metric=wanted,
            reason=reason,
            others=tuple(m for m in usable if m != wanted),
            graded=kinds.get(wanted) == "graded",
        )
    passfail = [m for m in usable if kinds.get(m) == "pass/fail"]
    graded = [m for m in usable if kinds.get(m) == "graded"]
    candidates = passfail or (graded if threshold is not None or scores else [])
    if not candidates:
        held = ", ".join(usable[:5]) or "none"
        return (
            f"task {task!r} is left out: none of its metrics ({held}) can be a pass/fail "
            "outcome in both logs"
            + (f" ({graded[0]} holds scores: name it and set a threshold)" if graded else "")
        )
    kind = "pass/fail" if passfail else ("threshold" if threshold is not None else "scores")
    metric, why = preferred_metric(candidates, tables[0].format, kind)
    others = tuple(m for m in usable if m != metric)
    return MetricChoice(metric=metric, reason=why, others=others, graded=not passfail)


def _settle_kinds(
    metrics: dict[str, MetricChoice],
    left_out: dict[str, str],
    asked: Asked,
    threshold: float | None,
    scores: bool,
) -> bool:
    """Whether the tasks are compared as scores; a graded task beside pass/fail ones (without
    a threshold) is left out with a note, or refused when its metric was asked for."""
    if threshold is not None or not scores:
        return any(c.graded for c in metrics.values())
    graded = {t: c for t, c in metrics.items() if c.graded}
    if not graded or len(graded) == len(metrics):
        return bool(graded)
    passfail = sorted(set(metrics) - set(graded))
    for task, choice in graded.items():
        if choice.reason in (ASKED, ASKED_TASK):
            raise LogError(
                f"task {task!r}: {choice.metric!r} holds scores (values other than 0 and 1) "
                f"while {', '.join(passfail[:3])} {'is' if len(passfail) == 1 else 'are'} "
                "compared on pass/fail metrics: one comparison is of one kind; set a threshold "
                "to cut the scores into pass/fail, or compare the tasks apart."
            )
        del metrics[task]
        left_out[task] = (
            f"task {task!r} is left out: its metric {choice.metric!r} holds scores while the "
            "other tasks are pass/fail (set a threshold to include it)"
        )
    return False


def _task_filters(
    frames: list[pd.DataFrame], asked: Asked, tables: tuple[LogTable, LogTable]
) -> tuple[dict[str, str], dict[str, str]]:
    """Each paired task's filter and why (tasks without filters left out of both)."""
    orders = [_by_task(f, "filter") for f in frames]
    chosen: dict[str, str] = {}
    reasons: dict[str, str] = {}
    for task in sorted(set(orders[0]) & set(orders[1])):
        first, second = orders[0][task], orders[1][task]
        both = [f for f in first if f in set(second)]
        wanted, reason = asked.of(task, both)
        if wanted is None and not both:
            raise LogError(
                f"task {task!r}: {_label(tables[0])} uses filter {', '.join(first)} and "
                f"{_label(tables[1])} filter {', '.join(second)}: different scorings of the "
                "answers; compare logs of the same filter."
            )
        if wanted is None:
            wanted = both[0]
            reason = "the task's only filter" if len(both) == 1 else "the task's first filter"
            if set(first) != set(second):
                reason += ", the first both logs hold"
        chosen[task], reasons[task] = wanted, reason
    return chosen, reasons


def _refuse_filter_unused(
    asked: Asked,
    filters: dict[str, str],
    orders: list[dict[str, list[str]]],
    left_out: dict[str, str],
) -> None:
    """Refuse a filter asked for every task that no task compared uses: the tasks that log it
    were left out, and the comparison would go on under other filters without a word."""
    if asked.every is None or not filters or asked.every in filters.values():
        return  # (no task compared at all: the pairing says why, naming the metrics)
    holders = sorted(t for t in left_out if any(asked.every in o.get(t, ()) for o in orders))
    raise LogError(
        f"--filter {asked.every!r} applies to no task compared: "
        + (
            f"every task logging it is left out ({', '.join(holders[:3])}; {left_out[holders[0]]})"
            if holders
            else "no task compared logs it"
        )
        + "; leave --filter out, or choose those tasks' metric with --metric TASK=NAME."
    )


def _one_sided(
    frames: list[pd.DataFrame],
    orders: list[dict[str, list[str]]],
    kinds: dict[str, str],
    asked: Asked,
) -> tuple[dict[str, str], dict[str, str]]:
    """The metric and filter counted for each task only one log holds (its first pass/fail
    metric, else its first; the filter asked for when logged, else its first), so that it is
    counted as unpaired, once per case."""
    metrics: dict[str, str] = {}
    filters: dict[str, str] = {}
    for side in (0, 1):
        only = set(orders[side]) - set(orders[1 - side])
        for task in only:
            logged = [m for m in orders[side][task] if _usable(m)] or orders[side][task]
            passfail = [m for m in logged if kinds.get(m) == "pass/fail"]
            metrics[task] = (passfail or logged)[0]
        frame = frames[side]
        rows = frame[frame["task"].isin(only) & (frame["metric"] == frame["task"].map(metrics))]
        for task, names in _by_task(rows, "filter").items():
            filters[task] = asked.every if asked.every in names else names[0]
    return metrics, filters


def _label(table: LogTable) -> str:
    return f"{table.system!r} ({', '.join(table.sources[:2])})"
