"""The calculator page in Chromium, measured beside two floors: Streamlit's text floor (one
slider, one line of text) and the chart floor (one slider, one metric, one Vega-Lite chart).

    python benchmarks/bench_page.py

All three servers run in the same run on this machine, driven by one headless Chromium
(Debian's, ``apt-get install chromium``) on loopback only; both floors run with Streamlit's
default settings from an empty folder. Every figure is printed with its ratio to each floor:
the machine is shared, so ratios travel better than milliseconds. What is measured
(the browser side is in ``page_measures.py``):

- cold start: process start to the first full render (calculator: the cards, the table and
  both charts drawn; floors: their slider and text, or metric and chart), median of
  alternating rounds;
- warm page load: a new browser context (empty cache, new session) on the running server,
  ``goto`` to every output drawn, median of alternating rounds; with the JavaScript each page
  downloads (uncompressed bytes, from the page's Resource Timing entries);
- keypress latency: ArrowRight on a focused slider to the last change of every output it
  affects. b slider: the 2 x 2 table, the four result cards and chart 1; gates slider:
  chart 2; text floor: its text; chart floor: its metric and chart. Each press moves to a
  value not seen before, so the page's caches never answer for it;
- server CPU per rerun: utime + stime of the server process over the single-session presses,
  by their number, less the CPU the server burns anyway while idle (measured just before);
- 10 and 20 concurrent browser sessions (one context each, all in this Chromium): latency
  median and p95, and errors (timeouts, page errors, exception boxes, server tracebacks);
- server resident memory (VmRSS) idle, with one session and with the most browser sessions;
- the protocol load test of ``bench_load.py`` (no browser: simulated sessions speaking
  Streamlit's websocket protocol, each moving a slider every 2 s give or take a random half)
  for 10, 30 and 60 sessions, calculator beside the chart floor, with its errors by kind;
- issue 13's check (``sections_check.py``, skipped with ``--no-sections-check``): the shipped
  page, whose teaching sections are folded, against the same page with them removed
  (``no_teaching_app.py``) and against itself on a second server (the run's noise band):
  b key median and p95, server CPU per rerun; target: at most 1.1x the removed variant;
- issue 15's content check (``content_check.py``, skipped with ``--no-content-check``): cold
  start, warm load and the b key of the shipped page, of the page cut to the content the
  product requires (``required_only_app.py``) and of the chart floor, so that a target the
  required content alone misses is seen to be out of reach, not merely unmet.

The defaults take about 22 minutes on a quiet 2-core machine (measured: 10:41 to 11:03 UTC
on 2026-12-01, load average 0.6; the protocol test is about 9 minutes of it).
``--quick`` sets a short run for a check while working: fewer presses and rounds, 5 browser
sessions, protocol rounds of 10 and 30 sessions for 20 s; an option given beside it still
wins. Progress lines on stderr carry the time since the start.

Targets (issue 15, ratios to the chart floor in the same run): keypress on b median <= 1.25x,
warm load <= 1.3x, cold start <= 1.3x, server CPU per rerun <= 1x; 30 protocol sessions: p95
<= 1.25x and no error; 60: no error and no growth of memory after the sessions close (the
last round run three times: the third leaves at most 2% more resident memory than the second;
the first repeat fills the page's bounded caches).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_load  # noqa: E402
import content_check  # noqa: E402
import sections_check  # noqa: E402
from harness import APP_RENDERED, ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS, ROOT, Server  # noqa: E402
from page_measures import (  # noqa: E402
    APP_OUTPUTS,
    B_SLIDER,
    CHART_FLOOR_OUTPUTS,
    CHART_FLOOR_RENDERED,
    FLOOR_OUTPUTS,
    FLOOR_RENDERED,
    GATES_SLIDER,
    KXK_CELL,
    PressTimeout,
    Target,
    cold_start,
    concurrent,
    idle_rates,
    open_page,
    percentile,
    press,
    warm_load,
)

NAMES = ("floor", "chart", "calculator")  # text floor, chart floor, the app
IDLE_SECONDS = 5.0
MEMORY_GROWTH_TOLERANCE = 0.02  # "no growth": within 2% of the memory after the 2nd run
# On the linear p axis, once the p-values sit near 0 a new b can leave chart 1's drawing the
# same to the pixel (nothing to see, nothing to time); on the log axis every new p shows.
# The gates slider spans 1-50 at the default m = 6, too short for 50 fresh values; from
# m = 101 it spans 1-200 (the gates chart is then on its log-spaced grid).
SINGLE_SESSION_QUERY = "?gates=101&logp=true"
#: Issue 36: the same page with its k x k section open (a page of its own, so that the other
#: measures keep the page as a new visitor sees it, with the section closed).
KXK_QUERY = SINGLE_SESSION_QUERY + "&sq=true"
MB = 1024 * 1024

Row = tuple[str, str, str, str, str, str, str, str]


_STARTED = time.monotonic()


def progress(message: str) -> None:
    """A line on stderr with the minutes and seconds since the run started."""
    minutes, seconds = divmod(int(time.monotonic() - _STARTED), 60)
    print(f"[{minutes:02d}:{seconds:02d}] {message}", file=sys.stderr, flush=True)


def make_target(name: str, app: Path, scratch: Path) -> Target:
    logs = ARTIFACTS / "bench"
    if name == "floor":
        server = Server(scratch / "floor_app.py", scratch, logs / "floor.log")
        return Target("floor", server, FLOOR_RENDERED, FLOOR_OUTPUTS)
    if name == "chart":
        server = Server(scratch / "chart_floor_app.py", scratch, logs / "chart_floor.log")
        return Target(
            "chart", server, CHART_FLOOR_RENDERED, CHART_FLOOR_OUTPUTS,
            press_outputs=("metric", "chart1"),
        )  # fmt: skip
    server = Server(app, app.parent, logs / "calculator.log")
    return Target(
        "calculator", server, APP_RENDERED, APP_OUTPUTS,
        slider=B_SLIDER, press_outputs=("table", "cards", "chart1"), first_a=100,
    )  # fmt: skip


def ratio(value: float, floor: float) -> str:
    return f"{value / floor:.2f}x" if floor else "-"


def row(measure: str, values: dict[str, float], fmt: str, target: str = "", met: str = "") -> Row:
    """One line of the table: the three figures and the calculator's ratio to each floor."""
    app, text, chart = values["calculator"], values["floor"], values["chart"]
    return (
        measure, format(app, fmt), format(text, fmt), format(chart, fmt),
        ratio(app, text), ratio(app, chart), target, met,
    )  # fmt: skip


