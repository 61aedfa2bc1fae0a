"""Choosing what two logs are compared on (the filter, the metric), and refusing a biased rest.

Every choice made without being told is named with its reason, and the alternatives are listed:
the filter (lm-eval logs one row per document and filter), the metric (a log holds several:
``acc`` and ``acc_norm``, ``exact_match`` and ``quasi_exact_match``). Rows that would be left out
systematically (the same case twice, an outcome mixing 0/1 with other values) stop the analysis
with what happened and what to do, unless the caller allows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.columns import is_bookkeeping
from calculator.logs.table import LogError, LogTable

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "MetricChoice",
    "choose_filter",
    "choose_metric",
    "metric_kinds",
    "preferred_metric",
    "refuse_duplicates",
    "refuse_mixed",
]

#: HELM's correctness stats, strictest first: the first logged by both runs is used.
HELM_ORDER = (
    "exact_match",
    "quasi_exact_match",
    "prefix_exact_match",
    "quasi_prefix_exact_match",
    "bbq_accuracy",
    "math_equiv",
    "math_equiv_chain_of_thought",
    "pass",
)
_SHOWN_VALUES = 6


@dataclass(frozen=True, slots=True, kw_only=True)
class MetricChoice:
    """The metric compared, why it was chosen, and the other metrics of the logs; `metric` is
    None when the tasks of two logs are compared on different metrics (each task's own
    choice is in :attr:`calculator.logs.PairedLogs.task_metrics`)."""

    metric: str | None
    reason: str
    others: tuple[str, ...]
    graded: bool

    def to_dict(self) -> dict[str, object]:
        """As plain JSON types."""
        return {
            "metric": self.metric,
            "reason": self.reason,
            "others": list(self.others),
            "graded": self.graded,
        }


def choose_filter(
    a: LogTable, b: LogTable, wanted: str | None, logged: tuple[tuple[str, ...], ...] = ()
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, str]]:
    """Both logs' rows of one filter per task, and the filter of each task.

    A task logged under one filter uses it; a task logged under several uses `wanted`.
    `logged` holds each whole log's filters (default: those of `a` and `b`), where `wanted`
    must be found.

    Raises
    ------
    LogError
        When `wanted` is in no task of both logs, a task has several filters and `wanted` is
        not one of them, or the two logs score a task under different filters.
    """
    frames = [a.frame, b.frame]
    logged = logged or (a.filters, b.filters)
    if wanted is not None and not (wanted in logged[0] and wanted in logged[1]):
        raise LogError(
            f"--filter {wanted!r} is not in both logs; their filters: {_label(a)} "
            f"{', '.join(logged[0]) or 'none'}; {_label(b)} {', '.join(logged[1]) or 'none'}."
        )
    if not a.filters and not b.filters:
        return a.frame, b.frame, {}
    chosen: dict[str, str] = {}
    by_task = [_filters_by_task(f) for f in frames]  # once: a scan per task was quadratic
    tasks = sorted(set(a.frame["task"].unique()) & set(b.frame["task"].unique()))
    for task in tasks:
        sets = [set(filters.get(task, ())) for filters in by_task]
        if sets[0] == sets[1] and len(sets[0]) == 1:
            chosen[task] = sets[0].pop()
        elif wanted is not None and wanted in sets[0] and wanted in sets[1]:
            chosen[task] = wanted
        elif len(sets[0]) > 1 or len(sets[1]) > 1:
            both = sorted(sets[0] | sets[1])
            raise LogError(
                f"task {task!r} is logged once per case and filter, for {len(both)} filters "
                f"({', '.join(both)}): each filter scores the same answers differently; choose "
                "one with --filter NAME."
            )
        else:
            raise LogError(
                f"task {task!r}: {_label(a)} uses filter {', '.join(sorted(sets[0]))} and "
                f"{_label(b)} filter {', '.join(sorted(sets[1]))}: different scorings of the "
                "answers; compare logs of the same filter."
            )
    # A task only one log holds keeps one filter's rows (the one asked for, else its first), so
    # that it is counted as unpaired, once per document, and never vanishes with its filter.
    counted = {**_one_sided_filters(frames, wanted), **chosen}
    kept = []
    for frame in frames:
        wanted_filter = frame["task"].map(counted)
        kept.append(frame[frame["filter"].isna() | (frame["filter"] == wanted_filter)])
    return kept[0], kept[1], chosen


def _one_sided_filters(frames: list[pd.DataFrame], wanted: str | None) -> dict[str, str]:
    """The filter counted for each task only one of `frames` holds: `wanted` when the task
    logs it, else the first of its filters."""
    one_sided: dict[str, str] = {}
    for frame, other in ((frames[0], frames[1]), (frames[1], frames[0])):
        rows = frame[~frame["task"].isin(set(other["task"])) & frame["filter"].notna()]
        for task, filters in rows.groupby("task")["filter"]:
            logged = sorted(set(filters))
            one_sided[str(task)] = wanted if wanted in logged else logged[0]
    return one_sided


def _filters_by_task(frame: pd.DataFrame) -> dict[str, list]:
    """Each task's filters (missing ones left out)."""
    pairs = frame[["task", "filter"]].dropna(subset=["filter"]).drop_duplicates()
    return pairs.groupby("task", sort=False)["filter"].agg(list).to_dict()


