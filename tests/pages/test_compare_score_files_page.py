"""The compare page on one file of scores per system, compared by ranks, and its choice of which
scores are better (the command line's ``--better``), AppTest (issue #35).

Expected letters come from the command line's JSON on the same files, run as a user would; the
refusals are those of :mod:`calculator.report.compare_refusals`, shown by the page's words.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from apptest_pages import open_page
from shape_writers import compare_json as cli_json

from ui import compare_words as words
from ui.widgets.cases_files import StoredFile

ROOT = Path(__file__).resolve().parents[2]
PAGE = "app_pages/cases.py"


def score_files(tmp_path: Path, column: str = "score") -> list[Path]:
    rng = np.random.default_rng(2035)
    table = np.round(rng.normal(size=(25, 3)) + [0.0, 0.6, 1.4], 3)
    paths = []
    for j, name in enumerate(["alpha", "beta", "gamma"]):
        path = tmp_path / f"{name}.csv"
        rows = [f"id,{column}"] + [f"q{i},{value}" for i, value in enumerate(table[:, j])]
        path.write_text("\n".join(rows) + "\n")
        paths.append(path)
    return paths


def page(paths: list[Path], better: str | None = None):
    at = open_page(PAGE)
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    at.session_state["_compare_files"] = [StoredFile.of(p.name, p.read_bytes()) for p in paths]
    at.run(timeout=120)
    if better is not None:
        at.radio(key="compare_better").set_value(better).run(timeout=120)
    assert not at.exception, at.exception
    return at


def letters_shown(at) -> dict[str, str]:  # noqa: ANN001 - AppTest
    (table,) = at.table
    frame = table.value
    systems = [re.sub(r"\\(.)", r"\1", name) for name in frame["system"]]
    return dict(zip(systems, frame["letters"], strict=True))


def test_one_file_of_scores_per_system_is_ranked_as_the_cli_ranks_it(tmp_path):
    paths = score_files(tmp_path)
    at = page(paths)
    assert not at.error, [e.value for e in at.error]
    payload = cli_json(*paths)
    assert payload["analysed_as"] == "scores"
    assert letters_shown(at) == payload["groups"]["letters"]
    shown = "\n".join(m.value for m in at.markdown).replace("\\", "")
    assert "Friedman's test of the systems' ranks" in shown


def test_lower_is_better_on_the_page_is_the_clis_better_lower(tmp_path):
    paths = score_files(tmp_path)
    at = page(paths, better="lower")
    assert not at.error, [e.value for e in at.error]
    lower = cli_json(*paths, "--better", "lower")
    higher = cli_json(*paths)
    assert lower["ranking"] != higher["ranking"]  # the choice changes the answer
    (table,) = at.table
    systems = [re.sub(r"\\(.)", r"\1", name) for name in table.value["system"]]
    assert systems == lower["ranking"]
    assert letters_shown(at) == lower["groups"]["letters"]


def test_a_lower_is_better_name_is_refused_until_the_page_is_told(tmp_path):
    paths = score_files(tmp_path, column="wer")
    at = page(paths)
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("'wer' reads as a score where lower is better" in e for e in errors), errors
    at.radio(key="compare_better").set_value("lower").run(timeout=120)
    assert not at.error, [e.value for e in at.error]
    assert letters_shown(at) == cli_json(*paths, "--better", "lower")["groups"]["letters"]


def test_better_asked_of_pass_fail_files_is_refused_by_name(tmp_path):
    paths = []
    for j, name in enumerate(["p", "q", "r"]):
        path = tmp_path / f"{name}.csv"
        path.write_text("id,passed\n" + "".join(f"c{i},{(i + j) % 2}\n" for i in range(12)))
        paths.append(path)
    at = page(paths, better="lower")
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("compared as pass/fail" in e and "Which scores are better" in e for e in errors)
