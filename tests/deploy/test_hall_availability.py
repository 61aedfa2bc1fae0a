"""The lecture hall stays up when one visitor's upload is heavy or one replica dies (hostile
review 4, D1 to D4).

- D1: a replica busy parsing an upload did not answer its health check within 2 s (HAProxy's
  default check timeout, `inter`); three such checks took it out with every session on it, and
  two visitors took the whole hall down. Checks now wait `timeout check` (15 s) for an answer.
- D2: one replica's death (the out-of-memory killer) stopped every replica and the balancer.
  It is now started again after a back-off while the others serve on; compose caps each
  replica's memory.
- D3: one session could park any number of 100 MB uploads in a replica's memory; the balancer
  now counts the bytes uploaded per session and answers 429 past its budget.
- D4: /_stcore/metrics answered visitors, and tracebacks (showErrorDetails "full") showed the
  server's paths.

The live tests start real servers (Streamlit and Debian's HAProxy), as tests/deploy/
test_serve.py does; a frozen replica is simulated with SIGSTOP here. Real heavy uploads through
the balancer, with another session's answers measured meanwhile, are in
test_upload_isolation.py.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser_setup import must_run

from deploy.haproxy import (
    CHECK_TIMEOUT,
    COOKIE,
    METRICS_PATH,
    ROOT,
    compose_config,
    local_config,
    session_upload_bytes,
)
from deploy.launcher import launch, launched
from deploy.serve import find_haproxy, free_port

COMPOSE = (ROOT / "deploy" / "compose.yaml").read_text()


def _require_haproxy() -> str:
    haproxy = find_haproxy()
    if haproxy is None:
        if must_run():
            pytest.fail("no haproxy: .ci/run installs it (CI=true: these tests must run)")
        pytest.skip("no haproxy: install it with `apt-get install -y haproxy`")
    return haproxy


def _get(url: str, cookie: str | None = None) -> tuple[int, str | None]:
    """(status, X-Replica) of a GET through the balancer."""
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
            return r.status, r.headers["X-Replica"]
    except urllib.error.HTTPError as error:
        return error.code, error.headers["X-Replica"]


def _configs() -> list[str]:
    return [
        compose_config(upload_mb=100),
        local_config([9001, 9002], port=9000, upload_mb=100, stats_socket=Path("/tmp/s")),
    ]


def test_a_health_check_waits_for_a_busy_replica() -> None:
    seconds = int(CHECK_TIMEOUT.rstrip("s"))
    assert seconds >= 10  # over the few seconds one bounded parse can hold the interpreter
    for config in _configs():
        assert f"    timeout check {CHECK_TIMEOUT}\n" in config


def test_the_metrics_page_is_not_served_and_errors_show_no_traceback() -> None:
    for config in _configs():
        assert f"http-request deny deny_status 404 if {{ path_beg {METRICS_PATH} }}" in config
    with open(ROOT / ".streamlit" / "config.toml", "rb") as handle:
        client = tomllib.load(handle)["client"]
    assert client["showErrorDetails"] in ("type", "none")


def test_uploads_are_budgeted_per_session() -> None:
    for config in _configs():
        assert "http-request track-sc0 path,field(4,/) if upload METH_PUT" in config
        budget = re.search(r"sc_bytes_in_rate\(0\) gt (\d+)", config)
        assert budget and int(budget.group(1)) == session_upload_bytes(100)


def test_compose_caps_each_replicas_memory() -> None:
    app = COMPOSE.split("\n  app:\n", 1)[1].split("\n  balancer:\n", 1)[0]
    assert re.search(r"^    mem_limit: \$\{REPLICA_MEMORY:-\d+g\}$", app, re.MULTILINE)


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory):
    _require_haproxy()
    logs = str(tmp_path_factory.mktemp("serve"))
    with launched(2, None, "--log-dir", logs) as running:
        running.log_dir = Path(logs)
        yield running


def test_a_replica_frozen_for_20_s_keeps_its_sessions(hall) -> None:
    # Frozen for 20 s (the review saw a replica frozen for 15 to 58 s by one 150 kB upload,
    # before the readers bounded the work): the old checks (2 s each, every 2 s, three failures)
    # took it out after about 12 s and sent its sessions to the other replica. Now a check
    # waits 15 s, so the freeze costs one failed check of the three that take it out.
    assert _get(hall.url + "_stcore/health", "r1") == (200, "r1")
    replica = hall.child_pids()[0]
    os.killpg(replica, signal.SIGSTOP)
    try:
        time.sleep(20)
    finally:
        os.killpg(replica, signal.SIGCONT)
    assert _get(hall.url + "_stcore/health", "r1") == (200, "r1")
    log = (hall.log_dir / "haproxy.log").read_text()
    assert "is DOWN" not in log, log


def test_the_metrics_page_answers_404_through_the_balancer(hall) -> None:
    assert _get(hall.url + METRICS_PATH.lstrip("/"))[0] == 404
    assert _get(hall.url + "_stcore/health")[0] == 200


def test_a_session_past_its_upload_budget_gets_429(tmp_path: Path) -> None:
    # A balancer with a 1 MB upload limit in front of a stand-in replica that reads and drops
    # every body: the budget is 4 x 2 MB, so after four 2 MB uploads the session's next one is
    # refused, and another session's is not.
    haproxy = _require_haproxy()
    sink, port = free_port(), free_port()
    server = subprocess.Popen(
        ["python3", "-c", _SINK, str(sink)], stdout=subprocess.DEVNULL, start_new_session=True
    )
    config = tmp_path / "haproxy.cfg"
    config.write_text(
        local_config([sink], port=port, upload_mb=1, stats_socket=tmp_path / "s.sock").replace(
            "    default-server check", "    default-server"
        )
    )
    balancer = subprocess.Popen([haproxy, "-db", "-f", str(config)], start_new_session=True)
    try:
        _wait_listening(port)
        body = b"x" * (2 * 1024 * 1024)
        statuses = [_put(port, f"/_stcore/upload_file/s1/f{i}", body) for i in range(4)]
        assert statuses == [200] * 4
        # The next upload of that session is refused on its headers (a small body: a refusal
        # while a large body is still being sent can reach the client as a broken pipe).
        # HAProxy adds a request's bytes to the session's counter as its stream ends, which can
        # come just after the client has read the answer (seen once in CI: the next request
        # got 200): the refusal is asked for until it comes, within a few seconds.
        deadline = time.monotonic() + 5.0
        while (status := _put(port, "/_stcore/upload_file/s1/f4", b"x")) != 429:
            if time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert status == 429
        assert _put(port, "/_stcore/upload_file/s2/f0", body) == 200
    finally:
        for process in (balancer, server):
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


_SINK = """
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_PUT(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *args): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
"""


def _wait_listening(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


def _put(port: int, path: str, body: bytes) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method="PUT")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_replica_that_dies_is_started_again_while_the_others_serve(tmp_path_factory) -> None:
    _require_haproxy()
    served = launch(2, free_port(), "--log-dir", str(tmp_path_factory.mktemp("serve")))
    try:
        first = served.child_pids()[1]
        os.killpg(first, signal.SIGKILL)  # replica 2, as the out-of-memory killer would
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and "replica 2 started again" not in served.output():
            assert served.process.poll() is None, served.output()
            time.sleep(0.5)
        assert "replica 2 exited with code -9 while serving" in served.output()
        assert _get(served.url + "_stcore/health")[0] == 200  # the hall still answers
        while time.monotonic() < deadline and _get(served.url + "_stcore/health", "r2") != (
            200,
            "r2",
        ):
            time.sleep(1)
        assert _get(served.url + "_stcore/health", "r2") == (200, "r2")  # back in service
        assert len(set(served.child_pids())) == 4  # two replicas, the balancer, the new one
    finally:
        code = served.stop()
    assert code == 0
    assert served.left_running() == [], served.output()


def test_the_balancer_dying_stops_everything_with_an_error(tmp_path_factory) -> None:
    _require_haproxy()
    served = launch(1, free_port(), "--log-dir", str(tmp_path_factory.mktemp("serve")))
    os.killpg(served.child_pids()[-1], signal.SIGKILL)
    served.process.wait(timeout=60)
    assert served.stop() == 1
    assert "haproxy exited" in served.output()
    assert served.left_running() == [], served.output()
