"""Evaluation logs at the scale of a full MMLU run (issue 21), and the Inspect reader's choice.

Target: two models' suites of the full MMLU shape (57 subtasks, 14,042 questions per model)
read, paired and analysed (a table and exact test per task, the pooled table, the task-clustered
test, Holm across tasks) in under 10 s and 1 GB, in two layouts generated here: lm-eval results
folders (``samples_<task>_<time>.jsonl`` files in lm-eval's documented layout, one sample per
question) and Inspect eval sets (one JSON log per subject, every question run over 3 epochs, so
the tests go by question). Beside each, measured the same way in the same run: the standard
library's parse of the same files (``json.loads`` per line or per log), and for lm-eval pandas'
own read (``pandas.read_json(lines=True)`` per file, then ``concat``); both only read.

``--hostile`` measures the bounds of the readers against hostile logs (issue 23, second round),
each refused or read in a fresh subprocess, beside pandas' read of the 10^6-line log as the
floor: a 20 kB ``.eval`` whose zstd member declares 100 bytes and decompresses to 2 GB (refused
after reading at most 101 bytes of it), an ``.eval`` of 100,000 members (the limit, a header
and 99,999 samples: read), one of 100,001 (refused before zipfile lists them), an lm-eval
samples file of 10^6 documents read, paired and analysed against a second one, and two lm-eval
folders of 2,000 tasks each (the limit) read, paired and analysed.

``--inspect PYTHON`` measures, on the GPQA ``.eval`` log of tests/data/evallogs, this package's
reader against Inspect's ``read_eval_log`` run by PYTHON (an interpreter with inspect-ai
installed, e.g. a throwaway venv): import seconds, read seconds, peak memory.

Each measurement runs in a fresh subprocess so that its peak resident memory is its own. Run
from the repository root:

    python benchmarks/bench_logs.py [--repeats 3] [--inspect /tmp/venv/bin/python] [--hostile]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Epochs of every question in the Inspect eval set of the MMLU shape.
EPOCHS = 3
TIME_LIMIT_S = 10.0
MEMORY_LIMIT_MB = 1024.0

#: MMLU's 57 subjects and the sizes of their test split (14,042 questions in all).
MMLU = {
    "abstract_algebra": 100, "anatomy": 135, "astronomy": 152, "business_ethics": 100,
    "clinical_knowledge": 265, "college_biology": 144, "college_chemistry": 100,
    "college_computer_science": 100, "college_mathematics": 100, "college_medicine": 173,
    "college_physics": 102, "computer_security": 100, "conceptual_physics": 235,
    "econometrics": 114, "electrical_engineering": 145, "elementary_mathematics": 378,
    "formal_logic": 126, "global_facts": 100, "high_school_biology": 310,
    "high_school_chemistry": 203, "high_school_computer_science": 100,
    "high_school_european_history": 165, "high_school_geography": 198,
    "high_school_government_and_politics": 193, "high_school_macroeconomics": 390,
    "high_school_mathematics": 270, "high_school_microeconomics": 238,
    "high_school_physics": 151, "high_school_psychology": 545, "high_school_statistics": 216,
    "high_school_us_history": 204, "high_school_world_history": 237, "human_aging": 223,
    "human_sexuality": 131, "international_law": 121, "jurisprudence": 108,
    "logical_fallacies": 163, "machine_learning": 112, "management": 103, "marketing": 234,
    "medical_genetics": 100, "miscellaneous": 783, "moral_disputes": 346,
    "moral_scenarios": 895, "nutrition": 306, "philosophy": 311, "prehistory": 324,
    "professional_accounting": 282, "professional_law": 1534, "professional_medicine": 272,
    "professional_psychology": 612, "public_relations": 110, "security_studies": 245,
    "sociology": 201, "us_foreign_policy": 100, "virology": 166, "world_religions": 171,
}  # fmt: skip

OURS = """
import json, resource, sys, time
started = time.perf_counter()
sys.path.insert(0, sys.argv[3])
from calculator.logs import analyze_logs, pair_logs, read_log
imported = time.perf_counter()
result = analyze_logs(pair_logs(read_log(sys.argv[1]), read_log(sys.argv[2])))
done = time.perf_counter()
t = result.pooled.table
print(json.dumps({"work_s": done - imported, "import_s": imported - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "tasks": len(result.tasks), "cases": t.n}))
"""

PANDAS = """
import json, resource, sys, time
from pathlib import Path
started = time.perf_counter()
import pandas
imported = time.perf_counter()
frames = [pandas.read_json(path, lines=True) for folder in sys.argv[1:3]
          for path in sorted(Path(folder).glob("samples_*.jsonl"))]
