"""`python -m deploy.serve`: the replicas behind HAProxy on loopback, and nothing left after it.

These tests start real servers (Streamlit and Debian's HAProxy). Without HAProxy they skip with
one line saying how to install it, except under CI=true, where .ci/run installs it and a
missing balancer fails them.
"""

from __future__ import annotations

import signal
import socket
import urllib.request

import pytest
import websockets.sync.client
from browser_setup import must_run

from deploy.haproxy import COOKIE, body_limit_bytes, upload_limit_mb
from deploy.launcher import Launched, LaunchFailed, launch, launched
from deploy.serve import find_haproxy, free_port, parse_args


def _require_haproxy() -> None:
    if find_haproxy() is None:
        if must_run():
            pytest.fail("no haproxy: .ci/run installs it (CI=true: these tests must run)")
        pytest.skip("no haproxy: install it with `apt-get install -y haproxy`")


def _get(url: str, cookie: str | None = None) -> tuple[str, str | None]:
    """(X-Replica, the sticky cookie set by the answer or None) of a GET through the balancer."""
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as reply:
        assert reply.status == 200
        set_cookies = reply.headers.get_all("Set-Cookie") or []
        sticky = [c.split(";")[0].split("=", 1)[1] for c in set_cookies if c.startswith(COOKIE)]
        return reply.headers["X-Replica"], (sticky[0] if sticky else None)


def _status_line(port: int, head: str) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
        client.sendall(head.encode())
        return client.makefile("rb").readline().decode().strip()


def _assert_nothing_left(served: Launched) -> None:
    assert len(served.child_pids()) >= 2, served.output()
    assert served.left_running() == [], f"still running:\n{served.output()}"


def _logs(factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The command's --log-dir option: each launch its own folder, none in artifacts/."""
    return "--log-dir", str(factory.mktemp("serve"))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    _require_haproxy()
    with launched(2, None, *_logs(tmp_path_factory)) as running:
        yield running


def test_first_answer_sets_the_sticky_cookie_and_names_its_replica(served) -> None:
    replica, cookie = _get(served.url)
    assert replica in ("r1", "r2")
    assert cookie == replica


def test_a_browser_with_the_cookie_stays_on_its_replica(served) -> None:
    for replica in ("r1", "r2"):
        seen = {_get(served.url + "_stcore/health", cookie=replica)[0] for _ in range(6)}
        assert seen == {replica}


def test_browsers_without_the_cookie_are_spread_over_the_replicas(served) -> None:
    assert {_get(served.url + "_stcore/health")[0] for _ in range(6)} == {"r1", "r2"}


def test_the_websocket_goes_through_to_the_sessions_replica(served) -> None:
    stream = served.url.replace("http://", "ws://") + "_stcore/stream"
    for replica in ("r1", "r2"):
        headers = {"Cookie": f"{COOKIE}={replica}"}
        with websockets.sync.client.connect(stream, additional_headers=headers) as socket_:
            assert socket_.response.status_code == 101
            assert socket_.response.headers["X-Replica"] == replica


def test_an_upload_over_the_apps_limit_is_refused_by_the_balancer(served) -> None:
    port = int(served.url.rsplit(":", 1)[1].strip("/"))
    too_big = body_limit_bytes(upload_limit_mb()) + 1
    head = (
        "PUT /_stcore/upload_file/session/file HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Length: {too_big}\r\n\r\n"
    )
    assert _status_line(port, head) == "HTTP/1.1 413 Payload Too Large"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP], ids=["ctrl-c", "hangup"])
def test_ctrl_c_stops_every_process_it_started(sig: int, tmp_path_factory) -> None:
    _require_haproxy()
    port = free_port()
    served = launch(1, port, *_logs(tmp_path_factory))
    assert served.stop(sig) == 0
    _assert_nothing_left(served)
    with socket.socket() as probe:  # the balancer's port is free again
        probe.bind(("127.0.0.1", port))


def test_a_balancer_that_cannot_start_stops_the_replicas(tmp_path_factory) -> None:
    _require_haproxy()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(LaunchFailed, match="exit code 1") as raised:
            launch(1, port, *_logs(tmp_path_factory))
    assert "deploy.serve: haproxy exited" in raised.value.served.output()
    _assert_nothing_left(raised.value.served)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--replicas", "0"], "--replicas must be between 1 and 64, but got 0"),
        (["--port", "70000"], "--port must be between 1 and 65535, but got 70000"),
        (["--app", "no_such_app.py"], "--app no_such_app.py is not a file"),
    ],
)
def test_bad_options_exit_2_with_one_line(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_args(argv)
    assert exited.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(message)
