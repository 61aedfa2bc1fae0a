"""Downloads: the results as JSON (:func:`calculator.report.words.payload`) and flat CSV, the
paste-ready report, and case lists as CSV that a spreadsheet opens as text.

The results and the report are those of the analysis the page passes: on the calculator page,
the one answering the question its Decision section asks, not the default one.

Pure Python (no Streamlit), so each format is tested directly.
"""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pandas as pd

from calculator import Analysis
from calculator.report.words import payload, text
from calculator.text import FORMULA_START as _FORMULA_START
from calculator.text import escape_spreadsheet_cell  # its one home, shared with the CLI

__all__ = [
    "escape_spreadsheet_cell",
    "export_dict",
    "report_text",
    "results_csv",
    "results_json",
    "to_escaped_csv",
]


def report_text(analysis: Analysis) -> str:
    """The paste-ready report answering the page's question, as the command line prints it
    (:func:`calculator.report.words.text`)."""
    return text(analysis)


def export_dict(analysis: Analysis) -> dict[str, object]:
    """The analysis' JSON with its words, as the command line writes it
    (:func:`calculator.report.words.payload`), for the downloads."""
    return payload(analysis)


def results_json(results: dict[str, object]) -> str:
    """Strict JSON of the results (NaN or inf would raise, never be written)."""
    return json.dumps(results, indent=2, ensure_ascii=False, allow_nan=False)


def _flatten(value: object, prefix: str) -> list[tuple[str, object]]:
    if isinstance(value, dict):
        rows: list[tuple[str, object]] = []
        for key, inner in value.items():
            rows.extend(_flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return rows
    return [(prefix, "" if value is None else value)]


def _csv_cell(value: object) -> object:
    """A text cell escaped (:func:`escape_spreadsheet_cell`); a number left a number."""
    return escape_spreadsheet_cell(value) if isinstance(value, str) else value


def results_csv(results: dict[str, object]) -> str:
    """The results (:func:`export_dict`) as CSV rows ``field,value`` with dotted field names.

    Every text cell (the report and the sentences hold the systems' names) is escaped against
    formula injection, as in :func:`to_escaped_csv`: a name such as ``=HYPERLINK(...)`` is
    written as text, never run by the spreadsheet that opens the file.

    Examples
    --------
    >>> print(results_csv({"table": {"a": 60, "b": 15}, "chi2": {"statistic": None}}), end="")
    field,value
    table.a,60
    table.b,15
    chi2.statistic,
    >>> print(results_csv({"names": {"A": "=1+1"}}), end="")
    field,value
    names.A,'=1+1
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("field", "value"))
    writer.writerows((_csv_cell(key), _csv_cell(value)) for key, value in _flatten(results, ""))
    return buffer.getvalue()


def _text_missing(value: object) -> bool:
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return bool(pd.isna(value)) if np.ndim(value) == 0 else False


def to_escaped_csv(frame: pd.DataFrame) -> str:
    """The table as CSV text with every text cell and header escaped against formula injection.

    Numeric and boolean columns are written as numbers (a number cannot carry a formula); every
    other cell is written as text and escaped with :func:`escape_spreadsheet_cell`.

    Examples
    --------
    >>> print(to_escaped_csv(pd.DataFrame({"id": ["q1"], "answer": ["=1+1"], "score": [-2]})))
    id,answer,score
    q1,'=1+1,-2
    <BLANKLINE>
    """
    escaped = {}
    for column in frame.columns:
        values = frame[column]
        header = escape_spreadsheet_cell(str(column))
        if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
            escaped[header] = values
            continue
        if values.dtype == object:  # mixed Python values: one at a time
            text = values.map(lambda v: "" if _text_missing(v) else str(v)).astype("str")
        else:  # text columns: vectorised
            text = values.astype("str").fillna("")
        risky = text.str.startswith(_FORMULA_START)
        escaped[header] = text.where(~risky, "'" + text)
    return pd.DataFrame(escaped, index=frame.index).to_csv(index=False, lineterminator="\n")
