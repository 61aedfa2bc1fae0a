"""A classroom's load without browsers: simulated sessions speaking Streamlit's own protocol.

    python benchmarks/bench_load.py [--sessions 10 30 60] [--seconds 30] [--json]
    python benchmarks/bench_load.py --url http://127.0.0.1:8600/ [--sessions 60] [--json]

With ``--url`` the classroom runs against a server or a balancer that is already running (for
example ``python -m deploy.serve``): the rounds of ``--sessions`` once each, the calculator's
slider (``--key``), and only what a client can measure (latencies, reruns, errors; not the
server's CPU or memory, nor the tracebacks in its log). Sessions send no cookie, so a balancer
places each one's websocket as it places a new browser's. ``--json`` prints, per round, the
sessions, the rerun median and p95 in ms (null when no rerun finished), the reruns and the
errors by kind.

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
- errors, counted by kind (the first run or a later one; an exception element, a script that
  did not finish, the socket closed by the server, no message for ``--answer-timeout`` seconds,
  a traceback in the server's log), so that a reader can tell a slow server from a broken one;
- server CPU per rerun (utime + stime of the server process over the round, by reruns);
- server memory (VmRSS): at the peak of the round, and some seconds after every session closed.

The last round is run three times. The first repeat still raises memory: the page's caches are
bounded (at most 512 analyses and 512 decisions, 256 chart specifications of each kind), but
they fill with the tables that new sessions reach, and Python's allocator keeps what it has
grown to. Memory after the third run equal to after the second is "no growth": a leak would
keep growing.
Every figure is printed beside the chart floor's, with their ratio; a round in which no rerun
finished prints "-" for its latencies, never 0.

The client sends no keepalive pings of its own. With them (the ``websockets`` default: a ping
every 20 s, the session dropped if the pong is 20 s late) a server busy with dozens of first runs
answered late and the client itself closed every session ("sent 1011 (internal error) keepalive
ping timeout") before a single rerun finished: the chart floor's 30 and 60-session rounds once
showed one error per session and no rerun at all. A browser does not ping this way (the server
pings the browser, and these sessions answer the server's pings as a browser does), so every
error counted now is the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ARTIFACTS, ROOT, Server  # noqa: E402

ANSWER_TIMEOUT = 60.0  # default seconds without any message before a run counts as an error
SETTLE_SECONDS = 8.0  # after the sessions close, before memory is read again
REPEATS = 2  # more runs of the last round: the first fills the caches, the second shows growth
_OK = {
    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
    ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
}


@dataclass
class Round:
    """What one round of N sessions measured on one server.

    `errors` holds one kind per error (a short fixed phrase, so that they can be counted);
    `examples` the first full message seen of each kind.
    """

    sessions: int
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    examples: dict[str, str] = field(default_factory=dict)
    cpu_per_rerun: float = 0.0
    peak_rss: int = 0
    rss_after: int = 0

    def error(self, kind: str, detail: str = "") -> None:
        self.errors.append(kind)
        self.examples.setdefault(kind, detail)

    def error_counts(self) -> list[tuple[str, int, str]]:
        """(kind, how many, first message) for each kind of error, the most frequent first."""
        counts = collections.Counter(self.errors).most_common()
        return [(kind, count, self.examples.get(kind, "")) for kind, count in counts]


#: The calculator page's element that holds the counts: its live panel (a custom component),
#: whose state ``counts`` a browser sets when b is moved (``ui.widgets.state``).
PANEL_KEY = "live_panel"
#: The other counts (a, c, d) a protocol session sends with its b, and the origin of the counts
#: a first run gives (the page set them once, from the URL).
PANEL_COUNTS = (60, 5, 20)
PANEL_ORIGIN = 1


@dataclass
class Slider:
    widget_id: str
    fragment_id: str
    page_hash: str
    panel: bool = False  # the live panel (its state), not a Streamlit slider
    moves: int = 0


async def read_run(  # noqa: ANN001
    socket, found: dict[str, Slider], key: str, timeout: float
) -> tuple[str, str] | None:
    """Read messages until the run finishes and note the slider found; return the failure of
    the run as (kind, detail) if it showed an exception or did not finish successfully."""
    page_hash = ""
    failure: tuple[str, str] | None = None
    while True:
        message = ForwardMsg()
        message.ParseFromString(await asyncio.wait_for(socket.recv(), timeout))
        kind = message.WhichOneof("type")
        if kind == "new_session":
            page_hash = message.new_session.page_script_hash
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            element = message.delta.new_element
            inner = getattr(element, element.WhichOneof("type"))
            if element.WhichOneof("type") == "exception":
                failure = failure or ("exception shown", f"{inner.type}: {inner.message[:120]}")
            elif getattr(inner, "id", "").endswith(key) and key not in found:
                panel = element.WhichOneof("type") == "bidi_component"
                found[key] = Slider(inner.id, message.delta.fragment_id, page_hash, panel)
        elif kind == "script_finished":
            status = message.script_finished
            if status not in _OK:
                name = ForwardMsg.ScriptFinishedStatus.Name(status)
                failure = failure or (f"script finished with {name}", "")
            return failure


def move_message(slider: Slider, value: float) -> bytes:
    message = BackMsg()
    rerun = message.rerun_script
    rerun.query_string = ""
    rerun.page_script_hash = slider.page_hash
    # The panel's key reruns its fragment, and the browser then reruns the sections below
    # (ui/components/live_panel/follower.js), which a protocol session has no script to do:
    # it asks for both at once, a run of the whole page.
    if slider.fragment_id and not slider.panel:
        rerun.fragment_id = slider.fragment_id
    state = rerun.widget_states.widgets.add()
    state.id = slider.widget_id
    if slider.panel:  # b moved in the live panel: its state, as the panel's script sends it
        slider.moves += 1
        a, c, d = PANEL_COUNTS
        counts = {"values": [a, int(value), c, d], "origin": PANEL_ORIGIN, "seq": slider.moves}
        state.json_value = json.dumps({"counts": counts})
    else:
        state.double_array_value.data.extend([value])
    return message.SerializeToString()


def first_run_message() -> bytes:
    """The message a browser sends on opening the page: run the script, no query string."""
    first = BackMsg()
    first.rerun_script.query_string = ""
    return first.SerializeToString()


def stream_url(url: str) -> str:
    """The websocket of the app served at `url` (http(s)://host:port/prefix/)."""
    scheme, rest = url.split("://", 1)
    ws_scheme = {"http": "ws", "https": "wss"}.get(scheme, scheme)
    return f"{ws_scheme}://{rest.rstrip('/')}/_stcore/stream"


async def session(
    url: str, key: str, seconds: float, pause: float, seed: int, out: Round, timeout: float
) -> None:
    """One simulated student: open the page, then move the slider for `seconds`.

    Every error is counted by its kind and by the run it happened in (the first run or a
    rerun). A run that showed an exception or did not finish is not a latency; the session goes
    on, as a student can. No message in time, or a closed socket, ends the session.
    """
    rng = random.Random(seed)
    phase = "connecting"
    try:
        # No client keepalive pings (see the module's docstring); `timeout` bounds every wait.
        async with websockets.connect(
            url, max_size=None, open_timeout=timeout, ping_interval=None
        ) as socket:
            phase = "first run"
            await socket.send(first_run_message())
            found: dict[str, Slider] = {}
            if failure := await read_run(socket, found, key, timeout):
                out.error(f"{phase}: {failure[0]}", failure[1])
            if key not in found:
                out.error(f"first run: no slider with key {key!r}")
                return
            phase = "rerun"
            until = time.monotonic() + seconds
            await asyncio.sleep(rng.uniform(0, pause))
            while time.monotonic() < until:
                value = float(rng.randrange(0, 101))
                started = time.perf_counter()
                await socket.send(move_message(found[key], value))
                if failure := await read_run(socket, found, key, timeout):
                    out.error(f"{phase}: {failure[0]}", failure[1])
                else:
                    out.latencies.append(time.perf_counter() - started)
                await asyncio.sleep(pause * rng.uniform(0.5, 1.5))
    except TimeoutError:
        out.error(f"{phase}: no message within {timeout:g} s")
    except websockets.ConnectionClosed as error:
        if error.rcvd is not None:
            closed = f"closed by the server (code {error.rcvd.code})"
        elif error.sent is not None:
            closed = f"closed by this client (code {error.sent.code})"
        else:
            closed = "connection lost"
        out.error(f"{phase}: {closed}", str(error))
    except (OSError, websockets.WebSocketException) as error:
        out.error(f"{phase}: {type(error).__name__}", str(error))


async def run_students(
    url: str, key: str, sessions: int, seconds: float, pause: float, timeout: float,
    result: Round, watch: Callable[[], None] | None = None,
) -> None:  # fmt: skip
    """`sessions` simulated students on the app at `url`; `watch()` is called twice a second."""
    ws = stream_url(url)
    students = [session(ws, key, seconds, pause, seed, result, timeout) for seed in range(sessions)]
    gathered = asyncio.gather(*students)
    while not gathered.done():
        if watch is not None:
            watch()
        await asyncio.wait([gathered], timeout=0.5)
    await gathered


async def run_round(
    server: Server,
    key: str,
    sessions: int,
    seconds: float,
    pause: float,
    timeout: float = ANSWER_TIMEOUT,
) -> Round:
    result = Round(sessions)
    cpu_before = server.cpu_seconds()
    tracebacks_before = server.traceback_count()

    def watch() -> None:
        result.peak_rss = max(result.peak_rss, server.rss_bytes())

    await run_students(server.url, key, sessions, seconds, pause, timeout, result, watch)
    reruns = max(1, len(result.latencies) + sessions)  # the first runs cost CPU too
    result.cpu_per_rerun = (server.cpu_seconds() - cpu_before) / reruns
    await asyncio.sleep(SETTLE_SECONDS)
    result.rss_after = server.rss_bytes()
    for _ in range(server.traceback_count() - tracebacks_before):
        result.error("traceback in the server's log", str(server.log_path))
    return result


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0


def latency_ms(values: list[float], which: str) -> float | None:
    """Median or p95 of the rerun latencies in ms; None when no rerun finished (never 0)."""
    if not values:
        return None
    return (statistics.median(values) if which == "median" else _p95(values)) * 1e3


def _ratio(value: float | None, floor: float | None) -> str:
    return f"{value / floor:.2f}x" if value is not None and floor else "-"


def cell(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def error_lines(name: str, round_: Round) -> list[str]:
    """One line per kind of error of a round: how many, and the first message of that kind."""
    return [
        f"{name}, {round_.sessions} sessions: {count} x {kind}" + (f" ({detail})" if detail else "")
        for kind, count, detail in round_.error_counts()
    ]


def report(rounds: dict[str, list[Round]]) -> None:
    print("| sessions | measure | chart floor | calculator | ratio |")
    print("|---|---|---|---|---|")
    for floor, app in zip(rounds["floor"], rounds["calculator"], strict=True):
        n = app.sessions
        rows = [
            ("rerun latency, median (ms)", latency_ms(floor.latencies, "median"),
             latency_ms(app.latencies, "median")),
            ("rerun latency, p95 (ms)", latency_ms(floor.latencies, "p95"),
             latency_ms(app.latencies, "p95")),
            ("reruns", len(floor.latencies), len(app.latencies)),
            ("errors", len(floor.errors), len(app.errors)),
            ("server CPU per rerun (ms)", floor.cpu_per_rerun * 1e3, app.cpu_per_rerun * 1e3),
            ("server RSS, peak (MB)", floor.peak_rss / 1e6, app.peak_rss / 1e6),
            ("server RSS, after close (MB)", floor.rss_after / 1e6, app.rss_after / 1e6),
        ]  # fmt: skip
        for name, left, right in rows:
            ratio = _ratio(right, left) if name not in ("reruns", "errors") else ""
            print(f"| {n} | {name} | {cell(left)} | {cell(right)} | {ratio} |")
    lines = [
        line for name, series in rounds.items() for r in series for line in error_lines(name, r)
    ]
    if lines:
        print("\nerrors by kind:")
        print("\n".join(lines))


async def measure(server: Server, key: str, args: argparse.Namespace) -> list[Round]:
    server.start()
    try:
        server.wait_healthy()
        # The last round three times: memory growth is the third against the second.
        plan = [*args.sessions, *[args.sessions[-1]] * REPEATS]
        timeout = getattr(args, "answer_timeout", ANSWER_TIMEOUT)
        return [await run_round(server, key, n, args.seconds, args.pause, timeout) for n in plan]
    finally:
        server.stop()


def round_dict(round_: Round, *, server: bool = True) -> dict[str, object]:
    """A round's figures for --json; the server's CPU and memory only when it was measured."""
    figures: dict[str, object] = {
        "sessions": round_.sessions,
        "rerun_median_ms": latency_ms(round_.latencies, "median"),
        "rerun_p95_ms": latency_ms(round_.latencies, "p95"),
        "reruns": len(round_.latencies),
        "errors": dict(collections.Counter(round_.errors).most_common()),
    }
    if server:
        figures["server_cpu_per_rerun_ms"] = round_.cpu_per_rerun * 1e3
        figures["server_rss_peak_mb"] = round_.peak_rss / 1e6
        figures["server_rss_after_close_mb"] = round_.rss_after / 1e6
    return figures


async def classroom(url: str, args: argparse.Namespace) -> list[Round]:
    """The rounds of --sessions, once each, on a server or balancer that is already running."""
    rounds = []
    for sessions in args.sessions:
        result = Round(sessions)
        await run_students(
            url, args.key, sessions, args.seconds, args.pause, args.answer_timeout, result
        )
        rounds.append(result)
    return rounds


def report_url(url: str, rounds: list[Round]) -> None:
    print(f"classroom on {url} (client-side figures only)\n")
    print("| sessions | rerun median (ms) | rerun p95 (ms) | reruns | errors |")
    print("|---|---|---|---|---|")
    for r in rounds:
        median, p95 = latency_ms(r.latencies, "median"), latency_ms(r.latencies, "p95")
        print(f"| {r.sessions} | {cell(median)} | {cell(p95)} | {len(r.latencies)} "
              f"| {len(r.errors)} |")  # fmt: skip
    lines = [line for r in rounds for line in error_lines(url, r)]
    if lines:
        print("\nerrors by kind:\n" + "\n".join(lines))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[10, 30, 60])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each round")
    parser.add_argument(
        "--pause", type=float, default=2.0, help="seconds between a session's moves"
    )
    parser.add_argument(
        "--answer-timeout", type=float, default=ANSWER_TIMEOUT,
        help="seconds without any message from the server before a run counts as an error",
    )  # fmt: skip
    parser.add_argument("--app", type=Path, default=ROOT / "app.py")
    parser.add_argument(
        "--url", help="run against this server or balancer, already running (no floor)"
    )
    parser.add_argument("--key", default=PANEL_KEY, help="with --url: the slider to move")
    parser.add_argument("--json", action="store_true", help="print the rounds' figures as JSON")
    return parser.parse_args(argv)


def main() -> None:
    args = parse_args()
    if args.url:
        rounds = asyncio.run(classroom(args.url, args))
        if args.json:
            figures = [round_dict(r, server=False) for r in rounds]
            print(json.dumps({"url": args.url, "rounds": figures}, indent=2))
        else:
            report_url(args.url, rounds)
        return
    scratch = Path(tempfile.mkdtemp(prefix="bench_load_"))
    shutil.copy(Path(__file__).with_name("chart_floor_app.py"), scratch / "chart_floor_app.py")
    logs = ARTIFACTS / "bench"
    floor = Server(scratch / "chart_floor_app.py", scratch, logs / "load_floor.log")
    app = Server(args.app, args.app.parent, logs / "load_calculator.log")
    rounds = {
        "floor": asyncio.run(measure(floor, "value", args)),
        "calculator": asyncio.run(measure(app, PANEL_KEY, args)),
    }
    if args.json:
        figures = {name: [round_dict(r) for r in series] for name, series in rounds.items()}
        print(json.dumps({"rounds": figures}, indent=2))
        return
    report(rounds)
    last, again = rounds["calculator"][-2:]
    growth = (again.rss_after - last.rss_after) / 1e6
    print(f"\ncalculator memory after the {again.sessions}-session round's third run: "
          f"{growth:+.1f} MB against its second")  # fmt: skip


if __name__ == "__main__":
    main()