def verdict(ok: bool) -> str:
    return "yes" if ok else "NO"


HEADS = (
    "measure", "calculator", "text floor", "chart floor", "x text", "x chart", "target", "met",
)  # fmt: skip


def print_table(rows: list[Row], heads: tuple[str, ...] = HEADS) -> None:
    """A Markdown table, so that it can be pasted into the README as it is."""
    widths = [max(len(str(r[i])) for r in [heads, *rows]) for i in range(len(heads))]

    def line(cells: tuple[str, ...]) -> str:
        return (
            "| " + " | ".join(f"{cell:<{w}}" for cell, w in zip(cells, widths, strict=True)) + " |"
        )

    print(line(heads))
    print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    for r in rows:
        print(line(r))


async def single_session(browser, targets: dict[str, Target], presses: int) -> dict:  # noqa: ANN001
    """Interleaved presses in one page of each app, with the servers' CPU per rerun."""
    pages = {
        name: await open_page(browser, t, SINGLE_SESSION_QUERY if name == "calculator" else "")
        for name, t in targets.items()
    }
    # The servers also burn CPU when nobody presses anything (Streamlit's own timers); that
    # rate is measured first and taken out of the per-rerun figure.
    idle_rate = await idle_rates(targets, IDLE_SECONDS)
    started = time.perf_counter()
    cpu_before = {name: t.server.cpu_seconds() for name, t in targets.items()}
    ms: dict[str, list[float]] = {"b": [], "b_below": [], "gates": [], "floor": [], "chart": []}
    timeouts = dict.fromkeys(targets, 0)
    plan = [
        ("calculator", B_SLIDER, ("table", "cards", "chart1"), "b"),
        # The same key, timed until the sections below (the odds ratio) follow it too.
        ("calculator", B_SLIDER, ("table", "cards", "chart1", "below"), "b_below"),
        ("calculator", GATES_SLIDER, ("chart2",), "gates"),
        ("floor", targets["floor"].slider, ("text",), "floor"),
        ("chart", targets["chart"].slider, ("metric", "chart1"), "chart"),
    ]
    # Interleaved, so that other load on the machine falls on every app alike.
    for _ in range(presses):
        for name, slider, outputs, out in plan:
            try:
                ms[out].append(await press(pages[name], slider, outputs))
            except PressTimeout:
                timeouts[name] += 1
    elapsed = time.perf_counter() - started
    # Per key press (a count key runs the panel's fragment and then the sections below).
    reruns = {"calculator": 3 * presses, "floor": presses, "chart": presses}
    raw = {
        name: (t.server.cpu_seconds() - cpu_before[name]) / reruns[name]
        for name, t in targets.items()
    }
    cpu = {name: raw[name] - idle_rate[name] * elapsed / reruns[name] for name in targets}
    rss = {name: t.server.rss_bytes() for name, t in targets.items()}
    for page in pages.values():
        await page.context.close()
    return {"ms": ms, "timeouts": timeouts, "idle": idle_rate, "cpu": cpu, "rss": rss}


