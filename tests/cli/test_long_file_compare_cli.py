"""``compare FILE --system COL --repeat COL`` / ``--task COL``: a long file's systems as logs.

Repeated samples of a question are refused by name, with the ``cases`` command that compares
them by question; a task column keeps each task's cases apart (the same id in two tasks is two
cases), as the logs of several systems are compared.
"""

from __future__ import annotations

import json
import random

import pytest

from calculator.cli import main


def run_cli(capsys, *argv: object) -> tuple[int, str, str]:
    status = main(["compare", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def long_file(tmp_path, tasks=("only",), epochs=(1,), questions=40):
    rng = random.Random(4)
    lines = ["task,id,epoch,model,ok"]
    for task in tasks:
        for q in range(questions):
            for epoch in epochs:
                lines += [f"{task},q{q},{epoch},{m},{int(rng.random() < 0.6)}" for m in "abc"]
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_repeats_of_a_case_are_refused_by_name_with_the_cases_command(capsys, tmp_path):
    path = long_file(tmp_path, epochs=(1, 2, 3))
    status, out, err = run_cli(
        capsys, path, "--system", "model", "--outcome", "ok", "--repeat", "epoch"
    )
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert "case 'q0' of 'a' has several repeats in 'epoch' (1, 2, 3)" in err
    assert f"cases {path} --system model --repeat epoch" in err


def test_one_repeat_number_is_compared_as_one_row_per_case(capsys, tmp_path):
    path = long_file(tmp_path)
    status, out, _ = run_cli(
        capsys, path, "--system", "model", "--outcome", "ok", "--repeat", "epoch", "--json"
    )
    assert status == 0
    payload = json.loads(out)
    assert payload["input"]["rows_used"] == 3 * 40


def test_a_task_column_keeps_each_tasks_cases_apart(capsys, tmp_path):
    path = long_file(tmp_path, tasks=("x", "y"))
    status, out, _ = run_cli(
        capsys, path, "--system", "model", "--outcome", "ok", "--task", "task", "--json"
    )
    assert status == 0
    payload = json.loads(out)
    assert payload["input"]["rows_used"] == 3 * 80  # q0 of x and q0 of y are two cases
    assert [s["name"] for s in payload["systems"]] == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--systems", "a,b"], "--systems chooses a wide file's columns"),
        (["--metric", "ok"], "--metric chooses a harness log's metric"),
    ],
)
def test_options_of_other_inputs_are_refused_by_name(capsys, tmp_path, options, said):
    path = long_file(tmp_path, tasks=("x", "y"))
    status, _, err = run_cli(capsys, path, "--system", "model", "--task", "task", *options)
    assert status == 2
    assert said in err
