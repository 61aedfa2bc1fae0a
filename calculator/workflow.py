"""The comparison of two systems on the same cases: one path for the page and the command line.

Whatever the input's shape (a typed table, per-case files of pass/fail outcomes or of scores,
a long file, harness logs with or without repeats and tasks), a comparison goes: read, pair,
make the one data model (:class:`~calculator.paired_data.PairedData`), choose the analysis
its shape calls for, analyse with the question asked. The surfaces parse their input into the
typed options below, call :func:`compare` and render the :class:`Comparison` it returns; they
do not choose a test or orchestrate the steps themselves, so the page and the command line
answer one comparison with the same numbers.

- :class:`~calculator.chooser.Ask` (also named :data:`Question`): everything asked, of
  pass/fail outcomes or of scores (alpha, alternative, margin, the question's name, a release
  gate, which scores are better, resamples, the anytime-valid gate). :func:`compare` calls
  :func:`calculator.chooser.choose` on the data's shape before analysing: an option the chosen
  test cannot answer is refused there (:class:`~calculator.chooser.OptionRefused`), on every
  surface alike, and never dropped.
- :class:`TestOptions`: how a pass/fail table's figures are computed (the interval's level
  and method, chi-square's correction, the exact test's two-sided rule, the release gates).
- :class:`LogChoice` and :func:`pair_two_logs`: what is compared in two harness logs (metric,
  filter, threshold, exclusions allowed) and their pairing.
- :func:`compare`: the one entry; :class:`Comparison`, the one result.

Examples
--------
>>> from calculator.paired_data import of_table
>>> result = compare(of_table(60, 15, 5, 20), Ask(alternative="less"))
>>> result.method, round(result.analysis.decision.pvalue, 4)
('exact', 0.0207)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from calculator.analysis import Analysis, analyze
from calculator.chooser import Ask, Choice, choose
from calculator.clustered import ClusteredTestResult, clustered_mcnemar
from calculator.errors import CalculatorError
from calculator.release import anytime_gate, clusters_of

if TYPE_CHECKING:
    from calculator.anytime import AnytimeAnalysis
    from calculator.logs import LogAnalysis, LogTable, PairedLogs
    from calculator.logs.scores import LogScores
    from calculator.paired_data import PairedData
    from calculator.scores import ScoresComparison

__all__ = [
    "Ask",
    "Comparison",
    "LogChoice",
    "Question",
    "TestOptions",
    "compare",
    "pair_two_logs",
]


#: The question asked of pass/fail outcomes: the page's Decision section says it by this name.
Question = Ask


@dataclass(frozen=True, slots=True, kw_only=True)
class TestOptions:
    """How a pass/fail table's figures are computed (:func:`calculator.analyze`'s keywords of
    the same names): the interval's `level` and `ci_method`, chi-square's `correction`, the
    exact test's two-sided `convention`, and `gates` release gates correlated `rho`."""

    __test__ = False  # not a pytest class

    level: float = 0.95
    ci_method: str = "agresti-min"
    correction: bool = False
    convention: str = "doubling"
    gates: int = 1
    rho: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """One comparison of two systems: the data, the test chosen with the question it answers
    (every option applied), and the numbers. Which parts are set follows the data's outcome
    and ledger, never the surface that asked:

    - pass/fail: `analysis` (a typed table's or per-case file's, or with logs the pooled
      analysis that decides the suite) and `logs` (per task, with logs); `cluster` the
      cluster-adjusted test with a group column; `anytime` the anytime-valid gate when asked;
    - scores: `scores` (a per-case file's comparison, or the pooled one of logs) and, with
      logs, `log_scores` (per task and pooled).
    """

    data: PairedData
    choice: Choice
    analysis: Analysis | None = None
    cluster: ClusteredTestResult | None = None
    anytime: AnytimeAnalysis | None = None
    logs: LogAnalysis | None = None
    scores: ScoresComparison | None = None
    log_scores: LogScores | None = None

    @property
    def method(self) -> str:
        """The chooser's code of the test that answers (:func:`calculator.chooser.choose`)."""
        return self.choice.method

    @property
    def report(self) -> Analysis | ScoresComparison | LogAnalysis | LogScores:
        """The whole of the numbers, as the report of the data's kind takes them: logs' per
        task and pooled, else a per-case file's or a table's comparison."""
        for part in (self.log_scores, self.logs, self.scores, self.analysis):
            if part is not None:
                return part
        raise AssertionError("a comparison holds numbers")  # pragma: no cover

    @property
    def ask(self) -> Ask:
        """The question answered, every option applied (which scores are better, decided)."""
        return self.choice.ask


