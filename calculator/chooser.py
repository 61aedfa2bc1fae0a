"""The one chooser: from the data's shape and the question asked, the test that answers it.

Every surface (the command line's ``table`` and ``cases``, the per-case page's sections) builds
an :class:`Ask` from its inputs; the workflow takes the :class:`Shape` that the data model
declares (:attr:`calculator.paired_data.PairedData.shape`) and calls :func:`choose`, which
either returns the :class:`Choice` (the method and the options it applies) or raises
:class:`OptionRefused`, naming by code the option the chosen test cannot answer and why. No
option is ever dropped on the way: one the test does not take is refused here, once for every
surface. This is a number module: the words of a refusal are
:func:`calculator.report.refusals.refusal_text`, each surface giving its own names for the
options.

The rule, in order (the first that applies refuses):

=============  ====================================  ==========================================
outcome        refused (option, reason)              when
=============  ====================================  ==========================================
any            anytime, prior-without-anytime        `anytime_prior` without `anytime`
pass/fail      better, pass-fail                     `better` given
pass/fail      resamples, pass-fail                  `resamples` given
any            equivalence, needs-margin             equivalence without a margin
any            margin, needs-margin                  "non-inferior" without a margin
any            margin, with-less                     a margin with the alternative "less"
pass/fail      margin, too-wide-for-gate             a gate with a margin over 10 points
pass/fail      gate, equivalence-or-greater          a gate on equivalence or on "greater"
pass/fail      anytime, needs-gate                   `anytime` without a gate
pass/fail      anytime, with-margin                  `anytime` with a margin
pass/fail      anytime, not-one-sequence             `anytime` with clusters, several tasks or
                                                     repeats (detail: which)
scores         alternative, greater-with-margin      "greater" with a margin
scores         equivalence, scores                   equivalence
scores         margin, lower-is-better               a margin with lower scores better
scores         alternative, gate-toward-better       a gate with the one-sided test toward better
scores         alpha, one-sided-at-half              alpha >= 0.5 with a margin or one side
scores         better, unstated-for-gate             a gate on a lower-is-better name, `better`
                                                     not given
scores         margin, gate-no-range                 a gate's margin where every score is one
scores         margin, gate-over-half-range          a gate's margin over half the scores' range
scores         gate, unequal-repeats                 a gate where A and B repeat a question a
                                                     different number of times
scores         anytime, scores                       `anytime` (a gate by the anytime-valid
                                                     test of the discordant split)
=============  ====================================  ==========================================

The method: "by-question" with repeats of one task, "stratified-by-question" with repeats
of several tasks, "stratified" with several tasks, "cluster" with a group column, else "exact"
(:func:`calculator.stratified.suite_method`); scores: "scores-stratified" (several tasks: every
question counted once, stratified by task), "scores-by-question", "scores-cluster", "scores".

Several tasks (a suite) are answered, every question and the gate, over all the suite's
questions, each counted once: the task-stratified exact McNemar test is the exact test of the
tasks' summed table (:mod:`calculator.stratified` proves it), and with repeats each question
is a cluster of its repeats within its task. The task-clustered test, which asks whether a
lead would carry over to other tasks, is shown beside it for contrast, never as the answer.

Examples
--------
>>> choose(Shape(), Ask(alternative="greater")).method
'exact'
>>> choose(Shape(tasks=3), Ask(margin=0.02, gate=True)).method
'stratified'
>>> choose(Shape(), Ask(margin=0.2, gate=True))
Traceback (most recent call last):
...
calculator.chooser.OptionRefused: margin refused: too-wide-for-gate
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from calculator.decision import decision_level
from calculator.errors import CalculatorError
from calculator.release import gate_margin_too_wide
from calculator.stratified import suite_method

__all__ = [
    "Ask",
    "Choice",
    "LOWER_IS_BETTER_WORDS",
    "OptionRefused",
    "SCORE_GATE_RANGE_SHARE",
    "Shape",
    "choose",
    "reads_lower_is_better",
]

PASS_FAIL = "pass/fail"
SCORES = "scores"
#: The question each name asks, as an alternative of the test ("non-inferior" and
#: "equivalent" are asked by the margin, with the alternative left two-sided).
_QUESTION_SIDE = {"better": "greater", "worse": "less"}

#: Largest share of the range the scores span a release gate on scores takes as its margin.
SCORE_GATE_RANGE_SHARE = 0.5

#: Words that make a score's name read as lower-is-better (error rates, losses, distances).
LOWER_IS_BETTER_WORDS = frozenset(
    {
        *("wer", "cer", "ter", "mer", "error", "errors", "err", "loss", "nll"),
        *("perplexity", "ppl", "bpb", "bits_per_byte", "ece", "brier", "toxicity", "toxic"),
        *("latency", "mae", "mse", "rmse", "distance", "edit_distance"),
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Shape:
    """What was read, as far as the choice of test goes.

    `outcome` "pass/fail" or "scores"; `tasks` the number of tasks (1 for a per-case file or a
    table); `repeats` "none", "equal" or "unequal" (A and B repeat some question a different
    number of times); `clusters` whether a group column groups the cases. `score_names` are
    the names of the scores compared (columns, or a log's metric), `uneven_task` the first task
    with unequal repeats: what a refusal names. `score_range` the smallest and largest score
    of A's and B's (None: no finite score), which bounds a release gate's margin on scores.
    `better` which scores are better as the data's source states it ("lower" or "higher":
    lm-eval's results file; None: unsaid), taken when `Ask.better` is not given.
    """

    outcome: str = PASS_FAIL
    tasks: int = 1
    repeats: str = "none"
    clusters: bool = False
    score_names: tuple[str, ...] = ()
    uneven_task: str | None = None
    score_range: tuple[float, float] | None = None
    better: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Ask:
    """Everything asked of a comparison, on any surface.

    `alpha` the level; `alternative` the test's side ("two-sided", "greater": B higher,
    "less"); `margin` a share of pass rate for pass/fail, the scores' own units for scores;
    `question` a question's name when the alternative and the margin do not say it
    ("equivalent"; the page says every question by its name); `gate` whether a release gate is
    asked; `better` which scores are better (None: not said; higher is taken); `resamples` and
    `seed` the scores' resampling. `anytime` whether the gate is to decide by the one-sided
    anytime-valid test (:mod:`calculator.anytime`), valid however often it is re-run, with
    `anytime_prior` the shape of its mixture.
    """

    alpha: float = 0.05
    alternative: str = "two-sided"
    margin: float | None = None
    question: str | None = None
    gate: bool = False
    better: str | None = None
    resamples: int | None = None
    seed: int = 0
    anytime: bool = False
    #: k of the anytime-valid test's Beta(k, k) mixture (1: uniform).
    anytime_prior: float = 1.0

    @property
    def side(self) -> str:
        """The test's side: the alternative, or the one a question's name implies."""
        if self.alternative != "two-sided" or self.question is None:
            return self.alternative
        return _QUESTION_SIDE.get(self.question, "two-sided")

    @property
    def equivalence(self) -> bool:
        """Whether equivalence is asked."""
        return self.question == "equivalent"

    def analyze_options(self) -> dict[str, object]:
        """The keywords of :func:`calculator.analyze` and :func:`calculator.decide`.

        Examples
        --------
        >>> Ask(alternative="greater").analyze_options()
        {'alpha': 0.05, 'alternative': 'greater', 'margin': None, 'question': None}
        """
        return {
            "alpha": self.alpha,
            "alternative": self.alternative,
            "margin": self.margin,
            "question": self.question,
        }

    def compare_options(self) -> dict[str, object]:
        """The keywords of :func:`calculator.compare_scores`; the interval's level follows
        the pass/fail decision's rule (:func:`calculator.decision.decision_level`).

        Examples
        --------
        >>> Ask(alternative="less").compare_options()["level"]
        0.9
        """
        side = self.side
        question = {"two-sided": "different", "greater": "better", "less": "worse"}[side]
        return {
            "level": decision_level(question, self.margin, self.alpha),
            "alternative": side,
            "margin": self.margin,
            "resamples": self.resamples,
            "seed": self.seed,
            "better": self.better or "higher",
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Choice:
    """The test chosen (`method`) and the question it answers, every option applied."""

    method: str
    ask: Ask

    def analyze_options(self) -> dict[str, object]:
        """The keywords of :func:`calculator.analyze` (pass/fail methods)."""
        return self.ask.analyze_options()

    def compare_options(self) -> dict[str, object]:
        """The keywords of :func:`calculator.compare_scores` (score methods)."""
        return self.ask.compare_options()


class OptionRefused(CalculatorError):
    """An option the chosen test cannot answer: `option` its code ("margin", "alternative",
    "equivalence", "gate", "better", "resamples", "alpha", "anytime"), `reason` why (a code),
    `detail` what the words need beyond the ask (a score's name, a task's name)."""

    def __init__(self, option: str, reason: str, ask: Ask, detail: object = None) -> None:
        super().__init__(f"{option} refused: {reason}")
        self.option, self.reason, self.ask, self.detail = option, reason, ask, detail


def reads_lower_is_better(name: str) -> bool:
    """Whether a score's name reads lower-is-better (``wer``, ``val_loss``, ``max_toxicity``).

    >>> reads_lower_is_better("val_loss"), reads_lower_is_better("accuracy")
    (True, False)
    """
    words = set(re.split(r"[^a-z0-9]+", str(name).lower()))
    words.add(re.sub(r"[^a-z0-9]+", "_", str(name).lower()).strip("_"))
    return bool(words & LOWER_IS_BETTER_WORDS)


def choose(shape: Shape, ask: Ask) -> Choice:
    """The test that answers `ask` of data of `shape`, or :class:`OptionRefused` for the first
    option it cannot answer (the rule in the module's docstring)."""
    if ask.anytime_prior != 1.0 and not ask.anytime:
        raise OptionRefused("anytime", "prior-without-anytime", ask, ask.anytime_prior)
    if shape.outcome == SCORES:
        _check_scores(shape, ask)
        if shape.tasks > 1:
            method = "scores-stratified"
        elif shape.repeats != "none":
            method = "scores-by-question"
        else:
            method = "scores-cluster" if shape.clusters else "scores"
        return Choice(method=method, ask=replace(ask, better=_better(shape, ask)))
    _check_pass_fail(ask)
    _check_anytime(shape, ask)
    method = suite_method(shape.tasks, shape.repeats != "none")
    if method == "exact" and shape.clusters:
        method = "cluster"
    return Choice(method=method, ask=ask)


def _better(shape: Shape, ask: Ask) -> str:
    """Which scores are better: `better` asked, else as the data's source states it (lm-eval's
    results file), else higher."""
    return ask.better or shape.better or "higher"


def _check_question(ask: Ask) -> None:
    """The refusals of every outcome: equivalence needs a margin, a margin is one-sided up."""
    if ask.equivalence and ask.margin is None:
        raise OptionRefused("equivalence", "needs-margin", ask)
    if ask.question == "non-inferior" and ask.margin is None:
        raise OptionRefused("margin", "needs-margin", ask)
    if ask.margin is not None and ask.side == "less":
        raise OptionRefused("margin", "with-less", ask)


def _check_pass_fail(ask: Ask) -> None:
    if ask.better is not None:
        raise OptionRefused("better", "pass-fail", ask)
    if ask.resamples is not None:
        raise OptionRefused("resamples", "pass-fail", ask)
    _check_question(ask)
    if ask.gate and gate_margin_too_wide(ask.margin):
        raise OptionRefused("margin", "too-wide-for-gate", ask, ask.margin)
    if ask.gate and (ask.equivalence or ask.side == "greater"):
        raise OptionRefused("gate", "equivalence-or-greater", ask)


def _check_scores(shape: Shape, ask: Ask) -> None:
    _check_question(ask)
    if ask.margin is not None and ask.side == "greater":
        raise OptionRefused("alternative", "greater-with-margin", ask)
    if ask.equivalence:
        raise OptionRefused("equivalence", "scores", ask)
    better = _better(shape, ask)
    if ask.margin is not None and better == "lower":
        raise OptionRefused("margin", "lower-is-better", ask)
    toward_better = "greater" if better == "higher" else "less"
    if ask.gate and ask.side == toward_better:
        raise OptionRefused("alternative", "gate-toward-better", ask, (better, toward_better))
    if (ask.margin is not None or ask.side != "two-sided") and ask.alpha >= 0.5:
        raise OptionRefused("alpha", "one-sided-at-half", ask)
    if ask.gate and ask.better is None and shape.better is None:
        name = next((n for n in shape.score_names if reads_lower_is_better(n)), None)
        if name is not None:
            raise OptionRefused("better", "unstated-for-gate", ask, name)
    if ask.gate and ask.margin is not None and shape.score_range is not None:
        low, high = shape.score_range
        if high == low:
            raise OptionRefused("margin", "gate-no-range", ask, low)
        limit = SCORE_GATE_RANGE_SHARE * (high - low)
        if ask.margin > limit:
            raise OptionRefused("margin", "gate-over-half-range", ask, (low, high, limit))
    if ask.gate and shape.repeats == "unequal":
        raise OptionRefused("gate", "unequal-repeats", ask, shape.uneven_task)
    if ask.anytime:
        raise OptionRefused("anytime", "scores", ask)


def _check_anytime(shape: Shape, ask: Ask) -> None:
    """The anytime-valid gate: one-sided, no margin, each case one independent pair, once."""
    if not ask.anytime:
        return
    if not ask.gate:
        raise OptionRefused("anytime", "needs-gate", ask)
    if ask.margin is not None:
        raise OptionRefused("anytime", "with-margin", ask)
    which = [
        what
        for what, present in (
            ("clusters", shape.clusters),
            ("tasks", shape.tasks > 1),
            ("repeats", shape.repeats != "none"),
        )
        if present
    ]
    if which:
        raise OptionRefused("anytime", "not-one-sequence", ask, which[0])
