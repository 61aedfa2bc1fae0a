"""AppTest checks of the calculator page: numbers, inputs, URL parameters, framing, examples.

Expected figures are the values printed by the published worked examples (the McNemar test
article's examples, the classifier-comparison tutorial, the original calculator page's
defaults), rounded as printed there; where a figure is not printed there it is taken from
the statistics core (`calculator`), which has its own provenance-headed tests.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from apptest_pages import (
    count_labels,
    live_panel,
    panel_captions,
    panel_metrics,
    panel_table,
    panel_texts,
    set_counts,
    share_link,
    shown_counts,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from calculator import analyze
from calculator.report.formatting import format_pvalue
from calculator.report.words import text
from ui.examples import EXAMPLES
from ui.params import DEFAULTS
from ui.widgets.calculator_results import REPORT_KEY

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGE = str(ROOT / "app_pages" / "calculator.py")
TIMEOUT = 60


def run_app(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query or {})
    return at.run()


def unescape(markdown: str) -> str:
    """Drop the backslashes the page puts before Markdown characters."""
    return re.sub(r"\\(.)", r"\1", markdown)


def metrics(at: AppTest) -> dict[str, str]:
    """Every card: the live panel's four (plain text), then Streamlit's metrics."""
    return {**panel_metrics(at), **{unescape(m.label): m.value for m in at.metric}}


def captions(at: AppTest) -> str:
    return "\n".join([*panel_captions(at), *(unescape(c.value) for c in at.caption)])


def texts(at: AppTest) -> str:
    return "\n".join([*panel_texts(at), *(unescape(m.value) for m in at.markdown)])


def table_cells(at: AppTest) -> list[dict]:
    """The live panel's 2 x 2 cells, row by row: each with its text and its mark."""
    return [cell for row in panel_table(at)["cells"] for cell in row]


def pvalues(at: AppTest) -> list[str]:
    """Every p-value the page shows: the two p cards and each "p = ..." in the captions."""
    shown = metrics(at)
    exact = shown.get("Exact McNemar p", shown.get("McNemar mid-p"))  # label by convention
    cards = [exact, shown["Unpaired test p, same data"]]
    return cards + re.findall(r"p = [0-9.e-]+", captions(at))


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    for value in metrics(at).values():
        assert not re.search(r"\bnan\b|\binf\b", value, re.IGNORECASE), value


# -- Default state: the original calculator page (its printed figures for 60, 15, 5, 20 and
# -- "6 gates, alpha 0.05"). ------------------------------------------------------------------


@pytest.fixture(scope="module")
def default_app() -> AppTest:
    return run_app()


def test_default_render_shows_the_seed_page_numbers(default_app: AppTest) -> None:
    assert_clean(default_app)
    shown = metrics(default_app)
    assert shown["Pass-rate difference, A − B"] == "+10.0 pts"
    assert shown["McNemar χ²"] == "5.00"
    assert shown["Exact McNemar p"] == "0.041"
    assert shown["Unpaired test p, same data"] == "0.123"
    assert shown["At least one false alarm"] == "26.5%"
    # The source prints 0.0083 and 0.0085; per-gate levels now keep three figures (issue 11).
    assert shown["Per-gate α for 0.05 overall"] == "0.00833"
    notes = captions(default_app)
    assert "95% CI +1.2 to +18.4 pts (Agresti-Min)" in notes
    assert "Asymptotic p = 0.025, 1 df" in notes
    assert "Šidák 1 − (1 − α)^(1/m) gives 0.00851" in notes
    assert "Two-sided binomial test given the 20 discordant pairs" in notes
    assert "A passes 75 of 100 tasks, B passes 65." in texts(default_app)
    assert not default_app.warning


def test_default_widgets_hold_the_defaults(default_app: AppTest) -> None:
    assert shown_counts(default_app) == {key: DEFAULTS[key] for key in "abcd"}
    for key in ("gates", "alpha", "level"):
        assert default_app.number_input(key=key).value == DEFAULTS[key]
    assert default_app.slider(key="rho").value == DEFAULTS["rho"]
    assert default_app.selectbox(key="ci").value == DEFAULTS["ci"]
    assert default_app.toggle(key="cc").value is False
    assert default_app.toggle(key="logp").value is False
    assert default_app.text_input(key="name_a").value == "A"
    assert default_app.text_input(key="name_b").value == "B"


