"""Issue 37's own effect: the calculator page before the live panel (the table, the cards and
the p-value chart as about fifteen Streamlit elements) against the page as it is, key press to
the table, the four result cards and the p-value chart redrawn, interleaved in one run.

    python benchmarks/live_panel_ab.py [--before 6ba3450] [--presses 30]

`--before` is a commit of this repository from before the panel (by default the one the panel
was built on); it is unpacked with ``git archive`` into a temporary folder and served from
there, beside this working tree's ``app.py``. Both pages open with ``?gates=101&logp=true``
(as in ``bench_page.py``) and are pressed alternately, first one then the other. Each page's
outputs are read where it draws them: the old page's cards are Streamlit metrics and its chart
Streamlit's; the new page's are the panel's.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_page import SINGLE_SESSION_QUERY  # noqa: E402
from harness import APP_RENDERED, CHROMIUM, CHROMIUM_FLAGS, ROOT, Server  # noqa: E402
from page_measures import (  # noqa: E402
    APP_OUTPUTS,
    B_SLIDER,
    CHART_DRAWING,
    OPEN_TIMEOUT_MS,
    RECORDER,
    VIEWPORT,
    percentile,
    press,
)

PRESSED = ("table", "cards", "chart1")
#: The page before the panel: cards as Streamlit metrics (keyed containers), chart 1 the
#: page's first Streamlit chart.
BEFORE_OUTPUTS = {
    "table": APP_OUTPUTS["table"],
    "cards": "return ['difference', 'chi2', 'exact', 'unpaired']"
    ".map(k => document.querySelector('.st-key-card_' + k).innerText).join('|')",
    "chart1": "return chartDrawing('[data-testid=stVegaLiteChart]')",
}
BEFORE_RENDERED = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('.st-key-card_exact [data-testid=stMetricValue]') !== null
    && document.querySelector('[data-testid=stVegaLiteChart] svg .mark-line path') !== null;
}"""


def unpack(commit: str, folder: Path) -> Path:
    """The repository at `commit`, unpacked into `folder`; its app.py."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "app.py"


async def measure(servers: dict[str, Server], presses: int) -> dict[str, list[float]]:
    setups = {"before": (BEFORE_RENDERED, BEFORE_OUTPUTS), "after": (APP_RENDERED, APP_OUTPUTS)}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS)
        )
        pages = {}
        for name, server in servers.items():
            rendered, outputs = setups[name]
            page = await (await browser.new_context(viewport=VIEWPORT)).new_page()
            await page.goto(server.url + SINGLE_SESSION_QUERY, timeout=OPEN_TIMEOUT_MS)
            await page.wait_for_function(rendered, polling=50, timeout=OPEN_TIMEOUT_MS)
            await page.evaluate(RECORDER, [outputs, CHART_DRAWING])
            pages[name] = page
        ms: dict[str, list[float]] = {name: [] for name in pages}
        for round_ in range(presses):
            order = list(pages) if round_ % 2 == 0 else list(pages)[::-1]
            for name in order:
                ms[name].append(await press(pages[name], B_SLIDER, PRESSED))
        await browser.close()
    return ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="6ba3450", help="a commit from before the panel")
    parser.add_argument("--presses", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="live_panel_ab_") as scratch:
        old_app = unpack(args.before, Path(scratch) / "before")
        logs = Path(scratch) / "logs"
        servers = {
            "before": Server(old_app, old_app.parent, logs / "before.log"),
            "after": Server(ROOT / "app.py", ROOT, logs / "after.log"),
        }
        for server in servers.values():
            server.start()
        try:
            for server in servers.values():
                server.wait_healthy()
            ms = asyncio.run(measure(servers, args.presses))
        finally:
            for server in servers.values():
                server.stop()
    med = {name: statistics.median(values) for name, values in ms.items()}
    print(f"\n$ python benchmarks/live_panel_ab.py --before {args.before} --presses {args.presses}")
    print(f"b key -> table, cards, chart 1 (ms), {args.presses} presses each, alternating:")
    for name in ("before", "after"):
        print(f"  {name}: median {med[name]:.0f}, p95 {percentile(ms[name], 95):.0f}")
    print(f"  after / before: {med['after'] / med['before']:.2f}x")


if __name__ == "__main__":
    main()
