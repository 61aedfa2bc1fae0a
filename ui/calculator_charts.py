"""The calculator page's two Altair charts, and the small tables they are drawn from.

The ``*_columns`` functions call the statistics core and return a long-format table of a few
hundred rows as named columns (the ``*_frame`` functions: the same as a pandas frame, for reading
and for tests). Each chart is put together from two pure parts, which the page caches apart
(:mod:`ui.widgets.cache`): a layout (``*_layout``: an ``alt.LayerChart`` with marks, encodings,
titles and alt text, no data) and its named datasets (the table and the ``*_markers``; the
``*_datasets`` functions give them as frames).
The layout depends on neither the table nor the number of gates, so when only those change the
browser swaps rows into the drawn chart instead of drawing it anew. The tests join the two and
check the result through Altair's ``chart.to_dict()``. ``large=True`` draws a layout bigger,
for the presenting view (sizes from :mod:`ui.chart_sizes`; colours and dashes unchanged).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import altair as alt
import numpy as np

from calculator import both_pass_sweep, false_alarm_rate, gate_rates
from calculator.gates import MAX_GATES
from calculator.report.formatting import format_percent, format_pvalue
from ui.chart_sizes import axis, fonts, grown, grown_area, legend_text, title_fonts

if TYPE_CHECKING:
    import pandas as pd

#: A table as named columns of equal length (lists or numpy arrays): what the page sends as
#: JSON rows (:func:`ui.live_panel.json_rows`) without building a pandas frame, so that the
#: calculator page's default view does not import pandas (a quarter of a second of a server's
#: cold start: issue 37).
Columns = Mapping[str, Sequence[object] | np.ndarray]

__all__ = [
    "GATE_RULES",
    "SWEEP_TESTS",
    "Columns",
    "false_alarm_columns",
    "false_alarm_datasets",
    "false_alarm_frame",
    "false_alarm_layout",
    "false_alarm_markers",
    "frame_of",
    "gate_grid",
    "gates_axis_is_log",
    "pvalue_datasets",
    "pvalue_layout",
    "pvalue_markers",
    "pvalue_sweep_columns",
    "pvalue_sweep_frame",
    "sweep_grid",
    "sweep_tests",
]

#: Names of the three lines of the p-value chart, in legend order (doubling convention).
SWEEP_TESTS = ("Exact McNemar", "McNemar chi-square", "Unpaired z-test")


def sweep_tests(convention: str = "doubling") -> tuple[str, str, str]:
    """The p-value chart's line names: the binomial line is "McNemar mid-p" under the mid-p
    convention, never "exact".

    Examples
    --------
    >>> sweep_tests("mid-p")[0], sweep_tests()[0]
    ('McNemar mid-p', 'Exact McNemar')
    """
    return ("McNemar mid-p", *SWEEP_TESTS[1:]) if convention == "mid-p" else SWEEP_TESTS


#: Names of the three lines of the gates chart, in legend order.
GATE_RULES = ("Uncorrected", "Bonferroni", "Šidák")

# Okabe-Ito colours (safe for the common colour-vision deficiencies), and a dash pattern per
# line so that the lines differ in print and in greyscale too.
# Okabe-Ito blue, with its orange and purple darkened so that every line has at least 3:1
# contrast against the white background (WCAG 2.1, 1.4.11); the dash patterns tell them apart
# without colour.
_COLOURS = ("#0072B2", "#B26B00", "#AD5C9E")
_DASHES = ([1, 0], [8, 4], [2, 3])
_RULE_COLOUR = "#555555"
_SWEEP_POINTS = 61  # enough for a smooth curve; each point is drawn twice


def sweep_grid(a: int, points: int = _SWEEP_POINTS) -> np.ndarray:
    """Both-pass counts for the p-value chart: 0 to max(100, 2a), always including `a`.

    Examples
    --------
    >>> grid = sweep_grid(60)
    >>> int(grid[0]), int(grid[-1]), 60 in grid
    (0, 120, True)
    """
    high = max(100, 2 * a)
    grid = np.round(np.linspace(0, high, points)).astype(np.int64)
    return np.unique(np.append(grid, a))


def pvalue_sweep_columns(
    a: int, b: int, c: int, d: int, *, convention: str = "doubling", correction: bool = False
) -> dict[str, Sequence[object] | np.ndarray]:
    """p-values of the three tests over :func:`sweep_grid` (a), with b, c, d held fixed.

    Returns
    -------
    dict of columns
        One entry per (a, test): ``a``, ``test`` (one of :data:`SWEEP_TESTS`), ``p``,
        ``log10_p`` (finite even where p underflows to 0) and ``p_text`` (p for reading).
    """
    sweep = both_pass_sweep(sweep_grid(a), b, c, d, convention=convention, correction=correction)
    columns = (
        (sweep.exact_pvalue, sweep.exact_log10),
        (sweep.chi2_pvalue, sweep.chi2_log10),
        (sweep.unpaired_pvalue, sweep.unpaired_log10),
    )
    tests = sweep_tests(convention)
    p = np.concatenate([np.asarray(pvalues, dtype=float) for pvalues, _ in columns])
    log10 = np.concatenate([np.asarray(logs, dtype=float) for _, logs in columns])
    return {
        "a": np.tile(np.asarray(sweep.a), len(tests)),
        "test": [test for test in tests for _ in range(len(sweep.a))],
        "p": p,
        "log10_p": log10,
        "p_text": [format_pvalue(value, lg) for value, lg in zip(p, log10, strict=True)],
    }


def pvalue_sweep_frame(
    a: int, b: int, c: int, d: int, *, convention: str = "doubling", correction: bool = False
) -> pd.DataFrame:
    """:func:`pvalue_sweep_columns` as a pandas frame (for reading and for tests)."""
    return frame_of(pvalue_sweep_columns(a, b, c, d, convention=convention, correction=correction))


def frame_of(columns: Columns) -> pd.DataFrame:
    """A table of named columns (or of rows) as a pandas frame; pandas is imported here, not
    by the page, which sends its tables as rows."""
    import pandas as pd

    return pd.DataFrame(columns)


def _line_encodings(
    field: str, domain: tuple[str, ...], title: str, large: bool
) -> dict[str, alt.ChannelMixin]:
    legend = alt.Legend(
        title=title,
        orient="bottom",
        columns=1,  # one entry per row: a row of three was cut off at phone width (390 px)
        symbolType="stroke",  # a short line in the line's dash pattern, not a dot
        symbolStrokeWidth=grown(3, large),
        symbolSize=grown_area(400, large),
        **legend_text(large),
    )
    return {
        "color": alt.Color(
            f"{field}:N",
            title=title,
            scale=alt.Scale(domain=list(domain), range=list(_COLOURS)),
            legend=legend,
        ),
        "strokeDash": alt.StrokeDash(
            f"{field}:N",
            title=title,
            scale=alt.Scale(domain=list(domain), range=list(_DASHES)),
            legend=legend,
        ),
    }


def _marker_rule(dataset: str, *, large: bool, dashed: bool = False, **position: str) -> alt.Chart:
    """A grey rule at the position held in `dataset` (the current value, or alpha dashed),
    with the dataset's label as its tooltip."""
    dash = {"strokeDash": [4, 4]} if dashed else {}
    return (
        alt.Chart(alt.NamedData(name=dataset))
        .mark_rule(color=_RULE_COLOUR, strokeWidth=grown(2, large), **dash)
        .encode(**position, tooltip=alt.Tooltip("label:N", title="Marker"))
    )