async def kxk_session(browser, target: Target, presses: int) -> dict:  # noqa: ANN001
    """Issue 36: in one calculator page with the k x k section open, the b key and ArrowUp in
    a grid cell, alternating, so that the two keys meet the same load; None for a timeout."""
    page = await open_page(browser, target, KXK_QUERY)
    plan = (
        ("b", B_SLIDER, ("table", "cards", "chart1"), "ArrowRight"),
        ("kxk", KXK_CELL, ("kxk",), "ArrowUp"),
    )
    ms: dict[str, list[float | None]] = {"b": [], "kxk": []}
    for _ in range(presses):
        for out, selector, outputs, key in plan:
            try:
                ms[out].append(await press(page, selector, outputs, key=key))
            except PressTimeout:
                ms[out].append(None)
    await page.context.close()
    return ms


def kxk_rows(ms: dict[str, list[float | None]]) -> list[tuple[str, ...]]:
    """The k x k key beside the b key: medians, p95 and their ratio, timeouts."""
    done = {name: [v for v in values if v is not None] for name, values in ms.items()}
    med = {name: statistics.median(values) for name, values in done.items() if values}
    if len(med) < 2:
        return [("k x k cell key: no press completed", "-", "-", "-", "", "")]
    ok = med["kxk"] <= med["b"]
    return [
        (f"key -> its outputs: median of {len(done['kxk'])} (ms)", f"{med['b']:.0f}",
         f"{med['kxk']:.0f}", ratio(med["kxk"], med["b"]), "<= 1x b key", verdict(ok)),
        ("key: p95 (ms)", f"{percentile(done['b'], 95):.0f}",
         f"{percentile(done['kxk'], 95):.0f}",
         ratio(percentile(done["kxk"], 95), percentile(done["b"], 95)), "", ""),
        ("presses timed out", str(ms["b"].count(None)), str(ms["kxk"].count(None)), "", "0",
         verdict(ms["kxk"].count(None) == 0)),
    ]  # fmt: skip


KXK_HEADS = ("measure", "b key (2 x 2)", "k x k cell key", "k x k / b", "target", "met")


