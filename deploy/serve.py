"""Serve the app to a lecture hall on this machine: N Streamlit replicas behind HAProxy.

    python -m deploy.serve --replicas 2 --port 8600

Starts N ``streamlit run app.py`` servers on free loopback ports and HAProxy (Debian's package:
``apt-get install -y haproxy``) on 127.0.0.1:PORT with the configuration of deploy/haproxy.py,
waits until every replica answers its health check through the balancer's own checks, prints
the address, and serves until Ctrl-C (SIGINT), SIGTERM or SIGHUP; then it stops the balancer
and the replicas, each as a whole process group, and exits with nothing left running. A
replica that exits while serving (the out-of-memory killer, a crash) is started again on its
port after a back-off (1 s, doubling to at most a minute while it keeps dying within
:data:`STABLE_S`), while the others serve on: HAProxy's health checks take it out and bring it
back, and only its own sessions are lost. If a replica or the balancer fails to start, or the
balancer exits while serving, everything else is stopped and the command exits with code 1.
Everything listens on 127.0.0.1 only.

The replicas need no extra Streamlit setting behind the balancer: the page, its websocket and
its uploads all come through the same origin (the balancer's), so CORS and the XSRF cookie
work as they do without it.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from deploy.haproxy import HEALTH_PATH, ROOT, local_config, upload_limit_mb
from deploy.processes import Child, stop_all, wait_for_health

LOG_DIR = ROOT / "artifacts" / "serve"
HEALTH_TIMEOUT_S = 180.0  # a cold replica imports scipy, pandas and altair on a busy machine
BALANCER_TIMEOUT_S = 30.0
POLL_S = 0.2
#: A replica that has served this long before it exits is restarted after the first back-off.
STABLE_S = 300.0
MAX_BACKOFF_S = 60.0


class Stop(Exception):
    """SIGINT or SIGTERM arrived: stop everything and exit."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def find_haproxy() -> str | None:
    """HAProxy's program: on PATH, else where Debian's package puts it; None without it."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")


def replica_command(app: Path, port: int) -> list[str]:
    """``streamlit run`` on 127.0.0.1:`port`, headless, with no usage statistics."""
    return [
        sys.executable, "-m", "streamlit", "run", str(app),
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip


def servers_up(stats_socket: Path) -> tuple[int, int]:
    """(servers UP, servers) of the backend ``replicas``, from HAProxy's ``show stat``."""
    with socket.socket(socket.AF_UNIX) as runtime:
        runtime.settimeout(5)
        runtime.connect(str(stats_socket))
        runtime.sendall(b"show stat\n")
        chunks = []
        while chunk := runtime.recv(65536):
            chunks.append(chunk)
    rows = [row.split(",") for row in b"".join(chunks).decode().lstrip("# ").splitlines()]
    pxname, svname, status = (rows[0].index(key) for key in ("pxname", "svname", "status"))
    servers = [
        row
        for row in rows[1:]
        if len(row) == len(rows[0]) and row[pxname] == "replicas" and row[svname] != "BACKEND"
    ]
    return sum(row[status] == "UP" for row in servers), len(servers)


def wait_balanced(balancer: Child, stats_socket: Path, replicas: int) -> None:
    """Wait until HAProxy's own health checks have every replica UP."""
    deadline = time.monotonic() + BALANCER_TIMEOUT_S
    while time.monotonic() < deadline:
        if (code := balancer.exited()) is not None:
            raise RuntimeError(
                f"haproxy exited with code {code} (log: {balancer.log_path}):\n"
                f"{balancer.log_tail()}"
            )
        try:
            if servers_up(stats_socket) == (replicas, replicas):
                return
        except (OSError, ValueError, IndexError):
            pass  # the runtime socket is not open yet
        time.sleep(POLL_S)
    raise RuntimeError(f"haproxy did not see {replicas} replicas up within {BALANCER_TIMEOUT_S} s")


@contextmanager
def _stop_on_signals() -> Iterator[None]:
    """Turn SIGINT, SIGTERM and SIGHUP (the terminal closed) into `Stop` while serving; ignore
    them while stopping."""

    def handler(signum: int, frame: object) -> None:
        raise Stop(signal.Signals(signum).name)

    stopping = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    previous = {sig: signal.signal(sig, handler) for sig in stopping}
    try:
        yield
    finally:
        for sig in previous:
            signal.signal(sig, signal.SIG_IGN)


