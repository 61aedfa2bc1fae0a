"""Three or more systems' logs on a graded metric, as an n x k table of scores for Friedman's
test (:func:`calculator.compare.friedman.friedman_compare`).

The metric and filter are chosen as for pass/fail outcomes (:func:`.systems.chosen_frames`,
the one rule), except that a graded metric may be chosen without a threshold. The block of
Friedman's test is the question, (task, case id): a question's score for a system is the mean
of its repeats (epochs, trials), so every repeat counts and the questions, not the samples,
are the independent units. A question enters when every system has a score for it; the
others are counted, and, unless exclusions are allowed, more than
:data:`~calculator.logs.pairing.MAX_EXCLUDED_SHARE` of a system's questions left out stops
the run, as for pass/fail outcomes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.logs.pairing import MAX_EXCLUDED_SHARE
from calculator.logs.systems import chosen_frames
from calculator.logs.table import LogError, LogTable

if TYPE_CHECKING:
    from calculator.logs.select import MetricChoice

__all__ = ["LogSystemScores", "load_log_scores"]


@dataclass(frozen=True, slots=True, kw_only=True)
class LogSystemScores:
    """The systems' scores on the questions every one of them answered.

    Attributes
    ----------
    names : tuple of str
        The systems, in the order given.
    scores : numpy.ndarray
        n x k: each question's mean score over its repeats, one column per system.
    tasks : numpy.ndarray
        The task of each of the n questions.
    choice : MetricChoice
        The metric compared and why.
    filters : dict of str to str
        Each task's filter (lm-eval), empty without filters.
    rows_read : dict of str to int
        Each system's rows of the metric and filter compared.
    rows_missing : dict of str to int
        Each system's rows without a value (left out).
    questions_left_out : dict of str to int
        Each system's questions that some other system did not score (left out).
    most_repeats : int
        The most repeats of one question by one system (1: no repeats).
    """

    names: tuple[str, ...]
    scores: np.ndarray = field(repr=False)
    tasks: np.ndarray = field(repr=False)
    choice: MetricChoice
    filters: dict[str, str]
    rows_read: dict[str, int]
    rows_missing: dict[str, int]
    questions_left_out: dict[str, int]
    most_repeats: int

    @property
    def n(self) -> int:
        return int(self.scores.shape[0])

    def input_summary(self) -> dict[str, object]:
        """The JSON's "input": what was read, used and left out, per system."""
        return {
            "outcomes": "scores",
            "metric": self.choice.metric,
            "metric_reason": self.choice.reason,
            "filters_by_task": dict(self.filters),
            "systems": list(self.names),
            "questions_used": self.n,
            "tasks": list(dict.fromkeys(str(t) for t in self.tasks)),
            "rows_read": dict(self.rows_read),
            "rows_without_value": dict(self.rows_missing),
            "questions_left_out": dict(self.questions_left_out),
            "most_repeats": self.most_repeats,
        }


def load_log_scores(
    logs: Sequence[LogTable],
    *,
    metric: str | None = None,
    filter: str | None = None,  # noqa: A002 - the harness's own word
    allow_exclusions: bool = False,
) -> LogSystemScores | None:
    """The systems' scores when the metric compared is graded (no threshold); None when it is
    pass/fail (compared by :func:`.systems.load_log_suite` instead).

    Raises
    ------
    LogError
        As :func:`.systems.load_log_suite`, and when too many questions would be left out.
    """
    import pandas as pd

    chosen = chosen_frames(
        logs, metric=metric, filter=filter, allow_exclusions=allow_exclusions, scores=True
    )
    if chosen is None:
        return None
    _, frames, names, choice, used = chosen
    means, read, missing, most = [], {}, {}, 1
    for frame, name in zip(frames, names, strict=True):
        rows = frame.drop_duplicates(["task", "case", "repeat"], keep=False)  # allowed: left out
        valued = rows[~np.isnan(rows["value"].to_numpy(dtype=float))]
        read[name], missing[name] = len(frame), len(frame) - len(valued)
        grouped = valued.groupby(["task", "case"], sort=False)["value"]
        if len(valued):
            most = max(most, int(grouped.size().max()))
        means.append(grouped.mean().rename(name))
    table = pd.concat(means, axis=1, join="inner")
    left_out = {name: len(series) - len(table) for name, series in zip(names, means, strict=True)}
    if not allow_exclusions:
        for name, series in zip(names, means, strict=True):
            if len(series) and left_out[name] / len(series) > MAX_EXCLUDED_SHARE:
                raise LogError(
                    f"{left_out[name]:,} of {name}'s {len(series):,} questions "
                    f"({left_out[name] / len(series):.1%}) have no score from some other system "
                    f"and would be left out, over the limit of {MAX_EXCLUDED_SHARE:.0%}: the runs "
                    "were not made on the same questions; rerun on the same questions, or pass "
                    "--allow-exclusions to analyse the questions every log holds."
                )
    return LogSystemScores(
        names=tuple(names),
        scores=table.to_numpy(dtype=float),
        tasks=np.asarray([str(task) for task, _ in table.index], dtype=object),
        choice=choice,
        filters=used,
        rows_read=read,
        rows_missing=missing,
        questions_left_out=left_out,
        most_repeats=most,
    )
