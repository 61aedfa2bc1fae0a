"""Non-inferiority of B on the mean score: the t interval for B - A against minus the margin.

The release question of :mod:`calculator.decision`, asked of a mean score instead of a pass
rate, and answered by where the interval lies (the same rule the pass/fail decision follows):

- entirely above -margin: B is shown non-inferior ("non-inferior");
- entirely below -margin: B is shown worse by more than the margin ("worse-beyond-margin");
- below 0 but reaching across -margin: B is shown worse, by an amount the cases do not settle
  ("worse-unsettled");
- reaching from below -margin to 0 or above: nothing is shown, neither a difference nor
  non-inferiority ("not-shown");
- no interval (t undefined): "undetermined".

The interval is the two-sided t interval at the comparison's level, so "above -margin" is the
one-sided t test of H0: mean(B - A) <= -margin at alpha = (1 - level)/2 (a 95% interval, a
2.5% one-sided test, as in ICH E9 and CONSORT's non-inferiority extension).
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass

from calculator.formatting import format_confidence, format_p_equals
from calculator.scores.numbers import format_score
from calculator.scores.ttest import PairedTTest, one_sided_margin_pvalue

__all__ = ["MARGIN_OUTCOMES", "MarginDecision", "margin_decision"]

#: The answers of :func:`margin_decision`, in the order of the module's rule.
MARGIN_OUTCOMES = (
    "non-inferior",
    "worse-beyond-margin",
    "worse-unsettled",
    "not-shown",
    "undetermined",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class MarginDecision:
    """Non-inferiority of B at a margin. Build it with :func:`margin_decision`.

    Attributes
    ----------
    margin : float
        In the scores' units: the largest drop of B's mean below A's still accepted.
    outcome : str
        One of :data:`MARGIN_OUTCOMES`.
    non_inferior : bool
        True only for "non-inferior".
    estimate : float
        mean(B - A), the observed difference the other way round.
    low, high : float or None
        The t interval for mean(B - A) at `confidence_level`; None when undetermined.
    confidence_level : float
    pvalue : float or None
        One-sided t test of H0: mean(B - A) <= -margin.
    alpha : float
        (1 - confidence_level) / 2: B is non-inferior when pvalue <= alpha.
    sentence : str
        The answer in words.
    """

    margin: float
    outcome: str
    non_inferior: bool
    estimate: float
    low: float | None
    high: float | None
    confidence_level: float
    pvalue: float | None
    alpha: float
    sentence: str

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types; the interval is for mean(B - A)."""
        return {**asdict(self), "of": "mean(B - A)"}


def margin_decision(
    test: PairedTTest, estimate: float, margin: float, names: tuple[str, str]
) -> MarginDecision:
    """Decide non-inferiority of B from the paired t test of A - B (`estimate` its mean)."""
    level = test.confidence_level
    alpha = (1.0 - level) / 2.0
    pvalue = one_sided_margin_pvalue(test, estimate, margin)
    ci = test.confidence_interval
    if ci is None or pvalue is None:
        low = high = None
        outcome = "undetermined"
    else:
        low, high = -ci.high, -ci.low  # B - A
        if pvalue <= alpha and low > -margin:
            outcome = "non-inferior"
        elif high < -margin:
            outcome = "worse-beyond-margin"
        elif high < 0:
            outcome = "worse-unsettled"
        else:
            outcome = "not-shown"
    decision = MarginDecision(
        margin=margin,
        outcome=outcome,
        non_inferior=outcome == "non-inferior",
        estimate=-estimate,
        low=low,
        high=high,
        confidence_level=level,
        pvalue=pvalue,
        alpha=alpha,
        sentence="",
    )
    return dataclasses.replace(decision, sentence=_sentence(decision, names, test.undefined))


def _sentence(decision: MarginDecision, names: tuple[str, str], undefined: str | None) -> str:
    name_a, name_b = names
    margin = decision.margin
    delta = f"{margin:g}"
    if decision.outcome == "undetermined":
        return (
            f"Non-inferiority of {name_b} at a margin of {delta} is not decided: the paired t "
            f"interval it rests on is undefined: {undefined}."
        )
    keep = (-margin, 0.0)
    low = format_score(decision.low, keep)  # type: ignore[arg-type]
    high = format_score(decision.high, keep)  # type: ignore[arg-type]
    interval = (
        f"the {format_confidence(decision.confidence_level)} t interval for {name_b}'s mean "
        f"score minus {name_a}'s, {low} to {high},"
    )
    test = (
        "one-sided paired t test of non-inferiority, "
        f"{format_p_equals(decision.pvalue, alpha=decision.alpha)}, α = {decision.alpha:g}"
    )
    if decision.outcome == "non-inferior":
        return (
            f"These cases show that {name_b} is not worse than {name_a} by more than {delta}: "
            f"{interval} lies above -{delta} ({test})."
        )
    if decision.outcome == "worse-beyond-margin":
        return (
            f"These cases show that {name_b} is worse than {name_a} by more than {delta}: "
            f"{interval} lies entirely below -{delta} ({test})."
        )
    if decision.outcome == "worse-unsettled":
        return (
            f"These cases show that {name_b} is worse than {name_a}, by an amount they do not "
            f"settle: {interval} lies below 0 but reaches across -{delta}, so {name_b} is not "
            f"shown non-inferior at a margin of {delta} ({test})."
        )
    return (
        f"{name_b} is not shown to be non-inferior to {name_a} at a margin of {delta}: "
        f"{interval} reaches below -{delta} and up to 0 or above ({test}). No difference is "
        f"shown either way; these cases cannot rule out a drop of {delta} or more."
    )
