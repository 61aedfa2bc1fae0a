"""Fixtures of the browser tests: the app served by `streamlit run` on a free loopback port, and
Debian's Chromium driven by Playwright.

Playwright cannot download its own browser here, so the tests launch `/usr/bin/chromium`
(`apt-get install chromium`). Without it they skip with one line saying so, except under
`CI=true`, where a missing browser fails every one of them: CI must never pass by skipping.
(The test modules skip as a whole, so the reason is printed once; these fixtures repeat the check
for any test that reaches them.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from browser_setup import CHROMIUM, CHROMIUM_FLAGS, free_port, must_run, unavailable_reason

ROOT = Path(__file__).resolve().parents[2]
#: Screenshots and the server log; `artifacts/` is git-ignored.
ARTIFACTS = ROOT / "artifacts" / "e2e"
DESKTOP = {"width": 1400, "height": 900}
HEALTH_TIMEOUT_S = 90
STEP_TIMEOUT_MS = 30_000


def _require_browser() -> None:
    reason = unavailable_reason()
    if reason is None:
        return
    if must_run():
        pytest.fail(f"{reason} (CI=true: browser tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


@dataclass
class AppServer:
    """The running app: its base URL and its log (stdout and stderr together)."""

    url: str
    log_path: Path
    pid: int

    def log_size(self) -> int:
        return self.log_path.stat().st_size

    def log_since(self, offset: int) -> str:
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    os.kill(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()


@pytest.fixture(scope="session")
def app_server() -> Iterator[AppServer]:
    """`streamlit run app.py --server.headless true` on a free port, healthy before use."""
    _require_browser()
    port = free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log_path = ARTIFACTS / "server.log"
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + HEALTH_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"streamlit exited early:\n{log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=2) as reply:
                    if reply.read().strip() == b"ok":
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"no answer on {url}_stcore/health in {HEALTH_TIMEOUT_S} s")
            time.sleep(0.1)  # polling interval of the health check, not a wait for the page
        yield AppServer(url=url, log_path=log_path, pid=process.pid)
    finally:
        _stop(process)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium. Playwright gives each launch a fresh temporary user-data dir."""
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_FLAGS)
        )
        yield chromium
        chromium.close()


@dataclass
class PageWatch:
    """What went wrong in the page or the server while a test ran."""

    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    connection_errors: list[str] = field(default_factory=list)


#: What Streamlit's page writes to the console when it gives up on its connection to the server
#: (the page then shows a connection error and answers no more input).
CONNECTION_LOST = ("Websocket connection encountered fatal error", "Cached ForwardMsg MISS")


@pytest.fixture
def new_page(browser, app_server: AppServer) -> Iterator[object]:
    """Factory of pages, each in its own browser context (its own Streamlit session).

    After the test: no uncaught script error, no dialog (a script injected through the URL
    would open one), no connection given up by the page and no traceback in the server log.
    """
    watch = PageWatch()
    contexts = []
    log_offset = app_server.log_size()

    def make(viewport: dict[str, int] = DESKTOP) -> object:
        context = browser.new_context(viewport=viewport, accept_downloads=True)
        context.set_default_timeout(STEP_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: watch.page_errors.append(str(error)))

        def on_console(message) -> None:
            if any(sign in message.text for sign in CONNECTION_LOST):
                watch.connection_errors.append(message.text)

        page.on("console", on_console)

        def on_dialog(dialog) -> None:
            watch.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not watch.page_errors, f"uncaught errors in the page: {watch.page_errors}"
    assert not watch.dialogs, f"the page opened dialogs: {watch.dialogs}"
    assert not watch.connection_errors, f"the page lost its server: {watch.connection_errors}"
    server_output = app_server.log_since(log_offset)
    assert "Traceback" not in server_output, f"server traceback:\n{server_output[-3000:]}"
