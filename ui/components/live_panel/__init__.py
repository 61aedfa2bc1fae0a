"""The calculator page's live panel: the 2 x 2 table, the four result cards and the p-value
chart as one Streamlit custom component (v2), so that a key press re-sends and redraws one
element instead of about fifteen.

The panel draws the payload of :func:`ui.live_panel.panel_payload` and computes nothing. Its
JavaScript is built with npm from ``frontend/`` (``npm ci && npm run build``) into
``static/live_panel/live_panel.js``, which is committed and served by the app itself
(``server.enableStaticServing``): the page fetches nothing from another host. Only the short
loader in ``loader.js`` travels with each rerun.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

__all__ = ["BUNDLE", "KEY", "live_panel"]

#: The built bundle, relative to the folder of ``app.py`` (Streamlit's ``static/`` folder).
BUNDLE = Path("static") / "live_panel" / "live_panel.js"
#: The panel's element key (its container's class is ``st-key-live_panel``).
KEY = "live_panel"

_mount = st.components.v2.component(
    "mcnemar_live_panel",
    js=(Path(__file__).with_name("loader.js")).read_text(encoding="utf-8"),
    # Mounted in the page's own DOM (no shadow root): the page's tests, its accessibility
    # audit and its benchmark read the panel as they read any other element.
    isolate_styles=False,
)


def live_panel(payload: dict[str, object]) -> None:
    """Draw the live panel from `payload` (JSON-ready; see :func:`ui.live_panel.panel_payload`)."""
    _mount(key=KEY, data=payload, height="content")