def _y_field(log_axis: bool) -> str:
    return "log10_p" if log_axis else "p"


def pvalue_markers(*, current_a: int, alpha: float, log_axis: bool = False) -> dict[str, Columns]:
    """The two rules of :func:`pvalue_layout`, as named tables: the current a and alpha."""
    y_field = _y_field(log_axis)
    return {
        "current_a": {"a": [current_a], "label": [f"current a = {current_a:,}"]},
        "alpha": {y_field: [math.log10(alpha) if log_axis else alpha], "label": [f"α = {alpha:g}"]},
    }


def pvalue_datasets(
    frame: pd.DataFrame, *, current_a: int, alpha: float, log_axis: bool = False
) -> dict[str, pd.DataFrame]:
    """The named tables behind :func:`pvalue_layout` as frames: the sweep (`frame`, from
    :func:`pvalue_sweep_frame`) and :func:`pvalue_markers`."""
    markers = pvalue_markers(current_a=current_a, alpha=alpha, log_axis=log_axis)
    return {"sweep": frame, **{name: frame_of(table) for name, table in markers.items()}}


def pvalue_layout(
    *,
    alpha: float,
    log_axis: bool,
    x_title: str,
    title: str,
    convention: str = "doubling",
    large: bool = False,
) -> alt.LayerChart:
    """The p-value chart without its data (see :func:`pvalue_datasets`); `large` for the
    presenting view."""
    y_field = _y_field(log_axis)
    y_title = "log10 p-value" if log_axis else "p-value"
    tooltip = [
        alt.Tooltip("test:N", title="Test"),
        alt.Tooltip("a:Q", title="a", format=","),
        alt.Tooltip("p_text:N", title="p"),
    ]
    base = alt.Chart(alt.NamedData(name="sweep")).encode(
        x=alt.X("a:Q", title=x_title, axis=axis(large, format="~s")),
        y=alt.Y(
            f"{y_field}:Q",
            title=y_title,
            axis=axis(large),
            # Linear axis: from 0 to the largest p shown (or alpha), not to 1, so lines near
            # p = 0.02 and 0.04 stay apart; the alpha rule is on this axis, so it stays in view.
            scale=alt.Scale(zero=True, nice=True)
            if not log_axis
            else alt.Scale(zero=False, nice=True),
        ),
        **_line_encodings("test", sweep_tests(convention), "Test", large),
    )
    lines = base.mark_line(strokeWidth=grown(3, large))
    # Invisible points make the tooltip easy to hit anywhere along a line.
    hover = base.mark_point(size=grown_area(60, large), opacity=0).encode(tooltip=tooltip)
    a_rule = _marker_rule("current_a", large=large, x="a:Q")
    alpha_rule = _marker_rule("alpha", large=large, dashed=True, y=f"{y_field}:Q")
    alpha_text = alpha_rule.mark_text(
        align="left",
        dx=4,
        dy=-grown(8, large),
        color=_RULE_COLOUR,
        **fonts(large, ("fontSize",)),
    ).encode(text="label:N", x=alt.value(0))
    # The alt text leaves out the current a, which the page shows beside the chart: with it,
    # every new a would be a new spec, and the browser would draw the chart anew.
    description = (
        f"Line chart of {'log10 p' if log_axis else 'p'} against {x_title} for three tests. "
        "The two McNemar lines are flat because they use only the discordant cells; the "
        "unpaired z-test line moves with a. A vertical rule marks the current a and a dashed "
        f"horizontal rule marks α = {alpha:g}."
    )
    return alt.layer(lines, hover, a_rule, alpha_rule, alpha_text).properties(
        title=alt.Title(
            title, subtitle="McNemar ignores a; the unpaired test does not.", **title_fonts(large)
        ),
        description=description,
        height=grown(320, large),
    )


