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

import importlib
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
    words = _later(_TEXT_LATER, result)
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
    json = _later(_PAYLOAD_LATER, result)
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


def _later(table: dict[tuple[str, str], tuple[str, str]], result: object) -> Callable | None:
    """The function in `table` for `result`'s type or the nearest of its bases, imported now,
    or None when it has none."""
    for kind in type(result).__mro__:
        where = table.get((kind.__module__, kind.__qualname__))
        if where is not None:
            module, name = where
            return getattr(importlib.import_module(module), name)
    return None


def _with_sentence(result: MarginDecision) -> dict[str, object]:
    return {**result.to_dict(), "sentence": text(result)}


def _scores_payload(result: ScoresComparison) -> dict[str, object]:
    margin = None if result.margin is None else payload(result.margin)
    return {**result.to_dict(), "margin": margin, "report": text(result)}


# The words of the results the calculator page never words (the plans, the scores'
# comparisons), by their type's module and name: the module and the function that word them.
# Found when a result's type has no words registered above, and imported then, so that the
# page, which imports this module, imports neither the planning nor the scores package (issue
# 37: a server's cold start). The registrations above are all made at import, never later.
_TEXT_LATER = {
    ("calculator.planning.design", "PowerPlan"): (
        "calculator.report.planning",
        "power_plan_sentence",
    ),
    ("calculator.planning.noninferiority", "NonInferiorityPlan"): (
        "calculator.report.planning",
        "noninferiority_plan_sentence",
    ),
    ("calculator.scores.compare", "ScoresComparison"): (
        "calculator.report.scores",
        "scores_report",
    ),
    ("calculator.scores.margin", "MarginDecision"): (
        "calculator.report.scores",
        "margin_sentence",
    ),
}
_PAYLOAD_LATER = {
    ("calculator.scores.compare", "ScoresComparison"): (__name__, "_scores_payload"),
    ("calculator.scores.margin", "MarginDecision"): (__name__, "_with_sentence"),
}
