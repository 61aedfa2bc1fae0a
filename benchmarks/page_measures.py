"""What the page benchmark measures in Chromium, for any of the three apps it compares.

Used by ``bench_page.py``: each app is a :class:`Target` (its server, when it has rendered,
the outputs a key press changes, the slider pressed). Every latency is timed inside the page
(a capture-phase keydown listener and a MutationObserver on the page's own clock), every load
from ``page.goto`` to the app's "rendered" condition.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from dataclasses import dataclass, field

from harness import CHARTS, PANEL_CARD_KEYS, Server, card_box
from playwright.async_api import Browser, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

VIEWPORT = {"width": 1400, "height": 900}
QUIET_MS = 200  # a press is over when the script is idle and no output changed for this long
PRESS_TIMEOUT_MS = 15_000
OPEN_TIMEOUT_MS = 120_000
OPENING_AT_ONCE = 4

_IDLE = """document.querySelector('[data-testid=stApp]') !== null
    && document.querySelector('[data-testid=stApp]')
         .getAttribute('data-test-script-state') === 'notRunning'"""
FLOOR_RENDERED = f"""() => {_IDLE}
    && document.querySelector('[data-testid=stSlider]') !== null
    && document.querySelector('[data-testid=stMarkdownContainer] p') !== null"""
CHART_FLOOR_RENDERED = f"""() => {_IDLE}
    && document.querySelector('[data-testid=stSlider]') !== null
    && document.querySelector('[data-testid=stMetricValue]') !== null
    && document.querySelector('[data-testid=stVegaLiteChart] svg .mark-line path') !== null"""

# How each output reads in the page; a change of this string is a change of the output. The
# table, the four result cards and chart 1 are the live panel's (one custom component).
APP_OUTPUTS = {
    "table": "return document.querySelector('table[aria-label=\"Paired 2 by 2 table\"]').innerText",
    "cards": f"return {[card_box(key) for key in PANEL_CARD_KEYS]!r}"
    ".map(s => document.querySelector(s).innerText).join('|')",
    "chart1": f"return chartDrawing({CHARTS[0]!r})",
    "chart2": f"return chartDrawing({CHARTS[1]!r})",
    # A section below the live panel, which follows it in a run of its own (issue 37).
    "below": "return Array.from(document.querySelectorAll('[data-testid=stMain] p'))"
    ".map(p => p.innerText).filter(t => t.includes('Odds ratio A : B')).join('|')",
    # Issue 36: the k x k section's results (open with ?sq=true).
    "kxk": "return Array.from(document.querySelectorAll('.st-key-sq_results p'))"
    ".map(p => p.innerText).join('|')",
}
# A chart as drawn (by the CSS selector of the element named by its description): its
# description, its lines and its rules (cheap enough to read on every mutation, even in twenty
# pages at once).
CHART_DRAWING = """(selector) => {
  const chart = document.querySelector(selector);
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
CHART_FLOOR_OUTPUTS = {
    "metric": "return document.querySelector('[data-testid=stMetricValue]').innerText",
    "chart1": "return chartDrawing('[data-testid=stVegaLiteChart]')",
}
B_SLIDER = ".st-key-live_panel [data-count=b] input[type=range]"
GATES_SLIDER = ".st-key-gates_slider input[type=range]"
#: A cell of the k x k grid (row 1, column 2): ArrowUp adds one case to it.
KXK_CELL = ".st-key-sq_0_1 input"
FLOOR_SLIDER = ".st-key-value input[type=range]"
#: JavaScript the page downloaded (uncompressed bytes), from the Resource Timing entries.
JS_BYTES = """() => performance.getEntriesByType('resource')
  .filter(entry => /\\.m?js(\\?|$)/.test(new URL(entry.name).pathname))
  .reduce((sum, entry) => sum + entry.decodedBodySize, 0)"""

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
    """One of the apps under test: its server, when it has rendered, and what a press changes.

    `session_query(index)` is the address the index-th concurrent session opens (the
    calculator gives each its own a, so no press finds its result cached).
    """

    name: str
    server: Server
    rendered: str
    outputs: dict[str, str]
    slider: str = FLOOR_SLIDER
    press_outputs: tuple[str, ...] = ("text",)
    first_a: int = 0
    errors: list[str] = field(default_factory=list)

    def session_query(self, index: int) -> str:
        return f"?a={self.first_a + index}&logp=true" if self.name == "calculator" else ""


async def idle_rates(targets: dict[str, Target], seconds: float) -> dict[str, float]:
    """Each server's CPU seconds per second while nobody presses anything (Streamlit's own
    timers), measured over `seconds`; taken out of the per-rerun figures."""
    started = time.perf_counter()
    before = {name: t.server.cpu_seconds() for name, t in targets.items()}
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    return {name: (t.server.cpu_seconds() - before[name]) / elapsed for name, t in targets.items()}


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


async def press(
    page: Page, slider: str, outputs: list[str] | tuple[str, ...], key: str = "ArrowRight"
) -> float:
    """`key` (ArrowRight) on `slider`; milliseconds from keydown until the last of `outputs`
    changed."""
    outputs = list(outputs)
    await page.locator(slider).focus()
    await page.evaluate("() => window.__bench.arm()")
    await page.keyboard.press(key)
    try:
        await page.wait_for_function(
            f"() => window.__bench.done({json.dumps(outputs)}, {QUIET_MS})",
            polling=50,
            timeout=PRESS_TIMEOUT_MS,
        )
    except PlaywrightTimeout as error:
        raise PressTimeout(slider) from error
    return await page.evaluate(f"() => window.__bench.latency({json.dumps(outputs)})")


#: A page to press in, its slider, and the outputs a press on it changes.
Presser = tuple[Page, str, tuple[str, ...]]


async def press_rounds(pressers: dict[str, Presser], rounds: int) -> dict[str, list[float | None]]:
    """`rounds` presses in each page, in a rotating order (no page always goes first, right
    after a quiet pause), so that other load on the machine falls on all alike. One entry per
    round and page, None for a press that timed out: the rounds stay paired."""
    names = list(pressers)
    ms: dict[str, list[float | None]] = {name: [] for name in names}
    for round_ in range(rounds):
        shift = round_ % len(names)
        for name in names[shift:] + names[:shift]:
            page, slider, outputs = pressers[name]
            try:
                ms[name].append(await press(page, slider, outputs))
            except PressTimeout:
                ms[name].append(None)
    return ms


async def cold_start(browser: Browser, target: Target) -> tuple[float, int]:
    """Seconds from process start to the first full render, and the idle RSS before it."""
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    started = time.perf_counter()
    target.server.start()
    target.server.wait_healthy()
    idle_rss = target.server.rss_bytes()
    await page.goto(target.server.url)
    await page.wait_for_function(target.rendered, polling="raf", timeout=OPEN_TIMEOUT_MS)
    seconds = time.perf_counter() - started
    await context.close()
    return seconds, idle_rss


async def warm_load(browser: Browser, target: Target) -> tuple[float, int]:
    """A new browser context (empty cache, new session) on the running server: seconds from
    ``goto`` to every output drawn, and the bytes of JavaScript the page downloaded."""
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    started = time.perf_counter()
    await page.goto(target.server.url, timeout=OPEN_TIMEOUT_MS)
    await page.wait_for_function(target.rendered, polling="raf", timeout=OPEN_TIMEOUT_MS)
    seconds = time.perf_counter() - started
    js_bytes = int(await page.evaluate(JS_BYTES))
    await context.close()
    return seconds, js_bytes


async def concurrent(
    browser: Browser, target: Target, sessions: int, presses: int
) -> dict[str, object]:
    """`sessions` browser contexts, each pressing the target's slider `presses` times at once."""
    tracebacks_before = target.server.traceback_count()
    errors_before = len(target.errors)
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

    opened = await asyncio.gather(*(open_one(target.session_query(i)) for i in range(sessions)))
    pages = [page for page in opened if page is not None]
    latencies: list[float] = []
    timeouts = failed_opens

    async def session(index: int, page: Page) -> None:
        nonlocal timeouts
        await asyncio.sleep(0.1 * index)  # people do not press in step
        for _ in range(presses):
            try:
                latencies.append(await press(page, target.slider, target.press_outputs))
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
