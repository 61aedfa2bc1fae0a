"""The calculator page's "Decision" section (AppTest), its chart (``chart.to_dict()``) and words.

Expected answers come from the core (:func:`calculator.analyze` with the same question), whose
figures are checked against references in tests/core/test_noninferiority.py and
tests/core/test_decision.py.
"""

import re
from pathlib import Path

import pytest
from apptest_pages import chart_specs, open_page, panel_metrics, share_link
from streamlit.testing.v1 import AppTest

from calculator import analyze
from calculator.release import gate_fails
from calculator.report.formatting import format_pvalue
from calculator.report.words import text
from ui.decision_chart import decision_chart, interval_frame, rule_frame
from ui.decision_words import (
    DECISION_INTRO,
    gate_sentence,
    probability_text,
    question_label,
    two_questions,
)
from ui.params import check_query, share_query
from ui.widgets import cases_files as files
from ui.widgets.decision import ANSWER_PREFIX
from ui.words import Wording, escape_markdown

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 60


def run_app(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query or {})
    return at.run()


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def answers(at: AppTest) -> list[str]:
    """The Decision section's answer sentences (paragraphs that start with "Answer:")."""
    prefix = unescape(ANSWER_PREFIX)
    return [
        unescape(m.value)[len(prefix) :]
        for m in at.markdown
        if unescape(m.value).startswith(prefix)
    ]


def metrics(at: AppTest) -> dict[str, str]:
    """Every card: the live panel's four (plain text), then Streamlit's metrics."""
    return {**panel_metrics(at), **{unescape(m.label): m.value for m in at.metric}}


# ---------------------------------------------------------------------------------------------
# AppTest: the section on the calculator page
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def default_app() -> AppTest:
    return run_app()


def test_default_question_is_the_two_sided_test_and_the_margin_waits(default_app):
    assert not default_app.exception
    assert default_app.radio(key="question").value == "different"
    assert default_app.number_input(key="margin").disabled
    expected = text(analyze(60, 15, 5, 20, gates=6).decision)
    assert expected in answers(default_app)
    shown = metrics(default_app)
    assert shown["p, two-sided exact McNemar"] == "0.041"
    assert shown["P(B better | data)"] == "1.1%"


def test_choosing_non_inferiority_answers_it_at_the_margin(default_app):
    at = default_app
    at.radio(key="question").set_value("non-inferior").run()
    at.number_input(key="margin").set_value(20.0).run()
    assert not at.exception
    expected = analyze(60, 15, 5, 20, gates=6, margin=0.2).decision
    assert expected.reject and text(expected) in answers(at)
    assert answers(at) == [text(expected)]
    shown_p = format_pvalue(expected.pvalue, expected.log10_pvalue, alpha=0.05)
    assert metrics(at)["p, one-sided Tango score test"] == shown_p == "0.018"


def test_question_and_margin_come_from_the_url():
    at = run_app(
        {"question": "equivalent", "margin": "20", "a": "43", "b": "0", "c": "1", "d": "0"}
    )
    assert not at.exception
    assert at.radio(key="question").value == "equivalent"
    expected = analyze(43, 0, 1, 0, gates=6, question="equivalent", margin=0.2).decision
    assert text(expected) in answers(at)


def test_bad_url_values_fall_back_with_a_warning():
    at = run_app({"question": "worst", "margin": "abc"})
    assert not at.exception
    warnings = [unescape(w.value) for w in at.warning]
    assert any('URL parameter "question" must be one of' in w for w in warnings)
    assert any('URL parameter "margin" must be a number from 0.01 to 50' in w for w in warnings)
    assert at.radio(key="question").value == "different"
    assert at.number_input(key="margin").value == 1.0


def test_alpha_of_a_half_with_a_margin_warns_instead_of_failing():
    at = run_app({"alpha": "0.5", "question": "non-inferior"})
    assert not at.exception
    assert any("strictly between 0 and 0.5" in unescape(w.value) for w in at.warning)


# ---------------------------------------------------------------------------------------------
# URL keys (pure)
# ---------------------------------------------------------------------------------------------
def test_url_keys_parse_and_defaults_stay_out_of_the_shared_link():
    check = check_query({"question": "non-inferior", "margin": "0.5"})
    assert check.values == {"question": "non-inferior", "margin": 0.5}
    assert check_query({"margin": "0"}).rejected == ("margin",)
    assert check_query({"margin": "nan"}).rejected == ("margin",)
    # The contract's share link is unchanged by the section's keys (they ride in the URL bar).
    assert share_query({"question": "equivalent"}) == ""


