"""The calculator page's k x k section: a grid of counts in, the k x k analysis out.

A fragment, so that a count typed in the grid reruns this section first (then the page once, for
the share link above to hold the new table); behind a toggle, so that nothing of it is computed
(or sent) while it is off. The counts live in one text bound to
the URL (key ``sq_counts``, see :mod:`ui.square_params`): each grid cell writes the whole table
back into it when it changes, and the grid is drawn from it on every run, so the URL, the text
field and the grid always hold the same table. This module draws the toggle; the section's body
is in :mod:`ui.widgets.square_grid`, imported when the section is first opened, so that the
default page does not load the k x k core (issue 37).
"""

from __future__ import annotations

import streamlit as st

from ui import square_words as sw
from ui.params import parse_param
from ui.square_params import SQUARE_DEFAULTS, square_query

__all__ = ["BIND", "current", "share_values", "square_section"]

BIND = "query-params"
#: What the share link held of this section at its last run (session state, not a widget).
_LINKED = "_sq_linked"


def current(key: str) -> str:
    """A text input's value: its state, or before it exists this session the URL's or the
    default (the widget itself is drawn by :mod:`ui.widgets.square_grid`, once the section is
    open)."""
    if key in st.session_state:
        return str(st.session_state[key])
    return str(st.query_params.get(key, SQUARE_DEFAULTS[key]))


def share_values() -> dict[str, object]:
    """The section's URL values for the share link: its widgets' state, or before they exist
    this session (the link is drawn above the section) the URL's checked values."""
    values: dict[str, object] = {}
    for key in SQUARE_DEFAULTS:
        if key in st.session_state:
            values[key] = st.session_state[key]
        elif key in st.query_params:
            try:
                values[key] = parse_param(key, st.query_params[key])
            except ValueError:
                continue
    return values


@st.fragment
def square_section() -> None:
    """The toggle and, while it is on, the grid, the names, the text and the analysis; then,
    when a key here changed what the share link holds, the page again.

    The share link is drawn above, in the calculator's own fragment, which a run of this one
    leaves as it was: a changed table or toggle reruns the page once, so that the link holds
    them (the next run finds them unchanged, and stops)."""
    _section()
    linked = square_query(share_values())
    before = st.session_state.get(_LINKED)
    st.session_state[_LINKED] = linked
    if before is not None and before != linked:
        st.rerun()


def _section() -> None:
    st.header(sw.SQUARE_HEADER)
    if not st.toggle(sw.SQUARE_TOGGLE, key="sq", bind=BIND):
        return
    # The grid and the analysis: imported once the section is first opened, so that the
    # default page does not load the k x k core (issue 37).
    from ui.widgets.square_grid import opened_section

    opened_section()