async def browser_measures(args: argparse.Namespace, scratch: Path) -> dict:
    cold: dict[str, list[float]] = {name: [] for name in NAMES}
    warm: dict[str, list[float]] = {name: [] for name in NAMES}
    js: dict[str, int] = {}
    idle_rss: dict[str, int] = {}
    targets: dict[str, Target] = {}
    loads: dict[tuple[str, int], dict[str, object]] = {}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS)
        )
        try:
            for round_ in range(args.cold_rounds):
                for name in NAMES:
                    target = make_target(name, args.app, scratch)
                    seconds, idle_rss[name] = await cold_start(browser, target)
                    cold[name].append(seconds)
                    if round_ < args.cold_rounds - 1:
                        target.server.stop()
                    else:
                        targets[name] = target
            progress(f"cold starts (s): {json.dumps(cold)}")
            for _ in range(args.warm_rounds):
                for name in NAMES:
                    seconds, js[name] = await warm_load(browser, targets[name])
                    warm[name].append(seconds)
            progress(f"warm loads (s): {json.dumps(warm)}")
            single = await single_session(browser, targets, args.presses)
            progress("single session done")
            kxk = await kxk_session(browser, targets["calculator"], args.presses)
            progress(f"k x k key beside the b key (ms): {json.dumps(kxk)}")
            for sessions in args.sessions:
                for name in NAMES:
                    loads[name, sessions] = await asyncio.wait_for(
                        concurrent(browser, targets[name], sessions, args.session_presses),
                        timeout=900,
                    )
                    progress(f"{sessions} sessions, {name}: {loads[name, sessions]}")
                targets["calculator"].first_a += sessions
        finally:
            await browser.close()
            for target in targets.values():
                target.server.stop()
    errors = {name: t.errors for name, t in targets.items()}
    return {
        "cold": cold, "warm": warm, "js": js, "idle_rss": idle_rss, "single": single,
        "loads": loads, "errors": errors, "kxk": kxk,
    }  # fmt: skip


def protocol_load(args: argparse.Namespace, scratch: Path) -> dict[str, list[bench_load.Round]]:
    """bench_load's simulated classroom, on fresh servers of the chart floor and the app."""
    options = argparse.Namespace(
        sessions=args.load_sessions, seconds=args.load_seconds, pause=args.load_pause
    )
    rounds = {}
    for name, key in (("chart", "value"), ("calculator", bench_load.PANEL_KEY)):
        server = make_target(name, args.app, scratch).server
        rounds[name] = asyncio.run(bench_load.measure(server, key, options))
        progress(f"protocol load, {name} done")
    return rounds


def browser_rows(args: argparse.Namespace, m: dict) -> list[Row]:
    med = statistics.median
    cold = {name: med(values) for name, values in m["cold"].items()}
    warm = {name: med(values) for name, values in m["warm"].items()}
    s = m["single"]
    press_ms = {"calculator": s["ms"]["b"], "floor": s["ms"]["floor"], "chart": s["ms"]["chart"]}
    gates_ms = {**press_ms, "calculator": s["ms"]["gates"]}
    key_median = {name: med(values) for name, values in press_ms.items()}
    rows = [
        row(f"cold start, median of {args.cold_rounds} (s)", cold, ".2f", "<= 1.3x chart",
            verdict(cold["calculator"] <= 1.3 * cold["chart"])),
        row(f"warm page load, median of {args.warm_rounds} (s)", warm, ".2f", "<= 1.3x chart",
            verdict(warm["calculator"] <= 1.3 * warm["chart"])),
        row("JavaScript downloaded by a new visitor (MB)",
            {name: value / MB for name, value in m["js"].items()}, ".1f"),
        row(f"b key -> table, cards, chart 1: median of {args.presses} (ms)", key_median, ".0f",
            "<= 1.25x chart", verdict(key_median["calculator"] <= 1.25 * key_median["chart"])),
        row("b key: p95 (ms)", {n: percentile(v, 95) for n, v in press_ms.items()}, ".0f"),
        row(f"b key -> the sections below too (odds ratio): median of {args.presses} (ms)",
            {**key_median, "calculator": med(s["ms"]["b_below"])}, ".0f"),
        row(f"gates key -> chart 2: median of {args.presses} (ms)",
            {n: med(v) for n, v in gates_ms.items()}, ".0f"),
        row("gates key: p95 (ms)", {n: percentile(v, 95) for n, v in gates_ms.items()}, ".0f"),
        row("server CPU while idle (ms per s)", {n: v * 1e3 for n, v in s["idle"].items()}, ".1f"),
        row("server CPU per key, idle taken out (ms)", {n: v * 1e3 for n, v in s["cpu"].items()},
            ".1f", "<= 1x chart", verdict(s["cpu"]["calculator"] <= s["cpu"]["chart"])),
        row("single session: presses timed out", s["timeouts"], "d", "0",
            verdict(s["timeouts"]["calculator"] == 0)),
    ]  # fmt: skip
    for sessions in args.sessions:
        load = {name: m["loads"][name, sessions] for name in NAMES}
        presses = load["calculator"]["presses"]
        rows += [
            row(f"{sessions} browser sessions, {presses} presses: median (ms)",
                {n: v["median_ms"] for n, v in load.items()}, ".0f"),
            row(f"{sessions} browser sessions: p95 (ms)",
                {n: v["p95_ms"] for n, v in load.items()}, ".0f"),
            row(f"{sessions} browser sessions: errors", {n: v["errors"] for n, v in load.items()},
                "d", "0", verdict(load["calculator"]["errors"] == 0)),
        ]  # fmt: skip
    rows += [
        row("server RSS idle (MB)", {n: v / MB for n, v in m["idle_rss"].items()}, ".0f"),
        row("server RSS, 1 session (MB)", {n: v / MB for n, v in s["rss"].items()}, ".0f"),
    ]  # fmt: skip
    if args.sessions:
        top = max(args.sessions)
        rows.append(
            row(f"server RSS, {top} browser sessions (MB)",
                {n: m["loads"][n, top]["rss"] / MB for n in NAMES}, ".0f")
        )  # fmt: skip
    return rows


