"""The body of the calculator page's k x k section, once its toggle is on (:mod:`ui.widgets.square`
draws the toggle): the number of categories, the names, the grid of counts, the counts as text
and the analysis.
"""

from __future__ import annotations

import streamlit as st

from calculator.errors import CalculatorError
from calculator.report.square import square_report
from calculator.square import MAX_CATEGORIES, SquareAnalysis, analyze_square
from calculator.square.table import parse_counts
from ui import square_words as sw
from ui.params import COUNT_MAX
from ui.square_params import SQUARE_DEFAULTS, counts_text, resized
from ui.widgets.square import BIND, current
from ui.words import escape_markdown

__all__ = ["opened_section"]

#: The number of categories' field (not bound to the URL: the counts' text says it).
_K = "sq_k"


def _cell_key(i: int, j: int) -> str:
    return f"sq_{i}_{j}"


@st.cache_data(max_entries=64, show_spinner=False)
def _analysis(counts: tuple[tuple[int, ...], ...], names: tuple[str, ...] | None, ordered: bool):
    return analyze_square([list(row) for row in counts], names, ordered=ordered)


def _rows() -> list[list[object]] | None:
    """The counts text as rows, or None when it cannot be read (its refusal shown)."""
    try:
        return parse_counts(current("sq_counts"), "counts")
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
        rows = parse_counts(current("sq_counts"), "counts")
    except CalculatorError:
        rows = []
    st.session_state["sq_counts"] = counts_text(resized(rows, k))
    names = _names()
    if names is not None:
        kept = [name for name in names if name][:k]
        st.session_state["sq_names"] = ", ".join(kept + [str(i + 1) for i in range(len(kept), k)])


def _names() -> tuple[str, ...] | None:
    """The names typed, or None when the field is empty (the categories are numbered)."""
    text = current("sq_names").strip()
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


def opened_section() -> None:
    """Everything below the toggle, while it is on."""
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
