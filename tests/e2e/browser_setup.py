"""Where the browser tests find Chromium, how they launch it, and what to say without it.

Playwright cannot download its own browser here, so the tests use Debian's Chromium at
`/usr/bin/chromium` (`apt-get install chromium`).
"""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


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
