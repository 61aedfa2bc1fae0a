"""The teaching sections' Altair charts: the null distribution, coverage, what pairing buys.

Each builder is pure (a result of :mod:`calculator.teaching` in, an Altair chart out) and is
tested through ``chart.to_dict()``. ``large=True`` draws them bigger for projecting (sizes from
:mod:`ui.chart_sizes`, shared with the page's other charts).
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from calculator.teaching import MarginSweep, NullDistribution, OperatingCharacteristics
from ui.chart_sizes import font, grown, grown_area, label_room
from ui.teaching_words import percent_beside

__all__ = [
    "PAIRING_SERIES",
    "TAIL_LABELS",
    "coverage_chart",
    "null_distribution_chart",
    "pairing_chart",
    "pairing_series",
]

#: Legend labels of the null chart, by the share of an outcome's probability in the p-value.
TAIL_LABELS = {1.0: "in the p-value", 0.5: "counts half (mid-p)", 0.0: "not in the p-value"}
#: The two lines of the pairing chart (doubling convention; see :func:`pairing_series`).
PAIRING_SERIES = ("McNemar exact (paired)", "Unpaired z-test")


def pairing_series(convention: str = "doubling") -> tuple[str, str]:
    """The pairing chart's line names: the binomial line is "McNemar mid-p" under the mid-p
    convention, never "exact".

    Examples
    --------
    >>> pairing_series("mid-p")[0]
    'McNemar mid-p (paired)'
    """
    return (
        ("McNemar mid-p (paired)", PAIRING_SERIES[1]) if convention == "mid-p" else PAIRING_SERIES
    )


# Okabe-Ito colours, as on the page's other charts.
_TAIL_COLOURS = ("#D55E00", "#E69F00", "#BBBBBB")
_LINE_COLOURS = ("#0072B2", "#CC79A7")
_RULE_COLOUR = "#555555"
# Smallest p drawn on the log axis of the pairing chart; smaller ones sit on this floor.
_P_FLOOR = 1e-12


def _size(large: bool) -> dict[str, int]:
    return {"height": grown(260, large)}


def null_distribution_chart(
    null: NullDistribution, *, axis_title: str | None = None, large: bool = False
) -> alt.LayerChart:
    """Bars of Binomial(m, 1/2) (an outline past a few hundred pairs), the tails of the p-value
    shaded, the observed b marked by a rule.

    Examples
    --------
    >>> from calculator.teaching import null_distribution
    >>> spec = null_distribution_chart(null_distribution(10, 2)).to_dict()
    >>> spec["layer"][0]["mark"]["type"]
    'bar'
    """
    frame = pd.DataFrame(
        {
            "b": np.asarray(null.outcomes),
            "probability": np.asarray(null.probabilities),
            "tail": [TAIL_LABELS[weight] for weight in null.tail_weights],
        }
    )
    x = alt.X(
        "b:Q",
        title=axis_title or f"b: discordant pairs, out of m = {null.discordant:,}",
        axis=alt.Axis(format=",d", labelFontSize=font(large), titleFontSize=font(large)),
    )
    y = alt.Y(
        "probability:Q",
        title="Probability if A and B are equally good",
        axis=alt.Axis(labelFontSize=font(large), titleFontSize=font(large)),
    )
    # The legend names only the shares that occur (no "counts half" under doubling).
    colours = dict(zip(TAIL_LABELS, _TAIL_COLOURS, strict=True))
    shares = [weight for weight in TAIL_LABELS if weight in set(null.tail_weights)]
    colour = alt.Color(
        "tail:N",
        title=None,
        scale=alt.Scale(
            domain=[TAIL_LABELS[w] for w in shares], range=[colours[w] for w in shares]
        ),
        legend=alt.Legend(orient="top", labelFontSize=font(large), **label_room(large)),
    )
    tooltip = [
        alt.Tooltip("b:Q", title="b", format=",d"),
        alt.Tooltip("probability:Q", title="Probability", format=".3g"),
        alt.Tooltip("tail:N", title="Tail"),
    ]
    base = alt.Chart(frame).encode(x=x, y=y, tooltip=tooltip)
    if null.kind == "bars":
        shape = base.mark_bar(size=max(2, min(24, 600 // max(1, null.discordant + 1)))).encode(
            color=colour
        )
    else:
        shape = base.mark_area(opacity=0.8, interpolate="step-after").encode(color=colour)
    observed = (
        alt.Chart(
            pd.DataFrame({"b": [null.statistic], "label": [f"observed b = {null.statistic:,}"]})
        )
        .mark_rule(color=_RULE_COLOUR, strokeWidth=grown(2, large), strokeDash=[6, 3])
        .encode(x="b:Q", tooltip=alt.Tooltip("label:N", title="Observed"))
    )
    title = alt.TitleParams(
        f"Null distribution: b ~ Binomial({null.discordant:,}, 1/2); dashed line: observed b",
        fontSize=font(large) + 1,
    )
    shown = "Bar chart" if null.kind == "bars" else "Outline"
    description = (
        f"{shown} of the probability of each split b of the {null.discordant:,} discordant "
        "pairs if the two systems are equally good; the splits that make up the p-value are "
        f"shaded, and a dashed line marks the observed b = {null.statistic:,}."
    )
    return (
        alt.layer(shape, observed)
        .properties(title=title, description=description, width="container", **_size(large))
        .configure_legend(symbolLimit=0)
    )


def coverage_chart(oc: OperatingCharacteristics, *, large: bool = False) -> alt.LayerChart:
    """Coverage of each interval method against the nominal level (a rule).

    Methods without figures at this n are left out of the chart (the table says why).

    Examples
    --------
    >>> from calculator.teaching import operating_characteristics
    >>> spec = coverage_chart(operating_characteristics(30, 0.2, 0.1)).to_dict()
    >>> spec["layer"][1]["mark"]["type"]
    'rule'
    """
    rows = [i for i in oc.intervals if i.coverage is not None]
    frame = pd.DataFrame(
        {
            "method": [i.name for i in rows],
            "coverage": [i.coverage for i in rows],
            "coverage_text": [percent_beside(i.coverage, oc.level) for i in rows],
        }
    )
    lowest = min([oc.level - 0.02, *frame["coverage"].tolist()])
    y = alt.Y(
        "coverage:Q",
        title="Coverage probability",
        scale=alt.Scale(domain=[max(0.0, lowest - 0.01), 1.0]),
        axis=alt.Axis(format="%", labelFontSize=font(large), titleFontSize=font(large)),
    )
    points = (
        alt.Chart(frame)
        .mark_point(filled=True, size=grown_area(120, large), color=_LINE_COLOURS[0])
        .encode(
            x=alt.X(
                "method:N",
                title=None,
                sort=None,
                axis=alt.Axis(
                    labelAngle=0, labelFontSize=font(large), labelLimit=grown(200, large)
                ),
            ),
            y=y,
            tooltip=[
                alt.Tooltip("method:N", title="Method"),
                alt.Tooltip("coverage_text:N", title="Coverage"),
            ],
        )
    )
    nominal = (
        alt.Chart(pd.DataFrame({"level": [oc.level], "label": [f"nominal {oc.level:g}"]}))
        .mark_rule(color=_RULE_COLOUR, strokeDash=[6, 3], strokeWidth=grown(2, large))
        .encode(y="level:Q", tooltip=alt.Tooltip("label:N", title="Level"))
    )
    title = alt.TitleParams(
        f"Coverage of each interval at n = {oc.n:,} and the entered proportions "
        f"(dashed line: the nominal {oc.level:g})",
        fontSize=font(large) + 1,
    )
    covered = ", ".join(
        f"{m} {t}" for m, t in zip(frame["method"], frame["coverage_text"], strict=True)
    )
    description = (
        f"Coverage probability of each interval method at n = {oc.n:,} and the entered "
        f"proportions: {covered}; a dashed "
        f"line marks the nominal level {oc.level:g}."
    )
    return alt.layer(points, nominal).properties(
        title=title, description=description, width="container", **_size(large)
    )


def pairing_chart(
    sweep: MarginSweep,
    selected: int,
    *,
    alpha: float,
    independent_agreement: float | None = None,
    axis_title: str = "Agreement: share of cases both systems pass or both fail",
    large: bool = False,
) -> alt.LayerChart:
    """Both p-values (log axis) against agreement with both pass rates fixed; the entered table
    and the slider's table marked, alpha and the agreement of independent systems as rules.

    Examples
    --------
    >>> from calculator.teaching import margin_sweep
    >>> spec = pairing_chart(margin_sweep(60, 15, 5, 20), 20, alpha=0.05).to_dict()
    >>> "paired" in spec["title"]["text"]
    True
    """
    series = pairing_series(sweep.convention)
    paired = "mid-p" if sweep.convention == "mid-p" else "exact p"
    frame = _pairing_frame(sweep, series)
    encodings = _pairing_encodings(axis_title, large, series)
    picked = {sweep.entered_index: "entered table", selected: "slider"}  # slider wins a tie
    rows = len(sweep.agreement)
    marks = pd.concat(
        [frame.iloc[[index, index + rows]].assign(which=label) for index, label in picked.items()],
        ignore_index=True,
    )
    lines = _pairing_lines(frame, encodings, large, series)
    points = _pairing_points(marks, encodings, large)
    layers = [lines, points, *_pairing_rules(alpha, independent_agreement)]
    # The mid-p falls with agreement, but is 1 again where no pair disagrees (m = 0), the last
    # table when both pass rates are equal: 0.75 at one discordant pair each way, then 1.
    trend = "never rises with agreement"
    if sweep.convention == "mid-p" and sweep.b[-1] == sweep.c[-1] == 0 and len(sweep.b) > 1:
        trend = "falls with agreement, then is 1 where no pair disagrees"
    title = alt.TitleParams(
        f"McNemar's {paired} (paired, blue line) {trend}; the unpaired p (pink, dashed) ignores it",
        fontSize=font(large) + 1,
    )
    independent = " and a dotted rule the agreement of independent systems"
    description = (
        f"Line chart of McNemar's {paired} (the paired test, solid line) and the unpaired "
        "z-test's p (dashed line), on a log scale, against the agreement between the systems "
        "with both pass rates held as entered; circles mark the entered table and diamonds the "
        f"slider's, a dashed rule marks α = {alpha:g}"
        f"{independent if independent_agreement is not None else ''}."
    )
    return alt.layer(*layers).properties(
        title=title, description=description, width="container", **_size(large)
    )


_Encodings = tuple[alt.X, alt.Y, alt.Color, list[alt.Tooltip]]


def _pairing_lines(
    frame: pd.DataFrame, encodings: _Encodings, large: bool, series: tuple[str, str]
) -> alt.Chart:
    """One line per test: solid for the paired test, dashed for the unpaired one."""
    x, y, colour, tooltip = encodings
    return (
        alt.Chart(frame)
        .mark_line(strokeWidth=grown(2, large))
        .encode(
            x=x,
            y=y,
            color=colour,
            strokeDash=alt.StrokeDash(
                "test:N",
                legend=None,
                scale=alt.Scale(domain=list(series), range=[[1, 0], [8, 4]]),
            ),
            tooltip=tooltip,
        )
    )


def _pairing_points(marks: pd.DataFrame, encodings: _Encodings, large: bool) -> alt.Chart:
    """The entered table (circles) and the slider's table (diamonds) on both lines."""
    x, y, colour, tooltip = encodings
    return (
        alt.Chart(marks)
        .mark_point(filled=True, size=grown_area(110, large))
        .encode(
            x=x,
            y=y,
            color=colour,
            shape=alt.Shape(
                "which:N",
                title=None,
                scale=alt.Scale(domain=["entered table", "slider"], range=["circle", "diamond"]),
                legend=alt.Legend(orient="top", labelFontSize=font(large), **label_room(large)),
            ),
            tooltip=tooltip,
        )
    )


