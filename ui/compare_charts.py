"""Charts of a comparison of several systems: pure builders, a result in and an Altair chart out.

- :func:`difference_heatmap`: every ordered pair's pass-rate difference (row minus column), the
  cells whose pair differs after the multiplicity adjustment outlined and starred.
- :func:`ranking_chart`: the systems in ranking order, each pass rate with its Wilson interval.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from calculator.compare import SystemComparison
from calculator.report.formatting import format_p_equals, format_percent, format_points

__all__ = ["difference_frame", "difference_heatmap", "ranking_chart", "ranking_frame"]

_CELL = 46  # pixels per heatmap cell, fewer when many systems share the grid
_GRID = 640  # widest grid in pixels
_LABELLED = 30  # smallest cell that shows its number (below, the tooltip does)


def difference_frame(result: SystemComparison) -> pd.DataFrame:
    """One row per ordered pair of distinct systems: the difference row - column in points,
    its label (starred when the pair differs), and the adjusted p."""
    rows = []
    for pair in result.pairs:  # each pair gives its cell and the mirrored one
        adjusted = format_p_equals(
            pair.adjusted_pvalue, pair.log10_adjusted_pvalue, alpha=result.alpha
        )
        for row, column, difference in (
            (pair.a, pair.b, pair.difference),
            (pair.b, pair.a, -pair.difference),
        ):
            rows.append(
                {
                    "row": row,
                    "column": column,
                    "points": 100.0 * difference,
                    "label": format_points(difference) + ("*" if pair.reject else ""),
                    "differs": "differs" if pair.reject else "not separated",
                    "adjusted": adjusted,
                }
            )
    return pd.DataFrame(rows)


def difference_heatmap(result: SystemComparison) -> alt.LayerChart:
    """Heatmap of pass-rate differences, row system minus column system, in points.

    Blue cells: the row passes more often; red: less often. Outlined and starred cells differ
    at alpha after the adjustment.
    """
    data = difference_frame(result)
    order = list(result.ranking)
    reach = max(1.0, float(data["points"].abs().max())) if len(data) else 1.0
    cell = max(12, min(_CELL, _GRID // max(1, len(order))))
    size = cell * len(order)
    base = alt.Chart(data).encode(
        x=alt.X("column:N", sort=order, title="minus (column)", axis=alt.Axis(labelAngle=-40)),
        y=alt.Y("row:N", sort=order, title="system (row)"),
        tooltip=[
            alt.Tooltip("row:N", title="system"),
            alt.Tooltip("column:N", title="minus"),
            alt.Tooltip("label:N", title="difference (points)"),
            alt.Tooltip("adjusted:N", title="adjusted"),
            alt.Tooltip("differs:N", title="after adjustment"),
        ],
    )
    cells = base.mark_rect().encode(
        color=alt.Color(
            "points:Q",
            scale=alt.Scale(scheme="redblue", domain=[-reach, reach]),
            title="points",
        ),
        stroke=alt.condition(
            alt.datum.differs == "differs", alt.value("black"), alt.value("transparent")
        ),
        strokeWidth=alt.value(2),
    )
    labels = base.mark_text(fontSize=11, opacity=1 if cell >= _LABELLED else 0).encode(
        text="label:N",
        color=alt.condition(
            f"abs(datum.points) > {0.6 * reach}", alt.value("white"), alt.value("black")
        ),
    )
    # "pad": the size is the grid's own, axes and legend come on top (the default "fit" would
    # squeeze the rows to make room for the slanted labels).
    return (cells + labels).properties(
        width=max(size, 160), height=max(size, 160), autosize=alt.AutoSizeParams(type="pad")
    )


def ranking_frame(result: SystemComparison) -> pd.DataFrame:
    """One row per system in ranking order: rank, rate, Wilson limits, as fractions and text,
    and its letters (systems sharing a letter are not shown different)."""
    letters = result.letter_display().letters
    rows = []
    for name in result.ranking:
        system = result.systems[result.names.index(name)]
        rows.append(
            {
                "rank": result.rank(name),  # shared by tied systems
                "system": name,
                "rate": system.rate,
                "low": system.low,
                "high": system.high,
                "passes": f"{system.passes:,} of {system.n:,}",
                "interval": f"{format_percent(system.low)} to {format_percent(system.high)}",
                "shown": format_percent(system.rate),
                "letters": letters[name],
            }
        )
    return pd.DataFrame(rows)


def ranking_chart(result: SystemComparison) -> alt.LayerChart:
    """Each system's pass rate (point) and Wilson interval (bar), best first, with its letters
    right of the interval (systems sharing a letter are not shown different)."""
    data = ranking_frame(result)
    order = list(result.ranking)
    level = f"{100 * result.level:g}%"
    base = alt.Chart(data).encode(
        y=alt.Y("system:N", sort=order, title=None),
        tooltip=[
            alt.Tooltip("rank:Q"),
            alt.Tooltip("system:N"),
            alt.Tooltip("shown:N", title="pass rate"),
            alt.Tooltip("interval:N", title=f"{level} Wilson interval"),
            alt.Tooltip("passes:N"),
            alt.Tooltip("letters:N", title="groups (letters)"),
        ],
    )
    interval = base.mark_rule(strokeWidth=3).encode(
        x=alt.X("low:Q", title=f"pass rate ({level} Wilson interval)", axis=alt.Axis(format="%")),
        x2="high:Q",
    )
    point = base.mark_point(filled=True, size=70, color="black").encode(x="rate:Q")
    letters = base.mark_text(align="left", dx=6, fontWeight="bold").encode(
        x="high:Q", text="letters:N"
    )
    return (interval + point + letters).properties(
        width=520, height=max(30 * len(order), 60), autosize=alt.AutoSizeParams(type="pad")
    )
