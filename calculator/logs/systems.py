"""Three or more systems' logs on the same questions, read through the per-case loader of
several systems (:func:`calculator.cases.multi.load_systems`).

Every log is read as for two systems (:mod:`calculator.logs.select`): one metric and one filter
per task for all of them, the same refusals of a biased remainder. The case is (task, case id);
repeated samples of a question are refused here (compare two systems at a time, by question,
with :func:`calculator.logs.pair_logs`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from calculator.analysis import MAX_NAME_LENGTH
from calculator.logs.pairing import MAX_EXCLUDED_SHARE, align_tasks, refuse_different_documents
from calculator.logs.select import (
    MetricChoice,
    choose_filter,
    choose_metric,
    refuse_duplicates,
    refuse_mixed,
)
from calculator.logs.table import LogError, LogTable
from calculator.text import clip, first_of, printable

if TYPE_CHECKING:
    import pandas as pd

    from calculator.cases.systems_result import SystemCases

__all__ = ["LISTED_SOURCES", "listed_sources", "load_log_suite", "load_log_systems"]

#: A system's log files named in the input summary before "and N more".
LISTED_SOURCES = 6


def load_log_systems(
    logs: Sequence[LogTable],
    *,
    metric: str | None = None,
    filter: str | None = None,  # noqa: A002 - the harness's own word
    threshold: float | None = None,
    allow_exclusions: bool = False,
) -> tuple[SystemCases, MetricChoice, dict[str, str]]:
    """The per-case outcomes of several systems' logs, the metric compared, and the lm-eval
    filter of each task (empty without filters).

    Raises
    ------
    LogError
        As :func:`calculator.logs.pair_logs` does, and for repeated samples of a question.
    """
    cases, choice, used, _ = load_log_suite(
        logs,
        metric=metric,
        filter=filter,
        threshold=threshold,
        allow_exclusions=allow_exclusions,
    )
    return cases, choice, used


def load_log_suite(
    logs: Sequence[LogTable],
    *,
    metric: str | None = None,
    filter: str | None = None,  # noqa: A002 - the harness's own word
    threshold: float | None = None,
    allow_exclusions: bool = False,
) -> tuple[SystemCases, MetricChoice, dict[str, str], np.ndarray]:
    """:func:`load_log_systems`, and the task of each case used (aligned with the rows of the
    cases' outcomes), for the comparison by task (:func:`calculator.compare.suite`)."""
    import pandas as pd

    from calculator.cases.multi import load_systems

    chosen = chosen_frames(
        logs, metric=metric, filter=filter, threshold=threshold, allow_exclusions=allow_exclusions
    )
    assert chosen is not None  # without `scores` a metric is always chosen or refused
    logs, frames, names, choice, used = chosen
    repeated = [
        log for log, frame in zip(logs, frames, strict=True) if frame["repeat"].nunique() > 1
    ]
    if repeated:
        first = repeated[0]
        raise LogError(
            f"{first.sources[0] if first.sources else first.system}: {first.system}'s logs hold "
            f"repeated samples of each question (epochs, trials) of the pass/fail metric "
            f"{choice.metric!r}, and the comparison of several systems counts every sample as an "
            "independent case, which repeats of a question are not: compare two systems at a "
            "time with `cases`, which analyses them by question; or name a graded metric with no "
            "threshold, compared by ranks over each question's mean."
        )
    several = pd.concat(frames)["task"].nunique() > 1
    files = [_case_file(frame, log, several) for frame, log in zip(frames, logs, strict=True)]
    cases = load_systems(
        files, id_column="case", outcome_column="value", threshold=threshold, names=names
    )
    # "case" and "value" are the reader's own columns, not the logs': no column is named.
    cases = dataclasses.replace(cases, id_column=None, outcome_columns=())
    if not allow_exclusions:
        _refuse_large_exclusions(cases, frames, names)
    return cases, choice, used, _tasks_of(cases, frames[0], several)


def chosen_frames(
    logs: Sequence[LogTable],
    *,
    metric: str | None = None,
    filter: str | None = None,  # noqa: A002 - the harness's own word
    threshold: float | None = None,
    allow_exclusions: bool = False,
    scores: bool = False,
) -> tuple[list[LogTable], list[pd.DataFrame], list[str], MetricChoice, dict[str, str]] | None:
    """Each system's rows of the metric and filter compared, with the logs (tasks aligned),
    the systems' names, the metric chosen and each task's filter. With `scores`, a graded
    metric may be chosen without a threshold, and None is returned when the metric chosen is
    pass/fail (the caller compares pass/fail outcomes)."""
    import pandas as pd

    logs = list(logs)
    if len({log.format for log in logs}) > 1:
        raise LogError("the logs are of several harnesses: compare logs of one harness.")
    if len({log.data_key for log in logs}) < len(logs):
        raise LogError("the same log is given twice: each system's own log is needed.")
    logs = [
        dataclasses.replace(log, frame=frame)
        for log, frame in zip(logs, align_tasks([log.frame for log in logs], logs), strict=True)
    ]
    merged = pd.concat([log.frame for log in logs], ignore_index=True)
    common = set.intersection(*(set(log.metrics) for log in logs))
    first = dataclasses.replace(logs[0], metrics=tuple(m for m in logs[0].metrics if m in common))
    choice = choose_metric(merged, merged, (first, first), metric, threshold, scores)
    as_scores = scores and choice.graded and threshold is None
    if scores and not as_scores:
        return None
    frames: list[pd.DataFrame] = []
    used: dict[str, str] = {}
    names = _names(logs)
    if filter is not None and not all(filter in log.filters for log in logs):
        held = "; ".join(
            f"{name}: {', '.join(log.filters) or 'none'}"
            for log, name in zip(logs, names, strict=True)
        )
        raise LogError(
            f"--filter {filter!r} is not in every log; the filters of each: {clip(held, 600)}."
        )
    for log, name in zip(logs, names, strict=True):
        rows = log.frame[log.frame["metric"] == choice.metric]
        base = dataclasses.replace(
            logs[0], frame=logs[0].frame[logs[0].frame["metric"] == choice.metric]
        )
        kept, base_kept, chosen = choose_filter(
            dataclasses.replace(log, frame=rows), base, filter, (log.filters, logs[0].filters)
        )
        # The content hash of every log against the first's, as for two systems.
        refuse_different_documents(
            kept, base_kept, f"{names[0]}'s and {name}'s logs", log_format=log.format
        )
        refuse_duplicates(kept, choice.metric, allow_exclusions)
        frames.append(kept)
        used.update(chosen)
    refuse_mixed(merged, merged, choice, allow_exclusions or threshold is not None or as_scores)
    return logs, frames, names, choice, used


def _tasks_of(cases: SystemCases, frame: pd.DataFrame, several: bool) -> np.ndarray:
    """The task of each case used: its id is the task and the case joined by "/" (one id to
    one case, or the cases' reader refused them as duplicates), looked up in the first log."""
    if not several:
        task = str(frame["task"].iloc[0]) if len(frame) else ""
        return np.full(cases.n, task, dtype=object)
    joined = frame["task"].str.cat(frame["case"], sep="/")
    task_of = dict(zip(joined.astype(str), frame["task"].astype(str), strict=True))
    return np.asarray([task_of[str(case)] for case in cases.case_ids], dtype=object)


def _case_file(frame: pd.DataFrame, log: LogTable, several: bool):  # noqa: ANN202
    import pandas as pd

    from calculator.cases import CaseFile

    case = frame["task"].str.cat(frame["case"], sep="/") if several else frame["case"]
    table = pd.DataFrame({"case": case.to_numpy(), "value": frame["value"].to_numpy()})
    table.index = pd.RangeIndex(1, len(table) + 1)
    return CaseFile(name=listed_sources(log.sources), format="jsonl", frame=table)


def listed_sources(sources: Sequence[str]) -> str:
    """A system's log files, every one up to :data:`LISTED_SOURCES`, else the first ones and
    how many more.

    >>> listed_sources(["log0.json", "log1.json", "log2.json"])
    'log0.json, log1.json, log2.json'
    >>> listed_sources([f"log{i}.json" for i in range(10)])
    'log0.json, log1.json, log2.json, log3.json, log4.json, log5.json and 4 more'
    """
    return first_of(sources, LISTED_SOURCES)


def _names(logs: list[LogTable]) -> list[str]:
    """The systems' names from the logs; else their files' names; else S1, S2..."""
    from pathlib import Path

    for names in (
        [log.system for log in logs],
        [Path(log.sources[0]).stem.split("__samples_")[0] for log in logs],
    ):
        names = [clip(printable(name), MAX_NAME_LENGTH) for name in names]
        if len(set(names)) == len(names):
            return names
    return [f"S{k + 1}" for k in range(len(logs))]


def _refuse_large_exclusions(cases: SystemCases, frames: list, names: list[str]) -> None:
    for frame, name in zip(frames, names, strict=True):
        total = len(frame)
        left_out = total - cases.n
        if total and left_out / total > MAX_EXCLUDED_SHARE:
            raise LogError(
                f"{left_out:,} of {name}'s {total:,} rows ({left_out / total:.1%}) would be left "
                f"out, over the limit of {MAX_EXCLUDED_SHARE:.0%}: the runs were not made on the "
                "same questions; rerun on the same questions, or pass --allow-exclusions to "
                "analyse the questions every log holds."
            )
