"""The server's own cost per rerun, section by section: the other half of a replica's capacity.

    python benchmarks/bench_rerun_cost.py [--reruns 40] [--rounds 2]

A replica holds as many students as its one core has CPU for their reruns, so the server CPU
per rerun of the calculator's live part (the fragment a slider reruns) sets how many students
one replica serves. Measured here with the content check's own variants (``app_variant.py``:
the shipped app with named sections replaced by nothing, run from the repository root with
the project's settings): the shipped page, and the page less one section at a time. For each,
a fresh server takes one protocol session (``bench_load.py``'s messages): its first run and
some warm-up reruns uncounted, then ``--reruns`` moves of the b slider to values not seen
before (no cache answers them), one after the other. The figure is the server's CPU time
(utime + stime from /proc) over those reruns, per rerun; a section's cost is the shipped
page's figure less the figure without it. The variants run in a rotating order, ``--rounds``
times, and the median over rounds is reported: CPU time is far less disturbed by other load
than latency, but not untouched by it (caches, frequency), so the load average is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_load  # noqa: E402
from harness import ARTIFACTS, ROOT, Server  # noqa: E402

#: Each section of the calculator page's live part, as ``app_variant.run_without`` names it.
SECTIONS = {
    "headline": "ui.widgets.calculator_results:headline",
    "2 x 2 table and result cards": "ui.widgets.calculator_results:table_results",
    "odds ratio": "ui.widgets.odds_ratio:odds_ratio_section",
    "chart 1 (p against a)": "ui.widgets.calculator_results:pvalue_chart",
    "gates' cards": "ui.widgets.calculator_results:gate_results",
    "chart 2 (gates)": "ui.widgets.calculator_results:gate_chart",
    "Decision": "ui.widgets.decision:decision_section",
    "teaching (folded)": "ui.widgets.teaching:teaching_sections",
    "report and downloads": "ui.widgets.calculator_results:report",
    "share link": "ui.widgets.calculator_results:share_link",
}
WARM_UP = 5
KEY = bench_load.PANEL_KEY


def variant_script(folder: Path, left_out: list[str]) -> Path:
    """A script that runs the shipped app less `left_out` (app_variant's way)."""
    script = folder / f"variant_{len(list(folder.iterdir()))}.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
        "from app_variant import run_without\n"
        f"run_without({left_out!r})\n"
    )
    return script


async def _rerun(socket, slider: bench_load.Slider, value: float) -> None:  # noqa: ANN001
    await socket.send(bench_load.move_message(slider, value))
    failure = await bench_load.read_run(socket, {}, KEY, bench_load.ANSWER_TIMEOUT)
    if failure:
        raise RuntimeError(f"a rerun failed: {failure}")


async def cpu_per_rerun(server: Server, reruns: int) -> float:
    """Server CPU seconds per rerun of the b slider, over `reruns` reruns after a warm-up."""
    url = bench_load.stream_url(server.url)
    async with websockets.connect(url, max_size=None, ping_interval=None) as socket:
        first = BackMsg()
        first.rerun_script.query_string = ""
        await socket.send(first.SerializeToString())
        found: dict[str, bench_load.Slider] = {}
        if failure := await bench_load.read_run(socket, found, KEY, bench_load.ANSWER_TIMEOUT):
            raise RuntimeError(f"the first run failed: {failure}")
        values = [float(v) for v in range(1, 101, 2)][: WARM_UP + reruns]
        for value in values[:WARM_UP]:
            await _rerun(socket, found[KEY], value)
        before = server.cpu_seconds()
        for value in values[WARM_UP:]:
            await _rerun(socket, found[KEY], value)
        return (server.cpu_seconds() - before) / (len(values) - WARM_UP)


def measure(script: Path, name: str, reruns: int) -> float:
    log = ARTIFACTS / "bench" / f"rerun_cost_{name.split()[0].strip(chr(39))}.log"
    server = Server(script, ROOT, log)
    server.start()
    try:
        server.wait_healthy()
        return asyncio.run(cpu_per_rerun(server, reruns))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reruns", type=int, default=40, help="counted reruns (at most 45)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench_rerun_cost_"))
    scripts = {"shipped": variant_script(folder, [])}
    scripts |= {f"less {name}": variant_script(folder, [path]) for name, path in SECTIONS.items()}
    print(f"started {time.strftime('%H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.1f}")
    figures: dict[str, list[float]] = {name: [] for name in scripts}
    names = list(scripts)
    for round_ in range(args.rounds):
        shift = round_ * len(names) // max(1, args.rounds)
        for name in names[shift:] + names[:shift]:
            figures[name].append(measure(scripts[name], name, args.reruns) * 1e3)
    print(f"finished {time.strftime('%H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.1f}")
    shipped = statistics.median(figures["shipped"])
    print("\n| page | server CPU per rerun (ms), median | each round | the section's cost (ms) |")
    print("|---|---|---|---|")
    for name, values in figures.items():
        median = statistics.median(values)
        cost = "" if name == "shipped" else f"{shipped - median:+.1f}"
        rounds = ", ".join(f"{v:.1f}" for v in values)
        print(f"| {name} | {median:.1f} | {rounds} | {cost} |")


if __name__ == "__main__":
    main()