frame = pandas.concat(frames, ignore_index=True)
done = time.perf_counter()
print(json.dumps({"work_s": done - imported, "import_s": imported - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rows": len(frame)}))
"""

STDLIB = """
import json, resource, sys, time
from pathlib import Path
started = time.perf_counter()
imported = time.perf_counter()
rows = 0
for folder in sys.argv[1:3]:
    for path in sorted(Path(folder).iterdir()):
        text = path.read_text()
        if path.suffix == ".jsonl":
            rows += sum(1 for line in text.splitlines() if line and json.loads(line))
        else:
            rows += len(json.loads(text)["samples"])
done = time.perf_counter()
print(json.dumps({"work_s": done - imported, "import_s": imported - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rows": rows}))
"""

INSPECT_OURS = """
import json, resource, sys, time
started = time.perf_counter()
sys.path.insert(0, sys.argv[2])
import pandas  # the long table's own dependency, imported by the calculator anyway
from calculator.logs.inspect_log import read_inspect
imported = time.perf_counter()
path = sys.argv[1]
table = read_inspect(path.rsplit("/", 1)[-1], open(path, "rb").read())
done = time.perf_counter()
print(json.dumps({"work_s": done - imported, "import_s": imported - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rows": len(table.frame)}))
"""

INSPECT_THEIRS = """
import json, resource, sys, time
started = time.perf_counter()
from inspect_ai.log import read_eval_log
imported = time.perf_counter()
log = read_eval_log(sys.argv[1])
scores = [(s.id, s.epoch, k, v.value) for s in log.samples for k, v in s.scores.items()]
done = time.perf_counter()
print(json.dumps({"work_s": done - imported, "import_s": imported - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rows": len(scores)}))
"""


def write_folder(folder: Path, skill: float, seed: int) -> None:
    """One model's MMLU results folder in lm-eval's documented samples layout."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    stamp = "2026-01-01T00-00-00.000000"
    for subject, size in MMLU.items():
        lines = []
        for doc_id in range(size):
            question = f"Question {doc_id} of {subject}: " + "lorem ipsum " * 40
            choices = [f"choice {k} " + "dolor " * 5 for k in range(4)]
            answer = doc_id % 4
            doc = {"question": question, "subject": subject, "choices": choices, "answer": answer}
            prompt = f"The following are multiple choice questions about {subject}.\n\n{question}"
            logliks = [[[f"{-rng.random() * 5:.6f}", "False"]] for _ in range(4)]
            right = rng.random() < skill
            record = {
                "doc_id": doc_id,
                "doc": doc,
                "target": answer,
                "arguments": {
                    f"gen_args_{k}": {"arg_0": prompt, "arg_1": f" {'ABCD'[k]}"} for k in range(4)
                },
                "resps": logliks,
                "filtered_resps": [item[0] for item in logliks],
                "filter": "none",
                "metrics": ["acc"],
                "doc_hash": hashlib.sha256(json.dumps(doc).encode()).hexdigest(),
                "prompt_hash": hashlib.sha256(prompt.encode()).hexdigest(),
                "target_hash": hashlib.sha256(str(answer).encode()).hexdigest(),
                "acc": 1.0 if right else 0.0,
            }
            lines.append(json.dumps(record))
        (folder / f"samples_mmlu_{subject}_{stamp}.jsonl").write_text("\n".join(lines) + "\n")


def write_inspect_set(folder: Path, skill: float, seed: int, epochs: int = EPOCHS) -> None:
    """One model's Inspect eval set of the MMLU shape: one JSON log per subject (Inspect's
    documented log schema: ``eval`` with task, model and scorers, ``samples`` with id, epoch,
    input, target and scores), every question run `epochs` times."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    for subject, size in MMLU.items():
        samples = []
        for doc_id in range(size):
            question = f"Question {doc_id} of {subject}: " + "lorem ipsum " * 40
            # A question's own difficulty, shared by its epochs (repeats are not independent).
            ease = min(1.0, max(0.0, rng.gauss(skill, 0.25)))
            for epoch in range(1, epochs + 1):
                value = "C" if rng.random() < ease else "I"
                samples.append(
                    {
                        "id": doc_id,
                        "epoch": epoch,
                        "input": question,
                        "target": "ABCD"[doc_id % 4],
                        "output": {"completion": "ANSWER: " + "ABCD"[rng.randrange(4)]},
                        "scores": {"choice": {"value": value, "answer": "A"}},
                    }
                )
        log = {
            "version": 2,
            "status": "success",
            "eval": {
                "task": f"mmlu_{subject}",
                "model": folder.name,
                "scorers": [{"name": "choice"}],
            },
            "samples": samples,
        }
        (folder / f"2026-01-01T00-00-00_mmlu-{subject}.json").write_text(json.dumps(log))


HOSTILE_READ = """
import json, resource, sys, time
started = time.perf_counter()
sys.path.insert(0, sys.argv[3])
from calculator.logs import LogError, analyze_logs, pair_logs, read_log
imported = time.perf_counter()
try:
    result = analyze_logs(pair_logs(read_log(sys.argv[1]), read_log(sys.argv[2])))
    outcome = f"read: {result.pooled.table.n:,} cases"
except LogError as error:
    outcome = "refused: " + str(error)[:70]
done = time.perf_counter()
print(json.dumps({"work_s": done - imported, "import_s": imported - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "outcome": outcome}))
"""

PANDAS_LINES = """
import json, resource, sys, time
started = time.perf_counter()
import pandas
imported = time.perf_counter()
frame = pandas.read_json(sys.argv[1], lines=True)
done = time.perf_counter()
print(json.dumps({"work_s": done - imported, "import_s": imported - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rows": len(frame)}))
"""


def _eval_archive(path: Path, members: list[tuple[str, bytes, int, int]]) -> None:
    """An .eval archive of zstd members (method 93): (name, compressed bytes, declared size,
    CRC-32), its end record's 16-bit count wrapping as a writer without zip64 leaves it."""
    import struct

    with path.open("wb") as out:
        central, offset = [], 0
        for name, packed, size, crc in members:
            raw = name.encode()
            local = (
                struct.pack(
                    "<4sHHHHHIIIHH",
                    b"PK\x03\x04",
                    63,
                    0,
                    93,
                    0,
                    0,
                    crc,
                    len(packed),
                    size,
                    len(raw),
                    0,
                )
                + raw
            )
            out.write(local + packed)
            central.append(
                struct.pack(
                    "<4sHHHHHHIIIHHHHHII",
                    b"PK\x01\x02",
                    63,
                    63,
                    0,
                    93,
                    0,
                    0,
                    crc,
                    len(packed),
                    size,
                    len(raw),
                    0,
                    0,
                    0,
                    0,
                    0,
                    offset,
                )
                + raw
            )
            offset += len(local) + len(packed)
        start = offset
        for entry in central:
            out.write(entry)
            offset += len(entry)
        out.write(
            struct.pack(
                "<4sHHHHIIH",
                b"PK\x05\x06",
                0,
                0,
                len(central) & 0xFFFF,
                len(central) & 0xFFFF,
                offset - start,
                start,
                0,
            )
        )


def write_hostile(folder: Path) -> dict[str, tuple[Path, Path]]:
    """The hostile logs of ``--hostile`` and the ordinary log each is compared with."""
    import zlib

    import zstandard

    folder.mkdir(parents=True, exist_ok=True)
    header = json.dumps({"eval": {"task": "t", "model": "m"}}).encode()
    packer = zstandard.ZstdCompressor()

    def sample(i: int) -> tuple[str, bytes, int, int]:
        body = json.dumps({"id": i, "epoch": 1, "scores": {"m": {"value": "CI"[i % 2]}}})
        raw = body.encode()
        return f"samples/{i}_epoch_1.json", packer.compress(raw), len(raw), zlib.crc32(raw)

    head = ("header.json", packer.compress(header), len(header), zlib.crc32(header))

    good = folder / "good.eval"
    _eval_archive(good, [head] + [sample(i) for i in range(100)])
    stream = packer.compressobj(size=2 << 30)  # the frame declares 2 GB
    chunk = bytes(1 << 20)
    bomb = b"".join(stream.compress(chunk) for _ in range(2048)) + stream.flush()
    _eval_archive(folder / "bomb.eval", [head, ("samples/0_epoch_1.json", bomb, 100, 0)])
    for count in (100_000, 100_001):
        _eval_archive(
            folder / f"members_{count}.eval", [head] + [sample(i) for i in range(count - 1)]
        )
    lines = {}
    for side in (0, 1):
        path = folder / f"side{side}" / "samples_t_2024-01-01T00-00-00.000000.jsonl"
        path.parent.mkdir()
        with path.open("w") as out:
            for i in range(1_000_000):
                passed = (zlib.crc32(f"{side}:{i}".encode()) % 100) < 60 + 2 * side
                out.write(
                    f'{{"doc_id": {i}, "doc": {{}}, "resps": [], "filter": "none", '
                    f'"metrics": ["acc"], "acc": {int(passed)}}}\n'
                )
        lines[side] = path
    for side in "ab":  # MAX_TASKS one-document tasks, three documents each
        for task in range(2_000):
            path = folder / f"tasks_{side}" / f"samples_task{task}_2024-01-01T00-00-00.000000.jsonl"
            path.parent.mkdir(exist_ok=True)
            path.write_text(
                "".join(
                    f'{{"doc_id": {i}, "doc": {{}}, "resps": [], "metrics": ["acc"], '
                    f'"acc": {(i + task + (side == "b")) % 2}}}\n'
                    for i in range(3)
                )
            )
    return {
        "2,000 tasks (the limit)": (folder / "tasks_a", folder / "tasks_b"),
        "zstd bomb (2 GB frame, 20 kB)": (folder / "bomb.eval", good),
        "100,000 members (the limit)": (folder / "members_100000.eval", good),
        "100,001 members": (folder / "members_100001.eval", good),
        "lm-eval, 10^6 documents": (lines[0], lines[1]),
    }


def hostile(repeats: int) -> None:
    """The ``--hostile`` table: each row's work seconds, its ratio to the floor, its peak MB."""
    with tempfile.TemporaryDirectory() as tmp:
        cases = write_hostile(Path(tmp))
        lines = cases["lm-eval, 10^6 documents"][0]
        floor = min(
            (measure(PANDAS_LINES, str(lines)) for _ in range(repeats)), key=lambda r: r["work_s"]
        )
        rows = []
        for label, (a, b) in cases.items():
            runs = [measure(HOSTILE_READ, str(a), str(b), str(ROOT)) for _ in range(repeats)]
            rows.append((label, min(runs, key=lambda r: r["work_s"])))
    print(
        f"\nhostile logs (floor: pandas read_json of the 10^6-line file, "
        f"{floor['work_s']:.2f} s, {floor['peak_mb']:.0f} MB)"
    )
    print(f"{'':32}{'work s':>8}{'ratio':>7}{'peak MB':>9}  outcome")
    for label, r in rows:
        print(
            f"{label:32}{r['work_s']:8.2f}{r['work_s'] / floor['work_s']:7.2f}"
            f"{r['peak_mb']:9.0f}  {r['outcome']}"
        )
    slow = [label for label, r in rows if r["work_s"] >= 30 or r["peak_mb"] >= 2048]
    print(f"target < 30 s and < 2 GB each: {'met' if not slow else 'NOT met: ' + ', '.join(slow)}")


def measure(script: str, *args: str, python: str = sys.executable) -> dict:
    done = subprocess.run([python, "-c", script, *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _suite(title: str, write, pandas_floor: tuple[str, str] | None, repeats: int) -> None:
    """Write two models' logs with `write`, then time reading, pairing and analysing them
    against the standard library's parse of the same files (and pandas' read, if given)."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "model-a", Path(tmp) / "model-b"
        write(a, 0.62, 1)
        write(b, 0.64, 2)
        size = sum(p.stat().st_size for p in a.iterdir()) / 1e6
        ours = [measure(OURS, str(a), str(b), str(ROOT)) for _ in range(repeats)]
        floors = [("json.loads, stdlib (floor)", STDLIB)] + ([pandas_floor] if pandas_floor else [])
        rows = [
            (label, [measure(script, str(a), str(b)) for _ in range(repeats)])
            for label, script in floors
        ]
    best = min(ours, key=lambda r: r["work_s"])
    print(f"{title}: 57 tasks, {best['cases']:,} paired samples, {size:.0f} MB per model")
    print(f"{'':30}{'work s':>8}{'import s':>10}{'peak MB':>9}{'ratio':>7}")
    _row("read, pair, analyse", best, None)
    for label, runs in rows:
        _row(label, min(runs, key=lambda r: r["work_s"]), best)
    print(f"median over {repeats}: ours {statistics.median(r['work_s'] for r in ours):.2f} s")
    ok = best["work_s"] < TIME_LIMIT_S and best["peak_mb"] < MEMORY_LIMIT_MB
    print(
        f"target < {TIME_LIMIT_S:g} s and < {MEMORY_LIMIT_MB:g} MB: {'met' if ok else 'NOT met'}\n"
    )


def _row(label: str, row: dict, ours: dict | None) -> None:
    """One line of the table; a floor's line ends with our time over its time."""
    ratio = f"{ours['work_s'] / row['work_s']:7.2f}" if ours else ""
    print(f"{label:30}{row['work_s']:8.2f}{row['import_s']:10.2f}{row['peak_mb']:9.0f}{ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--inspect", metavar="PYTHON", help="an interpreter with inspect-ai")
    parser.add_argument("--hostile", action="store_true", help="only the hostile logs' rows")
    args = parser.parse_args()
    if args.hostile:
        hostile(args.repeats)
        return
    assert len(MMLU) == 57 and sum(MMLU.values()) == 14_042
    suites = (
        ("two lm-eval MMLU folders", write_folder, ("pandas read_json", PANDAS)),
        (f"two Inspect MMLU eval sets, {EPOCHS} epochs", write_inspect_set, None),
    )
    for title, write, pandas_floor in suites:
        _suite(title, write, pandas_floor, args.repeats)
    if args.inspect:
        gpqa = str(next((ROOT / "tests" / "data" / "evallogs" / "inspect").glob("*.eval")))
        rows = [
            ("calculator.logs reader", measure(INSPECT_OURS, gpqa, str(ROOT))),
            ("inspect_ai read_eval_log", measure(INSPECT_THEIRS, gpqa, python=args.inspect)),
        ]
        print(f"\nInspect GPQA log ({Path(gpqa).stat().st_size / 1e3:.0f} kB):")
        for label, r in rows:
            print(f"{label:28}{r['work_s']:8.2f}{r['import_s']:10.2f}{r['peak_mb']:9.0f}")


if __name__ == "__main__":
    main()
