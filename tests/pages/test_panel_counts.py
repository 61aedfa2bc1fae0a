"""The page's side of the counts the live panel sends (``ui.widgets.state``): what the panel's
callback takes, what it drops, and the origin that tells the page's own counts from the user's.

The browser tests move the counts in the real panel (tests/browser/test_live_counts.py); here
a small script runs the callback itself on a state as the panel would send it, including states
the panel never sends (a message from elsewhere), which must leave the counts as they were.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

TIMEOUT = 30


def _script() -> None:
    import streamlit as st

    from ui.components.live_panel import KEY
    from ui.widgets import state

    state.init_counts()
    sent = st.session_state.get("_sent")
    if sent is not None:
        st.session_state[KEY] = {"counts": sent}  # the panel's state, as Streamlit holds it
        state.take_panel_counts()
        del st.session_state["_sent"]
    st.write(repr((state.current_counts(), state.counts_origin())))


def run(at: AppTest, sent: object = None) -> tuple[tuple[int, int, int, int], int]:
    if sent is not None:
        at.session_state["_sent"] = sent
    at.run()
    assert not at.exception
    counts, origin = eval(at.markdown[-1].value)  # noqa: S307 - the script's own repr
    return counts, origin


def new_app(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_function(_script, default_timeout=TIMEOUT)
    at.query_params.update(query or {})
    return at


def test_the_first_run_takes_the_urls_counts_as_the_pages_own() -> None:
    at = new_app({"b": "40"})
    assert run(at) == ((60, 40, 5, 20), 1)  # origin 1: the page set them once


def test_a_change_made_on_the_current_counts_is_taken() -> None:
    at = new_app()
    run(at)
    counts, origin = run(at, {"values": [60, 16, 5, 20], "origin": 1, "seq": 1})
    assert (counts, origin) == ((60, 16, 5, 20), 1)  # the user's: the origin stays


def test_a_change_made_before_the_page_set_the_counts_is_dropped() -> None:
    """A key on its way while a worked example loads: made on origin 1, arriving after the
    page set origin 2; the page's counts stand."""
    at = new_app()
    run(at)
    at.session_state["a"] = 70  # as state.load_example does (its _put_counts)
    at.session_state["_calculator_counts_origin"] = 2
    run(at)
    counts, _ = run(at, {"values": [60, 99, 5, 20], "origin": 1, "seq": 7})
    assert counts == (70, 15, 5, 20)


@pytest.mark.parametrize(
    "sent",
    [
        {"values": [60, True, 5, 20], "origin": 1, "seq": 1},  # a boolean is not a count
        {"values": [60, 16.0, 5, 20], "origin": 1, "seq": 1},
        {"values": [60, -1, 5, 20], "origin": 1, "seq": 1},
        {"values": [60, 10**9 + 1, 5, 20], "origin": 1, "seq": 1},
        {"values": [60, 16, 5], "origin": 1, "seq": 1},
        {"values": "60,16,5,20", "origin": 1, "seq": 1},
        {"origin": 1, "seq": 1},
        "16",
        [60, 16, 5, 20],
    ],
)
def test_a_state_the_panel_never_sends_leaves_the_counts_as_they_were(sent: object) -> None:
    at = new_app()
    run(at)
    assert run(at, sent) == ((60, 15, 5, 20), 1)
