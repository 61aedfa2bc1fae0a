"""``python -m deploy.serve`` as a child of a test or a benchmark: start it, wait, stop it.

    with launched(replicas=2) as served:
        urllib.request.urlopen(served.url)

`Launched` reads the command's own lines (the pid of every replica and of the balancer, then
"serving ..."), so that a caller can check, after stopping it, that none of the processes it
started, nor any process of their groups, is left.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from deploy.haproxy import ROOT
from deploy.processes import group_alive

START_TIMEOUT_S = 300.0  # two cold replicas on a busy 2-core machine, then the balancer
STOP_TIMEOUT_S = 60.0
_PID = re.compile(r"\(pid (\d+)")


class LaunchFailed(RuntimeError):
    """``deploy.serve`` ended or stalled before serving; `served` holds what it printed."""

    def __init__(self, message: str, served: Launched) -> None:
        super().__init__(message)
        self.served = served


@dataclass(eq=False)
class Launched:
    """A running ``deploy.serve``: its address, its process and the lines it printed."""

    url: str
    process: subprocess.Popen
    lines: list[str] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)
    reader: threading.Thread | None = None

    def child_pids(self) -> list[int]:
        """The replicas' and the balancer's pids, as the command printed them."""
        return [int(m.group(1)) for line in list(self.lines) if (m := _PID.search(line))]

    def output(self) -> str:
        return "\n".join(self.lines)

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("serving "):
                self.ready.set()
        self.ready.set()  # the command ended: whoever waits must look at why

    def stop(self, sig: int = signal.SIGTERM, timeout: float = STOP_TIMEOUT_S) -> int:
        """Send `sig` to the command (as Ctrl-C or a service manager would); its exit code,
        once every line it printed has been read."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            raise
        if self.reader is not None:
            self.reader.join(timeout)
        return code

    def left_running(self) -> list[int]:
        """The command's own group and its children's groups that still have a process."""
        return [pid for pid in [self.process.pid, *self.child_pids()] if group_alive(pid)]


def launch(replicas: int, port: int, *extra: str, timeout: float = START_TIMEOUT_S) -> Launched:
    """Start ``python -m deploy.serve`` and wait until it says it is serving.

    Raises LaunchFailed (with the command's output) if it ends or stalls first, after stopping
    it.
    """
    command = [
        sys.executable, "-m", "deploy.serve",
        "--replicas", str(replicas), "--port", str(port), *extra,
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    served = Launched(f"http://127.0.0.1:{port}/", process)
    served.reader = threading.Thread(target=served._read, daemon=True)
    served.reader.start()
    served.ready.wait(timeout)
    if any(line.startswith("serving ") for line in list(served.lines)):
        return served
    code = served.stop()
    raise LaunchFailed(f"deploy.serve did not serve (exit code {code}):\n{served.output()}", served)


@contextmanager
def launched(replicas: int = 2, port: int | None = None, *extra: str) -> Iterator[Launched]:
    """`launch`, then stop with SIGTERM whatever happens in the block."""
    from deploy.serve import free_port

    served = launch(replicas, port or free_port(), *extra)
    try:
        yield served
    finally:
        served.stop()
