"""Issue 13's check, run by ``bench_page.py``: the calculator page's teaching sections, folded
as shipped, cost nothing per key press.

Three servers run side by side, each started fresh for this check (no cache warmed by the
other measures): the app as shipped (teaching sections folded, their toggles off), the same app
on a second server, and ``no_teaching_app.py`` (the app with the teaching sections removed, run
from the repository root with the project's settings). One page of each, in one headless
Chromium, takes the same presses of the b slider, interleaved and in a rotating order so that
other load on the machine falls on all three alike. Measured for each: the b key's latency to
the 2 x 2 table, the four result cards and chart 1 (median and p95), and the server's CPU per
rerun with its idle rate taken out, as in the page benchmark's single-session measure.

The two identical servers give the noise band of the run: the ratio of the shipped page to
itself on another server. The target is that the shipped page takes at most 1.1 times the
removed variant; 1.1x is the width of that band as measured on the shared development machine
(in four runs at load average 3 to 11, two identical servers gave 0.95x to 1.14x in median
latency, paired ratio and CPU per rerun, mostly within 10%), so a ratio within it is no
measurable cost. Each run prints its own band; a ratio above 1.1x but inside it reads "unclear".
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from harness import APP_RENDERED, ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS, ROOT, Server
from page_measures import (
    APP_OUTPUTS,
    B_SLIDER,
    Target,
    idle_rates,
    open_page,
    percentile,
    press_rounds,
)
from playwright.async_api import async_playwright

VARIANT = Path(__file__).with_name("no_teaching_app.py")
#: The order of the columns: the shipped page, itself on a second server, the variant.
NAMES = ("shipped", "shipped again", "removed")
TARGET_RATIO = 1.1
PRESS_OUTPUTS = ("table", "cards", "chart1")
IDLE_SECONDS = 5.0
MIN_PRESSES = 10  # fewer presses per page give no verdict: a few presses measure the noise
WARM_UP_PRESSES = 3  # per page, not counted: the first reruns of a fresh server are slower


def make_targets(app: Path) -> dict[str, Target]:
    logs = ARTIFACTS / "bench"
    servers = {
        "shipped": Server(app, app.parent, logs / "sections_shipped.log"),
        "shipped again": Server(app, app.parent, logs / "sections_shipped_again.log"),
        # From the repository root, so the project's .streamlit/config.toml applies.
        "removed": Server(VARIANT, ROOT, logs / "sections_removed.log"),
    }
    return {
        name: Target(
            "calculator",
            server,
            APP_RENDERED,
            APP_OUTPUTS,
            slider=B_SLIDER,
            press_outputs=PRESS_OUTPUTS,
        )  # fmt: skip
        for name, server in servers.items()
    }


async def _presses(targets: dict[str, Target], query: str, presses: int, browser) -> dict:  # noqa: ANN001
    pages = {name: await open_page(browser, targets[name], query) for name in NAMES}
    pressers = {name: (pages[name], B_SLIDER, PRESS_OUTPUTS) for name in NAMES}
    await press_rounds(pressers, WARM_UP_PRESSES)  # not counted, nor their time-outs
    idle_rate = await idle_rates(targets, IDLE_SECONDS)
    started = time.perf_counter()
    cpu_before = {name: t.server.cpu_seconds() for name, t in targets.items()}
    ms = await press_rounds(pressers, presses)
    timeouts = {name: sum(value is None for value in ms[name]) for name in NAMES}
    elapsed = time.perf_counter() - started
    cpu = {
        name: (t.server.cpu_seconds() - cpu_before[name] - idle_rate[name] * elapsed) / presses
        for name, t in targets.items()
    }
    for page in pages.values():
        await page.context.close()
    return {"ms": ms, "timeouts": timeouts, "cpu": cpu}


async def run(app: Path, query: str, presses: int) -> dict:
    """Start the three servers, press the b slider `presses` times in each page, stop them."""
    targets = make_targets(app)
    try:
        for target in targets.values():
            target.server.start()
        for target in targets.values():
            target.server.wait_healthy()
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS)
            )
            try:
                measured = await _presses(targets, query, presses, browser)
            finally:
                await browser.close()
    finally:
        for target in targets.values():
            target.server.stop()
    measured["errors"] = {
        name: len(t.errors) + t.server.traceback_count() for name, t in targets.items()
    }
    return measured


def _ratio(value: float, base: float) -> str:
    return f"{value / base:.2f}x" if base > 0 else "-"


def paired_ratio(ms: dict[str, list[float | None]], top: str, bottom: str) -> float:
    """Median over the rounds of one page's press over the other's in the same round: load
    that changes during the run falls on both presses of a round alike."""
    ratios = [a / b for a, b in zip(ms[top], ms[bottom], strict=True) if a is not None and b]
    return statistics.median(ratios) if ratios else float("nan")


def verdict(cost: float, noise: float, presses: int) -> str:
    """'yes' within the target; 'unclear' above it but inside this run's noise (two identical
    servers differed as much, either way); 'NO' above both; 'too few presses' under
    MIN_PRESSES."""
    if presses < MIN_PRESSES:
        return "too few presses"
    if cost <= TARGET_RATIO:
        return "yes"
    spread = max(noise, 1 / noise) if noise > 0 else float("inf")
    return "unclear" if cost <= spread else "NO"


def rows(measured: dict, presses: int) -> list[tuple[str, ...]]:
    """The check's table: the three figures, the cost of the folded sections (shipped over
    removed) and the run's noise band (shipped again over shipped)."""
    ms, cpu = measured["ms"], measured["cpu"]
    done = {name: [v for v in ms[name] if v is not None] for name in NAMES}
    median = {name: statistics.median(done[name]) if done[name] else 0.0 for name in NAMES}
    p95 = {name: percentile(done[name], 95) if done[name] else 0.0 for name in NAMES}
    cpu_ms = {name: cpu[name] * 1e3 for name in NAMES}

    def line(measure: str, values: dict, fmt: str) -> tuple[str, ...]:
        shipped, again, removed = (values[name] for name in NAMES)
        return (
            measure, format(shipped, fmt), format(again, fmt), format(removed, fmt),
            _ratio(shipped, removed), _ratio(again, shipped), "", "",
        )  # fmt: skip

    def judged(cells: tuple[str, ...], cost: float, noise: float) -> tuple[str, ...]:
        return (*cells[:-2], f"<= {TARGET_RATIO}x", verdict(cost, noise, presses))

    cost = paired_ratio(ms, "shipped", "removed")
    noise = paired_ratio(ms, "shipped again", "shipped")
    failures = {name: measured["timeouts"][name] + measured["errors"][name] for name in NAMES}
    return [
        line(f"b key -> table, cards, chart 1: median of {presses} (ms)", median, ".0f"),
        line("b key: p95 (ms)", p95, ".0f"),
        ("b key, press by press: median of the ratios in each round", "", "", "",
         f"{cost:.2f}x", f"{noise:.2f}x", f"<= {TARGET_RATIO}x", verdict(cost, noise, presses)),
        judged(line("server CPU per rerun, idle taken out (ms)", cpu_ms, ".1f"),
               cpu["shipped"] / cpu["removed"] if cpu["removed"] > 0 else float("inf"),
               cpu["shipped again"] / cpu["shipped"] if cpu["shipped"] > 0 else 0.0),
        ("presses timed out, page errors, server tracebacks",
         *(str(failures[name]) for name in NAMES), "", "", "0",
         "yes" if not any(failures.values()) else "NO"),
    ]  # fmt: skip


HEADS = (
    "measure", "shipped (folded)", "shipped, 2nd server", "sections removed",
    "shipped / removed", "noise: 2nd / shipped", "target", "met",
)  # fmt: skip
