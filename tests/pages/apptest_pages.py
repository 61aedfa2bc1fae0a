"""Helpers shared by the page tests: opening one page of the app under Streamlit's AppTest, the
calculator page's live panel as AppTest sees it (its payload), and the calculator page's two
charts joined from their layout and datasets as Altair would draw them.
"""

import json
import re
from pathlib import Path

import altair as alt
import pandas as pd
from streamlit.testing.v1 import AppTest

from ui.calculator_charts import (
    false_alarm_datasets,
    false_alarm_layout,
    gates_axis_is_log,
    pvalue_datasets,
    pvalue_layout,
)

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 60  # seconds per run: a first run imports scipy, altair and (off the default view) pandas


def open_page(page: str) -> AppTest:
    """Run the app, switch to `page` (a path such as "app_pages/plan.py") and check it ran."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page(page).run()
    assert not at.exception
    return at


def share_link(at: AppTest) -> str:
    """The calculator page's share link: the target of the Markdown link whose text is the
    address itself (``ui.params.share_markdown``)."""
    for markdown in at.markdown:
        found = re.fullmatch(r"\[(.+)\]\((\S+)\)", markdown.value, re.DOTALL)
        if found and re.sub(r"\\(.)", r"\1", found[1]).endswith(found[2].rpartition("?")[2]):
            return found[2]
    raise AssertionError("no share link on the page")


def live_panel(at: AppTest) -> dict:
    """The calculator page's live panel (the table, its four cards and the p-value chart: one
    custom component, whose inside AppTest cannot see) as the payload the page sent it; {}
    on a page without it."""
    panels = [element for element in at.get("bidi_component") if element.key == "live_panel"]
    assert len(panels) <= 1, "more than one live panel"
    return sent_data(panels[0]) if panels else {}


def sent_data(element: object) -> object:
    """A panel element's data as the page sent it: one dict inside a list of one (a dict
    Streamlit would scan for data frames, importing pandas: ui.components.live_panel._sent)."""
    if not element.proto.json:
        return None
    sent = json.loads(element.proto.json)
    assert isinstance(sent, list) and len(sent) == 1 and isinstance(sent[0], dict), sent
    return sent[0]


def set_counts(at: AppTest, **counts: int) -> AppTest:
    """Set some of the four counts (``b=16``) and run: the page's own store of them
    (``ui.widgets.state``, session keys a to d), which the live panel's callback writes when a
    count is moved in the browser (AppTest cannot move the panel's inputs; the browser tests
    do, in tests/browser/test_page.py)."""
    for key, value in counts.items():
        assert key in "abcd", key
        at.session_state[key] = value
    return at.run()


def shown_counts(at: AppTest) -> dict[str, int]:
    """The four counts as the live panel shows them in its inputs (its payload), a to d."""
    spec = live_panel(at)["counts"]
    return dict(zip("abcd", spec["values"], strict=True))


def count_labels(at: AppTest) -> dict[str, str]:
    """The four counts' input labels as the live panel shows them (plain text), a to d."""
    return {item["key"]: item["label"] for item in live_panel(at)["counts"]["inputs"]}


def panel_metrics(at: AppTest) -> dict[str, str]:
    """The live panel's cards, label to value, as plain text (what the browser shows)."""
    return {card["label"]: card["value"] for card in live_panel(at).get("cards", [])}


def panel_captions(at: AppTest) -> list[str]:
    """The live panel's card captions, as plain text."""
    return [card["caption"] for card in live_panel(at).get("cards", [])]


def panel_texts(at: AppTest) -> list[str]:
    """The live panel's sentence under the table (the rates, then the discordant cases)."""
    summary = live_panel(at).get("summary")
    return [f"{summary['rates']} {summary['discordant']}"] if summary else []


def panel_table(at: AppTest) -> dict:
    """The live panel's 2 x 2 table: label, column and row heads, cells with their marks."""
    return live_panel(at)["table"]


def page_charts(at: AppTest) -> dict[str, dict]:
    """The charts the live panel's bundle draws beside the panel (the gates', the Decision's),
    by element key, as the page sent them: ``{"layout": ..., "label": ..., "datasets": ...}``."""
    charts = {}
    for element in at.get("bidi_component"):
        data = sent_data(element)
        if isinstance(data, dict) and data.get("kind") == "chart":
            charts[element.key] = data["chart"]
    return charts


def chart_specs(at: AppTest) -> list[dict]:
    """Every Vega-Lite chart of the page: the live panel's p-value chart and the charts its
    bundle draws (their layouts, as drawn), in page order, then each of Streamlit's charts."""
    chart = live_panel(at).get("chart")
    panel = [json.loads(chart["layout"])] if chart else []
    drawn = [json.loads(chart["layout"]) for chart in page_charts(at).values()]
    streamlit = [json.loads(element.proto.spec) for element in at.get("vega_lite_chart")]
    return panel + drawn + streamlit


def _inline(datasets: dict[str, pd.DataFrame]) -> dict[str, list[dict[str, object]]]:
    """The tables as Vega-Lite inline rows (JSON-safe: NaN becomes null)."""
    return {name: alt.utils.data.to_values(frame)["values"] for name, frame in datasets.items()}


def pvalue_chart(
    frame: pd.DataFrame,
    *,
    current_a: int,
    alpha: float,
    log_axis: bool = False,
    x_title: str = "a: cases both systems pass",
    title: str = "p-value as the both-pass count a changes",
) -> alt.LayerChart:
    """The p-value chart with its data inline: p against a for the three tests, rules at the
    current a and at alpha (`frame` from :func:`ui.calculator_charts.pvalue_sweep_frame`)."""
    datasets = pvalue_datasets(frame, current_a=current_a, alpha=alpha, log_axis=log_axis)
    # The binomial line is named after the frame's convention ("McNemar mid-p" or "Exact McNemar").
    convention = "mid-p" if "McNemar mid-p" in set(frame["test"]) else "doubling"
    layout = pvalue_layout(
        alpha=alpha, log_axis=log_axis, x_title=x_title, title=title, convention=convention
    )
    return layout.properties(datasets=_inline(datasets))


def false_alarm_chart(
    frame: pd.DataFrame, *, current_gates: int, alpha: float, rho: float = 0.0
) -> alt.LayerChart:
    """The gates chart with its data inline: the false-alarm rate against the number of gates,
    current m marked (`frame` from :func:`ui.calculator_charts.false_alarm_frame`)."""
    datasets = false_alarm_datasets(frame, current_gates=current_gates, alpha=alpha)
    layout = false_alarm_layout(alpha=alpha, rho=rho, log_x=gates_axis_is_log(frame))
    return layout.properties(datasets=_inline(datasets))
