"""The compare page (three or more systems) on harness logs and on scores (AppTest), and the
critical-difference diagram's builder (issue #35; the suite's view of issue #32).

Expected figures come from the library on the same data (:func:`calculator.compare_systems`,
:func:`calculator.compare.friedman.friedman_compare`, each tested against published and
independent references in tests/core), or from the command line's JSON on the same files.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from apptest_pages import open_page
from shape_writers import compare_json as cli_json
from streamlit.testing.v1 import AppTest

from calculator.compare.friedman import friedman_compare
from ui import compare_words as words
from ui.compare_rank_charts import cd_diagram, cd_frames
from ui.widgets.cases_files import StoredFile

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "data" / "evallogs"
PAGE = "app_pages/cases.py"


def with_files(paths: list[Path], systems: list[str] | None = None) -> AppTest:
    at = open_page(PAGE)
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    at.session_state["_compare_files"] = [StoredFile.of(p.name, p.read_bytes()) for p in paths]
    at.run(timeout=120)
    if systems is not None:
        boxes = [box for box in at.text_input if box.key.startswith("compare_log_system_")]
        assert len(boxes) == len(paths)
        for box, name in zip(boxes, systems, strict=True):
            box.set_value(name)
        at.run(timeout=120)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def chart_data(at: AppTest) -> str:
    """Every chart's data on the page, as text (Streamlit sends it apart from the spec)."""
    import pyarrow as pa

    frames = [
        pa.ipc.open_stream(named.data.data).read_pandas()
        for chart in at.get("vega_lite_chart")
        for named in chart.proto.datasets
    ]
    return "\n".join(frame.to_csv() for frame in frames)


def letters_shown(at: AppTest) -> dict[str, str]:
    (table,) = at.table
    frame = table.value
    # The cells are Markdown with the names escaped; the page shows them unescaped.
    systems = [re.sub(r"\\(.)", r"\1", name) for name in frame["system"]]
    return dict(zip(systems, frame["letters"], strict=True))


def test_real_logs_of_three_models_show_the_cli_letters():
    paths = sorted((LOGS / "lm-eval").glob("output__*__samples_winogrande_*.jsonl"))
    at = with_files(paths)
    assert letters_shown(at) == cli_json(*paths)["groups"]["letters"]
    assert len(at.get("vega_lite_chart")) == 2  # the heatmap and the ranking with letters


def test_real_helm_logs_of_two_models_show_the_cli_letters():
    paths = sorted((LOGS / "helm").glob("bbq_*.json"))  # each run's stats and its run spec
    at = with_files(paths)
    stats = [path for path in paths if path.name.endswith("_per_instance_stats.json")]
    letters = cli_json(*stats)["groups"]["letters"]
    assert set(letters) == {"meta/llama-3-8b-chat", "openai/gpt-4o-2024-05-13"}  # the specs'
    assert letters_shown(at) == letters
    assert letters_shown(at) == cli_json(LOGS / "helm")["groups"]["letters"]  # the one folder


def test_a_suite_of_logs_shows_each_task_and_the_pooled_test():
    folder = LOGS / "generated" / "inspect"
    paths = sorted((folder / "evalset-a").glob("*.eval")) + sorted(
        (folder / "evalset-b").glob("*.eval")
    )
    at = with_files(paths, ["A", "A", "B", "B"])
    shown = "\n".join(t.value for t in at.text)
    payload = cli_json(folder / "evalset-a", folder / "evalset-b")
    for row in payload["suite"]["tasks"]:
        assert f"task {row['task']} ({row['n']} cases)" in shown
    assert "pooled    all 16 questions of the 2 tasks, stratified by task" in shown
    assert "shown for contrast, not the answer" in shown
    assert set(letters_shown(at)) == {"A", "B"}


