"""Logs within every bound on bytes that once took minutes or gigabytes (hostile review 4, H1 to
H4), each read, paired and analysed (or refused) in a fresh subprocess, beside a floor timed in
the same run: ``pandas.read_json(lines=True)`` of the 30 MB lm-eval file below.

- H1: two ``.eval`` logs of about 150 kB whose sample member decompresses to just under the
  member limit (100 MB) of ``[[[]]],[[[]]],...``, and two of about 100 kB of ``{},{},...``:
  4.3 GB and 2.9 GB before (32 s and 9 s of CPU), now refused before the member is parsed.
- H2: two lm-eval samples files of 40 metrics per record, 30 MB and 60 MB each (3.8 and 7.5
  million rows): 20 s of CPU and 1.8 GB for 30 MB before; both are now refused by the row limit
  (2 million a system), and two files of 1.95 million documents (one metric each, just under
  that limit) are read: the slowest input the limit lets through.
- H3: two Inspect JSON logs of 550 and of 800 questions x 20 epochs where some samples errored,
  so the questions have 16 to 20 scored epochs: 59 s of CPU and 4.8 GB (550) and a refusal of
  the comparison (800) before; now the pass-share test is left out with a line saying why.
- H4: two lm-eval folders of 2,000 tasks (the limit) x 100 documents: 34 s of CPU before.

Target: each under 30 s of CPU and 2 GB. Run from the repository root:

    python benchmarks/bench_limits.py [--repeats 1] [--only H1 H3]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEMBER = 100 * 1024 * 1024 - 1024  # just under the .eval reader's member limit
TIME = ("2024-01-01T00-00-00.000000", "2024-01-02T00-00-00.000000")

RUN = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[3])
from calculator.logs import LogError, analyze_logs, pair_logs, read_log
wall, cpu = time.perf_counter(), time.process_time()
try:
    result = analyze_logs(pair_logs(read_log(sys.argv[1]), read_log(sys.argv[2])))
    outcome = f"read: {result.pooled.table.n:,} cases"
except LogError as error:
    outcome = "refused: " + str(error)[:90]
print(json.dumps({"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "outcome": outcome}))
"""

FLOOR = """
import json, resource, sys, time
import pandas
wall, cpu = time.perf_counter(), time.process_time()
frame = pandas.read_json(sys.argv[1], lines=True)
print(json.dumps({"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "outcome": f"{len(frame):,} rows"}))
"""


