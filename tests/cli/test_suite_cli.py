"""A suite's answer and its gate (issue #32): with several tasks, every question and the
release gate are answered over all the suite's questions, each counted once, by the
task-stratified exact McNemar test, which is the exact test of the tasks' summed table
(calculator/stratified.py proves it; tests/core/test_stratified.py checks it). Its decision is
the typed table's (``table a b c d``); the task-clustered test is shown for contrast.

The dummy lm-eval logs: toy_add (1, 9, 6, 14) and toy_mul (1, 7, 5, 7) sum to (2, 16, 11, 21).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculator.cli import main

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "lm-eval"
DUMMY1, DUMMY2 = LOGS / "dummy-seed1", LOGS / "dummy-seed2"
SUMMED = ("2", "16", "11", "21")

# (options, the typed table's options, the gate's exit status with --fail-if-worse or None)
QUESTIONS = [
    (["--fail-if-worse"], [], 0),
    (["--alternative", "greater"], ["--alternative", "greater"], None),
    (["--margin", "2pt"], ["--margin", "2pt"], None),
    (["--margin", "2pt", "--fail-if-worse"], ["--margin", "2pt"], 1),
    (["--margin", "5pt", "--equivalence"], ["--margin", "5pt", "--equivalence"], None),
    (["--alternative", "less", "--fail-if-worse"], ["--alternative", "less"], 0),
]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main([*map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(("options", "typed", "gate_status"), QUESTIONS)
def test_the_suites_decision_is_the_summed_tables(capsys, options, typed, gate_status):
    status, out, err = run(capsys, "cases", DUMMY1, DUMMY2, *options, "--json")
    assert err == "" and status == (gate_status or 0)
    logs = json.loads(out)
    _, table_out, _ = run(capsys, "table", *SUMMED, *typed, "--json")
    table = json.loads(table_out)["decision"]
    decision = logs["decision"]
    assert {key: decision[key] for key in table if key != "sentence"} == {
        key: value for key, value in table.items() if key != "sentence"
    }
    suite = decision["suite"]
    assert suite["method"] == "stratified" and suite["tasks"] == 2
    assert suite["clusters"] is None and suite["contrast"]["key"] == "clustered_by_task"
    assert logs["clustered_by_task"]["held_pvalue"] == 0.5  # the contrast, still reported
    if gate_status is not None:
        gate = logs["gate"]
        assert gate["verdict"] == ("fail" if gate_status else "pass")
        assert gate["pvalue"] == decision["pvalue"]
        # The gate names the test that decided it, and over what.
        basis = "summed table" if "--margin" in options else "task-stratified, the exact test"
        assert basis in gate["test"] and gate["sentence"].endswith("(the suite's answer)")


@pytest.mark.parametrize(("options", "typed", "gate_status"), QUESTIONS)
def test_the_text_says_which_p_answers_and_which_is_for_contrast(
    capsys, options, typed, gate_status
):
    status, out, err = run(capsys, "cases", DUMMY1, DUMMY2, *options)
    assert err == "" and status == (gate_status or 0)
    _, table_out, _ = run(capsys, "table", *SUMMED, *typed, "--json")
    p = json.loads(table_out)["decision"]["pvalue"]
    (answer,) = [line for line in out.splitlines() if line.startswith("answer    ")]
    assert "over all 50 questions of the 2 tasks, each counted once" in answer
    assert f"p = {p:.3f}: the p that answers the question asked" in answer
    (by_task,) = [line for line in out.splitlines() if line.startswith("by task   ")]
    assert by_task.startswith("by task   shown for contrast, not the answer")
    assert "2^(1 − 2) = 0.5" in out  # the task-clustered test's small-number-of-tasks limit
    if gate_status is not None:
        (gate,) = [line for line in out.splitlines() if line.startswith("gate      ")]
        assert gate.startswith("gate      FAIL" if gate_status else "gate      pass")
        assert gate.endswith("on their summed table (the suite's answer)")


def test_the_stratified_answer_is_named_in_words(capsys):
    _, out, _ = run(capsys, "cases", DUMMY1, DUMMY2)
    assert "two-sided exact McNemar test, doubled tail, task-stratified" in out
    assert "Holm-adjusted across tasks p = 1" in out  # the per-task results stay


def _inspect_suite(tmp_path: Path) -> tuple[Path, Path]:
    """Inspect logs of 3 tasks x 12 questions x 3 epochs per system; the same question ids in
    every task, which are still different questions."""
    rng = __import__("random").Random(3)
    folders = tmp_path / "A", tmp_path / "B"
    for folder in folders:
        folder.mkdir()
    for task, rates in (("arith", (0.8, 0.6)), ("trivia", (0.7, 0.55)), ("logic", (0.5, 0.45))):
        for folder, rate, model in zip(folders, rates, ("m/A", "m/B"), strict=True):
            samples = [
                {
                    "id": f"q{q}",
                    "epoch": e,
                    "scores": {"match": {"value": "C" if rng.random() < rate else "I"}},
                }
                for q in range(12)
                for e in (1, 2, 3)
            ]
            spec = {"task": task, "model": model, "scorers": [{"name": "match"}]}
            (folder / f"{task}.json").write_text(json.dumps({"eval": spec, "samples": samples}))
    return folders


def test_epochs_over_several_tasks_count_questions_within_tasks(capsys, tmp_path):
    a, b = _inspect_suite(tmp_path)
    status, out, err = run(capsys, "cases", a, b, "--fail-if-worse", "--json")
    payload = json.loads(out)
    assert err == "" and status == (payload["gate"]["verdict"] == "fail")
    decision = payload["decision"]
    assert decision["suite"]["method"] == "stratified-by-question"
    assert decision["suite"]["clusters"] == "question"
    assert decision["suite"]["questions"] == 36  # q0 of arith is not q0 of logic
    assert decision["effective_clusters"] == 36
    assert "each a cluster of its repeats (stratified by task)" in payload["gate"]["test"]
    status, out, _ = run(capsys, "cases", a, b, "--fail-if-worse")
    (answer,) = [line for line in out.splitlines() if line.startswith("answer    ")]
    assert "over all 36 questions (108 samples) of the 3 tasks" in answer
    assert "stratified by task, questions as clusters" in answer


@pytest.mark.parametrize(
    ("options", "directions"),
    [([], 2), (["--alternative", "greater"], 1), (["--alternative", "less"], 1)],
)
def test_the_count_of_tasks_each_system_does_better_on(capsys, options, directions):
    from calculator.compare.conjunction import better_on_tasks

    status, out, _ = run(capsys, "cases", DUMMY1, DUMMY2, *options, "--json")
    counts = json.loads(out)["tasks_better"]
    assert status == 0 and len(counts) == directions
    names = (counts[0]["other"], counts[0]["better"])
    if options == ["--alternative", "less"]:
        names = names[::-1]
    alternative = options[1] if options else "two-sided"
    # The docstring's per-task tables: toy_add (1, 9, 6, 14), toy_mul (1, 7, 5, 7).
    expected = better_on_tasks(
        ["toy_add", "toy_mul"], [9, 7], [6, 5], names, alternative=alternative
    )
    assert counts == [count.to_dict() for count in expected]
    _, text, _ = run(capsys, "cases", DUMMY1, DUMMY2, *options)
    assert "counting the tasks with p < α would not be such a count" in text
    assert text.count("on any of the 2 tasks") == directions
