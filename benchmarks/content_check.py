"""Issue 15's content check, run by ``bench_page.py``: what the page's required content alone
costs, beside the shipped page and the chart floor, in the same run.

The issue's browser targets are ratios to the chart floor (one slider, one metric, one chart).
The calculator page must show more than that whatever is done to its optional sections: every
input, the headline, the 2 x 2 table and four result cards, the chart of p against a, and the
gates' cards and chart. ``required_only_app.py`` is the page cut to exactly that (run from the
repository root with the project's settings; the sections left out draw nothing). Three apps
are measured here with the page benchmark's own measures, in alternating or rotating order so
that other load on the machine falls on all alike:

- cold start (process start to the first full render) and warm page load (a new browser
  context on the running server, to every output drawn), medians of alternating rounds;
- the b key (ArrowRight on the b slider to the last change of the table, the cards and
  chart 1; the floor: its metric and chart), median and p95, and the median over rounds of
  the ratio of two pages' presses in the same round.

Where the cut page itself misses a target, the target is below what the required content
costs in Streamlit's page: no change to the optional sections can meet it, and the table says
so in its last column.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from harness import APP_RENDERED, ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS, ROOT, Server
from page_measures import (
    APP_OUTPUTS,
    B_SLIDER,
    CHART_FLOOR_OUTPUTS,
    CHART_FLOOR_RENDERED,
    Target,
    cold_start,
    open_page,
    percentile,
    press_rounds,
    warm_load,
)
from playwright.async_api import async_playwright
from sections_check import WARM_UP_PRESSES, paired_ratio

VARIANT = Path(__file__).with_name("required_only_app.py")
#: The columns: the shipped page, the page cut to its required content, the chart floor.
NAMES = ("shipped", "required", "chart")
APP_PRESS = ("table", "cards", "chart1")
FLOOR_PRESS = ("metric", "chart1")
TARGETS = {"cold": 1.3, "warm": 1.3, "b": 1.25}


def make_targets(app: Path, chart_floor: Path) -> dict[str, Target]:
    """The three apps; `chart_floor` is the floor's script in an empty folder (Streamlit's
    default settings, as in the page benchmark)."""
    logs = ARTIFACTS / "bench"

    def calculator(server: Server) -> Target:
        return Target(
            "calculator", server, APP_RENDERED, APP_OUTPUTS,
            slider=B_SLIDER, press_outputs=APP_PRESS,
        )  # fmt: skip

    return {
        "shipped": calculator(Server(app, app.parent, logs / "content_shipped.log")),
        "required": calculator(Server(VARIANT, ROOT, logs / "content_required.log")),
        "chart": Target(
            "chart",
            Server(chart_floor, chart_floor.parent, logs / "content_chart.log"),
            CHART_FLOOR_RENDERED,
            CHART_FLOOR_OUTPUTS,
            press_outputs=FLOOR_PRESS,
        ),  # fmt: skip
    }


async def _loads(browser, args, chart_floor: Path, started: list[Target]) -> tuple:  # noqa: ANN001
    """Cold starts (the last round's servers stay up) and warm loads, alternating; every
    target made is added to `started`, so that the caller stops its server whatever fails."""
    cold: dict[str, list[float]] = {name: [] for name in NAMES}
    warm: dict[str, list[float]] = {name: [] for name in NAMES}
    targets: dict[str, Target] = {}
    for round_ in range(args.cold_rounds):
        fresh = make_targets(args.app, chart_floor)
        started.extend(fresh.values())
        for name in NAMES:
            seconds, _ = await cold_start(browser, fresh[name])
            cold[name].append(seconds)
            if round_ < args.cold_rounds - 1:
                fresh[name].server.stop()
            else:
                targets[name] = fresh[name]
    for _ in range(args.warm_rounds):
        for name in NAMES:
            warm[name].append((await warm_load(browser, targets[name]))[0])
    return cold, warm, targets


async def _presses(browser, targets: dict[str, Target], query: str, presses: int) -> dict:  # noqa: ANN001
    pages = {
        name: await open_page(browser, targets[name], "" if name == "chart" else query)
        for name in NAMES
    }
    pressers = {
        name: (pages[name], targets[name].slider, targets[name].press_outputs) for name in NAMES
    }
    await press_rounds(pressers, WARM_UP_PRESSES)  # not counted: a fresh server is slower
    ms = await press_rounds(pressers, presses)
    for page in pages.values():
        await page.context.close()
    return ms


async def run(args, query: str, chart_floor: Path) -> dict:  # noqa: ANN001
    """Measure the three apps (`args`: the page benchmark's app, rounds and presses)."""
    started: list[Target] = []  # every server started, stopped at the end whatever fails
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS)
        )
        try:
            cold, warm, targets = await _loads(browser, args, chart_floor, started)
            ms = await _presses(browser, targets, query, args.presses)
        finally:
            await browser.close()
            for target in started:
                target.server.stop()
    errors = {name: len(t.errors) + t.server.traceback_count() for name, t in targets.items()}
    return {"cold": cold, "warm": warm, "ms": ms, "errors": errors}


