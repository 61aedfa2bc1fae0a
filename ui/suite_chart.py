"""The chart of a suite of tasks compared on two logs: a pure builder, a result in and an
Altair chart out. Each task's difference in pass rate A − B (points) with its interval, its
mark saying whether its two-sided p (Holm-adjusted across several tasks) is at most alpha, and
the suite's difference (every task's questions, each counted once) at the bottom, marked by
the suite's own test of the question asked, so that a person looks rather than reads. The
marks' words are :mod:`calculator.report.suite`'s, as the HTML report's caption."""

from __future__ import annotations

import altair as alt
import pandas as pd

from calculator.logs import LogAnalysis
from calculator.report.formatting import format_points, format_pvalue
from calculator.report.suite import suite_mark, task_mark
from calculator.text import clip, printable

__all__ = ["SUITE", "suite_chart", "suite_frame"]

SUITE = "suite (every task)"
_ROW = 24  # pixels per task


def suite_frame(result: LogAnalysis) -> pd.DataFrame:
    """One row per task, then the suite: the difference and its interval in points, whether
    its p is at most alpha ("filled": a task's two-sided p, Holm-adjusted across several
    tasks; the suite's decision of the question asked), the mark's words and the p read."""
    rows = []
    k = len(result.tasks)
    for task in result.tasks:  # the task's p, Holm-adjusted when there are several
        d, alpha = task.analysis.difference, task.analysis.decision.alpha
        shown = task.rejects()
        mark = task_mark(shown, alpha, k)
        rows.append(_row(printable(clip(task.task, 60)), d, shown, mark, task.family_pvalue, alpha))
    decision = result.pooled.decision
    mark = suite_mark(decision.reject, decision.alpha)
    rows.append(
        _row(
            SUITE, result.pooled.difference, decision.reject, mark, decision.pvalue, decision.alpha
        )
    )
    return pd.DataFrame(rows)


def _row(
    task: str, d: object, shown: bool, mark: str, pvalue: float, alpha: float
) -> dict[str, object]:
    return {
        "task": task,
        "points": 100.0 * d.estimate,
        "low": 100.0 * max(d.low, -1.0),
        "high": 100.0 * min(d.high, 1.0),
        "label": format_points(d.estimate),
        "filled": shown,
        "mark": mark,
        "p": format_pvalue(pvalue, alpha=alpha),
    }


def suite_chart(result: LogAnalysis, names: tuple[str, str]) -> alt.LayerChart:
    """The tasks' differences A − B with their intervals, the suite's last."""
    frame = suite_frame(result)
    order = list(frame["task"])
    axis = f"difference {printable(clip(names[0], 30))} − {printable(clip(names[1], 30))} (points)"
    y = alt.Y("task:N", sort=order, title=None)
    base = alt.Chart(frame).encode(y=y)
    rules = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("low:Q", title=axis, scale=alt.Scale(domain=[-100, 100])), x2="high:Q"
    )
    points = base.mark_point(size=70, filled=True).encode(
        x="points:Q",
        shape=alt.Shape("mark:N", title=None),
        tooltip=["task", "label", "low", "high", "p", "mark"],
    )
    zero = alt.Chart(pd.DataFrame({"x": [0.0]})).mark_rule(strokeDash=[4, 4]).encode(x="x:Q")
    return (rules + points + zero).properties(height=_ROW * len(frame), width="container")
