"""Cached calls into the statistics core and the chart builders, so a rerun redoes only what
changed.

``Analysis`` is a frozen dataclass and a chart's spec is only read, never changed (by
:func:`ui.live_panel.chart_payload`, then serialised by the component), so one shared instance
per input is safe (``st.cache_resource``: no copy per rerun).

A chart reaches the page as a Vega-Lite layout, built by Altair once per layout (turning an
Altair chart into its spec costs about 0.1 s), with its named datasets as JSON rows. The
layout holds no data, so a new table or gate count leaves it as it was, and the browser swaps
the rows into the drawn chart instead of drawing it anew.
"""

from __future__ import annotations

from functools import lru_cache

import altair as alt
import streamlit as st

from calculator import Analysis, Decision, DifferenceInterval, PairedTable, decide
from calculator.chooser import Ask
from calculator.clustered import Clusters
from calculator.paired_data import of_table
from calculator.workflow import TestOptions, compare
from ui.calculator_charts import (
    false_alarm_columns,
    false_alarm_layout,
    false_alarm_markers,
    gates_axis_is_log,
)
from ui.decision_chart import decision_chart, interval_rows, rule_rows
from ui.live_panel import json_rows
from ui.words import Wording

__all__ = [
    "cached_analysis",
    "cached_decision",
    "decision_spec",
    "false_alarm_spec",
]


@st.cache_resource(max_entries=512, show_spinner=False)
def cached_analysis(
    a: int,
    b: int,
    c: int,
    d: int,
    *,
    level: float,
    ci_method: str,
    correction: bool,
    convention: str,
    gates: int,
    alpha: float,
    rho: float,
    names: tuple[str, str],
    framing: str,
    question: str | None = None,
    margin: float | None = None,
) -> Analysis:
    """The typed table compared by the one workflow (:func:`calculator.workflow.compare`),
    cached on its arguments (`question` and `margin`: the Decision section's, for the report
    and the downloads)."""
    options = TestOptions(
        level=level,
        ci_method=ci_method,
        correction=correction,
        convention=convention,
        gates=gates,
        rho=rho,
    )
    ask = Ask(alpha=alpha, question=question, margin=margin)
    return compare(of_table(a, b, c, d, names, framing=framing), ask, options).analysis


def _layout_spec(chart: object) -> dict[str, object]:
    # The builders' specs are checked against the Vega-Lite schema in their tests; checking
    # again here would cost more than the rest of a rerun.
    spec = chart.to_dict(validate=False)
    # Altair's default theme config (fixed 300 px views) would override Streamlit's own.
    spec.pop("config", None)
    return spec


@st.cache_resource(max_entries=16, show_spinner=False)
def _false_alarm_layout(alpha: float, rho: float, log_x: bool, large: bool) -> dict[str, object]:
    return _layout_spec(false_alarm_layout(alpha=alpha, rho=rho, log_x=log_x, large=large))


@st.cache_resource(max_entries=256, show_spinner=False)
def false_alarm_spec(
    gates: int, alpha: float, rho: float, *, large: bool = False
) -> dict[str, object]:
    """Vega-Lite spec of the gates chart for these gates: the cached layout of
    :func:`ui.calculator_charts.false_alarm_layout` (`large` for the presenting view) and its
    datasets as JSON rows (drawn by the live panel's bundle: ``ui.live_panel.chart_payload``)."""
    rates = false_alarm_columns(gates, alpha, rho)
    datasets = {"rates": rates, **false_alarm_markers(current_gates=gates, alpha=alpha)}
    layout = _false_alarm_layout(alpha, rho, gates_axis_is_log(rates), large)
    return {**layout, "datasets": {name: json_rows(table) for name, table in datasets.items()}}


# The decision and its chart: ``decide`` and building the chart (an Altair chart turned into
# its spec) cost about as much as the rest of a rerun, and every input of both is a frozen,
# hashable value, so a plain LRU cache keyed on them needs no hashing by Streamlit. A
# ValueError (a question the table cannot answer) is not cached, and is raised again.