def test_report_is_drawn_when_asked_and_is_the_analysis_report(default_app: AppTest) -> None:
    # No code block until asked: the first one makes the browser load a syntax highlighter.
    assert not default_app.code
    at = run_app()
    at.toggle(key=REPORT_KEY).set_value(True).run()
    assert_clean(at)
    assert [block.value for block in at.code] == [text(analyze(60, 15, 5, 20, gates=6))]


def test_discordant_cells_are_highlighted_in_the_table(default_app: AppTest) -> None:
    # The browser marks the cells the payload marks (tests/browser/test_page.py sees the mark).
    highlighted = [cell["text"] for cell in table_cells(default_app) if cell["discordant"]]
    assert highlighted == ["b = 15", "c = 5"]


# -- Each input changes the right outputs. ----------------------------------------------------


def test_moving_a_changes_only_the_unpaired_test(default_app: AppTest) -> None:
    before = metrics(default_app)
    at = run_app()
    set_counts(at, a=600)
    after = metrics(at)
    assert after["Exact McNemar p"] == before["Exact McNemar p"]
    assert after["McNemar χ²"] == before["McNemar χ²"]
    # statsmodels 0.14: proportions_ztest([615, 605], [640, 640]) -> z = 1.322, p = 0.186.
    assert after["Unpaired test p, same data"] == "0.186"
    assert "A passes 615 of 640 tasks, B passes 605." in texts(at)


@pytest.mark.parametrize(("key", "value"), [("b", 10), ("c", 18)])
def test_discordant_counts_change_mcnemar(key: str, value: int) -> None:
    at = run_app()
    set_counts(at, **{key: value})
    counts = {k: shown_counts(at)[k] for k in "abcd"}
    expected = analyze(*(counts[k] for k in "abcd"))
    shown = metrics(at)
    assert shown["Exact McNemar p"] == format_pvalue(expected.exact.pvalue)
    assert shown["Exact McNemar p"] != "0.041"
    assert shown["McNemar χ²"] == f"{expected.chi2.statistic:.2f}"


def test_discordant_counts_from_the_seed_give_the_seed_p_values() -> None:
    at = run_app({"b": "10", "c": "18"})
    assert metrics(at)["Exact McNemar p"] == "0.185"
    at = run_app({"b": "2", "c": "10"})
    assert metrics(at)["Exact McNemar p"] == "0.039"


def test_moving_d_changes_the_difference_but_not_mcnemar(default_app: AppTest) -> None:
    at = run_app()
    set_counts(at, d=920)
    shown = metrics(at)
    assert shown["Exact McNemar p"] == "0.041"
    assert shown["McNemar χ²"] == "5.00"
    assert shown["Pass-rate difference, A − B"] == "+1.0 pts"  # (15 - 5)/1000


def test_a_count_held_by_the_page_reaches_every_figure() -> None:
    at = run_app()
    set_counts(at, b=40)
    assert shown_counts(at)["b"] == 40
    assert metrics(at)["Pass-rate difference, A − B"] == "+28.0 pts"  # (40 - 5)/125


def test_typed_value_past_the_slider_widens_it() -> None:
    at = run_app()
    set_counts(at, a=123_456)
    slider_max = {item["key"]: item["slider_max"] for item in live_panel(at)["counts"]["inputs"]}
    assert slider_max == {"a": 200_000, "b": 100, "c": 100, "d": 100}  # the next 1-2-5 step
    at.number_input(key="gates").set_value(400).run()
    assert at.slider(key="gates_slider").value == 400
    assert at.slider(key="gates_slider").max >= 400


def test_counts_up_to_a_billion() -> None:
    at = run_app({"a": "1000000000", "b": "1000000000", "c": "0", "d": "0"})
    assert_clean(at)
    assert shown_counts(at)["a"] == 10**9
    assert "< 1e-300" in metrics(at)["Exact McNemar p"]


def test_empty_table_gives_a_message_not_a_traceback() -> None:
    at = run_app({"a": "0", "b": "0", "c": "0", "d": "0"})
    assert_clean(at)
    assert any("at least one case" in e.value for e in at.error)


def test_gates_alpha_and_rho_change_the_gate_figures() -> None:
    at = run_app()
    at.number_input(key="gates").set_value(20).run()
    shown = metrics(at)
    assert shown["At least one false alarm"] == "64.2%"  # 1 - 0.95**20
    assert shown["Per-gate α for 0.05 overall"] == "0.00250"
    assert shown["Exact McNemar p"] == "0.041"
    at.number_input(key="alpha").set_value(0.01).run()
    assert metrics(at)["At least one false alarm"] == "18.2%"  # 1 - 0.99**20
    bonferroni = metrics(at)["Per-gate α for 0.01 overall"]
    at.slider(key="rho").set_value(0.8).run()
    shown = metrics(at)
    assert float(shown["At least one false alarm"].rstrip("%")) < 18.2
    assert shown["Per-gate α for 0.01 overall"] == bonferroni