def gate_grid(gates: int) -> np.ndarray:
    """Gate counts for the gates chart: 1 to 50, or a log-spaced grid to 2m for large m.

    The grid stops at the core's limit of :data:`calculator.gates.MAX_GATES` gates.

    Examples
    --------
    >>> gate_grid(6)[[0, -1]].tolist()
    [1, 50]
    >>> int(gate_grid(1000)[-1]), 1000 in gate_grid(1000)
    (2000, True)
    """
    if 2 * gates <= 50:
        return np.arange(1, 51)
    grid = np.round(np.geomspace(1, min(2 * gates, MAX_GATES), 60)).astype(np.int64)
    return np.unique(np.concatenate([np.arange(1, 11), grid, [gates]]))


def false_alarm_columns(
    gates: int, alpha: float, rho: float = 0.0
) -> dict[str, Sequence[object] | np.ndarray]:
    """P(at least one false alarm) against the number of gates, per correction rule.

    Returns
    -------
    dict of columns
        One entry per (gates, rule): ``gates``, ``rule`` (one of :data:`GATE_RULES`),
        ``per_gate_alpha``, ``rate`` and ``rate_text``.
    """
    counts = gate_grid(gates)
    per_gate = {
        "Uncorrected": np.full(counts.shape, alpha),
        "Bonferroni": np.array([gate_rates(int(m), alpha).bonferroni_alpha for m in counts]),
        "Šidák": np.array([gate_rates(int(m), alpha).sidak_alpha for m in counts]),
    }
    rates = np.concatenate(
        [
            np.asarray(false_alarm_rate(counts, per_gate[rule], rho), dtype=float)
            for rule in GATE_RULES
        ]
    )
    return {
        "gates": np.tile(counts, len(GATE_RULES)),
        "rule": [rule for rule in GATE_RULES for _ in range(len(counts))],
        "per_gate_alpha": np.concatenate([per_gate[rule] for rule in GATE_RULES]),
        "rate": rates,
        "rate_text": [format_percent(r) for r in rates],
    }


