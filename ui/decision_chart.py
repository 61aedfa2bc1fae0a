"""The decision's interval against the margin (pure): a result in, an Altair chart out.

The interval for A - B (the direction of the headline and of the decision's sentence) is a bar
with the estimate as a point; zero and, for a margin question, the margin the sentence names are
vertical rules (+margin for non-inferiority of B, -margin for B better by more than the margin,
both for equivalence), so whether the bar clears it is visible.
``large=True`` draws it bigger for the presenting view (sizes from :mod:`ui.chart_sizes`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import altair as alt

from calculator import Decision
from calculator.report.formatting import format_confidence, format_points
from ui.calculator_charts import frame_of
from ui.chart_sizes import axis, grown, grown_area, legend_text
from ui.words import Wording

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["decision_chart", "interval_frame", "interval_rows", "rule_frame", "rule_rows"]

# Colour and dash pattern of each rule: zero grey and finely dotted, the margins red and dashed.
_RULES = {
    "no difference": ("#555555", [2, 2]),
    "− margin": ("#d62728", [8, 4]),
    "+ margin": ("#d62728", [8, 4]),
}
# The whole chart's height: Streamlit fits the axis and the legend (about 130 px) inside it, so
# the plot keeps about 40 px for the bar and the rules.
_HEIGHT = 170


def _shown(decision: Decision) -> tuple[float, float, float]:
    """The low end, the high end and the estimate as drawn: A - B in pass rate, or in error rate
    in the classifier framing (minus the pass-rate difference, ends swapped), as the sentence
    beside the chart prints them (:class:`calculator.report.decision.Words`)."""
    if decision.framing == "pass":
        return decision.low, decision.high, decision.estimate
    return -decision.high, -decision.low, -decision.estimate


def interval_rows(decision: Decision) -> list[dict[str, object]]:
    """One row: the interval limits and the estimate of A - B, in percentage points."""
    low, high, estimate = _shown(decision)
    return [
        {
            "low": 100.0 * low,
            "high": 100.0 * high,
            "estimate": 100.0 * estimate,
            "what": f"{format_confidence(decision.level)} interval",
            # The tooltips' text: a non-zero limit never reads "+0.00" (format_points).
            "low_text": format_points(low),
            "high_text": format_points(high),
            "estimate_text": format_points(estimate),
        }
    ]


def rule_rows(decision: Decision) -> list[dict[str, object]]:
    """The vertical rules: zero, and the margin(s) the question's interval must clear in A - B:
    +margin for non-inferiority of B (the interval must lie below it), -margin for B better by
    more than the margin (below it), both for equivalence (inside them); in error rate, the
    classifier framing, the one-sided margins change sides as the interval does."""
    rows: list[dict[str, object]] = [
        {"at": 0.0, "rule": "no difference", "at_text": format_points(0.0)}
    ]
    if decision.margin is not None:
        points = 100.0 * decision.margin
        errors = decision.framing != "pass"
        # The margin on the side where B does worse (+ in pass rate) and on the other side.
        worse, better = ("−", "+") if errors else ("+", "−")
        wanted = {"non-inferior": {worse}, "better": {better}}.get(decision.question, {"−", "+"})
        if "−" in wanted:
            rows.append(
                {"at": -points, "rule": "− margin", "at_text": format_points(-decision.margin)}
            )
        if "+" in wanted:
            rows.append(
                {"at": points, "rule": "+ margin", "at_text": format_points(decision.margin)}
            )
    return rows


def interval_frame(decision: Decision) -> pd.DataFrame:
    """:func:`interval_rows` as a pandas frame (for reading and for tests)."""
    return frame_of(interval_rows(decision))


def rule_frame(decision: Decision) -> pd.DataFrame:
    """:func:`rule_rows` as a pandas frame (for reading and for tests)."""
    return frame_of(rule_rows(decision))


def decision_chart(
    decision: Decision,
    wording: Wording,
    *,
    large: bool = False,
    named: tuple[str, str] | None = None,
) -> alt.LayerChart:
    """The interval as a bar, the estimate as a point, zero and the margin(s) as rules; `large`
    for the presenting view. With `named` (the interval's and the rules' dataset names) the
    layers read those named data sources instead of holding their rows (the page sends the rows
    apart, and never builds a pandas frame)."""
    bar, rules = interval_rows(decision), rule_rows(decision)
    reach = max(
        abs(float(bar[0]["low"])),
        abs(float(bar[0]["high"])),
        max(abs(float(rule["at"])) for rule in rules),
        0.5,
    )
    domain = [-1.1 * reach, 1.1 * reach]
    if named is None:
        bar_data, rule_data = frame_of(bar), frame_of(rules)
    else:
        bar_data, rule_data = alt.NamedData(name=named[0]), alt.NamedData(name=named[1])
    named_difference = _difference(wording)
    # Not capitalize(): it lowers the names.
    x_title = f"{named_difference[0].upper()}{named_difference[1:]} (points)"
    x = alt.X("low:Q", title=x_title, scale=alt.Scale(domain=domain, nice=False), axis=axis(large))
    interval = (
        alt.Chart(bar_data)
        .mark_bar(height=grown(16, large), color="#4c78a8", opacity=0.8)
        .encode(
            x=x,
            x2="high:Q",
            tooltip=[
                alt.Tooltip("what:N", title="interval"),
                alt.Tooltip("low_text:N", title="low (points)"),
                alt.Tooltip("high_text:N", title="high (points)"),
            ],
        )
    )
    estimate = (
        alt.Chart(bar_data)
        .mark_point(filled=True, size=grown_area(80, large), color="black")
        .encode(
            x=alt.X("estimate:Q", scale=alt.Scale(domain=domain, nice=False)),
            tooltip=[alt.Tooltip("estimate_text:N", title="observed (points)")],
        )
    )
    shown = [str(rule["rule"]) for rule in rules]
    return (_rule_layer(rule_data, shown, domain, large) + interval + estimate).properties(
        height=grown(_HEIGHT, large), description=_description(wording, shown)
    )


def _difference(wording: Wording) -> str:
    """ "pass-rate difference A − B" ("error-rate" in the classifier framing), as the headline
    and the decision's sentence name it."""
    kind = "error-rate" if wording.classifier else "pass-rate"
    return f"{kind} difference {wording.name_a} − {wording.name_b}"


