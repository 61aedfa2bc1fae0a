"""The calculator page's live panel: the four counts' inputs, the 2 x 2 table, the four result
cards and the p-value chart as one Streamlit custom component (v2), so that a count key reruns
and redraws one element instead of a page.

The panel draws the payload of :func:`ui.live_panel.panel_payload` and computes nothing; the
counts the user sets come back as its state ``counts`` (``{"values": [a, b, c, d], "origin":
..., "seq": ...}``, read by :func:`ui.widgets.state.take_panel_counts`). Its JavaScript is
built with npm from ``frontend/`` (``npm ci && npm run build``) into
``static/live_panel/live_panel.js``, which is committed and served by the app itself
(``server.enableStaticServing``): the page fetches nothing from another host. Only the short
loader in ``loader.js`` travels with each rerun.

The page's other charts on the calculator page (the gates', the Decision's) are drawn by the
same bundle (:func:`page_chart`), so that the page loads one Vega. The sections below the panel
follow it: :func:`follow_panel` draws an element (no box) that
reruns their fragment once the panel has drawn inputs other than theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

__all__ = ["BUNDLE", "FOLLOWER_KEY", "KEY", "follow_panel", "live_panel", "page_chart"]

#: The built bundle, relative to the folder of ``app.py`` (Streamlit's ``static/`` folder).
BUNDLE = Path("static") / "live_panel" / "live_panel.js"
#: The panel's element key (its container's class is ``st-key-live_panel``).
KEY = "live_panel"
#: The key of the element that makes the sections below the panel follow it.
FOLLOWER_KEY = "live_follower"

_mount = st.components.v2.component(
    "mcnemar_live_panel",
    js=(Path(__file__).with_name("loader.js")).read_text(encoding="utf-8"),
    # Mounted in the page's own DOM (no shadow root): the page's tests, its accessibility
    # audit and its benchmark read the panel as they read any other element.
    isolate_styles=False,
)

_follower = st.components.v2.component(
    "mcnemar_live_follower",
    js=(Path(__file__).with_name("follower.js")).read_text(encoding="utf-8"),
    isolate_styles=False,
)


def _sent(data: dict[str, object]) -> list[dict[str, object]]:
    """An element's data as Streamlit is to send it: inside a list of one, which the browser
    unwraps (``loader.js``, ``follower.js``). Streamlit looks for a data frame in each value of a
    dict it is given, and that look imports pandas (a quarter of a second of a server's first
    run), which nothing the calculator page draws needs; a list it sends as JSON as it is."""
    return [data]


def live_panel(payload: dict[str, object], on_counts: Callable[[], None]) -> None:
    """Draw the live panel from `payload` (JSON-ready; see :func:`ui.live_panel.panel_payload`);
    `on_counts` is called, before the run, when the user has changed a count."""
    _mount(key=KEY, data=_sent(payload), height="content", on_counts_change=on_counts)


def page_chart(key: str, payload: dict[str, object]) -> None:
    """Draw one of the page's other charts (`payload` from :func:`ui.live_panel.page_chart`)
    with the panel's bundle: the page then loads one Vega, the panel's, not Streamlit's too.
    The chart is one image named by its title and description (class ``lp-page-chart``)."""
    _mount(key=key, data=_sent(payload), height="content")


#: The number of the sections' runs, which the follower's data carries: it is drawn anew on
#: every run, and so knows that the run it asked for has come (follower.js).
_FOLLOWER_RUN = "_live_follower_run"


def follow_panel(inputs: str) -> None:
    """Rerun the fragment this is drawn in once the live panel has drawn other `inputs` than
    these (the string the panel's payload carries as ``"inputs"``): the panel's fragment reruns
    alone when a count moves, and the sections below it follow as soon as it is drawn. Drawn
    first in that fragment, so that its drawing tells the browser a run for `inputs` is under
    way."""
    run = st.session_state.get(_FOLLOWER_RUN, 0) + 1
    st.session_state[_FOLLOWER_RUN] = run
    _follower(
        key=FOLLOWER_KEY,
        data=_sent({"inputs": inputs, "run": run}),
        on_behind_change=_rerun_follows,
    )


def _rerun_follows() -> None:
    """The trigger's callback: nothing to do, the fragment's rerun is the point."""