def choose_metric(
    a: pd.DataFrame,
    b: pd.DataFrame,
    tables: tuple[LogTable, LogTable],
    wanted: str | None,
    threshold: float | None,
    scores: bool = False,
) -> MetricChoice:
    """The metric compared: `wanted`, else the first pass/fail metric both logs hold (else,
    with `threshold` or `scores`, the first graded one).

    Parameters
    ----------
    a, b : pandas.DataFrame
        The long tables (after the filter).
    tables : (LogTable, LogTable)
        The logs (their metric order and format).
    wanted : str or None
        The metric named by the user.
    threshold : float or None
        When given, graded metrics may be chosen too (they pass at or above it).
    scores : bool
        Graded metrics may be chosen without a threshold (to be compared as scores).

    Raises
    ------
    LogError
        When `wanted` is not in both logs or is a corpus-level metric, or no metric can be an
        outcome (the metrics found are listed).
    """
    order = [m for m in tables[0].metrics if m in set(tables[1].metrics)]
    found = ", ".join(dict.fromkeys([*tables[0].metrics, *tables[1].metrics])) or "none"
    if wanted is not None:
        if wanted not in order:
            raise LogError(f"--metric {wanted!r} is not in both logs; the metrics found: {found}.")
        if any(wanted in table.corpus_metrics for table in tables):
            raise LogError(
                f"--metric {wanted!r} is a corpus-level metric (logged per case as [gold, "
                "prediction] pairs, computed over all cases at once): it cannot be split into "
                "per-case scores, so it cannot be compared case by case; choose another metric."
            )
        kind = _kind(a, b, wanted)
        return MetricChoice(
            metric=wanted,
            reason="the one asked for",
            others=tuple(m for m in order if m != wanted and not is_bookkeeping(m)),
            graded=kind == "graded",
        )
    kinds = {m: _kind(a, b, m) for m in order if not is_bookkeeping(m)}
    passfail = [m for m, kind in kinds.items() if kind == "pass/fail"]
    graded = [m for m, kind in kinds.items() if kind == "graded"]
    candidates = passfail or (graded if threshold is not None or scores else [])
    if not candidates:
        hint = ""
        if graded:  # only without `scores`
            hint = (
                f"; {', '.join(graded[:3])} hold scores ({_values(a, b, graded[0])}): name one "
                "with --metric and set --threshold to read it as pass/fail"
            )
        corpus = [m for m in order if any(m in table.corpus_metrics for table in tables)]
        if corpus:
            hint += (
                f"; {', '.join(corpus[:3])} {'is a' if len(corpus) == 1 else 'are'} corpus-level "
                f"metric{'s' * (len(corpus) > 1)} (logged per case as [gold, prediction] pairs, "
                "computed over all cases at once), which cannot be split into per-case scores"
            )
        raise LogError(
            "no metric of these logs can be a pass/fail outcome (bookkeeping fields, constant "
            f"values and metrics without per-case values are never used); the metrics found: "
            f"{found}{hint}."
        )
    metric, reason = _preferred(
        candidates,
        tables[0].format,
        "pass/fail" if passfail else ("threshold" if threshold is not None else "scores"),
    )
    return MetricChoice(
        metric=metric,
        reason=reason,
        others=tuple(m for m in order if m != metric and not is_bookkeeping(m)),
        graded=not passfail,
    )


