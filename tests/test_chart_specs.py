"""The page's cached chart specs are the charts Altair builds, whatever shortcut the cache takes.

`ui.compute` builds the p-value chart's layout once per (a, alpha, axis, titles) and puts each
new sweep's rows into it, and names the datasets by position so that the browser can swap data
into a drawn chart. The reference here is the plain route: the builder, then Altair's
schema-validated `to_dict()`.
"""

from __future__ import annotations

import json
import warnings

import pytest

from ui.charts import false_alarm_chart, false_alarm_frame, pvalue_chart, pvalue_sweep_frame

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from ui.compute import cached_false_alarm_spec, cached_pvalue_spec


def positional_names(spec: dict) -> str:
    """The spec as JSON with its datasets renamed by order of appearance."""
    spec = dict(spec)
    spec.pop("config", None)
    text = json.dumps(spec, sort_keys=False)
    for index, name in enumerate(spec.get("datasets", {})):
        text = text.replace(f'"{name}"', f'"<dataset {index}>"')
    return text


def without_data(spec: dict) -> dict:
    return {key: value for key, value in spec.items() if key != "datasets"}


# (a, b, c, d, convention, correction, alpha, log_axis); rows sharing a, alpha and the axis
# reuse one cached layout, so the later ones take the shortcut.
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
    cached = cached_pvalue_spec(
        a, b, c, d, convention=convention, correction=correction, alpha=alpha,
        log_axis=log, x_title="x", title="t",
    )  # fmt: skip
    assert positional_names(cached) == positional_names(chart.to_dict())


@pytest.mark.parametrize(
    ("gates", "alpha", "rho"), [(6, 0.05, 0.0), (101, 0.01, 0.5), (1, 0.5, 1.0)]
)
def test_false_alarm_spec_is_the_chart_altair_builds(gates, alpha, rho):
    chart = false_alarm_chart(
        false_alarm_frame(gates, alpha, rho), current_gates=gates, alpha=alpha, rho=rho
    )
    cached = cached_false_alarm_spec(gates, alpha, rho)
    assert positional_names(cached) == positional_names(chart.to_dict())


def test_a_new_b_changes_only_the_data_of_the_pvalue_spec():
    # What lets the browser swap the rows into the drawn chart instead of drawing it anew.
    options = {"convention": "doubling", "correction": False, "alpha": 0.05, "log_axis": False}
    first = cached_pvalue_spec(60, 15, 5, 20, **options, x_title="x", title="t")
    second = cached_pvalue_spec(60, 16, 5, 20, **options, x_title="x", title="t")
    assert without_data(first) == without_data(second)
    assert first["datasets"] != second["datasets"]
