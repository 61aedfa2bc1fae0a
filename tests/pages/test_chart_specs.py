"""The page's chart specs are the charts Altair builds, whatever shortcut they take.

The live panel's p-value chart (`ui.live_panel.chart_layout` and `chart_rows`) and the gates'
chart (`ui.widgets.cache.false_alarm_spec`) build each layout once and send their datasets apart,
as JSON rows. The reference here is the plain route: the layout with its data inline
(`apptest_pages.pvalue_chart`, `false_alarm_chart`), then Altair's schema-validated `to_dict()`.

The presenting view's charts (`large=True`) differ from the normal ones in their sizes alone, and
the normal ones are as reviewed (chart_specs_normal.json).
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import altair as alt
import pandas as pd
import pytest
from apptest_pages import false_alarm_chart, pvalue_chart

from calculator import analyze
from calculator.report.formatting import format_points
from calculator.teaching import margin_sweep, null_distribution, operating_characteristics
from ui.calculator_charts import (
    false_alarm_frame,
    false_alarm_layout,
    pvalue_layout,
    pvalue_sweep_frame,
)
from ui.decision_chart import decision_chart, interval_frame
from ui.live_panel import chart_layout, chart_rows
from ui.teaching_charts import coverage_chart, null_distribution_chart, pairing_chart
from ui.words import Wording

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from ui.widgets.cache import false_alarm_spec


def layout(spec: dict) -> dict:
    """The spec without its data or Altair's theme config."""
    return {k: v for k, v in spec.items() if k not in {"datasets", "config"}}


def assert_same_chart(cached: dict, reference: dict) -> None:
    """Same layout, and the same tables (JSON rows, as the live panel's bundle draws them)."""
    assert layout(cached) == layout(reference)
    assert set(cached["datasets"]) == set(reference["datasets"])
    for name, table in cached["datasets"].items():
        pd.testing.assert_frame_equal(
            pd.DataFrame(table), pd.DataFrame(reference["datasets"][name]), check_dtype=False
        )


def pvalue_spec(a, b, c, d, *, convention, correction, alpha, log_axis, x_title, title) -> dict:
    """The live panel's p-value chart as the page sends it: its layout (a JSON string) and its
    rows (:func:`ui.widgets.calculator_results.live_results`)."""
    drawn = chart_layout(
        alpha=alpha,
        log_axis=log_axis,
        x_title=x_title,
        title=title,
        convention=convention,
        large=False,
    )
    rows = chart_rows(
        a, b, c, d, convention=convention, correction=correction, alpha=alpha, log_axis=log_axis
    )
    return {**json.loads(drawn["layout"]), "datasets": rows}


# (a, b, c, d, convention, correction, alpha, log_axis)
TABLES = [
    (60, 15, 5, 20, "doubling", False, 0.05, False),
    (60, 16, 5, 20, "doubling", False, 0.05, False),
    (60, 16, 5, 21, "mid-p", True, 0.05, False),
    (60, 0, 0, 20, "doubling", False, 0.05, False),
    (60, 15, 5, 20, "doubling", False, 0.05, True),
    (60, 900, 2, 20, "mid-p", False, 0.05, True),
    (7, 10**9, 0, 3, "doubling", True, 0.01, True),
    (0, 0, 0, 0, "doubling", False, 0.5, False),
]


@pytest.mark.parametrize(("a", "b", "c", "d", "convention", "correction", "alpha", "log"), TABLES)
def test_pvalue_spec_is_the_chart_altair_builds(a, b, c, d, convention, correction, alpha, log):
    frame = pvalue_sweep_frame(a, b, c, d, convention=convention, correction=correction)
    chart = pvalue_chart(frame, current_a=a, alpha=alpha, log_axis=log, x_title="x", title="t")
    cached = pvalue_spec(
        a, b, c, d, convention=convention, correction=correction, alpha=alpha,
        log_axis=log, x_title="x", title="t",
    )  # fmt: skip
    assert_same_chart(cached, chart.to_dict())


@pytest.mark.parametrize(
    ("gates", "alpha", "rho"),
    [(6, 0.05, 0.0), (40, 0.05, 0.0), (101, 0.01, 0.5), (1, 0.5, 1.0), (10**6, 0.05, 0.0)],
)
def test_false_alarm_spec_is_the_chart_altair_builds(gates, alpha, rho):
    chart = false_alarm_chart(
        false_alarm_frame(gates, alpha, rho), current_gates=gates, alpha=alpha, rho=rho
    )
    assert_same_chart(false_alarm_spec(gates, alpha, rho), chart.to_dict())


def test_a_new_table_changes_only_the_data_of_the_pvalue_spec():
    # What lets the browser swap the rows into the drawn chart instead of drawing it anew.
    options = {"convention": "doubling", "correction": False, "alpha": 0.05, "log_axis": True}
    first = pvalue_spec(60, 15, 5, 20, **options, x_title="x", title="t")
    for other in [(60, 16, 5, 20), (61, 15, 5, 20), (0, 10**9, 3, 0)]:
        second = pvalue_spec(*other, **options, x_title="x", title="t")
        assert layout(second) == layout(first)
        assert second["datasets"]["sweep"] != first["datasets"]["sweep"]