def protocol_rows(rounds: dict[str, list[bench_load.Round]]) -> list[Row]:
    """The protocol load test: calculator beside the chart floor (no text floor: n/a).

    A round in which no rerun finished has no latency: "-", never 0.
    """
    rows: list[Row] = []

    def cell(value: float | None, fmt: str) -> str:
        return "-" if value is None else format(value, fmt)

    def line(measure: str, app, chart, fmt: str, target="", met="") -> Row:  # noqa: ANN001
        shown = ratio(app, chart) if app is not None and chart is not None else "-"
        return (
            measure, cell(app, fmt), "", cell(chart, fmt), "", shown, target, met,
        )  # fmt: skip

    latency = bench_load.latency_ms
    measured = slice(0, -bench_load.REPEATS)  # the repeats of the last round give the growth
    for app, chart in zip(rounds["calculator"][measured], rounds["chart"][measured], strict=True):
        n = app.sessions
        p95_target = n == 30
        app_p95, chart_p95 = latency(app.latencies, "p95"), latency(chart.latencies, "p95")
        p95_met = app_p95 is not None and chart_p95 is not None and app_p95 <= 1.25 * chart_p95
        rows += [
            line(f"{n} protocol sessions: rerun median (ms)",
                 latency(app.latencies, "median"), latency(chart.latencies, "median"), ".0f"),
            line(f"{n} protocol sessions: rerun p95 (ms)", app_p95, chart_p95, ".0f",
                 "<= 1.25x chart" if p95_target else "",
                 verdict(p95_met) if p95_target else ""),
            line(f"{n} protocol sessions: reruns",
                 len(app.latencies), len(chart.latencies), "d"),
            line(f"{n} protocol sessions: errors", len(app.errors), len(chart.errors), "d",
                 "0", verdict(not app.errors)),
            line(f"{n} protocol sessions: server CPU per rerun (ms)",
                 app.cpu_per_rerun * 1e3, chart.cpu_per_rerun * 1e3, ".1f"),
            line(f"{n} protocol sessions: RSS peak (MB)", app.peak_rss / MB, chart.peak_rss / MB,
                 ".0f"),
            line(f"{n} protocol sessions: RSS after close (MB)", app.rss_after / MB,
                 chart.rss_after / MB, ".0f"),
        ]  # fmt: skip
    first, again = rounds["calculator"][-2:]
    chart_first, chart_again = rounds["chart"][-2:]
    growth = again.rss_after - first.rss_after
    chart_growth = chart_again.rss_after - chart_first.rss_after
    rows.append(
        (f"{again.sessions} protocol sessions, 3rd run against 2nd: RSS after close (MB)",
         f"{growth / MB:+.1f}", "", f"{chart_growth / MB:+.1f}", "", "", "no growth",
         verdict(growth <= MEMORY_GROWTH_TOLERANCE * first.rss_after
                 and not first.errors and not again.errors))
    )  # fmt: skip
    return rows


