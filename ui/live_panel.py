"""The calculator page's live panel as one JSON payload: the 2 x 2 table with its marked
cells, the rates in words, the four result cards and the p-value chart.

Pure: numbers and words come from the statistics core (through the ``Analysis`` the page
already holds) and :mod:`ui.words`; the chart's Vega-Lite layout is Altair's
(:func:`ui.calculator_charts.pvalue_layout`) with its datasets as JSON rows. The browser
(``ui/components/live_panel``) draws this payload as it is and computes nothing.
"""

from __future__ import annotations

import json
import math

import numpy as np

from calculator import Analysis
from ui import words
from ui.calculator_charts import Columns, pvalue_layout, pvalue_markers, pvalue_sweep_columns
from ui.params import COUNT_KEYS, COUNT_MAX, SLIDER_BASE, slider_max
from ui.words import Wording

__all__ = [
    "chart_layout",
    "chart_payload",
    "chart_rows",
    "count_inputs",
    "json_rows",
    "panel_payload",
]


def chart_layout(
    *, alpha: float, log_axis: bool, x_title: str, title: str, convention: str, large: bool
) -> dict[str, str]:
    """The p-value chart's Vega-Lite layout (no data) as a JSON string ("layout": the browser
    redraws the chart only when this string changes, and otherwise swaps the rows into the
    drawn chart), and the chart's accessible name ("label": its title, then its description;
    the drawing is one image with this name)."""
    spec = pvalue_layout(
        alpha=alpha,
        log_axis=log_axis,
        x_title=x_title,
        title=title,
        convention=convention,
        large=large,
    ).to_dict(validate=False)  # checked against the schema in tests/pages/test_chart_specs.py
    return _layout_and_label(spec)


def _layout_and_label(spec: dict[str, object]) -> dict[str, str]:
    """A Vega-Lite spec without its data and config, as a JSON string ("layout"), and the
    chart's accessible name ("label": its title, then its description)."""
    # The component styles the chart from the page's theme; the data travels apart.
    layout = {key: value for key, value in spec.items() if key not in ("config", "datasets")}
    title = layout.get("title", "")
    title = title.get("text", "") if isinstance(title, dict) else title
    title = " ".join(title) if isinstance(title, list) else str(title)
    description = str(layout.get("description", ""))
    return {
        "layout": json.dumps(layout, sort_keys=True, ensure_ascii=False),
        "label": ". ".join(part for part in (title, description) if part),
    }


def chart_payload(spec: dict[str, object], *, fit_height: bool = False) -> dict[str, object]:
    """One of the page's other charts (the gates', the Decision's: a Vega-Lite spec whose
    "datasets" are JSON rows) as the live panel's bundle draws it
    (:func:`ui.components.live_panel.page_chart`): its layout and accessible name, its
    datasets, and with `fit_height` the spec's height taken as the whole chart's (axis and
    legend inside it, as Streamlit draws a chart given a height)."""
    chart = {**_layout_and_label(spec), "datasets": spec.get("datasets", {})}
    if fit_height:
        chart["autosize"] = "fit"
    return {"kind": "chart", "chart": chart}


def json_rows(table: Columns) -> list[dict[str, object]]:
    """A table of named columns (lists or numpy arrays, or a pandas frame) as JSON rows; a
    float that is not finite becomes null (JSON has no NaN).

    Column by column (``tolist`` gives Python numbers): a tenth of the time of pandas'
    ``to_dict("records")``, which was a fifth of a key press's server time.

    Examples
    --------
    >>> json_rows({"x": [1, 2], "p": [0.5, float("nan")]})
    [{'x': 1, 'p': 0.5}, {'x': 2, 'p': None}]
    """
    names = [str(name) for name in table]
    columns = [
        [_json_value(value) for value in (column.tolist() if hasattr(column, "tolist") else column)]
        for column in (table[name] for name in table)
    ]
    return [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]


def _json_value(value: object) -> object:
    """A Python value for JSON: a numpy scalar as its Python number, a float that is not finite
    as None."""
    if isinstance(value, np.generic):
        value = value.item()
    return None if isinstance(value, float) and not math.isfinite(value) else value


