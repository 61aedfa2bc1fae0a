"""Which scores are better (hostile review 4, S4): a lower-is-better metric read as
higher-is-better let --fail-if-worse pass a regression (word error rate up 8.4 points, exit 0).

The gate now says which way it reads "worse"; a gate on a score whose name reads
lower-is-better (wer, loss, ...) is refused until ``--better`` says which way; ``--better lower``
fails the gate when B's mean is significantly higher. Reference: the exact sign-flip p of 20
differences all of one sign is 2 / 2^20 (both tails; every other pattern is less extreme).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculator import compare_scores
from calculator.cli import main
from calculator.errors import CalculatorError
from calculator.release import scores_gate_fails

OLD = [0.10 + 0.01 * (k % 7) for k in range(20)]
NEW = [x + 0.08 + 0.001 * (k % 3) for k, x in enumerate(OLD)]  # B's error rate higher on all


def wer_file(tmp_path: Path, column: str = "wer") -> str:
    path = tmp_path / "wer.csv"
    rows = [f"d{k},{a!r},{b!r}" for k, (a, b) in enumerate(zip(OLD, NEW, strict=True))]
    path.write_text(f"id,{column}_old,{column}_new\n" + "\n".join(rows) + "\n")
    return str(path)


def test_a_gate_on_a_lower_is_better_name_needs_the_direction(tmp_path, capsys):
    status = main(["cases", wer_file(tmp_path), "--fail-if-worse"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""  # it exited 0, "gate pass", before
    assert err.startswith(
        "error: --fail-if-worse: 'wer_old' reads as a score where lower is better"
    )
    assert "--better lower" in err


def test_better_lower_fails_the_gate_when_b_is_higher(tmp_path, capsys):
    status = main(["cases", wer_file(tmp_path), "--fail-if-worse", "--better", "lower"])
    out, _ = capsys.readouterr()
    assert status == 1
    gate = next(line for line in out.splitlines() if line.startswith("gate"))
    assert gate.startswith(
        "gate      FAIL: wer_new is worse than wer_old at α = 0.05, lower scores taken"
    )
    assert "p = 1.9e-06" in gate  # 2 / 2^20 = 1.907e-06


def test_better_higher_states_the_other_reading(tmp_path, capsys):
    status = main(["cases", wer_file(tmp_path), "--fail-if-worse", "--better", "higher"])
    out, _ = capsys.readouterr()
    assert status == 0 and "higher scores taken as better" in out


def test_the_json_records_the_direction(tmp_path, capsys):
    main(["cases", wer_file(tmp_path), "--better", "lower", "--json"])
    assert json.loads(capsys.readouterr().out)["scores"]["better"] == "lower"


def test_names_that_do_not_read_lower_is_better_are_gated_as_before(tmp_path, capsys):
    assert main(["cases", wer_file(tmp_path, "bleu"), "--fail-if-worse"]) == 0
    assert "higher scores taken as better" in capsys.readouterr().out


def test_the_one_sided_gate_follows_the_direction(tmp_path, capsys):
    argv = ["cases", wer_file(tmp_path), "--fail-if-worse", "--better", "lower"]
    assert main([*argv, "--alternative", "greater"]) == 1  # B higher: worse
    capsys.readouterr()
    assert main([*argv, "--alternative", "less"]) == 2
    assert "leave out --alternative less" in capsys.readouterr().err


def test_better_is_refused_for_pass_fail_and_with_a_margin(tmp_path, capsys):
    path = tmp_path / "pf.csv"
    path.write_text("id,A,B\n" + "\n".join(f"c{i},{i % 2},{i % 3 == 0:d}" for i in range(20)))
    assert main(["cases", str(path), "--better", "lower"]) == 2
    assert capsys.readouterr().err.startswith("error: --better says which scores are better")
    assert main(["cases", wer_file(tmp_path), "--better", "lower", "--margin", "0.02"]) == 2
    assert "non-inferiority for higher-is-better scores only" in capsys.readouterr().err


def test_compare_scores_gates_by_the_direction():
    lower = compare_scores(OLD, NEW, better="lower")
    assert scores_gate_fails(lower, 0.05)
    assert not scores_gate_fails(compare_scores(OLD, NEW), 0.05)
    with pytest.raises(CalculatorError, match="higher-is-better scores only"):
        compare_scores(OLD, NEW, better="lower", margin=0.01)


def lm_eval_wer_logs(tmp_path: Path) -> list[str]:
    """lm-eval folders of a task whose per-sample metric is word error rate (as the review's
    make_s4_wer_lower_is_better.py writes them): B's WER is 0.08 higher on every document."""
    folders = []
    for model, values in (("old", OLD), ("new", NEW)):
        folder = tmp_path / model
        folder.mkdir()
        stamp = "2024-05-01T10-00-00.000000" if model == "old" else "2024-05-02T10-00-00.000000"
        lines = [
            json.dumps(
                {
                    "doc_id": i,
                    "doc": {"audio": f"a{i}.wav"},
                    "target": "x",
                    "arguments": {},
                    "resps": [["x"]],
                    "filtered_resps": ["x"],
                    "filter": "none",
                    "metrics": ["wer"],
                    "wer": round(value, 3),
                }
            )
            for i, value in enumerate(values)
        ]
        (folder / f"samples_asr_{stamp}.jsonl").write_text("\n".join(lines) + "\n")
        results = {"results": {"asr": {"wer,none": 0.0}}, "model_name": f"org/{model}"}
        (folder / f"results_{stamp}.json").write_text(json.dumps(results))
        folders.append(str(folder))
    return folders


def test_a_gate_on_logs_of_a_lower_is_better_metric_needs_the_direction(tmp_path, capsys):
    logs = lm_eval_wer_logs(tmp_path)
    assert main(["cases", *logs, "--fail-if-worse"]) == 2  # exit 0, "gate pass", before
    assert capsys.readouterr().err.startswith("error: --fail-if-worse: 'wer' reads as a score")
    assert main(["cases", *logs, "--fail-if-worse", "--better", "lower"]) == 1
    assert "lower scores taken as better" in capsys.readouterr().out
