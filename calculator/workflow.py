"""The comparison of two systems on the same cases: one path for the page and the command line.

Whatever the input's shape (per-case files of pass/fail outcomes or of scores, harness logs with
or without repeats and tasks), a comparison goes: read, pair, choose the analysis the pairing
calls for, analyse with the question asked. The surfaces parse their input into the typed
options below, call these functions and render what they return; they do not choose a test or
orchestrate the steps themselves, so the page and the command line answer one comparison with
the same numbers.

- :class:`~calculator.chooser.Ask` (also named :data:`Question`): everything asked, of
  pass/fail outcomes or of scores (alpha, alternative, margin, the question's name, a release
  gate, which scores are better, resamples). Each function below takes one, and calls
  :func:`calculator.chooser.choose` on the shape of what was read before analysing: an option
  the chosen test cannot answer is refused there (:class:`~calculator.chooser.OptionRefused`),
  on every surface alike, and never dropped.
- :func:`compare_cases`: per-case pass/fail outcomes, clusters counted when a group column is
  chosen.
- :func:`compare_score_cases`: per-case scores, compared by their mean.
- :class:`LogChoice` and :func:`pair_two_logs`: what is compared in two harness logs (metric,
  filter, threshold, exclusions allowed) and their pairing.
- :func:`compare_logs`: two paired harness logs, as pass/fail or as scores, as their pairing
  says.

Examples
--------
>>> Ask(alternative="greater").analyze_options()
{'alpha': 0.05, 'alternative': 'greater', 'margin': None, 'question': None}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calculator.analysis import Analysis, analyze
from calculator.chooser import Ask, choose, shape_of
from calculator.clustered import ClusteredTestResult, clustered_mcnemar
from calculator.release import clusters_of

if TYPE_CHECKING:
    from calculator.cases import PairedCases
    from calculator.logs import LogAnalysis, LogTable, PairedLogs
    from calculator.logs.scores import LogScores
    from calculator.scores import ScoresComparison

__all__ = [
    "Ask",
    "CasesComparison",
    "LogChoice",
    "Question",
    "compare_cases",
    "compare_logs",
    "compare_score_cases",
    "pair_two_logs",
]


#: The question asked of pass/fail outcomes: the page's Decision section says it by this name.
Question = Ask


@dataclass(frozen=True, slots=True, kw_only=True)
class CasesComparison:
    """Per-case pass/fail outcomes compared: the cases, their analysis and, with a group
    column, the cluster-adjusted test beside it."""

    cases: PairedCases
    analysis: Analysis
    cluster: ClusteredTestResult | None


def compare_cases(cases: PairedCases, ask: Ask | None = None) -> CasesComparison:
    """The analysis of paired per-case outcomes, answering `ask` (the two-sided question at
    alpha 0.05 by default); with a group column the decision and the gate count clusters
    (:func:`calculator.release.clusters_of`), on every surface alike.

    Raises :class:`~calculator.chooser.OptionRefused` for an option the test cannot answer."""
    choice = choose(shape_of(cases), ask or Ask())
    clustered = choice.method == "cluster"
    analysis = analyze(
        *cases.counts,
        names=cases.names,
        clusters=clusters_of(cases) if clustered else None,
        **choice.analyze_options(),
    )
    cluster = clustered_mcnemar(*cases.cluster_counts()) if clustered else None
    return CasesComparison(cases=cases, analysis=analysis, cluster=cluster)


def compare_score_cases(
    cases: PairedCases,
    ask: Ask | None = None,
    scores: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None,
) -> ScoresComparison:
    """Paired per-case scores (loaded by :func:`calculator.cases.scores_input.load_score_cases`;
    `scores` when already read) compared by their mean, answering `ask`; with a group column
    the clusters are resampled and flipped together.

    Raises :class:`~calculator.chooser.OptionRefused` for an option the test cannot answer, and
    the comparison's own refusals led by the file(s) and the columns."""
    from calculator.cases.scores_input import compare_case_scores

    choice = choose(shape_of(cases, scores=True), ask or Ask())
    return compare_case_scores(cases, scores, **choice.compare_options())


@dataclass(frozen=True, slots=True, kw_only=True)
class LogChoice:
    """What is compared in two harness logs: the metric and filter for every task that logs
    it, and per task (None and none: each task's own primary one, stated in the input
    summary), a threshold that cuts a graded metric into pass/fail (None: a graded metric is
    compared as scores), and whether more than the usual share of unpaired cases may be left
    out."""

    metric: str | None = None
    filter: str | None = None
    threshold: float | None = None
    allow_exclusions: bool = False
    #: (task, name) pairs: the metric, the filter, of one task (``--metric TASK=NAME``).
    metric_by_task: tuple[tuple[str, str], ...] = ()
    filter_by_task: tuple[tuple[str, str], ...] = ()


def pair_two_logs(a: LogTable, b: LogTable, choice: LogChoice | None = None) -> PairedLogs:
    """A's and B's logs paired task by task on `choice`; a graded metric without a threshold
    is paired as scores (:func:`calculator.logs.pair_logs`)."""
    from calculator.logs import pair_logs
    from calculator.logs.task_choice import Asked

    choice = choice or LogChoice()
    paired = pair_logs(
        a,
        b,
        metric=Asked(every=choice.metric, by_task=dict(choice.metric_by_task)),
        filter=Asked(every=choice.filter, by_task=dict(choice.filter_by_task)),
        threshold=choice.threshold,
        allow_exclusions=choice.allow_exclusions,
        scores=True,
    )
    return _with_stated_better(paired, (a, b))


def _with_stated_better(paired: PairedLogs, tables: tuple[LogTable, LogTable]) -> PairedLogs:
    """`paired` with the direction the logs state for the metric compared in each task."""
    import dataclasses

    from calculator.logs.directions import stated_better

    metrics = {task.task: paired.metric.metric for task in paired.tasks}
    metrics.update({task: str(c.metric) for task, c in paired.task_metrics.items()})
    better = stated_better(tables, metrics)
    return paired if better is None else dataclasses.replace(paired, stated_better=better)


def compare_logs(paired: PairedLogs, ask: Ask | None = None) -> LogAnalysis | LogScores:
    """Two paired harness logs analysed as their pairing says, answering `ask`: as scores when
    a graded metric was paired without a threshold (its margin in the scores' units), else as
    pass/fail (its margin a share of pass rate).

    Raises :class:`~calculator.chooser.OptionRefused` for an option the test cannot answer
    (a one-sided question or a margin of several tasks' pooled pass/fail table, say)."""
    choice = choose(shape_of(paired), ask or Ask())
    if choice.method.startswith("scores"):
        from calculator.logs.scores import analyze_log_scores

        return analyze_log_scores(paired, **choice.compare_options())
    from calculator.logs import analyze_logs

    return analyze_logs(paired, **choice.analyze_options())
