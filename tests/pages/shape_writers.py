"""Harness logs written for the matrix tests (test_one_data_*.py): one system's outcomes or
scores as lm-eval samples, an Inspect log or a HELM run, in each tool's documented shape."""

from __future__ import annotations

import json
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
