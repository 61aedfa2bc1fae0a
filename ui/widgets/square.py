"""The calculator page's k x k section: a grid of counts in, the k x k analysis out.

A fragment, so that a count typed in the grid reruns this section first (then the page once, for
the share link above to hold the new table); behind a toggle, so that nothing of it is computed
(or sent) while it is off. The counts live in one text bound to
the URL (key ``sq_counts``, see :mod:`ui.square_params`): each grid cell writes the whole table
back into it when it changes, and the grid is drawn from it on every run, so the URL, the text
field and the grid always hold the same table.
"""

from __future__ import annotations

import streamlit as st

from calculator.errors import CalculatorError
from calculator.report.square import square_report
from calculator.square import MAX_CATEGORIES, SquareAnalysis, analyze_square
from calculator.square.table import parse_counts
from ui import square_words as sw
from ui.params import COUNT_MAX, parse_param
from ui.square_params import SQUARE_DEFAULTS, counts_text, resized, square_query
from ui.words import escape_markdown

__all__ = ["share_values", "square_section"]

BIND = "query-params"
_K = "sq_k"
#: What the share link held of this section at its last run (session state, not a widget).
_LINKED = "_sq_linked"


def _cell_key(i: int, j: int) -> str:
    return f"sq_{i}_{j}"


@st.cache_data(max_entries=64, show_spinner=False)
def _analysis(counts: tuple[tuple[int, ...], ...], names: tuple[str, ...] | None, ordered: bool):
    return analyze_square([list(row) for row in counts], names, ordered=ordered)


def _current(key: str) -> str:
    """A text input's value: its state, or before it exists this session the URL's or the
    default (the widget itself is created further down)."""
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


def _rows() -> list[list[object]] | None:
    """The counts text as rows, or None when it cannot be read (its refusal shown)."""
    try:
        return parse_counts(_current("sq_counts"), "counts")
    except CalculatorError as error:
        st.error(escape_markdown(str(error)), icon=":material/block:")
        return None


def _grid_changed(k: int) -> None:
    """A cell changed: write the whole grid back into the counts text (and so the URL)."""
    rows = [[int(st.session_state.get(_cell_key(i, j)) or 0) for j in range(k)] for i in range(k)]
    st.session_state["sq_counts"] = counts_text(rows)


def _k_changed() -> None:
    """The number of categories changed: the table cut or padded with zeros, names likewise."""
    k = int(st.session_state[_K])
    try:
        rows = parse_counts(_current("sq_counts"), "counts")
    except CalculatorError:
        rows = []
    st.session_state["sq_counts"] = counts_text(resized(rows, k))
    names = _names()
    if names is not None:
        kept = [name for name in names if name][:k]
        st.session_state["sq_names"] = ", ".join(kept + [str(i + 1) for i in range(len(kept), k)])


def _names() -> tuple[str, ...] | None:
    """The names typed, or None when the field is empty (the categories are numbered)."""
    text = _current("sq_names").strip()
    return None if not text else tuple(name.strip() for name in text.split(","))


def _grid(rows: list[list[object]], names: list[str]) -> None:
    """The k x k number fields, a row per A's category, headed by B's categories."""
    k = len(rows)
    shown = [escape_markdown(name) for name in names]
    header = st.columns(k + 1)
    header[0].markdown("**A ↓ B →**")
    for j, name in enumerate(shown):
        header[j + 1].markdown(f"**{name}**")
    for i, row in enumerate(rows):
        cols = st.columns(k + 1, vertical_alignment="center")
        cols[0].markdown(f"**{shown[i]}**")
        for j, value in enumerate(row):
            key = _cell_key(i, j)
            number = value if isinstance(value, int) and 0 <= value <= COUNT_MAX else 0
            if st.session_state.get(key) != number:
                st.session_state[key] = number
            cols[j + 1].number_input(
                sw.cell_label(shown[i], shown[j]),
                min_value=0,
                max_value=COUNT_MAX,
                step=1,
                key=key,
                on_change=_grid_changed,
                args=(k,),
                label_visibility="collapsed",
            )


def _results(result: SquareAnalysis) -> None:
    lines = square_report(result).splitlines()
    body = [line for line in lines if not line.startswith("  ")]
    categories = [line.strip() for line in lines if line.startswith("  ")]
    with st.container(key="sq_results"):
        for line in body:
            st.markdown(escape_markdown(line))
        st.markdown("\n".join(f"- {escape_markdown(line)}" for line in categories))


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
    st.markdown(sw.SQUARE_INTRO)
    rows = _rows()
    k = len(rows) if rows else 0
    square = 2 <= k <= MAX_CATEGORIES and all(len(row) == k for row in rows)
    if square:
        st.session_state[_K] = k
    st.number_input(
        sw.K_LABEL, min_value=2, max_value=MAX_CATEGORIES, step=1, key=_K, on_change=_k_changed
    )
    st.text_input(
        sw.NAMES_LABEL,
        value=str(SQUARE_DEFAULTS["sq_names"]),
        key="sq_names",
        bind=BIND,
        placeholder=sw.NAMES_PLACEHOLDER,
        help=sw.NAMES_HELP,
    )
    ordered = st.toggle(sw.ORDERED_LABEL, key="sq_ord", bind=BIND, help=sw.ORDERED_HELP)
    names = _names()
    if square:
        st.caption(sw.GRID_CAPTION)
        labels = list(names) if names is not None and len(names) == k else None
        _grid(rows, labels or [str(i + 1) for i in range(k)])
    st.text_input(
        sw.COUNTS_LABEL,
        value=str(SQUARE_DEFAULTS["sq_counts"]),
        key="sq_counts",
        bind=BIND,
        help=sw.COUNTS_HELP,
    )
    if rows is None:
        return
    try:
        result = _analysis(tuple(map(tuple, rows)), names, ordered)
    except CalculatorError as error:
        st.error(escape_markdown(str(error)), icon=":material/block:")
        return
    _results(result)
