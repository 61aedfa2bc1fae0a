"""Charts of several systems compared by ranks (Friedman): pure builders, a result in and an
Altair chart out.

- :func:`rank_chart`: each system's average rank, best first, with its letters (systems sharing a
  letter were not separated by the Holm-adjusted signed-rank tests).
- :func:`cd_diagram`: the critical-difference diagram of Demšar (2006): the systems on an axis
  of average rank, joined by a bar when their average ranks lie within Nemenyi's critical
  difference of each other, and the CD itself drawn to scale.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from calculator.compare.friedman import FriedmanComparison

__all__ = ["cd_diagram", "cd_frames", "rank_chart", "rank_frame"]

_WIDTH = 560


def rank_frame(result: FriedmanComparison) -> pd.DataFrame:
    """One row per system in rank order: its average rank, mean score and letters."""
    letters = result.letter_display().letters
    rows = []
    for place, name in enumerate(result.ranking, 1):
        j = result.names.index(name)
        rows.append(
            {
                "place": place,
                "system": name,
                "average rank": result.average_ranks[j],
                "mean score": result.mean_scores[j],
                "letters": letters[name],
            }
        )
    return pd.DataFrame(rows)


def rank_chart(result: FriedmanComparison) -> alt.LayerChart:
    """Each system's average rank (1 the best), best first, its letters beside it."""
    data = rank_frame(result)
    order = list(result.ranking)
    k = len(order)
    base = alt.Chart(data).encode(
        y=alt.Y("system:N", sort=order, title=None),
        tooltip=[
            alt.Tooltip("place:Q"),
            alt.Tooltip("system:N"),
            alt.Tooltip("average rank:Q", format=".2f"),
            alt.Tooltip("mean score:Q", format=".4g"),
            alt.Tooltip("letters:N", title="groups (letters)"),
        ],
    )
    scale = alt.Scale(domain=[1, k])
    point = base.mark_point(filled=True, size=70, color="black").encode(
        x=alt.X("average rank:Q", scale=scale, title="average rank (1 = best on a case)")
    )
    letters = base.mark_text(align="left", dx=8, fontWeight="bold").encode(
        x=alt.X("average rank:Q", scale=scale), text="letters:N"
    )
    return (point + letters).properties(
        width=_WIDTH, height=max(30 * k, 60), autosize=alt.AutoSizeParams(type="pad")
    )


def cd_frames(result: FriedmanComparison) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The diagram's three kinds of rows: the systems (average rank and the label's lane),
    the groups' bars (first and last average rank, lane below the axis) and the CD's ruler."""
    ranks = dict(zip(result.names, result.average_ranks, strict=True))
    systems = pd.DataFrame(
        [
            {
                "system": name,
                "average rank": ranks[name],
                "lane": 1.0 + place,
                "label": f"{name} ({ranks[name]:.2f})",
            }
            for place, name in enumerate(result.ranking)
        ]
    )
    bars = pd.DataFrame(
        [
            {
                "group": ", ".join(clique),
                "from": ranks[clique[0]],
                "to": ranks[clique[-1]],
                "lane": -0.6 * (number + 1),
            }
            for number, clique in enumerate(c for c in result.cliques() if len(c) > 1)
        ],
        columns=["group", "from", "to", "lane"],
    )
    cd = result.critical_difference
    ruler = pd.DataFrame(
        [{"from": 1.0, "to": 1.0 + cd, "lane": -0.6 * (len(bars) + 1.5), "label": f"CD = {cd:.2f}"}]
    )
    return systems, bars, ruler


def _cd_rows(result: FriedmanComparison) -> pd.DataFrame:
    """:func:`cd_frames` as one table (a "kind" column), so the chart carries one dataset."""
    systems, bars, ruler = cd_frames(result)
    rows = [
        {
            "kind": "system",
            "x": r["average rank"],
            "x2": r["average rank"],
            "base": 0.0,
            "lane": r["lane"],
            "label": r["label"],
        }
        for r in systems.to_dict("records")
    ]
    rows += [
        {
            "kind": "group",
            "x": r["from"],
            "x2": r["to"],
            "base": r["lane"],
            "lane": r["lane"],
            "label": r["group"],
        }
        for r in bars.to_dict("records")
    ]
    rows += [
        {
            "kind": "cd",
            "x": r["from"],
            "x2": r["to"],
            "base": r["lane"],
            "lane": r["lane"],
            "label": r["label"],
        }
        for r in ruler.to_dict("records")
    ]
    return pd.DataFrame(rows)


def cd_diagram(result: FriedmanComparison) -> alt.LayerChart:
    """Demšar's critical-difference diagram: average ranks on the axis (1 at the left, the
    best), each system's label on its own lane above, a thick bar under the systems not
    separated by Nemenyi's test (within the CD of each other), the CD drawn to scale."""
    data = _cd_rows(result)
    k = len(result.names)
    reach = max(float(k), 1.0 + result.critical_difference)
    low = float(data["lane"].min()) - 0.6
    x_scale = alt.Scale(domain=[1, reach])
    y_scale = alt.Scale(domain=[low, k + 1.5])
    x = alt.X(
        "x:Q",
        scale=x_scale,
        title=f"average rank (1 = best on a case); Nemenyi's CD at α = {result.alpha:g}",
    )
    y = alt.Y("lane:Q", axis=None, scale=y_scale)
    base = alt.Chart(data).encode(x=x)
    systems = base.transform_filter(alt.datum.kind == "system")
    stems = systems.mark_rule(color="gray").encode(
        y=alt.Y("base:Q", axis=None, scale=y_scale), y2="lane:Q"
    )
    dots = systems.mark_point(filled=True, color="black").encode(y=y)
    labels = systems.mark_text(align="left", dx=4, dy=-6).encode(
        y=y, text="label:N", tooltip=[alt.Tooltip("label:N", title="system (average rank)")]
    )
    groups = (
        base.transform_filter(alt.datum.kind == "group")
        .mark_rule(strokeWidth=5, color="#1f77b4")
        .encode(x2="x2:Q", y=y, tooltip=[alt.Tooltip("label:N", title="not separated")])
    )
    ruler = base.transform_filter(alt.datum.kind == "cd")
    cd_bar = ruler.mark_rule(strokeWidth=2, color="black").encode(x2="x2:Q", y=y)
    cd_text = ruler.mark_text(align="left", dx=6).encode(
        x=alt.X("x2:Q", scale=x_scale), y=y, text="label:N"
    )
    return (stems + dots + labels + groups + cd_bar + cd_text).properties(
        width=_WIDTH,
        height=max(40 + 26 * (len(data) + 2), 160),
        autosize=alt.AutoSizeParams(type="pad"),
    )
