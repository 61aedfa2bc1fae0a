"""The calculator page's odds-ratio line and, when the interval and the test disagree, the
sentence that says why (words from :mod:`ui.odds_ratio_words`; the sentence from the core)."""

from __future__ import annotations

import streamlit as st

from calculator import Analysis
from calculator.report.words import reconciliation_of
from ui.odds_ratio_words import ODDS_RATIO_HELP, odds_ratio_label, odds_ratio_sentence
from ui.words import Wording, escape_markdown

__all__ = ["odds_ratio_section"]


def odds_ratio_section(wording: Wording, analysis: Analysis) -> None:
    """One line for the odds ratio b/c, then the reconciliation note when there is one."""
    shown = wording.escaped()
    st.markdown(
        f"**{odds_ratio_label(shown)}:** {odds_ratio_sentence(shown, analysis.odds_ratio)}",
        help=ODDS_RATIO_HELP,
    )
    if reconciliation_of(analysis) is not None:
        st.info(escape_markdown(reconciliation_of(analysis)), icon=":material/balance:")