def test_graded_logs_show_friedman_and_the_cd_diagram():
    folder = LOGS / "generated" / "inspect"
    paths = [folder / "mock-a-3epochs.eval", folder / "mock-b-3epochs.eval"]
    paths.append(folder / "mock-b-1epoch.json")
    at = open_page(PAGE)
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    at.session_state["_compare_files"] = [StoredFile.of(p.name, p.read_bytes()) for p in paths]
    at.run(timeout=120)
    at.text_input(key="compare_logs_metric").set_value("graded").run(timeout=120)
    boxes = [box for box in at.text_input if box.key.startswith("compare_log_system_")]
    for box, name in zip(boxes, ["a3", "b3", "b1"], strict=True):
        box.set_value(name)
    at.run(timeout=120)
    assert not at.exception and not at.error, [e.value for e in at.error]
    payload = cli_json(*paths, "--metric", "graded")  # the command line on the same logs
    assert at.text[0].value.startswith("3 systems (a3, b3, b1), 10 questions")
    renamed = dict(zip(payload["names"], ["a3", "b3", "b1"], strict=True))
    assert letters_shown(at) == {
        renamed[name]: letters for name, letters in payload["groups"]["letters"].items()
    }
    assert f"CD = {payload['critical_difference']:.2f}" in chart_data(at)


def test_long_file_of_scores_shows_friedman_letters_and_the_cd_diagram(tmp_path):
    rng = np.random.default_rng(35)
    lines = ["question,model,score"]
    table = np.round(rng.normal(size=(30, 4)) + [0.0, 0.2, 0.9, 1.0], 2)
    names = ["m1", "m2", "m3", "m4"]
    for q, row in enumerate(table):
        lines += [f"q{q},{name},{value}" for name, value in zip(names, row, strict=True)]
    path = tmp_path / "long_scores.csv"
    path.write_text("\n".join(lines) + "\n")
    at = open_page(PAGE)
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    at.session_state["_compare_files"] = [StoredFile.of(path.name, path.read_bytes())]
    at.run(timeout=120)
    at.radio(key="compare_layout").set_value("long").run(timeout=120)
    assert not at.exception, at.exception
    expected = friedman_compare(table, names)
    assert letters_shown(at) == expected.letter_display().letters
    assert f"CD = {expected.critical_difference:.2f}" in chart_data(at)
    shown = "\n".join(m.value for m in at.markdown).replace("\\", "")
    assert "Friedman's test of the systems' ranks" in shown


def test_cd_diagram_draws_a_bar_per_group_of_two_or_more():
    rng = np.random.default_rng(4)
    result = friedman_compare(rng.normal(size=(20, 5)) + np.linspace(0, 2, 5), list("ABCDE"))
    systems, bars, ruler = cd_frames(result)
    ranks = dict(zip(result.names, result.average_ranks, strict=True))
    groups = [c for c in result.cliques() if len(c) > 1]
    assert bars["group"].tolist() == [", ".join(c) for c in groups]
    assert bars["from"].tolist() == [ranks[c[0]] for c in groups]
    assert bars["to"].tolist() == [ranks[c[-1]] for c in groups]
    assert ruler["to"].iloc[0] - ruler["from"].iloc[0] == result.critical_difference
    assert systems["system"].tolist() == list(result.ranking)
    spec = cd_diagram(result).to_dict()
    assert len(spec["layer"]) == 6


def test_pair_table_gap_reads_a_minus_b_as_its_header_says(tmp_path):
    # The review's case: m1 scores lowest on every case (average rank 4.00, the worst); the
    # table's row "m1 − m2" must show m1's average rank minus m2's, a positive gap.
    rng = np.random.default_rng(4)
    table = np.round(
        rng.uniform(size=(12, 1)) + [0.0, 0.2, 0.4, 0.6] + rng.uniform(0, 0.1, (12, 4)), 3
    )
    names = ["m1", "m2", "m3", "m4"]
    path = tmp_path / "s4.csv"
    rows = [f"q{i},{','.join(map(str, row))}" for i, row in enumerate(table)]
    path.write_text("\n".join(["id,m1,m2,m3,m4", *rows]) + "\n")
    at = with_files([path])
    at.multiselect[0].set_value(names).run(timeout=120)
    assert not at.exception, at.exception
    expected = friedman_compare(table, names)
    frame = next(d.value for d in at.dataframe if "pair (A − B)" in d.value.columns)
    shown = dict(zip(frame["pair (A − B)"], frame["average rank gap (A − B)"], strict=True))
    ranks = dict(zip(names, expected.average_ranks, strict=True))
    assert ranks["m1"] == 4.0
    assert shown["m1 − m2"] == f"{ranks['m1'] - ranks['m2']:+.2f}" and shown["m1 − m2"][0] == "+"
    captions = "\n".join(c.value for c in at.caption).replace("\\", "")
    assert "Each pair A − B: A's average rank minus B's" in captions
