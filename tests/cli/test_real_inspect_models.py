"""``compare`` on real Inspect logs of several models (issue #35): five models on the same 100
questions of Inspect's ``popularity`` example task, as Inspect wrote them during real runs
(tests/data/evallogs/real-inspect-models/, see its SOURCES.md: UKGovernmentBEIS/inspect_ai,
MIT). Until these, groups on Inspect logs were shown only on mock-model logs.

Provenance of the expected figures: every number is recounted here from the raw ``.eval``
files with ``zipfile`` and ``json`` alone (not the product's readers): each sample's
``scores["match"]["value"]`` ("C" passes, "I" fails), keyed by (sample id, epoch), the model
from ``header.json``'s ``eval.model``. From that recount:

- Cochran's Q and its chi-square p: statsmodels 0.15.0,
  ``statsmodels.stats.contingency_tables.cochrans_q(x)`` (its ``.statistic``, ``.pvalue``) on the
  cases x systems 0/1 matrix (five models: Q = 32.00 on 4 df; the eval-set's three: 16.78 on 2);
- each pair's exact McNemar p: scipy 1.17.1 ``scipy.stats.binomtest(b, b + c, 0.5).pvalue``
  (two-sided), with b and c the two discordant counts; adjusted over all pairs by
  ``statsmodels.stats.multitest.multipletests(p, alpha=0.05, method="holm")``;
- each rate's 95% Wilson interval: ``statsmodels.stats.proportion.proportion_confint(k, n,
  alpha=0.05, method="wilson")``;
- the letters, by hand from the separated pairs the recount finds (five models: gemini-2.5-pro
  and gemini-2.5-flash-lite each differ from gpt-5, and flash-lite from claude-sonnet-4; the
  rest are not separated): in rank order flash-lite "a", pro "ab", flash "abc", claude "bc",
  gpt-5 "c"; and for the eval-set's three: pro "a", claude "b", gpt-5 "b". The tests also check
  the defining property on every pair: two systems share a letter exactly when the recount does
  not separate them.

A pass here is Inspect's ``match`` scorer finding the answer the dataset lists as
``answer_matching_behavior``: the rates say how often a model gave that answer, not how good
it is.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binomtest
from shape_writers import compare_json as cli
from shape_writers import inspect_log
from statsmodels.stats.contingency_tables import cochrans_q
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "data" / "evallogs" / "real-inspect-models"
EVAL_SET = sorted((REAL / "eval-set").glob("*.eval"))
FIVE = EVAL_SET + sorted((REAL / "not-set").glob("*.eval"))

PRO, FLASH, LITE = (
    "google/gemini-2.5-pro",
    "google/gemini-2.5-flash",
    "google/gemini-2.5-flash-lite",
)
GPT5, CLAUDE = "openai/gpt-5", "anthropic/claude-sonnet-4-20250514"
# By hand from the separated pairs (see the module's docstring), in rank order.
LETTERS = {
    "five models": {LITE: "a", PRO: "ab", FLASH: "abc", CLAUDE: "bc", GPT5: "c"},
    "eval-set, three models": {PRO: "a", CLAUDE: "b", GPT5: "b"},
}
SETS = {"five models": FIVE, "eval-set, three models": EVAL_SET}


def recount(paths: list[Path]) -> dict[str, dict[tuple[object, int], bool]]:
    """model -> {(sample id, epoch): passed}, from the zip members alone."""
    found = {}
    for path in paths:
        with zipfile.ZipFile(path) as archive:
            model = json.loads(archive.read("header.json"))["eval"]["model"]
            samples = [n for n in archive.namelist() if n.startswith("samples/")]
            answers = {}
            for name in samples:
                sample = json.loads(archive.read(name))
                value = sample["scores"]["match"]["value"]
                assert value in ("C", "I"), (path.name, name, value)
                answers[(sample["id"], sample["epoch"])] = value == "C"
        assert model not in found, model
        found[model] = answers
    return found


def matrix(passed: dict[str, dict]) -> tuple[list[str], np.ndarray]:
    models = sorted(passed)
    cases = sorted(passed[models[0]], key=str)
    assert all(set(passed[m]) == set(cases) for m in models)  # every model, every question
    return models, np.array([[passed[m][case] for m in models] for case in cases], dtype=int)


def separations(passed: dict[str, dict]) -> dict[frozenset, tuple[int, int, float]]:
    """Each pair -> (only the first passes, only the second passes, Holm-adjusted p)."""
    models, x = matrix(passed)
    counts, raw = {}, []
    for i, j in combinations(range(len(models)), 2):
        b = int(np.sum((x[:, i] == 1) & (x[:, j] == 0)))
        c = int(np.sum((x[:, i] == 0) & (x[:, j] == 1)))
        counts[(models[i], models[j])] = (b, c)
        raw.append(binomtest(b, b + c, 0.5).pvalue)
    adjusted = multipletests(raw, alpha=0.05, method="holm")[1]
    return {
        frozenset(pair): (*counts[pair], float(p)) for pair, p in zip(counts, adjusted, strict=True)
    }


@pytest.mark.parametrize("name", SETS)
def test_systems_are_the_models_with_the_recounted_passes_and_wilson_intervals(name):
    passed = recount(SETS[name])
    payload = cli(*SETS[name])
    assert set(payload["input"]["systems"]) == set(passed) and len(passed) == len(SETS[name])
    assert payload["n"] == 100
    for system in payload["systems"]:
        k = sum(passed[system["name"]].values())
        assert (system["passes"], system["n"]) == (k, 100)
        low, high = proportion_confint(k, 100, alpha=0.05, method="wilson")
        assert abs(system["low"] - low) < 1e-9 and abs(system["high"] - high) < 1e-9


@pytest.mark.parametrize("name", SETS)
def test_cochrans_q_matches_statsmodels_on_the_recount(name):
    _, x = matrix(recount(SETS[name]))
    expected = cochrans_q(x)
    shown = cli(*SETS[name])["cochran"]
    assert abs(shown["statistic"] - expected.statistic) < 1e-9
    assert shown["df"] == expected.df == x.shape[1] - 1
    assert abs(shown["pvalue"] - expected.pvalue) < 1e-12


@pytest.mark.parametrize("name", SETS)
def test_pairs_and_letters_match_the_recount(name):
    passed = recount(SETS[name])
    expected = separations(passed)
    payload = cli(*SETS[name])
    assert len(payload["pairs"]) == len(expected)
    for pair in payload["pairs"]:
        b, c, adjusted = expected[frozenset((pair["a"], pair["b"]))]
        if sorted((pair["a"], pair["b"])) != [pair["a"], pair["b"]]:
            b, c = c, b  # the recount counts in sorted order
        assert (pair["b_count"], pair["c_count"]) == (b, c)
        assert abs(pair["adjusted_pvalue"] - adjusted) < 1e-12
        assert pair["reject"] == (adjusted <= 0.05)
    letters = payload["groups"]["letters"]
    assert letters == LETTERS[name]
    for key, (_, _, adjusted) in expected.items():
        a, b = sorted(key)
        assert bool(set(letters[a]) & set(letters[b])) == (adjusted > 0.05), (a, b, adjusted)
    ranked = sorted(passed, key=lambda m: sum(passed[m].values()), reverse=True)
    assert [entry["name"] for entry in payload["ranking"]] == ranked
    adjacent = sum(
        expected[frozenset(pair)][2] <= 0.05 for pair in zip(ranked, ranked[1:], strict=False)
    )
    assert payload["groups"]["adjacent_separated"] == adjacent


def test_the_text_prints_each_models_letters_in_rank_order():
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *map(str, FIVE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = re.findall(r"^ +(\d)\. (\S+) +([a-e]+) +(\d+\.\d)% ", done.stdout, flags=re.M)
    passed = recount(FIVE)
    ranked = sorted(passed, key=lambda m: sum(passed[m].values()), reverse=True)
    assert [(int(place), model) for place, model, _, _ in rows] == list(enumerate(ranked, start=1))
    assert {model: letters for _, model, letters, _ in rows} == LETTERS["five models"]
    assert [float(rate) for *_, rate in rows] == [
        float(sum(passed[m].values())) for m in ranked
    ]  # 100 questions: the percentage is the count
    assert "0 of the 4 neighbouring pairs in rank order are separated" in done.stdout


def test_the_eval_set_folder_given_whole_is_its_three_models():
    """The folder as Inspect wrote it (logs.json, eval-set.json beside the logs): read through
    its manifest, the same three systems and groups as its three logs given one by one."""
    folder = cli(REAL / "eval-set")
    files = cli(*EVAL_SET)
    assert (
        set(folder["input"]["systems"])
        == set(files["input"]["systems"])
        == set(LETTERS["eval-set, three models"])
    )
    assert folder["groups"] == files["groups"]
    assert folder["cochran"]["statistic"] == files["cochran"]["statistic"]


def test_each_note_says_whose_log_it_is_of(tmp_path):
    # The eval-set folder's note ("logs.json read") came once per model it holds, three
    # identical lines; merging identical lines would in turn undercount logs that each leave
    # out the same number of samples. Each note now says whose it is.
    document = cli(REAL / "eval-set")
    notes, systems = document["input"]["notes"], document["input"]["systems"]
    assert sorted(note.split(": ", 1)[0] for note in notes) == sorted(systems)
    values = {(f"q{i}", 1): i % 2 for i in range(20)}
    for name in ("a", "b", "c"):
        log = json.loads(inspect_log(values, f"model/{name}"))
        for sample in log["samples"][:3]:  # three samples left unscored in each log
            sample["scores"] = {}
        (tmp_path / f"{name}.json").write_text(json.dumps(log))
    notes = cli(*sorted(tmp_path.glob("*.json")))["input"]["notes"]
    unscored = [note for note in notes if "without a score" in note]
    assert [note.split(": ", 1)[0] for note in unscored] == ["model/a", "model/b", "model/c"]
