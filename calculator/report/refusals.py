"""The words of a refused option (:class:`calculator.chooser.OptionRefused`), for every surface.

The chooser refuses an option by its code; each surface names its options in its own words
(the command line by its flags, the page by its widgets' labels) and passes those names to
:func:`refusal_text`. The names are a mapping from a key to the words:

- an option's code: "alternative", "margin", "equivalence", "gate", "better", "resamples",
  "alpha", "anytime" (``--margin``, or "a margin" on the page);
- a value of an option, to be left out or given: "alternative greater", "alternative less",
  "better lower", "better higher" (``--alternative less``, or "the question “worse”");
- "margin DELTA", a margin to give (``--margin DELTA (0.01 is one percentage point)``), and
  "DELTA", the margin in a sentence (``DELTA``, or "the margin");
- "margin typed" and "margin hint": the margin as typed and what follows its refusal as a
  release gate's (the command line quotes the text typed and says how points are written).

A sentence starting with a name starts with a capital letter.

Examples
--------
>>> from calculator.chooser import Ask, Shape, choose
>>> try:
...     choose(Shape(), Ask(alternative="less", margin=0.02))
... except Exception as error:
...     print(refusal_text(error, {"margin": "a margin"})[:59])
A margin asks whether B is no worse than A by more than the
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from calculator.report.gate import too_wide_for_a_gate

if TYPE_CHECKING:
    from calculator.chooser import OptionRefused

__all__ = ["refusal_text"]

_DEFAULT_NAMES = {
    "alternative": "the alternative",
    "alternative greater": "the alternative greater",
    "alternative less": "the alternative less",
    "margin": "the margin",
    "margin DELTA": "a margin",
    "DELTA": "the margin",
    "equivalence": "equivalence",
    "gate": "the release gate",
    "better": "the direction of better scores",
    "better lower": "lower scores better",
    "better higher": "higher scores better",
    "resamples": "the number of resamples",
    "alpha": "α",
    "anytime": "the anytime-valid gate",
}

_TEMPLATES = {
    ("better", "pass-fail"): "{better} says which scores are better; pass/fail outcomes are "
    "compared by pass rate, where passing is better",
    ("resamples", "pass-fail"): "{resamples} sets the resamples of the scores' bootstrap and "
    "permutation test; pass/fail outcomes are tested exactly (McNemar's tests), with nothing "
    "resampled",
    ("equivalence", "needs-margin"): "{equivalence} needs {margin DELTA}",
    ("margin", "needs-margin"): "the question “non-inferior” needs {margin DELTA}",
    ("margin", "with-less"): "{margin} asks whether B is no worse than A by more than {DELTA}; "
    "it does not go with {alternative less}",
    ("gate", "equivalence-or-greater"): "{gate} gates on B being worse, or with {margin} on B "
    "being non-inferior; leave out {equivalence} and {alternative greater}",
    ("alternative", "greater-with-margin"): "{alternative greater} with {margin} asks whether B "
    "is better than A by more than {DELTA}; on scores {margin} answers non-inferiority only (is "
    "B no worse than A by more than {DELTA}?): leave out {alternative greater}",
    ("equivalence", "scores"): "{equivalence} is for pass/fail outcomes; with scores give "
    "{margin} only",
    ("margin", "lower-is-better"): "{margin} answers non-inferiority for higher-is-better "
    "scores only; with {better lower} leave it out",
    ("alternative", "gate-toward-better"): "{gate} gates on B being worse; with {direction} "
    "scores better, leave out {alternative toward}",
    ("alpha", "one-sided-at-half"): "{alpha} must be below 0.5 with {margin} or a one-sided "
    "{alternative} (the interval is then at 1 − 2α)",
    ("better", "unstated-for-gate"): "{gate}: {name} reads as a score where lower is better (an "
    "error rate, loss or distance), but the gate takes higher scores as better; say which with "
    "{better lower} (or {better higher})",
    ("gate", "unequal-repeats"): "{gate} gates on the sign-flip test of the paired scores; task "
    "{name} has different numbers of repeats in A and B, where that test is not exact: give "
    "both logs the same epochs to gate",
    ("margin", "gate-no-range"): "{margin} {score margin}: every score is {low}, so a gate's "
    "margin has no range of scores to be judged against; leave out {margin} (the gate then "
    "fails only when B is significantly worse)",
    ("margin", "gate-over-half-range"): "{margin} {score margin} lets the gate pass B's mean "
    "score up to {score margin} below A's, more than half the range the scores span ({low} to "
    "{high}, so at most {limit}), the most a release gate takes on scores; the margin is in "
    "the scores' own units",
    ("anytime", "needs-gate"): "{anytime} chooses the test of {gate}; it needs {gate}",
    ("anytime", "prior-without-anytime"): "the mixture of the anytime-valid test is set, but "
    "not {anytime}, the one test that takes it: give {anytime} too, or leave the mixture out",
    ("anytime", "with-margin"): "{anytime} fails when B is worse than A by the one-sided "
    "anytime-valid test of the disagreements' split, which has no form with a margin here: "
    "leave out {margin}, or {anytime} to gate on non-inferiority at a fixed number of cases",
    ("anytime", "not-one-sequence"): "{anytime} treats each case as one independent pair, seen "
    "once, but these cases have {name}: the anytime-valid test of the split does not hold "
    "for them; leave out {anytime}",
    ("anytime", "scores"): "{anytime} is for pass/fail outcomes (a test of the split of the "
    "cases where one system passes and the other fails); scores are compared by their means: "
    "leave out {anytime}, or cut the scores with a threshold",
}


def refusal_text(refused: OptionRefused, option_names: Mapping[str, str]) -> str:
    """The refusal of `refused` in a surface's words: `option_names` maps the keys of this
    module's docstring to that surface's names (a key left out takes plain words)."""
    names = {**_DEFAULT_NAMES, **option_names}
    ask = refused.ask
    if refused.reason == "too-wide-for-gate":
        typed = names.get("margin typed") or f"{names['margin']} {ask.margin:.10g}"
        return _capital(f"{typed} {too_wide_for_a_gate(ask.margin)}{names.get('margin hint', '')}")
    fields = dict(names)
    fields["score margin"] = f"{ask.margin:g}" if ask.margin is not None else ""
    detail = refused.detail
    if refused.reason in ("unstated-for-gate", "unequal-repeats"):
        fields["name"] = repr(detail)
    elif refused.reason == "not-one-sequence":
        fields["name"] = {"tasks": "several tasks", "repeats": "repeated questions"}.get(
            detail, detail
        )
    elif refused.reason == "gate-toward-better":
        fields["direction"] = detail[0]
        fields["alternative toward"] = names[f"alternative {detail[1]}"]
    elif refused.reason == "gate-no-range":
        fields["low"] = f"{detail:g}"
    elif refused.reason == "gate-over-half-range":
        low, high, limit = detail
        fields.update(low=f"{low:g}", high=f"{high:g}", limit=f"{limit:.6g}")
    key = (refused.option, refused.reason)
    # One pass: a name from a log or file that holds braces is never read as a field.
    return _capital(re.sub(r"\{([^{}]+)\}", lambda found: fields[found[1]], _TEMPLATES[key]))


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]
