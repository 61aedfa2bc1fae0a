"""``compare`` on scores by ranks from logs and long files (issue #35): every option answered or
refused by name, and repeats of a question used whole (a question's score is the mean of its
repeats, checked against a recount with ``csv`` and scipy 1.17.1's ``friedmanchisquare``)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *map(str, argv)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def repeated(tmp_path_factory) -> Path:
    """A long file: 3 systems x 12 questions x 3 repeats (some repeats missing), two tasks."""
    rng = np.random.default_rng(9)
    path = tmp_path_factory.mktemp("long") / "repeats.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["task", "id", "epoch", "model", "score"])
        for task in ("t1", "t2"):
            for q in range(12):
                for model, shift in (("x", 0.0), ("y", 0.5), ("z", 1.0)):
                    for epoch in (1, 2, 3):
                        if (q + epoch) % 7 == 0 and model == "y":
                            continue  # a repeat missing: the mean is over those present
                        value = round(float(rng.normal(shift, 1.0)), 2)
                        writer.writerow([task, f"q{q}", epoch, model, value])
    return path


ARGS = (
    "--system",
    "model",
    "--outcome",
    "score",
    "--id",
    "id",
    "--repeat",
    "epoch",
    "--task",
    "task",
)


def test_repeats_are_averaged_by_question(repeated):
    done = run(repeated, *ARGS, "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    values = defaultdict(list)
    with repeated.open() as handle:
        for row in csv.DictReader(handle):
            values[row["task"], row["id"], row["model"]].append(float(row["score"]))
    keys = sorted({(t, q) for t, q, _ in values})
    table = np.array([[np.mean(values[t, q, m]) for m in "xyz"] for t, q in keys])
    assert payload["n"] == 24 and payload["input"]["most_repeats"] == 3
    reference = stats.friedmanchisquare(*table.T)
    assert payload["statistic"] == pytest.approx(reference.statistic, rel=1e-9)
    tasks = payload["suite"]["tasks"]
    assert [row["task"] for row in tasks] == ["t1", "t2"] and [r["n"] for r in tasks] == [12, 12]
    text = run(repeated, *ARGS).stdout
    assert "up to 3 per question: a question's score is the mean of its repeats" in text
    assert "task t1 (12 questions)" in text and "Holm-adjusted across 2 tasks" in text


@pytest.mark.parametrize(
    ("option", "words"),
    [
        (("--adjust", "bonferroni"), "--adjust bonferroni: scores compared by ranks"),
        (("--ci-method", "wald"), "--ci-method wald: the interval methods are for a difference"),
        (("--resamples", "99"), "--resamples sets the Monte Carlo resamples of Cochran's Q"),
    ],
)
def test_pass_fail_options_are_refused_by_name_for_ranks(repeated, option, words):
    done = run(repeated, *ARGS, *option)
    assert done.returncode == 2 and words in done.stderr


def test_better_lower_reverses_the_ranks(repeated):
    higher = json.loads(run(repeated, *ARGS, "--json").stdout)
    lower = json.loads(run(repeated, *ARGS, "--better", "lower", "--json").stdout)
    assert lower["better"] == "lower"
    k = len(higher["names"])
    assert lower["average_ranks"] == pytest.approx([k + 1 - r for r in higher["average_ranks"]])


def test_better_is_refused_for_pass_fail_logs():
    logs = sorted((ROOT / "tests/data/evallogs/lm-eval").glob("output__*winogrande*.jsonl"))
    done = run(*logs, "--better", "lower")
    assert done.returncode == 2 and "--better says which scores are better" in done.stderr


def test_one_log_alone_is_refused():
    (log,) = (ROOT / "tests/data/evallogs/inspect").glob("*.eval")
    done = run(log)
    assert done.returncode == 2 and "compare takes two or more systems' logs" in done.stderr


def test_pass_fail_long_file_with_repeats_is_still_refused(tmp_path):
    path = tmp_path / "pf.csv"
    rows = ["id,epoch,model,ok"] + [
        f"q{q},{e},{m},{(q + e + i) % 2}"
        for q in range(6)
        for e in (1, 2)
        for i, m in enumerate("abc")
    ]
    path.write_text("\n".join(rows) + "\n")
    done = run(path, "--system", "model", "--outcome", "ok", "--id", "id", "--repeat", "epoch")
    assert done.returncode == 2 and "has several repeats" in done.stderr


def test_one_file_per_system_of_scores_goes_to_friedman(tmp_path):
    rng = np.random.default_rng(12)
    table = np.round(rng.normal(size=(15, 3)) + [0.0, 0.4, 0.8], 2)
    paths = []
    for j, name in enumerate(("p", "q", "r")):
        path = tmp_path / f"{name}.csv"
        lines = ["id,score"] + [f"c{i},{table[i, j]}" for i in range(15)]
        if name == "q":
            lines.append("c3,0.5")  # c3 twice in q's file: both rows left out, c3 then too
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    done = run(*paths, "--id", "id", "--outcome", "score", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    kept = np.delete(table, 3, axis=0)
    reference = stats.friedmanchisquare(*kept.T)
    assert payload["n"] == 14 and payload["names"] == ["p", "q", "r"]
    assert payload["statistic"] == pytest.approx(reference.statistic, rel=1e-9)
    excluded = payload["input"]["excluded"]
    assert excluded["rows_with_a_repeated_id_in_their_file"] == 2
    assert excluded["missing_value"] == 1 and payload["input"]["ids_joined"] == 15


def test_one_file_per_system_whose_score_column_reads_lower_is_better_needs_better(tmp_path):
    """Files named after systems, their column ``wer``: ranks would take higher as better, so
    the direction is asked (the column's name, not only the systems', is read)."""
    import subprocess
    import sys

    paths = []
    for j, name in enumerate(["alpha", "beta", "gamma"]):
        path = tmp_path / f"{name}.csv"
        path.write_text(
            "id,wer\n" + "".join(f"q{i},{(i * 7 + j * 3) % 11 / 10}\n" for i in range(9))
        )
        paths.append(str(path))
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *paths],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "'wer' reads as a score where lower is better" in done.stderr
    assert "--better lower" in done.stderr
