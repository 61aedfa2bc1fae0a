"""``python -m calculator cases A B --json`` on lm-eval logs written by lm-eval itself
(``docs/evallog-recipes/make_lmeval.py``: lm-eval 0.4.13's command line with a toy model), its
tables checked against a recount made here from the samples files with ``json`` alone: this
module does not import the product, which it runs in a subprocess.

The logs hold four tasks per model: ``toy_add`` (``acc`` and ``acc_norm``), ``toy_sub``
(``acc_norm`` only), ``toy_gen`` (``exact_match`` under ``strict-match`` and
``flexible-extract``) and ``toy_maj`` (``exact_match`` under ``maj@3`` and ``take_first``). Both
runs name the same model (lm-eval's own folder name), so ``--names`` is exercised too.

The recount: for each task, the metric and filter the product says it chose (``input.by_task``)
must be the ones the task's YAML puts first (its first metric, its first filter); each
document's value under them is read from each side's ``samples_<task>_*.jsonl``, the documents
paired by ``doc_id``, and the 2 x 2 table counted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "data" / "evallogs" / "generated" / "lm-eval"
A, B = LOGS / "toylm-a", LOGS / "toylm-b"

#: Each task's first metric and first filter, as the recipe's YAML writes them.
FIRST = {
    "toy_add": ("acc", "none"),
    "toy_sub": ("acc_norm", "none"),
    "toy_gen": ("exact_match", "strict-match"),
    "toy_maj": ("exact_match", "maj@3"),
}


def run(*argv: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "cases", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def values(folder: Path, task: str, metric: str, filter_name: str) -> dict[int, float]:
    """Each document's value of `metric` under `filter_name` in a folder's samples of `task`."""
    (path,) = folder.glob(f"samples_{task}_*.jsonl")
    found = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if record["filter"] == filter_name:
            found[record["doc_id"]] = float(record[metric])
    assert found, (task, metric, filter_name)
    return found


def recount(task: str, metric: str, filter_name: str) -> dict[str, int]:
    a, b = values(A, task, metric, filter_name), values(B, task, metric, filter_name)
    assert set(a) == set(b)
    cells = Counter((a[doc] == 1.0, b[doc] == 1.0) for doc in a)
    return {
        "a": cells[True, True],
        "b": cells[True, False],
        "c": cells[False, True],
        "d": cells[False, False],
        "n": len(a),
    }


@pytest.fixture(scope="module")
def default_run() -> dict:
    status, out, err = run(str(A), str(B), "--json")
    assert status == 0, err
    return json.loads(out)


def test_each_task_on_its_first_metric_and_filter(default_run):
    chosen = {
        task: (entry["metric"], entry["filter"])
        for task, entry in default_run["input"]["by_task"].items()
    }
    assert chosen == FIRST


def test_each_task_table_is_the_recount(default_run):
    tables = {task["task"]: task["table"] for task in default_run["tasks"]}
    assert set(tables) == set(FIRST)
    for task, (metric, filter_name) in FIRST.items():
        # Every JSON table is written alike (PairedTable.to_dict): its cells, n, discordant.
        assert tables[task].pop("discordant") == tables[task]["b"] + tables[task]["c"], task
        assert tables[task] == recount(task, metric, filter_name), task
    pooled = Counter()
    for table in tables.values():
        pooled.update(table)
    assert {key: default_run["table"][key] for key in "abcdn"} == dict(pooled)


def test_a_filter_and_a_metric_asked_for_one_task(tmp_path):
    status, out, err = run(
        str(A),
        str(B),
        "--json",
        "--filter",
        "toy_gen=flexible-extract",
        "--filter",
        "toy_maj=take_first",
        "--metric",
        "toy_add=acc_norm",
    )
    assert status == 0, err
    document = json.loads(out)
    asked = {
        **FIRST,
        "toy_gen": ("exact_match", "flexible-extract"),
        "toy_maj": ("exact_match", "take_first"),
        "toy_add": ("acc_norm", "none"),
    }
    chosen = {t: (e["metric"], e["filter"]) for t, e in document["input"]["by_task"].items()}
    assert chosen == asked
    for task in document["tasks"]:
        expected = recount(task["task"], *asked[task["task"]])
        expected["discordant"] = expected["b"] + expected["c"]
        assert task["table"] == expected, task["task"]


def test_one_model_name_twice_takes_the_names_given():
    status, out, err = run(str(A), str(B), "--json")
    assert status == 0, err
    assert json.loads(out)["input"]["names"] == ["A", "B"]
    status, out, err = run(str(A), str(B), "--json", "--names", "skill 0.8,skill 0.5")
    assert status == 0, err
    assert json.loads(out)["input"]["names"] == ["skill 0.8", "skill 0.5"]
    status, out, err = run(str(A), str(B), "--names", "solo")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "--names" in err and "'solo'" in err
