"""The per-case page's flips section on a 10^5-case comparison: what it costs a rerun.

    python benchmarks/bench_flips.py [--cases 100000] [--reruns 15] [--scores]

One per-case file of ``--cases`` cases (a third of them flips, each with a prompt of about
100 characters) is uploaded to the per-case page under Streamlit's AppTest (in this process,
no browser), its prompt column chosen as the flips' text. Then the page is rerun ``--reruns``
times with nothing changed (as a rerun that another widget triggers), and the median time per
rerun is reported for three pages measured in the same run, in rotating order:

- the shipped page (the flips section, a page of 50 flips in each direction);
- the same page with the flips section replaced by nothing
  (``ui.widgets.flips.cases_flips_section``), the rest of the page unchanged;
- the floor: a script with one slider and one line of text.

With ``--scores`` the file holds scores (no threshold): the page compares their means and its
flips are the largest differences each way (at most 1,000 of each).

The figure the issue asks for is the ratio of the first to the second: what listing the flips
adds to a rerun once they are found. AppTest's own work grows with the widgets a page holds
(each flip's expander tracks its state), so the script's time in the flips section itself is
reported too, per rerun, timed around ``cases_flips_section`` within the same reruns. The
first render with the flips (finding them and their texts) is reported beside the page's
first render without them (measured first, so that it reads the file cold and the shipped
page's first render finds it read).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "pages"))

FLOOR = """
import streamlit as st
value = st.slider("x", 0, 100, 5, key="x")
st.text(f"value {value}")
"""


def per_case_file(cases: int, scores: bool = False) -> bytes:
    """id, A's and B's pass/fail, a prompt: cases k % 6 in (0, 1) only A passes, 2 only B.
    With `scores`, A's and B's scores on a 0-1 grid instead (compared by their means, the
    page listing the largest differences each way)."""
    rows = ["id,a,b,prompt"]
    for k in range(cases):
        if scores:
            a, b = (k % 11) / 10, ((k * 7) % 11) / 10
        else:
            a, b = {0: (1, 0), 1: (1, 0), 2: (0, 1)}.get(k % 6, (k % 2, k % 2))
        rows.append(f"q{k},{a},{b},Question {k}: what is {k} + {k % 97}? Answer with a number.")
    return ("\n".join(rows) + "\n").encode()


def loaded_page(data: bytes):  # noqa: ANN201 - an AppTest
    from apptest_pages import open_page

    at = open_page("app_pages/cases.py")
    key = next(f.key for f in at.file_uploader if "cases" in f.key)
    at.file_uploader(key=key).set_value([("cases.csv", data, "text/csv")])
    return at


def first_render(data: bytes, with_flips: bool) -> tuple[object, float]:
    at = loaded_page(data)
    start = time.perf_counter()
    at.run(timeout=600)
    if with_flips:
        at.multiselect(key="cases_flip_texts").set_value(["prompt"]).run(timeout=600)
    seconds = time.perf_counter() - start
    assert not at.exception, at.exception
    return at, seconds


def rerun_median(at: object, reruns: int) -> float:
    times = []
    for _ in range(reruns):
        start = time.perf_counter()
        at.run(timeout=600)
        times.append(time.perf_counter() - start)
    assert not at.exception, at.exception
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--reruns", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--scores",
        action="store_true",
        help="a file of scores (the Mean scores section's flips: the largest differences)",
    )
    args = parser.parse_args()
    from streamlit.testing.v1 import AppTest

    import ui.widgets.flips as flips_widget

    data = per_case_file(args.cases, args.scores)
    section_times: list[float] = []
    plain_section = flips_widget.cases_flips_section

    def timed_section(*arguments: object, **options: object) -> None:
        start = time.perf_counter()
        plain_section(*arguments, **options)
        section_times.append(time.perf_counter() - start)

    flips_widget.cases_flips_section = timed_section
    shipped_section = flips_widget.cases_flips_section
    # The page without the flips first: its first render reads the file cold; the shipped
    # page's then finds the file read (the page's own cache) and adds the flips' work.
    flips_widget.cases_flips_section = lambda *a, **k: None
    without, first_without = first_render(data, False)
    flips_widget.cases_flips_section = shipped_section
    with_flips, first_with = first_render(data, True)
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "floor.py"
        script.write_text(FLOOR)
        floor = AppTest.from_file(str(script))
        floor.run()
        results: dict[str, list[float]] = {"shipped": [], "without flips": [], "floor": []}
        section_times.clear()
        for _ in range(args.rounds):
            results["shipped"].append(rerun_median(with_flips, args.reruns))
            flips_widget.cases_flips_section = lambda *a, **k: None
            results["without flips"].append(rerun_median(without, args.reruns))
            flips_widget.cases_flips_section = shipped_section
            results["floor"].append(rerun_median(floor, args.reruns))
    shown = with_flips.expander
    kind = "scores" if args.scores else "pass/fail"
    print(f"{args.cases:,} cases ({kind}), {len(shown)} flips on the page (50 a direction)")
    print(f"first render without the flips {first_without:8.2f} s (the file read cold)")
    print(f"first render with them         {first_with:8.2f} s (the file read already)")
    medians = {name: statistics.median(values) for name, values in results.items()}
    for name, value in medians.items():
        print(
            f"rerun, {name:<24}{value * 1000:8.1f} ms  ({value / medians['floor']:.1f}x the floor)"
        )
    ratio = medians["shipped"] / medians["without flips"]
    print(f"rerun with the flips / without: {ratio:.2f}x")
    section = statistics.median(section_times)
    print(
        f"the flips section's own time per rerun: {section * 1000:.1f} ms "
        f"({section / medians['shipped']:.0%} of the shipped page's rerun)"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
