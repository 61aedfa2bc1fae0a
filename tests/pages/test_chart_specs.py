"""The page's cached chart specs are the charts Altair builds, whatever shortcut the cache takes.

`ui.widgets.cache` builds each chart's layout once and hands its datasets to Streamlit already in
Arrow form. The reference here is the plain route: the layout with its data inline
(`apptest_pages.pvalue_chart`, `false_alarm_chart`), then Altair's schema-validated `to_dict()`.
"""

from __future__ import annotations

import warnings

import pandas as pd
import pyarrow as pa
import pytest
from apptest_pages import false_alarm_chart, pvalue_chart

from ui.calculator_charts import false_alarm_frame, pvalue_sweep_frame

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from ui.widgets.cache import false_alarm_spec, pvalue_spec


def layout(spec: dict) -> dict:
    """The spec without its data or Altair's theme config."""
    return {k: v for k, v in spec.items() if k not in {"datasets", "config"}}


def assert_same_chart(cached: dict, reference: dict) -> None:
    assert layout(cached) == layout(reference)
    assert set(cached["datasets"]) == set(reference["datasets"])
    for name, arrow_bytes in cached["datasets"].items():
        drawn = pa.ipc.open_stream(arrow_bytes).read_all().to_pandas()
        pd.testing.assert_frame_equal(
            drawn, pd.DataFrame(reference["datasets"][name]), check_dtype=False
        )


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