# ---------------------------------------------------------------------------------------------
# The chart (pure builder, Vega-Lite spec)
# ---------------------------------------------------------------------------------------------
def test_non_inferiority_chart_has_the_interval_bar_zero_and_plus_margin():
    # The interval for A - B, as the sentence beside it quotes it (-17.6 to -2.8 points), and the
    # margin where the sentence puts it: "lies below +5 points" (issue 30).
    decision = analyze(60, 5, 15, 20, margin=0.05).decision
    spec = decision_chart(decision, Wording("old", "new")).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["rule", "bar", "point"]
    assert list(rule_frame(decision)["at"]) == [0.0, 5.0]
    bar = interval_frame(decision).iloc[0]
    assert (bar["low"], bar["high"]) == pytest.approx((100 * decision.low, 100 * decision.high))
    assert (round(bar["low"], 1), round(bar["high"], 1), bar["estimate"]) == (-17.6, -2.8, -10.0)
    assert spec["layer"][1]["encoding"]["x"]["title"] == "Pass-rate difference old − new (points)"
    assert "-17.6 to -2.8 points, lies below +5 points" in text(decision)


def test_better_by_a_margin_chart_draws_minus_the_margin_the_sentence_names():
    decision = analyze(60, 2, 40, 20, question="better", margin=0.05).decision
    assert list(rule_frame(decision)["at"]) == [0.0, -5.0]
    assert "lies below -5 points" in text(decision)


def test_equivalence_chart_draws_both_margins_and_the_domain_holds_them():
    decision = analyze(43, 0, 1, 0, question="equivalent", margin=0.1).decision
    assert list(rule_frame(decision)["at"]) == [0.0, -10.0, 10.0]
    spec = decision_chart(decision, Wording()).to_dict()
    low, high = spec["layer"][1]["encoding"]["x"]["scale"]["domain"]
    assert low < -10.0 and high > 10.0


def test_two_sided_chart_has_only_the_zero_rule():
    decision = analyze(60, 15, 5, 20).decision
    assert list(rule_frame(decision)["rule"]) == ["no difference"]


def test_classifier_framing_labels_the_axis_with_accuracy():
    decision = analyze(72, 6, 14, 8, framing="correct").decision
    spec = decision_chart(decision, Wording(framing="correct")).to_dict()
    # The error-rate difference A − B, as the classifier framing's headline and sentence print it.
    assert spec["layer"][1]["encoding"]["x"]["title"] == "Error-rate difference A − B (points)"
    bar = interval_frame(decision).iloc[0]
    assert (bar["low"], bar["high"]) == pytest.approx((-100 * decision.high, -100 * decision.low))
    assert list(
        rule_frame(analyze(72, 6, 14, 8, margin=0.05, framing="correct").decision)["at"]
    ) == [
        0.0,
        -5.0,
    ]  # non-inferiority of B in error rate: the interval must lie above -5 points


# ---------------------------------------------------------------------------------------------
# Words (pure)
# ---------------------------------------------------------------------------------------------
def test_questions_in_plain_words():
    wording = Wording("old", "new")
    assert question_label(wording, "different", 1) == "Is new different from old?"
    assert question_label(wording, "better", 1) == "Is new better than old?"
    assert question_label(wording, "non-inferior", 0.5) == (
        "Is new not worse than old by more than 0.5 points?"
    )


def test_probability_never_reads_zero_or_one_hundred_unless_exact():
    assert probability_text(analyze(0, 0, 4000, 0).better) == "> 99.9999%"
    assert probability_text(analyze(0, 4000, 0, 0).better) == "< 0.0001%"
    assert probability_text(analyze(10, 0, 0, 0).better) == "50.0%"


def test_gate_sentence_says_what_the_plain_gate_misses():
    # Statistics 4, round 3's C4: the sentence said "so too few cases pass it" whatever the
    # verdict ("this comparison fails: that gate fails only when ... so too few cases pass it").
    decision = analyze(50, 1, 0, 0).decision
    text = gate_sentence(Wording(), decision, fails=False)
    assert "passes: that gate fails only when" in text
    assert "with too few cases to show a drop it passes as well" in text
    assert "too few cases pass it" not in text


def test_a_failing_plain_gate_says_why_it_fails_without_the_passing_caveat():
    decision = analyze(60, 15, 5, 20).decision  # exact two-sided p = 0.041: B worse
    text = gate_sentence(Wording(), decision, fails=True)
    assert text.startswith(
        "As a release gate without a margin, this comparison fails: the "
        "two-sided exact test shows B worse than A at α = 0.05."
    )
    assert "too few cases" not in text and "Choose non-inferior" not in text


