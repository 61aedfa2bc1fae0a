"""A classroom's load without browsers: simulated sessions speaking Streamlit's own protocol.

    python benchmarks/bench_load.py [--sessions 10 30 60] [--seconds 30]

Each simulated session opens the app's websocket (``/_stcore/stream``), asks for a first run
(``BackMsg.rerun_script``) as a browser does, finds the slider it will move among the elements
sent back, then, for a fixed time, moves that slider to a new value every ``--pause`` seconds
(give or take a random half of it) and waits for the run to finish. The messages are the
protobuf types that the streamlit package ships (``streamlit.proto``), so the server cannot tell
these sessions from browsers. A student's browser would also draw what comes back; that is the
browser benchmark's business (``bench_page.py``): this one measures the server.

Measured for the calculator and for the chart floor (``chart_floor_app.py``: one slider, one
metric, one Vega-Lite chart, run with Streamlit's defaults from an empty folder), one server each,
on loopback only, for each number of sessions:

- rerun latency: widget change sent to ``script_finished`` received, median and p95;
- errors: exception elements, a script that did not finish, a closed socket, no answer in time;
- server CPU per rerun (utime + stime of the server process over the round, by reruns);
- server memory (VmRSS): at the peak of the round, and some seconds after every session closed.

The last round is run twice: memory after the second equal to after the first is "no growth".
Every figure is printed beside the chart floor's, with their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ARTIFACTS, ROOT, Server  # noqa: E402

ANSWER_TIMEOUT = 60.0  # seconds without script_finished before a rerun counts as an error
SETTLE_SECONDS = 8.0  # after the sessions close, before memory is read again
_OK = {
    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
    ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
}


@dataclass
class Round:
    """What one round of N sessions measured on one server."""

    sessions: int
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cpu_per_rerun: float = 0.0
    peak_rss: int = 0
    rss_after: int = 0


@dataclass
class Slider:
    widget_id: str
    fragment_id: str
    page_hash: str


async def _read_run(socket, found: dict[str, Slider], key: str) -> list[str]:  # noqa: ANN001
    """Read messages until the run finishes; return the errors seen, note the slider found."""
    errors: list[str] = []
    page_hash = ""
    while True:
        message = ForwardMsg()
        message.ParseFromString(await asyncio.wait_for(socket.recv(), ANSWER_TIMEOUT))
        kind = message.WhichOneof("type")
        if kind == "new_session":
            page_hash = message.new_session.page_script_hash
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            element = message.delta.new_element
            inner = getattr(element, element.WhichOneof("type"))
            if element.WhichOneof("type") == "exception":
                errors.append(f"exception: {inner.type}: {inner.message[:80]}")
            elif getattr(inner, "id", "").endswith(key) and key not in found:
                found[key] = Slider(inner.id, message.delta.fragment_id, page_hash)
        elif kind == "script_finished":
            if message.script_finished not in _OK:
                errors.append(f"script finished with status {message.script_finished}")
            return errors


def _move(slider: Slider, value: float) -> bytes:
    message = BackMsg()
    rerun = message.rerun_script
    rerun.query_string = ""
    rerun.page_script_hash = slider.page_hash
    if slider.fragment_id:
        rerun.fragment_id = slider.fragment_id
    state = rerun.widget_states.widgets.add()
    state.id = slider.widget_id
    state.double_array_value.data.extend([value])
    return message.SerializeToString()


async def session(port: int, key: str, seconds: float, pause: float, seed: int, out: Round) -> None:
    """One simulated student: open the page, then move the slider for `seconds`."""
    rng = random.Random(seed)
    url = f"ws://127.0.0.1:{port}/_stcore/stream"
    try:
        # No client keepalive pings: a busy server answers them late and the client would drop
        # the session (a browser does not ping this way); ANSWER_TIMEOUT bounds every wait.
        async with websockets.connect(
            url, max_size=None, open_timeout=ANSWER_TIMEOUT, ping_interval=None
        ) as socket:
            first = BackMsg()
            first.rerun_script.query_string = ""
            await socket.send(first.SerializeToString())
            found: dict[str, Slider] = {}
            out.errors.extend(await _read_run(socket, found, key))
            if key not in found:
                out.errors.append(f"no slider with key {key!r} in the first run")
                return
            until = time.monotonic() + seconds
            await asyncio.sleep(rng.uniform(0, pause))
            while time.monotonic() < until:
                value = float(rng.randrange(0, 101))
                started = time.perf_counter()
                await socket.send(_move(found[key], value))
                errors = await _read_run(socket, found, key)
                out.latencies.append(time.perf_counter() - started)
                out.errors.extend(errors)
                await asyncio.sleep(pause * rng.uniform(0.5, 1.5))
    except TimeoutError:
        out.errors.append(f"no answer within {ANSWER_TIMEOUT:.0f} s")
    except (OSError, websockets.WebSocketException) as error:
        out.errors.append(f"socket: {type(error).__name__}: {error}")


async def run_round(server: Server, key: str, sessions: int, seconds: float, pause: float) -> Round:
    result = Round(sessions)
    cpu_before = server.cpu_seconds()
    tracebacks_before = server.traceback_count()
    students = [session(server.port, key, seconds, pause, seed, result) for seed in range(sessions)]
    gathered = asyncio.gather(*students)
    while not gathered.done():
        result.peak_rss = max(result.peak_rss, server.rss_bytes())
        await asyncio.wait([gathered], timeout=0.5)
    await gathered
    reruns = max(1, len(result.latencies) + sessions)  # the first runs cost CPU too
    result.cpu_per_rerun = (server.cpu_seconds() - cpu_before) / reruns
    await asyncio.sleep(SETTLE_SECONDS)
    result.rss_after = server.rss_bytes()
    tracebacks = server.traceback_count() - tracebacks_before
    result.errors.extend(["traceback in the server log"] * tracebacks)
    return result


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0


def _ratio(value: float, floor: float) -> str:
    return f"{value / floor:.2f}x" if floor > 0 else "n/a"


def report(rounds: dict[str, list[Round]]) -> None:
    print("| sessions | measure | chart floor | calculator | ratio |")
    print("|---|---|---|---|---|")
    for floor, app in zip(rounds["floor"], rounds["calculator"], strict=True):
        n = app.sessions
        rows = [
            ("rerun latency, median (ms)", statistics.median(floor.latencies or [0]) * 1e3,
             statistics.median(app.latencies or [0]) * 1e3),
            ("rerun latency, p95 (ms)", _p95(floor.latencies) * 1e3, _p95(app.latencies) * 1e3),
            ("reruns", len(floor.latencies), len(app.latencies)),
            ("errors", len(floor.errors), len(app.errors)),
            ("server CPU per rerun (ms)", floor.cpu_per_rerun * 1e3, app.cpu_per_rerun * 1e3),
            ("server RSS, peak (MB)", floor.peak_rss / 1e6, app.peak_rss / 1e6),
            ("server RSS, after close (MB)", floor.rss_after / 1e6, app.rss_after / 1e6),
        ]  # fmt: skip
        for name, left, right in rows:
            ratio = _ratio(right, left) if name not in ("reruns", "errors") else ""
            print(f"| {n} | {name} | {left:,.0f} | {right:,.0f} | {ratio} |")
    for name, series in rounds.items():
        for round_ in series:
            for error in sorted(set(round_.errors))[:5]:
                print(f"{name}, {round_.sessions} sessions: {error}", file=sys.stderr)


async def measure(server: Server, key: str, args: argparse.Namespace) -> list[Round]:
    server.start()
    try:
        server.wait_healthy()
        plan = [*args.sessions, args.sessions[-1]]  # the last round twice: memory growth
        return [await run_round(server, key, n, args.seconds, args.pause) for n in plan]
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[10, 30, 60])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each round")
    parser.add_argument(
        "--pause", type=float, default=2.0, help="seconds between a session's moves"
    )
    parser.add_argument("--app", type=Path, default=ROOT / "app.py")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench_load_"))
    shutil.copy(Path(__file__).with_name("chart_floor_app.py"), scratch / "chart_floor_app.py")
    logs = ARTIFACTS / "bench"
    floor = Server(scratch / "chart_floor_app.py", scratch, logs / "load_floor.log")
    app = Server(args.app, args.app.parent, logs / "load_calculator.log")
    rounds = {
        "floor": asyncio.run(measure(floor, "value", args)),
        "calculator": asyncio.run(measure(app, "b_slider", args)),
    }
    report(rounds)
    last, again = rounds["calculator"][-2:]
    growth = (again.rss_after - last.rss_after) / 1e6
    print(f"\ncalculator memory after a repeat of the {again.sessions}-session round: "
          f"{growth:+.1f} MB against the first")  # fmt: skip


if __name__ == "__main__":
    main()
