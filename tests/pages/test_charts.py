"""The page's two charts, checked on their Vega-Lite specs (``chart.to_dict()``): the layouts and
datasets of ui/calculator_charts.py joined as in ``apptest_pages``."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from apptest_pages import false_alarm_chart, pvalue_chart
from hypothesis import given
from hypothesis import strategies as st

from calculator.gates import MAX_GATES
from ui.calculator_charts import (
    GATE_RULES,
    SWEEP_TESTS,
    false_alarm_frame,
    gate_grid,
    pvalue_sweep_frame,
    sweep_grid,
)


def contrast_ratio(colour: str, background: str = "#ffffff") -> float:
    """WCAG 2.1 contrast ratio of two sRGB colours (relative luminance, section 1.4.3)."""

    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(colour), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_ratio_matches_wcag_examples() -> None:
    # WCAG's extremes: black on white is 21:1; #767676 on white is the familiar 4.54:1.
    assert contrast_ratio("#000000") == pytest.approx(21.0)
    assert contrast_ratio("#767676") == pytest.approx(4.54, abs=0.01)


def layer_data(spec: dict, index: int) -> pd.DataFrame:
    """The inline dataset behind layer `index` of a layered spec."""
    name = spec["layer"][index]["data"]["name"]
    return pd.DataFrame(spec["datasets"][name])


@pytest.fixture(scope="module")
def seed_spec() -> dict:
    frame = pvalue_sweep_frame(60, 15, 5, 20)
    return pvalue_chart(frame, current_a=60, alpha=0.05).to_dict()


def test_pvalue_lines_encode_a_p_and_the_test(seed_spec: dict) -> None:
    lines = seed_spec["layer"][0]
    assert lines["mark"]["type"] == "line"
    enc = lines["encoding"]
    assert (enc["x"]["field"], enc["x"]["type"]) == ("a", "quantitative")
    # From 0 up to what the data and the alpha rule need (not fixed at 1, which squashed the
    # worked example's lines at 0.025 and 0.041 together).
    assert (enc["y"]["field"], enc["y"]["scale"]) == ("p", {"zero": True, "nice": True})
    assert enc["color"]["field"] == enc["strokeDash"]["field"] == "test"
    assert enc["color"]["scale"]["domain"] == list(SWEEP_TESTS)
    colours = enc["color"]["scale"]["range"]
    assert len(set(colours)) == 3
    # Chart marks need 3:1 against the white page (WCAG 2.1, 1.4.11 non-text contrast).
    assert min(contrast_ratio(colour) for colour in colours) >= 3.0
    dashes = enc["strokeDash"]["scale"]["range"]
    assert len({tuple(d) for d in dashes}) == 3  # each line has its own dash pattern
    assert enc["color"]["legend"]["title"] == enc["strokeDash"]["legend"]["title"]  # one legend
    assert enc["color"]["legend"]["columns"] == 1  # fits a phone: no row of three entries


def test_pvalue_chart_has_tooltips_title_and_alt_text(seed_spec: dict) -> None:
    hover = seed_spec["layer"][1]
    assert [t["field"] for t in hover["encoding"]["tooltip"]] == ["test", "a", "p_text"]
    assert "both-pass" in seed_spec["title"]["text"]
    assert "flat" in seed_spec["description"]
    assert "vertical rule marks the current a" in seed_spec["description"]
    # The same alt text for every a, so that a new a is new data in the same spec.
    other = pvalue_chart(pvalue_sweep_frame(61, 15, 5, 20), current_a=61, alpha=0.05).to_dict()
    assert other["description"] == seed_spec["description"]


def test_pvalue_rules_mark_current_a_and_alpha(seed_spec: dict) -> None:
    a_rule, alpha_rule = seed_spec["layer"][2], seed_spec["layer"][3]
    assert a_rule["mark"]["type"] == alpha_rule["mark"]["type"] == "rule"
    assert a_rule["encoding"]["x"]["field"] == "a"
    assert layer_data(seed_spec, 2)["a"].tolist() == [60]
    assert alpha_rule["encoding"]["y"]["field"] == "p"
    assert layer_data(seed_spec, 3)["p"].tolist() == [0.05]


def test_mcnemar_lines_are_flat_and_the_unpaired_line_moves(seed_spec: dict) -> None:
    data = layer_data(seed_spec, 0)
    by_test = {test: group["p"].to_numpy() for test, group in data.groupby("test")}
    assert np.ptp(by_test["Exact McNemar"]) == 0
    assert np.ptp(by_test["McNemar chi-square"]) == 0
    # From 0.010 at a = 0 to 0.152 at a = 120: more agreement dilutes the unpaired test.
    assert np.ptp(by_test["Unpaired z-test"]) > 0.1
    assert np.all(np.diff(by_test["Unpaired z-test"]) > 0)
    # Seed page: exact 0.041, chi-square 0.025 at every a; unpaired 0.123 at a = 60.
    assert by_test["Exact McNemar"][0] == pytest.approx(0.0414, abs=5e-4)
    assert by_test["McNemar chi-square"][0] == pytest.approx(0.0253, abs=5e-4)
    at_60 = data[(data["a"] == 60) & (data["test"] == "Unpaired z-test")]["p"]
    assert at_60.item() == pytest.approx(0.123, abs=5e-4)


def test_unpaired_p_can_be_smaller_than_mcnemar() -> None:
    # Issue 3: at a, b, c, d = 1, 1, 7, 12 the unpaired p (0.030) is below both McNemar p-values
    # (exact 0.070, chi-square 0.034), so the chart must not claim the unpaired test is the
    # conservative one.
    data = pvalue_sweep_frame(1, 1, 7, 12)
    at_1 = data[data["a"] == 1].set_index("test")["p"]
    assert at_1["Unpaired z-test"] < at_1["McNemar chi-square"] < at_1["Exact McNemar"]
    spec = pvalue_chart(data, current_a=1, alpha=0.05).to_dict()
    assert "conservative" not in str(spec["description"]) + str(spec["title"])


def test_log_axis_uses_finite_log10_values_even_when_p_underflows() -> None:
    # b = 0, c = 5000: exact log10 p = -4999 log10(2) = -1504.85 (by hand); p itself underflows to
    # 0.
    frame = pvalue_sweep_frame(10, 0, 5000, 10)
    assert (frame["p"] == 0).any()
    assert np.isfinite(frame["log10_p"]).all()
    spec = pvalue_chart(frame, current_a=10, alpha=0.05, log_axis=True).to_dict()
    assert spec["layer"][0]["encoding"]["y"]["field"] == "log10_p"
    assert layer_data(spec, 3)["log10_p"].item() == pytest.approx(math.log10(0.05))
    exact = frame[frame["test"] == "Exact McNemar"]
    assert exact["log10_p"].iloc[0] == pytest.approx(-1504.85, abs=0.01)
    assert exact["p_text"].iloc[0] == "< 1e-300 (log10 p = -1504.85)"


def test_chart_wording_follows_the_page() -> None:
    frame = pvalue_sweep_frame(60, 15, 5, 20)
    spec = pvalue_chart(
        frame, current_a=60, alpha=0.05, x_title="a: cases both correct", title="Both-correct"
    ).to_dict()
    assert spec["layer"][0]["encoding"]["x"]["title"] == "a: cases both correct"
    assert spec["title"]["text"] == "Both-correct"


@given(st.integers(0, 10**9))
def test_sweep_grid_covers_the_current_a(a: int) -> None:
    grid = sweep_grid(a)
    assert a in grid
    assert grid[0] == 0 and grid[-1] >= max(100, a)
    assert len(grid) <= 122 and np.all(np.diff(grid) > 0)


@pytest.fixture(scope="module")
def gates_spec() -> dict:
    return false_alarm_chart(false_alarm_frame(6, 0.05), current_gates=6, alpha=0.05).to_dict()


def test_gates_chart_encodings_and_rules(gates_spec: dict) -> None:
    enc = gates_spec["layer"][0]["encoding"]
    assert (enc["x"]["field"], enc["y"]["field"]) == ("gates", "rate")
    assert enc["color"]["field"] == enc["strokeDash"]["field"] == "rule"
    assert enc["color"]["scale"]["domain"] == list(GATE_RULES)
    # The x axis spans the data exactly (1 to 50 gates here), not rounded out to 0.
    assert enc["x"]["scale"] == {"zero": False, "nice": False}
    assert layer_data(gates_spec, 0)["gates"].agg(["min", "max"]).tolist() == [1, 50]
    assert layer_data(gates_spec, 2)["gates"].tolist() == [6]  # current m
    assert layer_data(gates_spec, 3)["rate"].tolist() == [0.05]  # alpha
    assert [t["field"] for t in gates_spec["layer"][1]["encoding"]["tooltip"]] == [
        "rule", "gates", "per_gate_alpha", "rate_text"
    ]  # fmt: skip
    assert "vertical rule marks the current m" in gates_spec["description"]
    other = false_alarm_chart(false_alarm_frame(7, 0.05), current_gates=7, alpha=0.05).to_dict()
    assert other["description"] == gates_spec["description"]


def test_gates_data_matches_the_seed(gates_spec: dict) -> None:
    data = layer_data(gates_spec, 0).set_index(["rule", "gates"])
    # The original calculator page: 6 gates at 0.05 -> 26.5% false alarms; Bonferroni 0.0083; Sidak
    # 0.0085.
    assert data.loc[("Uncorrected", 6), "rate"] == pytest.approx(0.265, abs=5e-4)
    assert data.loc[("Bonferroni", 6), "per_gate_alpha"] == pytest.approx(0.0083, abs=5e-5)
    assert data.loc[("Šidák", 6), "per_gate_alpha"] == pytest.approx(0.0085, abs=5e-5)
    corrected = data.loc[["Bonferroni", "Šidák"], "rate"]
    assert (corrected <= 0.05 + 1e-12).all()
    assert data.loc[("Šidák", 50), "rate"] == pytest.approx(0.05)  # exact for independent gates
    assert data.loc["Uncorrected", "rate"].is_monotonic_increasing


def test_correlated_gates_fire_together() -> None:
    independent = false_alarm_frame(20, 0.05, 0.0).set_index(["rule", "gates"])["rate"]
    correlated = false_alarm_frame(20, 0.05, 0.8).set_index(["rule", "gates"])["rate"]
    assert correlated[("Uncorrected", 20)] < independent[("Uncorrected", 20)]
    assert correlated[("Uncorrected", 1)] == pytest.approx(0.05)


def test_many_gates_switch_to_a_log_axis_within_the_core_limit() -> None:
    frame = false_alarm_frame(MAX_GATES, 0.05)
    assert frame["gates"].max() == MAX_GATES
    spec = false_alarm_chart(frame, current_gates=MAX_GATES, alpha=0.05).to_dict()
    assert spec["layer"][0]["encoding"]["x"]["scale"]["type"] == "log"
    assert np.isfinite(frame["rate"]).all()


@given(st.integers(1, MAX_GATES))
def test_gate_grid_includes_m_and_stays_in_range(gates: int) -> None:
    grid = gate_grid(gates)
    assert gates in grid
    assert grid[0] == 1 and grid[-1] <= MAX_GATES and grid[-1] >= min(50, MAX_GATES)
