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

import pandas as pd
import pyarrow as pa
import streamlit as st

from calculator import Analysis, analyze
from ui.calculator_charts import (
    false_alarm_datasets,
    false_alarm_frame,
    false_alarm_layout,
    gates_axis_is_log,
    pvalue_datasets,
    pvalue_layout,
    pvalue_sweep_frame,
)

__all__ = ["cached_analysis", "false_alarm_spec", "pvalue_spec"]


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
    alpha: float, log_axis: bool, x_title: str, title: str, convention: str
) -> dict[str, object]:
    layout = pvalue_layout(
        alpha=alpha, log_axis=log_axis, x_title=x_title, title=title, convention=convention
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
) -> dict[str, object]:
    """Vega-Lite spec of the p-value chart for this table: the cached layout of
    :func:`ui.calculator_charts.pvalue_layout` and its datasets in Arrow form."""
    frame = pvalue_sweep_frame(a, b, c, d, convention=convention, correction=correction)
    datasets = pvalue_datasets(frame, current_a=a, alpha=alpha, log_axis=log_axis)
    layout = _pvalue_layout(alpha, log_axis, x_title, title, convention)
    return {**layout, "datasets": _arrow(datasets)}


@st.cache_resource(max_entries=16, show_spinner=False)
def _false_alarm_layout(alpha: float, rho: float, log_x: bool) -> dict[str, object]:
    return _layout_spec(false_alarm_layout(alpha=alpha, rho=rho, log_x=log_x))


@st.cache_resource(max_entries=256, show_spinner=False)
def false_alarm_spec(gates: int, alpha: float, rho: float) -> dict[str, object]:
    """Vega-Lite spec of the gates chart for these gates: the cached layout of
    :func:`ui.calculator_charts.false_alarm_layout` and its datasets in Arrow form."""
    frame = false_alarm_frame(gates, alpha, rho)
    datasets = false_alarm_datasets(frame, current_gates=gates, alpha=alpha)
    layout = _false_alarm_layout(alpha, rho, gates_axis_is_log(frame))
    return {**layout, "datasets": _arrow(datasets)}