def compare(
    data: PairedData, ask: Ask | None = None, options: TestOptions | None = None
) -> Comparison:
    """`data` compared, answering `ask` (the two-sided question at alpha 0.05 by default):
    the test is chosen from the data's shape, then every option is applied. With a group
    column the decision and the gate count clusters (:func:`calculator.release.clusters_of`);
    with logs the suite is decided over every task's questions, each counted once.

    Raises :class:`~calculator.chooser.OptionRefused` for an option the chosen test cannot
    answer, :class:`~calculator.errors.CalculatorError` for `options` given where they do not
    apply (scores, logs), and the comparison's own refusals (scores too large, say) naming
    their source."""
    choice = choose(data.shape, ask or Ask())
    if options not in (None, TestOptions()) and (data.outcome == "scores" or data.ledger == "logs"):
        raise CalculatorError(
            "the test options (interval level and method, correction, two-sided rule, gates) "
            "apply to one pass/fail table, a typed table or a per-case file; these are "
            f"{'scores' if data.outcome == 'scores' else 'logs or a long file'}, analysed by "
            "their own tests"
        )
    if data.outcome == "scores":
        return _scores(data, choice)
    if data.ledger == "logs":
        from calculator.logs import analyze_logs

        logs = analyze_logs(data.logs, **choice.analyze_options())
        return Comparison(
            data=data,
            choice=choice,
            analysis=logs.pooled,
            logs=logs,
            anytime=_anytime(logs.pooled, choice),
        )
    clustered = choice.method == "cluster"
    analysis = analyze(
        *data.table.cells,
        names=data.names,
        framing=data.framing,
        clusters=clusters_of(data.cases) if clustered else None,
        **choice.analyze_options(),
        **_options(options),
    )
    cluster = clustered_mcnemar(*data.cases.cluster_counts()) if clustered else None
    return Comparison(
        data=data,
        choice=choice,
        analysis=analysis,
        cluster=cluster,
        anytime=_anytime(analysis, choice),
    )


def _anytime(analysis: Analysis, choice: Choice) -> AnytimeAnalysis | None:
    """The anytime-valid gate's test when it is asked (the chooser let it through: one
    sequence of independent pairs, no margin)."""
    if not choice.ask.anytime:
        return None
    return anytime_gate(analysis, choice.ask.anytime_prior)


def _options(options: TestOptions | None) -> dict[str, object]:
    """The options as :func:`calculator.analyze`'s keywords (each field is one, by its name)."""
    return {} if options is None else asdict(options)


def _scores(data: PairedData, choice: Choice) -> Comparison:
    """Scores compared by their mean: a per-case file's with its clusters, logs' per task and
    pooled (their margin in the scores' units)."""
    if data.ledger == "logs":
        from calculator.logs.scores import analyze_log_scores

        log_scores = analyze_log_scores(data.logs, **choice.compare_options())
        return Comparison(data=data, choice=choice, scores=log_scores.pooled, log_scores=log_scores)
    from calculator.cases.scores_input import compare_case_scores

    scores = compare_case_scores(data.cases, data.scores, **choice.compare_options())
    return Comparison(data=data, choice=choice, scores=scores)


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
