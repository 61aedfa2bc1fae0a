"""The calculator page's teaching sections under AppTest: folded by default, each opened by its
URL key or its toggle, following the table, and the presenting view.

Expected figures come from the core (calculator.teaching), whose tests carry the provenance
(tests/core/test_null_distribution.py and siblings); the original page's table 60, 15, 5, 20 has
exact p = 0.041.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from apptest_pages import chart_specs, set_counts, share_link
from streamlit.testing.v1 import AppTest

from calculator.report.formatting import format_percent
from calculator.teaching import null_distribution
from ui import teaching_charts
from ui import teaching_words as words
from ui.chart_sizes import LARGE_FONT
from ui.decision_words import DECISION_INTRO
from ui.widgets import teaching_bodies

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 60
SECTIONS = ("t_null", "t_oc", "t_pair", "t_quiz")


def run_app(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query or {})
    return at.run()


def charts(at: AppTest) -> list:
    """Streamlit's charts: the teaching sections' (the page's own are drawn by the live
    panel's bundle)."""
    return at.get("vega_lite_chart")


def metric_values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_sections_are_folded_and_cost_nothing_by_default() -> None:
    closed, opened = run_app(), run_app(dict.fromkeys(SECTIONS, "true"))
    assert not closed.exception and not opened.exception
    for key in SECTIONS:
        assert closed.toggle(key=key).value is False
    assert "Observed split" not in metric_values(closed)
    assert not any(s.key == "agree" for s in closed.slider)
    # Closed sections send no chart (the page's own are drawn by the panel's bundle).
    assert len(charts(opened)) == len(charts(closed)) + 3


def test_folded_sections_compute_and_draw_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every teaching computation and chart builder raises: folded, the page must not notice.
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("a folded teaching section computed or drew something")

    names = ("null_distribution", "operating_characteristics", "margin_sweep")
    names += ("_null", "_operating", "_sweep")
    for name in names:
        monkeypatch.setattr(teaching_bodies, name, forbidden)
    for name in ("null_distribution_chart", "coverage_chart", "pairing_chart"):
        monkeypatch.setattr(teaching_charts, name, forbidden)
    folded = run_app()
    assert not folded.exception
    assert [folded.toggle(key=key).value for key in SECTIONS] == [False] * 4
    set_counts(folded, b=30)  # a rerun of the live part
    assert not folded.exception
    # The patch is in force: opening a section reaches it.
    for key in SECTIONS[:3]:
        opened = run_app({key: "true"})
        assert opened.exception, key


def test_share_link_carries_the_open_sections_and_reopens_them() -> None:
    assert not any(key in share_link(run_app()) for key in (*SECTIONS, "agree", "present"))
    at = run_app({"t_oc": "true"})
    at.toggle(key="t_null").set_value(True).run()
    at.toggle(key="t_pair").set_value(True).run()
    next(s for s in at.slider if s.key == "agree").set_value(55).run()
    query = dict(parse_qsl(urlsplit(share_link(at)).query))
    assert query == {"t_null": "true", "t_oc": "true", "t_pair": "true", "agree": "55"}
    reopened = run_app(query)
    assert not reopened.exception
    assert [reopened.toggle(key=key).value for key in SECTIONS] == [True, True, True, False]
    assert next(s for s in reopened.slider if s.key == "agree").value == 55
    assert len(charts(reopened)) == len(charts(at))


def test_share_link_omits_the_agreement_at_the_entered_table() -> None:
    at = run_app({"t_pair": "true", "agree": "60"})
    query = dict(parse_qsl(urlsplit(share_link(at)).query))
    assert query == {"t_pair": "true"}


def test_null_section_shows_the_split_its_p_and_the_size() -> None:
    at = run_app({"t_null": "true"})
    shown = metric_values(at)
    assert shown["Observed split"] == "15 of 20"
    assert shown["Exact test, two-sided"] == "p = 0.041"  # the sides named (statistics 4, B3)
    assert shown["Actual size at this m"] == format_percent(null_distribution(20, 15).size)


def test_null_section_says_when_no_split_can_reach_alpha() -> None:
    at = run_app({"t_null": "true", "b": "3", "c": "1"})
    assert "no result can reach α = 0.05" in texts(at)


def test_null_section_opened_by_its_toggle_follows_the_table() -> None:
    at = run_app()
    at.toggle(key="t_null").set_value(True).run()
    assert metric_values(at)["Observed split"] == "15 of 20"
    set_counts(at, b=30)
    assert metric_values(at)["Observed split"] == "30 of 35"


def test_operating_section_lists_every_test_and_interval() -> None:
    at = run_app({"t_oc": "true"})
    tables = at.table
    assert len(tables) >= 2
    assert not at.exception
    assert words.OC_EXPLAIN in [c.value for c in at.caption]


def test_operating_section_explains_a_table_too_large_for_exact_sums() -> None:
    at = run_app({"t_oc": "true", "a": "100000"})
    assert "computed for up to 20,000 cases" in texts(at)


def test_pairing_slider_moves_the_selected_table_and_keeps_the_pass_rates() -> None:
    at = run_app({"t_pair": "true"})
    slider = next(s for s in at.slider if s.key == "agree")
    assert (slider.min, slider.max, slider.value) == (40, 65, 60)
    slider.set_value(65).run()
    assert "Both pass 65; only A passes 10; only B passes 0; both fail 25" in texts(at)


def test_agreement_outside_the_range_falls_back_to_the_entered_table() -> None:
    at = run_app({"t_pair": "true", "agree": "5"})
    assert not at.exception
    assert next(s for s in at.slider if s.key == "agree").value == 60


def test_one_feasible_table_is_said_in_the_presenting_view_too() -> None:
    # A passes all 75 cases (c = d = 0), so both pass = B's 60 passes: one table keeps both
    # rates. The sentence is a fact about the table, not an explanation the view hides.
    at = run_app({"t_pair": "true", "c": "0", "d": "0", "present": "true"})
    assert not at.exception
    assert words.ONE_TABLE in texts(at)
    assert not any(s.key == "agree" for s in at.slider)


def test_questions_reveal_their_answers_on_click() -> None:
    at = run_app({"t_quiz": "true"})
    assert words.QUESTIONS[0].answer not in texts(at)
    at.toggle(key="answer_both_pass").set_value(True).run()
    assert words.QUESTIONS[0].answer in texts(at)


def test_presenting_view_hides_explanations_and_stays_live() -> None:
    at = run_app({"present": "true", "t_null": "true", "t_pair": "true"})
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert words.NULL_EXPLAIN not in captions and words.PAIR_EXPLAIN not in captions
    assert not at.expander or all("Worked examples" not in e.label for e in at.expander)
    set_counts(at, c=10)
    assert metric_values(at)["Observed split"] == "15 of 25"


def font_sizes(spec: object) -> list[int]:
    """Every axis or legend label font size set in a Vega-Lite spec."""
    if isinstance(spec, dict):
        own = [spec["labelFontSize"]] if "labelFontSize" in spec else []
        return own + [size for value in spec.values() for size in font_sizes(value)]
    if isinstance(spec, list):
        return [size for value in spec for size in font_sizes(value)]
    return []


def test_presenting_view_draws_the_page_charts_large_without_the_decision_explanations() -> None:
    normal, shown = run_app(), run_app({"present": "true"})
    assert not shown.exception
    why = "Why “not significant” is not “no worse”"
    assert any(why in e.label for e in normal.expander)  # the expander the view leaves out
    assert not any(why in e.label for e in shown.expander)
    assert DECISION_INTRO in texts(normal) and DECISION_INTRO not in texts(shown)
    assert any(s.key == "question" for s in shown.radio)  # the question stays (CSS hides it)
    # The p-value, gates and decision charts, in page order; the teaching sections are folded.
    small, large = chart_specs(normal), chart_specs(shown)
    assert len(large) == len(small) == 3
    for big, plain in zip(large, small, strict=True):
        assert big["height"] > plain["height"]
        assert font_sizes(plain) == []  # the theme's sizes, 12 to 14 px
        assert font_sizes(big) and set(font_sizes(big)) == {LARGE_FONT}


@pytest.mark.parametrize("query", [{"t_null": "maybe"}, {"agree": "-3"}, {"present": "2"}])
def test_bad_teaching_url_values_warn_and_fall_back(query: dict[str, str]) -> None:
    at = run_app(query)
    assert not at.exception
    assert any("must be" in w.value for w in at.warning)