# ---------------------------------------------------------------------------------------------
# AppTest: the same decision on the per-case page, with the release gate in its terms
# ---------------------------------------------------------------------------------------------
def upload_cases(both: int, only_old: int, only_new: int) -> AppTest:
    rows = [f"q{i},1,1" for i in range(both)]
    rows += [f"a{i},1,0" for i in range(only_old)] + [f"b{i},0,1" for i in range(only_new)]
    at = open_page("app_pages/cases.py")
    data = ("\n".join(["id,old,new", *rows]) + "\n").encode()
    at.file_uploader(key=files.UPLOAD_KEYS[0]).set_value(("runs.csv", data, "text/plain")).run()
    assert not at.exception, at.exception
    return at


def test_per_case_page_answers_non_inferiority_and_describes_the_gate():
    at = upload_cases(50, 1, 0)
    at.radio(key="cases_question").set_value("non-inferior").run()
    assert not at.exception
    expected = analyze(50, 1, 0, 0, names=("old", "new"), margin=0.01).decision
    assert text(expected) in answers(at)
    gate = [unescape(m.value) for m in at.markdown if "release gate" in unescape(m.value)]
    assert gate == [
        "As a release gate at the margin set above, this comparison fails: new is not shown "
        "non-inferior to old at a margin of 1 point."
    ]


def test_per_case_page_keeps_the_question_out_of_the_url():
    at = upload_cases(900, 10, 30)
    at.radio(key="cases_question").set_value("better").run()
    assert not at.exception
    assert "question" not in at.query_params and "cases_question" not in at.query_params


def test_shared_link_carries_the_question_and_margin_only_when_changed():
    at = run_app({"question": "non-inferior", "margin": "2"})
    assert not at.exception
    link = share_link(at)
    assert link.endswith("?question=non-inferior&margin=2")
    assert "question" not in share_link(run_app())


def test_presenting_view_keeps_the_answer_and_drops_the_explanations():
    shown, presented = run_app(), run_app({"present": "true"})
    for at in (shown, presented):
        assert not at.exception
        assert at.radio(key="question").value == "different"
        assert {"p, two-sided exact McNemar", "P(B better | data)"} <= set(metrics(at))
        assert len(chart_specs(at)) == 3  # the p-value, gates and decision charts
    assert answers(presented) == answers(shown) != []
    assert metrics(presented) == metrics(shown)
    caption = two_questions(Wording("A", "B", "pass"))
    assert any(c.value == escape_markdown(caption) for c in shown.caption)
    assert all(c.value != escape_markdown(caption) for c in presented.caption)
    assert DECISION_INTRO in [m.value for m in shown.markdown]
    assert DECISION_INTRO not in [m.value for m in presented.markdown]
    assert any("no worse" in e.label for e in shown.expander)
    assert not any("no worse" in e.label for e in presented.expander)


def test_folded_explanation_is_not_sent_until_opened(default_app):
    # Opened in a browser: tests/browser/test_decision_live.py.
    from ui.decision_words import DECISION_EXPLANATION

    assert any("no worse" in e.label for e in default_app.expander)
    assert all(m.value != DECISION_EXPLANATION for m in default_app.markdown)


@pytest.mark.parametrize("question", ["better", "equivalent"])
def test_per_case_page_gate_is_the_command_lines_whatever_the_question(question):
    # 30 cases only old passes, 2 only new: the command line's gate (cases --fail-if-worse,
    # the two-sided exact test) fails. Asked "better" or "equivalent", the page said it passes.
    at = upload_cases(50, 30, 2)
    at.radio(key="cases_question").set_value(question).run()
    assert not at.exception
    gate = [unescape(m.value) for m in at.markdown if "release gate" in unescape(m.value)]
    assert len(gate) == 1
    assert gate[0].startswith("As a release gate without a margin, this comparison fails: ")
    expected = analyze(50, 30, 2, 0, names=("old", "new"))
    assert gate_fails(expected) is True


@pytest.mark.parametrize(
    ("table", "margin"),
    [((50, 1, 0, 0), None), ((60, 15, 5, 20), None), ((50, 1, 0, 0), 0.01), ((50, 1, 0, 0), 0.2)],
)
@pytest.mark.parametrize("fails", [False, True])
def test_the_pages_gate_is_worded_in_the_pages_terms(table, margin, fails):
    # Statistics 4 (issue 31c): the page's gate sentence named a command line ("command line:
    # cases --fail-if-worse --margin 1pt") the page's user never typed; it now speaks of the
    # margin set above, or of none.
    decision = analyze(*table, margin=margin).decision
    sentence = gate_sentence(Wording(), decision, fails=fails)
    assert sentence.startswith("As a release gate")
    assert "command line" not in sentence and "--" not in sentence and "pt)" not in sentence
