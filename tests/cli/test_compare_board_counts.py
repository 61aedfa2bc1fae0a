"""``python -m calculator compare ... --json`` on real and harness-made logs of several models,
and on a long file of scores: the groups (letters), the adjacent pairs separated, Friedman's
statistic and the critical-difference groups, each checked against a recount made here from
the files with ``json``/``csv``, ``math`` and scipy alone. This module does not import the
product, which it runs in a subprocess (issue #35).

The recount, independent of the product's code:
- pass/fail: each model's per-question outcome read from its own file (lm-eval's
  ``exact_match`` under its one filter, paired by ``doc_id``; HELM's test-split ``exact_match``
  stat without perturbation, paired by ``(instance_id, train_trial_index)``); each pair's exact
  McNemar p, 2 P[Bin(m, 1/2) <= min(b, c)] capped at 1 (METHODS.md), from ``math.comb``;
  Holm's step-down adjustment written out; the groups as the maximal sets of systems no two of
  which are separated, found by enumerating every subset; the adjacent pairs in the order of
  the pass rates.
- scores: each question's mean over its epochs of Inspect's own ``value_to_float`` reading
  (``generated/inspect/reference_scores.json``, written by ``inspect_ai.log.read_eval_log``,
  inspect-ai 0.3.285), or a long file's scores read with ``csv``; Friedman's chi-square from
  ``scipy.stats.friedmanchisquare`` (scipy 1.17.1); Nemenyi's CD from Demšar (2006), Table 5(a)
  (q_0.05 = 2.343 for 3 systems, 2.569 for 4): CD = q sqrt(k (k + 1) / (6 n)); the CD groups as
  the maximal subsets whose average ranks span at most the CD, by enumeration.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "data" / "evallogs"
WINOGRANDE = sorted((LOGS / "lm-eval").glob("output__*__samples_winogrande_*.jsonl"))
HELM = sorted((LOGS / "helm").glob("bbq_*_per_instance_stats.json"))
INSPECT = LOGS / "generated" / "inspect"
Q_005 = {3: 2.343, 4: 2.569}  # Demšar (2006), Table 5(a)


def compare(*argv: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *map(str, argv), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def compare_text(*argv: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *map(str, argv)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def exact_p(b: int, c: int) -> float:
    m = b + c
    return min(1.0, 2 * sum(math.comb(m, i) for i in range(min(b, c) + 1)) / 2**m) if m else 1.0


def holm(pvalues: list[float]) -> list[float]:
    order = sorted(range(len(pvalues)), key=pvalues.__getitem__)
    adjusted, running = [0.0] * len(pvalues), 0.0
    for step, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - step) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def maximal_groups(names: list[str], together) -> list[set[str]]:  # noqa: ANN001
    """Every maximal subset whose members are pairwise `together`, by enumeration."""
    kept = [
        set(subset)
        for size in range(1, len(names) + 1)
        for subset in itertools.combinations(names, size)
        if all(together(x, y) for x, y in itertools.combinations(subset, 2))
    ]
    return [s for s in kept if not any(s < other for other in kept)]


def recount_pass_fail(outcomes: dict[str, dict], alpha: float = 0.05) -> dict:
    names = list(outcomes)
    shared = set.intersection(*(set(v) for v in outcomes.values()))
    rate = {n: sum(outcomes[n][q] for q in shared) / len(shared) for n in names}
    pairs = list(itertools.combinations(names, 2))
    raw = []
    for x, y in pairs:
        b = sum(outcomes[x][q] == 1 and outcomes[y][q] == 0 for q in shared)
        c = sum(outcomes[x][q] == 0 and outcomes[y][q] == 1 for q in shared)
        raw.append(exact_p(b, c))
    separated = {frozenset(p) for p, q in zip(pairs, holm(raw), strict=True) if q <= alpha}
    ranking = sorted(names, key=lambda n: -rate[n])
    assert len(set(rate.values())) == len(names)  # no tie: the order is the rates'
    adjacent = sum(frozenset(p) in separated for p in itertools.pairwise(ranking))
    groups = maximal_groups(names, lambda x, y: frozenset((x, y)) not in separated)
    return {"n": len(shared), "ranking": ranking, "adjacent": adjacent, "groups": groups}


def lm_eval_outcomes(path: Path) -> dict[int, int]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert len({row["filter"] for row in rows}) == 1
    return {row["doc_id"]: int(row["exact_match"]) for row in rows}


def helm_outcomes(path: Path) -> dict[tuple, int]:
    found = {}
    for instance in json.loads(path.read_text()):
        for stat in instance["stats"]:
            name = stat["name"]
            wanted = name["name"] == "exact_match" and name.get("split") == "test"
            if wanted and "perturbation" not in name:
                found[instance["instance_id"], instance["train_trial_index"]] = int(stat["mean"])
    return found


def system_name(path: Path) -> str:
    """lm-eval: the file's name before its samples tail; HELM: the model of the run spec that
    shares the stats file's prefix (``bbq_<model>_run_spec.json``), read with json here."""
    spec = path.with_name(path.name.replace("_per_instance_stats.json", "_run_spec.json"))
    if spec != path and spec.is_file():
        return json.loads(spec.read_text())["adapter_spec"]["model"]
    return path.stem.split("__samples_")[0]