@pytest.mark.parametrize(("first", "second"), [(101, 102), (6, 7), (26, 50)])
def test_a_new_gate_count_changes_only_the_data_of_the_gates_spec(first, second):
    before, after = false_alarm_spec(first, 0.05, 0.0), false_alarm_spec(second, 0.05, 0.0)
    assert layout(after) == layout(before)
    assert after["datasets"]["current_m"] != before["datasets"]["current_m"]


# ---------------------------------------------------------------------------------------------
# The presenting view's large charts (`large=True`): only sizes change
# ---------------------------------------------------------------------------------------------
# What `large` may change: text sizes, line widths, point areas, mark and chart heights, and the
# offset of a label that grows with its text. Nothing else: data, encodings, colours, dashes.
SIZE_KEYS = frozenset(
    {
        "labelFontSize", "titleFontSize", "fontSize", "subtitleFontSize",
        "strokeWidth", "symbolStrokeWidth", "symbolSize", "size", "height", "dy", "labelLimit",
    }
)  # fmt: skip
FONT_KEYS = frozenset({"labelFontSize", "titleFontSize", "fontSize", "subtitleFontSize"})
# The Streamlit theme's chart text (streamlit 1.67 frontend, CustomTheme: axis labels twoSm = 12 px,
# axis and legend titles sm = 14 px, chart titles md = 16 px) and Vega-Lite's defaults (10, 11, 13
# px): a large chart's text must beat them all. The teaching charts set 13 px themselves.
LARGEST_THEME_FONT = 16


def _charts(large: bool) -> dict[str, alt.TopLevelMixin]:
    """Every chart builder of the calculator page, at both kinds of input that shape it."""
    return {
        "p-value, linear": pvalue_layout(
            alpha=0.05, log_axis=False, x_title="x", title="t", large=large
        ),
        "p-value, log, mid-p": pvalue_layout(
            alpha=0.01, log_axis=True, x_title="x", title="t", convention="mid-p", large=large
        ),
        "gates, linear": false_alarm_layout(alpha=0.05, rho=0.0, log_x=False, large=large),
        "gates, log": false_alarm_layout(alpha=0.01, rho=0.5, log_x=True, large=large),
        "decision, non-inferior": decision_chart(
            analyze(60, 5, 15, 20, margin=0.05).decision, Wording("old", "new"), large=large
        ),
        "decision, equivalent": decision_chart(
            analyze(43, 0, 1, 0, question="equivalent", margin=0.1).decision, Wording(), large=large
        ),
        "decision, two-sided": decision_chart(
            analyze(60, 15, 5, 20).decision, Wording(), large=large
        ),
        "null, bars": null_distribution_chart(null_distribution(10, 2), large=large),
        "null, outline": null_distribution_chart(null_distribution(1000, 480), large=large),
        "coverage": coverage_chart(operating_characteristics(30, 0.2, 0.1), large=large),
        "pairing": pairing_chart(
            margin_sweep(60, 15, 5, 20), 20, alpha=0.05, independent_agreement=0.6, large=large
        ),
    }


@pytest.fixture(scope="module")
def specs() -> dict[bool, dict[str, dict]]:
    return {large: {k: c.to_dict() for k, c in _charts(large).items()} for large in (False, True)}


def sizes(spec: object, path: tuple = ()) -> dict[tuple, object]:
    """Every size property in `spec`, by its path (keys and list indices)."""
    found: dict[tuple, object] = {}
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key in SIZE_KEYS and not isinstance(value, dict | list):
                found[(*path, key)] = value
            else:
                found.update(sizes(value, (*path, key)))
    elif isinstance(spec, list):
        for index, value in enumerate(spec):
            found.update(sizes(value, (*path, index)))
    return found


def spec_at(spec: object, path: tuple) -> object:
    for step in path:
        spec = spec[step]
    return spec


def without_sizes(spec: object) -> object:
    """`spec` with its size properties taken out, and any object left empty by that."""
    if isinstance(spec, dict):
        kept = {k: without_sizes(v) for k, v in spec.items() if k not in SIZE_KEYS}
        return {k: v for k, v in kept.items() if v != {} or spec[k] == {}}
    if isinstance(spec, list):
        return [without_sizes(v) for v in spec]
    return spec


CHART_NAMES = list(_charts(False))


@pytest.mark.parametrize("name", CHART_NAMES)
def test_large_chart_has_the_same_data_encodings_colours_and_dashes(specs, name):
    assert without_sizes(specs[True][name]) == without_sizes(specs[False][name])


