"""The container files and HAProxy's configurations, checked without Docker.

Docker is not available where these tests run, so the image is never built here: the Dockerfile
and compose.yaml are checked as text for what issue 26 asks of them (slim Python 3.11, the
requirements, a non-root user, the health endpoint as the health check; replicas behind the
balancer, its configuration mounted, the health check wired). HAProxy's configurations are
checked by HAProxy itself (``haproxy -c``) where it is installed, as it is under CI.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from browser_setup import must_run

from deploy.haproxy import (
    COMPOSE_SLOTS,
    CONTAINER_PORT,
    HEALTH_PATH,
    ROOT,
    body_limit_bytes,
    compose_config,
    local_config,
    upload_limit_mb,
)
from deploy.serve import find_haproxy, replica_command

DEPLOY = ROOT / "deploy"
DOCKERFILE = (DEPLOY / "Dockerfile").read_text()
COMPOSE = (DEPLOY / "compose.yaml").read_text()


def _instructions(name: str) -> list[str]:
    """The Dockerfile's instructions of one kind, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [line.split(None, 1)[1] for line in joined.splitlines() if line.startswith(name + " ")]


def _haproxy_check(config: str, tmp_path: Path) -> None:
    haproxy = find_haproxy()
    if haproxy is None:
        if must_run():
            pytest.fail("no haproxy: .ci/run installs it (CI=true: this test must run)")
        pytest.skip("no haproxy: install it with `apt-get install -y haproxy`")
    path = tmp_path / "haproxy.cfg"
    path.write_text(config)
    checked = subprocess.run([haproxy, "-c", "-f", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_compose_files_haproxy_config_is_the_generated_one() -> None:
    written = (DEPLOY / "haproxy.cfg").read_text()
    assert written == compose_config(upload_mb=upload_limit_mb()), (
        "deploy/haproxy.cfg is stale: python -m deploy.haproxy > deploy/haproxy.cfg"
    )


def test_the_balancers_upload_limit_follows_the_apps(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[server]\nmaxUploadSize = 7\n")
    assert upload_limit_mb(config) == 7
    assert body_limit_bytes(7) == 8 * 1024 * 1024  # Streamlit's 1 MB margin for the framing
    shipped = upload_limit_mb()
    assert f"gt {body_limit_bytes(shipped)} }}" in compose_config(upload_mb=shipped)


def test_haproxy_accepts_both_configurations(tmp_path: Path) -> None:
    local = local_config([8501, 8502], port=8600, upload_mb=100, stats_socket=tmp_path / "s")
    _haproxy_check(local, tmp_path)
    _haproxy_check(compose_config(upload_mb=100), tmp_path)


def test_the_local_configuration_listens_and_connects_on_loopback_only() -> None:
    local = local_config([9001, 9002], port=8600, upload_mb=100, stats_socket=Path("/tmp/s"))
    addresses = re.findall(r"^\s+(?:bind|server \S+) (\S+)", local, re.MULTILINE)
    assert addresses == ["127.0.0.1:8600", "127.0.0.1:9001", "127.0.0.1:9002"]
    assert "cookie r1" in local and "cookie r2" in local


def test_the_image_is_slim_python_with_the_requirements() -> None:
    assert _instructions("FROM") == ["python:3.11-slim"]
    assert "requirements.txt ./" in _instructions("COPY")
    assert "pip install -r requirements.txt" in _instructions("RUN")
    copied = {line.split()[0].rstrip("/") for line in _instructions("COPY")}
    # static/: the live panel's built JavaScript, which the app serves itself.
    app_files = {".streamlit", "app.py", "app_pages", "calculator", "ui", "static"}
    assert app_files <= copied, f"the image misses {app_files - copied}"
    for name in app_files:
        assert (ROOT / name).exists()


def test_the_server_runs_as_a_user_that_is_not_root() -> None:
    users = _instructions("USER")
    assert users and users[-1] not in ("root", "0")
    assert DOCKERFILE.index("USER ") < DOCKERFILE.index("CMD ")
    assert f"useradd --create-home --uid 10001 --shell /usr/sbin/nologin {users[-1]}" in (
        " ".join(_instructions("RUN"))
    )


def test_the_health_check_asks_streamlits_health_endpoint() -> None:
    (check,) = _instructions("HEALTHCHECK")
    assert f"http://127.0.0.1:{CONTAINER_PORT}{HEALTH_PATH}" in check
    (command,) = _instructions("CMD")
    assert f"--server.port={CONTAINER_PORT}" in command
    assert "streamlit" in command and "app.py" in command


def test_compose_starts_replicas_behind_the_balancer() -> None:
    build = "  app:\n    build:\n      context: ..\n      dockerfile: deploy/Dockerfile\n"
    assert build in COMPOSE
    replicas = re.search(r"^      replicas: \$\{REPLICAS:-(\d+)\}$", COMPOSE, re.MULTILINE)
    assert replicas and 2 <= int(replicas.group(1)) <= COMPOSE_SLOTS
    assert "- ./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in COMPOSE
    assert (DEPLOY / "haproxy.cfg").is_file()
    # The balancer's container port is the one its configuration binds.
    assert re.search(rf'^      - "\$\{{HOST_ADDRESS:-127\.0\.0\.1\}}:\$\{{PORT:-\d+\}}:'
                     rf'{CONTAINER_PORT}"$', COMPOSE, re.MULTILINE)  # fmt: skip
    assert f"bind :{CONTAINER_PORT}" in compose_config(upload_mb=100)
    # The balancer starts once the replicas' health checks pass.
    assert "    depends_on:\n      app:\n        condition: service_healthy\n" in COMPOSE


def test_compose_file_has_no_tabs_and_two_space_indents() -> None:
    for number, line in enumerate(COMPOSE.splitlines(), start=1):
        assert "\t" not in line, f"compose.yaml line {number} has a tab"
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0, f"compose.yaml line {number} is indented by {indent}"


def test_the_replicas_listen_on_loopback_only() -> None:
    command = replica_command(ROOT / "app.py", 9001)
    assert command[command.index("--server.address") + 1] == "127.0.0.1"
    assert command[command.index("--server.port") + 1] == "9001"
