"""``compare`` on Inspect logs of three models (tests/data/evallogs/generated/inspect/models/,
made by Inspect itself with docs/evallog-recipes/make_inspect_models.py), the page drawing the
same groups (issue #35: the shared real Inspect log holds one model only).

Provenance of the expected figures: each sample's ``match`` value as Inspect's own reader
(``inspect_ai.log.read_eval_log``) read it, stored in models/reference.json; from those, each
pair's exact McNemar p is scipy's ``binomtest(b, b + c, 0.5)`` (two-sided), adjusted by Holm
written out here, and the groups follow by hand: separated pairs share no letter.
"""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path

from scipy.stats import binomtest
from shape_writers import compare_json as cli

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "tests" / "data" / "evallogs" / "generated" / "inspect" / "models"
LOGS = sorted(MODELS.glob("*.eval"))


def reference() -> dict[str, dict[str, bool]]:
    stored = json.loads((MODELS / "reference.json").read_text())
    return {
        entry["model"]: {case: value == "C" for case, value in entry["samples"].items()}
        for entry in stored.values()
    }


def expected_adjusted() -> dict[frozenset, float]:
    passed = reference()
    raw = {}
    for a, b in combinations(sorted(passed), 2):
        only_a = sum(passed[a][q] and not passed[b][q] for q in passed[a])
        only_b = sum(passed[b][q] and not passed[a][q] for q in passed[a])
        raw[frozenset((a, b))] = binomtest(only_a, only_a + only_b, 0.5).pvalue
    ordered = sorted(raw, key=raw.get)
    adjusted, running = {}, 0.0
    for i, pair in enumerate(ordered):  # Holm: step-down, monotone, capped at 1
        running = max(running, min(1.0, (len(ordered) - i) * raw[pair]))
        adjusted[pair] = running
    return adjusted


def test_three_models_logs_are_three_systems_named_by_their_model():
    payload = cli(*LOGS)
    assert set(payload["input"]["systems"]) == set(reference()) and len(LOGS) == 3
    passes = {name: sum(answers.values()) for name, answers in reference().items()}
    shown = {system["name"]: system["passes"] for system in payload["systems"]}
    assert shown == passes


def test_groups_and_adjusted_p_match_scipy_on_inspects_own_reading():
    payload = cli(*LOGS)
    adjusted = expected_adjusted()
    for pair in payload["pairs"]:
        key = frozenset((pair["a"], pair["b"]))
        assert abs(pair["adjusted_pvalue"] - adjusted[key]) < 1e-12
    letters = payload["groups"]["letters"]
    for key, p in adjusted.items():
        a, b = sorted(key)
        shares = bool(set(letters[a]) & set(letters[b]))
        assert shares == (p > 0.05), (a, b, p, letters)
    # Every pair is separated here, so each model is its own group, in rank order.
    passes = {name: sum(answers.values()) for name, answers in reference().items()}
    ranked = sorted(passes, key=passes.get, reverse=True)
    assert [letters[name] for name in ranked] == ["a", "b", "c"]


def test_the_page_draws_the_same_groups():
    from apptest_pages import open_page

    from ui import compare_words as words
    from ui.widgets.cases_files import StoredFile

    at = open_page("app_pages/cases.py")
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    at.session_state["_compare_files"] = [StoredFile.of(p.name, p.read_bytes()) for p in LOGS]
    at.run(timeout=120)
    assert not at.exception and not at.error, [e.value for e in at.error]
    (table,) = at.table
    frame = table.value
    shown = {
        name.replace("\\", ""): letters
        for name, letters in zip(frame["system"], frame["letters"], strict=True)
    }
    assert shown == cli(*LOGS)["groups"]["letters"]
    assert len(at.get("vega_lite_chart")) == 2  # the heatmap and the ranking with letters


def test_pass_fail_logs_with_repeats_are_refused_by_name_with_what_to_do():
    """Cochran's Q and the pairs count every sample as a case; epochs of a question are not
    independent, so ``compare`` refuses them, naming the file, the system and the metric, and
    says what answers instead (``cases`` by question, or a graded metric by ranks)."""
    folder = MODELS.parent
    logs = [folder / "mock-a-3epochs.eval", folder / "mock-b-3epochs.eval"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "calculator",
            "compare",
            *map(str, logs),
            folder / "mock-b-1epoch.json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: mock-a-3epochs.eval: ")
    assert "repeated samples of each question" in done.stderr and "'match'" in done.stderr
    assert "`cases`" in done.stderr and "graded metric" in done.stderr
    graded = cli(*logs, folder / "mock-b-1epoch.json", "--metric", "graded")
    assert graded["analysed_as"] == "scores"  # the graded metric named: compared by ranks
