"""Child processes that can all be stopped: each in its own process group, ended as a group.

A replica or the balancer is started in a new session (so its own process group, and a Ctrl-C
in the terminal reaches only ``deploy.serve``, which then stops them in order). Stopping sends
SIGTERM to the whole group, waits, and sends SIGKILL to whatever of the group is left, so that
no grandchild survives its parent. On Linux each child is also told to receive SIGTERM if
``deploy.serve`` itself dies without cleaning up (``prctl(PR_SET_PDEATHSIG)``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def group_alive(pgid: int) -> bool:
    """Whether any process of the process group `pgid` still exists (zombies included)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - a member owned by someone else
        return True
    return True


@dataclass(eq=False)
class Child:
    """One started program: its name in messages, its process and its log file."""

    name: str
    process: subprocess.Popen
    log_path: Path
    command: tuple[str, ...] = ()
    cwd: Path | None = None
    restarts: int = 0
    started: float = 0.0
    #: Started again when it exits while serving (a replica), rather than ending the service.
    restart_on_exit: bool = False

    @classmethod
    def start(cls, name: str, command: Sequence[str], *, cwd: Path, log_path: Path) -> Child:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        child = cls(name, _spawn(command, cwd, log_path, "wb"), log_path, tuple(command), cwd)
        child.started = time.monotonic()
        return child

    def restart(self) -> None:
        """Start the same command again (after it exited), its output appended to its log."""
        self.process.wait()
        self.process = _spawn(self.command, self.cwd, self.log_path, "ab")
        self.restarts += 1
        self.started = time.monotonic()

    @property
    def pid(self) -> int:
        return self.process.pid

    def exited(self) -> int | None:
        """The exit code if the process has ended, else None."""
        return self.process.poll()

    def log_tail(self, characters: int = 2000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-characters:]
        except OSError:
            return ""


def _spawn(command: Sequence[str], cwd: Path | None, log_path: Path, mode: str) -> subprocess.Popen:
    with open(log_path, mode) as log:
        return subprocess.Popen(
            list(command),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 - only the caller's main thread runs
        )


def stop_all(children: Sequence[Child], grace: float = 10.0) -> None:
    """SIGTERM to every child's process group, then SIGKILL to what is left after `grace` s.

    The groups are signalled together, so stopping N replicas takes one grace period, not N.
    Every child is reaped before this returns.
    """
    for child in children:
        if group_alive(child.pid):
            os.killpg(child.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.process.wait(timeout=max(0.0, deadline - time.monotonic()))
    while time.monotonic() < deadline and any(group_alive(c.pid) for c in children):
        time.sleep(0.05)  # grandchildren that outlive their group's leader
    for child in children:
        if group_alive(child.pid):
            os.killpg(child.pid, signal.SIGKILL)
        child.process.wait()


def wait_for_health(url: str, child: Child, timeout: float) -> None:
    """Poll `url` until it answers ``ok``; raise RuntimeError if `child` exits or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (code := child.exited()) is not None:
            raise RuntimeError(
                f"{child.name} exited with code {code} before it was healthy "
                f"(log: {child.log_path}):\n{child.log_tail()}"
            )
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.read().strip() == b"ok":
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{child.name} did not answer ok on {url} within {timeout:.0f} s")
