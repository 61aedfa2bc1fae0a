"""Issue 11's statements to correct, checked on the pure ui helpers (each failed before the fix).

Sources named as a reader knows them: the McNemar article (mcnemar-test.txt), the original
calculator page (calculator-page.txt), the classifier-comparison tutorial
(paired-classifier-errors.txt).
"""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

import pytest
from apptest_pages import panel_metrics

from calculator import analyze
from calculator.planning import exact_power, simulate_optional_stopping
from ui import cases_words, plan_words, words
from ui.calculator_charts import false_alarm_layout
from ui.examples import EXAMPLES
from ui.explanations import SECTIONS, Formula
from ui.odds_ratio_words import odds_ratio_sentence

ROOT = Path(__file__).resolve().parents[2]


def _explanation_text() -> str:
    return "\n".join(
        part.latex if isinstance(part, Formula) else part for _, parts in SECTIONS for part in parts
    )


def test_mid_p_formula_shown_includes_the_tie_case():
    text = _explanation_text()
    assert r"b = c" in text or "b == c" in text
    assert r"1 - \tfrac12\,P[\mathrm{Bin}(m, \tfrac12) = k]" in text


def test_guidance_on_which_p_follows_fagerland_lydersen_laake_2013():
    text = _explanation_text()
    assert "trust the exact p" not in text
    assert "Fagerland" in text and "mid-p" in text
    assert "never exceeds" in text or "at or below" in text


def test_exact_p_is_explained_as_conditional_and_not_as_a_probability_of_no_difference():
    text = _explanation_text()
    assert "given the number of discordant" in text
    assert "not the probability that the systems are equally good" in text


