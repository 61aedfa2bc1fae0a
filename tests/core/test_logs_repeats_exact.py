"""Harness logs with repeated samples (Inspect epochs): each task's test by question is the
clustered McNemar test held at the exact sign-flip test of the questions' leans (statistics
review 4, A1), and the page's table, the JSON and Holm carry that p.

The logs are the review's `fourA`/`fourB` and `fiveA`/`fiveB`: 10 (20) questions x 3 epochs, A
passing one epoch more on 4 (5) questions, everything else equal. Reference values:

- Durkalski's X2 = (sum d_i)^2 / sum d_i^2 = k for k equal leans, so the chi-square p is
  ``scipy.stats.chi2.sf(4, 1)`` = 0.0455 and ``chi2.sf(5, 1)`` = 0.0253;
- the exact sign-flip p, by enumeration of the 2^k sign patterns of k leaning questions, is
  2/2^k: 0.125 and 0.0625 (the only extreme patterns are all + and all -).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from scipy import stats

from calculator.cli import main
from calculator.clustered_exact import cluster_sign_flip, held_at_exact
from calculator.logs import LogError, analyze_logs, pair_logs, read_log_data
from calculator.report.logs import report_lines

SPEC = {"task": "mock_qa", "scorers": [{"name": "match"}]}
LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "lm-eval"


def log(samples: list[tuple[str, int, str]], model: str) -> bytes:
    items = [{"id": q, "epoch": e, "scores": {"match": {"value": v}}} for q, e, v in samples]
    return json.dumps({"eval": dict(SPEC, model=model), "samples": items}).encode()


def leaning(lean: int, questions: int) -> tuple[bytes, bytes]:
    """A passes epochs 1-2 of every question and epoch 3 of the first `lean`; B epochs 1-2."""
    a = [
        (f"q{q}", e, "C" if (q < lean or e < 3) else "I")
        for q in range(questions)
        for e in (1, 2, 3)
    ]
    b = [(f"q{q}", e, "C" if e < 3 else "I") for q in range(questions) for e in (1, 2, 3)]
    return log(a, "m/A"), log(b, "m/B")


def analysis(lean: int, questions: int):
    a, b = leaning(lean, questions)
    paired = pair_logs(read_log_data([("a.json", a)]), read_log_data([("b.json", b)]))
    return analyze_logs(paired)


def brute_sign_flip(leans: list[int]) -> float:
    observed = abs(sum(leans))
    patterns = list(itertools.product((1, -1), repeat=len(leans)))
    return sum(
        abs(sum(s * d for s, d in zip(p, leans, strict=True))) >= observed for p in patterns
    ) / len(patterns)


@pytest.mark.parametrize(("lean", "questions"), [(4, 10), (5, 20)])
def test_the_task_p_is_held_at_the_exact_sign_flip_p(lean, questions):
    (task,) = analysis(lean, questions).tasks
    assert task.by_question.pvalue == pytest.approx(stats.chi2.sf(lean, 1))
    exact = brute_sign_flip([1] * lean)
    assert exact == 2 / 2**lean
    assert task.by_question_exact.pvalue == pytest.approx(exact)
    # Before the fix the task's p was the chi-square's, 0.0455 and 0.0253: "significant".
    assert task.pvalue == pytest.approx(exact) and task.test == "clustered-held"
    assert task.to_dict()["pvalue"] == pytest.approx(exact)
    assert task.to_dict()["test"] == "clustered-held"


def test_the_text_says_held_and_that_the_exact_test_cannot_reach_alpha():
    text = "\n".join(report_lines(analysis(4, 10)))
    assert "held at the exact sign-flip test's p, p = 0.125" in text
    assert "cannot go below 2^(1 − 4) = 0.125" in text
    assert "p = 0.0455" in text  # the chi-square p is still shown, as the approximation
    # C7: only the leans are the same under every pairing of A's and B's repeats.
    assert "an arbitrary pairing of independent samples" in text


def test_sixteen_leaning_questions_are_still_held():
    # Leans +1 on 14 questions and -1 on 2: X2 = 12^2/16 = 9, chi-square p = 0.0027; the exact
    # p is 2 P(Binomial(16, 1/2) <= 2) = 0.0042 (scipy.stats.binomtest(2, 16).pvalue).
    b_i, c_i = [1] * 14 + [0, 0], [0] * 14 + [1, 1]
    exact = cluster_sign_flip(b_i, c_i)
    assert exact.pvalue == pytest.approx(stats.binomtest(2, 16).pvalue)
    log10_p, held = held_at_exact(math.log10(stats.chi2.sf(9, 1)), math.log10(exact.pvalue))
    assert held and 10**log10_p == pytest.approx(exact.pvalue)


def test_two_tasks_holm_adjusts_the_held_p():
    # Two tasks, each four questions leaning one epoch to A: both held at 0.125, so Holm gives
    # 2 x 0.125 = 0.25 for both (the old code adjusted 0.0455: 0.091).
    a, b = leaning(4, 10)
    other = [json.loads(x) for x in (a, b)]
    for doc in other:
        doc["eval"]["task"] = "second"
    paired = pair_logs(
        read_log_data([("a.json", a), ("a2.json", json.dumps(other[0]).encode())]),
        read_log_data([("b.json", b), ("b2.json", json.dumps(other[1]).encode())]),
    )
    tasks = analyze_logs(paired).tasks
    assert [t.holm_pvalue for t in tasks] == pytest.approx([0.25, 0.25])


def test_holm_and_json_carry_the_held_p(tmp_path, capsys):
    a, b = leaning(4, 10)
    (tmp_path / "a.json").write_bytes(a)
    (tmp_path / "b.json").write_bytes(b)
    assert main(["cases", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--json"]) == 0
    (task,) = json.loads(capsys.readouterr().out)["tasks"]
    assert task["pvalue"] == pytest.approx(0.125) and task["test"] == "clustered-held"
    assert task["sign_flip_by_question"]["pvalue"] == pytest.approx(0.125)
    assert task["clustered_by_question"]["pvalue"] == pytest.approx(stats.chi2.sf(4, 1))


def cli(tmp_path, capsys, lean: int, *options: str) -> tuple[int, str]:
    a, b = leaning(lean, 10)
    (tmp_path / "a.json").write_bytes(a)
    (tmp_path / "b.json").write_bytes(b)
    status = main(["cases", str(tmp_path / "a.json"), str(tmp_path / "b.json"), *options])
    return status, capsys.readouterr().out


def test_margin_alternative_and_gate_are_answered_by_question(tmp_path, capsys):
    # Statistics review 4, B5: with repeats --margin and --alternative were accepted and not
    # answered, and --fail-if-worse refused; they are answered by question, as cases --group
    # answers them on the same 30 cases grouped by question.
    status, out = cli(tmp_path, capsys, 4, "--margin", "0.05", "--json")
    decision = json.loads(out)["decision"]
    assert status == 0 and decision["question"] == "non-inferior" and decision["margin"] == 0.05
    assert decision["interval"]["method"] == "cluster-robust" and not decision["reject"]
    status, out = cli(tmp_path, capsys, 4, "--alternative", "less", "--json")
    decision = json.loads(out)["decision"]
    # one-sided: 1 of the 16 sign patterns (and the exact McNemar test of 4 to 0) gives 1/16
    assert decision["alternative"] == "less" and decision["pvalue"] == pytest.approx(1 / 16)
    status, out = cli(tmp_path, capsys, 4, "--alternative", "less")
    assert "B is not shown to be worse than A" in out.replace("m/", "")
    assert "decision p          0.062" in out
    # 8 questions leaning to A: exact sign-flip p = 2/2^8 = 0.0078 <= 0.05, so the gate fails.
    status, out = cli(tmp_path, capsys, 8, "--fail-if-worse")
    assert status == 1 and "gate      FAIL" in out
    assert cli(tmp_path, capsys, 4, "--fail-if-worse")[0] == 0


def test_the_task_clustered_test_is_held_and_says_it_cannot_reach_alpha(capsys):
    # Statistics review 4, C5: 2 tasks leaning the same way (toy_add 9 vs 6, toy_mul 7 vs 5):
    # X2 = (5)^2 / (3^2 + 2^2) = 25/13, chi-square p = 0.166 (scipy.stats.chi2.sf(25/13, 1)), but
    # 2 tasks give 4 sign patterns, 2 as extreme: the exact p is 1/2, and no p can be lower.
    folders = [LOGS / f"dummy-seed{k}" for k in (1, 2)]
    status = main(["cases", *map(str, folders)])
    out = capsys.readouterr().out
    assert status == 0
    assert "task as cluster (2 tasks), held at the exact sign-flip test's p, p = 0.500" in out
    assert "its chi-square reference gives p = 0.166" in out
    assert "cannot go below 2^(1 − 2) = 0.5" in out
    assert main(["cases", *map(str, folders), "--json"]) == 0
    by_task = json.loads(capsys.readouterr().out)["clustered_by_task"]
    assert by_task["pvalue"] == pytest.approx(stats.chi2.sf(25 / 13, 1))
    assert by_task["held_pvalue"] == 0.5 and by_task["held"] is True


def test_fewer_repeats_on_some_questions_is_named_not_called_other_questions():
    # Statistics review 4, C16: B without epoch 3 on 5 of 10 questions was refused as "not made
    # on the same questions"; the questions are the same, some repeats are missing.
    a, b = leaning(0, 10)
    doc = json.loads(b)
    doc["samples"] = [s for s in doc["samples"] if not (s["epoch"] == 3 and s["id"] < "q5")]
    logs = read_log_data([("a.json", a)]), read_log_data([("b.json", json.dumps(doc).encode())])
    with pytest.raises(LogError, match="5 of m/A's 30 samples .* m/B lacks some of their repeats"):
        pair_logs(*logs)
    paired = pair_logs(*logs, allow_exclusions=True)
    (task,) = paired.tasks
    assert task.cases.n == 25 and task.share_counts[3].tolist().count(2) == 5
    # B with one epoch of every question is by design (3 epochs against 1), as before.
    doc["samples"] = [s for s in json.loads(b)["samples"] if s["epoch"] == 1]
    pair_logs(logs[0], read_log_data([("b.json", json.dumps(doc).encode())]))
