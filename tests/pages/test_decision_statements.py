"""What the Decision section says on the page (AppTest): the same sentences the command line
prints (tests/cli/test_decision_statements_cli.py), read from the page itself.
"""

from __future__ import annotations

import re
from pathlib import Path

from apptest_pages import panel_captions, panel_texts
from streamlit.testing.v1 import AppTest

from ui.widgets.decision import ANSWER_PREFIX

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 60


def run_app(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    return at.run()


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def answer(at: AppTest) -> str:
    prefix = unescape(ANSWER_PREFIX)
    found = [
        unescape(m.value)[len(prefix) :]
        for m in at.markdown
        if unescape(m.value).startswith(prefix)
    ]
    assert len(found) == 1, found
    return found[0]


def page_text(at: AppTest) -> str:
    parts = [unescape(m.value) for m in at.markdown] + [unescape(c.value) for c in at.caption]
    return "\n".join([*panel_texts(at), *panel_captions(at), *parts])


def test_failed_noninferiority_far_below_the_margin_says_b_is_worse_by_more():
    at = run_app({"question": "non-inferior", "margin": "1"})  # the default table 60, 15, 5, 20
    assert not at.exception
    sentence = answer(at)
    # The interval for A - B, +2.8 to +17.6, lies above +1: a one-sided result (issues 30, 31a).
    assert "at one-sided α = 0.05 B is worse than A by more than 1 point" in sentence
    assert "does not show that B is worse" not in sentence


def test_one_sided_answer_quotes_the_decisions_level_and_says_why():
    at = run_app({"question": "better", "a": "60", "b": "10", "c": "20", "d": "20"})
    assert not at.exception
    sentence = answer(at)
    assert "the 90% Agresti-Min interval for the pass-rate difference A − B, -17.0 to -0.9" in (
        sentence
    )
    assert "1 − 2α for a one-sided test" in sentence


def documents_csv(*, lose: int, win: int, per: int = 25, lead: int = 8) -> bytes:
    rows, k = ["id,doc,old,new"], 0
    for doc in range(lose + win):
        for j in range(per):
            old, new = ((1, 0) if doc < lose else (0, 1)) if j < lead else (1, 1)
            rows.append(f"c{k},d{doc},{old},{new}")
            k += 1
    return ("\n".join(rows) + "\n").encode()


def test_cases_page_with_a_group_column_answers_counting_clusters():
    from apptest_pages import open_page

    from ui.widgets import cases_files as files

    at = open_page("app_pages/cases.py")
    uploader = at.file_uploader(key=files.UPLOAD_KEYS[0])
    uploader.set_value(("docs.csv", documents_csv(lose=20, win=20), "text/plain")).run()
    widgets = [*at.selectbox]
    group = next(w for w in widgets if w.key and w.key.split("__")[0] == "cases_group")
    group.set_value("doc").run()
    at.radio(key="cases_question").set_value("non-inferior").run()
    at.number_input(key="cases_margin").set_value(5.0).run()
    assert not at.exception
    sentence = answer(at)
    assert "not shown to be non-inferior" in sentence
    assert "cluster-robust interval for the pass-rate difference old − new, -8.6 to +8.6" in (
        sentence
    )
    gate = [unescape(m.value) for m in at.markdown if "As a release gate" in unescape(m.value)]
    assert gate and "this comparison fails" in gate[0]


def test_mid_p_is_never_labelled_exact_on_the_decision_card():
    at = run_app({"conv": "mid-p", "question": "better"})
    assert not at.exception
    labels = [unescape(m.label) for m in at.metric]
    assert "p, one-sided McNemar mid-p" in labels
    assert not any("exact McNemar" in label for label in labels)


def test_chi_square_caption_gives_the_conditional_size_the_page_computes():
    # m = 4: only 4-0 and 0-4 reach X2 >= 3.84, so the test rejects a true null 2/16 = 12.5% of
    # the time given m (calculator.rejection.chi2_conditional_size, checked in the core tests).
    at = run_app({"a": "10", "b": "3", "c": "1", "d": "10"})
    assert not at.exception
    text = page_text(at)
    assert "rejects a true null hypothesis 12.5% of the time at α = 0.05" in text
    assert "Published sizes average over the number of discordant pairs" in text
    assert "slightly more often" not in text


def test_the_question_is_said_to_be_fixed_before_the_data_where_it_is_chosen():
    at = run_app({})
    assert not at.exception
    help_text = at.radio(key="question").help
    assert "Choose the question before looking at the results" in help_text
    assert "halves the p-value" in help_text


def test_p_b_better_says_it_is_not_the_size_of_the_difference():
    # P(B better) is 98.7% for a difference of 5e-8 points at n = 2e9 (posterior.py's example);
    # the page says beside it that the direction is not the size.
    at = run_app({})
    assert "not by how much" in page_text(at)


def test_the_margin_field_says_the_score_test_can_be_liberal():
    at = run_app({"question": "non-inferior"})
    assert "can reject more often than α" in at.number_input(key="margin").help


def test_teaching_null_summary_says_one_discordant_pair_in_the_singular():
    from calculator.teaching.null_distribution import null_distribution
    from ui.teaching_words import null_summary

    text = " ".join(null_summary(null_distribution(1, 1)))
    assert "1 discordant pair " in text and "1 discordant pairs" not in text


def test_null_section_never_calls_a_mid_p_value_exact():
    at = run_app({"t_null": "true", "conv": "mid-p"})
    assert not at.exception
    labels = [unescape(m.label) for m in at.metric]
    # The label names its sides since statistics 4 (round 3's B3).
    assert "Mid-p test (not exact), two-sided" in labels
    assert not any(label.startswith("Exact test") for label in labels)


def test_an_exact_p_equal_to_alpha_rejects_on_the_page():
    # b = 6, c = 0: p = 2/64 = 0.03125 exactly (0.031250000000000014 in floating point).
    at = run_app({"a": "3", "b": "6", "c": "0", "d": "0", "alpha": "0.03125"})
    assert not at.exception
    assert answer(at).startswith("These cases show that A and B differ")
