"""A lecture hall on one machine: one server against replicas behind HAProxy, in one run.

    python benchmarks/bench_replicas.py [--sessions 60] [--replicas 2] [--seconds 30]
                                        [--repeats 1] [--json]

The same classroom as ``bench_load.py`` (simulated sessions speaking Streamlit's protocol, each
moving the calculator's b slider every ``--pause`` s give or take half of it, for ``--seconds``)
runs twice on this machine: against one ``streamlit run app.py``, then against
``python -m deploy.serve --replicas N`` (N servers behind HAProxy, every session's websocket
through the balancer). Both are started fresh from this clone and stopped after their round.
With ``--repeats N`` each setup runs N rounds, alternating which goes first (A B, B A, ...),
and the figures pool the rounds' reruns; each round's p95 is printed as it ends.

Target (issue 26): through the balancer, rerun p95 at most 0.6x one server's, with 0 errors.
One server uses one core, so two replicas can at best halve the wait of a classroom that keeps
one core busy; the client that simulates the sessions runs on the same machine, and so does
whatever else is running: the load average before and after is printed beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench_load  # noqa: E402
from harness import ARTIFACTS, ROOT, Server  # noqa: E402

from deploy.launcher import launched  # noqa: E402

TARGET_RATIO = 0.6
KEY = bench_load.PANEL_KEY


def load_line(when: str) -> str:
    one, five, fifteen = os.getloadavg()
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    return (
        f"{when} {stamp}, {os.cpu_count()} cores, load average {one:.1f} {five:.1f} {fifteen:.1f}"
    )


async def _classroom(url: str, args: argparse.Namespace) -> bench_load.Round:
    result = bench_load.Round(args.sessions)
    await bench_load.run_students(
        url, KEY, args.sessions, args.seconds, args.pause, args.answer_timeout, result
    )
    return result


def one_server(args: argparse.Namespace) -> bench_load.Round:
    server = Server(ROOT / "app.py", ROOT, ARTIFACTS / "bench" / "replicas_single.log")
    server.start()
    try:
        server.wait_healthy()
        result = asyncio.run(_classroom(server.url, args))
    finally:
        server.stop()
    for _ in range(server.traceback_count()):
        result.error("traceback in the server's log", str(server.log_path))
    return result


def behind_balancer(args: argparse.Namespace) -> bench_load.Round:
    logs = ARTIFACTS / "bench" / "replicas_serve"
    with launched(args.replicas, None, "--log-dir", str(logs)) as served:
        result = asyncio.run(_classroom(served.url, args))
    left = served.left_running()
    if left:
        result.error("process left running after deploy.serve stopped", str(left))
    for log in sorted(logs.glob("replica-*.log")):
        for _ in range(log.read_text(errors="replace").count("Traceback (most recent call")):
            result.error("traceback in a replica's log", str(log))
    return result


def verdict(single: bench_load.Round, balanced: bench_load.Round) -> tuple[float | None, bool]:
    """(p95 through the balancer / p95 of one server, whether the target holds)."""
    p95_single = bench_load.latency_ms(single.latencies, "p95")
    p95_balanced = bench_load.latency_ms(balanced.latencies, "p95")
    if not p95_single or p95_balanced is None:
        return None, False
    ratio = p95_balanced / p95_single
    errors = len(single.errors) + len(balanced.errors)
    return ratio, ratio <= TARGET_RATIO and errors == 0


def report(args: argparse.Namespace, rounds: dict[str, bench_load.Round], loads: list[str]) -> None:
    ratio, met = verdict(rounds["one server"], rounds[f"{args.replicas} replicas"])
    print("\n".join(loads))
    print(
        f"\n{args.sessions} protocol sessions, a move every {args.pause:g} s (+-50%), "
        f"{args.seconds:g} s\n"
    )
    print("| setup | rerun median (ms) | rerun p95 (ms) | reruns | errors |")
    print("|---|---|---|---|---|")
    for name, r in rounds.items():
        median = bench_load.latency_ms(r.latencies, "median")
        p95 = bench_load.latency_ms(r.latencies, "p95")
        print(f"| {name} | {bench_load.cell(median)} | {bench_load.cell(p95)} "
              f"| {len(r.latencies)} | {len(r.errors)} |")  # fmt: skip
    shown = "-" if ratio is None else f"{ratio:.2f}x"
    print(f"\np95 through the balancer / one server: {shown} "
          f"(target <= {TARGET_RATIO}x with 0 errors): {'met' if met else 'NOT met'}")  # fmt: skip
    lines = [line for name, r in rounds.items() for line in bench_load.error_lines(name, r)]
    if lines:
        print("\nerrors by kind:\n" + "\n".join(lines))


def pooled(rounds: list[bench_load.Round]) -> bench_load.Round:
    """The rounds of one setup as one: their latencies and errors together."""
    result = bench_load.Round(rounds[0].sessions)
    for r in rounds:
        result.latencies.extend(r.latencies)
        for kind in r.errors:
            result.error(kind, r.examples.get(kind, ""))
    return result


def run(args: argparse.Namespace) -> dict[str, bench_load.Round]:
    """Each setup `--repeats` times, in the order A B, B A, A B, ...; each round printed."""
    setups = {"one server": one_server, f"{args.replicas} replicas": behind_balancer}
    measured: dict[str, list[bench_load.Round]] = {name: [] for name in setups}
    for repeat in range(args.repeats):
        order = list(setups) if repeat % 2 == 0 else list(setups)[::-1]
        for name in order:
            result = setups[name](args)
            measured[name].append(result)
            p95 = bench_load.latency_ms(result.latencies, "p95")
            print(f"{name}, round {repeat + 1}: p95 {bench_load.cell(p95)} ms, "
                  f"{len(result.errors)} errors; {load_line('at')}", file=sys.stderr)  # fmt: skip
    return {name: pooled(rounds) for name, rounds in measured.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=60)
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each round")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between moves")
    parser.add_argument("--answer-timeout", type=float, default=bench_load.ANSWER_TIMEOUT)
    parser.add_argument(
        "--repeats", type=int, default=1,
        help="rounds of each setup, alternating which goes first; the figures pool them",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    loads = [load_line("started")]
    rounds = run(args)
    loads.append(load_line("finished"))
    if args.json:
        ratio, met = verdict(*rounds.values())
        figures = {name: bench_load.round_dict(r, server=False) for name, r in rounds.items()}
        print(json.dumps({"load": loads, "rounds": figures, "p95_ratio": ratio, "met": met}))
    else:
        report(args, rounds, loads)


if __name__ == "__main__":
    main()
