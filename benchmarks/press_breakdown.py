"""Where a key press's time goes, for the calculator and the chart floor in the same run:
server (keydown to the last websocket message of the rerun), transfer (the bytes of those
messages) and render (the last message to the last change of the outputs).

    python benchmarks/press_breakdown.py [--presses 30]

Each page is opened with a recorder of its websocket's incoming messages (arrival time on the
page's own clock, and size), installed before Streamlit's script runs; the presses are the page
benchmark's (``page_measures.press``: ArrowRight on the slider, until the outputs are quiet).
"Server" includes the message from the browser to the server and the script run; the messages
arrive as the script runs, so the first one is also given. All messages of a press are counted
(on the calculator, the live table's run and the run of the sections below that follows it),
and apart those received before the outputs were drawn. Medians over the presses. "Render"
is negative where the outputs were drawn before the press's last message.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_page import SINGLE_SESSION_QUERY, make_target, print_table  # noqa: E402
from harness import CHROMIUM, CHROMIUM_FLAGS, ROOT  # noqa: E402
from page_measures import (  # noqa: E402
    CHART_DRAWING,
    OPEN_TIMEOUT_MS,
    RECORDER,
    VIEWPORT,
    PressTimeout,
    press,
)

# Every message the page's websocket receives: when (performance.now()) and how many bytes.
WEBSOCKET_RECORDER = """(() => {
  const Shipped = window.WebSocket;
  window.__frames = [];
  window.WebSocket = class extends Shipped {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const data = event.data;
        const size = typeof data === 'string' ? data.length : (data.byteLength ?? data.size ?? 0);
        window.__frames.push([performance.now(), size]);
      });
    }
  };
})();"""

# The frames of the last press: those after its keydown (window.__bench.t0).
LAST_PRESS = """() => {
  const R = window.__bench;
  const frames = window.__frames.filter(([t]) => t >= R.t0);
  return {t0: R.t0, frames, changed: R.changedAt};
}"""


async def measure(target, query: str, presses: int) -> dict:  # noqa: ANN001
    """Medians over `presses` presses on the target's slider of the breakdown's parts."""
    slider, outputs = target.slider, target.press_outputs
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS)
        )
        context = await browser.new_context(viewport=VIEWPORT)
        await context.add_init_script(WEBSOCKET_RECORDER)
        page = await context.new_page()
        await page.goto(target.server.url + query, timeout=OPEN_TIMEOUT_MS)
        await page.wait_for_function(target.rendered, polling=50, timeout=OPEN_TIMEOUT_MS)
        await page.evaluate(RECORDER, [target.outputs, CHART_DRAWING])
        rows = []
        for _ in range(presses):
            try:
                total = await press(page, slider, outputs)
            except PressTimeout:
                continue
            last = await page.evaluate(LAST_PRESS)
            if not last["frames"]:
                continue
            t0 = last["t0"]
            first, final = last["frames"][0][0] - t0, last["frames"][-1][0] - t0
            # On the calculator the outputs are drawn by the first of two fragment runs (the
            # live table); the sections below follow in a second: its messages come later.
            before = [size for t, size in last["frames"] if t - t0 <= total]
            rows.append(
                {
                    "total": total,
                    "first": first,
                    "server": final,
                    "bytes": sum(size for _, size in last["frames"]),
                    "messages": len(last["frames"]),
                    "messages_before": len(before),
                    "bytes_before": sum(before),
                    "render": total - final,
                }
            )
        await browser.close()
    return {key: statistics.median(r[key] for r in rows) for key in rows[0]} | {"n": len(rows)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--app", type=Path, default=ROOT / "app.py")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="press_breakdown_"))
    shutil.copy(Path(__file__).with_name("chart_floor_app.py"), scratch / "chart_floor_app.py")
    results = {}
    try:
        for name, query in (("chart", ""), ("calculator", SINGLE_SESSION_QUERY)):
            target = make_target(name, args.app, scratch)
            target.server.start()
            target.server.wait_healthy()
            try:
                results[name] = asyncio.run(measure(target, query, args.presses))
            finally:
                target.server.stop()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    app, floor = results["calculator"], results["chart"]
    parts = (
        ("key -> outputs drawn, median (ms)", "total"),
        ("key -> first message (ms)", "first"),
        ("key -> last message: server and network (ms)", "server"),
        ("last message -> outputs drawn: render (ms)", "render"),
        ("bytes received per press", "bytes"),
        ("messages per press", "messages"),
        ("bytes received before the outputs were drawn", "bytes_before"),
        ("messages received before the outputs were drawn", "messages_before"),
    )
    rows = [
        (
            label,
            f"{app[key]:.0f}",
            f"{floor[key]:.0f}",
            f"{app[key] / floor[key]:.2f}x" if floor[key] else "-",
        )
        for label, key in parts
    ]
    print(f"\n$ python benchmarks/press_breakdown.py --presses {args.presses}")
    print(f"presses counted: calculator {app['n']}, chart floor {floor['n']}\n")
    print_table(rows, ("measure", "calculator", "chart floor", "ratio"))


if __name__ == "__main__":
    main()
