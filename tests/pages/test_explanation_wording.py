"""The page's explanations say what the calculator computes.

The mid-p at b = c: the observed split is the least lopsided one, so every split of m is at
least as extreme and the two-sided mid-p is 1 - P[T = b]/2 (as `calculator.mcnemar` computes:
at b = c = 5, 1 - C(10, 5)/2^11 = 1 - 252/2048 = 0.876953125).
"""

from __future__ import annotations

from calculator import mcnemar_exact
from ui.explanations import SECTIONS


def _texts() -> list[str]:
    return [item for _, items in SECTIONS for item in items if isinstance(item, str)]


def test_mid_p_at_equal_split_is_described_as_computed():
    text = next(t for t in _texts() if "when b = c" in t)
    assert "the only one as extreme" not in text
    assert "every split" in text and "at least as extreme" in text
    assert mcnemar_exact(5, 5, convention="mid-p").pvalue == 1 - 252 / 2048


def test_non_significant_is_not_called_finding_no_difference():
    from ui.decision_words import DECISION_EXPLANATION

    text = " ".join(DECISION_EXPLANATION.split())
    assert "finds no difference" not in text
    assert "finds no significant difference" in text


def test_mid_p_test_is_not_named_exact_in_the_operating_characteristics():
    from calculator.teaching.operating import OC_TESTS

    assert "exact" not in OC_TESTS["mid-p"].lower().replace("not an exact", "")
