"""The compare page and ``python -m calculator compare`` answer several systems' logs through one
function, :func:`calculator.compare.workflow.compare_log_systems` (issue #35's gap: the page's
glue called the library itself, so page and command line could drift), and per-case files of
pass/fail outcomes through :func:`~calculator.compare.workflow.load_case_systems` and
:func:`~calculator.compare.workflow.compare_case_systems` (the review's item 6: both surfaces
called the reader and ``SystemCases.compare`` themselves).

Two kinds of check: the surfaces' modules call the workflow and none of the analyses it
orchestrates (read by their syntax trees), and on one input the page (AppTest) shows the very
letters, groups and p-values that the command line prints (its text and JSON, run as a user
would). No figure is typed here: each side's is compared with the other's.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from apptest_pages import open_page

from calculator.compare.workflow import SystemsAsk
from ui import compare_words as words
from ui.compare_logs import compare_log_uploads, default_systems, log_systems
from ui.widgets.cases_files import StoredFile

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "data" / "evallogs"
PAGE = "app_pages/cases.py"

#: What the workflow orchestrates; a surface that calls one of these has its own path again.
ANALYSES = {
    "friedman_compare",
    "friedman_by_task",
    "compare_suite",
    "compare_systems",
    "load_log_suite",
    "load_log_scores",
    "load_systems",
}
SURFACES = [
    "ui/compare_logs.py",
    "ui/widgets/compare_ranks.py",
    "ui/widgets/compare.py",
    "calculator/cli/compare.py",
    "calculator/cli/compare_scores.py",
]


def called_names(path: str) -> set[str]:
    tree = ast.parse((ROOT / path).read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
        if isinstance(node, ast.ImportFrom):
            names.update(alias.name for alias in node.names)
    return names


def test_the_surfaces_call_the_workflow_and_none_of_its_steps():
    for path in SURFACES:
        names = called_names(path)
        assert not names & ANALYSES, (path, names & ANALYSES)
    for path in ("ui/compare_logs.py", "calculator/cli/compare.py"):
        assert "compare_log_systems" in called_names(path), path
    for path in ("ui/widgets/compare.py", "calculator/cli/compare.py"):
        assert {"load_case_systems", "compare_case_systems"} <= called_names(path), path
    # The page's files of scores: the workflow picks the reader, not the page.
    ranks = called_names("ui/widgets/compare_ranks.py")
    assert "compare_case_scores" in ranks
    assert not ranks & {"load_system_scores", "join_score_files", "read_long_file"}
    # The command line's files of scores: the same reader, picked by the workflow too.
    cli_scores = called_names("calculator/cli/compare_scores.py")
    assert "case_scores" in cli_scores
    assert not cli_scores & {"load_system_scores", "join_score_files"}


def run_cli(*argv: object) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *map(str, argv)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout


def page_with(paths: list[Path], *, metric: str | None = None):
    at = open_page(PAGE)
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    at.session_state["_compare_files"] = [StoredFile.of(p.name, p.read_bytes()) for p in paths]
    at.run(timeout=120)
    if metric is not None:
        at.text_input(key="compare_logs_metric").set_value(metric).run(timeout=120)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def page_words(at) -> str:  # noqa: ANN001 - AppTest
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    return "\n".join(parts).replace("\\", "")  # the page escapes Markdown; shown unescaped


def test_page_and_cli_give_the_same_letters_groups_and_p_on_three_models_logs():
    paths = sorted((LOGS / "lm-eval").glob("output__*__samples_winogrande_*.jsonl"))
    assert len(paths) == 3
    payload = json.loads(run_cli(*paths, "--json"))
    text = run_cli(*paths)
    at = page_with(paths)
    (table,) = at.table
    frame = table.value
    shown = {
        name.replace("\\", ""): letters
        for name, letters in zip(frame["system"], frame["letters"], strict=True)
    }
    assert shown == payload["groups"]["letters"]
    words_shown = page_words(at)
    # The groups' sentence, Cochran's Q with its p and the pairs' sentence, as printed.
    for start in ("Letters ", "Cochran's Q", "1 of the 3 pairs differs"):
        line = next(line for line in text.splitlines() if line.startswith(start))
        assert line in words_shown, start
    # The page's own function returns the command line's every figure (p, adjusted p, groups).
    files = tuple((p.name, p.read_bytes()) for p in paths)
    systems = default_systems([p.name for p in paths], log_systems(files))
    result = compare_log_uploads(files, systems, SystemsAsk())
    assert result.rates is not None
    assert json.loads(json.dumps(result.rates.to_dict())) == {
        key: value for key, value in payload.items() if key != "input"
    }


def test_page_and_cli_give_the_same_ranks_groups_and_p_on_graded_logs():
    folder = LOGS / "generated" / "inspect"
    paths = [folder / "mock-a-3epochs.eval", folder / "mock-b-3epochs.eval"]
    paths.append(folder / "mock-b-1epoch.json")
    text = run_cli(*paths, "--metric", "graded")
    at = page_with(paths, metric="graded")
    words_shown = page_words(at)
    lines = [line.strip() for line in text.splitlines()]
    friedman = next(line for line in lines if line.startswith("Friedman"))
    assert friedman in words_shown
    groups = next(line for line in lines if line.startswith(("Letter ", "Letters ")))
    assert groups in words_shown
    payload = json.loads(run_cli(*paths, "--metric", "graded", "--json"))
    files = tuple((p.name, p.read_bytes()) for p in paths)
    systems = default_systems([p.name for p in paths], log_systems(files))
    result = compare_log_uploads(files, systems, SystemsAsk(metric="graded"))
    assert result.ranks is not None
    expected = {key: value for key, value in payload.items() if key not in ("input", "analysed_as")}
    assert json.loads(json.dumps(result.ranks.to_dict())) == expected


def test_page_better_and_adjustment_on_graded_logs_answer_as_the_cli_flags():
    """ "Which scores are better" is ``--better``; Bonferroni's adjustment asked of scores
    compared by ranks is refused on both surfaces (their pairs take Holm only)."""
    folder = LOGS / "generated" / "inspect"
    paths = [folder / "mock-a-3epochs.eval", folder / "mock-b-3epochs.eval"]
    paths.append(folder / "mock-b-1epoch.json")
    at = page_with(paths, metric="graded")
    at.radio(key="compare_logs_better").set_value("lower").run(timeout=120)
    assert not at.exception and not at.error, [e.value for e in at.error]
    lower = json.loads(run_cli(*paths, "--metric", "graded", "--better", "lower", "--json"))
    higher = json.loads(run_cli(*paths, "--metric", "graded", "--json"))
    assert lower["average_ranks"] != higher["average_ranks"]
    (table,) = at.table
    ranks = [float(value.replace("\\", "")) for value in table.value["average rank"]]
    assert sorted(ranks) == sorted(round(r, 2) for r in lower["average_ranks"])
    at.radio(key="compare_adjust").set_value(at.radio(key="compare_adjust").options[1])
    at.run(timeout=120)
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("adjusted by Holm only" in e for e in errors), errors
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *map(str, paths), "--metric", "graded"]
        + ["--adjust", "bonferroni"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and "adjusted by Holm only" in done.stderr


def test_page_and_cli_give_the_same_q_groups_and_pairs_on_a_wide_pass_fail_file(tmp_path):
    rows = [(1, 0, 0), (1, 1, 0), (1, 0, 0), (1, 1, 1), (0, 0, 0), (1, 0, 1), (1, 1, 0)] * 4
    path = tmp_path / "wide.csv"
    lines = [f"c{i},{x},{y},{z}" for i, (x, y, z) in enumerate(rows)]
    path.write_text("\n".join(["id,x,y,z", *lines]) + "\n")
    payload = json.loads(run_cli(path, "--id", "id", "--systems", "x,y,z", "--json"))
    text = run_cli(path, "--id", "id", "--systems", "x,y,z")
    at = page_with([path])
    at.multiselect(key="compare_columns").set_value(["x", "y", "z"]).run(timeout=120)
    assert not at.exception and not at.error, [e.value for e in at.error]
    words_shown = page_words(at)
    for start in ("Cochran's Q", "Letters ", "Letter "):
        line = next((line for line in text.splitlines() if line.startswith(start)), None)
        if line is not None:
            assert line in words_shown, start
    (table,) = at.table
    shown = dict(zip(table.value["system"], table.value["letters"], strict=True))
    assert shown == payload["groups"]["letters"]
    # The workflow's two functions, as each surface calls them, return the CLI's every figure.
    from calculator.compare.workflow import compare_case_systems, load_case_systems

    cases = load_case_systems(str(path), id_column="id", systems=["x", "y", "z"])
    result = compare_case_systems(cases, SystemsAsk())
    assert json.loads(json.dumps(result.to_dict())) == {
        key: value for key, value in payload.items() if key != "input"
    }
