"""``cases A B`` on harness logs whose metric is graded (issue 22): compared as scores, the JSON
``scores`` section of a per-case file, one-line refusals of corpus-level metrics, and the gate.
The references are computed here from the values written into the logs."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from scipy import stats

from calculator.cli import main


def write_lm_eval(folder, task: str, values: dict[int, object], metric: str = "rouge1_max"):
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps(
            {
                "doc_id": doc,
                "doc": {"q": f"question {doc}"},
                "target": "t",
                "resps": [["r"]],
                "filtered_resps": ["r"],
                "filter": "none",
                "metrics": [metric],
                metric: value,
                "doc_hash": f"{task}-{doc}",
            }
        )
        for doc, value in values.items()
    ]
    (folder / f"samples_{task}_2026-01-01T00-00-00.000000.jsonl").write_text("\n".join(lines))


def run_cli(capsys, *argv):
    status = main(["cases", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# BLEU-like per-sample scores of 12 documents.
A = [31.2, 45.0, 12.7, 28.9, 50.3, 19.4, 33.3, 41.8, 27.5, 36.1, 22.2, 48.6]
B = [29.8, 46.1, 10.2, 25.0, 49.9, 21.3, 30.1, 40.2, 27.0, 33.9, 20.9, 47.7]


@pytest.fixture
def logs(tmp_path):
    write_lm_eval(tmp_path / "a", "toy", dict(enumerate(A)))
    write_lm_eval(tmp_path / "b", "toy", dict(enumerate(B)))
    return tmp_path / "a", tmp_path / "b"


def test_json_has_the_scores_section_of_a_per_case_file(logs, capsys, tmp_path):
    status, out, _ = run_cli(capsys, *logs, "--json")
    assert status == 0
    payload = json.loads(out)
    assert payload["analysed_as"] == "scores" and payload["input"]["metric"] == "rouge1_max"
    scores = payload["scores"]
    assert scores["n"] == 12 and scores["clusters"] is None
    assert scores["mean_difference"] == pytest.approx(np.mean(np.subtract(A, B)), abs=1e-12)
    # scipy: stats.ttest_rel(A, B)
    assert scores["t_test"]["pvalue"] == pytest.approx(stats.ttest_rel(A, B).pvalue, rel=1e-9)
    # The same scores as one per-case CSV give the same "scores" section, but for the names.
    csv = tmp_path / "scores.csv"
    csv.write_text(
        "id,a,b\n" + "".join(f"{i},{x},{y}\n" for i, (x, y) in enumerate(zip(A, B, strict=True)))
    )
    status, out, _ = run_cli(capsys, csv, "--a", "a", "--b", "b", "--id", "id", "--json")
    per_case = json.loads(out)
    assert per_case["analysed_as"] == "scores"
    for key in ("n", "mean_difference", "pvalue", "t_test", "permutation", "bootstrap"):
        assert per_case["scores"][key] == scores[key]


def test_text_says_which_analysis_and_threshold_still_cuts(logs, capsys):
    status, out, _ = run_cli(capsys, *logs)
    assert status == 0
    assert "analysed  as scores (rouge1_max holds values other than 0 and 1)" in out
    # The differences sum to 14.9 (by hand): a mean of +1.24; the systems are named by folder.
    assert "task toy: 12 cases, mean difference a − b +1.24, sign-flip permutation test p" in out
    status, out, _ = run_cli(capsys, *logs, "--threshold", "30", "--json")
    payload = json.loads(out)
    assert payload["analysed_as"] == "pass/fail"
    pairs = [(x >= 30, y >= 30) for x, y in zip(A, B, strict=True)]
    counted = [pairs.count(p) for p in ((True, True), (True, False), (False, True), (False, False))]
    assert [payload["table"][k] for k in "abcd"] == counted


def test_gate_on_scores(logs, capsys):
    # A is higher on 9 of 12 documents: the gate fails when B's mean is significantly lower
    # (the sign-flip p at alpha 0.05), and never the other way round.
    a, b = logs
    status, out, _ = run_cli(capsys, a, b, "--fail-if-worse")
    assert "gate      " in out
    d = np.subtract(A, B)
    signs = np.array(list(itertools.product((1, -1), repeat=12)))
    exact = np.mean(np.abs(signs @ d) >= abs(d.sum()) - 1e-9)  # all 2^12 patterns: 0.029
    assert json.loads(run_cli(capsys, a, b, "--json")[1])["scores"]["pvalue"] == exact
    assert exact <= 0.05 and status == 1
    assert run_cli(capsys, b, a, "--fail-if-worse")[0] == 0  # B higher: never worse


def test_corpus_metric_is_a_one_line_refusal(tmp_path, capsys):
    write_lm_eval(tmp_path / "a", "wmt", {d: ["ref", "x"] for d in range(5)}, "bleu")
    write_lm_eval(tmp_path / "b", "wmt", {d: ["ref", "y"] for d in range(5)}, "bleu")
    for extra in ([], ["--metric", "bleu"]):
        status, out, err = run_cli(capsys, tmp_path / "a", tmp_path / "b", *extra)
        assert status == 2 and out == "" and err.count("\n") == 1
        assert "cannot be split into per-case scores" in err


def two_tasks(tmp_path):
    for side, values in (("a", A), ("b", B)):
        write_lm_eval(tmp_path / side, "one", dict(enumerate(values)))
        write_lm_eval(tmp_path / side, "two", dict(enumerate(values[::-1])))
    return tmp_path / "a", tmp_path / "b"


def test_two_tasks_are_answered_over_every_question(tmp_path, capsys):
    # Issue #32, a deliberate change: the pooled comparison took the task as the cluster (2
    # clusters: its sign flip could not go below p = 0.5, so the gate could never fail); it is
    # now the suite's answer over all 24 questions, each counted once, stratified by task, and
    # the task-clustered comparison is kept beside it for contrast.
    payload = json.loads(run_cli(capsys, *two_tasks(tmp_path), "--json")[1])
    assert payload["pooled_by"] is None and payload["scores"]["clusters"] is None
    assert payload["scores"]["n"] == 24
    d = np.array(A + A[::-1]) - np.array(B + B[::-1])
    assert payload["scores"]["mean_difference"] == pytest.approx(d.mean())
    assert payload["suite"]["method"] == "stratified"
    assert payload["suite"]["contrast"]["key"] == "scores_by_task"
    assert payload["scores_by_task"]["clusters"] == 2
    assert payload["multiplicity"] == {"method": "holm", "family": 2}
    assert [t["task"] for t in payload["tasks"]] == ["one", "two"]
    assert payload["input"]["cases_used"] == 24


def test_two_tasks_gate_on_the_suites_answer(tmp_path, capsys):
    a, b = two_tasks(tmp_path)
    status, out, _ = run_cli(capsys, b, a, "--fail-if-worse")  # B here is A above: higher
    assert status == 0
    status, out, _ = run_cli(capsys, a, b, "--fail-if-worse")
    lines = out.splitlines()
    (answer,) = [line for line in lines if line.startswith("answer    ")]
    assert "over all 24 questions of the 2 tasks, each counted once" in answer
    (by_task,) = [line for line in lines if line.startswith("by task   ")]
    assert by_task.startswith("by task   shown for contrast, not the answer")
    assert "2^(1 − 2) = 0.5" in out
    (gate,) = [line for line in lines if line.startswith("gate      ")]
    assert gate.endswith("stratified by task (the suite's answer)")
    payload = json.loads(run_cli(capsys, a, b, "--fail-if-worse", "--json")[1])
    assert status == (payload["gate"]["verdict"] == "fail")
    assert payload["gate"]["pvalue"] == payload["scores"]["pvalue"]


def test_a_margin_on_a_graded_metric_is_in_its_own_units(logs, capsys):
    # BLEU-like scores from 10.2 to 50.3: a 2-BLEU margin is typed as 2 (it was refused as a
    # pass rate's margin, before the logs showed the metric to be graded).
    status, out, err = run_cli(capsys, *logs, "--margin", "2", "--json")
    assert status == 0, err
    margin = json.loads(out)["scores"]["margin"]
    assert margin["margin"] == 2.0 and margin["of"] == "mean(A - B)"  # issue 30
    # The gate's bound is half the range the scores span (20.05 here), not 10 points of rate.
    status, out, err = run_cli(capsys, *logs, "--margin", "5", "--fail-if-worse")
    assert "gate      " in out and status in (0, 1), err
    status, _, err = run_cli(capsys, *logs, "--margin", "25", "--fail-if-worse")
    assert status == 2 and "half the range the scores span (10.2 to 50.3" in err
    assert len(err.strip().splitlines()) == 1


def test_a_pass_fail_metrics_margin_is_still_a_share(tmp_path, capsys):
    write_lm_eval(tmp_path / "a", "toy", dict(enumerate([1, 1, 0, 1, 0, 1])), "acc")
    write_lm_eval(tmp_path / "b", "toy", dict(enumerate([1, 0, 0, 1, 1, 1])), "acc")
    status, _, err = run_cli(capsys, tmp_path / "a", tmp_path / "b", "--margin", "2")
    assert status == 2 and "--margin must be a number strictly between 0 and 1" in err
    status, out, _ = run_cli(capsys, tmp_path / "a", tmp_path / "b", "--margin", "2pt", "--json")
    assert status == 0 and json.loads(out)["decision"]["margin"] == 0.02
