"""``python -m calculator cases`` on per-case scores: analysed as scores without --threshold,
as pass/fail with it (and the output says which), the ``scores`` JSON section, pairing by id,
exclusions counted, the release gate, and the refusal of corpus-level [gold, pred] rows."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calculator import compare_scores
from calculator.cli import main
from calculator.report.words import payload as json_of

GRADES_A = [1, 0.75, 0.5, 1, 0.25, 0.75, 1, 0.5, 0.75, 1, 0, 0.5]
GRADES_B = [0.75, 0.75, 0.25, 0.5, 0.25, 0.5, 1, 0.75, 0.25, 0.75, 0, 0.25]


def write(tmp_path: Path, name: str, *lines: str) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def graded_file(tmp_path: Path, *extra: str) -> str:
    rows = [
        f"q{i},{a},{b},t{i % 3}" for i, (a, b) in enumerate(zip(GRADES_A, GRADES_B, strict=True))
    ]
    return write(tmp_path, "grades.csv", "id,old,new,topic", *rows, *extra)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cases", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_graded_columns_are_analysed_as_scores_without_a_threshold(tmp_path, capsys):
    status, out, err = run_cli(capsys, graded_file(tmp_path))
    assert status == 0 and err == ""
    lines = out.splitlines()
    analysed = next(i for i, line in enumerate(lines) if line.startswith("analysed  as scores"))
    headline = lines[analysed + 1]
    # The headline: the mean difference, its interval and the permutation p, before the rest.
    assert headline.startswith("Over 12 cases, old's mean score is 0.667 and new's 0.500")
    assert "mean difference old − new of +0.167 (95% t interval" in headline
    assert "sign-flip permutation test p = " in headline
    rest = "\n".join(lines[analysed + 2 :])
    assert "Paired t test" in rest and "Wilcoxon" in rest and "BCa bootstrap" in rest
    assert "table     both pass" not in out  # no pass/fail table was made


def test_json_has_a_scores_section_equal_to_compare_scores(tmp_path, capsys):
    status, out, _ = run_cli(capsys, graded_file(tmp_path), "--json")
    payload = json.loads(out)
    assert status == 0
    assert payload["analysed_as"] == "scores"
    expected = json_of(compare_scores(GRADES_A, GRADES_B, names=("old", "new")))
    assert payload["scores"] == json.loads(json.dumps(expected))
    assert payload["input"]["threshold"] is None
    assert payload["input"]["columns"]["A"] == "old"


def test_threshold_still_cuts_scores_into_pass_fail_and_says_so(tmp_path, capsys):
    path = graded_file(tmp_path)
    status, out, _ = run_cli(capsys, path, "--threshold", "0.75", "--a", "old", "--b", "new")
    assert status == 0
    assert "pass when score >= 0.75: analysed as pass/fail" in out
    assert "table     both pass" in out
    status, out, _ = run_cli(
        capsys, path, "--threshold", "0.75", "--a", "old", "--b", "new", "--json"
    )
    payload = json.loads(out)
    assert payload["analysed_as"] == "pass/fail" and "scores" not in payload
    a = np.array(GRADES_A) >= 0.75
    b = np.array(GRADES_B) >= 0.75
    counts = [int(np.sum(a & b)), int(np.sum(a & ~b)), int(np.sum(~a & b)), int(np.sum(~a & ~b))]
    assert [payload["table"][k] for k in "abcd"] == counts


def test_pass_fail_columns_stay_pass_fail(tmp_path, capsys):
    path = write(tmp_path, "r.csv", "id,old,new", "1,1,0", "2,1,1", "3,0,1", "4,pass,fail")
    status, out, _ = run_cli(capsys, path, "--json")
    assert status == 0 and json.loads(out)["analysed_as"] == "pass/fail"


def test_two_files_pair_scores_by_id_and_count_the_unpaired(tmp_path, capsys):
    first = write(tmp_path, "a.csv", "id,f1", "q1,0.9", "q2,0.4", "q3,0.75", "q4,0.6", "q9,0.1")
    second = write(tmp_path, "b.csv", "id,f1", "q4,0.5", "q3,0.5", "q1,0.8", "q2,0.45")
    status, out, _ = run_cli(capsys, first, second, "--id", "id", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["analysed_as"] == "scores"
    assert payload["input"]["excluded"]["id_in_one_file_only"] == 1
    expected = compare_scores([0.9, 0.4, 0.75, 0.6], [0.8, 0.45, 0.5, 0.5], names=("A", "B"))
    assert payload["scores"]["mean_difference"] == pytest.approx(expected.statistic)
    assert payload["scores"]["pvalue"] == expected.pvalue


def test_missing_text_and_infinite_scores_are_excluded_and_counted(tmp_path, capsys):
    # 30 more scored rows: 2 unreadable rows of 15 would stop the run, as no reading would
    # keep 95% of the rows (issue #31); 2 of 45 are excluded.
    more = [f"y{i},0.5,0.{i % 9},t{i % 3}" for i in range(30)]
    path = graded_file(tmp_path, *more, "x1,,0.5,t0", "x2,inf,0.5,t1", "x3,0.5,oops,t2")
    status, out, _ = run_cli(capsys, path, "--json")
    payload = json.loads(out)
    assert status == 0
    assert payload["input"]["rows_read"] == 45 and payload["scores"]["n"] == 42
    assert payload["input"]["excluded"]["missing_value"] == 1
    assert payload["input"]["excluded"]["unparseable_outcome"] == 2
    status, out, _ = run_cli(capsys, path)
    assert "excluded, unparseable outcome: 2" in out
    assert "allowed: finite numbers (scores)" in out


def test_clusters_are_resampled_and_stated(tmp_path, capsys):
    status, out, _ = run_cli(capsys, graded_file(tmp_path), "--group", "topic")
    assert status == 0
    assert "clusters  3 groups in 'topic'" in out
    assert "resamples of the 3 clusters" not in out  # too few clusters for a bootstrap
    assert "over all 8 sign patterns of the 3 non-zero clusters" in out


@pytest.mark.parametrize(
    ("shift", "status", "verdict"),
    [(0.0, 0, "pass: new is shown non-inferior"), (0.3, 1, "FAIL: new is not shown")],
)
def test_margin_gate_on_mean_scores(tmp_path, capsys, shift, status, verdict):
    i = np.arange(60)
    a = 0.5 + 0.1 * np.sin(i)
    b = a - shift + 0.02 * np.cos(5 * i)
    path = write(
        tmp_path, "s.csv", "id,old,new", *(f"q{k},{x},{y}" for k, x, y in zip(i, a, b, strict=True))
    )
    got, out, _ = run_cli(capsys, path, "--margin", "0.1", "--fail-if-worse")
    assert got == status
    assert f"gate      {verdict}" in out


def test_gate_without_margin_fails_when_b_is_significantly_lower(tmp_path, capsys):
    rows = [f"q{k},{0.6 + 0.01 * (k % 7)},{0.4 + 0.01 * (k % 5)}" for k in range(40)]
    path = write(tmp_path, "s.csv", "id,old,new", *rows)
    status, out, _ = run_cli(capsys, path, "--fail-if-worse")
    assert status == 1
    # The gate says which way it read "worse" (hostile review 4, S4).
    assert (
        "gate      FAIL: new is worse than old at α = 0.05, higher scores taken as better "
        "(two-sided sign-flip" in out
    )


def test_equivalence_is_refused_for_scores(tmp_path, capsys):
    status, out, err = run_cli(capsys, graded_file(tmp_path), "--margin", "0.1", "--equivalence")
    assert status == 2 and out == ""
    assert "--equivalence is for pass/fail outcomes" in err and err.count("\n") == 1


def test_corpus_level_gold_pred_rows_are_refused_in_one_line(tmp_path, capsys):
    # lm-evaluation-harness logs a corpus metric per sample as [gold references, prediction].
    lines = [
        json.dumps({"doc_id": k, "bleu": [[f"ref {k}"], f"pred {k}"], "acc": k % 2})
        for k in range(5)
    ]
    path = write(tmp_path, "samples_wmt.jsonl", *lines)
    status, out, err = run_cli(capsys, path, "--a", "bleu", "--b", "acc")
    assert status == 2 and out == ""
    assert "'bleu' holds [gold, prediction] pairs" in err
    assert "cannot be split into per-case scores" in err and err.count("\n") == 1


def test_a_pass_fail_column_is_never_paired_with_a_score_column_by_guess(tmp_path, capsys):
    # One 0/1 column and one score column: the guess compares neither (as before scores).
    path = write(tmp_path, "r.csv", "id,acc,f1", "1,1,0.5", "2,0,0.25", "3,1,0.75")
    status, out, err = run_cli(capsys, path)
    assert status == 2 and out == ""
    assert "cannot tell which columns hold A's and B's outcomes" in err


def test_a_named_score_column_takes_a_score_column_as_its_partner(tmp_path, capsys):
    path = write(
        tmp_path, "r.csv", "id,acc,f1_old,f1_new", "1,1,0.5,0.4", "2,0,0.25,0.5", "3,1,0.75,0.7"
    )
    status, out, _ = run_cli(capsys, path, "--a", "f1_old", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["analysed_as"] == "scores"
    assert payload["input"]["columns"]["B"] == "f1_new"


def test_named_graded_columns_keep_every_case(tmp_path, capsys):
    # Before, a named column of grades 0, 0.5, 1 lost every 0.5 as an unreadable outcome and
    # the rest was analysed as pass/fail (a biased remainder); now every case is kept.
    rows = [f"i{k},{(k % 3) / 2},{((k + 1) % 3) / 2}" for k in range(30)]
    path = write(tmp_path, "harm.csv", "id,model_a,model_b", *rows)
    status, out, _ = run_cli(capsys, path, "--a", "model_a", "--b", "model_b", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["analysed_as"] == "scores"
    assert payload["input"]["rows_used"] == 30 and payload["scores"]["n"] == 30


def test_threshold_cuts_guessed_score_columns(tmp_path, capsys):
    # Before, --threshold on a file of score columns still asked for --a and --b.
    status, out, _ = run_cli(capsys, graded_file(tmp_path), "--threshold", "0.75", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["analysed_as"] == "pass/fail"
    assert payload["input"]["columns"]["A"] == "old" and payload["input"]["columns"]["B"] == "new"
    assert payload["input"]["threshold"] == 0.75


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        (["q1,1e308,0.5"], "A score of 1e+308 is beyond the largest score taken"),
        (["q1,1e-310,0"], "below the smallest normal double"),
    ],
)
def test_a_refusal_of_compare_scores_names_the_file_and_the_columns(tmp_path, capsys, rows, reason):
    path = write(tmp_path, "huge.csv", "id,old,new", "q0,0.5,0.25", "q2,0.75,0.5", *rows)
    status, out, err = run_cli(capsys, path)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error: huge.csv (A = 'old', B = 'new', id = 'id'): ")
    assert reason in err


def test_a_refusal_of_compare_scores_names_both_files(tmp_path, capsys):
    first = write(tmp_path, "a.csv", "id,f1", "q1,0.9", "q2,1e308", "q3,0.75")
    second = write(tmp_path, "b.csv", "id,f1", "q1,0.8", "q2,0.5", "q3,0.5")
    status, out, err = run_cli(capsys, first, second, "--id", "id")
    assert status == 2 and out == ""
    assert err.startswith("error: a.csv + b.csv (A = 'f1', B = 'f1', id = 'id'): A score of")