def test_chi_square_hint_no_longer_says_prefer_the_exact_p():
    for m in (1, 10, 24, 25, 100):
        hint = words.result_cards(words.Wording(), analyze(50, m, m // 2, 10))[1].caption
        assert "Prefer the exact p" not in hint


def test_mid_p_card_is_not_called_exact():
    cards = words.result_cards(words.Wording(), analyze(70, 4, 12, 14, convention="mid-p"))
    assert cards[2].label == "McNemar mid-p"
    assert "exact" not in cards[2].label.lower()
    doubling = words.result_cards(words.Wording(), analyze(70, 4, 12, 14))
    assert doubling[2].label == "Exact McNemar p"


def test_p_near_alpha_on_the_cards_has_three_significant_figures():
    cards = words.result_cards(words.Wording(), analyze(70, 4, 12, 14, convention="mid-p"))
    assert cards[2].value == "0.0490"


def test_counts_agree_in_number_on_the_page():
    wording = words.Wording()
    assert "1 tasks" not in wording.rates_sentence(1, 1, 1)
    assert "discordant tasks (" not in wording.discordant_sentence(1, 0)


def test_clustered_cases_may_move_the_p_value_either_way():
    text = cases_words.cluster_explanation("doc")
    assert " may " in text
    assert "too small" in text and "too large" in text
    assert "comes out too small" not in text
    assert "may" in _explanation_text().split("Cases must be independent")[1][:200]


def test_gates_chart_description_is_true_at_rho_one():
    description = false_alarm_layout(alpha=0.05, rho=1.0, log_x=False).to_dict()["description"]
    assert "towards 100%" not in description
    assert "stay at α" in description
    independent = false_alarm_layout(alpha=0.05, rho=0.0, log_x=False).to_dict()["description"]
    assert "towards 100%" in independent


def test_peeking_caption_compares_with_one_test_at_the_final_number_of_cases():
    result = simulate_optional_stopping(
        disagreement=0.2, look_every=20, looks=10, experiments=400, seed=1
    )
    caption = plan_words.peeking_caption(result, 0.2)
    assert "with one look" not in caption
    final_n = int(result.cases[-1])
    size = exact_power(final_n, 0.1, 0.1, alpha=result.alpha)
    assert f"{final_n:,} cases" in caption
    assert f"{size * 100:.1f}%" in caption


def _string_literals(path: Path) -> list[tuple[int, str]]:
    with path.open("rb") as source:
        return [
            (token.start[0], token.string)
            for token in tokenize.tokenize(source.readline)
            if token.type == tokenize.STRING
            or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1)
        ]


def test_no_page_text_calls_the_sources_seeds():
    # "seed" as the source documents; the simulation's random-number seed is another word.
    pattern = re.compile(r"seed (document|page|report|example)|mcnemar seed|the seed\b", re.I)
    paths = [*ROOT.glob("ui/*.py"), *ROOT.glob("ui/widgets/*.py"), *ROOT.glob("app_pages/*.py")]
    found = [
        f"{path.name}:{line}: {text}"
        for path in paths
        for line, text in _string_literals(path)
        if pattern.search(text)
    ]
    assert not found
    assert "seed" not in words.EXAMPLES_TITLE.lower()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_examples_say_what_was_filled_in_or_mirrored(example):
    assert "seed" not in example.title.lower() and "seed" not in example.expect.lower()
    filled = {"gap_many", "gap_few", "errors_12_3", "errors_40"}
    mirrored = {"errors_12_3", "errors_100", "errors_40"}
    if example.key in filled:
        assert "a and d" in example.note and "filled in" in example.note
    if example.key in mirrored:
        assert "mirror" in example.note


def test_odds_ratio_words_say_infinite_and_undefined():
    assert "∞" in odds_ratio_sentence(words.Wording(), analyze(0, 5, 0, 0).odds_ratio)
    assert "undefined" in odds_ratio_sentence(words.Wording(), analyze(5, 0, 0, 5).odds_ratio)


# --- The calculator page under AppTest.


def _run(query: dict[str, str] | None = None):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(query or {})
    return at.run()


def _plain(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def test_page_shows_the_odds_ratio_and_the_reconciliation_at_70_4_12_14():
    at = _run({"a": "70", "b": "4", "c": "12", "d": "14"})
    assert not at.exception
    markdown = "\n".join(_plain(m.value) for m in at.markdown)
    assert "Odds ratio A : B on the discordant tasks:** 0.333 (95% CI 0.0784 to 1.10" in markdown
    notes = "\n".join(_plain(i.value) for i in at.info)
    assert "Agresti-Min interval excludes 0, but the exact McNemar test does not reject" in notes


def test_page_shows_no_reconciliation_when_interval_and_test_agree():
    at = _run({"a": "70", "b": "4", "c": "12", "d": "14", "ci": "exact-compatible"})
    assert not at.exception
    assert not any("does not reject" in i.value for i in at.info)


def test_loading_an_example_resets_every_option_that_changes_its_numbers():
    at = _run({"conv": "mid-p", "level": "0.9", "ci": "wald"})
    assert at.segmented_control(key="conv").value == "mid-p"
    at.button(key="example_mcnemar_seed").click().run()
    assert not at.exception
    assert at.segmented_control(key="conv").value == "doubling"
    assert at.number_input(key="level").value == 0.95
    assert at.selectbox(key="ci").value == "agresti-min"
    assert at.toggle(key="cc").value is True  # the example's own setting
    shown = {**panel_metrics(at), **{_plain(m.label): m.value for m in at.metric}}
    assert shown["Exact McNemar p"] == "0.077"  # the figure the article reports


def test_loaded_example_says_a_and_d_were_filled_in_and_b_c_mirrored():
    at = _run()
    at.button(key="example_errors_12_3").click().run()
    notes = "\n".join(_plain(i.value) for i in at.info)
    assert "a and d were filled in" in notes and "mirror" in notes


def test_p_value_chart_calls_the_mid_p_line_mid_p():
    from ui.calculator_charts import pvalue_layout, pvalue_sweep_frame

    frame = pvalue_sweep_frame(70, 4, 12, 14, convention="mid-p")
    assert "McNemar mid-p" in set(frame["test"]) and "Exact McNemar" not in set(frame["test"])
    spec = str(
        pvalue_layout(
            alpha=0.05, log_axis=False, x_title="a", title="t", convention="mid-p"
        ).to_dict()
    )
    assert "McNemar mid-p" in spec and "Exact McNemar" not in spec


def test_release_gate_sentence_states_its_one_sided_false_alarm_rate():
    from ui.decision_words import gate_sentence

    text = gate_sentence(words.Wording(), analyze(60, 15, 5, 20).decision, fails=False)
    assert "at most α/2 = 0.025" in text


def test_wald_zero_width_is_flagged_on_the_difference_card():
    wald = words.result_cards(words.Wording(), analyze(10, 0, 0, 10, ci_method="wald"))[0]
    assert "Zero width" in wald.caption
    other = words.result_cards(words.Wording(), analyze(10, 0, 0, 10))[0]
    assert "Zero width" not in other.caption
