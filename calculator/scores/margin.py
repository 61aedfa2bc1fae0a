"""Non-inferiority of B on the mean score: the t interval for A - B against the margin.

The release question of :mod:`calculator.decision`, asked of a mean score instead of a pass
rate, and answered by where the interval lies (the same rule the pass/fail decision follows):

Every difference here is A - B (positive: A's mean is higher), the direction of the comparison's
headline and of the pass/fail decision.

- entirely below +margin: B is shown non-inferior ("non-inferior");
- entirely above +margin: B is shown worse by more than the margin ("worse-beyond-margin");
- above 0 but reaching across +margin: B is shown worse, by an amount the cases do not settle
  ("worse-unsettled");
- reaching from above +margin to 0 or below: nothing is shown, neither a difference nor
  non-inferiority ("not-shown");
- no interval (t undefined): "undetermined".

The interval is the two-sided t interval at the comparison's level, so "below +margin" is the
one-sided t test of H0: mean(A - B) >= margin at alpha = (1 - level)/2 (a 95% interval, a
2.5% one-sided test, as in ICH E9 and CONSORT's non-inferiority extension).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from calculator.scores.ttest import PairedTTest, one_sided_margin_pvalue
from calculator.significance import pvalue_rejects

__all__ = ["MARGIN_OUTCOMES", "MarginDecision", "margin_decision"]

#: The answers of :func:`margin_decision`, in the order of the module's rule.
MARGIN_OUTCOMES = (
    "non-inferior",
    "worse-beyond-margin",
    "worse-unsettled",
    "not-shown",
    "undetermined",
)


# Not slotted, so that setting the `sentence` property raises FrozenInstanceError (see
# calculator.analysis.Analysis).
@dataclass(frozen=True, kw_only=True)
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
        mean(A - B), the observed difference, as the comparison's headline gives it.
    low, high : float or None
        The t interval for mean(A - B) at `confidence_level`; None when undetermined.
    confidence_level : float
    pvalue : float or None
        One-sided t test of H0: mean(A - B) >= margin.
    alpha : float
        (1 - confidence_level) / 2 to 12 significant figures (0.05 for a 90% interval, not
        0.04999999999999999): B is non-inferior when pvalue <= alpha.
    names : (str, str)
        The names of A and B, for the words.
    undefined : str or None
        Why the t interval is undefined, for the words ("undetermined").

    The answer in words is ``calculator.report.words.text(decision)``.
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
    names: tuple[str, str] = ("A", "B")
    undefined: str | None = None

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types; the interval is for mean(A - B). The names and the reason are the
        comparison's, not repeated here; :func:`calculator.report.words.payload` adds the words."""
        numbers = {
            field.name: getattr(self, field.name)
            for field in fields(self)
            if field.name not in ("names", "undefined")
        }
        return {**numbers, "of": "mean(A - B)"}


def margin_decision(
    test: PairedTTest, estimate: float, margin: float, names: tuple[str, str]
) -> MarginDecision:
    """Decide non-inferiority of B from the paired t test of A - B (`estimate` its mean)."""
    level = test.confidence_level
    # (1 - 0.9) / 2 is 0.04999999999999999 in floating point: 12 significant figures give back
    # the level asked for (0.05, 1e-05), and move alpha by at most 5e-13 of itself.
    alpha = float(f"{(1.0 - level) / 2.0:.12g}")
    pvalue = one_sided_margin_pvalue(test, estimate, margin)
    ci = test.confidence_interval
    if ci is None or pvalue is None:
        low = high = None
        outcome = "undetermined"
    else:
        low, high = ci.low, ci.high  # A - B
        if pvalue_rejects(pvalue, alpha) and high < margin:
            outcome = "non-inferior"
        elif low > margin:
            outcome = "worse-beyond-margin"
        elif low > 0:
            outcome = "worse-unsettled"
        else:
            outcome = "not-shown"
    return MarginDecision(
        margin=margin,
        outcome=outcome,
        non_inferior=outcome == "non-inferior",
        estimate=estimate,
        low=low,
        high=high,
        confidence_level=level,
        pvalue=pvalue,
        alpha=alpha,
        names=names,
        undefined=test.undefined,
    )
