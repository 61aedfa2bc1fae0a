"""The classifier framing words each sentence in one measure and one sign (review 4, framing).

Before: "B's accuracy is 10.0 points lower than A's (…; the 90% Agresti-Min interval for the
error-rate difference A − B, -17.0 to -2.6 points)" put two measures of opposite signs in one
sentence; the headline's "5 wrong only for A and 15 only for B" had no verb; and "a drop of 5
points or more is not ruled out" left open whether the error rate or the accuracy drops. The
interval is printed as the error-rate difference A − B (the headline's), so the finding beside it
is said in error rate too; the figures are the library's (60, 15, 5, 20: A wrong on 25, B on 35).
"""

from __future__ import annotations

from calculator import analyze
from calculator.report.words import text


def test_the_finding_beside_an_error_rate_interval_is_an_error_rate():
    sentence = text(analyze(60, 15, 5, 20, framing="correct", alternative="less").decision)
    assert "B's error rate is 10.0 points higher than A's" in sentence
    assert "error-rate difference A − B, -17.0 to -2.6 points" in sentence
    assert "accuracy is" not in sentence
    # the pass framing keeps its own single measure
    sentence = text(analyze(60, 15, 5, 20, alternative="less").decision)
    assert "B's pass rate is 10.0 points lower than A's" in sentence
    assert "pass-rate difference A − B, +2.6 to +17.0 points" in sentence


def test_the_headline_split_has_a_verb():
    report = text(analyze(60, 5, 15, 20, framing="correct"))
    assert "Of the 20 cases where they disagree, A alone is wrong on 15 and B alone on 5;" in (
        report
    )


def test_a_margin_not_ruled_out_names_who_is_worse():
    for framing in ("pass", "correct"):
        sentence = text(analyze(60, 15, 5, 20, framing=framing, margin=0.05).decision)
        assert "a drop of" not in sentence
        assert "so B being worse than A by 5 points or more is not ruled out" in sentence


def test_equivalence_findings_say_the_error_rate_with_its_own_way():
    sentence = text(
        analyze(60, 15, 5, 20, framing="correct", margin=0.05, question="equivalent").decision
    )
    assert "B's error rate is higher than A's, by an amount these cases do not settle" in sentence
    sentence = text(analyze(60, 15, 5, 20, margin=0.05, question="equivalent").decision)
    assert "B's pass rate is lower than A's, by an amount these cases do not settle" in sentence