def false_alarm_frame(gates: int, alpha: float, rho: float = 0.0) -> pd.DataFrame:
    """:func:`false_alarm_columns` as a pandas frame (for reading and for tests)."""
    return frame_of(false_alarm_columns(gates, alpha, rho))


def gates_axis_is_log(table: Columns) -> bool:
    """Whether the gates chart of `table` (columns or a frame) has a log x axis: past 100 gates
    its grid is log-spaced (see :func:`gate_grid`)."""
    return int(np.max(np.asarray(table["gates"]))) > 100


def false_alarm_markers(*, current_gates: int, alpha: float) -> dict[str, Columns]:
    """The two rules of :func:`false_alarm_layout`, as named tables: the current m and alpha."""
    return {
        "current_m": {"gates": [current_gates], "label": [f"m = {current_gates:,}"]},
        "alpha": {"rate": [alpha], "label": [f"α = {alpha:g}"]},
    }


def false_alarm_datasets(
    frame: pd.DataFrame, *, current_gates: int, alpha: float
) -> dict[str, pd.DataFrame]:
    """The named tables behind :func:`false_alarm_layout` as frames: the rates (`frame`, from
    :func:`false_alarm_frame`) and :func:`false_alarm_markers`."""
    markers = false_alarm_markers(current_gates=current_gates, alpha=alpha)
    return {"rates": frame, **{name: frame_of(table) for name, table in markers.items()}}


def _correlation(rho: float) -> str:
    return "independent gates" if rho == 0 else f"gates correlated at ρ = {rho:g}"


def _uncorrected_trend(alpha: float, rho: float) -> str:
    """How the uncorrected gates' rate moves with m, true at every rho in [0, 1]."""
    if rho >= 1:
        return (
            f"perfectly correlated gates always agree, so uncorrected gates stay at α = {alpha:g}"
        )
    if rho == 0:
        return f"uncorrected gates at α = {alpha:g} climb towards 100%"
    return (
        f"uncorrected gates at α = {alpha:g} climb with m, more slowly than independent ones "
        "and never above m·α"
    )


def false_alarm_layout(
    *, alpha: float, rho: float, log_x: bool, large: bool = False
) -> alt.LayerChart:
    """The gates chart without its data (see :func:`false_alarm_datasets`).

    `log_x` puts the gates on a log axis, for the log-spaced grid of more than 50 gates;
    `large` draws it bigger, for the presenting view.
    """
    # Linear: exactly the grid's span (1 to 50, or to 2m), not rounded out to 0.
    x_scale = alt.Scale(type="log") if log_x else alt.Scale(zero=False, nice=False)
    tooltip = [
        alt.Tooltip("rule:N", title="Rule"),
        alt.Tooltip("gates:Q", title="Gates", format=","),
        alt.Tooltip("per_gate_alpha:Q", title="Per-gate α", format=".2g"),
        alt.Tooltip("rate_text:N", title="P(≥ 1 false alarm)"),
    ]
    base = alt.Chart(alt.NamedData(name="rates")).encode(
        x=alt.X("gates:Q", title="m: number of gates", scale=x_scale, axis=axis(large)),
        y=alt.Y(
            "rate:Q",
            title="P(at least one false alarm)",
            scale=alt.Scale(domain=[0, 1]),
            axis=axis(large, format="%"),
        ),
        **_line_encodings("rule", GATE_RULES, "Per-gate level", large),
    )
    lines = base.mark_line(strokeWidth=grown(3, large))
    hover = base.mark_point(size=grown_area(60, large), opacity=0).encode(tooltip=tooltip)
    m_rule = _marker_rule("current_m", large=large, x="gates:Q")
    alpha_rule = _marker_rule("alpha", large=large, dashed=True, y="rate:Q")
    # Without the current m, like the p-value chart's alt text (see there).
    description = (
        "Line chart of the chance of at least one false alarm against the number of gates m, "
        f"for {_correlation(rho)}: {_uncorrected_trend(alpha, rho)}, while Bonferroni and "
        "Šidák per-gate levels hold it at or below α. A vertical rule marks the current m; a "
        "dashed rule marks α."
    )
    return alt.layer(lines, hover, m_rule, alpha_rule).properties(
        title=alt.Title(
            "False alarms across many gates",
            subtitle=f"{_correlation(rho)}, α = {alpha:g}",
            **title_fonts(large),
        ),
        description=description,
        height=grown(320, large),
    )