def start(args: argparse.Namespace, run_dir: Path, children: list[Child]) -> None:
    """Start the replicas, wait until each is healthy, then start the balancer and wait for it."""
    ports = [free_port() for _ in range(args.replicas)]
    for i, port in enumerate(ports, start=1):
        child = Child.start(
            f"replica {i}", replica_command(args.app, port),
            cwd=args.app.parent, log_path=args.log_dir / f"replica-{i}.log",
        )  # fmt: skip
        child.restart_on_exit = True
        children.append(child)
        print(f"replica {i}: http://127.0.0.1:{port}/ (pid {child.pid}, log {child.log_path})")
    for child, port in zip(children, ports, strict=True):
        wait_for_health(f"http://127.0.0.1:{port}{HEALTH_PATH}", child, HEALTH_TIMEOUT_S)
    stats_socket = run_dir / "haproxy.sock"
    config = run_dir / "haproxy.cfg"
    config.write_text(
        local_config(ports, port=args.port, upload_mb=upload_limit_mb(), stats_socket=stats_socket)
    )
    balancer = Child.start(
        "haproxy", [args.haproxy, "-db", "-f", str(config)],
        cwd=run_dir, log_path=args.log_dir / "haproxy.log",
    )  # fmt: skip
    children.append(balancer)
    print(f"balancer: haproxy (pid {balancer.pid}, config {config}, log {balancer.log_path})")
    wait_balanced(balancer, stats_socket, args.replicas)


def backoff(child: Child, now: float) -> float:
    """Seconds before a replica that exited is started again: 1 s, doubling with each restart
    while it keeps dying within :data:`STABLE_S` of its start, at most :data:`MAX_BACKOFF_S`."""
    if now - child.started >= STABLE_S:
        child.restarts = 0
    return min(MAX_BACKOFF_S, 2.0**child.restarts)


def serve(children: Sequence[Child]) -> None:
    """Until a signal arrives: restart a replica that exits (the others serve on meanwhile);
    raise RuntimeError as soon as the balancer exits."""
    due: dict[int, float] = {}  # replicas waiting to restart: index -> when
    while True:
        now = time.monotonic()
        for index, child in enumerate(children):
            if index in due or (code := child.exited()) is None:
                continue
            if not child.restart_on_exit:
                raise RuntimeError(
                    f"{child.name} exited with code {code} while serving "
                    f"(log: {child.log_path}):\n{child.log_tail()}"
                )
            delay = backoff(child, now)
            due[index] = now + delay
            print(
                f"{child.name} exited with code {code} while serving (log: {child.log_path}); "
                f"the others serve on, and it starts again in {delay:.0f} s"
            )
        for index, when in list(due.items()):
            if now >= when:
                children[index].restart()
                del due[index]
                print(f"{children[index].name} started again (pid {children[index].pid})")
        time.sleep(POLL_S)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m deploy.serve", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--replicas", type=int, default=2, help="Streamlit servers (default 2)")
    parser.add_argument("--port", type=int, default=8600, help="the balancer's port on 127.0.0.1")
    parser.add_argument("--app", type=Path, default=ROOT / "app.py", help="the Streamlit script")
    parser.add_argument("--log-dir", type=Path, default=LOG_DIR, help="the servers' logs")
    parser.add_argument(
        "--haproxy", default=find_haproxy(),
        help="HAProxy's program (default: haproxy on PATH, else /usr/sbin/haproxy)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if not 1 <= args.replicas <= 64:
        parser.error(f"--replicas must be between 1 and 64, but got {args.replicas}")
    if not 1 <= args.port <= 65535:
        parser.error(f"--port must be between 1 and 65535, but got {args.port}")
    if args.haproxy is None:
        parser.error("no haproxy on PATH: install it with `apt-get install -y haproxy`")
    if not args.app.is_file():
        parser.error(f"--app {args.app} is not a file")
    args.app = args.app.resolve()
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # each line reaches a pipe as it is printed
    children: list[Child] = []
    with tempfile.TemporaryDirectory(prefix="mcnemar-serve-") as run_dir:
        try:
            with _stop_on_signals():
                start(args, Path(run_dir), children)
                print(
                    f"serving http://127.0.0.1:{args.port}/ with {args.replicas} replicas; "
                    "Ctrl-C stops them all",
                    flush=True,
                )
                serve(children)
        except Stop as stop:
            print(f"{stop}: stopping {len(children)} processes", flush=True)
            return 0
        except RuntimeError as error:
            print(f"deploy.serve: {error}", file=sys.stderr, flush=True)
            return 1
        finally:
            stop_all(children)
            print("stopped", flush=True)


if __name__ == "__main__":
    sys.exit(main())
