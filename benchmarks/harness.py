"""Shared by the page benchmark and the screenshot script: start a Streamlit server on a free
loopback port, read its CPU time and memory from /proc, and launch Debian's Chromium.

Nothing here is timed itself; the callers time what they measure.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"

# Chromium's path and flags, the "page has rendered" condition and free_port are the browser
# tests' own (tests/browser/browser_setup.py), so the benchmark drives the page as the tests do.
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_setup import (  # noqa: E402
    APP_RENDERED,
    CHARTS,
    CHROMIUM,
    CHROMIUM_FLAGS,
    PANEL_CARD_KEYS,
    card_box,
    free_port,
)

__all__ = [
    "APP_RENDERED",
    "ARTIFACTS",
    "CHARTS",
    "CHROMIUM",
    "CHROMIUM_FLAGS",
    "PANEL_CARD_KEYS",
    "ROOT",
    "Server",
    "card_box",
    "free_port",
]

_CLOCK_TICKS = 100  # USER_HZ: the unit of utime and stime in /proc/<pid>/stat on Linux


@dataclass
class Server:
    """A `streamlit run` process on 127.0.0.1, its output kept in a log file."""

    script: Path
    cwd: Path
    log_path: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        command = [
            sys.executable, "-m", "streamlit", "run", str(self.script),
            "--server.headless", "true",
            "--server.address", "127.0.0.1",
            "--server.port", str(self.port),
            # No call to the internet from the page (the project's own config says the same).
            "--browser.gatherUsageStats", "false",
        ]  # fmt: skip
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command, cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT
            )

    def wait_healthy(self, timeout: float = 120.0) -> None:
        """Poll /_stcore/health until it answers "ok"; raise if the process dies or stalls."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"streamlit exited early:\n{self.log_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "_stcore/health", timeout=2) as reply:
                    if reply.read().strip() == b"ok":
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.02)
        raise RuntimeError(f"streamlit did not answer on {self.url} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process (all its threads) so far."""
        stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        # Fields after the ")" that closes the command name; utime and stime are the 14th and
        # 15th fields of the whole line.
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS

    def rss_bytes(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE).group(1)) * 1024

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def traceback_count(self) -> int:
        return self.log_text().count("Traceback (most recent call last)")
