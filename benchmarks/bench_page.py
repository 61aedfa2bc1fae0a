"""The calculator page in Chromium, measured beside Streamlit's floor (a one-slider app).

    python benchmarks/bench_page.py

Both servers run in the same run on this machine, driven by one headless Chromium (Debian's,
``apt-get install chromium``) on loopback only, and every figure is printed with its ratio to
the floor's: the machine is shared, so ratios travel better than milliseconds.

- cold start: process start to the first full render (calculator: seven cards, the table and
  both charts drawn; floor: slider and text), median of alternating rounds;
- keypress latency: ArrowRight on a focused slider to the last change of every output it
  affects, timed inside the page (a capture-phase keydown listener and a MutationObserver on
  the same clock). b slider: the 2 x 2 table, the four result cards and chart 1; gates
  slider: chart 2; floor: its text. Each press moves to a value not seen before, so the page's
  caches never answer for it;
- server CPU per rerun: utime + stime of the server process (/proc/<pid>/stat) over the
  single-session presses, divided by their number (one rerun per press), less the CPU the
  server burns anyway while idle (measured over a quiet spell just before);
- 10 and 20 concurrent sessions (one browser context each, all in this Chromium) pressing
  the b slider (floor: its slider): latency median and p95, and errors (timeouts, page errors,
  Streamlit exception boxes, tracebacks in the server log);
- server resident memory (VmRSS) idle, with one session and with 20 sessions.

Targets (issue 4): keypress-to-chart median <= 2x the floor's keypress-to-text median; server
CPU <= 20 ms per rerun; 10 sessions p95 < 1 s with no error; 20 sessions with no error; cold
start <= 1.5x the floor's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # noqa: E402
    APP_RENDERED,
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_FLAGS,
    ROOT,
    Server,
)

VIEWPORT = {"width": 1400, "height": 900}
QUIET_MS = 200  # a press is over when the script is idle and no output changed for this long
PRESS_TIMEOUT_MS = 15_000
OPEN_TIMEOUT_MS = 120_000
OPENING_AT_ONCE = 4
IDLE_SECONDS = 5.0
# On the linear p axis, once the p-values sit near 0 a new b can leave chart 1's drawing the
# same to the pixel (nothing to see, nothing to time); on the log axis every new p shows.
SINGLE_SESSION_QUERY = "?gates=101&logp=true"

FLOOR_RENDERED = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('[data-testid=stSlider]') !== null
    && document.querySelector('[data-testid=stMarkdownContainer] p') !== null;
}"""

# How each output reads in the page; a change of this string is a change of the output.
APP_OUTPUTS = {
    "table": "return document.querySelector('table[aria-label=\"Paired 2 by 2 table\"]').innerText",
    "cards": "return ['difference', 'chi2', 'exact', 'unpaired']"
    ".map(k => document.querySelector('.st-key-card_' + k).innerText).join('|')",
    "chart1": "return chartDrawing(0)",
    "chart2": "return chartDrawing(1)",
}
# A chart as drawn: its description, its lines and its rules (cheap enough to read on every
# mutation, even in twenty pages at once).
CHART_DRAWING = """(index) => {
  const chart = document.querySelectorAll('[data-testid=stVegaLiteChart]')[index];
  const svg = chart.querySelector('svg');
  return chart.getAttribute('aria-label') + '|'
    + Array.from(svg.querySelectorAll('.mark-line path'), path => path.getAttribute('d')).join()
    + '|' + Array.from(svg.querySelectorAll('.mark-rule line'),
                       line => line.getAttribute('transform')).join();
}"""
FLOOR_OUTPUTS = {
    "text": "return Array.from(document.querySelectorAll('[data-testid=stMarkdownContainer] p'))"
    ".map(p => p.innerText).filter(t => t.startsWith('The slider')).join('|')",
}
B_SLIDER = ".st-key-b_slider input[type=range]"
GATES_SLIDER = ".st-key-gates_slider input[type=range]"
FLOOR_SLIDER = ".st-key-value input[type=range]"

