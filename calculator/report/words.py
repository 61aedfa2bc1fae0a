"""The one way in to a result's words: :func:`text` words it, :func:`payload` gives its JSON.

The result types (:class:`~calculator.Analysis`, :class:`~calculator.Decision`,
:class:`~calculator.ScoresComparison`, the plans) hold numbers only and their ``to_dict()`` is
numbers only; this module adds the words, so the page's download and the command line's JSON
quote the same sentence for the same result, and no number module imports this package.

Examples
--------
>>> from calculator import analyze
>>> result = analyze(5, 10, 4, 3)
>>> text(result.decision) == payload(result)["decision"]["sentence"]
True
>>> payload(result)["report"] == text(result)
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import singledispatch
from typing import TYPE_CHECKING

from calculator.analysis import Analysis
from calculator.anytime import AnytimeAnalysis
from calculator.decision import Decision
from calculator.errors import CalculatorTypeError
from calculator.monitor import Monitor
from calculator.report.analysis import analysis_report
from calculator.report.anytime import anytime_sentence, monitor_sentence, sequence_sentence
from calculator.report.decision import decision_sentence, named_test
from calculator.report.reconcile import reconciliation

if TYPE_CHECKING:
    from calculator.scores.compare import ScoresComparison
    from calculator.scores.margin import MarginDecision

__all__ = ["payload", "reconciliation_of", "text"]


@singledispatch
def text(result: object) -> str:
    """The words of `result`: a report for an analysis or a comparison, a sentence otherwise."""
    words = _registered_late(text, result)
    if words is None:
        raise CalculatorTypeError(f"no words for {type(result).__name__}")
    return words(result)


@text.register
def _(result: Analysis) -> str:
    return analysis_report(result)


@text.register
def _(result: Decision) -> str:
    return decision_sentence(result)


@text.register
def _(result: AnytimeAnalysis) -> str:
    sequence = sequence_sentence(result.sequence, result.names, result.framing)
    return f"{anytime_sentence(result)} {sequence}"


@text.register
def _(result: Monitor) -> str:
    return monitor_sentence(result)


def reconciliation_of(analysis: Analysis) -> str | None:
    """The sentence when the interval and the binomial test disagree at the interval's level,
    else None (:func:`calculator.report.reconcile.reconciliation`)."""
    return reconciliation(analysis.difference, analysis.binomial)


@singledispatch
def payload(result: object) -> dict[str, object]:
    """``result.to_dict()`` with its words under the keys the JSON has always had them."""
    json = _registered_late(payload, result)
    if json is None:
        raise CalculatorTypeError(f"no JSON for {type(result).__name__}")
    return json(result)


@payload.register
def _(result: Analysis) -> dict[str, object]:
    return {
        **result.to_dict(),
        "reconciliation": reconciliation_of(result),
        "report": text(result),
        "decision": payload(result.decision),
    }


@payload.register
def _(result: Decision) -> dict[str, object]:
    # "test": the test's name, as the JSON has always had it beside the codes.
    return {**result.to_dict(), "test": named_test(result), "sentence": text(result)}


@payload.register
def _(result: AnytimeAnalysis) -> dict[str, object]:
    return {**result.to_dict(), "sentence": text(result)}


@payload.register
def _(result: Monitor) -> dict[str, object]:
    return {**result.to_dict(), "sentence": text(result)}


#: Held while the words of the plans and the scores' comparisons are registered, and whether
#: they are.
_LATE_LOCK = threading.Lock()
_LATE_DONE: list[bool] = []


def _registered_late(function: Callable, result: object) -> Callable | None:
    """`function`'s words for `result`'s type once the words registered late are in place
    (:func:`_register_late`), or None when it has none."""
    with _LATE_LOCK:
        if not _LATE_DONE:
            _register_late()
            _LATE_DONE.append(True)
    found = function.dispatch(type(result))
    return None if found is function.registry[object] else found


def _register_late() -> None:
    """Register the words of the results the calculator page never words: the plans and the
    scores' comparisons.

    Their types' modules (:mod:`calculator.planning`, :mod:`calculator.scores`) are imported
    when a result first finds no words, not with this module, which the calculator page's
    first run imports: the page then imports only what it draws (issue 37: a server's cold
    start).
    """
    from calculator.planning.design import PowerPlan
    from calculator.planning.noninferiority import NonInferiorityPlan
    from calculator.report import planning as plan_words
    from calculator.report import scores as score_words
    from calculator.scores.compare import ScoresComparison
    from calculator.scores.margin import MarginDecision

    # Each looked up when called, as the functions registered above are.
    text.register(ScoresComparison, lambda result: score_words.scores_report(result))
    text.register(MarginDecision, lambda result: score_words.margin_sentence(result))
    text.register(PowerPlan, lambda result: plan_words.power_plan_sentence(result))
    text.register(
        NonInferiorityPlan, lambda result: plan_words.noninferiority_plan_sentence(result)
    )
    payload.register(MarginDecision, _with_sentence)
    payload.register(ScoresComparison, _scores_payload)


def _with_sentence(result: MarginDecision) -> dict[str, object]:
    return {**result.to_dict(), "sentence": text(result)}


def _scores_payload(result: ScoresComparison) -> dict[str, object]:
    margin = None if result.margin is None else payload(result.margin)
    return {**result.to_dict(), "margin": margin, "report": text(result)}
