"""Downloads of the results: JSON (``Analysis.to_dict()``) and a flat two-column CSV."""

from __future__ import annotations

import csv
import io
import json

__all__ = ["results_csv", "results_json"]


def results_json(results: dict[str, object]) -> str:
    """Strict JSON of ``Analysis.to_dict()`` (NaN or inf would raise, never be written)."""
    return json.dumps(results, indent=2, ensure_ascii=False, allow_nan=False)


def _flatten(value: object, prefix: str) -> list[tuple[str, object]]:
    if isinstance(value, dict):
        rows: list[tuple[str, object]] = []
        for key, inner in value.items():
            rows.extend(_flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return rows
    return [(prefix, "" if value is None else value)]


def results_csv(results: dict[str, object]) -> str:
    """``Analysis.to_dict()`` as CSV rows ``field,value`` with dotted field names.

    Examples
    --------
    >>> print(results_csv({"table": {"a": 60, "b": 15}, "chi2": {"statistic": None}}), end="")
    field,value
    table.a,60
    table.b,15
    chi2.statistic,
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("field", "value"))
    writer.writerows(_flatten(results, ""))
    return buffer.getvalue()
