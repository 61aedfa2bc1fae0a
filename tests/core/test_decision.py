"""The release question through `analyze`: the decision, its interval for A - B, its sentence."""

import json
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import analyze, margin_test, mcnemar_exact
from calculator.decision import QUESTIONS, resolve_question
from calculator.report.formatting import limit_points, points_of
from calculator.report.words import payload as json_of
from calculator.report.words import text


def _strict(data):
    return json.loads(json.dumps(data, allow_nan=False))


# ---------------------------------------------------------------------------------------------
# Which question is asked
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({}, ("different", None)),
        ({"alternative": "greater"}, ("better", None)),
        ({"alternative": "less"}, ("worse", None)),
        ({"margin": 0.01}, ("non-inferior", 0.01)),
        ({"margin": 0.01, "alternative": "greater"}, ("better", 0.01)),  # never silently NI
        ({"question": "equivalent", "margin": 0.02}, ("equivalent", 0.02)),
        ({"question": "better", "margin": 0.02}, ("better", 0.02)),
        ({"question": "better", "alternative": "greater"}, ("better", None)),
    ],
)
def test_question_follows_from_alternative_and_margin(arguments, expected):
    question = arguments.pop("question", None)
    assert resolve_question(question, **arguments) == expected


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"question": "non-inferior"}, "needs a margin"),
        ({"question": "equivalent"}, "needs a margin"),
        ({"question": "different", "margin": 0.01}, "takes no margin"),
        ({"question": "worse", "margin": 0.01}, "takes no margin"),
        ({"question": "better", "alternative": "less"}, "contradicts"),
        ({"alternative": "less", "margin": 0.01}, "does not go with"),
        ({"question": "no worse"}, "`question` must be one of"),
        ({"alternative": "larger"}, "`alternative` must be one of"),
        ({"margin": -0.01}, "`margin` must be a number strictly between 0 and 1"),
        ({"margin": 1.0}, "`margin` must be a number strictly between 0 and 1"),
        ({"margin": float("nan")}, "`margin` must be a number strictly between 0 and 1"),
    ],
)
def test_analyze_refuses_a_question_it_cannot_answer(arguments, message):
    with pytest.raises(ValueError, match=message):
        analyze(60, 5, 15, 20, **arguments)


def test_analyze_refuses_a_margin_given_as_text():
    with pytest.raises(TypeError, match="`margin`"):
        analyze(60, 5, 15, 20, margin="0.01")


# ---------------------------------------------------------------------------------------------
# What the decision reports
# ---------------------------------------------------------------------------------------------
def test_default_decision_is_the_two_sided_exact_test_and_leaves_the_report_alone():
    result = analyze(60, 15, 5, 20)
    decision = result.decision
    assert (decision.question, decision.alternative, decision.margin) == (
        "different",
        "two-sided",
        None,
    )
    assert decision.pvalue == result.exact.pvalue
    assert decision.reject is True
    # The interval is the analysis' own, in the headline's direction A - B (issue 30).
    assert (decision.low, decision.high) == (result.difference.low, result.difference.high)
    assert decision.estimate == result.difference.estimate == (15 - 5) / 100
    assert text(decision) not in text(result)


def test_one_sided_decision_uses_the_one_sided_exact_test_with_the_chosen_convention():
    for convention in ("doubling", "mid-p"):
        result = analyze(70, 4, 12, 14, alternative="greater", convention=convention)
        expected = mcnemar_exact(4, 12, convention=convention, alternative="greater")
        assert result.decision.pvalue == expected.pvalue
        assert result.decision.reject == (expected.pvalue <= 0.05)
        # The two-sided results are unchanged by the question; `exact` is never a mid-p value
        # and `binomial` is the test in the chosen convention.
        assert result.binomial.pvalue == mcnemar_exact(4, 12, convention=convention).pvalue
        assert result.exact.pvalue == mcnemar_exact(4, 12).pvalue
        assert text(result).endswith(text(result.decision))


