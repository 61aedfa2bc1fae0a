"""``python -m calculator cases A B`` on harness logs: JSON keys, text, refusals as one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from calculator.cli import main

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"
DUMMY1 = LOGS / "generated" / "lm-eval" / "dummy-seed1"
DUMMY2 = LOGS / "generated" / "lm-eval" / "dummy-seed2"
MOCK = LOGS / "generated" / "inspect"
HELM = LOGS / "helm"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cases", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err


def test_results_folders_json_has_input_tasks_and_pooled_table(capsys):
    status, out, _ = run_cli(capsys, DUMMY1, DUMMY2, "--json")
    assert status == 0
    payload = json.loads(out)
    assert payload["input"]["format"] == "lm-eval"
    assert payload["input"]["metric"] == "acc"
    assert payload["input"]["filter"] == "none"
    assert "acc_norm" in payload["input"]["other_metrics"]
    tasks = {task["task"]: task for task in payload["tasks"]}
    assert set(tasks) == {"toy_add", "toy_mul"}
    for key in "abcd":
        assert payload["table"][key] == sum(task["table"][key] for task in tasks.values())
    assert payload["clustered_by_task"]["clusters"] == 2
    assert all(task["holm_pvalue"] >= task["pvalue"] for task in tasks.values())
    assert payload["multiplicity"] == {"method": "holm", "family": 2}


def test_text_names_the_metric_why_and_the_others(capsys):
    status, out, _ = run_cli(capsys, DUMMY1, DUMMY2, "--metric", "acc_norm")
    assert status == 0
    assert "metric    acc_norm (the one asked for); also logged: acc" in out
    assert "Holm-adjusted across tasks" in out and "task as cluster" in out
    # toy_gen does not log acc_norm: judged on its own metric, 0 throughout, and said so.
    assert "task 'toy_gen' is left out: none of its metrics (exact_match) can be" in out


def test_a_filter_a_task_does_not_log_is_a_one_line_refusal(capsys):
    status, out, err = run_cli(capsys, DUMMY1, DUMMY2, "--filter", "toy_gen=maj@5")
    assert status == 2 and out == ""
    assert "--filter toy_gen=maj@5" in one_line(err) and "strict-match, flexible-extract" in err


def test_inspect_epochs_state_both_tests_by_question(capsys):
    a, b = MOCK / "mock-a-3epochs.eval", MOCK / "mock-b-1epoch.json"
    status, out, _ = run_cli(capsys, a, b)
    assert status == 0
    # 3 epochs against 1: the pass shares' exact test permutes the labels within each question
    # (a sign flip of their differences is not exact there: statistics review 4, B1).
    assert "clustered McNemar test" in out
    assert "exact permutation test of the A and B labels within each question" in out
    assert "per-case tests, which would count them as independent, are not reported" in out
    status, out, _ = run_cli(capsys, a, b, "--json")
    payload = json.loads(out)
    (task,) = payload["tasks"]
    assert task["repeats"] and task["clustered_by_question"]["clusters"] == 10
    assert task["pass_share_sign_flip"]["questions"] == 10
    assert "mcnemar_exact" not in payload  # the per-sample test is not reported


def test_fail_if_worse_with_repeats_counts_questions(capsys):
    # It was refused for pass/fail while a graded metric's gate ran on the same logs
    # (statistics review 4, B5); both now gate by question, as cases --group does.
    a, b = MOCK / "mock-a-3epochs.eval", MOCK / "mock-b-3epochs.eval"
    status, out, _ = run_cli(capsys, a, b, "--fail-if-worse")
    assert status == 0 and "gate      pass:" in out and "cluster-robust score test" in out
    status, out, _ = run_cli(capsys, a, b, "--metric", "graded", "--fail-if-worse")
    assert status == 0 and "gate      pass:" in out


@pytest.mark.parametrize(
    "options", [["--fail-if-worse"], ["--alternative", "greater"], ["--margin", "2pt"]]
)
def test_a_question_of_several_tasks_is_answered_by_the_stratified_test(capsys, options):
    # These were refused ("answered for one task at a time") until issue #32: the task-stratified
    # exact test is the summed table's exact test, so the suite's question has an answer
    # (tests/cli/test_suite_cli.py checks its numbers).
    status, out, err = run_cli(capsys, DUMMY1, DUMMY2, *options)
    assert status == 0 and err == ""
    assert "answer    over all 50 questions of the 2 tasks, each counted once" in out


def test_partial_credit_is_compared_as_scores_or_cut_with_threshold(capsys):
    # Issue 22: Inspect's partial credit (P = 0.5) was refused without --threshold; it is now
    # compared as scores, by question, and --threshold still cuts it into pass/fail.
    a, b = MOCK / "mock-a-3epochs.eval", MOCK / "mock-b-3epochs.eval"
    status, out, _ = run_cli(capsys, a, b, "--metric", "graded")
    assert status == 0 and "analysed  as scores (graded holds values other than 0 and 1)" in out
    assert "clusters  10 questions" in out
    status, out, _ = run_cli(capsys, a, b, "--metric", "graded", "--json")
    payload = json.loads(out)
    assert payload["analysed_as"] == "scores" and payload["pooled_by"] == "question"
    assert payload["scores"]["n"] == 30 and payload["scores"]["clusters"] == 10
    assert payload["tasks"][0]["scores"] == payload["scores"]  # one task: the same comparison
    status, out, _ = run_cli(capsys, a, b, "--metric", "graded", "--threshold", "0.5")
    assert status == 0 and "analysed  as pass/fail outcomes: McNemar's test" in out
    payload = json.loads(
        run_cli(capsys, a, b, "--metric", "graded", "--threshold", "1", "--json")[1]
    )
    assert payload["analysed_as"] == "pass/fail" and "scores" not in payload


def test_helm_gate_runs_on_one_task(capsys):
    a = HELM / "bbq_meta_llama-3-8b-chat_per_instance_stats.json"
    b = HELM / "bbq_openai_gpt-4o-2024-05-13_per_instance_stats.json"
    # A = llama, B = gpt-4o: B is better, so the worse-gate passes (exit 0) ...
    assert run_cli(capsys, a, b, "--fail-if-worse")[0] == 0
    # ... and the other way round it fails (23 only-llama-fails vs 2: p = 1.9e-05).
    assert run_cli(capsys, b, a, "--fail-if-worse")[0] == 1


def test_unpaired_share_refusal_and_the_flag(capsys):
    data = LOGS.parent
    a, b = data / "samples_gsm8k_model_a.jsonl", data / "samples_gsm8k_model_b.jsonl"
    status, _, err = run_cli(capsys, a, b)
    assert status == 2 and "over the limit of 5%" in one_line(err)
    assert run_cli(capsys, a, b, "--allow-exclusions")[0] == 0


def test_near_misses_are_one_line(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    status, _, err = run_cli(capsys, empty, DUMMY1)
    assert status == 2 and "a folder without an evaluation log" in one_line(err)
    pretty = tmp_path / "log.jsonl"
    pretty.write_text(json.dumps({"a": 1, "b": [1, 2]}, indent=2))
    status, _, err = run_cli(capsys, pretty, pretty)
    assert status == 2 and "not JSON Lines" in one_line(err)
    status, _, err = run_cli(capsys, MOCK / "mock-a-3epochs.eval")
    assert status == 2 and "give B's log" in one_line(err)


def test_column_options_do_not_apply_to_logs(capsys, tmp_path):
    status, _, err = run_cli(capsys, DUMMY1, DUMMY2, "--a", "acc")
    assert status == 2 and "--metric" in one_line(err)
    plain = tmp_path / "runs.csv"
    plain.write_text("id,old,new\nq1,1,0\nq2,0,1\n")
    status, _, err = run_cli(capsys, plain, "--metric", "acc")
    assert status == 2 and "--a and --b" in one_line(err)


@pytest.mark.parametrize("name", ["renamed.txt"])
def test_a_log_under_any_name_is_read(tmp_path, capsys, name):
    source = next(DUMMY1.glob("samples_toy_add_*"))
    other = next(DUMMY2.glob("samples_toy_add_*"))
    shutil.copy(source, tmp_path / name)
    status, out, _ = run_cli(capsys, tmp_path / name, other, "--json")
    assert status == 0 and json.loads(out)["input"]["format"] == "lm-eval"


def test_compare_three_logs_counts_each_systems_passes(capsys):
    files = sorted((LOGS / "lm-eval").glob("output__*winogrande*"))
    status = main(["compare", *map(str, files), "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert status == 0
    assert payload["input"]["format"] == "lm-eval" and payload["input"]["metric"] == "exact_match"
    assert payload["input"]["filter"] == "get-answer"
    passes = [
        sum(json.loads(line)["exact_match"] == 1 for line in path.read_text().splitlines())
        for path in files
    ]
    assert [system["passes"] for system in payload["systems"]] == passes
    assert payload["n"] == 10


def test_compare_refuses_repeated_samples(capsys):
    files = [
        MOCK / "mock-a-3epochs.eval",
        MOCK / "mock-b-3epochs.eval",
        MOCK / "mock-b-1epoch.json",
    ]
    status = main(["compare", *map(str, files)])
    err = capsys.readouterr().err
    assert status == 2 and "compare two systems at a time with `cases`" in one_line(err)


def test_a_filter_no_compared_task_uses_is_refused_by_name(capsys):
    # statistics 4, C9: "--filter strict-match" was answered with "filter none" over the tasks
    # compared, the one task logging it having been left out for its metric, without a word.
    seeds = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "lm-eval"
    status = main(
        [
            "cases",
            str(seeds / "dummy-seed1"),
            str(seeds / "dummy-seed2"),
            "--metric",
            "acc_norm",
            "--filter",
            "strict-match",
        ]
    )
    _, err = capsys.readouterr()
    assert status == 2
    assert "--filter 'strict-match' applies to no task compared" in err
    assert "every task logging it is left out (toy_gen;" in err
