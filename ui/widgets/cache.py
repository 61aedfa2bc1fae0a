"""Cached calls into the statistics core and the chart builders, so a rerun redoes only what
changed.

``Analysis`` is a frozen dataclass and ``st.vega_lite_chart`` copies a spec before it changes
anything in it, so one shared instance per input is safe (``st.cache_resource``: no copy per
rerun).

A chart reaches the page as a Vega-Lite layout, built by Altair once per layout (turning an
Altair chart into its spec costs about 0.1 s), with its named datasets already in Arrow IPC
form (what Streamlit would otherwise convert them to on every rerun; built here with pyarrow,
not with Streamlit's internal converter). The layout holds no
data, so a new table or gate count leaves it as it was, and the browser swaps the rows into
the drawn chart instead of drawing it anew.
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd
import pyarrow as pa
import streamlit as st

from calculator import Analysis, Decision, DifferenceInterval, PairedTable, analyze, decide
from ui.calculator_charts import (
    false_alarm_datasets,
    false_alarm_frame,
    false_alarm_layout,
    gates_axis_is_log,
    pvalue_datasets,
    pvalue_layout,
    pvalue_sweep_frame,
)
from ui.decision_chart import decision_chart, interval_frame, rule_frame
from ui.words import Wording

__all__ = [
    "cached_analysis",
    "cached_decision",
    "decision_spec",
    "false_alarm_spec",
    "pvalue_spec",
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
) -> Analysis:
    """:func:`calculator.analyze`, cached on its arguments."""
    return analyze(
        a,
        b,
        c,
        d,
        level=level,
        ci_method=ci_method,
        correction=correction,
        convention=convention,
        gates=gates,
        alpha=alpha,
        rho=rho,
        names=names,
        framing=framing,
    )


def _layout_spec(chart: object) -> dict[str, object]:
    # The builders' specs are checked against the Vega-Lite schema in their tests; checking
    # again here would cost more than the rest of a rerun.
    spec = chart.to_dict(validate=False)
    # Altair's default theme config (fixed 300 px views) would override Streamlit's own.
    spec.pop("config", None)
    return spec


def _arrow_stream(frame: pd.DataFrame) -> bytes:
    """The table as Arrow IPC stream bytes, the form ``st.vega_lite_chart`` sends datasets in."""
    table = pa.Table.from_pandas(frame)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def _arrow(datasets: dict[str, pd.DataFrame]) -> dict[str, bytes]:
    return {name: _arrow_stream(frame) for name, frame in datasets.items()}


@st.cache_resource(max_entries=16, show_spinner=False)
def _pvalue_layout(
    alpha: float, log_axis: bool, x_title: str, title: str, convention: str, large: bool
) -> dict[str, object]:
    layout = pvalue_layout(
        alpha=alpha,
        log_axis=log_axis,
        x_title=x_title,
        title=title,
        convention=convention,
        large=large,
    )
    return _layout_spec(layout)


@st.cache_resource(max_entries=256, show_spinner=False)
def pvalue_spec(
    a: int,
    b: int,
    c: int,
    d: int,
    *,
    convention: str,
    correction: bool,
    alpha: float,
    log_axis: bool,
    x_title: str,
    title: str,
    large: bool = False,
) -> dict[str, object]:
    """Vega-Lite spec of the p-value chart for this table: the cached layout of
    :func:`ui.calculator_charts.pvalue_layout` (`large` for the presenting view) and its
    datasets in Arrow form."""
    frame = pvalue_sweep_frame(a, b, c, d, convention=convention, correction=correction)
    datasets = pvalue_datasets(frame, current_a=a, alpha=alpha, log_axis=log_axis)
    layout = _pvalue_layout(alpha, log_axis, x_title, title, convention, large)
    return {**layout, "datasets": _arrow(datasets)}


@st.cache_resource(max_entries=16, show_spinner=False)
def _false_alarm_layout(alpha: float, rho: float, log_x: bool, large: bool) -> dict[str, object]:
    return _layout_spec(false_alarm_layout(alpha=alpha, rho=rho, log_x=log_x, large=large))


@st.cache_resource(max_entries=256, show_spinner=False)
def false_alarm_spec(
    gates: int, alpha: float, rho: float, *, large: bool = False
) -> dict[str, object]:
    """Vega-Lite spec of the gates chart for these gates: the cached layout of
    :func:`ui.calculator_charts.false_alarm_layout` (`large` for the presenting view) and its
    datasets in Arrow form."""
    frame = false_alarm_frame(gates, alpha, rho)
    datasets = false_alarm_datasets(frame, current_gates=gates, alpha=alpha)
    layout = _false_alarm_layout(alpha, rho, gates_axis_is_log(frame), large)
    return {**layout, "datasets": _arrow(datasets)}


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
    )


_Layout = tuple[dict[str, object], dict[str, str], list[float]]
_DECISION_LAYOUTS: dict[tuple[object, ...], _Layout] = {}
_MAX_DECISION_LAYOUTS = 64


def _decision_layout(decision: Decision, wording: Wording, large: bool) -> _Layout:
    """The chart's spec as Altair builds it for the first decision of its kind (question, with
    or without a margin), which of the two tables each named dataset holds, and the x domain
    it was drawn with."""
    key = (decision.question, decision.margin is None, wording, large)
    layout = _DECISION_LAYOUTS.get(key)
    if layout is None:
        spec = _layout_spec(decision_chart(decision, wording, large=large))
        frames = _decision_frames(decision)
        sources = {
            name: next(kind for kind, rows in frames.items() if rows == values)
            for name, values in spec["datasets"].items()
        }
        layout = (spec, sources, _decision_domain(decision))
        if len(_DECISION_LAYOUTS) >= _MAX_DECISION_LAYOUTS:
            _DECISION_LAYOUTS.clear()
        _DECISION_LAYOUTS[key] = layout
    return layout


def _decision_frames(decision: Decision) -> dict[str, list[dict[str, object]]]:
    return {
        "interval": interval_frame(decision).to_dict(orient="records"),
        "rules": rule_frame(decision).to_dict(orient="records"),
    }


def _decision_domain(decision: Decision) -> list[float]:
    """The x domain :func:`ui.decision_chart.decision_chart` gives the interval and the rules
    (checked against it in the tests): 1.1 times the farthest of them from zero, in points."""
    rules = rule_frame(decision)["at"].abs()
    reach = max(100.0 * abs(decision.low), 100.0 * abs(decision.high), float(rules.max()), 0.5)
    return [-1.1 * reach, 1.1 * reach]


def _with_domain(node: object, old: list[float], new: list[float]) -> object:
    if isinstance(node, dict):
        return {
            key: new if key == "domain" and value == old else _with_domain(value, old, new)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_with_domain(value, old, new) for value in node]
    return node


@lru_cache(maxsize=256)
def decision_spec(decision: Decision, wording: Wording, large: bool = False) -> dict[str, object]:
    """Vega-Lite spec of :func:`ui.decision_chart.decision_chart`, for ``st.vega_lite_chart``
    (which copies a spec before changing it).

    Built by Altair once per kind of question, names and size; for another decision of that
    kind only the two small tables (interval, rules) and the x domain differ, and they are
    put into the built spec (turning the Altair chart into its spec would take longer than the
    rest of a rerun).
    """
    template, sources, domain = _decision_layout(decision, wording, large)
    frames = _decision_frames(decision)
    spec = _with_domain(template, domain, _decision_domain(decision))
    spec["datasets"] = {name: frames[kind] for name, kind in sources.items()}
    return spec
