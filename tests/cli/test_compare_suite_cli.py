"""``compare`` on a suite (issue #32): three or more systems' logs over several tasks give a row
per task, each equal to ``compare`` on that task alone, Holm across the tasks' Cochran p, and
the pooled comparison named as stratified by task (Cochran's exact permutation distribution
conditions on each case's number of passes, so pooling the cases over tasks keeps it exact).
Before, the tasks' cases were pooled with no word of the tasks."""

from __future__ import annotations

import json
import random

import pytest

from calculator.cli import main
from calculator.compare.multiplicity import adjust_pvalues

TASKS = {"x": (0.8, 0.6, 0.5), "y": (0.6, 0.6, 0.4), "z": (0.7, 0.5, 0.5)}


def long_file(tmp_path, tasks, name="runs.csv"):
    rng = random.Random(5)
    lines = ["task,id,epoch,model,ok"]
    for task, rates in TASKS.items():
        for q in range(40):
            outcomes = [int(rng.random() < p) for p in rates]
            row = [f"{task},q{q},1,{m},{ok}" for m, ok in zip("abc", outcomes, strict=True)]
            lines += row if task in tasks else []
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def run(capsys, *argv):
    status = main(["compare", *map(str, argv), "--system", "model", "--outcome", "ok"])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_each_tasks_row_is_compare_on_that_task_alone(capsys, tmp_path):
    status, out, _ = run(capsys, long_file(tmp_path, TASKS), "--task", "task", "--json")
    assert status == 0
    suite = json.loads(out)["suite"]
    assert suite["method"] == "stratified" and suite["strata"] == "task"
    assert [row["task"] for row in suite["tasks"]] == list(TASKS)
    decided = []
    for row in suite["tasks"]:
        alone = long_file(tmp_path, {row["task"]}, name=f"{row['task']}.csv")
        status, out, _ = run(capsys, alone, "--task", "task", "--json")
        payload = json.loads(out)
        assert status == 0 and "suite" not in payload  # one task: nothing to stratify
        expected = {key: value for key, value in payload.items() if key != "input"}
        assert {key: row[key] for key in expected} == expected
        decided.append(
            row["cochran"]["exact_pvalue"]
            if row["cochran"]["exact_pvalue"] is not None
            else row["cochran"]["pvalue"]
        )
    holm = adjust_pvalues(decided, method="holm")
    assert [row["holm_pvalue"] for row in suite["tasks"]] == pytest.approx(list(holm))


def test_the_text_names_the_pooled_comparison_as_stratified_by_task(capsys, tmp_path):
    status, out, _ = run(capsys, long_file(tmp_path, TASKS), "--task", "task")
    assert status == 0
    lines = out.splitlines()
    rows = [line for line in lines if line.startswith("task ")]
    assert [row.split(" ")[1] for row in rows] == list(TASKS)
    assert "Holm-adjusted across 3 tasks" in rows[0] and "a 75.0%" in rows[0]
    (pooled,) = [line for line in lines if line.startswith("pooled    ")]
    assert "all 120 questions of the 3 tasks, stratified by task: the suite's answer" in pooled
    assert "pooling the questions over tasks keeps it exact" in pooled
    assert lines.index(pooled) < next(i for i, x in enumerate(lines) if x.startswith("Cochran"))


def test_the_task_clustered_contrast_is_each_pairs_sign_flip_of_the_tasks_leans(capsys, tmp_path):
    from calculator.clustered_exact import cluster_sign_flip

    status, out, _ = run(capsys, long_file(tmp_path, TASKS), "--task", "task", "--json")
    suite = json.loads(out)["suite"]
    for contrast in suite["task_clustered_pairs"]:
        counts = [
            next(p for p in row["pairs"] if (p["a"], p["b"]) == (contrast["a"], contrast["b"]))
            for row in suite["tasks"]
        ]
        expected = cluster_sign_flip([p["b_count"] for p in counts], [p["c_count"] for p in counts])
        assert contrast["sign_flip"]["pvalue"] == expected.pvalue
        assert contrast["sign_flip"]["pvalue"] >= 2.0 ** (1 - 3)  # 3 tasks: its floor
    status, out, _ = run(capsys, long_file(tmp_path, TASKS), "--task", "task")
    (line,) = [x for x in out.splitlines() if x.startswith("by task   ")]
    assert line.startswith("by task   shown for contrast, not the answer")
