"""One ``cases`` command on a long file of 198 GPQA-like questions x 5 epochs x 2 models (Inspect's
``samples_df`` shape) gives the by-question answer; its counts are checked against a recount made
here with the standard library only: this module does not import the product, which it runs as
``python -m calculator`` in a subprocess.

The recount: the discordant counts pair each (question, epoch) of one model with the same
(question, epoch) of the other; a question's lean is its epochs passed only by the first model
minus those passed only by the second; the exact two-sided sign-flip p of the leans is the share
of the 2^198 sign patterns whose sum is at least as far from 0 as the observed one, counted
exactly by convolving each question's two signs.
"""

from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS, EPOCHS = 198, 5
MODELS = ("openai/gpt-4o", "anthropic/claude-3-5-sonnet")


def samples(seed: int = 20261206) -> list[dict[str, object]]:
    """The rows of samples_df: id, epoch, model, score_choice (Inspect's grades C and I)."""
    rng = random.Random(seed)
    rows = []
    for question in range(1, QUESTIONS + 1):
        ability = rng.random()
        rates = (ability, min(1.0, max(0.0, ability + rng.uniform(-0.3, 0.15))))
        for epoch in range(1, EPOCHS + 1):
            for model, rate in zip(MODELS, rates, strict=True):
                grade = "C" if rng.random() < rate else "I"
                row = {"id": f"rec{question:03d}", "epoch": epoch, "model": model}
                rows.append({**row, "score_choice": grade})
    rng.shuffle(rows)  # a file's rows in no particular order
    return rows


def recount(rows: list[dict[str, object]]) -> dict[str, object]:
    """The table, the leans and the exact sign-flip p, from the rows alone."""
    passed = {(r["model"], r["id"], int(r["epoch"])): r["score_choice"] == "C" for r in rows}
    table = Counter()
    leans = Counter()
    for question in {r["id"] for r in rows}:
        for epoch in range(1, EPOCHS + 1):
            a, b = (passed[(m, question, epoch)] for m in MODELS)
            table["abcd"[(not a) * 2 + (not b)]] += 1
            leans[question] += int(a and not b) - int(b and not a)
    sums = Counter({0: 1})
    for lean in leans.values():
        step = Counter()
        for total, ways in sums.items():
            step[total + lean] += ways
            step[total - lean] += ways
        sums = step
    observed = abs(sum(leans.values()))
    extreme = sum(ways for total, ways in sums.items() if abs(total) >= observed)
    share_a = sum(passed[(MODELS[0], q, e)] for q in leans for e in range(1, EPOCHS + 1))
    share_b = sum(passed[(MODELS[1], q, e)] for q in leans for e in range(1, EPOCHS + 1))
    return {
        "table": dict(table),
        "leans": leans,
        "pvalue": float(Fraction(extreme, 2 ** len(leans))),
        "mean_difference": (share_a - share_b) / (len(leans) * EPOCHS),
    }


def write(rows: list[dict[str, object]], path: Path) -> Path:
    if path.suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    else:
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def cases(*argv: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "calculator", "cases", *map(str, argv)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def rows() -> list[dict[str, object]]:
    return samples()


@pytest.fixture(scope="module")
def expected(rows) -> dict[str, object]:
    return recount(rows)


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_one_command_gives_the_by_question_answer_with_the_recounted_figures(
    tmp_path, rows, expected, suffix
):
    path = write(rows, tmp_path / f"gpqa{suffix}")
    done = cases(path, "--system", "model", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    t = expected["table"]
    # Every JSON table is written alike (PairedTable.to_dict): its cells, n and discordant.
    discordant = t["b"] + t["c"]
    assert payload["table"] == {**t, "n": QUESTIONS * EPOCHS, "discordant": discordant}
    assert payload["input"]["names"] == list(MODELS)
    assert payload["input"]["samples"]["given"] == {"A": 990, "B": 990}
    assert payload["input"]["samples"]["used"] == {"A": 990, "B": 990}
    (task,) = payload["tasks"]
    assert task["repeats"] is True
    assert task["clustered_by_question"]["clusters"] == QUESTIONS
    flip = task["sign_flip_by_question"]
    leans = expected["leans"]
    assert flip["units"] == QUESTIONS
    assert flip["nonzero_units"] == sum(1 for lean in leans.values() if lean)
    assert flip["statistic"] == pytest.approx(sum(leans.values()) / QUESTIONS, rel=1e-12)
    assert flip["pvalue"] == pytest.approx(expected["pvalue"], rel=1e-9)
    shares = task["pass_share_sign_flip"]
    assert shares["questions"] == QUESTIONS
    assert shares["mean_difference"] == pytest.approx(expected["mean_difference"], rel=1e-12)
    # The answer counts the questions as clusters, held at the exact sign-flip test's p.
    decision = payload["decision"]
    assert decision["effective_clusters"] == QUESTIONS
    assert decision["pvalue"] == pytest.approx(expected["pvalue"], rel=1e-9)
    assert decision["reject"] is (expected["pvalue"] <= 0.05)


def test_the_text_prints_the_recounted_counts_and_states_every_guessed_column(
    tmp_path, rows, expected
):
    path = write(rows, tmp_path / "gpqa.csv")
    done = cases(path, "--system", "model")
    assert done.returncode == 0, done.stderr
    t = expected["table"]
    a, b = MODELS
    counts = f"both pass {t['a']}, only {a} {t['b']}, only {b} {t['c']}, both fail {t['d']}"
    assert f"task gpqa: {counts}" in done.stdout
    assert f"pooled    1 task: {counts}" in done.stdout
    assert f"by question ({QUESTIONS} questions, their repeats paired)" in done.stdout
    points = 100 * expected["mean_difference"]
    assert f"mean {points:+.1f} points over {QUESTIONS} questions" in done.stdout
    for column, option in (("id", "--id"), ("epoch", "--repeat"), ("score_choice", "--outcome")):
        assert f"column '{column}' read as" in done.stdout
        assert f"name another with {option}" in done.stdout
    assert "Inspect's grades" in done.stdout
