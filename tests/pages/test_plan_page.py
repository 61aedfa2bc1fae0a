"""The "Plan" page (AppTest) and its chart builders in ui/plan_charts.py (``chart.to_dict()``).

Expected numbers come from calculator.planning, checked in tests/test_planning.py.
"""

from __future__ import annotations

import pandas as pd
import pytest
from apptest_pages import open_page as open_app_page
from streamlit.testing.v1 import AppTest

from calculator.planning import MAX_N, plan, simulate_optional_stopping
from calculator.report.formatting import format_percent
from calculator.report.words import text
from ui.plan_charts import optional_stopping_chart, power_chart

PAGE = "app_pages/plan.py"


def open_page() -> AppTest:
    return open_app_page(PAGE)


def metrics(at: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def charts(at: AppTest) -> list:
    return at.get("vega_lite_chart")


def test_default_plan_shows_n_power_connor_chart_and_sentence() -> None:
    at = open_page()
    assert not at.error
    # Defaults: pass rate of A 80%, difference 3 points, disagreement 10% -> p10 0.065, p01 0.035.
    expected = plan(pass_rate_a=0.8, difference=0.03, disagreement=0.1)
    shown = metrics(at)
    assert shown["Required paired cases"] == f"{expected.n:,}"
    assert shown["Connor's approximation"] == f"{expected.connor_n:,}"
    assert "p10 = 0.065" in at.caption[0].value and "B 77.0%" in at.caption[0].value
    assert at.code[0].value == text(expected)
    assert len(charts(at)) == 2  # power curve and optional stopping


def test_impossible_plan_shows_the_reason_not_a_traceback() -> None:
    at = open_page()
    at.radio(key="plan_mode").set_value("Cell probabilities p10 and p01").run()
    at.number_input(key="plan_p10").set_value(0.7).run()
    at.number_input(key="plan_p01").set_value(0.5).run()
    assert not at.exception
    assert "`p10` + `p01` must be at most 1" in at.error[0].value
    assert at.number_input(key="plan_p10").value == 0.7  # what the user typed is kept
    assert len(charts(at)) == 1  # the peeking simulation still runs


def test_difference_larger_than_disagreement_is_explained() -> None:
    at = open_page()
    at.number_input(key="plan_difference").set_value(20.0).run()
    assert not at.exception
    assert "`difference` must be at most the share of disagreement" in at.error[0].value


def test_power_for_a_given_n_and_the_saw_tooth_warning() -> None:
    at = open_page()
    at.radio(key="plan_mode").set_value("Cell probabilities p10 and p01").run()
    at.number_input(key="plan_p10").set_value(0.2).run()
    at.number_input(key="plan_p01").set_value(0.8).run()
    assert metrics(at)["Required paired cases"] == "20"
    assert "From 23 cases on" in at.warning[0].value
    at.radio(key="plan_goal").set_value("Power of a given number of pairs").run()
    at.number_input(key="plan_n").set_value(21).run()
    assert not at.exception and not at.error
    assert metrics(at)["Power"] == f"{plan(p10=0.2, p01=0.8, n=21).power:.1%}"


def test_number_of_pairs_is_bounded_by_the_cores_max_n() -> None:
    # Issue 16, item 10: the field allowed 10^7 pairs, beyond what the core computes.
    at = open_page()
    at.radio(key="plan_goal").set_value("Power of a given number of pairs").run()
    assert at.number_input(key="plan_n").max == MAX_N
    at.number_input(key="plan_n").set_value(MAX_N + 1).run()
    assert at.number_input(key="plan_n").value == 500  # refused by the field, the last value kept
    at.number_input(key="plan_n").set_value(MAX_N).run()
    assert not at.exception and not at.error
    expected = plan(pass_rate_a=0.8, difference=0.03, disagreement=0.1, n=MAX_N)
    assert metrics(at)["Power"] == format_percent(expected.power)


def test_a_plan_beyond_the_search_bound_is_refused_quickly_with_the_reason() -> None:
    # Issue 16, item 10: these cells (which the page accepts) once ran for over 400 s.
    at = open_page()
    at.radio(key="plan_mode").set_value("Cell probabilities p10 and p01").run()
    at.number_input(key="plan_p10").set_value(0.5005).run()
    at.number_input(key="plan_p01").set_value(0.4995).run()
    assert not at.exception
    assert "a search considers when the systems disagree" in at.error[0].value
    assert len(charts(at)) == 1  # the peeking simulation still runs


def test_peeking_section_reports_the_simulated_rate() -> None:
    at = open_page()
    at.slider(key="plan_looks").set_value(40).run()
    expected = simulate_optional_stopping(
        look_every=20, looks=40, disagreement=0.1, alpha=0.05, experiments=10_000, seed=2024
    )
    assert f"After 40 looks, {expected.false_positive_rate[-1]:.1%}" in at.caption[-1].value


# --- chart builders ----------------------------------------------------------------------------


def layer_data(spec: dict, index: int) -> pd.DataFrame:
    return pd.DataFrame(spec["datasets"][spec["layer"][index]["data"]["name"]])


@pytest.fixture(scope="module")
def saw_tooth_spec() -> dict:
    return power_chart(plan(p10=0.2, p01=0.8).power_curve(n_max=40)).to_dict()


def test_power_chart_draws_every_n_and_marks_target_and_n(saw_tooth_spec: dict) -> None:
    line = saw_tooth_spec["layer"][0]
    assert line["mark"]["type"] == "line"
    assert (line["encoding"]["x"]["field"], line["encoding"]["y"]["field"]) == ("n", "power")
    data = layer_data(saw_tooth_spec, 0)
    assert data["n"].tolist() == list(range(1, 41))
    target = layer_data(saw_tooth_spec, 3)
    assert target["power"].tolist() == [0.8]
    chosen = layer_data(saw_tooth_spec, 4)
    assert chosen["n"].tolist() == [20]


def test_power_chart_highlights_the_dips_after_the_plans_n(saw_tooth_spec: dict) -> None:
    dips = layer_data(saw_tooth_spec, 2)
    assert dips["n"].tolist() == [21, 22]  # power 76.9% and 73.3%, below the 80% target
    assert "2 sizes beyond n = 20 fall below it" in saw_tooth_spec["description"]


def test_optional_stopping_chart_shows_rate_band_and_nominal_alpha() -> None:
    result = simulate_optional_stopping(look_every=10, looks=15, experiments=2_000, seed=1)
    spec = optional_stopping_chart(result).to_dict()
    band, line, alpha_rule = spec["layer"][0], spec["layer"][1], spec["layer"][2]
    assert band["mark"]["type"] == "area" and line["mark"]["type"] == "line"
    data = layer_data(spec, 1)
    assert data["looks"].tolist() == list(range(1, 16))
    assert data["rate"].tolist() == pytest.approx(result.false_positive_rate.tolist())
    assert (data["low"] <= data["rate"]).all() and (data["rate"] <= data["high"]).all()
    assert layer_data(spec, 2)["rate"].tolist() == [0.05]
    assert alpha_rule["mark"]["type"] == "rule"
    assert "2,000 simulated experiments" in spec["description"]
