"""A long file read as logs follows the bulk of its outcome column (issue #31): the minority is
held as no value, counted by the pairing as missing, and stated in a note with its line; an
outcome column no reading keeps 95% of stops the run (tests/cli/test_long_file_cli.py)."""

from __future__ import annotations

from pathlib import Path

from calculator.cli import main

WORDS = ("pass", "fail", "fail", "pass", "pass", "fail", "pass")


def write(tmp_path: Path, name: str, header: str, rows: list[str]) -> str:
    path = tmp_path / name
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_a_long_file_holds_the_minority_as_no_value_with_a_note(tmp_path, capsys):
    rows = [f"q{i},{system},{WORDS[(i + len(system)) % 7]}" for i in range(40) for system in "ab"]
    rows[5] = "q2,b,0.5"  # line 7
    path = write(tmp_path, "l.csv", "id,model,ok", rows)
    status, out, err = run(capsys, "cases", path, "--system", "model", "--outcome", "ok")
    assert status == 0 and err == ""
    assert (
        "l.csv, line 7, field 'ok': 1 outcome not read as a pass/fail outcome (the first: "
        "'0.5'), held as no value and counted as missing" in out
    )
