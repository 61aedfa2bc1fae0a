"""Harness logs' graded metrics compared as scores (issue 22): pair_logs(scores=True) and
analyze_log_scores. Each reference is computed here from the values written into the logs (or,
for Inspect, from the reference_scores.json that Inspect's own reader wrote, see
tests/data/evallogs/SOURCES.md): means and differences by hand, the paired t test by
scipy.stats.ttest_rel, the sign-flip p by enumerating the 2^n sign patterns."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from calculator.logs import LogError, analyze_logs, pair_logs, read_log, read_log_data
from calculator.logs.scores import analyze_log_scores

MOCK = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "inspect"
REFERENCE = json.loads((MOCK / "reference_scores.json").read_text())


def lm_eval_file(task: str, values: dict[int, object], metric: str = "rouge1_max") -> tuple:
    records = [
        {
            "doc_id": doc,
            "doc": {"q": f"question {doc}"},
            "target": "t",
            "arguments": [],
            "resps": [["r"]],
            "filtered_resps": ["r"],
            "filter": "none",
            "metrics": [metric],
            metric: value,
            "doc_hash": f"h{task}{doc}",
        }
        for doc, value in values.items()
    ]
    name = f"samples_{task}_2026-01-01T00-00-00.000000.jsonl"
    return name, "".join(json.dumps(r) + "\n" for r in records).encode()


def brute_force(d) -> float:
    observed = abs(sum(d))
    hits = sum(
        abs(float(np.dot(signs, d))) >= observed - 1e-9
        for signs in itertools.product((1, -1), repeat=len(d))
    )
    return hits / 2 ** len(d)


ROUGE_A = {0: 0.5, 1: 0.25, 2: 0.8, 3: 1.0, 4: 0.0, 5: 0.6, 6: 0.45, 7: 0.9}
ROUGE_B = {0: 0.4, 1: 0.25, 2: 0.5, 3: 0.7, 4: 0.1, 5: 0.6, 6: 0.2, 7: 0.95}


def test_lm_eval_per_sample_rouge_is_compared_as_scores():
    a = read_log_data([lm_eval_file("toy", ROUGE_A)], system="A")
    b = read_log_data([lm_eval_file("toy", ROUGE_B)], system="B")
    paired = pair_logs(a, b, scores=True)
    assert paired.scores and paired.analysed_as == "scores"
    result = analyze_log_scores(paired)
    d = [ROUGE_A[k] - ROUGE_B[k] for k in sorted(ROUGE_A)]
    pooled = result.pooled
    assert pooled.n == 8 and pooled.clusters is None
    assert pooled.statistic == pytest.approx(sum(d) / 8, abs=1e-12)
    # scipy: stats.ttest_rel(a, b)
    t = stats.ttest_rel([ROUGE_A[k] for k in range(8)], [ROUGE_B[k] for k in range(8)])
    assert pooled.t_test.pvalue == pytest.approx(t.pvalue, rel=1e-9)
    assert pooled.pvalue == pytest.approx(brute_force(d), rel=1e-12)


def test_without_scores_a_graded_metric_is_still_refused():
    a = read_log_data([lm_eval_file("toy", ROUGE_A)], system="A")
    b = read_log_data([lm_eval_file("toy", ROUGE_B)], system="B")
    with pytest.raises(LogError, match="--threshold"):
        pair_logs(a, b)
    with pytest.raises(LogError, match="paired as scores"):
        analyze_logs(pair_logs(a, b, scores=True))
    cut = pair_logs(a, b, threshold=0.5, scores=True)  # a threshold: pass/fail as before
    assert not cut.scores
    (task,) = analyze_logs(cut).tasks
    passes_a = [ROUGE_A[k] >= 0.5 for k in range(8)]
    passes_b = [ROUGE_B[k] >= 0.5 for k in range(8)]
    pairs = list(zip(passes_a, passes_b, strict=True))
    expected = tuple(pairs.count(p) for p in ((1, 1), (1, 0), (0, 1), (0, 0)))
    assert task.paired.cases.counts == expected


def test_corpus_level_pairs_are_refused_in_one_line():
    a = read_log_data([lm_eval_file("wmt", {d: ["gold", "a"] for d in range(4)}, "bleu")])
    b = read_log_data([lm_eval_file("wmt", {d: ["gold", "b"] for d in range(4)}, "bleu")])
    assert a.corpus_metrics == ("bleu",)
    for metric in ("bleu", None):  # named, or the only metric
        with pytest.raises(LogError, match="cannot be split into per-case scores") as error:
            pair_logs(a, b, metric=metric, scores=True)
        assert "\n" not in str(error.value)


def test_several_tasks_pool_every_question_and_keep_the_task_clustered_contrast():
    # Issue #32, a deliberate change: the pooled comparison (the suite's answer, gated on) took
    # the task as the cluster; it now counts every question once, stratified by task, and the
    # task-clustered comparison is `by_task`, shown for contrast.
    second_a = {k: v / 2 for k, v in ROUGE_A.items()}
    second_b = {k: v / 4 for k, v in ROUGE_B.items()}
    a = read_log_data([lm_eval_file("one", ROUGE_A), lm_eval_file("two", second_a)], system="A")
    b = read_log_data([lm_eval_file("one", ROUGE_B), lm_eval_file("two", second_b)], system="B")
    result = analyze_log_scores(pair_logs(a, b, scores=True))
    assert [t.task for t in result.tasks] == ["one", "two"]
    assert result.pooled.n == 16 and result.pooled.clusters is None
    assert result.by_task.n == 16 and result.by_task.clusters == 2
    # Holm over two p-values: the smaller doubled, the larger kept (at least the smaller's).
    low, high = sorted(t.pvalue for t in result.tasks)
    holm = sorted(t.holm_pvalue for t in result.tasks)
    assert holm[0] == pytest.approx(min(1.0, 2 * low))
    assert holm[1] == pytest.approx(max(min(1.0, 2 * low), high))
    everything = [ROUGE_A[k] - ROUGE_B[k] for k in range(8)] + [
        second_a[k] - second_b[k] for k in range(8)
    ]
    assert result.pooled.statistic == pytest.approx(np.mean(everything), abs=1e-12)
    assert result.by_task.statistic == pytest.approx(np.mean(everything), abs=1e-12)


def test_inspect_partial_credit_is_compared_by_question():
    a_name, b_name = "mock-a-3epochs.eval", "mock-b-3epochs.eval"
    paired = pair_logs(
        read_log(MOCK / a_name), read_log(MOCK / b_name), metric="graded", scores=True
    )
    result = analyze_log_scores(paired)
    ref = [
        {(s["id"], s["epoch"]): s["as_float"]["graded"] for s in REFERENCE[n]}
        for n in (a_name, b_name)
    ]
    assert 0.5 in set(ref[0].values())  # Inspect's P, partial credit
    keys = sorted(ref[0])
    (task,) = result.tasks
    c = task.comparison
    assert c.n == len(keys) and c.clusters == len({k[0] for k in keys})
    assert c.mean_a == pytest.approx(np.mean([ref[0][k] for k in keys]))
    assert c.mean_b == pytest.approx(np.mean([ref[1][k] for k in keys]))
    # The sign flips whole questions: the p-value over the questions' summed differences.
    sums = defaultdict(float)
    for k in keys:
        sums[k[0]] += ref[0][k] - ref[1][k]
    assert c.pvalue == pytest.approx(brute_force(list(sums.values())), rel=1e-12)


def helm_file(values: dict[tuple[str, int], float]) -> tuple[str, bytes]:
    instances = [
        {
            "instance_id": case,
            "train_trial_index": trial,
            "stats": [
                {"name": {"name": "f1_score", "split": "test"}, "count": 1, "sum": v, "mean": v},
                {"name": {"name": "num_prompt_tokens", "split": "test"}, "count": 1,
                 "sum": 50 + trial, "mean": 50 + trial},
            ],
        }
        for (case, trial), v in values.items()
    ]  # fmt: skip
    return "per_instance_stats.json", json.dumps(instances).encode()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0.0, 0.25, 0.4, 2 / 3, 1.0]), st.sampled_from([0.0, 0.5, 1.0])),
        min_size=6,
        max_size=12,
    ).filter(lambda rows: len({v for r in rows for v in r}) > 2)
)
def test_helm_graded_stat_swapping_a_and_b_negates_the_difference_and_keeps_p(rows):
    # Two train trials of each instance: the question is the cluster.
    a = {(f"id{i // 2}", i % 2): x for i, (x, _) in enumerate(rows)}
    b = {(f"id{i // 2}", i % 2): y for i, (_, y) in enumerate(rows)}
    log_a, log_b = (
        read_log_data([helm_file(a)], system="A"),
        read_log_data([helm_file(b)], system="B"),
    )
    forward = analyze_log_scores(pair_logs(log_a, log_b, scores=True)).pooled
    backward = analyze_log_scores(pair_logs(log_b, log_a, scores=True)).pooled
    assert forward.statistic == pytest.approx(np.mean([a[k] - b[k] for k in a]), abs=1e-12)
    assert backward.statistic == pytest.approx(-forward.statistic, abs=1e-12)
    assert backward.pvalue == forward.pvalue
    assert forward.clusters == len({k[0] for k in a})
