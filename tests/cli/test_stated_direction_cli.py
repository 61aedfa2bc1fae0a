"""A lower-is-better metric named by the harness (hostile review 4, S4 residual).

lm-eval's results file says per task and metric whether higher is better; the chooser guessed
only from names, so a metric renamed (``asr_metric``, higher_is_better false) passed a gate
where B is much worse, "higher scores taken as better". The results file's word is now the
metric's direction, stated in the report; ``--better`` still overrides it, and says so.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from calculator.cli import main

METRIC = "asr_metric"  # a name that reads as neither direction


def write_run(folder: Path, model: str, shift: float, *, higher: bool | None) -> Path:
    """lm-eval's samples and results files of one run: B's error-rate-like values rise."""
    folder.mkdir()
    time = "2024-05-01T10-00-00.000000" if model == "old" else "2024-05-02T10-00-00.000000"
    noise = random.Random(3 if model == "old" else 4)
    with open(folder / f"samples_asr_{time}.jsonl", "w") as samples:
        for i in range(120):
            base = random.Random(i).uniform(0.05, 0.4)
            value = round(min(1.0, max(0.0, base + shift + noise.gauss(0, 0.03))), 3)
            record = {"doc_id": i, "doc": {"audio": f"a{i}.wav"}, "target": "x",
                      "arguments": {}, "resps": [["x"]], "filtered_resps": ["x"],
                      "filter": "none", "metrics": [METRIC], METRIC: value}  # fmt: skip
            samples.write(json.dumps(record) + "\n")
    results = {"results": {"asr": {"alias": "asr", f"{METRIC},none": 0.0}},
               "versions": {"asr": 1}, "config": {"model": "hf"},
               "model_name": f"org/{model}"}  # fmt: skip
    if higher is not None:
        results["higher_is_better"] = {"asr": {METRIC: higher}}
    (folder / f"results_{time}.json").write_text(json.dumps(results))
    return folder


def runs(tmp_path: Path, higher: bool | None = False) -> tuple[str, str]:
    return (
        str(write_run(tmp_path / "old", "old", 0.0, higher=higher)),
        str(write_run(tmp_path / "new", "new", 0.08, higher=higher)),
    )


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cases", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_results_file_saying_lower_is_better_fails_the_gate_where_b_rises(tmp_path, capsys):
    status, out, err = run(capsys, *runs(tmp_path), "--fail-if-worse")
    assert status == 1 and err == ""
    assert "better    lower is better, as lm-eval's results file says" in out
    assert "gate      FAIL: org/new is worse than org/old" in out
    assert "lower scores taken as better" in out


def test_the_direction_is_in_the_json(tmp_path, capsys):
    status, out, _ = run(capsys, *runs(tmp_path), "--fail-if-worse", "--json")
    document = json.loads(out)
    assert status == 1 and document["input"]["stated_better"] == "lower"
    assert document["gate"]["fails"] is True


def test_better_overrides_the_file_and_says_so(tmp_path, capsys):
    status, out, _ = run(capsys, *runs(tmp_path), "--fail-if-worse", "--better", "higher")
    assert status == 0
    assert (
        "better    higher taken as better, as --better asks, though lm-eval's results file "
        "says lower is better" in out
    )


@pytest.mark.parametrize("higher", [True, None], ids=["higher is better said", "nothing said"])
def test_without_lower_stated_higher_is_taken_as_before(tmp_path, capsys, higher):
    status, out, _ = run(capsys, *runs(tmp_path, higher), "--fail-if-worse")
    assert status == 0 and "higher scores taken as better" in out
    assert ("as lm-eval's results file says" in out) == (higher is True)
