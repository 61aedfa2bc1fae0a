"""One direction for every difference: A − B, on every surface (issue 30; statistics 4, C13).

The headline, the cards and the CLI table print the pass-rate difference A − B = (b − c)/n
(METHODS.md: positive means A passes more often). The decision printed A − B's mirror image,
"the 90% Tango interval for B's pass rate minus A's, -15.0 to -1.5 points", beside "+8.0 points"
in the same report, and its JSON said "of": "pB - pA". Now the decision's numbers, its JSON and
its sentence are in A − B too: its interval has the sign of the headline's estimate wherever it
excludes 0 (tables 60, 15, 5, 20 and 60, 5, 15, 20: A ahead by 10 points, then B ahead by 10,
and every 90% or 95% interval of either excludes 0).
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import analyze
from calculator.cli import main
from calculator.report.words import text

QUESTION_FLAGS = {
    "different": [],
    "better": ["--alternative", "greater"],
    "worse": ["--alternative", "less"],
    "non-inferior": ["--margin", "0.05"],
    "better by a margin": ["--alternative", "greater", "--margin", "0.05"],
    "equivalent": ["--equivalence", "--margin", "0.05"],
}
NUMBER = r"([+-]?\d+(?:\.\d+)?)"


def _run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("table", [("60", "15", "5", "20"), ("60", "5", "15", "20")])
@pytest.mark.parametrize("question", list(QUESTION_FLAGS))
def test_the_decisions_interval_has_the_headlines_direction_in_text_and_json(
    capsys, table, question
):
    flags = QUESTION_FLAGS[question]
    out = _run(capsys, "table", *table, *flags)
    data = json.loads(_run(capsys, "table", *table, *flags, "--json"))
    decision, difference = data["decision"], data["difference"]
    if question == "different":  # the text prints no decision for the default question
        assert "Question:" not in out
        out += decision["sentence"]
    headline = re.search(r"difference A − B of " + NUMBER + " points", out)
    line = re.search(r"difference A − B +" + NUMBER + " points", out)
    decided = re.search(
        r"interval for the pass-rate difference A − B, " + NUMBER + " to " + NUMBER + " points",
        out,
    )
    assert headline and line and decided, out
    estimate = float(headline[1])
    assert float(line[1]) == estimate and abs(estimate) == 10.0
    low, high = float(decided[1]), float(decided[2])
    assert low <= high
    assert (low > 0 and high > 0) == (estimate > 0) and (low < 0 and high < 0) == (estimate < 0)
    assert "minus A's" not in out and "B − A" not in out and "B - A" not in out

    assert decision["interval"]["of"] == "pA - pB"
    assert decision["estimate"] == pytest.approx(difference["estimate"], abs=1e-15)
    ends = (decision["interval"]["low"], decision["interval"]["high"])
    assert all((end > 0) == (difference["estimate"] > 0) for end in ends)
    assert f"{low:+.1f} to {high:+.1f} points" in decision["sentence"]


@settings(max_examples=150, deadline=None)
@given(
    cells=st.tuples(*[st.integers(0, 300)] * 4).filter(lambda t: sum(t) > 0),
    method=st.sampled_from(["newcombe", "tango", "agresti-min", "wald", "bonett-price"]),
    level=st.sampled_from([0.9, 0.95, 0.99]),
)
def test_a_two_sided_decision_estimates_b_minus_c_over_n_inside_its_interval(cells, method, level):
    a, b, c, d = cells
    analysis = analyze(a, b, c, d, ci_method=method, level=level, alpha=1 - level)
    decision = analysis.decision
    assert decision.question == "different" and decision.margin is None
    assert decision.estimate == (b - c) / (a + b + c + d)
    # The decision quotes the analysis' own interval, at its own level, in its direction.
    assert (decision.low, decision.high) == (analysis.difference.low, analysis.difference.high)
    if method in ("newcombe", "tango"):  # these always hold their estimate (Agresti-Min's and
        # Bonett-Price's adjusted centre can miss it with few cases, which the report says)
        assert decision.low <= decision.estimate <= decision.high


@settings(max_examples=150, deadline=None)
@given(
    cells=st.tuples(*[st.integers(0, 200)] * 4).filter(lambda t: sum(t) > 0),
    question=st.sampled_from(["non-inferior", "better", "equivalent"]),
    margin=st.sampled_from([0.01, 0.05, 0.2]),
)
def test_a_margin_decision_is_tangos_interval_turned_to_a_minus_b(cells, question, margin):
    from calculator.noninferiority import margin_test

    hypothesis = {
        "non-inferior": "non-inferiority",
        "better": "superiority",
        "equivalent": "equivalence",
    }[question]
    decision = analyze(*cells, question=question, margin=margin).decision
    tango = margin_test(*cells, margin=margin, hypothesis=hypothesis)
    assert decision.estimate == pytest.approx(-tango.estimate, abs=1e-15)
    assert (decision.low, decision.high) == (-tango.high, -tango.low)
    assert decision.statistic == -tango.statistic
    assert decision.reject == tango.reject
    # Shown exactly where the interval for A - B lies on the claim's side of the margin.
    if question == "non-inferior":
        assert decision.reject == (decision.high < margin)
    elif question == "better":
        assert decision.reject == (decision.low < decision.high < -margin)
    else:
        assert decision.reject == (-margin < decision.low and decision.high < margin)


@settings(max_examples=150, deadline=None)
@given(
    cells=st.tuples(*[st.integers(0, 120)] * 4).filter(lambda t: t[1] != t[2]),
    question=st.sampled_from(
        [{}, {"alternative": "greater"}, {"alternative": "less"}, {"margin": 0.05}]
        + [{"question": "better", "margin": 0.05}, {"question": "equivalent", "margin": 0.05}]
    ),
    framing=st.sampled_from(["pass", "correct"]),
)
def test_an_interval_clear_of_zero_has_the_sign_of_the_headline_beside_it(cells, question, framing):
    # The headline prints the pass-rate difference A − B, or in the classifier framing the
    # error-rate difference A − B (minus it); the decision's interval is printed in the same
    # quantity, so an interval clear of 0 never has the other sign than the headline's estimate
    # when they agree on the side (the estimate lies inside the Tango and Newcombe intervals).
    analysis = analyze(*cells, framing=framing, ci_method="newcombe", **question)
    report = text(analysis)
    headline = re.search(r"difference A − B of " + NUMBER + " points", report)
    decided = re.search(r"difference A − B, " + NUMBER + " to " + NUMBER + " points", report)
    if decided is None:  # the default question's decision is not in the text report
        decided = re.search(
            r"difference A − B, " + NUMBER + " to " + NUMBER + " points", text(analysis.decision)
        )
    assert headline and decided, report
    estimate, low, high = float(headline[1]), float(decided[1]), float(decided[2])
    if low > 0 or high < 0:
        assert estimate == 0 or (estimate > 0) == (low > 0), report
    kind = "error-rate" if framing == "correct" else "pass-rate"
    assert f"interval for the {kind} difference A − B" in text(analysis.decision)