def test_level_and_interval_method_change_only_the_interval() -> None:
    at = run_app()
    at.number_input(key="level").set_value(0.9).run()
    assert "90% CI" in captions(at)
    assert metrics(at)["Pass-rate difference, A − B"] == "+10.0 pts"
    at.selectbox(key="ci").set_value("newcombe").run()
    assert "(Newcombe)" in captions(at)
    assert metrics(at)["Exact McNemar p"] == "0.041"


def test_convention_and_continuity_correction() -> None:
    at = run_app()
    at.segmented_control(key="conv").set_value("mid-p").run()
    expected = analyze(60, 15, 5, 20, convention="mid-p")
    # Mid-p is not an exact p: the card says so (issue 11), and p keeps its side of alpha.
    assert "Exact McNemar p" not in metrics(at)
    assert metrics(at)["McNemar mid-p"] == format_pvalue(expected.mid_p.pvalue, alpha=0.05)
    assert "(mid-p, two-sided)" in captions(at)
    at.toggle(key="cc").set_value(True).run()
    assert metrics(at)["McNemar χ²"] == "4.05"  # (|15 - 5| - 1)^2 / 20
    assert "continuity-corrected" in captions(at)


def test_names_are_used_in_labels_and_sentences() -> None:
    at = run_app()
    at.text_input(key="name_a").set_value("Model *v2*").run()
    at.text_input(key="name_b").set_value("Baseline").run()
    shown = metrics(at)
    assert "Pass-rate difference, Model *v2* − Baseline" in shown
    assert "Model *v2* passes 75 of 100 tasks, Baseline passes 65." in texts(at)
    assert count_labels(at)["b"].startswith("b: only Model *v2* passes")
    assert "Treats Model *v2* and Baseline as independent samples" in captions(at)
    # The names reach the live panel as plain text, which the browser sets as text (never as
    # Markdown or markup: "*v2*" is not turned into italics; tests/browser/test_page.py shows
    # an "<img ...>" name as typed), and reach every Markdown surface escaped.
    assert live_panel(at)["cards"][0]["label"] == "Pass-rate difference, Model *v2* − Baseline"
    assert any(r"Model \*v2\*" in m.value for m in at.markdown)


def test_log_axis_switches_the_chart_to_log10_p() -> None:
    at = run_app()
    assert '"field": "p"' in live_panel(at)["chart"]["layout"]
    assert live_panel(at)["chart"]["label"].startswith("p-value as the both-pass count a changes.")
    at.toggle(key="logp").set_value(True).run()
    assert_clean(at)
    assert at.toggle(key="logp").value is True
    chart = live_panel(at)["chart"]
    assert '"field": "log10_p"' in chart["layout"]
    assert [row["log10_p"] for row in chart["datasets"]["alpha"]] == [pytest.approx(-1.30103)]


# -- URL parameters. ---------------------------------------------------------------------------


def test_url_parameters_seed_every_widget() -> None:
    query = {
        "a": "70", "b": "4", "c": "12", "d": "14", "gates": "3", "alpha": "0.01", "rho": "0.5",
        "level": "0.9", "ci": "tango", "conv": "mid-p", "cc": "true", "name_a": "New",
        "name_b": "Old", "framing": "correct", "logp": "true",
    }  # fmt: skip
    at = run_app(query)
    assert_clean(at)
    assert not at.warning
    assert shown_counts(at) == {key: int(query[key]) for key in "abcd"}
    assert at.number_input(key="gates").value == int(query["gates"])
    assert at.number_input(key="alpha").value == pytest.approx(0.01)
    assert at.number_input(key="level").value == pytest.approx(0.9)
    assert at.slider(key="rho").value == pytest.approx(0.5)
    assert at.selectbox(key="ci").value == "tango"
    assert at.segmented_control(key="conv").value == "mid-p"
    assert at.segmented_control(key="framing").value == "correct"
    assert at.toggle(key="cc").value is True
    assert at.toggle(key="logp").value is True
    assert at.text_input(key="name_a").value == "New"
    assert at.text_input(key="name_b").value == "Old"