def _pairing_frame(sweep: MarginSweep, names: tuple[str, str]) -> pd.DataFrame:
    """Both tests' p-values at every table of the sweep, long format (McNemar rows first)."""
    series = {
        names[0]: np.asarray(sweep.exact_log10),
        names[1]: np.asarray(sweep.unpaired_log10),
    }
    return pd.concat(
        [
            pd.DataFrame(
                {
                    "agreement": np.asarray(sweep.agreement),
                    "p": np.maximum(10.0**log10, _P_FLOOR),
                    "p_text": [_p_text(v) for v in log10],
                    "test": name,
                }
            )
            for name, log10 in series.items()
        ],
        ignore_index=True,
    )


def _pairing_encodings(axis_title: str, large: bool, series: tuple[str, str]) -> _Encodings:
    x = alt.X(
        "agreement:Q",
        title=axis_title,
        scale=alt.Scale(zero=False),
        axis=alt.Axis(format="%", labelFontSize=font(large), titleFontSize=font(large)),
    )
    y = alt.Y(
        "p:Q",
        title="p-value (log scale)",
        scale=alt.Scale(type="log"),
        axis=alt.Axis(labelFontSize=font(large), titleFontSize=font(large)),
    )
    colour = alt.Color(
        "test:N",
        title=None,
        scale=alt.Scale(domain=list(series), range=list(_LINE_COLOURS)),
        legend=alt.Legend(orient="top", labelFontSize=font(large), **label_room(large)),
    )
    tooltip = [
        alt.Tooltip("test:N", title="Test"),
        alt.Tooltip("agreement:Q", title="Agreement", format=".1%"),
        alt.Tooltip("p_text:N", title="p"),
    ]
    return x, y, colour, tooltip


def _pairing_rules(alpha: float, independent_agreement: float | None) -> list[alt.Chart]:
    """A dashed rule at alpha and a dotted one at the agreement of independent systems."""
    rules = [
        alt.Chart(pd.DataFrame({"y": [alpha], "label": [f"α = {alpha:g}"]}))
        .mark_rule(color=_RULE_COLOUR, strokeDash=[6, 3])
        .encode(y="y:Q", tooltip=alt.Tooltip("label:N", title="Level"))
    ]
    if independent_agreement is not None:
        independent = pd.DataFrame(
            {"x": [independent_agreement], "label": ["agreement of independent systems"]}
        )
        rules.append(
            alt.Chart(independent)
            .mark_rule(color=_RULE_COLOUR, strokeDash=[2, 3])
            .encode(x="x:Q", tooltip=alt.Tooltip("label:N", title="Dotted line"))
        )
    return rules


def _p_text(log10_value: float) -> str:
    if log10_value > -300:
        return f"{10.0**log10_value:.3g}"
    return f"10^{log10_value:.1f}"
