"""The calculator page's teaching sections: the null distribution, the tests' real error rates,
what pairing buys, and questions for a class.

Each section sits behind a toggle bound to the URL (``t_null``, ``t_oc``, ``t_pair``,
``t_quiz``) and stays closed unless opened: while closed it computes nothing and sends no chart,
so the page's keypress latency does not change. Their bodies are in
:mod:`ui.widgets.teaching_bodies`, imported when one is first opened: the default page, all
closed, loads neither the core's teaching module nor its charts (issue 37). ``?present=true``
is the presenting view: no explanations, worked examples or option panels, bigger numbers and
charts, everything still live.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

import streamlit as st

from ui import teaching_words as words

if TYPE_CHECKING:
    from calculator import Decision
    from ui.words import Wording

__all__ = [
    "BIND",
    "PRESENT_KEY",
    "SECTION_KEYS",
    "presentation_style",
    "presenting",
    "teaching_sections",
]

BIND = "query-params"
#: URL key of the presenting view.
PRESENT_KEY = "present"
#: URL keys of the section toggles, with their labels.
SECTION_KEYS = {
    "t_null": words.NULL_TITLE,
    "t_oc": words.OC_TITLE,
    "t_pair": words.PAIR_TITLE,
    "t_quiz": words.QUESTIONS_TITLE,
}

# The presenting view, for a lecture hall: the options (names and framing, test options, the
# gates' inputs, the release question) are hidden, their values still in force from the URL;
# captions and folded panels (explanations) are hidden, and the sidebar, to give the page the
# projector's width; text, tables and inputs are zoomed and the numbers more. Charts are
# drawn at their own size (Vega measures its container unzoomed, so a zoomed chart overflows);
# the teaching charts enlarge their own type.
_PRESENT_CSS = """
<style>
[data-testid="stExpander"], [data-testid="stCaptionContainer"],
.st-key-names_framing, .st-key-gate_options,
.st-key-question, .st-key-margin { display: none; }
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"] { display: none; }
[data-testid="stMainBlockContainer"] { zoom: 1.25; max-width: 100%; }
[data-testid="stVegaLiteChart"], .lp-page-chart { zoom: 0.8; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] * { font-size: 2.6rem; }
[data-testid="stMetricLabel"] p { white-space: normal; }
</style>
"""


def presenting() -> bool:
    """Whether the page is in the presenting view (``?present=true``)."""
    return str(st.query_params.get(PRESENT_KEY, "")).lower() == "true"


def presentation_style(present: bool) -> None:
    """Enlarge the page's numbers and text in the presenting view; nothing otherwise."""
    if present:
        st.html(_PRESENT_CSS)


def teaching_sections(
    wording: Wording,
    counts: tuple[int, int, int, int],
    options: dict[str, object],
    alpha: float,
    asked: Decision | None = None,
) -> None:
    """The four folded teaching sections, following the entered table, names and options; the
    null section tests in the direction the Decision's question `asked` tests (one-sided for
    "better" and "worse", else two-sided), so the two never disagree unsaid."""
    if asked is not None and asked.question in ("better", "worse"):
        options = {**options, "alternative": asked.alternative}
    large = presenting()
    st.subheader("Teaching")
    if _opened("t_null"):
        _sections().null_section(wording, counts, options, alpha, large)
    if _opened("t_oc"):
        _sections().operating_section(counts, options, alpha, large)
    if _opened("t_pair"):
        _sections().pairing_section(wording, counts, options, alpha, large)
    if _opened("t_quiz"):
        _sections().questions()


def _opened(key: str) -> bool:
    return st.toggle(SECTION_KEYS[key], key=key, bind=BIND)


def _sections() -> ModuleType:
    """The sections' bodies, imported the first time one is open."""
    from ui.widgets import teaching_bodies

    return teaching_bodies
