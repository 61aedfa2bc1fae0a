"""The comparison of two systems on the same cases: one path for the page and the command line.

Whatever the input's shape (per-case files of pass/fail outcomes or of scores, harness logs with
or without repeats and tasks), a comparison goes: read, pair, choose the analysis the pairing
calls for, analyse with the question asked. The surfaces parse their input into the typed
options below, call these functions and render what they return; they do not choose a test or
orchestrate the steps themselves, so the page and the command line answer one comparison with
the same numbers.

- :class:`Question`: what is asked of pass/fail outcomes (alpha, alternative, margin, the
  question's name).
- :class:`ScoreQuestion`: what is asked of scores (alpha, alternative, margin in the scores'
  units, resamples, which scores are better).
- :func:`compare_cases`: per-case pass/fail outcomes, clusters counted when a group column is
  chosen.
- :class:`LogChoice` and :func:`pair_two_logs`: what is compared in two harness logs (metric,
  filter, threshold, exclusions allowed) and their pairing.
- :func:`compare_logs`: two paired harness logs, as pass/fail or as scores, as their pairing
  says.

Examples
--------
>>> Question(alternative="greater").analyze_options()
{'alpha': 0.05, 'alternative': 'greater', 'margin': None, 'question': None}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from calculator.analysis import Analysis, analyze
from calculator.clustered import ClusteredTestResult, clustered_mcnemar
from calculator.decision import decision_level, resolve_question
from calculator.release import clusters_of

if TYPE_CHECKING:
    from calculator.cases import PairedCases
    from calculator.logs import LogAnalysis, LogTable, PairedLogs
    from calculator.logs.scores import LogScores

__all__ = [
    "CasesComparison",
    "LogChoice",
    "Question",
    "ScoreQuestion",
    "compare_cases",
    "compare_logs",
    "pair_two_logs",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """The question asked of pass/fail outcomes: the keywords of :func:`calculator.analyze`.

    `margin` is a share of pass rate (0.02 is two points); `question` names the question when
    the alternative and the margin do not ("equivalent"), else None.
    """

    alpha: float = 0.05
    alternative: str = "two-sided"
    margin: float | None = None
    question: str | None = None

    def analyze_options(self) -> dict[str, object]:
        """The keywords of :func:`calculator.analyze` and :func:`calculator.decide`."""
        return {
            "alpha": self.alpha,
            "alternative": self.alternative,
            "margin": self.margin,
            "question": self.question,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreQuestion:
    """The question asked of scores, turned into the keywords of
    :func:`calculator.compare_scores`.

    `margin` is in the scores' own units; `resamples` None takes the default number; `better`
    says whether higher or lower scores are better. The interval's level follows the pass/fail
    decision's rule (:func:`calculator.decision.decision_level`): 1 - alpha beside a two-sided
    test, 1 - 2 alpha beside a one-sided or margin test.
    """

    alpha: float = 0.05
    alternative: str = "two-sided"
    margin: float | None = None
    resamples: int | None = None
    seed: int = 0
    better: str = "higher"

    def compare_options(self) -> dict[str, object]:
        """The keywords of :func:`calculator.compare_scores`.

        Examples
        --------
        >>> ScoreQuestion(alternative="less").compare_options()["level"]
        0.9
        """
        question, _ = resolve_question(None, self.alternative)
        return {
            "level": decision_level(question, self.margin, self.alpha),
            "alternative": self.alternative,
            "margin": self.margin,
            "resamples": self.resamples,
            "seed": self.seed,
            "better": self.better,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class CasesComparison:
    """Per-case pass/fail outcomes compared: the cases, their analysis and, with a group
    column, the cluster-adjusted test beside it."""

    cases: PairedCases
    analysis: Analysis
    cluster: ClusteredTestResult | None


def compare_cases(cases: PairedCases, question: Question | None = None) -> CasesComparison:
    """The analysis of paired per-case outcomes, answering `question` (the two-sided question
    at alpha 0.05 by default); with a group column the decision and the gate count clusters
    (:func:`calculator.release.clusters_of`), on every surface alike."""
    question = question or Question()
    analysis = analyze(
        *cases.counts,
        names=cases.names,
        clusters=clusters_of(cases),
        **question.analyze_options(),
    )
    cluster = clustered_mcnemar(*cases.cluster_counts()) if cases.group_column else None
    return CasesComparison(cases=cases, analysis=analysis, cluster=cluster)


@dataclass(frozen=True, slots=True, kw_only=True)
class LogChoice:
    """What is compared in two harness logs: the metric and filter (None: each log's default,
    stated in the input summary), a threshold that cuts a graded metric into pass/fail (None:
    a graded metric is compared as scores), and whether more than the usual share of
    unpaired cases may be left out."""

    metric: str | None = None
    filter: str | None = None
    threshold: float | None = None
    allow_exclusions: bool = False


def pair_two_logs(a: LogTable, b: LogTable, choice: LogChoice | None = None) -> PairedLogs:
    """A's and B's logs paired task by task on `choice`; a graded metric without a threshold
    is paired as scores (:func:`calculator.logs.pair_logs`)."""
    from calculator.logs import pair_logs

    choice = choice or LogChoice()
    return pair_logs(
        a,
        b,
        metric=choice.metric,
        filter=choice.filter,
        threshold=choice.threshold,
        allow_exclusions=choice.allow_exclusions,
        scores=True,
    )


def compare_logs(
    paired: PairedLogs,
    question: Question | None = None,
    score_question: ScoreQuestion | None = None,
) -> LogAnalysis | LogScores:
    """Two paired harness logs analysed as their pairing says: as scores (`score_question`)
    when a graded metric was paired without a threshold, else as pass/fail (`question`)."""
    if paired.scores:
        from calculator.logs.scores import analyze_log_scores

        return analyze_log_scores(paired, **(score_question or ScoreQuestion()).compare_options())
    from calculator.logs import analyze_logs

    options = (question or Question()).analyze_options()
    return analyze_logs(paired, **options)