def test_margin_decision_is_tangos_test_with_its_one_minus_two_alpha_interval():
    result = analyze(60, 5, 15, 20, margin=0.05, alpha=0.025)
    expected = margin_test(60, 5, 15, 20, margin=0.05, alpha=0.025)
    data = _strict(result.to_dict())["decision"]
    assert data["question"] == "non-inferior"
    assert data["alternative"] == "greater"
    assert data["margin"] == 0.05
    # margin_test keeps Tango's parametrisation (pB - pA); the decision exposes A - B (issue 30).
    assert data["pvalue"] == expected.pvalue and data["statistic"] == -expected.statistic
    assert data["estimate"] == -expected.estimate == (5 - 15) / 100
    assert data["interval"] == {
        "low": -expected.high,
        "high": -expected.low,
        "level": pytest.approx(0.95),
        "method": "tango",
        "of": "pA - pB",
    }
    assert data["reject"] is True


def test_equivalence_reports_no_single_alternative():
    data = analyze(43, 0, 1, 0, question="equivalent", margin=0.1).to_dict()["decision"]
    assert data["alternative"] is None
    assert data["reject"] is True


def test_probability_b_better_is_in_the_json():
    data = _strict(analyze(60, 5, 15, 20).to_dict())
    assert data["probability_B_better"] == pytest.approx(0.98859, abs=5e-5)
    assert data["posterior"]["prior"] == "Jeffreys Beta(1/2, 1/2)"


@pytest.mark.parametrize(
    "table", [(10**9, 10**9, 10**9 - 10**5, 10**9), (1000, 0, 0, 0), (0, 0, 5000, 0), (0, 1, 0, 0)]
)
@pytest.mark.parametrize("question", ["non-inferior", "equivalent", "better"])
def test_extreme_tables_give_strict_json(table, question):
    data = _strict(json_of(analyze(*table, question=question, margin=0.5)))
    decision = data["decision"]
    assert 0.0 <= decision["pvalue"] <= 1.0 and math.isfinite(decision["log10_pvalue"])
    assert not re.search(r"\b(nan|inf)\b", decision["sentence"], re.IGNORECASE)


def test_no_discordant_pairs_still_answer_non_inferiority():
    result = analyze(1000, 0, 0, 0, margin=0.01)
    assert result.decision.reject
    assert text(result.decision).startswith(
        "These cases show that B is not worse than A by more than 1 point"
    )
    assert "agree on every case" in text(result)  # the two-sided part still says so


# ---------------------------------------------------------------------------------------------
# The sentence: the direction in words, and true
# ---------------------------------------------------------------------------------------------
def test_noninferiority_sentences_in_both_outcomes():
    shown = text(analyze(60, 5, 15, 20, margin=0.05, names=("old", "new")).decision)
    assert shown.startswith(
        "These cases show that new is not worse than old by more than 5 points:"
    )
    assert "interval for the pass-rate difference old − new, -17.6 to -2.8 points" in shown
    assert "lies below +5 points" in shown
    # 60, 12, 8, 20: the 90% Tango interval for A - B, -3.5 to +11.7 points, reaches below 0
    # and above +5.
    not_shown = text(analyze(60, 12, 8, 20, margin=0.05, names=("old", "new")).decision)
    assert not_shown.startswith("new is not shown to be non-inferior to old at a margin of 5")
    assert "-3.5 to +11.7 points, does not lie entirely below +5 points" in not_shown
    assert "This does not show that new is worse" in not_shown


# Where the 90% Tango interval for A - B lies against +margin and 0 decides the words of a failed
# non-inferiority test; 60, 15, 5, 20 has the interval +2.8 to +17.6 points (Tango 1998's score
# interval, checked in tests/core/test_noninferiority.py). What the interval's end says about 0
# or past the margin is a one-sided result at alpha, and is worded as one (review 4, C13; issue
# 31a).
@pytest.mark.parametrize(
    ("margin", "says", "never"),
    [
        (
            0.01,
            "lies entirely above +1 point, so at one-sided α = 0.05 B is worse than A by more than "
            "1 point",
            "does not show that B is worse",
        ),
        (
            0.10,
            "Its lower end lies above 0: at one-sided α = 0.05, B is worse than A, by an amount "
            "these cases do not settle (a one-sided reading of the 90% interval",
            "these cases show that B is worse",
        ),
    ],
)
def test_a_failed_noninferiority_test_says_where_the_interval_lies(margin, says, never):
    sentence = text(analyze(60, 15, 5, 20, margin=margin).decision)
    assert "not shown to be non-inferior" in sentence
    assert says in sentence
    assert never not in sentence