def test_seed_table_from_url_gives_the_seed_figures() -> None:
    # The McNemar article's example 70, 4, 12, 14 -> exact p 0.077; chi2 corrected 3.06, p 0.080;
    # unpaired 0.172.
    at = run_app({"a": "70", "b": "4", "c": "12", "d": "14", "cc": "true"})
    shown = metrics(at)
    assert shown["Exact McNemar p"] == "0.077"
    assert shown["McNemar χ²"] == "3.06"
    assert "p = 0.080" in captions(at)
    assert shown["Unpaired test p, same data"] == "0.172"


# Two URLs, each with one unusable value for every key of the page (one app run each).
MALFORMED = [
    {
        "a": "-5", "b": "abc", "c": "1e99", "d": "1000000001", "gates": "0", "alpha": "0",
        "rho": "1.5", "level": "2", "ci": "bogus", "conv": "DOUBLING", "cc": "maybe",
        "logp": "1", "framing": "errors", "name_a": "x" * 5000, "name_b": "   ",
    },
    {
        "a": "inf", "b": "nan", "c": "5.7", "d": "-inf", "gates": "99999999999",
        "alpha": "nan", "rho": "-0.1", "level": "inf", "ci": "", "conv": "mid_p", "cc": "",
        "logp": "yes", "framing": "PASS", "name_a": "tab\there", "name_b": "9" * 5000,
    },
]  # fmt: skip
WIDGET_KIND = {
    "ci": "selectbox", "conv": "segmented_control", "framing": "segmented_control",
    "cc": "toggle", "logp": "toggle", "rho": "slider", "name_a": "text_input",
    "name_b": "text_input",
}  # fmt: skip


@pytest.mark.parametrize("query", MALFORMED, ids=["set1", "set2"])
def test_malformed_parameters_warn_and_fall_back(query: dict[str, str]) -> None:
    at = run_app({**query, "zoom": "3"})
    assert_clean(at)
    warnings = [unescape(w.value) for w in at.warning]
    assert len(warnings) == len(query) + 1
    for key in query:
        assert any(f'URL parameter "{key}" must be' in w and "using the default" in w
                   for w in warnings), key  # fmt: skip
        if key in ("a", "b", "c", "d"):  # drawn by the live panel
            assert shown_counts(at)[key] == DEFAULTS[key], key
            continue
        widget = getattr(at, WIDGET_KIND.get(key, "number_input"))(key=key)
        assert widget.value == DEFAULTS[key], key
    assert 'Unknown URL parameter "zoom" was ignored.' in warnings
    assert metrics(at) == metrics(run_app())  # the defaults' results, in full


def test_good_parameters_survive_next_to_bad_ones() -> None:
    at = run_app({"a": "70", "b": "abc", "zoom": "3"})
    warnings = [unescape(w.value) for w in at.warning]
    assert any('"b"' in w for w in warnings)
    assert any('Unknown URL parameter "zoom"' in w for w in warnings)
    assert shown_counts(at)["a"] == 70
    assert shown_counts(at)["b"] == 15


def test_url_warnings_disappear_after_the_next_interaction() -> None:
    at = run_app({"level": "2"})
    assert at.warning
    set_counts(at, a=61)
    assert not at.warning


# -- Framing. ----------------------------------------------------------------------------------


def test_framing_switch_relabels_without_changing_any_p() -> None:
    at = run_app({"a": "70", "b": "4", "c": "12", "d": "14"})
    before_p, before = pvalues(at), metrics(at)
    at.segmented_control(key="framing").set_value("correct").run()
    assert_clean(at)
    after = metrics(at)
    assert pvalues(at) == before_p
    assert after["McNemar χ²"] == before["McNemar χ²"]
    assert after["Error-rate difference, A − B"] == "+8.0 pts"  # -(4 - 12)/100
    assert before["Pass-rate difference, A − B"] == "-8.0 pts"
    assert count_labels(at)["a"].startswith("a: both correct")
    assert count_labels(at)["c"] == "c: only B correct (A wrong)"
    assert "A is correct on 74 of 100 cases, B on 82" in texts(at)
    assert "B correct" in panel_table(at)["columns"]
    # The report uses the error wording too (from analyze(..., framing="correct")).
    at.toggle(key=REPORT_KEY).set_value(True).run()
    assert at.code[0].value == text(analyze(70, 4, 12, 14, gates=6, framing="correct"))


# -- Worked examples (the values their sources print). ----------------------------

