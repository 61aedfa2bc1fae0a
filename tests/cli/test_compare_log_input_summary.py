"""``compare FOLDER FOLDER`` on harness logs: the input line names every log of each system
(or the first ones and how many more), and no column the user's files do not have: the
reader's own "case" and "value" columns stay internal. Logs written here in Inspect's format,
as tests/data/evallogs' own Inspect logs are."""

from __future__ import annotations

import json
from pathlib import Path

from calculator.cli import main


def inspect_folder(root: Path, model: str, logs: int, passing: float) -> str:
    folder = root / model
    folder.mkdir()
    for t in range(logs):
        samples = [
            {
                "id": f"q{i}",
                "epoch": 1,
                "input": f"question {i}",
                "target": "t",
                "scores": {"match": {"value": "C" if (i * (t + 3)) % 10 < 10 * passing else "I"}},
            }
            for i in range(20)
        ]
        log = {
            "version": 2,
            "status": "success",
            "eval": {"task": f"task{t}", "model": model, "scorers": [{"name": "match"}]},
            "samples": samples,
        }
        (folder / f"log{t}.json").write_text(json.dumps(log))
    return str(folder)


def input_line(capsys, *argv: str) -> str:
    assert main(["compare", *argv]) == 0
    out = capsys.readouterr().out
    return next(line for line in out.splitlines() if line.startswith("input"))


def test_every_log_is_named_and_no_internal_column(tmp_path, capsys):
    a = inspect_folder(tmp_path, "alpha", 3, 0.7)
    b = inspect_folder(tmp_path, "beta", 3, 0.4)
    line = input_line(capsys, a, b)
    three = "log0.json, log1.json, log2.json"
    assert f"{three} + {three}" in line
    assert "'case'" not in line and "'value'" not in line and "outcomes =" not in line


def test_many_logs_are_listed_with_how_many_more(tmp_path, capsys):
    a = inspect_folder(tmp_path, "alpha", 8, 0.7)
    b = inspect_folder(tmp_path, "beta", 8, 0.4)
    line = input_line(capsys, a, b)
    six = ", ".join(f"log{t}.json" for t in range(6))
    assert f"{six} and 2 more + {six} and 2 more" in line
    assert main(["compare", a, b, "--json"]) == 0
    columns = json.loads(capsys.readouterr().out)["input"]["columns"]
    assert columns == {"id": None, "system": None, "outcomes": []}
