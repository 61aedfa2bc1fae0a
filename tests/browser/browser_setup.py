"""Where the browser tests find Chromium, how they launch it, what to say without it, and when
the calculator page has rendered. The page benchmark and the screenshot script
(benchmarks/harness.py) use the same definitions.

Playwright cannot download its own browser here, so the tests use Debian's Chromium at
`/usr/bin/chromium` (`apt-get install chromium`).
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

#: Keys of the seven result cards the calculator page always draws (other sections may add more):
#: four in the live panel (one custom component, ui/components/live_panel), three for the gates
#: (Streamlit metrics).
PANEL_CARD_KEYS = ("difference", "chi2", "exact", "unpaired")
GATE_CARD_KEYS = ("false_alarm", "per_gate", "union")
CARD_KEYS = PANEL_CARD_KEYS + GATE_CARD_KEYS
_METRIC_PARTS = {
    "value": "[data-testid=stMetricValue]",
    "label": "[data-testid=stMetricLabel]",
    "caption": "[data-testid=stCaptionContainer]",
}


def card_box(key: str) -> str:
    """CSS selector of a result card (by its key, "exact", "false_alarm", ...) as a whole."""
    return f"[data-card=card_{key}]" if key in PANEL_CARD_KEYS else f".st-key-card_{key}"


def card_part(key: str, part: str = "value") -> str:
    """CSS selector of a result card's value, label or caption."""
    if key in PANEL_CARD_KEYS:
        return f"{card_box(key)} .lp-card-{part}"
    return f"{card_box(key)} {_METRIC_PARTS[part]}"


#: The calculator page's two charts, in page order: p against a (in the live panel, an image
#: named by its description) and the false-alarm rate against the gates (drawn by the panel's
#: bundle too, as is the Decision section's chart: DECISION_CHART). A selector's first match.
CHARTS = (".lp-chart", ".st-key-chart_gates .lp-page-chart")
DECISION_CHART = ".st-key-decision_chart .lp-page-chart"

#: Any page's script is idle: no rerun is running (wait for it after an input changes).
IDLE = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning';
}"""

#: The calculator page has fully rendered: the script is idle, each of the seven result cards
#: shows a value, and the table and both charts (with their lines drawn) are on it.
APP_RENDERED = (
    (
        """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning'
    && VALUES.every(selector => document.querySelector(selector) !== null)
    && document.querySelector('table[aria-label="Paired 2 by 2 table"]') !== null
    && CHARTS.every(selector => document.querySelector(selector + ' svg .mark-line path') !== null);
}"""
    )
    .replace("VALUES", repr([card_part(key) for key in CARD_KEYS]))
    .replace("CHARTS", repr(list(CHARTS)))
)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def unavailable_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM}: install it with `apt-get install chromium`"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests need Playwright: `pip install -r requirements-dev.txt`"
    return None


def must_run() -> bool:
    """Under CI=true a browser test must never skip: a missing browser is a failure."""
    return os.environ.get("CI") == "true"


def skip_module_unless_runnable() -> None:
    """Skip the calling test module, in one line, when the browser tests cannot run here.

    Under CI=true nothing is skipped: the fixtures then fail each test with the reason.
    """
    import pytest

    reason = unavailable_reason()
    if reason is not None and not must_run():
        pytest.skip(reason, allow_module_level=True)


try:  # for the test modules; None only where the tests are skipped or fail with the reason
    from playwright.sync_api import Page, expect
except ImportError:
    Page = expect = None
