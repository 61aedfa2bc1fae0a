"""Words for the odds ratio and the reconciliation note of the calculator page (pure).

The odds ratio is b/c, A over B: the odds that a case on which the systems disagree is one that
only A passes (in the classifier framing, one that only A gets right).
"""

from __future__ import annotations

from calculator import OddsRatio
from calculator.report.formatting import format_confidence, format_ratio
from ui.words import Wording

__all__ = ["ODDS_RATIO_HELP", "odds_ratio_label", "odds_ratio_sentence"]

ODDS_RATIO_HELP = (
    "b/c: how many discordant cases favour A for each one that favours B. Its interval is "
    "exact given the number of discordant cases (Clopper-Pearson on b out of b + c; mid-p with "
    "the mid-p convention), so it excludes 1 exactly when the exact (or mid-p) test rejects at "
    "the same level. GraphPad, OpenEpi and Stata's mcci report this interval."
)


def odds_ratio_label(wording: Wording) -> str:
    """ "Odds ratio A : B on the discordant cases" with the page's names."""
    return f"Odds ratio {wording.name_a} : {wording.name_b} on the discordant {wording.unit}"


def odds_ratio_sentence(wording: Wording, odds: OddsRatio) -> str:
    """The estimate and its interval in words, infinite or undefined ends said as such.

    Examples
    --------
    >>> from calculator import odds_ratio
    >>> odds_ratio_sentence(Wording(), odds_ratio(4, 12))
    '0.333 (95% CI 0.0784 to 1.10, exact conditional)'
    >>> odds_ratio_sentence(Wording(), odds_ratio(5, 0))
    'infinite: all discordant tasks favour A (95% CI 0.916 to ∞, exact conditional)'
    >>> odds_ratio_sentence(Wording(), odds_ratio(0, 0))
    'undefined: no discordant tasks'
    """
    if odds.estimate is None:
        return f"undefined: no discordant {wording.unit}"
    method = "exact conditional" if odds.method == "exact" else "mid-p"
    limits = f"{format_ratio(odds.low)} to {format_ratio(odds.high)}"
    interval = f"{format_confidence(odds.level)} CI {limits}, {method}"
    if odds.estimate == float("inf"):
        return f"infinite: all discordant {wording.unit} favour {wording.name_a} ({interval})"
    return f"{format_ratio(odds.estimate)} ({interval})"