def _description(wording: Wording, rules: list[str]) -> str:
    """The chart's alt text: what it draws, without the figures (the answer beside it says
    them, and the page swaps new figures into a chart of the same kind of question)."""
    margins = {
        ("no difference",): "",
        ("no difference", "+ margin"): "; a dashed red rule marks plus the margin",
        ("no difference", "− margin"): "; a dashed red rule marks minus the margin",
        ("no difference", "− margin", "+ margin"): (
            "; dashed red rules mark minus and plus the margin"
        ),
    }[tuple(rules)]
    return (
        f"The {_difference(wording)} in percentage points: its interval as a bar, with the "
        f"observed difference as a dot; a dotted grey rule marks zero{margins}."
    )


def _rule_layer(
    rules: pd.DataFrame | alt.NamedData, shown: list[str], domain: list[float], large: bool
) -> alt.Chart:
    """The rules (`shown`: their names, in order), told apart by dash pattern as well as
    colour; the legend lists only the rules drawn (a one-sided margin has no "+ margin")."""
    legend = alt.Legend(
        orient="bottom",
        symbolType="stroke",
        symbolStrokeWidth=grown(2, large),
        symbolSize=grown_area(300, large),
        **legend_text(large),
    )
    return (
        alt.Chart(rules)
        .mark_rule(strokeWidth=grown(2, large))
        .encode(
            x=alt.X("at:Q", scale=alt.Scale(domain=domain, nice=False)),
            color=alt.Color(
                "rule:N",
                title=None,
                scale=alt.Scale(domain=shown, range=[_RULES[r][0] for r in shown]),
                legend=legend,
            ),
            strokeDash=alt.StrokeDash(
                "rule:N",
                title=None,
                scale=alt.Scale(domain=shown, range=[_RULES[r][1] for r in shown]),
                legend=legend,
            ),
            tooltip=[alt.Tooltip("rule:N"), alt.Tooltip("at_text:N", title="points")],
        )
    )