# Installed in each page: records the keydown time and, through a MutationObserver, when each
# output last changed, all on the page's own clock (performance.now()).
RECORDER = r"""([outputs, chartDrawingSource]) => {
  const chartDrawing = eval(chartDrawingSource);
  const reads = {};
  for (const [name, body] of Object.entries(outputs)) {
    reads[name] = new Function('chartDrawing', body).bind(null, chartDrawing);
  }
  const read = (name) => { try { return reads[name]() ?? ''; } catch (error) { return ''; } };
  const R = { armed: false, t0: null, base: {}, last: {}, changedAt: {} };
  const scan = () => {
    const now = performance.now();
    for (const name of Object.keys(reads)) {
      const value = read(name);
      if (value !== R.last[name]) {
        R.last[name] = value;
        if (R.t0 !== null) R.changedAt[name] = now;
      }
    }
  };
  R.arm = () => {
    R.t0 = null;
    R.changedAt = {};
    for (const name of Object.keys(reads)) R.base[name] = R.last[name] = read(name);
    R.armed = true;
  };
  R.done = (expect, quietMs) => {
    if (R.t0 === null) return false;
    const app = document.querySelector('[data-testid=stApp]');
    if (app === null || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    for (const name of expect) if (R.last[name] === R.base[name]) return false;
    return performance.now() - Math.max(R.t0, ...Object.values(R.changedAt)) >= quietMs;
  };
  R.latency = (names) => Math.max(...names.map(name => R.changedAt[name] - R.t0));
  window.addEventListener('keydown', () => {
    if (R.armed) { R.armed = false; R.t0 = performance.now(); }
  }, true);
  new MutationObserver(scan).observe(document.body,
    { subtree: true, childList: true, attributes: true, characterData: true });
  window.__bench = R;
}"""


@dataclass
class Target:
    """One of the two apps under test."""

    name: str
    server: Server
    rendered: str
    outputs: dict[str, str]
    errors: list[str] = field(default_factory=list)


class PressTimeout(Exception):
    pass


async def open_page(browser: Browser, target: Target, query: str = "") -> Page:
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    page.on("pageerror", lambda error: target.errors.append(f"page error: {error}"))
    await page.goto(target.server.url + query, timeout=OPEN_TIMEOUT_MS)
    await page.wait_for_function(target.rendered, polling=50, timeout=OPEN_TIMEOUT_MS)
    await page.evaluate(RECORDER, [target.outputs, CHART_DRAWING])
    return page


async def press(page: Page, slider: str, outputs: list[str]) -> float:
    """ArrowRight on `slider`; milliseconds from keydown until the last of `outputs` changed."""
    await page.locator(slider).focus()
    await page.evaluate("() => window.__bench.arm()")
    await page.keyboard.press("ArrowRight")
    try:
        await page.wait_for_function(
            f"() => window.__bench.done({json.dumps(outputs)}, {QUIET_MS})",
            polling=50,
            timeout=PRESS_TIMEOUT_MS,
        )
    except PlaywrightTimeout as error:
        raise PressTimeout(slider) from error
    return await page.evaluate(f"() => window.__bench.latency({json.dumps(outputs)})")


async def cold_start(browser: Browser, target: Target) -> tuple[float, int]:
    """Seconds from process start to the first full render, and the idle RSS before it."""
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    started = time.perf_counter()
    target.server.start()
    target.server.wait_healthy()
    idle_rss = target.server.rss_bytes()
    await page.goto(target.server.url)
    await page.wait_for_function(target.rendered, polling="raf", timeout=120_000)
    seconds = time.perf_counter() - started
    await context.close()
    return seconds, idle_rss