@pytest.mark.parametrize("name", CHART_NAMES)
def test_large_chart_is_taller_with_thicker_lines_and_bigger_text(specs, name):
    normal, large = sizes(specs[False][name]), sizes(specs[True][name])
    assert large[("height",)] > normal[("height",)]
    assert set(normal) <= set(large)  # nothing set normally is left to the theme when large
    for path, value in large.items():
        if path[-2:] == ("mark", "size") and spec_at(specs[True][name], path[:-1])["type"] == "bar":
            continue  # a bar's width: fitted to the number of bars across the chart's width
        if path in normal:  # e.g. a line width, an area, a height, a teaching chart's 13 px text
            assert abs(value) > abs(normal[path]), path
        else:  # text the normal chart leaves to the theme, and the room a legend gives it
            assert path[-1] in {*FONT_KEYS, "labelLimit"} and value > LARGEST_THEME_FONT, path
    axes = [p for p in large if p[-1] == "labelFontSize" and "axis" in p]
    assert axes and all(large[p] > LARGEST_THEME_FONT for p in axes)
    strokes = [p for p in large if p[-1] == "strokeWidth" and p in normal]
    assert strokes  # every chart has a line or a rule that thickens


def canonical(spec: dict) -> dict:
    """A spec for comparing across versions of Altair and of the core's last digits: without its
    schema address or Altair's theme, datasets named in the order the layers use them (Altair
    names them by a hash of their rows), numbers to 12 significant digits."""
    kept = {k: v for k, v in spec.items() if k not in {"$schema", "config"}}
    uses = json.dumps({k: v for k, v in kept.items() if k != "datasets"}, sort_keys=True)
    text = json.dumps(kept, sort_keys=True)
    for index, name in enumerate(dict.fromkeys(re.findall(r'"(data-[0-9a-f]{32})"', uses))):
        text = text.replace(name, f"data-{index}")

    def rounded(value: object) -> object:
        if isinstance(value, float):
            return float(f"{value:.12g}")
        if isinstance(value, dict):
            return {k: rounded(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rounded(v) for v in value]
        return value

    return rounded(json.loads(text))


# The page's own charts at their normal size, written through `canonical`: the p-value and gates
# charts as their builders drew them before `large` existed (commit 24adc0f); the decision chart
# as since its fix (170 px, so that the plot keeps room beside the axis and legend that Streamlit
# fits into that height; a legend of the rules drawn, told apart by dash pattern too; alt text).
# The teaching charts had `large` already and are not in it.
NORMAL_SPECS = Path(__file__).parent / "chart_specs_normal.json"


@pytest.mark.parametrize("name", json.loads(NORMAL_SPECS.read_text(encoding="utf-8")))
def test_normal_page_chart_is_unchanged_by_large(specs, name):
    before = json.loads(NORMAL_SPECS.read_text(encoding="utf-8"))[name]
    assert canonical(specs[False][name]) == before


@pytest.mark.parametrize("large", [False, True])
def test_decision_legend_lists_the_rules_drawn_each_with_its_own_dash(specs, large):
    for name, drawn in [
        ("decision, two-sided", ["no difference"]),
        # A - B (issue 30): non-inferiority of B is the interval lying below +margin.
        ("decision, non-inferior", ["no difference", "+ margin"]),
        ("decision, equivalent", ["no difference", "− margin", "+ margin"]),
    ]:
        encoding = specs[large][name]["layer"][0]["encoding"]
        assert encoding["color"]["scale"]["domain"] == drawn
        assert encoding["strokeDash"]["scale"]["domain"] == drawn
        dashes = encoding["strokeDash"]["scale"]["range"]
        assert dashes[0] not in dashes[1:]  # zero and the margins differ without colour


def test_decision_chart_alt_text_says_what_is_drawn_without_figures(specs):
    described = {
        name: specs[False][name]["description"] for name in CHART_NAMES if "decision" in name
    }
    assert described["decision, non-inferior"] == (
        "The pass-rate difference old − new in percentage points: its interval as a bar, with "
        "the observed difference as a dot; a dotted grey rule marks zero; a dashed red rule "
        "marks plus the margin."
    )
    assert described["decision, equivalent"].endswith("rules mark minus and plus the margin.")
    assert described["decision, two-sided"].endswith("a dotted grey rule marks zero.")
    assert not any(char.isdigit() for text in described.values() for char in text)


def test_decision_tooltips_never_show_a_non_zero_limit_as_zero():
    # n = 10^9 with b - c = 1: the difference is 1e-9 (1e-7 points), which '+.2f' printed as
    # '+0.00' (review finding); the tooltips now carry format_points' text.
    decision = analyze(10**9 - 3, 2, 1, 0).decision
    interval = interval_frame(decision).iloc[0]
    assert interval["estimate_text"] == format_points(decision.estimate)
    assert interval["estimate_text"].startswith("+")  # A - B = (b - c)/n (issue 30)
    assert float(interval["estimate_text"]) != 0.0
    spec = decision_chart(decision, Wording()).to_dict()
    fields = json.dumps(spec)
    assert '"+.2f"' not in fields and "estimate_text" in fields and "low_text" in fields
