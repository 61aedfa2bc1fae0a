"""Issue 32, "repeats used whole" for graded metrics: an Inspect graded scorer with 1 epoch in
A's log and 3 in B's. The pairing paired epoch 1 with epoch 1 and dropped two thirds of B's
samples without a word (JSON rows_read 20 of 40, nothing excluded). Every sample now counts:
each question is one case at its mean score over every repeat of each log, the test is the
permutation of the A and B labels within each question (exact by enumeration when the
arrangements are few, else its normal approximation: a sign flip is not exact with unequal
repeats), the samples are in the ledger ("samples": given and used)
and those of questions one log lacks count against the 5% rule.

Every expected figure is computed here from the logs with the standard library only (json,
math, statistics): mock-b-1epoch.json is Inspect's JSON log, read directly; mock-a-3epochs.eval
(zstd members) is read through reference_scores.json, written by Inspect's own reader
(tests/data/evallogs/SOURCES.md). The larger logs (136 questions, as in the issue) are Inspect
JSON logs this file writes from the real one, a graded value per (question, epoch) by a fixed
rule.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import statistics
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from calculator.cli import main

MOCK = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "inspect"
ONE = MOCK / "mock-b-1epoch.json"
THREE = MOCK / "mock-a-3epochs.eval"
FLOAT = {"C": 1.0, "P": 0.5, "I": 0.0}  # Inspect's value_to_float for C, P and I


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def json_log_scores(path: Path) -> dict[str, list[float]]:
    """question -> its graded scores, from an Inspect JSON log read with json."""
    scores = defaultdict(list)
    for sample in json.loads(path.read_text())["samples"]:
        scores[str(sample["id"])].append(FLOAT[sample["scores"]["graded"]["value"]])
    return dict(scores)


def reference_scores(name: str) -> dict[str, list[float]]:
    scores = defaultdict(list)
    for sample in json.loads((MOCK / "reference_scores.json").read_text())[name]:
        scores[sample["id"]].append(sample["as_float"]["graded"])
    return dict(scores)


def expected(a: dict[str, list[float]], b: dict[str, list[float]]) -> dict[str, float]:
    """The label permutation within each question, by its normal approximation: per question
    d = mean_A - mean_B, of variance s^2 (1/k_A + 1/k_B) over the permutations (s^2 the pooled
    scores' sample variance); z = sum d / sqrt(sum variances), p = erfc(|z| / sqrt 2)."""
    common = sorted(set(a) & set(b))
    d = [statistics.fmean(a[q]) - statistics.fmean(b[q]) for q in common]
    var = [statistics.variance(a[q] + b[q]) * (1 / len(a[q]) + 1 / len(b[q])) for q in common]
    z = sum(d) / math.sqrt(sum(var))
    return {
        "questions": len(common),
        "samples_a": sum(len(a[q]) for q in common),
        "samples_b": sum(len(b[q]) for q in common),
        "mean_a": statistics.fmean(statistics.fmean(a[q]) for q in common),
        "mean_b": statistics.fmean(statistics.fmean(b[q]) for q in common),
        "statistic": statistics.fmean(d),
        "pvalue": math.erfc(abs(z) / math.sqrt(2)),
    }


def enumerated(a: dict[str, list[float]], b: dict[str, list[float]]) -> float:
    """The exact two-sided p of the label permutation: every choice of which of a question's
    k_A + k_B scores are A's (itertools.combinations), all combinations over the questions,
    the share whose sum of mean differences is at least the observed one in absolute value
    (Fractions: the scores are C, P, I, exact in binary)."""
    common = sorted(set(a) & set(b))
    laws = []
    for q in common:
        pool, ka, kb = a[q] + b[q], len(a[q]), len(b[q])
        law = []
        for chosen in itertools.combinations(range(ka + kb), ka):
            x = sum(Fraction(pool[j]) for j in chosen)
            law.append(x / ka - (sum(map(Fraction, pool)) - x) / kb)
        laws.append(law if len(set(law)) > 1 else law[:1])  # one value: one arrangement is all
    mean = {
        side: {q: sum(map(Fraction, v[q])) / len(v[q]) for q in common}
        for side, v in (("a", a), ("b", b))
    }
    observed = abs(sum(mean["a"][q] - mean["b"][q] for q in common))
    hits = total = 0
    for combo in itertools.product(*laws):
        total += 1
        hits += abs(sum(combo)) >= observed
    return hits / total


def test_every_epoch_of_inspect_logs_counts_by_question(capsys):
    a, b = json_log_scores(ONE), reference_scores(THREE.name)
    want = expected(a, b)
    assert {len(v) for v in a.values()} == {1} and {len(v) for v in b.values()} == {3}
    status, out, _ = run(capsys, "cases", str(ONE), str(THREE), "--metric", "graded", "--json")
    assert status == 0
    payload = json.loads(out)
    [task] = payload["tasks"]
    assert payload["input"]["samples"]["given"] == {"A": 10, "B": 30}
    assert payload["input"]["samples"]["used"] == {"A": 10, "B": 30}  # was 10 and 10
    assert task["samples"]["by_question_means"] is True
    scores = task["scores"]
    assert scores["n"] == want["questions"] == 10
    assert scores["mean"]["A"] == pytest.approx(want["mean_a"], abs=1e-12)
    assert scores["mean"]["B"] == pytest.approx(want["mean_b"], abs=1e-12)
    assert want["mean_b"] == pytest.approx(49 / 60)  # not 0.85, epoch 1's alone
    test = task["label_permutation_by_question"]
    assert test["method"] == "exact-label-permutation"  # 4^3 arrangements of 3 moving questions
    assert test["statistic"] == pytest.approx(want["statistic"], abs=1e-12)
    assert task["pvalue"] == test["pvalue"] == enumerated(a, b) == 1.0
    status, out, _ = run(capsys, "cases", str(ONE), str(THREE), "--metric", "graded")
    assert (
        "task mock_qa: 10 questions, each at its mean score over all 10 of A's and all 30 of "
        "B's samples; exact permutation test of the A and B labels within each question"
    ) in out
    assert "p = 1 (the test by question, which answers)" in out
    assert "A's mean score is 0.800 and B's 0.817" in out


def many_epochs(tmp_path: Path, name: str, epochs: int, rule, questions: int = 136) -> Path:
    """An Inspect JSON log of `questions` questions x `epochs`, graded value rule(q, e), made
    from the real JSON log's first sample (its other fields as Inspect wrote them)."""
    document = json.loads(ONE.read_text())
    template = document["samples"][0]
    samples = []
    for q in range(questions):
        for e in range(1, epochs + 1):
            sample = copy.deepcopy(template)
            sample["id"], sample["epoch"] = f"q{q}", e
            for scorer in sample["scores"].values():
                scorer["value"] = rule(q, e)
            samples.append(sample)
    document["samples"] = samples
    document["eval"]["config"]["epochs"] = epochs
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


def rule_a(q: int, e: int) -> str:
    return "CPI"[(q * 7) % 3]


def rule_b(q: int, e: int) -> str:
    return "CPI"[(q * 5 + e * e) % 4 % 3]


def test_136_questions_1_epoch_against_3_use_all_408_samples(tmp_path, capsys):
    a = many_epochs(tmp_path, "a.json", 1, rule_a)
    b = many_epochs(tmp_path, "b.json", 3, rule_b)
    want = expected(json_log_scores(a), json_log_scores(b))
    status, out, _ = run(capsys, "cases", str(a), str(b), "--metric", "graded", "--json")
    assert status == 0
    payload = json.loads(out)
    assert payload["input"]["samples"]["used"] == {"A": 136, "B": 408}
    [task] = payload["tasks"]
    assert task["scores"]["n"] == want["questions"] == 136
    assert task["scores"]["mean"]["B"] == pytest.approx(want["mean_b"], abs=1e-12)
    # 4 arrangements of each of the questions whose scores differ: too many to enumerate.
    assert task["label_permutation_by_question"]["method"] == "normal-label-permutation-scores"
    assert task["pvalue"] == pytest.approx(want["pvalue"], rel=1e-9)


@pytest.mark.parametrize(("dropped", "refused"), [(5, False), (10, True)])
def test_questions_one_log_lacks_count_their_samples_against_the_limit(
    tmp_path, capsys, dropped, refused
):
    # A lacks `dropped` questions: B's 3 samples of each are left out, 15 (3.7%) or 30 (7.4%)
    # of its 408, against the 5% limit of MAX_EXCLUDED_SHARE.
    a = many_epochs(tmp_path, "a.json", 1, rule_a)
    document = json.loads(a.read_text())
    document["samples"] = document["samples"][dropped:]
    a.write_text(json.dumps(document))
    b = many_epochs(tmp_path, "b.json", 3, rule_b)
    status, out, err = run(capsys, "cases", str(a), str(b), "--metric", "graded", "--json")
    if refused:
        assert status == 2
        assert f"{3 * dropped} of B's 408 rows (7.4%) would be left out" in err
        assert "over the limit of 5%" in err
        status, out, _ = run(
            capsys, "cases", str(a), str(b), "--metric", "graded", "--allow-exclusions", "--json"
        )
    assert status == 0
    samples = json.loads(out)["input"]["samples"]
    assert samples["given"] == {"A": 136 - dropped, "B": 408}
    assert samples["used"] == {"A": 136 - dropped, "B": 408 - 3 * dropped}


def test_the_gate_is_refused_where_its_test_is_not_exact(capsys):
    status, _, err = run(
        capsys, "cases", str(ONE), str(THREE), "--metric", "graded", "--fail-if-worse"
    )
    assert status == 2
    assert err.startswith("error: --fail-if-worse gates on the sign-flip test")
    assert "task 'mock_qa' has different numbers of repeats in A and B" in err


def test_equal_epochs_keep_the_repeats_paired(capsys):
    # 3 epochs each: the sign flip of whole questions is exact there; nothing changes.
    other = MOCK / "mock-b-3epochs.eval"
    status, out, _ = run(capsys, "cases", str(THREE), str(other), "--metric", "graded", "--json")
    [task] = json.loads(out)["tasks"]
    assert task["label_permutation_by_question"] is None
    assert task["scores"]["n"] == 30 and task["scores"]["clusters"] == 10
    assert task["samples"] == {
        "given": {"A": 30, "B": 30},
        "used": {"A": 30, "B": 30},
        "repeats_unpaired": {"A": 0, "B": 0},
        "by_question_means": False,
    }