async def concurrent(
    browser: Browser, target: Target, sessions: int, presses: int, first_a: int
) -> dict[str, object]:
    """`sessions` browser contexts, each pressing the b slider `presses` times at once."""
    slider, outputs = (
        (FLOOR_SLIDER, ["text"])
        if target.name == "floor"
        else (B_SLIDER, ["table", "cards", "chart1"])
    )
    tracebacks_before = target.server.traceback_count()
    errors_before = len(target.errors)
    # Each calculator session starts from its own a, so no press finds its result cached.
    queries = [
        "" if target.name == "floor" else f"?a={first_a + index}&logp=true"
        for index in range(sessions)
    ]
    # A few at a time: twenty pages loading at once on two cores measure the browser, not the app.
    opening = asyncio.Semaphore(OPENING_AT_ONCE)
    failed_opens = 0

    async def open_one(query: str) -> Page | None:
        nonlocal failed_opens
        async with opening:
            try:
                return await open_page(browser, target, query)
            except PlaywrightTimeout:
                failed_opens += 1
                return None

    opened = await asyncio.gather(*(open_one(query) for query in queries))
    pages = [page for page in opened if page is not None]
    latencies: list[float] = []
    timeouts = failed_opens

    async def session(index: int, page: Page) -> None:
        nonlocal timeouts
        await asyncio.sleep(0.1 * index)  # people do not press in step
        for _ in range(presses):
            try:
                latencies.append(await press(page, slider, outputs))
            except PressTimeout:
                timeouts += 1

    await asyncio.gather(*(session(index, page) for index, page in enumerate(pages)))
    rss = target.server.rss_bytes()
    exception_boxes = 0
    for page in pages:
        exception_boxes += await page.locator('[data-testid="stException"]').count()
    for context in browser.contexts:
        await context.close()
    errors = (
        timeouts
        + exception_boxes
        + (len(target.errors) - errors_before)
        + (target.server.traceback_count() - tracebacks_before)
    )
    return {
        "median_ms": statistics.median(latencies) if latencies else float("nan"),
        "p95_ms": percentile(latencies, 95),
        "errors": errors,
        "presses": sessions * presses,
        "rss": rss,
    }


def percentile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def ratio(value: float, floor: float) -> str:
    return f"{value / floor:.2f}x" if floor else "-"


def print_table(rows: list[tuple[str, str, str, str, str, str]]) -> None:
    """A Markdown table, so that it can be pasted into the README as it is."""
    heads = ("measure", "calculator", "floor", "ratio", "target", "met")
    widths = [max(len(str(row[i])) for row in [heads, *rows]) for i in range(len(heads))]

    def line(cells: tuple[str, ...]) -> str:
        return (
            "| " + " | ".join(f"{cell:<{w}}" for cell, w in zip(cells, widths, strict=True)) + " |"
        )

    print(line(heads))
    print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    for row in rows:
        print(line(row))