def eval_log(path: Path, model: str, unit: bytes) -> Path:
    """An .eval log of two samples, the first padded with `unit` to just under MEMBER."""
    header = {"eval": {"task": "t", "model": model, "scorers": [{"name": "m"}]}}
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("header.json", json.dumps(header))
        for i, grade in enumerate("CI"):
            head = f'{{"id":"q{i}","epoch":1,"scores":{{"m":{{"value":"{grade}"}}}},"messages":['
            body = head.encode() + (unit * ((MEMBER - len(head)) // len(unit)))[:-1] + b"]}"
            z.writestr(f"samples/q{i}_epoch_1.json", body if i == 0 else head.encode() + b"]}")
    return path


def many_metrics(folder: Path, mb: int, seed: int) -> Path:
    """An lm-eval samples file of `mb` MB: records of 40 metrics of 0 or 1."""
    folder.mkdir()
    rng, target, written, lines = random.Random(seed), mb * 1024 * 1024, 0, []
    while written < target:
        values = ",".join(f'"m{k}":{rng.randint(0, 1)}' for k in range(40))
        lines.append(f'{{"doc_id":{len(lines)},"doc":0,{values}}}\n')
        written += len(lines[-1])
    (folder / f"samples_t_{TIME[seed - 1]}.jsonl").write_text("".join(lines))
    return folder


def documents(folder: Path, side: int, count: int) -> Path:
    """An lm-eval samples file of `count` documents, one metric each."""
    folder.mkdir()
    rng = random.Random(side)
    lines = (f'{{"doc_id":{i},"doc":0,"acc":{int(rng.random() < 0.5)}}}\n' for i in range(count))
    (folder / f"samples_t_{TIME[side]}.jsonl").write_text("".join(lines))
    return folder


def epochs(path: Path, model: str, questions: int, seed: int, share: float) -> Path:
    """An Inspect JSON log of `questions` x 20 epochs; one question in 20 lost 0 to 4 epochs."""
    rng, samples = random.Random(seed), []
    for q in range(questions):
        errored = set(rng.sample(range(1, 21), rng.randint(0, 4))) if rng.random() < 0.05 else ()
        for e in range(1, 21):
            sample: dict = {"id": f"q{q}", "epoch": e}
            if e not in errored:
                sample["scores"] = {"match": {"value": "C" if rng.random() < share else "I"}}
            samples.append(sample)
    spec = {"task": "mock_qa", "model": model, "scorers": [{"name": "match"}]}
    path.write_text(json.dumps({"eval": spec, "results": {}, "samples": samples}))
    return path


def many_tasks(folder: Path, side: int, tasks: int = 2_000, docs: int = 100) -> Path:
    """An lm-eval folder of `tasks` samples files of `docs` documents, filter "none"."""
    folder.mkdir()
    rng = random.Random(side)
    for k in range(tasks):
        lines = (
            json.dumps(
                {"doc_id": i, "doc": {}, "resps": [], "filter": "none", "metrics": ["acc"],
                 "acc": int(rng.random() < 0.5)}
            )
            for i in range(docs)
        )  # fmt: skip
        (folder / f"samples_task{k:04d}_{TIME[side]}.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def cases(tmp: Path, only: set[str]) -> dict[str, tuple[Path, Path]]:
    made: dict[str, tuple[Path, Path]] = {}
    if "H1" in only:
        made["H1 .eval, [[[]]] member"] = tuple(
            eval_log(tmp / f"nested_{m}.eval", f"m/{m}", b"[[[]]],") for m in "ab"
        )
        made["H1 .eval, {} member"] = tuple(
            eval_log(tmp / f"objects_{m}.eval", f"m/{m}", b"{},") for m in "ab"
        )
    if "H2" in only:
        for mb in (30, 60):
            made[f"H2 lm-eval 40 metrics, {mb} MB"] = tuple(
                many_metrics(tmp / f"metrics{mb}_{seed}", mb, seed) for seed in (1, 2)
            )
        made["H2 lm-eval 1.95 M documents"] = tuple(
            documents(tmp / f"documents_{side}", side, 1_950_000) for side in (0, 1)
        )
    if "H3" in only:
        for q in (550, 800):
            made[f"H3 Inspect {q} x 20, errored"] = tuple(
                epochs(tmp / f"epochs{q}_{m}.json", f"m/{m}", q, seed, share)
                for m, seed, share in (("a", 1, 0.6), ("b", 2, 0.5))
            )
    if "H4" in only:
        made["H4 lm-eval 2,000 tasks x 100"] = tuple(
            many_tasks(tmp / f"tasks_{side}", side) for side in (0, 1)
        )
    return made


def measure(script: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True)
    if done.returncode:
        return {"cpu_s": float("nan"), "wall_s": float("nan"), "peak_mb": float("nan"),
                "outcome": f"exit {done.returncode}: {done.stderr.strip()[-90:]}"}  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=1, help="runs of each (the best is kept)")
    parser.add_argument("--only", nargs="+", default=["H1", "H2", "H3", "H4"], help="findings")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        floor_file = many_metrics(tmp / "floor", 30, 1)
        floor = min(
            (measure(FLOOR, str(next(floor_file.iterdir()))) for _ in range(args.repeats)),
            key=lambda r: r["cpu_s"],
        )
        rows = []
        for label, (a, b) in cases(tmp, set(args.only)).items():
            runs = [measure(RUN, str(a), str(b), str(ROOT)) for _ in range(args.repeats)]
            rows.append((label, min(runs, key=lambda r: r["cpu_s"])))
    print(
        f"floor: pandas read_json(lines=True) of a 30 MB file of 40 metrics per record, "
        f"{floor['cpu_s']:.2f} s CPU, {floor['peak_mb']:.0f} MB"
    )
    print(f"{'':34}{'CPU s':>7}{'ratio':>7}{'wall s':>8}{'peak MB':>9}  outcome")
    for label, r in rows:
        print(
            f"{label:34}{r['cpu_s']:7.2f}{r['cpu_s'] / floor['cpu_s']:7.2f}{r['wall_s']:8.2f}"
            f"{r['peak_mb']:9.0f}  {r['outcome']}"
        )
    over = [label for label, r in rows if not (r["cpu_s"] < 30 and r["peak_mb"] < 2048)]
    print(
        f"target < 30 s CPU and < 2 GB each: {'met' if not over else 'NOT met: ' + ', '.join(over)}"
    )


if __name__ == "__main__":
    main()