SEED_EXACT_P = {
    "seed_page": "0.041",
    "mcnemar_seed": "0.077",
    "gap_many": "0.185",
    "gap_few": "0.039",
    "errors_12_3": "0.035",  # 1152/32768 = 0.03515625
    "errors_100": "0.115",  # printed 0.1153
    "errors_40": "0.109",  # printed 0.109375
}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_each_worked_example_loads(example) -> None:
    at = run_app({"name_a": "Left"})
    at.button(key=f"example_{example.key}").click().run()
    assert_clean(at)
    assert tuple(shown_counts(at)[k] for k in "abcd") == example.table
    assert at.segmented_control(key="framing").value == example.framing
    assert at.toggle(key="cc").value is example.cc
    assert metrics(at)["Exact McNemar p"] == SEED_EXACT_P[example.key]
    assert at.text_input(key="name_a").value == "Left"
    assert "Worked example: " in unescape(at.info[0].value)


def test_classifier_example_shows_the_seed_error_rates() -> None:
    at = run_app()
    at.button(key="example_errors_100").click().run()
    # Seed: error rates 0.22 vs 0.14, exact p 0.1153.
    assert "(errors: A 22, B 14)" in texts(at)
    assert metrics(at)["Error-rate difference, A − B"] == "+8.0 pts"


def test_example_note_disappears_once_a_count_moves() -> None:
    at = run_app()
    at.button(key="example_gap_few").click().run()
    assert at.info
    set_counts(at, d=11)
    assert not at.info


# -- load_table from another page. ------------------------------------------------------------


def _two_page_app(page_path: str) -> None:
    import streamlit as st

    from ui.widgets.state import load_table

    def loader() -> None:
        if st.button("Load", key="load"):
            load_table(7, 8, 9, 10, source="cases.csv")
            st.switch_page(page_path)

    pages = [st.Page(loader, title="Loader", default=True), st.Page(page_path, title="Calculator")]
    st.navigation(pages).run()


def test_load_table_shows_the_table_with_a_from_data_note() -> None:
    at = AppTest.from_function(_two_page_app, args=(PAGE,), default_timeout=TIMEOUT).run()
    at.button(key="load").click().run()
    assert_clean(at)
    assert tuple(shown_counts(at)[k] for k in "abcd") == (7, 8, 9, 10)
    assert unescape(at.info[0].value) == "From data: cases.csv"
    set_counts(at, a=8)
    assert not at.info


# -- No input crashes the page. ----------------------------------------------------------------

HOSTILE = st.sampled_from(
    ["", " ", "-1", "0", "1", "1e309", "-0", "0x10", "1_000", "NaN", "Infinity", "∞", "٣",
     "<script>", "$x$", ":red[x]", "**", "\x00", "a" * 300, "99999999999999999999999"]
)  # fmt: skip
VALUE = st.one_of(HOSTILE, st.integers(-10, 2 * 10**9).map(str), st.text(max_size=12))
QUERY = st.dictionaries(st.sampled_from([*DEFAULTS, "zz", "embed_x"]), VALUE, max_size=6)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    query=QUERY,
    counts=st.tuples(*(st.integers(0, 10**9) | st.integers(0, 30) for _ in range(4))),
    gates=st.integers(1, 10**6) | st.integers(1, 60),
    name=st.text(max_size=40),
)
def test_no_input_reaches_the_page_as_an_exception(query, counts, gates, name) -> None:
    at = run_app(query)
    assert_clean(at)
    for key, value in zip("abcd", counts, strict=True):
        at.session_state[key] = value  # as the live panel's callback sets them (set_counts)
    at.number_input(key="gates").set_value(gates)
    at.text_input(key="name_a").set_value(name)
    at.run()
    assert_clean(at)
    if sum(counts):
        shown = metrics(at)  # the binomial card is "McNemar mid-p" under that convention
        assert shown.get("Exact McNemar p") or shown.get("McNemar mid-p")
    else:
        assert at.error


def test_share_link_is_a_link_that_reopens_the_state() -> None:
    at = run_app({"name_a": "M (new) [x]_*", "b": "30"})
    assert_clean(at)
    assert not at.code  # a link, not a code block (see test_report_is_drawn_when_asked...)
    link = share_link(at)
    assert " " not in link and "(" not in link and ")" not in link
    query = dict(parse_qsl(urlsplit(link).query))
    assert query == {"name_a": "M (new) [x]_*", "b": "30"}
    assert_clean(run_app(query))
    assert share_link(run_app(query)) == link