async def run(args: argparse.Namespace) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="bench_page_"))
    # The floor runs from an empty folder: Streamlit's defaults, not this project's config.
    shutil.copy(Path(__file__).with_name("floor_app.py"), scratch / "floor_app.py")
    logs = ARTIFACTS / "bench"

    def fresh(name: str) -> Target:
        if name == "floor":
            server = Server(scratch / "floor_app.py", scratch, logs / "floor.log")
            return Target("floor", server, FLOOR_RENDERED, FLOOR_OUTPUTS)
        server = Server(args.app, args.app.parent, logs / "calculator.log")
        return Target("calculator", server, APP_RENDERED, APP_OUTPUTS)

    cold: dict[str, list[float]] = {"calculator": [], "floor": []}
    idle_rss: dict[str, int] = {}
    targets: dict[str, Target] = {}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS)
        )
        try:
            for round_ in range(args.cold_rounds):
                for name in ("floor", "calculator"):
                    target = fresh(name)
                    seconds, idle_rss[name] = await cold_start(browser, target)
                    cold[name].append(seconds)
                    if round_ < args.cold_rounds - 1:
                        target.server.stop()
                    else:
                        targets[name] = target
            app, floor = targets["calculator"], targets["floor"]
            print(f"cold starts (s): {json.dumps(cold)}", file=sys.stderr)

            # The gates slider spans 1-50 at the default m = 6, too short for 50 fresh values;
            # from m = 101 it spans 1-200 (the gates chart is then on its log-spaced grid).
            # Chart 1 on its log p axis: see SINGLE_SESSION_QUERY.
            app_page = await open_page(browser, app, SINGLE_SESSION_QUERY)
            floor_page = await open_page(browser, floor)
            # Both servers also burn CPU when nobody presses anything (Streamlit polls its
            # config files); that rate is measured first and taken out of the per-rerun figure.
            idle_started = time.perf_counter()
            idle_cpu = {name: t.server.cpu_seconds() for name, t in targets.items()}
            await asyncio.sleep(IDLE_SECONDS)
            idle_elapsed = time.perf_counter() - idle_started
            idle_rate = {
                name: (t.server.cpu_seconds() - idle_cpu[name]) / idle_elapsed
                for name, t in targets.items()
            }
            started = time.perf_counter()
            cpu_app, cpu_floor = app.server.cpu_seconds(), floor.server.cpu_seconds()
            b_ms, gates_ms, floor_ms = [], [], []
            # Interleaved, so that other load on the machine falls on both apps alike.
            single_timeouts = {"calculator": 0, "floor": 0}
            for _ in range(args.presses):
                for page, slider, outputs, out, name in (
                    (app_page, B_SLIDER, ["table", "cards", "chart1"], b_ms, "calculator"),
                    (app_page, GATES_SLIDER, ["chart2"], gates_ms, "calculator"),
                    (floor_page, FLOOR_SLIDER, ["text"], floor_ms, "floor"),
                ):
                    try:
                        out.append(await press(page, slider, outputs))
                    except PressTimeout:
                        single_timeouts[name] += 1
            elapsed = time.perf_counter() - started
            raw_app = (app.server.cpu_seconds() - cpu_app) / (2 * args.presses)
            raw_floor = (floor.server.cpu_seconds() - cpu_floor) / args.presses
            cpu_app = raw_app - idle_rate["calculator"] * elapsed / (2 * args.presses)
            cpu_floor = raw_floor - idle_rate["floor"] * elapsed / args.presses
            one_rss = {name: t.server.rss_bytes() for name, t in targets.items()}
            await app_page.context.close()
            await floor_page.context.close()
            print("single session done", file=sys.stderr)

            loads: dict[tuple[str, int], dict[str, object]] = {}
            first_a = 100
            for sessions in args.sessions:
                for name in ("floor", "calculator"):
                    loads[name, sessions] = await asyncio.wait_for(
                        concurrent(browser, targets[name], sessions, args.session_presses, first_a),
                        timeout=600,
                    )
                    print(f"{sessions} sessions, {name}: {loads[name, sessions]}", file=sys.stderr)
                first_a += sessions
        finally:
            await browser.close()
            for target in targets.values():
                target.server.stop()
            shutil.rmtree(scratch, ignore_errors=True)

    floor_text = statistics.median(floor_ms)
    floor_p95 = percentile(floor_ms, 95)
    cold_app, cold_floor = statistics.median(cold["calculator"]), statistics.median(cold["floor"])
    mb = 1024 * 1024

    def verdict(ok: bool) -> str:
        return "yes" if ok else "NO"

    rows = [
        (
            f"cold start, median of {args.cold_rounds} (s)",
            f"{cold_app:.2f}",
            f"{cold_floor:.2f}",
            ratio(cold_app, cold_floor),
            "<= 1.5x",
            verdict(cold_app <= 1.5 * cold_floor),
        ),
        (
            f"b key -> table, cards, chart 1: median of {args.presses} (ms)",
            f"{statistics.median(b_ms):.0f}",
            f"{floor_text:.0f}",
            ratio(statistics.median(b_ms), floor_text),
            "<= 2x",
            verdict(statistics.median(b_ms) <= 2 * floor_text),
        ),
        (
            "b key -> table, cards, chart 1: p95 (ms)",
            f"{percentile(b_ms, 95):.0f}",
            f"{floor_p95:.0f}",
            ratio(percentile(b_ms, 95), floor_p95),
            "",
            "",
        ),
        (
            f"gates key -> chart 2: median of {args.presses} (ms)",
            f"{statistics.median(gates_ms):.0f}",
            f"{floor_text:.0f}",
            ratio(statistics.median(gates_ms), floor_text),
            "<= 2x",
            verdict(statistics.median(gates_ms) <= 2 * floor_text),
        ),
        (
            "gates key -> chart 2: p95 (ms)",
            f"{percentile(gates_ms, 95):.0f}",
            f"{floor_p95:.0f}",
            ratio(percentile(gates_ms, 95), floor_p95),
            "",
            "",
        ),
        (
            "server CPU while idle (ms per s)",
            f"{idle_rate['calculator'] * 1e3:.1f}",
            f"{idle_rate['floor'] * 1e3:.1f}",
            ratio(idle_rate["calculator"], idle_rate["floor"]),
            "",
            "",
        ),
        (
            "server CPU per press, idle included (ms)",
            f"{raw_app * 1e3:.1f}",
            f"{raw_floor * 1e3:.1f}",
            ratio(raw_app, raw_floor),
            "",
            "",
        ),
        (
            "server CPU per rerun, idle taken out (ms)",
            f"{cpu_app * 1e3:.1f}",
            f"{cpu_floor * 1e3:.1f}",
            ratio(cpu_app, cpu_floor),
            "<= 20 ms",
            verdict(cpu_app <= 0.020),
        ),
    ]
    rows.append(
        (
            "single session: presses timed out",
            str(single_timeouts["calculator"]),
            str(single_timeouts["floor"]),
            "",
            "0",
            verdict(single_timeouts["calculator"] == 0),
        )
    )
    for sessions in args.sessions:
        app_load, floor_load = loads["calculator", sessions], loads["floor", sessions]
        presses = app_load["presses"]
        p95_target = sessions == 10
        rows += [
            (
                f"{sessions} sessions, {presses} presses: median (ms)",
                f"{app_load['median_ms']:.0f}",
                f"{floor_load['median_ms']:.0f}",
                ratio(app_load["median_ms"], floor_load["median_ms"]),
                "",
                "",
            ),
            (
                f"{sessions} sessions: p95 (ms)",
                f"{app_load['p95_ms']:.0f}",
                f"{floor_load['p95_ms']:.0f}",
                ratio(app_load["p95_ms"], floor_load["p95_ms"]),
                "< 1000 ms" if p95_target else "",
                verdict(app_load["p95_ms"] < 1000) if p95_target else "",
            ),
            (
                f"{sessions} sessions: errors",
                str(app_load["errors"]),
                str(floor_load["errors"]),
                "",
                "0",
                verdict(app_load["errors"] == 0),
            ),
        ]
    top = max(args.sessions)
    rows += [
        (
            "server RSS idle (MB)",
            f"{idle_rss['calculator'] / mb:.0f}",
            f"{idle_rss['floor'] / mb:.0f}",
            ratio(idle_rss["calculator"], idle_rss["floor"]),
            "",
            "",
        ),
        (
            "server RSS, 1 session (MB)",
            f"{one_rss['calculator'] / mb:.0f}",
            f"{one_rss['floor'] / mb:.0f}",
            ratio(one_rss["calculator"], one_rss["floor"]),
            "",
            "",
        ),
        (
            f"server RSS, {top} sessions (MB)",
            f"{loads['calculator', top]['rss'] / mb:.0f}",
            f"{loads['floor', top]['rss'] / mb:.0f}",
            ratio(loads["calculator", top]["rss"], loads["floor", top]["rss"]),
            "",
            "",
        ),
    ]
    print(f"\n$ python benchmarks/bench_page.py {' '.join(sys.argv[1:])}".rstrip())
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), end=", ")
    print(f"{len(__import__('os').sched_getaffinity(0))} cores\n")
    print_table(rows)
    for name, target in targets.items():
        if target.errors:
            print(f"\n{name}: {len(target.errors)} page errors, first: {target.errors[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--app", type=Path, default=ROOT / "app.py", help="the app to measure (run from its folder)"
    )
    parser.add_argument("--presses", type=int, default=50, help="single-session presses per slider")
    parser.add_argument("--cold-rounds", type=int, default=3, help="cold starts of each app")
    parser.add_argument(
        "--sessions", type=int, nargs="+", default=[10, 20], help="concurrent session counts"
    )
    parser.add_argument(
        "--session-presses", type=int, default=10, help="presses per concurrent session"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
