"""Cached calls into the statistics core and the chart builders, so a rerun redoes only what
changed.

``Analysis`` is a frozen dataclass, so one shared instance per input is safe
(``st.cache_resource``: no copy per rerun); the chart tables are DataFrames, which
``st.cache_data`` copies so that a caller cannot alter the cached one. The charts are cached as
Vega-Lite specs: turning an Altair chart into its spec (with schema validation) costs about
0.1 s, more than everything else in a rerun.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from calculator import Analysis, analyze
from ui.charts import false_alarm_chart, false_alarm_frame, pvalue_chart, pvalue_sweep_frame

__all__ = [
    "cached_analysis",
    "cached_false_alarm_frame",
    "cached_false_alarm_spec",
    "cached_pvalue_spec",
    "cached_sweep_frame",
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


@st.cache_data(max_entries=256, show_spinner=False)
def cached_sweep_frame(
    a: int, b: int, c: int, d: int, convention: str, correction: bool
) -> pd.DataFrame:
    """:func:`ui.charts.pvalue_sweep_frame`, cached on its arguments."""
    return pvalue_sweep_frame(a, b, c, d, convention=convention, correction=correction)


@st.cache_data(max_entries=256, show_spinner=False)
def cached_false_alarm_frame(gates: int, alpha: float, rho: float) -> pd.DataFrame:
    """:func:`ui.charts.false_alarm_frame`, cached on its arguments."""
    return false_alarm_frame(gates, alpha, rho)


def _spec(chart: object) -> dict[str, object]:
    spec = chart.to_dict()
    # Altair's default theme config (fixed 300 px views) would override Streamlit's own.
    spec.pop("config", None)
    return spec


@st.cache_data(max_entries=256, show_spinner=False)
def cached_pvalue_spec(
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
    """Vega-Lite spec of :func:`ui.charts.pvalue_chart` for this table."""
    frame = cached_sweep_frame(a, b, c, d, convention, correction)
    chart = pvalue_chart(
        frame, current_a=a, alpha=alpha, log_axis=log_axis, x_title=x_title, title=title
    )
    return _spec(chart)


@st.cache_data(max_entries=256, show_spinner=False)
def cached_false_alarm_spec(gates: int, alpha: float, rho: float) -> dict[str, object]:
    """Vega-Lite spec of :func:`ui.charts.false_alarm_chart` for these gates."""
    frame = cached_false_alarm_frame(gates, alpha, rho)
    return _spec(false_alarm_chart(frame, current_gates=gates, alpha=alpha, rho=rho))
