"""``compare FOLDER FOLDER ...`` on harness logs: the input line names every log of each
system (or the first ones and how many more), and no column the user's files do not have: the
reader's own "case" and "value" columns stay internal. ``--resamples`` sets the Monte Carlo
resamples of Cochran's permutation p on pass/fail logs, pooled and by task, and is refused by
name on graded logs compared by ranks. Logs written here in Inspect's format, as
tests/data/evallogs' own Inspect logs are.

Expected figures: with 99 resamples and data no resample reaches, the Monte Carlo p is its
floor 1/(R + 1) = 0.01 (Phipson & Smyth 2010), as in tests/cli/test_compare_resamples_cli.py."""

from __future__ import annotations

import json
from pathlib import Path

from calculator.cli import main


def inspect_folder(
    root: Path, model: str, logs: int, passing: float, *, graded: bool = False
) -> str:
    folder = root / model
    folder.mkdir()
    for t in range(logs):
        samples = [
            {
                "id": f"q{i}",
                "epoch": 1,
                "input": f"question {i}",
                "target": "t",
                "scores": {"match": {"value": value(i, t, passing, graded)}},
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


def value(i: int, t: int, passing: float, graded: bool) -> object:
    if graded:  # a score in [0, 1] with many values: compared by ranks
        return round(((i * 7 + t) % 11) / 10 * passing, 3)
    return "C" if (i * (t + 3)) % 10 < 10 * passing else "I"


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


def test_resamples_on_pass_fail_logs_set_every_cochran_monte_carlo(tmp_path, capsys, monkeypatch):
    from calculator.compare import cochran

    monkeypatch.setattr(cochran, "MAX_EXACT_STEPS", 0)  # no enumeration: the Monte Carlo p
    folders = [
        inspect_folder(tmp_path, name, 2, rate)
        for name, rate in (("alpha", 0.9), ("beta", 0.2), ("gamma", 0.5))
    ]

    def cochrans(*option: str) -> list[dict]:
        assert main(["compare", *folders, "--json", *option]) == 0
        payload = json.loads(capsys.readouterr().out)
        return [payload["cochran"], *(task["cochran"] for task in payload["suite"]["tasks"])]

    asked = cochrans("--resamples", "99")
    assert len(asked) == 3  # pooled, then each of the 2 tasks
    for test in asked:
        assert test["method"] == "monte-carlo" and test["resamples"] == 99
        assert test["exact_pvalue"] == 0.01 and test["at_floor"]
    assert {test["resamples"] for test in cochrans()} == {9_999}
    assert {test["method"] for test in cochrans("--resamples", "0")} == {"none"}


def test_resamples_on_graded_logs_are_refused_by_name(tmp_path, capsys):
    folders = [
        inspect_folder(tmp_path, name, 1, rate, graded=True)
        for name, rate in (("alpha", 0.9), ("beta", 0.6), ("gamma", 0.3))
    ]
    assert main(["compare", *folders]) == 0
    assert "Friedman's test" in capsys.readouterr().out
    status = main(["compare", *folders, "--resamples", "99"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert "--resamples sets the Monte Carlo resamples of Cochran's Q" in err
