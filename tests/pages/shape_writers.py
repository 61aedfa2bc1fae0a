"""Harness logs written for the matrix tests (test_one_data_*.py): one system's outcomes or
scores as lm-eval samples, an Inspect log or a HELM run, in each tool's documented shape."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

TIME = "2026-01-01T00-00-00.000000"


def lm_eval_files(
    values: Sequence[float], model: str, *, metric: str = "acc", task: str = "toy"
) -> dict[str, bytes]:
    """One lm-eval run (``--log_samples``): a samples file of `task` logging `metric` per
    document, and a results file naming `model`."""
    rows = [
        {
            "doc_id": i,
            "doc": {"question": f"{task} question {i}"},
            "target": "t",
            "resps": [["r"]],
            "filtered_resps": ["r"],
            "filter": "none",
            "metrics": [metric],
            metric: float(value),
            "doc_hash": f"{task}{i}",
        }
        for i, value in enumerate(values)
    ]
    results = {"results": {task: {}}, "configs": {}, "model_name": model}
    return {
        f"samples_{task}_{TIME}.jsonl": "\n".join(map(json.dumps, rows)).encode() + b"\n",
        f"results_{TIME}.json": json.dumps(results).encode(),
    }


def inspect_log(
    values: dict[tuple[str, int], float], model: str, *, scorer: str = "match", task: str = "toy"
) -> bytes:
    """One Inspect log (the JSON form) of `task` by `model`: a sample per (id, epoch) in
    `values`; a scorer named 'match' gives C/I, any other the number."""

    def score(value: float) -> object:
        return ("C" if value else "I") if scorer == "match" else value

    samples = [
        {
            "id": sample,
            "epoch": epoch,
            "input": f"{task} question {sample}",
            "target": "t",
            "scores": {scorer: {"value": score(value)}},
        }
        for (sample, epoch), value in values.items()
    ]
    log = {
        "version": 2,
        "status": "success",
        "eval": {"task": task, "model": model, "scorers": [{"name": scorer}]},
        "samples": samples,
    }
    return json.dumps(log).encode()


def helm_files(
    values: Sequence[float], model: str, *, stat: str = "exact_match", task: str = "toy"
) -> dict[str, bytes]:
    """One HELM run folder of `task` by `model`: per-instance `stat` and the run spec."""
    instances = [
        {
            "instance_id": f"id{i}",
            "train_trial_index": 0,
            "stats": [
                {
                    "name": {"name": stat, "split": "test"},
                    "count": 1,
                    "sum": float(value),
                    "mean": float(value),
                }
            ],
        }
        for i, value in enumerate(values)
    ]
    spec = {"name": f"{task}:model={model}", "adapter_spec": {"model": model}}
    return {
        "per_instance_stats.json": json.dumps(instances).encode(),
        "run_spec.json": json.dumps(spec).encode(),
    }


def one_epoch(values: Sequence[float], prefix: str = "q") -> dict[tuple[str, int], float]:
    """`values` as Inspect samples of one epoch, ids q0, q1, ..."""
    return {(f"{prefix}{i}", 1): value for i, value in enumerate(values)}


def two_logs(make: Callable[[int], dict[str, bytes]]) -> Callable[[Path], list[str]]:
    """A writer of A's and B's logs (`make(0)`, `make(1)`: file name to bytes) in folders A
    and B, returning what ``cases`` takes: the file when a log is one file, else its folder."""

    def write(folder: Path) -> list[str]:
        given = []
        for side in (0, 1):
            files = make(side)
            run = folder / "AB"[side]
            run.mkdir()
            for name, data in files.items():
                (run / name).write_bytes(data)
            given.append(str(run / next(iter(files))) if len(files) == 1 else str(run))
        return given

    return write


def per_case_file(pairs: Sequence[tuple[float, float]]) -> Callable[[Path], list[str]]:
    """A writer of one per-case file, a row per case: id, A's outcome, B's."""

    def write(folder: Path) -> list[str]:
        rows = "".join(f"q{i},{a},{b}\n" for i, (a, b) in enumerate(pairs))
        (folder / "runs.csv").write_text("id,A,B\n" + rows)
        return [str(folder / "runs.csv"), "--id", "id", "--a", "A", "--b", "B"]

    return write


def two_files(pairs: Sequence[tuple[float, float]]) -> Callable[[Path], list[str]]:
    """A writer of A's and B's files joined on an id; B's rows in reverse order, so the join
    is by id, not by line."""

    def write(folder: Path) -> list[str]:
        rows_a = [f"q{i},{a}\n" for i, (a, _) in enumerate(pairs)]
        rows_b = [f"q{i},{b}\n" for i, (_, b) in enumerate(pairs)]
        (folder / "a.csv").write_text("id,A\n" + "".join(rows_a))
        (folder / "b.csv").write_text("id,B\n" + "".join(reversed(rows_b)))
        given = [str(folder / "a.csv"), str(folder / "b.csv")]
        return [*given, "--id", "id", "--a", "A", "--b", "B"]

    return write


def long_file(pairs: Sequence[tuple[float, float]]) -> Callable[[Path], list[str]]:
    """A writer of one long file, a row per case and system, B's rows first (the roles are
    named with --a and --b, never taken from the order of the rows)."""

    def write(folder: Path) -> list[str]:
        rows = [f"q{i},{'AB'[s]},{pair[s]}\n" for i, pair in enumerate(pairs) for s in (0, 1)]
        (folder / "long.csv").write_text("id,system,outcome\n" + "".join(rows[1::2] + rows[::2]))
        given = ["--system", "system", "--id", "id", "--outcome", "outcome"]
        return [str(folder / "long.csv"), *given, "--a", "A", "--b", "B"]

    return write


def log_shapes(
    pairs: Sequence[tuple[float, float]],
    *,
    metric: str = "acc",
    scorer: str = "match",
    stat: str = "exact_match",
) -> dict[str, Callable[[int], dict[str, bytes]]]:
    """The three harnesses' logs of `pairs`, each a function of the side (0: A, 1: B) giving
    its files."""

    def side_values(side: int) -> list[float]:
        return [pair[side] for pair in pairs]

    def inspect(side: int) -> dict[str, bytes]:
        values = one_epoch(side_values(side))
        return {f"log_{'AB'[side]}.json": inspect_log(values, "AB"[side], scorer=scorer)}

    return {
        "lm-eval": lambda side: lm_eval_files(side_values(side), "AB"[side], metric=metric),
        "inspect": inspect,
        "helm": lambda side: helm_files(side_values(side), "AB"[side], stat=stat),
    }


def shapes(
    pairs: Sequence[tuple[float, float]], logs: dict[str, Callable[[int], dict[str, bytes]]]
) -> dict[str, Callable[[Path], list[str]]]:
    """Every shape that can carry `pairs`, each a writer into a folder returning the
    arguments of ``cases``."""
    return {
        "per-case file": per_case_file(pairs),
        "two per-case files": two_files(pairs),
        "long file": long_file(pairs),
        **{name: two_logs(make) for name, make in logs.items()},
    }


def cli(capsys, command: list[str]) -> tuple[int, str, str]:  # noqa: ANN001 - pytest's capsys
    """``python -m calculator`` in this process: its exit status, stdout and stderr."""
    from calculator.cli import main

    status = main(command)
    out, err = capsys.readouterr()
    return status, out, err


def compare_json(*argv: object) -> dict:
    """``python -m calculator compare ARGV --json`` in a child process, from the repository's
    root: its JSON document (a failure raises, with the command's output)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *map(str, argv), "--json"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)


def helm_suite(root: Path, helm: Path) -> Path:
    """The real HELM BBQ runs in `helm` (``bbq_*_per_instance_stats.json`` beside their run
    specs) laid out as HELM writes a suite: ``root/runs/v4/<run name>/`` holding each run's
    ``per_instance_stats.json`` and ``run_spec.json``; returns the ``v4`` folder."""
    suite = root / "runs" / "v4"
    for stats in sorted(helm.glob("bbq_*_per_instance_stats.json")):
        spec = stats.with_name(stats.name.replace("per_instance_stats", "run_spec"))
        run = suite / json.loads(spec.read_text())["name"]
        run.mkdir(parents=True)
        shutil.copy(stats, run / "per_instance_stats.json")
        shutil.copy(spec, run / "run_spec.json")
    return suite
