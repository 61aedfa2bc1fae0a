"""The calculator page's anytime-valid line, beside the fixed-n exact test: the anytime-valid p
and e-value in one line, then what it buys and what it costs, and the confidence sequence, in
the page's names and framing (words from :mod:`ui.anytime_words` and the report)."""

from __future__ import annotations

import streamlit as st

from calculator import Analysis
from calculator.anytime import AnytimeAnalysis, anytime_of
from calculator.chooser import Ask
from calculator.report.words import text
from ui.anytime_words import ANYTIME_HELP, ANYTIME_LABEL, anytime_line
from ui.words import escape_markdown

__all__ = ["anytime_section", "page_anytime"]


def anytime_section(analysis: Analysis, asked: Ask | None = None) -> None:
    """One line of figures with its help, then the report's sentences as a caption; for the
    direction of the question the Decision section asks (`asked`; two-sided with a margin), as
    the command line's ``table --alternative`` gives it."""
    side = "two-sided" if asked is None or asked.margin is not None else asked.side
    result = page_anytime(analysis, side)
    st.markdown(
        f"**{ANYTIME_LABEL}:** {escape_markdown(anytime_line(result))}",
        help=ANYTIME_HELP,
    )
    st.caption(escape_markdown(text(result)))


def page_anytime(analysis: Analysis, alternative: str = "two-sided") -> AnytimeAnalysis:
    """The page's anytime-valid test: the command line's (:func:`calculator.anytime.anytime_of`)
    for the analysis' table, direction, level, names and framing, cached across reruns."""
    decision = analysis.decision
    return _cached(
        analysis.table.b,
        analysis.table.c,
        analysis.table.n,
        alternative,
        decision.margin,
        decision.alpha,
        analysis.names,
        analysis.framing,
        analysis,
    )


@st.cache_data(max_entries=64, show_spinner=False)
def _cached(
    b: int,
    c: int,
    n: int,
    alternative: str,
    margin: float | None,
    alpha: float,
    names: tuple[str, str],
    framing: str,
    _analysis: Analysis,
) -> AnytimeAnalysis:
    # The key is what anytime_of reads; the analysis itself (underscored) is not hashed.
    return anytime_of(_analysis, alternative=alternative)
