"""Session state of the calculator page: URL checking, the four counts, loading tables.

The inputs drawn by Streamlit (the gates' number field, the names, the options) are bound to the
URL with ``bind="query-params"``, so their session-state keys are the URL keys of the page
contract; the gates' number field has a companion slider (key ``gates_slider``, not bound),
re-synchronised from the field on every run.

The four counts (session keys ``a``, ``b``, ``c``, ``d``, the URL's) are drawn by the live
panel itself (:mod:`ui.components.live_panel`), not by Streamlit widgets: this module holds
them. They are set by the page (the URL on the first run, a worked example, a table opened from
data), each time with a new origin (:data:`ORIGIN_KEY`) that the panel adopts, or by the user
through the panel's state (:func:`take_panel_counts`), and written back to the URL
(:func:`counts_to_url`).
"""

from __future__ import annotations

import streamlit as st

from calculator.analysis import MAX_NAME_LENGTH
from calculator.table import check_count
from calculator.text import clip
from ui.components.live_panel import KEY as PANEL_KEY
from ui.examples import WorkedExample
from ui.params import COUNT_KEYS, COUNT_MAX, DEFAULTS, check_query, parse_param
from ui.words import clean_name, example_note, from_data_note

__all__ = [
    "CALCULATOR_PAGE",
    "ORIGIN_KEY",
    "calculator_name",
    "check_url",
    "counts_origin",
    "counts_to_url",
    "current",
    "current_counts",
    "init_counts",
    "load_example",
    "load_table",
    "loaded_note",
    "open_table_in_calculator",
    "slider_key",
    "sync_from_slider",
    "take_panel_counts",
]

#: Path of the calculator page, for ``st.switch_page``.
CALCULATOR_PAGE = "app_pages/calculator.py"

_WARNINGS_KEY = "_calculator_url_warnings"
_LOADED_KEY = "_calculator_loaded"
#: Changes each time the page sets the counts itself; the live panel then shows the page's.
ORIGIN_KEY = "_calculator_counts_origin"


def slider_key(key: str) -> str:
    return f"{key}_slider"


def current(key: str) -> object:
    """The value of a page input: its session-state value, or its default before it exists."""
    return st.session_state.get(key, DEFAULTS[key])


def sync_from_slider(key: str) -> None:
    """Slider callback: copy the slider's value into its number field (and so the URL)."""
    st.session_state[key] = st.session_state[slider_key(key)]


def check_url() -> list[str]:
    """Drop unusable URL parameters before the widgets read them; return warnings to show.

    Streamlit seeds bound widgets from the URL on the first run; a value it cannot use is
    silently replaced by the default (and ``?a=inf`` on an integer field raises). So every
    rejected parameter is removed from the URL and the script reruns once, the widgets then
    start from their defaults, and the warnings are shown on the run that follows.
    """
    check = check_query(st.query_params.to_dict())
    if check.rejected:
        removed = False
        for key in check.rejected:
            # A widget of this session already bound to the key owns it (Streamlit refuses to
            # delete it) and validates it itself; the counts (a to d, no widget's) are read
            # from the URL on the session's first run only (init_counts), before they exist.
            if key in st.session_state or key not in st.query_params:
                continue
            del st.query_params[key]
            removed = True
        if removed:
            st.session_state[_WARNINGS_KEY] = list(check.warnings)
            st.rerun()
    return st.session_state.pop(_WARNINGS_KEY, [])


def _set_counts(a: int, b: int, c: int, d: int, note: str) -> None:
    counts = tuple(
        check_count(value, name) for value, name in zip((a, b, c, d), COUNT_KEYS, strict=True)
    )
    for name, value in zip(COUNT_KEYS, counts, strict=True):
        if value > COUNT_MAX:
            raise ValueError(f"`{name}` must be at most {COUNT_MAX:,}, but got {value:,}.")
    _put_counts(counts)
    st.session_state[_LOADED_KEY] = (note, counts)


def _put_counts(counts: tuple[int, ...]) -> None:
    """Set the counts as the page's own (a new origin: the panel shows them)."""
    for name, value in zip(COUNT_KEYS, counts, strict=True):
        st.session_state[name] = value
    st.session_state[ORIGIN_KEY] = counts_origin() + 1


def counts_origin() -> int:
    """How many times the page has set the counts itself in this session."""
    return int(st.session_state.get(ORIGIN_KEY, 0))


