"""Tasks of other names paired by their questions' content (issue #32): an Inspect task renamed
between runs (``docs/evallog-recipes/make_inspect_evalset.py``: ``arith`` and ``arith_v2`` on
the same samples; ``arith-v2-changed`` with one input changed) and lm-eval tasks renamed by their
file names (lm-eval names a task after its samples file), on logs the harnesses wrote. The
counts are recounted with json from the lm-eval files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from calculator.cli import main
from calculator.logs import LogError, read_log
from calculator.logs.pairing import pair_logs

GENERATED = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated"
INSPECT = GENERATED / "inspect"
ARITH = next((INSPECT / "evalset-a").glob("*_arith_*.eval"))
RENAMED, CHANGED = INSPECT / "arith-v2-renamed.eval", INSPECT / "arith-v2-changed.eval"
TOY_A, TOY_B = GENERATED / "lm-eval" / "toylm-a", GENERATED / "lm-eval" / "toylm-b"


def test_an_inspect_task_renamed_between_runs_pairs_with_a_note():
    # Before: refused as "different questions under the same ids".
    paired = pair_logs(read_log(ARITH), read_log(RENAMED))
    assert [task.task for task in paired.tasks] == ["arith"]
    assert paired.tasks[0].cases.n == 8
    assert [pair.to_dict() for pair in paired.content_pairs] == [
        {"A": "arith", "B": "arith_v2", "samples": 8}
    ]
    assert any(
        "'arith_v2' of B paired with task 'arith' of A by content" in n for n in paired.notes
    )


def test_one_changed_input_is_refused_as_before():
    with pytest.raises(LogError, match="different questions under the same ids"):
        pair_logs(read_log(ARITH), read_log(CHANGED))


def test_a_partial_match_among_several_tasks_is_not_paired_and_said():
    a = read_log(INSPECT / "evalset-a")
    with pytest.raises(LogError, match=r"only 7 of their questions .* a partial match is not"):
        pair_logs(a, read_log(CHANGED), allow_exclusions=True)
    paired = pair_logs(a, read_log(RENAMED), allow_exclusions=True)
    assert [task.task for task in paired.tasks] == ["arith"]
    assert paired.unpaired_tasks == (("capitals",), ())


def renamed_copy(source: Path, target: Path, names: dict[str, list[str]]) -> Path:
    """`source`'s files in `target`, each task's samples file under the task names given."""
    target.mkdir()
    for path in source.iterdir():
        task = next((t for t in names if path.name.startswith(f"samples_{t}_")), None)
        for name in names.get(task, [None]) if task else [None]:
            new = path.name if name is None else path.name.replace(f"_{task}_", f"_{name}_", 1)
            shutil.copy(path, target / new)
    return target


def table(folder: Path, task: str, other: Path, other_task: str) -> dict[str, int]:
    """toy_sub's acc_norm table recounted with json: A's `task` against B's `other_task`."""

    def values(root: Path, name: str) -> dict[int, float]:
        (path,) = root.glob(f"samples_{name}_*.jsonl")
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        return {row["doc_id"]: row["acc_norm"] for row in rows}

    a, b = values(folder, task), values(other, other_task)
    return {
        "a": sum(a[d] == 1 and b[d] == 1 for d in a),
        "b": sum(a[d] == 1 and b[d] != 1 for d in a),
        "c": sum(a[d] != 1 and b[d] == 1 for d in a),
        "d": sum(a[d] != 1 and b[d] != 1 for d in a),
        "n": len(a),
        "discordant": sum((a[d] == 1) != (b[d] == 1) for d in a),
    }


def test_an_lm_eval_task_renamed_pairs_in_the_json(tmp_path, capsys):
    b = renamed_copy(TOY_B, tmp_path / "b", {"toy_sub": ["toy_subtract"]})
    status = main(["cases", str(TOY_A), str(b), "--json"])
    out = capsys.readouterr().out
    assert status == 0
    document = json.loads(out)
    assert document["input"]["tasks_paired_by_content"] == [
        {"A": "toy_sub", "B": "toy_subtract", "samples": 24}
    ]
    assert any("by content" in note for note in document["input"]["notes"])
    tables = {task["task"]: task["table"] for task in document["tasks"]}
    assert tables["toy_sub"] == table(TOY_A, "toy_sub", b, "toy_subtract")
    assert document["input"]["tasks_only_in"] == {"A": [], "B": []}


def test_an_ambiguous_match_is_left_unpaired_with_a_note(tmp_path):
    b = renamed_copy(TOY_B, tmp_path / "b", {"toy_sub": ["toy_sub_x", "toy_sub_y"]})
    paired = pair_logs(read_log(TOY_A), read_log(b), allow_exclusions=True)
    assert "toy_sub" not in [task.task for task in paired.tasks]
    assert paired.content_pairs == ()
    assert any(
        "task 'toy_sub' of A is not paired by content" in note and "'toy_sub_x'" in note
        for note in paired.notes
    )


def test_real_lm_eval_logs_of_two_prompts_pair_by_doc_hash_when_named_apart(tmp_path):
    # The shared real logs: Meta-Llama-3-8B-Instruct on asdiv, plain and chain-of-thought
    # prompts (tests/data/evallogs/SOURCES.md); the second's file named after its task.
    real = GENERATED.parent / "lm-eval"
    plain = next(real.glob("results__asdiv__*samples_asdiv_*.jsonl"))
    cot = next(real.glob("results__asdiv_cot__*samples_asdiv_*.jsonl"))
    renamed = tmp_path / cot.name.replace("samples_asdiv_", "samples_asdiv_cot_")
    shutil.copy(cot, renamed)
    paired = pair_logs(read_log(plain), read_log(renamed))
    assert [pair.to_dict() for pair in paired.content_pairs] == [
        {"A": "asdiv", "B": "asdiv_cot", "samples": 50}
    ]
    a, b = (
        {row["doc_id"]: row["acc"] == 1 for row in map(json.loads, path.read_text().splitlines())}
        for path in (plain, cot)
    )
    counts = paired.tasks[0].cases.counts
    assert tuple(counts) == (
        sum(a[k] and b[k] for k in a),
        sum(a[k] and not b[k] for k in a),
        sum(b[k] and not a[k] for k in a),
        sum(not a[k] and not b[k] for k in a),
    )
