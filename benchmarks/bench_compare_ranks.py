"""Three or more systems on scores at leaderboard scale (issue 35): 50 systems x 14,000 questions
of scores in a long file (700,000 rows) read, compared by ranks (Friedman's test, Nemenyi's
critical difference with its groups, 1,225 signed-rank pairs with Holm, the letter display)
and the critical-difference diagram built (its Vega-Lite spec), in under 10 s and 2 GB, with
``pandas.read_csv`` of the same file timed beside it (the floor, measured in the same run).

Each measurement runs in a fresh subprocess so that its peak resident memory (ru_maxrss) is its
own; imports are not timed. One case lacks a system on purpose, so the join does real work. Run
from the repository root:

    python benchmarks/bench_compare_ranks.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS, QUESTIONS, LIMIT_S, LIMIT_MB = 50, 14_000, 10.0, 2048.0

REFERENCE = """
import json, resource, sys, time
started = time.perf_counter()
import pandas
imported, cpu = time.perf_counter(), time.process_time()
frame = pandas.read_csv(sys.argv[1])
done = time.perf_counter()
print(json.dumps({"work_s": done - imported, "cpu_s": time.process_time() - cpu,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
RANKED = """
import json, resource, sys, time
started = time.perf_counter()
import pandas, pyarrow.csv
from calculator.compare.workflow import compare_log_systems
from calculator.logs.long_file import LongColumns, read_long_file
from ui.compare_rank_charts import cd_diagram
imported, cpu = time.perf_counter(), time.process_time()
tables = read_long_file(sys.argv[1], LongColumns(system="system", id="id", outcome="score"))
compared = compare_log_systems(tables)  # the path the page and ``compare`` both take
scores, result = compared.scores, compared.ranks
display, cliques = result.letter_display(), result.cliques()
spec = cd_diagram(result).to_dict()
done = time.perf_counter()
print(json.dumps({"work_s": done - imported, "cpu_s": time.process_time() - cpu,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "n": scores.n, "method": result.method, "pairs": len(result.pairs),
                  "groups": len(display.groups), "complete": display.complete,
                  "cliques": len(cliques)}))
"""


def write_scores(path: Path, seed: int = 0) -> None:
    """A long CSV (id, system, score): scores to two decimals, the systems' means spread out."""
    rng = np.random.default_rng(seed)
    names = np.array([f"model_{j}" for j in range(SYSTEMS)])
    shifts = np.linspace(0.0, 0.3, SYSTEMS)
    with open(path, "w") as out:
        out.write("id,system,score\n")
        scores = np.round(rng.normal(size=(QUESTIONS, SYSTEMS)) + shifts, 2)
        ids = np.repeat(np.arange(QUESTIONS), SYSTEMS).astype(str)
        lines = np.char.add(np.char.add(ids, ","), np.tile(names, QUESTIONS))
        lines = np.char.add(np.char.add(lines, ","), scores.ravel().astype(str))
        out.write("\n".join(lines.tolist()) + "\n")
        out.write(f"{QUESTIONS},model_0,0.5\n")  # a question only one system answered


def measure(script: str, path: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, cwd=ROOT
    )
    if done.returncode != 0:
        raise SystemExit(f"measurement failed: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--write", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        write_scores(Path(args.write))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scores.csv"
        # Written by a child: ru_maxrss carries over to the children this process starts.
        command = [sys.executable, __file__, "--write", str(path)]
        subprocess.run(command, check=True)
        floor = [measure(REFERENCE, path) for _ in range(args.repeats)]
        ours = [measure(RANKED, path) for _ in range(args.repeats)]
    label = f"{SYSTEMS} systems x {QUESTIONS:,} questions (scores)"
    print(f"{'':60}{'median s':>10}{'CPU s':>8}{'peak MB':>10}")
    for name, runs in (("pandas.read_csv alone", floor), ("read, rank, group, draw", ours)):
        print(
            f"{label + ', ' + name:60}{statistics.median(r['work_s'] for r in runs):>10.2f}"
            f"{statistics.median(r['cpu_s'] for r in runs):>8.2f}"
            f"{max(r['peak_mb'] for r in runs):>10.0f}"
        )
    last = ours[-1]
    work = statistics.median(r["work_s"] for r in ours)
    ratio = work / max(statistics.median(r["work_s"] for r in floor), 1e-9)
    print(
        f"questions used {last['n']:,}; Friedman p by {last['method']}; pairs {last['pairs']:,}; "
        f"letter groups {last['groups']} (complete: {last['complete']}); CD groups "
        f"{last['cliques']}; ratio to read_csv {ratio:.1f}"
    )
    peak = max(r["peak_mb"] for r in ours)
    ok = work < LIMIT_S and peak < LIMIT_MB and last["complete"] and last["n"] == QUESTIONS
    print(f"target: under {LIMIT_S:g} s and {LIMIT_MB:.0f} MB: " + ("met" if ok else "NOT met"))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