def chart_rows(
    a: int,
    b: int,
    c: int,
    d: int,
    *,
    convention: str,
    correction: bool,
    alpha: float,
    log_axis: bool,
) -> dict[str, list[dict[str, object]]]:
    """The p-value chart's named datasets as JSON rows: the sweep
    (:func:`ui.calculator_charts.pvalue_sweep_columns`) and the rules
    (:func:`ui.calculator_charts.pvalue_markers`)."""
    datasets = {
        "sweep": pvalue_sweep_columns(a, b, c, d, convention=convention, correction=correction),
        **pvalue_markers(current_a=a, alpha=alpha, log_axis=log_axis),
    }
    return {name: json_rows(table) for name, table in datasets.items()}


def count_inputs(
    wording: Wording, counts: tuple[int, int, int, int], origin: int
) -> dict[str, object]:
    """The four counts' inputs as the panel draws them: each one's label (plain text) and
    slider range (:func:`ui.params.slider_max`, widened past a typed count), the counts, and
    the `origin` they carry (the panel shows these counts when it has not seen this origin:
    :mod:`ui.widgets.state`).

    Examples
    --------
    >>> spec = count_inputs(Wording(), (60, 150, 5, 20), 1)
    >>> [(item["label"], item["slider_max"]) for item in spec["inputs"]][:2]
    [('a: both pass', 100), ('b: only A passes', 200)]
    """
    labels = wording.cell_labels()
    refusals = words.count_refusals(COUNT_MAX)
    return {
        "origin": origin,
        "values": list(counts),
        "max": COUNT_MAX,
        "refusal": refusals["typed"],
        "refusal_empty": refusals["empty"],
        "inputs": [
            {
                "key": key,
                "label": labels[key],
                "field_label": f"{labels[key]} (exact)",
                "slider_max": slider_max(value, SLIDER_BASE[key], COUNT_MAX),
            }
            for key, value in zip(COUNT_KEYS, counts, strict=True)
        ],
    }


def panel_payload(
    wording: Wording,
    counts: tuple[int, int, int, int],
    analysis: Analysis | None,
    chart: dict[str, object] | None,
    *,
    present: bool = False,
    origin: int = 0,
) -> dict[str, object]:
    """Everything the live panel shows, as JSON-ready data (plain text: the browser sets every
    string as text, never as markup): the counts' inputs (:func:`count_inputs`, with `origin`)
    and the results.

    `chart` is ``{**chart_layout(...), "datasets": chart_rows(...)}``, or None when no
    analysis could be made (then the panel shows the table alone). `present` is the
    lecture-hall view (bigger type, no captions).

    Examples
    --------
    >>> from calculator import analyze
    >>> payload = panel_payload(Wording(), (60, 15, 5, 20), analyze(60, 15, 5, 20), None)
    >>> [card["value"] for card in payload["cards"]]
    ['+10.0 pts', '5.00', '0.041', '0.123']
    >>> payload["summary"]["rates"]
    'A passes 75 of 100 tasks, B passes 65.'
    """
    a, b, c, d = counts
    table = words.table_text(wording, a, b, c, d)
    n = a + b + c + d
    cards = [] if analysis is None else words.result_cards(wording, analysis, markdown=False)
    return {
        "present": present,
        "counts": count_inputs(wording, counts, origin),
        "table": {
            "label": table.label,
            "columns": list(table.columns),
            "rows": list(table.rows),
            "cells": [
                [{"text": cell.text, "discordant": cell.discordant} for cell in row]
                for row in table.cells
            ],
        },
        "summary": None
        if not n
        else {
            "rates": wording.rates_sentence(a + b, a + c, n),
            "discordant": wording.discordant_sentence(b, c),
        },
        "cards": [
            {
                "key": card.key,
                "label": card.label,
                "value": card.value,
                "caption": card.caption,
            }
            for card in cards
        ],
        "chart": chart,
    }