def init_counts() -> None:
    """On the session's first run, the counts from the URL (``check_url`` has removed unusable
    ones), else the defaults."""
    if all(key in st.session_state for key in COUNT_KEYS):
        return
    counts = []
    for key in COUNT_KEYS:
        raw = st.query_params.get(key)
        counts.append(DEFAULTS[key] if raw is None else parse_param(key, raw))
    _put_counts(tuple(counts))


def current_counts() -> tuple[int, int, int, int]:
    """The four counts (a, b, c, d) as the session holds them."""
    a, b, c, d = (int(st.session_state.get(key, DEFAULTS[key])) for key in COUNT_KEYS)
    return a, b, c, d


def take_panel_counts() -> None:
    """The live panel's callback: take the counts the user set there.

    A change made on counts the page has since replaced (an example loaded while a key was on
    its way) is dropped: the page's counts stand, and the panel shows them. So is a state that
    is not four whole numbers from 0 to the page's maximum (the panel sends no other; this is
    a message from elsewhere).
    """
    edit = st.session_state[PANEL_KEY].get("counts")
    if not isinstance(edit, dict) or edit.get("origin") != counts_origin():
        return
    values = edit.get("values")
    if not isinstance(values, list) or len(values) != len(COUNT_KEYS):
        return
    if not all(type(value) is int and 0 <= value <= COUNT_MAX for value in values):
        return
    for name, value in zip(COUNT_KEYS, values, strict=True):
        st.session_state[name] = value


def counts_to_url(counts: tuple[int, int, int, int]) -> None:
    """Write the counts into the address bar as the bound inputs write theirs: a count at its
    default is left out."""
    for key, value in zip(COUNT_KEYS, counts, strict=True):
        if value == DEFAULTS[key]:
            if key in st.query_params:
                del st.query_params[key]
        elif st.query_params.get(key) != str(value):
            st.query_params[key] = str(value)


def load_table(a: int, b: int, c: int, d: int, *, source: str) -> None:
    """Put a table into the calculator page's state, noted as coming from `source`.

    Call it, then ``st.switch_page(CALCULATOR_PAGE)``: the calculator shows the table with a
    "From data: <source>" note, which disappears once the user moves a count.

    Raises
    ------
    TypeError, ValueError
        If a count is not a whole number from 0 to 10^9.
    """
    _set_counts(a, b, c, d, from_data_note(source))


def calculator_name(name: str, default: str) -> str:
    """A system's name as the calculator's name field can hold it: on one line, at most
    ``MAX_NAME_LENGTH`` characters (an ellipsis marking a cut), `default` when empty.

    Examples
    --------
    >>> calculator_name("  tuned\\n v2 ", "A"), len(calculator_name("x" * 99, "B"))
    ('tuned v2', 60)
    """
    return clip(clean_name(name, default), MAX_NAME_LENGTH)


def open_table_in_calculator(
    a: int, b: int, c: int, d: int, *, names: tuple[str, str], source: str
) -> None:
    """Load a table (as :func:`load_table`) with its systems' names, and switch to the
    calculator page with both.

    The names are set with the counts: a table opened under the names typed before would
    read its difference with the direction of other systems. Counts and names go into the
    new page's URL too: Streamlit writes a session-state value into the URL only for a widget
    that existed in the previous run, which is not so right after a page switch, and without
    them the address bar would show the default table.
    """
    load_table(a, b, c, d, source=source)
    st.session_state["name_a"] = calculator_name(names[0], "A")
    st.session_state["name_b"] = calculator_name(names[1], "B")
    keys = (*COUNT_KEYS, "name_a", "name_b")
    st.switch_page(CALCULATOR_PAGE, query_params={key: str(st.session_state[key]) for key in keys})


def load_example(example: WorkedExample) -> None:
    """Button callback: load a worked example's counts and framing, and reset every option that
    changes its numbers (continuity correction, convention, level, interval method), so that
    the figure the example promises is the figure shown."""
    _set_counts(*example.table, example_note(example.title, example.source, example.note))
    st.session_state["framing"] = example.framing
    st.session_state["cc"] = example.cc
    for key in ("conv", "level", "ci"):
        st.session_state[key] = DEFAULTS[key]


def loaded_note() -> str | None:
    """The note of the last loaded table while the counts still equal it, else None."""
    loaded = st.session_state.get(_LOADED_KEY)
    if loaded is None:
        return None
    note, counts = loaded
    if tuple(current(key) for key in COUNT_KEYS) != counts:
        del st.session_state[_LOADED_KEY]
        return None
    return note
