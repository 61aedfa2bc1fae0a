"""Issue 32: a repeated ``--metric``, ``--filter`` or ``--split`` is refused by name (argparse's
last-one-wins would compare the second alone without a word), and a missing or unreadable path
is said first, whatever the options (``cases /missing --metric acc`` used to answer that the
missing file "is a per-case file: name its outcome columns").

The logs are the generated lm-eval folders of tests/data/evallogs (SOURCES.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from calculator.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "evallogs"
SEED1 = DATA / "generated" / "lm-eval" / "dummy-seed1"
SEED2 = DATA / "generated" / "lm-eval" / "dummy-seed2"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("command", ["cases", "compare"])
@pytest.mark.parametrize(
    ("option", "first", "second"),
    [("--metric", "acc", "acc_norm"), ("--filter", "none", "strict-match"), ("--split", "a", "b")],
)
def test_a_repeated_log_option_is_refused_by_name(capsys, command, option, first, second):
    files = [str(SEED1), str(SEED2)] + ([str(SEED2)] if command == "compare" else [])
    status, out, err = run(capsys, command, *files, option, first, f"{option}={second}")
    assert status == 2 and out == ""
    assert f"argument {option}: given twice ('{first}', then '{second}')" in err
    assert err.count("\n") == 1


def test_one_metric_is_still_taken(capsys):
    status, out, _ = run(capsys, "cases", str(SEED1), str(SEED2), "--metric", "acc_norm")
    assert status == 0 and "metric    acc_norm (the one asked for)" in out


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--metric", "acc"],
        ["--filter", "none"],
        ["--split", "test"],
        ["--a", "x", "--b", "y"],
        ["--threshold", "0.5", "--json"],
    ],
)
def test_a_missing_file_is_said_first_on_cases(tmp_path, capsys, options):
    missing = tmp_path / "missing.jsonl"
    status, out, err = run(capsys, "cases", str(missing), str(SEED2), *options)
    assert status == 2 and out == ""
    assert err == f"error: {missing}: No such file or directory\n"
    status, _, err = run(capsys, "cases", str(SEED1), str(missing), *options)
    assert err == f"error: {missing}: No such file or directory\n"
    # Both missing (the case: it read "is a per-case file: name its outcome columns").
    status, _, err = run(capsys, "cases", str(missing), str(tmp_path / "b.jsonl"), *options)
    assert err == f"error: {missing}: No such file or directory\n"


@pytest.mark.parametrize(
    "options", [[], ["--metric", "acc"], ["--split", "test"], ["--system", "model"]]
)
def test_a_missing_file_is_said_first_on_compare(tmp_path, capsys, options):
    missing = tmp_path / "missing"
    status, out, err = run(capsys, "compare", str(missing), *options)
    assert status == 2 and out == ""
    assert err == f"error: {missing}: No such file or directory\n"


def test_a_pipe_is_refused_before_it_is_opened(tmp_path, capsys):
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)  # opening it to read would wait for a writer for ever
    status, _, err = run(capsys, "cases", str(pipe), str(SEED2), "--metric", "acc")
    assert status == 2
    assert err == f"error: {pipe}: neither a file nor a folder, so it is not read\n"


def test_an_unreadable_file_is_said_first(tmp_path, capsys, monkeypatch):
    target = tmp_path / "a.jsonl"
    target.write_text('{"id": 1, "a": 1, "b": 0}\n')
    real = os.access
    # As root every file is readable whatever its mode: the refusal is checked with a file the
    # system's own check reports unreadable.
    monkeypatch.setattr(
        os, "access", lambda path, mode: str(path) != str(target) and real(path, mode)
    )
    status, _, err = run(capsys, "cases", str(target), "--metric", "acc")
    assert status == 2
    assert err == f"error: {target}: Permission denied\n"


def test_refusals_carry_one_error_prefix(tmp_path, capsys):
    """UsageError texts are prefixed once by main: "error: error: --split" was printed."""
    plain = tmp_path / "a.csv"
    plain.write_text("id,a,b\nq1,1,0\n")
    _, _, err = run(capsys, "cases", str(plain), "--split", "test")
    assert err == f"error: --split applies to HELM logs; {plain} is a per-case file\n"
    _, _, err = run(capsys, "compare", str(plain), "--split", "test")
    assert err == f"error: --split applies to HELM logs; {plain} is a per-case file\n"
    _, _, err = run(capsys, "compare", str(plain), str(plain), "--system", "s")
    assert err.startswith("error: --system names") and "error: error" not in err


# --- issue #32: TASK=NAME forms choose per task; a task named twice is refused -------------


def test_several_task_forms_are_taken_each_for_its_task(capsys):
    options = ["--metric", "toy_add=acc_norm", "--metric", "toy_mul=acc", "--metric", "exact_match"]
    status, out, _ = run(capsys, "cases", str(SEED1), str(SEED2), *options, "--json")
    assert status == 0
    by_task = json.loads(out)["input"]["by_task"]
    assert by_task["toy_add"]["metric"] == "acc_norm"
    assert by_task["toy_add"]["metric_reason"] == "the one asked for this task"
    assert by_task["toy_mul"]["metric"] == "acc"
    assert by_task["toy_gen"] == {
        "metric": "exact_match",
        "metric_reason": "the one asked for",
        "filter": "strict-match",
        "filter_reason": "the task's first filter",
    }


@pytest.mark.parametrize("option", ["--metric", "--filter"])
def test_a_task_named_twice_is_refused_by_name(capsys, option):
    status, out, err = run(
        capsys, "cases", str(SEED1), str(SEED2), option, "toy_gen=a", option, "toy_gen=b"
    )
    assert status == 2 and out == ""
    assert f"argument {option}: task 'toy_gen' given twice ('a', then 'b')" in err
    assert err.count("\n") == 1


def test_a_task_form_on_compare_is_refused_by_name(capsys):
    status, out, err = run(
        capsys, "compare", str(SEED1), str(SEED2), str(SEED2), "--metric", "toy_add=acc"
    )
    assert status == 2 and out == "" and "--metric TASK=NAME" in err and err.count("\n") == 1
