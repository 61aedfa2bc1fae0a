"""Per-case data at scale: a 1,000,000-row CSV read and analysed, and a 100,000-case list page.

Targets (issue 5): reading, validating, pairing and analysing (plain and cluster-adjusted tests)
a 1,000,000-row CSV in under 3 s and under 500 MB peak memory; the page's list of 100,000
discordant cases stays responsive (only a page is rendered; searching and paging are measured).

Each measurement runs in a fresh subprocess so that its peak resident memory (ru_maxrss) is its
own, beside a reference measured the same way in the same run: ``pandas.read_csv`` of the same
file alone. Run from the repository root:

    python benchmarks/bench_cases.py [--rows 1000000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TIME_LIMIT_S = 3.0
MEMORY_LIMIT_MB = 500.0

# Each script prints one JSON line: seconds of work (after imports), import seconds, peak RSS.
REFERENCE = """
import json, resource, sys, time
started = time.perf_counter()
import pandas
imported = time.perf_counter()
frame = pandas.read_csv(sys.argv[1])
done = time.perf_counter()
print(json.dumps({"work_s": done - imported, "import_s": imported - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

OURS = """
import json, resource, sys, time
started = time.perf_counter()
import pandas
import calculator
from calculator.cases import load_cases
from calculator.clustered import clustered_mcnemar
imported = time.perf_counter()
cases = load_cases(sys.argv[1], id_column="id", a_column="model_a", b_column="model_b",
                   group_column="doc")
analysis = calculator.analyze(*cases.counts, names=cases.names)
cluster = clustered_mcnemar(*cases.cluster_counts())
done = time.perf_counter()
assert cases.n + cases.excluded["unparseable_outcome"] + cases.excluded["missing_value"] == \\
    cases.rows_read, cases.excluded
print(json.dumps({"work_s": done - imported, "import_s": imported - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "n": cases.n, "excluded": sum(cases.excluded.values()),
                  "clusters": cluster.clusters}))
"""


def write_csv(path: Path, rows: int, seed: int = 0) -> None:
    """id, two 0/1 outcomes (a few blanks and typos, as real exports have), document, category."""
    rng = np.random.default_rng(seed)
    skill = rng.random(rows)
    a = (skill < 0.70).astype(np.int8)
    b = np.where(rng.random(rows) < 0.85, a, rng.random(rows) < 0.72).astype(np.int8)
    a_text = a.astype(str).astype(object)
    a_text[rng.choice(rows, rows // 1000, replace=False)] = ""  # missing
    a_text[rng.choice(rows, rows // 2000, replace=False)] = "n/a?"  # unparseable
    documents = rng.integers(0, 20_000, rows)
    categories = np.array(["math", "code", "reading", "science"])[rng.integers(0, 4, rows)]
    with path.open("w") as handle:
        handle.write("id,model_a,model_b,doc,category\n")
        for start in range(0, rows, 100_000):
            stop = min(rows, start + 100_000)
            handle.writelines(
                f"case-{i},{a_text[i]},{b[i]},doc-{documents[i]},{categories[i]}\n"
                for i in range(start, stop)
            )


def measure(script: str, path: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def list_page_timings(cases: int = 100_000) -> dict[str, float]:
    """Seconds for one rerun's work on a 100,000-case list: search, take a page, prepare it."""
    import pandas as pd

    sys.path.insert(0, str(ROOT))
    from ui import cases_tables as view

    rng = np.random.default_rng(1)
    frame = pd.DataFrame(
        {
            "id": [f"case-{i}" for i in range(cases)],
            "old": 1,
            "new": 0,
            "question": [f"Question {i} about topic {i % 97}" for i in range(cases)],
            "category": rng.choice(["math", "code", "reading"], cases),
        }
    )
    timings = {}
    started = time.perf_counter()
    page = view.display_frame(view.page_of(view.search_cases(frame, ""), 1000))
    timings["page_s"] = time.perf_counter() - started
    started = time.perf_counter()
    found = view.search_cases(frame, "topic 42")
    view.display_frame(view.page_of(found, 1))
    timings["search_s"] = time.perf_counter() - started
    started = time.perf_counter()
    view.escaped_csv(frame)
    timings["download_s"] = time.perf_counter() - started
    timings["rows_rendered"] = len(page)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cases.csv"
        write_csv(path, args.rows)
        size_mb = path.stat().st_size / 1e6
        print(
            f"{args.rows:,} rows, {size_mb:.1f} MB CSV; {args.repeats} runs each, "
            "fresh process per run"
        )
        reference = [measure(REFERENCE, path) for _ in range(args.repeats)]
        ours = [measure(OURS, path) for _ in range(args.repeats)]

    def median(runs: list[dict[str, float]], key: str) -> float:
        return statistics.median(run[key] for run in runs)

    ref_s, our_s = median(reference, "work_s"), median(ours, "work_s")
    ref_mb, our_mb = median(reference, "peak_mb"), median(ours, "peak_mb")
    our_import = median(ours, "import_s")
    print(f"{'':36}{'work s':>9}{'imports s':>11}{'peak MB':>10}")
    print(
        f"{'pandas.read_csv alone (reference)':36}{ref_s:9.2f}"
        f"{median(reference, 'import_s'):11.2f}{ref_mb:10.0f}"
    )
    print(f"{'load_cases + analyze + clustered':36}{our_s:9.2f}{our_import:11.2f}{our_mb:10.0f}")
    print(f"ratio to reference: time x{our_s / ref_s:.1f}, peak memory x{our_mb / ref_mb:.2f}")
    print(
        f"cases used {ours[0]['n']:,}, rows excluded {ours[0]['excluded']:,}, "
        f"clusters {ours[0]['clusters']:,}"
    )
    within = our_s < TIME_LIMIT_S and our_mb < MEMORY_LIMIT_MB
    print(
        f"target: read and analysed in under {TIME_LIMIT_S:g} s ({our_s:.2f} s; the one-off "
        f"imports add {our_import:.2f} s) and under {MEMORY_LIMIT_MB:g} MB peak ({our_mb:.0f} MB, "
        f"imports included): {'met' if within else 'NOT met'}"
    )

    page = list_page_timings()
    print(
        f"100,000-case list: one page ({page['rows_rendered']:.0f} rows) "
        f"{page['page_s'] * 1000:.0f} ms, search + page {page['search_s'] * 1000:.0f} ms, "
        f"escaped CSV download (on click only) {page['download_s'] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