def reachable(required_ratio: float, target: float) -> str:
    """The last column: can the target be met with the required content, as measured?"""
    if required_ratio != required_ratio:  # NaN: no press finished
        return "no figure"
    return "yes" if required_ratio <= target else "no: the content alone misses it"


def rows(measured: dict, args) -> list[tuple[str, ...]]:  # noqa: ANN001
    """The check's table: each app's figure, both pages' ratios to the chart floor, the
    target, and whether the page cut to its required content meets it."""
    med = statistics.median
    done = {n: [v for v in measured["ms"][n] if v is not None] for n in NAMES}

    def line(measure: str, values: dict[str, float], fmt: str, key: str = "") -> tuple[str, ...]:
        shipped, required, chart = (values[name] for name in NAMES)
        x_shipped = shipped / chart if chart else float("nan")
        x_required = required / chart if chart else float("nan")
        target = TARGETS.get(key)
        return (
            measure, format(shipped, fmt), format(required, fmt), format(chart, fmt),
            f"{x_shipped:.2f}x", f"{x_required:.2f}x",
            f"<= {target}x chart" if target else "",
            reachable(x_required, target) if target else "",
        )  # fmt: skip

    b_paired = {
        "shipped": paired_ratio(measured["ms"], "shipped", "chart"),
        "required": paired_ratio(measured["ms"], "required", "chart"),
    }
    failures = {
        name: measured["errors"][name] + sum(v is None for v in measured["ms"][name])
        for name in NAMES
    }
    return [
        line(f"cold start, median of {args.cold_rounds} (s)",
             {n: med(v) for n, v in measured["cold"].items()}, ".2f", "cold"),
        line(f"warm page load, median of {args.warm_rounds} (s)",
             {n: med(v) for n, v in measured["warm"].items()}, ".2f", "warm"),
        line(f"b key -> table, cards, chart 1: median of {args.presses} (ms)",
             {n: med(done[n]) if done[n] else float("nan") for n in NAMES}, ".0f", "b"),
        line("b key: p95 (ms)",
             {n: percentile(done[n], 95) if done[n] else float("nan") for n in NAMES}, ".0f"),
        ("b key, press by press: median of the ratios to the floor's press in each round",
         "", "", "", f"{b_paired['shipped']:.2f}x", f"{b_paired['required']:.2f}x",
         f"<= {TARGETS['b']}x chart", reachable(b_paired["required"], TARGETS["b"])),
        ("presses timed out, page errors, server tracebacks",
         *(str(failures[name]) for name in NAMES), "", "", "0",
         "yes" if not any(failures.values()) else "NO"),
    ]  # fmt: skip


HEADS = (
    "measure", "shipped", "required content only", "chart floor",
    "shipped x chart", "required x chart", "target", "reachable with the required content",
)  # fmt: skip