@pytest.mark.parametrize(
    ("table", "says"),
    [
        (
            (60, 15, 5, 20),
            "lies entirely above +1 point, so at one-sided α = 0.05 B's pass rate is lower than "
            "A's by more than 1 point",
        ),
        (
            (60, 5, 15, 20),
            "lies entirely below -1 point, so at one-sided α = 0.05 B's pass rate is higher than "
            "A's by more than 1 point",
        ),
    ],
)
def test_a_failed_equivalence_test_beyond_the_margin_says_so(table, says):
    sentence = text(analyze(*table, margin=0.01, question="equivalent").decision)
    assert says in sentence
    assert "cannot rule out" not in sentence


def test_a_nonsignificant_difference_is_not_called_equality():
    sentence = text(analyze(70, 4, 12, 14).decision)
    assert sentence.startswith("No difference between A and B is shown")
    assert "Not significant does not mean equal" in sentence


def test_correct_framing_speaks_of_accuracy():
    result = analyze(72, 6, 14, 8, margin=0.02, framing="correct")
    # The interval in the headline's quantity too: the error-rate difference A − B (issue 30).
    assert "interval for the error-rate difference A − B" in text(result.decision)
    assert "pass rate" not in text(result.decision)


tables = st.tuples(*(st.integers(0, 60) for _ in range(4))).filter(lambda t: sum(t) > 0)


@given(tables, st.sampled_from(["two-sided", "greater", "less"]))
def test_sentence_states_the_direction_seen(table, alternative):
    a, b, c, d = table
    sentence = text(analyze(*table, alternative=alternative).decision)
    if b + c == 0:
        assert "agree on every case" in sentence
    elif c > b:
        assert "B's pass rate is" in sentence and "higher than A's" in sentence
    elif b > c:
        assert "lower than A's" in sentence
    else:
        assert "B's pass rate equals A's" in sentence


@given(tables, st.sampled_from(QUESTIONS), st.sampled_from([0.01, 0.05, 0.2]))
def test_sentence_claims_exactly_when_the_test_rejects(table, question, margin):
    given_margin = margin if question in ("non-inferior", "equivalent") else None
    decision = analyze(*table, question=question, margin=given_margin).decision
    hedged = "not shown" in text(decision) or "No difference" in text(decision)
    if sum(table[1:3]) == 0 and given_margin is None:
        assert not decision.reject
    else:
        assert hedged == (not decision.reject)


@given(st.floats(-1, 1), st.lists(st.floats(-0.5, 0.5), min_size=1, max_size=3))
def test_printed_limits_sit_on_the_same_side_of_every_rule(value, bounds):
    text = limit_points(value, bounds)
    printed = float(text) / 100
    for bound in [0.0, *bounds]:
        if value != bound and abs(value - bound) > 1e-13:
            assert (printed > bound) == (value > bound), (value, bound, text)
    assert not (value != 0 and re.fullmatch(r"[+-]?0\.0+", text))


def test_margin_in_words():
    assert points_of(0.01) == "1 point"
    assert points_of(0.005) == "0.5 points"
    assert points_of(0.5) == "50 points"


@pytest.mark.parametrize("table", [(60, 15, 5, 20), (70, 4, 12, 14), (0, 0, 5, 0)])
def test_decision_sentences_have_no_nested_parentheses(table):
    for question in ("different", "better"):
        sentence = text(analyze(*table, question=question).decision)
        depth = 0
        for char in sentence:
            depth += {"(": 1, ")": -1}.get(char, 0)
            assert depth <= 1, sentence


def test_fields_have_one_meaning():
    # Analysis.exact is the exact test whatever the convention; Decision.statistic is a z or None.
    analysis = analyze(70, 4, 12, 14, convention="mid-p")
    assert analysis.exact.convention == "doubling" and analysis.mid_p.convention == "mid-p"
    assert analysis.binomial is analysis.mid_p
    assert analysis.to_dict()["mcnemar_exact"]["convention"] == "mid-p"  # JSON unchanged
    assert analysis.to_dict()["mcnemar_exact"]["pvalue"] == analysis.mid_p.pvalue
    assert analyze(70, 4, 12, 14).decision.statistic is None  # the exact test's count is b
    margin = analyze(70, 4, 12, 14, margin=0.05).decision
    assert isinstance(margin.statistic, float)  # Tango's z at the null boundary
