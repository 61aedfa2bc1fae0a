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

#: Keys of the seven result cards the calculator page always draws (other sections may add more).
CARD_KEYS = (
    "difference", "chi2", "exact", "unpaired", "false_alarm", "per_gate", "union",
)  # fmt: skip

#: Any page's script is idle: no rerun is running (wait for it after an input changes).
IDLE = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning';
}"""

#: The calculator page has fully rendered: the script is idle, each of the seven result cards
#: (by its key) shows a value, and the table and both charts (with their lines drawn) are on it.
APP_RENDERED = (
    """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning'
    && KEYS.every(key => document.querySelector(
         '.st-key-card_' + key + ' [data-testid=stMetricValue]') !== null)
    && document.querySelector('table[aria-label="Paired 2 by 2 table"]') !== null
    && Array.from(document.querySelectorAll('[data-testid=stVegaLiteChart]'))
         .filter(chart => chart.querySelector('svg .mark-line path') !== null).length >= 2;
}"""
).replace("KEYS", repr(list(CARD_KEYS)))


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