@lru_cache(maxsize=512)
def cached_decision(
    table: PairedTable,
    difference: DifferenceInterval,
    *,
    question: str,
    margin: float | None,
    alpha: float,
    convention: str,
    names: tuple[str, str],
    framing: str,
    clusters: Clusters | None = None,
) -> Decision:
    """:func:`calculator.decide`, cached on its arguments."""
    return decide(
        table,
        difference,
        question=question,
        margin=margin,
        alpha=alpha,
        convention=convention,
        names=names,
        framing=framing,
        clusters=clusters,
    )


_Layout = tuple[dict[str, object], dict[str, str]]
_DECISION_LAYOUTS: dict[tuple[object, ...], _Layout] = {}
_MAX_DECISION_LAYOUTS = 64
# The chart's two tables, as the spec names them: the interval (one row) and the rules.
_DATA_NAMES = {"interval": "decision_interval", "rules": "decision_rules"}


def _decision_layout(decision: Decision, wording: Wording, large: bool) -> _Layout:
    """The chart's spec without its data, one per kind of question (with or without a margin),
    names and size, and which of the two tables each named dataset holds.

    The chart is Altair's, its layers reading named data sources (``alt.NamedData``) and its
    fixed x domain replaced by a Vega expression of the two tables (``alt.ExprRef``), so that
    the spec is the same for every decision of its kind: the browser then swaps the rows into
    the drawn chart instead of drawing it anew on each key press.
    """
    key = (decision.question, decision.margin is None, wording, large)
    layout = _DECISION_LAYOUTS.get(key)
    if layout is None:
        names = (_DATA_NAMES["interval"], _DATA_NAMES["rules"])
        chart = _with_domain_of_data(decision_chart(decision, wording, large=large, named=names))
        layout = (_layout_spec(chart), {name: kind for kind, name in _DATA_NAMES.items()})
        if len(_DECISION_LAYOUTS) >= _MAX_DECISION_LAYOUTS:
            _DECISION_LAYOUTS.clear()
        _DECISION_LAYOUTS[key] = layout
    return layout


def _with_domain_of_data(chart: alt.LayerChart) -> alt.LayerChart:
    """The decision chart (its layers reading the named tables of :data:`_DATA_NAMES`) with
    each x scale's domain taken from those tables (:func:`_domain_limits`)."""
    low, high = _domain_limits(_DATA_NAMES["interval"], _DATA_NAMES["rules"])
    for layer in chart.layer:
        x = layer.encoding.x
        kept = {key: value for key, value in x["scale"].to_dict().items() if key != "domain"}
        layer.encoding.x = x.scale(
            **kept, domainMin=alt.ExprRef(expr=low), domainMax=alt.ExprRef(expr=high)
        )
    return chart


def _decision_rows(decision: Decision) -> dict[str, list[dict[str, object]]]:
    return {"interval": interval_rows(decision), "rules": rule_rows(decision)}


def _domain_limits(interval: str, rules: str) -> tuple[str, str]:
    """Vega expressions for the x domain :func:`ui.decision_chart.decision_chart` draws: 1.1
    times the farthest of the interval's ends and the rules from zero (at least 0.5 points), on
    both sides (checked in the browser tests against the drawn chart)."""
    row, ats = f"data('{interval}')[0]", f"extent(pluck(data('{rules}'), 'at'))"
    reach = f"max(abs({row}.low), abs({row}.high), abs({ats}[0]), abs({ats}[1]), 0.5)"
    return f"-1.1 * {reach}", f"1.1 * {reach}"


@lru_cache(maxsize=256)
def decision_spec(decision: Decision, wording: Wording, large: bool = False) -> dict[str, object]:
    """Vega-Lite spec of :func:`ui.decision_chart.decision_chart`, drawn by the live panel's
    bundle (:func:`ui.live_panel.chart_payload`), which reads it and changes nothing in it.

    Built by Altair once per kind of question, names and size (turning an Altair chart into
    its spec takes longer than the rest of a rerun); a decision adds only its two small tables
    (the interval, the rules), from which the chart computes its x domain.
    """
    layout, sources = _decision_layout(decision, wording, large)
    rows = _decision_rows(decision)
    return {**layout, "datasets": {name: rows[kind] for name, kind in sources.items()}}
