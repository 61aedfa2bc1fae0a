"""A missing path is said first, whatever the flags (issue 32: "A missing or unreadable path
says so first"): every subcommand that reads a file names the missing path, on one line, exit
2, before any refusal of its options. ``square --file`` said "categorical outcomes need --a and
--b" about a file that was not there."""

from __future__ import annotations

import os

import pytest

from calculator.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    "command, name, options",
    [
        ("cases", "missing.json", ["--metric", "acc"]),
        ("cases", "missing.json", ["--metric", "acc", "--filter", "none", "--json"]),
        ("cases", "missing.csv", ["--system", "s", "--outcome", "o", "--id", "i"]),
        ("cases", "missing.csv", ["--system", "s", "--fail-if-worse", "--repeat", "r"]),
        ("cases", "missing.csv", ["--categories", "x,y"]),
        ("cases", "missing.csv", ["--monitor"]),
        ("cases", "missing.csv", ["--anytime", "--detect", "5"]),
        ("compare", "missing.csv", ["--system", "s", "--outcome", "o", "--id", "i"]),
        ("compare", "missing.json", ["--metric", "acc"]),
        ("square", None, []),
        ("square", None, ["--a", "x"]),
        ("square", None, ["--labels", "x,y"]),
        ("square", None, ["--a", "x", "--b", "y", "--ordered"]),
    ],
)
def test_a_missing_path_is_said_first(tmp_path, capsys, command, name, options):
    missing = tmp_path / (name or "missing.csv")
    given = ["--file", str(missing)] if command == "square" else [str(missing)]
    status, out, err = run(capsys, command, *given, *options)
    assert (status, out) == (2, "")
    assert err == f"error: {missing}: No such file or directory\n"


def test_a_pipe_given_to_square_is_refused_before_it_is_opened(tmp_path, capsys):
    pipe = tmp_path / "labels.csv"
    os.mkfifo(pipe)  # opening it to read would wait for a writer for ever
    status, out, err = run(capsys, "square", "--file", str(pipe), "--a", "x")
    assert (status, out) == (2, "")
    assert err == f"error: {pipe}: neither a file nor a folder, so it is not read\n"