def refuse_mixed(a: pd.DataFrame, b: pd.DataFrame, choice: MetricChoice, allow: bool) -> None:
    """Refuse a metric read as pass/fail whose values are not all 0 or 1, unless `allow` (a
    threshold is set, or exclusions are allowed).

    Values mixing 0/1 with others (Inspect's partial credit "P" = 0.5, a graded judge) would
    leave out exactly the rows with partial credit, which is not chance; values of which none
    is 0 or 1 are scores, which need a threshold to pass or fail.
    """
    if allow:
        return
    for frame in (a, b):
        values = frame.loc[frame["metric"] == choice.metric, "value"].to_numpy()
        present = ~np.isnan(values)
        binary = present & ((values == 0.0) | (values == 1.0))
        other = present & ~binary
        if not other.any():
            continue
        system = frame["system"].iloc[0]
        seen = _values(frame, frame, choice.metric)
        if not binary.any():
            raise LogError(
                f"{choice.metric!r}: no value of {system!r} is 0 or 1 ({seen}): these are "
                "scores, not pass/fail outcomes; set --threshold X to count a case as passed "
                "when its score is at least X."
            )
        raise LogError(
            f"{choice.metric!r} mixes 0/1 with other values ({int(other.sum()):,} rows of "
            f"{system!r}; {seen}), such as partial credit: leaving those rows out would bias "
            "the comparison; set --threshold X to count a value of at least X as a pass, or "
            "pass --allow-exclusions to analyse the 0/1 rows only."
        )


def refuse_duplicates(frame: pd.DataFrame, metric: str | None, allow: bool) -> None:
    """Refuse a log holding the same (task, case, repeat) twice for `metric` (None: rows
    already of one metric per task), unless `allow`."""
    rows = frame if metric is None else frame[frame["metric"] == metric]
    twice = rows.duplicated(["task", "case", "repeat"], keep=False)
    if allow or not twice.any():
        return
    first = rows[twice].iloc[0]
    raise LogError(
        f"{frame['system'].iloc[0]!r}: {int(twice.sum()):,} rows repeat a case of the same task "
        f"(the first: task {first['task']!r}, case {first['case']!r}), as a log does when it "
        "mixes runs, tasks or filters: give one run per task, or pass --allow-exclusions to "
        "leave every repeated case out."
    )


def metric_kinds(a: pd.DataFrame, b: pd.DataFrame, metrics: list[str]) -> dict[str, str]:
    """Each metric's kind over both logs' rows: "pass/fail", "graded" or "none"."""
    return {metric: _kind(a, b, metric) for metric in metrics}


def preferred_metric(candidates: list[str], log_format: str, kind: str) -> tuple[str, str]:
    """The metric chosen among `candidates` (of `kind`: "pass/fail", "threshold", "scores")
    and why: HELM's strictest correctness stat, else the first."""
    return _preferred(candidates, log_format, kind)


def _kind(a: pd.DataFrame, b: pd.DataFrame, metric: str) -> str:
    """ "pass/fail" (only 0 and 1), "graded" (other numbers), or "none" (no values, constant)."""
    values = np.concatenate(
        [frame.loc[frame["metric"] == metric, "value"].to_numpy() for frame in (a, b)]
    )
    values = values[~np.isnan(values)]
    if values.size == 0 or np.unique(values).size <= 1:
        return "none"
    return "pass/fail" if np.isin(values, (0.0, 1.0)).all() else "graded"


def _preferred(candidates: list[str], log_format: str, kind: str) -> tuple[str, str]:
    what = {
        "pass/fail": "pass/fail metric",
        "threshold": "scored metric (with --threshold)",
        "scores": "scored metric",
    }[kind]
    if log_format == "helm":
        for name in HELM_ORDER:
            if name in candidates:
                return name, (
                    f"the first of HELM's correctness stats ({', '.join(HELM_ORDER[:4])}, ...) "
                    "that both runs log"
                )
    source = {"lm-eval": "the task's metric list", "inspect": "the eval's scorers"}
    reason = f"the first {what} in {source.get(log_format, 'the log')}"
    return candidates[0], reason + ("; no metric is pass/fail" if kind == "scores" else "")


def _values(a: pd.DataFrame, b: pd.DataFrame, metric: str) -> str:
    values = np.concatenate(
        [frame.loc[frame["metric"] == metric, "value"].to_numpy() for frame in (a, b)]
    )
    distinct = np.unique(values[~np.isnan(values)])
    shown = ", ".join(f"{v:g}" for v in distinct[:_SHOWN_VALUES])
    return f"values {shown}" + (", ..." if distinct.size > _SHOWN_VALUES else "")


def _label(table: LogTable) -> str:
    return f"{table.system!r} ({', '.join(table.sources[:2])})"
