"""Cached calls into the statistics core and the chart builders, so a rerun redoes only what
changed.

``Analysis`` is a frozen dataclass, so one shared instance per input is safe
(``st.cache_resource``: no copy per rerun); the chart tables are DataFrames, which
``st.cache_data`` copies so that a caller cannot alter the cached one. The charts are cached as
Vega-Lite specs: turning an Altair chart into its spec (with schema validation) costs about
0.1 s, more than everything else in a rerun.
"""

from __future__ import annotations

import altair as alt
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
    # The builders' specs are checked against the Vega-Lite schema in their tests; checking
    # again on every rerun would cost more than the rest of the rerun.
    spec = chart.to_dict(validate=False)
    # Altair's default theme config (fixed 300 px views) would override Streamlit's own.
    spec.pop("config", None)
    return _positional_dataset_names(spec)


def _positional_dataset_names(spec: dict[str, object]) -> dict[str, object]:
    """Rename Altair's content-hash dataset names to "dataset-0", "dataset-1", ... in order.

    With the names fixed, a spec whose data alone changed is the same spec to the browser,
    which then swaps the rows into the drawn chart instead of drawing it anew. (Vega-Lite
    names its own data sources "data_0", "source_0", ...: the names must not look like those.)
    """
    datasets = spec.get("datasets")
    if not isinstance(datasets, dict):
        return spec
    renamed = {old: f"dataset-{index}" for index, old in enumerate(datasets)}

    def rename(node: object) -> object:
        if isinstance(node, dict):
            if set(node) == {"name"} and node["name"] in renamed:
                return {"name": renamed[node["name"]]}
            return {key: rename(value) for key, value in node.items()}
        if isinstance(node, list):
            return [rename(item) for item in node]
        return node

    spec = {key: rename(value) for key, value in spec.items() if key != "datasets"}
    spec["datasets"] = {renamed[old]: rows for old, rows in datasets.items()}
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
    """Vega-Lite spec of :func:`ui.charts.pvalue_chart` for this table.

    Only the sweep's rows depend on b, c, d and the test options: the rest of the spec is
    built by Altair once per layout, and each new sweep's rows are put in as Altair would.
    """
    frame = cached_sweep_frame(a, b, c, d, convention, correction)
    layout, sweep_name = _pvalue_layout(a, alpha, log_axis, x_title, title, frame)
    if sweep_name is None:
        return layout
    return {**layout, "datasets": {**layout["datasets"], sweep_name: _inline_rows(frame)}}


def _inline_rows(frame: pd.DataFrame) -> list[dict[str, object]]:
    """The rows of `frame` exactly as Altair writes them into a spec (with its transformer)."""
    return alt.data_transformers.get()(frame)["values"]


@st.cache_resource(max_entries=64, show_spinner=False)
def _pvalue_layout(
    current_a: int, alpha: float, log_axis: bool, x_title: str, title: str, _frame: pd.DataFrame
) -> tuple[dict[str, object], str | None]:
    """The p-value chart's spec for one layout, and the name of the dataset holding the sweep.

    `_frame` is any sweep with this a (not part of the cache key). The name is None if the
    sweep's rows cannot be told apart from another dataset's; the caller then uses the spec as
    it is, which is right for `_frame` only, and `_frame` is what it asked for.
    """
    chart = pvalue_chart(
        _frame, current_a=current_a, alpha=alpha, log_axis=log_axis, x_title=x_title, title=title
    )
    spec = _spec(chart)
    rows = _inline_rows(_frame)
    names = [name for name, values in spec.get("datasets", {}).items() if values == rows]
    return spec, names[0] if len(names) == 1 else None


@st.cache_data(max_entries=256, show_spinner=False)
def cached_false_alarm_spec(gates: int, alpha: float, rho: float) -> dict[str, object]:
    """Vega-Lite spec of :func:`ui.charts.false_alarm_chart` for these gates."""
    frame = cached_false_alarm_frame(gates, alpha, rho)
    return _spec(false_alarm_chart(frame, current_gates=gates, alpha=alpha, rho=rho))