#: ``--quick``: a short run for a check while working (an option given beside it still wins).
QUICK = {
    "presses": 10,
    "cold_rounds": 2,
    "warm_rounds": 2,
    "sessions": [5],
    "session_presses": 5,
    "load_sessions": [10, 30],
    "load_seconds": 20.0,
}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--app", type=Path, default=ROOT / "app.py", help="the app to measure (run from its folder)"
    )
    parser.add_argument(
        "--presses", type=int, default=30,
        help="single-session presses per slider (and per page in issue 13's check)",
    )  # fmt: skip
    parser.add_argument("--cold-rounds", type=int, default=3, help="cold starts of each app")
    parser.add_argument("--warm-rounds", type=int, default=5, help="warm loads of each app")
    parser.add_argument(
        "--sessions", type=int, nargs="+", default=[10, 20],
        help="concurrent browser sessions (0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--session-presses", type=int, default=5, help="presses per concurrent browser session"
    )
    parser.add_argument(
        "--load-sessions", type=int, nargs="+", default=[10, 30, 60],
        help="protocol load rounds (0: no protocol load test)",
    )  # fmt: skip
    parser.add_argument("--load-seconds", type=float, default=30.0, help="protocol round length")
    parser.add_argument("--load-pause", type=float, default=2.0, help="seconds between moves")
    parser.add_argument(
        "--no-sections-check", action="store_true",
        help="skip issue 13's check (shipped page against the page without teaching sections)",
    )  # fmt: skip
    parser.add_argument(
        "--no-content-check", action="store_true",
        help="skip issue 15's check (shipped page against the page cut to its required content)",
    )  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="a short run: " + ", ".join(
        f"--{name.replace('_', '-')} {' '.join(map(str, v)) if isinstance(v, list) else v}"
        for name, v in QUICK.items()
    ))  # fmt: skip
    if parser.parse_known_args()[0].quick:
        parser.set_defaults(**QUICK)
    args = parser.parse_args()
    args.sessions = [n for n in args.sessions if n > 0]
    args.load_sessions = [n for n in args.load_sessions if n > 0]
    return args


def header() -> str:
    return (
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{len(os.sched_getaffinity(0))} cores, load average {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    args = parse_args()
    started = header()
    scratch = Path(tempfile.mkdtemp(prefix="bench_page_"))
    # The floors run from an empty folder: Streamlit's defaults, not this project's config.
    for script in ("floor_app.py", "chart_floor_app.py"):
        shutil.copy(Path(__file__).with_name(script), scratch / script)
    sections = None
    content = None
    rounds = None
    try:
        measured = asyncio.run(browser_measures(args, scratch))
        if not args.no_sections_check:
            sections = asyncio.run(sections_check.run(args.app, SINGLE_SESSION_QUERY, args.presses))
            progress("sections check done")
        if not args.no_content_check:
            content = asyncio.run(
                content_check.run(args, SINGLE_SESSION_QUERY, scratch / "chart_floor_app.py")
            )
            progress("content check done")
        if args.load_sessions:
            rounds = protocol_load(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"\n$ python benchmarks/bench_page.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"started {started}; finished {header()}\n")
    print_table(browser_rows(args, measured) + (protocol_rows(rounds) if rounds else []))
    for name, errors in measured["errors"].items():
        if errors:
            print(f"\n{name}: {len(errors)} page errors, first: {errors[0]}")
    if rounds:
        lines = [
            line
            for name, series in rounds.items()
            for round_ in series
            for line in bench_load.error_lines(f"{name}, protocol", round_)
        ]
        if lines:
            print("\nprotocol load errors by kind (count x kind, first message):")
            print("\n".join(lines))
    print(
        "\nIssue 36: the k x k section open (?sq=true), ArrowUp in its grid cell (row 1, column"
        " 2)\nto its results redrawn, beside the b key to the 2 x 2's outputs, alternating in"
        " one page:\n"
    )
    print_table(kxk_rows(measured["kxk"]), KXK_HEADS)
    if sections is not None:
        print(
            "\nIssue 13: the teaching sections folded as shipped, against the same page without"
            " them\nand against itself on a second server (the noise band of this run):\n"
        )
        print_table(sections_check.rows(sections, args.presses), sections_check.HEADS)
    if content is not None:
        print(
            "\nIssue 15: the shipped page, the page cut to the content the product requires"
            " (required_only_app.py)\nand the chart floor, in this run:\n"
        )
        print_table(content_check.rows(content, args), content_check.HEADS)


if __name__ == "__main__":
    main()
