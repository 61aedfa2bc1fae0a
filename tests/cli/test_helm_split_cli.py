"""``--split`` on ``cases`` and ``compare`` for HELM logs, refused (exit 2, one line) for other
inputs; and the notes of a HELM run named after its file in ``compare``'s summary.

HELM evaluates the ``valid`` and ``test`` splits (``helm.benchmark.scenarios.scenario``:
VALID_SPLIT, TEST_SPLIT) and labels every per-instance stat with its split. The logs here are
the real BBQ runs of tests/data/evallogs/helm (test split only, see SOURCES.md), to which each
test adds a ``valid`` exact_match written by the test itself; expected tables are counted here
from the values written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculator.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "evallogs"
GPT = DATA / "helm" / "bbq_openai_gpt-4o-2024-05-13_per_instance_stats.json"
LLAMA = DATA / "helm" / "bbq_meta_llama-3-8b-chat_per_instance_stats.json"
WINOGRANDE = sorted((DATA / "lm-eval").glob("output__*winogrande*.jsonl"))


def with_valid_split(tmp_path: Path, source: Path, name: str, every: int) -> tuple[Path, list]:
    """`source` with a valid-split exact_match per instance: 1 on every `every`-th, else 0."""
    document = json.loads(source.read_text())
    values = []
    for k, instance in enumerate(document):
        value = 1.0 if k % every == 0 else 0.0
        values.append(value)
        label = {"name": "exact_match", "split": "valid"}
        instance["stats"].append({"name": label, "count": 1, "sum": value, "mean": value})
    target = tmp_path / name
    target.write_text(json.dumps(document))
    return target, values


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cases_compares_the_split_asked_for(tmp_path, capsys):
    a, a_values = with_valid_split(tmp_path, GPT, "a.json", 2)
    b, b_values = with_valid_split(tmp_path, LLAMA, "b.json", 3)
    pairs = list(zip(a_values, b_values, strict=True))
    expected = {
        "a": pairs.count((1.0, 1.0)),
        "b": pairs.count((1.0, 0.0)),
        "c": pairs.count((0.0, 1.0)),
        "d": pairs.count((0.0, 0.0)),
    }
    status, out, _ = run(capsys, "cases", str(a), str(b), "--split", "valid", "--json")
    payload = json.loads(out)
    assert status == 0
    assert (
        {k: payload["table"][k] for k in "abcd"} == expected == {"a": 17, "b": 33, "c": 17, "d": 33}
    )
    assert "the 'valid' split analysed, not HELM's test split" in payload["input"]["notes"]
    status, out, _ = run(capsys, "cases", str(a), str(b), "--json")  # the test split, as before
    assert {k: json.loads(out)["table"][k] for k in "abcd"} == {"a": 72, "b": 23, "c": 2, "d": 3}


def test_compare_compares_the_split_asked_for(tmp_path, capsys):
    files = [
        with_valid_split(tmp_path, source, f"{name}.json", every)[0]
        for source, name, every in ((GPT, "a", 2), (LLAMA, "b", 3), (LLAMA, "c", 4))
    ]
    status, out, _ = run(capsys, "compare", *map(str, files), "--split", "valid", "--json")
    assert status == 0
    passes = {row["name"]: row["passes"] for row in json.loads(out)["systems"]}
    assert sorted(passes.values()) == [25, 34, 50]  # ceil(100/4), ceil(100/3), 100/2


def test_a_split_the_logs_do_not_hold_is_refused_in_one_line(capsys):
    status, _, err = run(capsys, "cases", str(GPT), str(LLAMA), "--split", "valid")
    assert status == 2 and err.count("\n") == 1
    assert "no unperturbed stat of the 'valid' split (splits logged: test)" in err


def test_split_is_refused_for_lm_eval_logs(capsys):
    status, _, err = run(capsys, "cases", *map(str, WINOGRANDE[:2]), "--split", "test")
    assert status == 2 and err.count("\n") == 1
    assert "--split applies to HELM logs;" in err and "is an lm-eval log" in err
    status, _, err = run(capsys, "compare", *map(str, WINOGRANDE), "--split", "test")
    assert status == 2 and "is an lm-eval log" in err


@pytest.mark.parametrize("command", ["cases", "compare"])
def test_split_is_refused_for_per_case_files(tmp_path, capsys, command):
    path = tmp_path / "wide.csv"
    path.write_text("id,x,y,z\n1,1,0,1\n2,0,0,1\n3,1,1,0\n")
    columns = ["--a", "x", "--b", "y"] if command == "cases" else []
    status, _, err = run(capsys, command, str(path), *columns, "--split", "valid")
    assert status == 2 and err.count("\n") == 1
    assert f"--split applies to HELM logs; {path} is a per-case file" in err


def test_compare_says_which_tasks_were_named_after_their_files(tmp_path, capsys):
    files = [
        with_valid_split(tmp_path, source, f"{name}.json", every)[0]
        for source, name, every in ((GPT, "a", 2), (LLAMA, "b", 3), (LLAMA, "c", 4))
    ]
    status, out, _ = run(capsys, "compare", *map(str, files))
    assert status == 0
    assert "  ! c.json: HELM's per-instance stats do not name their run" in out
    status, out, _ = run(capsys, "compare", *map(str, files), "--json")
    notes = json.loads(out)["input"]["notes"]
    assert [note.split(":")[0] for note in notes] == ["a.json", "b.json", "c.json"]
