"""Result sections of the calculator page: the live panel (the table, its cards and the
p-value chart, one element), the gates' chart and cards, the report with its downloads, the
share link and the explanations.

Each section is a function the page calls; the numbers come from the cached
``calculator.analyze`` (:mod:`ui.widgets.cache`), the words from :mod:`ui.words`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from types import ModuleType

import streamlit as st

from calculator import Analysis
from calculator.errors import CalculatorError
from calculator.report.square import unconditional_sentence
from calculator.unconditional import mcnemar_unconditional
from ui import words
from ui.components.live_panel import follow_panel, live_panel, page_chart
from ui.explanations import SECTIONS, Formula
from ui.live_panel import chart_layout, chart_payload, chart_rows, panel_payload
from ui.params import (
    DECISION_DEFAULTS,
    PARAM_KEYS,
    TEACHING_DEFAULTS,
    decision_query,
    share_markdown,
    share_query,
    teaching_query,
)
from ui.square_params import square_query
from ui.unconditional_words import UNCONDITIONAL_HELP, UNCONDITIONAL_TOGGLE
from ui.widgets import state
from ui.widgets.cache import false_alarm_spec
from ui.widgets.square import share_values as square_values
from ui.words import Card, Wording, escape_markdown

__all__ = [
    "REPORT_KEY",
    "REPORT_TOGGLE",
    "explanations",
    "gate_chart",
    "gate_results",
    "follow_live_results",
    "headline",
    "live_results",
    "report",
    "share_link",
    "show_error",
    "unconditional_test",
]

#: The toggle that draws the paste-ready report, and its session-state key.
REPORT_TOGGLE = "Show the paste-ready report (with a copy button)"
REPORT_KEY = "show_report"


def _cards(cards: Iterable[Card], columns: list) -> None:
    for column, card in zip(columns, cards, strict=True):
        with column, st.container(border=True, key=card.key):
            st.metric(card.label, card.value)
            st.caption(card.caption)


def headline(wording: Wording, analysis: Analysis) -> None:
    """The difference with its interval and the exact p in one line, for the top of the page
    (on a phone the inputs' column comes first, and the cards only after it)."""
    st.markdown(words.headline(wording, analysis))


def show_error(error: Exception) -> None:
    """An input the statistics core refused, as one line (no traceback)."""
    st.error(escape_markdown(str(error)), icon=":material/block:")


def live_results(
    wording: Wording,
    counts: tuple[int, int, int, int],
    options: dict[str, object],
    alpha: float,
    analysis: Analysis | None,
    *,
    present: bool = False,
    announce: bool = True,
) -> None:
    """The live panel: the four counts' inputs, the 2 x 2 table, the rates in words, the four
    test cards and the chart of p against the both-pass count a, as one element
    (:mod:`ui.components.live_panel`), with the log-axis toggle under it (`present` for the
    lecture-hall view). `announce`: whether the sections below are to follow once it is drawn
    (a run of the panel's fragment alone), or are drawn by this same run (a run of the whole
    page: the browser then asks nothing of them)."""
    note = state.loaded_note()
    if note is not None:
        st.info(escape_markdown(note), icon=":material/description:")
    slot = st.container()  # the panel above its toggle, which it reads first
    log_axis = st.toggle("Log p axis (log10 p)", key="logp", bind="query-params")
    chart = None
    if analysis is not None:
        chart = {
            **_chart_layout(
                alpha=alpha,
                log_axis=log_axis,
                x_title=wording.sweep_axis(),
                title=wording.sweep_title(),
                convention=options["convention"],
                large=present,
            ),
            "datasets": _chart_rows(
                *counts,
                convention=options["convention"],
                correction=options["correction"],
                alpha=alpha,
                log_axis=log_axis,
            ),
        }
    payload = panel_payload(
        wording, counts, analysis, chart, present=present, origin=state.counts_origin()
    )
    with slot:
        live_panel(
            {**payload, "inputs": _live_inputs(counts, log_axis), "announce": announce},
            on_counts=state.take_panel_counts,
        )


def follow_live_results(counts: tuple[int, int, int, int]) -> None:
    """Rerun the fragment this is called in once the live panel has drawn other counts (or the
    other log axis) than `counts` (:func:`ui.components.live_panel.follow_panel`)."""
    follow_panel(_live_inputs(counts, bool(st.session_state.get("logp", False))))


def _live_inputs(counts: tuple[int, int, int, int], log_axis: bool) -> str:
    """The inputs of the live panel's own fragment (the four counts and the log axis), as the
    panel tells the sections below that follow it."""
    return ",".join(str(value) for value in (*counts, log_axis))


# The chart's layout (Altair's to_dict costs about 0.1 s) and its rows, cached: one shared
# instance per input, never changed after (the component serialises them as they are).
_chart_layout = st.cache_resource(max_entries=16, show_spinner=False)(chart_layout)
_chart_rows = st.cache_resource(max_entries=256, show_spinner=False)(chart_rows)


def unconditional_test(counts: tuple[int, int, int, int]) -> None:
    """McNemar's exact unconditional test, computed only while its toggle is on (it costs up to
    a second or so on large tables, which the page's live part must not pay on every rerun)."""
    if st.toggle(UNCONDITIONAL_TOGGLE, key="unconditional", help=UNCONDITIONAL_HELP):
        st.markdown(escape_markdown(_unconditional_words(*counts)))


@st.cache_data(max_entries=64, show_spinner=False)
def _unconditional_words(a: int, b: int, c: int, d: int) -> str:
    """The test's sentence, or its refusal (a table beyond its bound on n), said by name."""
    try:
        return unconditional_sentence(mcnemar_unconditional(a, b, c, d))
    except CalculatorError as error:
        return str(error)


def gate_results(analysis: Analysis) -> None:
    """The false-alarm rate, the per-gate levels that hold it at alpha and the union bound."""
    _cards(words.gate_cards(analysis.gates), st.columns(3))


def gate_chart(gate_options: dict[str, object], *, large: bool = False) -> None:
    """The chart of the false-alarm rate against the number of gates (`large` for the
    presenting view), drawn with the live panel's Vega (one Vega on the page)."""
    page_chart("chart_gates", chart_payload(false_alarm_spec(**gate_options, large=large)))


def report(analysis: Analysis) -> None:
    """The downloads, and the paste-ready report when asked for, of `analysis` (on the
    calculator page, the analysis answering the Decision section's question and margin).

    The report is a code block (for its copy button), and the first code block on a page
    makes the browser download a syntax highlighter of about 1.5 MB, a third of the page's
    JavaScript: so it is drawn only once its toggle is on (not bound to the URL).
    """
    st.header("Report")
    if st.toggle(REPORT_TOGGLE, key=REPORT_KEY):
        st.code(_export().report_text(analysis), language=None, wrap_lines=True)
    with st.container(horizontal=True):
        # The files are made when a button is clicked, not on every rerun (the results turned
        # into a dict, JSON and CSV, and both stored for the session, on every key press).
        st.download_button(
            "Download results (JSON)",
            partial(_json_file, analysis),
            file_name="mcnemar-results.json",
            mime="application/json",
            key="download_json",
            on_click="ignore",
        )
        st.download_button(
            "Download results (CSV)",
            partial(_csv_file, analysis),
            file_name="mcnemar-results.csv",
            mime="text/csv",
            key="download_csv",
            on_click="ignore",
        )


def _json_file(analysis: Analysis) -> str:
    export = _export()
    return export.results_json(export.export_dict(analysis))


def _csv_file(analysis: Analysis) -> str:
    export = _export()
    return export.results_csv(export.export_dict(analysis))


def _export() -> ModuleType:
    """:mod:`ui.export`, imported when a report or a file is first asked for: it needs pandas,
    which the page's default view does not (a quarter of a second of a server's cold start)."""
    from ui import export

    return export


def share_link() -> None:
    """The link that reopens the page as it is: every input that differs from its default."""
    st.header("Share this state")
    query = share_query({key: state.current(key) for key in PARAM_KEYS})
    decision = decision_query(
        {key: st.session_state[key] for key in DECISION_DEFAULTS if key in st.session_state}
    )
    teaching = teaching_query(
        {key: st.session_state.get(key) for key in TEACHING_DEFAULTS},
        entered_a=int(state.current("a")),
    )
    square = square_query(square_values())  # the k x k section's, drawn below the link
    query = "&".join(part for part in (query, decision, teaching, square) if part)
    st.markdown(share_markdown(st.context.url or "", query))
    st.caption(
        "The link holds every input that differs from the defaults, and the teaching sections "
        "that are open; copy its address (right-click it, or press and hold on a phone)."
    )


def explanations() -> None:
    """The folded explanations: Markdown text and LaTeX formulas.

    Each section sends nothing until it is opened (the expander tracks its state and reruns
    the page when it opens), so a visitor who never opens one downloads no formula renderer
    and the page starts with fewer elements.
    """
    st.header("Explanations")
    for index, (title, parts) in enumerate(SECTIONS):
        section = st.expander(title, key=f"explain_{index}", on_change="rerun")
        with section:
            if not section.open:
                continue
            for part in parts:
                if isinstance(part, Formula):
                    st.latex(part.latex)
                else:
                    st.markdown(part)
