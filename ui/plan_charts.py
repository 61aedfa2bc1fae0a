"""The Plan page's two Altair charts: power against n, and the false-positive rate of peeking.

Both builders are pure (a result from :mod:`calculator.planning` in, ``alt.LayerChart`` out) and
are tested through ``chart.to_dict()``.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from calculator.planning import OptionalStopping, PowerCurve
from calculator.report.formatting import format_percent

__all__ = ["optional_stopping_chart", "power_chart"]

# Okabe-Ito colours, as on the calculator page's charts.
_LINE_COLOUR = "#0072B2"
_DIP_COLOUR = "#D55E00"
_RULE_COLOUR = "#555555"
_ANYTIME_COLOUR = "#009E73"
# Up to this many sizes every n gets a dot, so single-n dips show.
_DOTS_UP_TO = 150


def power_chart(curve: PowerCurve) -> alt.LayerChart:
    """Power against the number of pairs, with the target and the plan's n marked.

    Sizes past the plan's n whose power falls below the target (the saw-tooth's dips) are drawn
    as orange diamonds.

    Parameters
    ----------
    curve : calculator.planning.PowerCurve
        From :meth:`calculator.planning.PowerPlan.power_curve`.
    """
    power = np.asarray(curve.power)
    target = format_percent(curve.target_power)
    dips = (curve.n > curve.chosen_n) & (power < curve.target_power)
    frame = pd.DataFrame(
        {
            "n": curve.n,
            "power": power,
            "power_text": [format_percent(value) for value in power],
            "status": np.where(dips, "below target after the plan's n", "power"),
        }
    )
    tooltip = [
        alt.Tooltip("n:Q", title="Pairs", format=","),
        alt.Tooltip("power_text:N", title="Power"),
    ]
    base = alt.Chart(frame).encode(
        x=alt.X("n:Q", title="n: number of paired cases", axis=alt.Axis(format=",")),
        y=alt.Y(
            "power:Q", title="Power", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")
        ),
    )
    line = base.mark_line(color=_LINE_COLOUR, strokeWidth=2)
    dots = base.mark_point(
        filled=True, size=30 if len(frame) <= _DOTS_UP_TO else 0, color=_LINE_COLOUR
    ).encode(tooltip=tooltip)
    # With no dip the layer draws nothing; its empty mark group would still be announced as an
    # unnamed graphic, so it is then hidden from assistive technology.
    dip_dots = (
        alt.Chart(frame[frame["status"] != "power"])
        .mark_point(filled=True, size=70, color=_DIP_COLOUR, shape="diamond", aria=bool(dips.any()))
        .encode(x="n:Q", y="power:Q", tooltip=tooltip)
    )
    target_rule = (
        alt.Chart(pd.DataFrame({"power": [curve.target_power], "label": [f"target {target}"]}))
        .mark_rule(color=_RULE_COLOUR, strokeDash=[4, 4], strokeWidth=2)
        .encode(y="power:Q", tooltip=alt.Tooltip("label:N", title="Marker"))
    )
    n_rule = (
        alt.Chart(pd.DataFrame({"n": [curve.chosen_n], "label": [f"n = {curve.chosen_n:,}"]}))
        .mark_rule(color=_RULE_COLOUR, strokeWidth=2)
        .encode(x="n:Q", tooltip=alt.Tooltip("label:N", title="Marker"))
    )
    n_text = n_rule.mark_text(align="left", dx=4, dy=8, color=_RULE_COLOUR).encode(
        text="label:N", y=alt.value(0)
    )
    dip_note = (
        f"{int(dips.sum())} sizes beyond n = {curve.chosen_n:,} fall below it (orange diamonds)."
        if dips.any()
        else f"No size drawn beyond n = {curve.chosen_n:,} falls below it."
    )
    description = (
        f"Line chart of the test's power against the number of paired cases, from "
        f"{int(curve.n[0]):,} to {int(curve.n[-1]):,}. A dashed rule marks the target power "
        f"{target} and a vertical rule the plan's n = {curve.chosen_n:,}. " + dip_note
    )
    return alt.layer(line, dots, dip_dots, target_rule, n_rule, n_text).properties(
        title=alt.Title(
            "Power against the number of pairs",
            subtitle="The exact test is discrete, so power zig-zags as n grows.",
        ),
        description=description,
        height=320,
    )


def _anytime_line(result: OptionalStopping, scale: alt.Scale) -> tuple[alt.Chart, alt.Chart]:
    """The anytime-valid test's rate on the same experiments (green), and the two lines' names
    at their last look."""
    rate = np.asarray(result.anytime_false_positive_rate)
    frame = pd.DataFrame(
        {
            "looks": result.looks,
            "cases": result.cases,
            "rate": rate,
            "rate_text": [format_percent(value) for value in rate],
        }
    )
    line = (
        alt.Chart(frame)
        .mark_line(color=_ANYTIME_COLOUR, strokeWidth=3, strokeDash=[6, 3])
        .encode(
            x="looks:Q",
            y=alt.Y("rate:Q", scale=scale),
            tooltip=[
                alt.Tooltip("looks:Q", title="Looks"),
                alt.Tooltip("cases:Q", title="Cases by the last look", format=","),
                alt.Tooltip("rate_text:N", title="Anytime-valid test's false-positive rate"),
            ],
        )
    )
    last = int(result.looks[-1])
    names = pd.DataFrame(
        {
            "looks": [last, last],
            "rate": [float(result.false_positive_rate[-1]), float(rate[-1])],
            "name": ["fixed-n test", "anytime-valid test"],
            "colour": [_LINE_COLOUR, _ANYTIME_COLOUR],
        }
    )
    labels = (
        alt.Chart(names)
        .mark_text(align="right", dy=-10, fontWeight="bold")
        .encode(
            x="looks:Q",
            y=alt.Y("rate:Q", scale=scale),
            text="name:N",
            color=alt.Color("colour:N", scale=None),
        )
    )
    return line, labels


def optional_stopping_chart(result: OptionalStopping) -> alt.LayerChart:
    """Simulated false-positive rate against the number of looks, beside the nominal alpha, for
    the fixed-n test and (green, dashed) the anytime-valid test on the same experiments.

    A band of two standard errors either side shows the simulation's own uncertainty.

    Parameters
    ----------
    result : calculator.planning.OptionalStopping
        From :func:`calculator.planning.simulate_optional_stopping`.
    """
    rate = np.asarray(result.false_positive_rate)
    spread = 2 * np.asarray(result.standard_error)
    frame = pd.DataFrame(
        {
            "looks": result.looks,
            "cases": result.cases,
            "rate": rate,
            "low": np.clip(rate - spread, 0, 1),
            "high": np.clip(rate + spread, 0, 1),
            "rate_text": [format_percent(value) for value in rate],
        }
    )
    top = float(max(frame["high"].max(), 2 * result.alpha))
    scale = alt.Scale(domain=[0, min(1.0, top * 1.1)])
    y = alt.Y("rate:Q", title="False-positive rate", scale=scale, axis=alt.Axis(format="%"))
    x = alt.X("looks:Q", title="Number of looks (test after each, stop when significant)")
    base = alt.Chart(frame).encode(x=x)
    band = base.mark_area(color=_LINE_COLOUR, opacity=0.2).encode(
        y=alt.Y("low:Q", scale=scale), y2="high:Q"
    )
    line = base.mark_line(color=_LINE_COLOUR, strokeWidth=3, point=True).encode(
        y=y,
        tooltip=[
            alt.Tooltip("looks:Q", title="Looks"),
            alt.Tooltip("cases:Q", title="Cases by the last look", format=","),
            alt.Tooltip("rate_text:N", title="False-positive rate"),
        ],
    )
    alpha_rule = (
        alt.Chart(
            pd.DataFrame({"rate": [result.alpha], "label": [f"nominal α = {result.alpha:g}"]})
        )
        .mark_rule(color=_RULE_COLOUR, strokeDash=[4, 4], strokeWidth=2)
        .encode(y="rate:Q", tooltip=alt.Tooltip("label:N", title="Marker"))
    )
    alpha_text = alpha_rule.mark_text(align="left", dx=4, dy=-8, color=_RULE_COLOUR).encode(
        text="label:N", x=alt.value(0)
    )
    description = (
        f"Line chart of the share of {result.experiments:,} simulated experiments with no real "
        f"difference that were declared significant, against the number of looks (one every "
        f"{result.look_every:,} cases). With one look it is {format_percent(rate[0])}; with "
        f"{int(result.looks[-1]):,} looks it is {format_percent(rate[-1])}, against a nominal "
        f"α = {result.alpha:g} (dashed rule). The shaded band is two simulation standard errors. "
        f"The green line is the anytime-valid test on the same experiments: "
        f"{format_percent(float(result.anytime_false_positive_rate[-1]))} after the last look."
    )
    anytime = _anytime_line(result, scale)
    return alt.layer(band, line, alpha_rule, alpha_text, *anytime).properties(
        title=alt.Title(
            "Peeking raises the false-positive rate",
            subtitle=f"{result.experiments:,} simulated experiments with no real difference "
            f"(random seed {result.seed}, so the figure can be reproduced)",
        ),
        description=description,
        height=320,
    )