@pytest.mark.parametrize(
    ("paths", "reader"),
    [(WINOGRANDE, lm_eval_outcomes), (HELM, helm_outcomes)],
    ids=["lm-eval winogrande, 3 models", "HELM BBQ, 2 models"],
)
def test_groups_and_adjacent_count_on_real_logs(paths, reader):
    expected = recount_pass_fail({system_name(p): reader(p) for p in paths})
    payload = compare(*paths)
    assert payload["n"] == expected["n"]
    assert [row["name"] for row in payload["ranking"]] == expected["ranking"]
    groups = payload["groups"]
    assert groups["complete"] is True
    assert groups["adjacent_separated"] == expected["adjacent"]
    got = [set(group["systems"]) for group in groups["groups"]]
    assert sorted(map(sorted, got)) == sorted(map(sorted, expected["groups"]))
    for name, letters in groups["letters"].items():  # a letter per group holding the system
        held = [g["letter"] for g in groups["groups"] if name in g["systems"]]
        assert letters == "".join(held)


def test_winogrande_text_prints_the_letters_and_the_count():
    expected = recount_pass_fail({system_name(p): lm_eval_outcomes(p) for p in WINOGRANDE})
    text = compare_text(*WINOGRANDE)
    assert f"{expected['adjacent']} of the 2 neighbouring pairs in rank order" in text
    assert "Letters a to b mark the groups" in text  # two groups, as recounted
    assert len(expected["groups"]) == 2


def average_ranks(table: np.ndarray) -> np.ndarray:
    return stats.rankdata(-table, axis=1).mean(axis=0)


def cd_groups(names: list[str], ranks: np.ndarray, cd: float) -> list[set[str]]:
    rank = dict(zip(names, ranks, strict=True))
    return maximal_groups(names, lambda x, y: abs(rank[x] - rank[y]) <= cd)


def check_friedman(payload: dict, names: list[str], table: np.ndarray) -> None:
    n, k = table.shape
    assert payload["analysed_as"] == "scores" and payload["n"] == n
    reference = stats.friedmanchisquare(*table.T)
    assert payload["statistic"] == pytest.approx(reference.statistic, rel=1e-9)
    ranks = average_ranks(table)
    got = dict(zip(payload["names"], payload["average_ranks"], strict=True))
    assert [got[name] for name in names] == pytest.approx(list(ranks), abs=1e-12)
    cd = Q_005[k] * math.sqrt(k * (k + 1) / (6 * n))
    assert payload["critical_difference"] == pytest.approx(cd, abs=5e-4)  # q to 3 decimals
    expected = cd_groups(names, ranks, payload["critical_difference"])
    assert sorted(map(sorted, map(set, payload["cliques"]))) == sorted(map(sorted, expected))


def test_graded_inspect_logs_of_three_systems_go_to_friedman():
    reference = json.loads((INSPECT / "reference_scores.json").read_text())
    files = ["mock-a-3epochs.eval", "mock-b-3epochs.eval", "mock-b-1epoch.json"]
    means = []
    for name in files:
        by_question = defaultdict(list)
        for sample in reference[name]:
            by_question[sample["id"]].append(sample["as_float"]["graded"])
        means.append({q: sum(v) / len(v) for q, v in by_question.items()})
    questions = sorted(set.intersection(*(set(m) for m in means)))
    table = np.array([[m[q] for m in means] for q in questions])
    payload = compare(*(INSPECT / f for f in files), "--metric", "graded")
    names = [Path(f).stem for f in files]
    assert payload["names"] == names
    assert payload["input"]["most_repeats"] == 3
    check_friedman(payload, names, table)


def test_long_file_of_scores_goes_to_friedman(tmp_path):
    rng = np.random.default_rng(35)
    path = tmp_path / "long.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "model", "score"])
        for q in range(40):
            for model, shift in (("m1", 0.0), ("m2", 0.4), ("m3", 0.5), ("m4", 1.2)):
                writer.writerow([f"q{q}", model, round(float(rng.normal(shift, 1)), 1)])
    scores: dict[str, dict[str, float]] = defaultdict(dict)
    with path.open() as handle:
        for row in csv.DictReader(handle):
            scores[row["model"]][row["question"]] = float(row["score"])
    names = ["m1", "m2", "m3", "m4"]
    table = np.array([[scores[m][f"q{q}"] for m in names] for q in range(40)])
    payload = compare(path, "--system", "model", "--outcome", "score", "--id", "question")
    check_friedman(payload, names, table)
    text = compare_text(path, "--system", "model", "--outcome", "score", "--id", "question")
    assert (
        f"Nemenyi's critical difference at α = 0.05: {payload['critical_difference']:.2f}" in text
    )
    assert "Critical-difference groups" in text or "stands apart" in text
