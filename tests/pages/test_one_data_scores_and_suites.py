"""One data set of scores, and one suite with repeats, through every shape and surface.

The companion of test_one_data_every_shape.py (pass/fail outcomes on one task). Here:

- 40 graded cases (scores in 0, 0.25, ..., 1) written as a per-case file, two per-case files
  joined on an id, a long file, lm-eval samples of a graded metric, an Inspect log with a
  numeric scorer and a HELM run with a graded stat; each asked every question and the release
  gate on the command line (JSON and text), and on the page (the per-case page's "Mean scores"
  section and its logs section).
- A suite of two tasks, 30 questions each, every question answered three times (epochs), as a
  long file with a task and a repeat column and as two Inspect logs per model; and the same
  suite without its repeats as a long file, lm-eval samples, Inspect logs and HELM runs.

Every path must give the same numbers and words (the scores section of the JSON whole, the
decision whole, the gate's verdict, the report) or the same refusal. The reference is the first
shape of each group; the statistics themselves are checked against references elsewhere
(tests/core/test_scores*.py, tests/core/test_clustered*.py, tests/core/test_stratified.py).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import shape_writers as writers
from apptest_pages import open_page

from ui.widgets import cases_files

_DRAW = random.Random(3)
_GRADES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: (A's score, B's score) per case.
SCORES = [(_DRAW.choice(_GRADES), _DRAW.choice(_GRADES)) for _ in range(40)]

QUESTIONS: dict[str, tuple[list[str], dict[str, str]]] = {
    "different": ([], {"question": "different"}),
    "better": (["--alternative", "greater"], {"question": "better"}),
    "worse": (["--alternative", "less"], {"question": "worse"}),
    "better by a margin": (
        ["--alternative", "greater", "--margin", "0.05"],
        {"question": "superior", "margin": "0.05"},
    ),
    "non-inferior": (["--margin", "0.05"], {"question": "non-inferior", "margin": "0.05"}),
    "equivalent": (
        ["--margin", "0.1", "--equivalence"],
        {"question": "equivalent", "margin": "0.1"},
    ),
    "gate": (["--fail-if-worse"], {}),
    "gate with a margin": (["--fail-if-worse", "--margin", "0.05"], {}),
}


# ---------------------------------------------------------------------------------------------
# Scores, each shape written from SCORES
# ---------------------------------------------------------------------------------------------
SCORE_LOGS = writers.log_shapes(SCORES, metric="f1", scorer="f1", stat="f1_score")
SCORE_SHAPES = writers.shapes(SCORES, SCORE_LOGS)
_per_case = SCORE_SHAPES["per-case file"]
_cli = writers.cli


def _answer(capsys, command: list[str]) -> tuple[int, object, str]:
    """The exit status, the JSON's scores section with its gate (or the refusal) and the text."""
    status, out, err = _cli(capsys, [*command, "--json"])
    if status not in (0, 1):
        return status, err, _cli(capsys, command)[2]
    document = json.loads(out)
    text_status, text, _ = _cli(capsys, command)
    assert text_status == status
    return status, (document["scores"], document.get("gate")), text


def test_the_scores_are_graded_and_differ_between_the_systems():
    # Counted without the product: a graded metric (not only 0 and 1) on which A and B differ.
    assert {score for pair in SCORES for score in pair} - {0.0, 1.0}
    assert sum(a != b for a, b in SCORES) >= 20


@pytest.mark.parametrize("question", list(QUESTIONS))
def test_every_shape_of_scores_answers_as_the_per_case_file(tmp_path, capsys, question):
    options, _ = QUESTIONS[question]
    answers = {}
    for shape, write in SCORE_SHAPES.items():
        folder = tmp_path / re.sub(r"\W", "_", shape)
        folder.mkdir()
        answers[shape] = _answer(capsys, ["cases", *write(folder), *options])
    status, reference, text = answers["per-case file"]
    for shape, (other_status, answer, other_text) in answers.items():
        assert (other_status, answer) == (status, reference), shape
        if status == 2:  # refused alike, by name (margins on scores answer non-inferiority)
            assert other_text == text, shape
            continue
        scores, gate = reference
        assert " ".join(scores["report"].split()) in " ".join(other_text.split()), shape
        if gate is not None:
            assert gate["sentence"] in other_text, shape
    assert (status == 2) == (question in REFUSED_ON_SCORES)


#: The questions the chooser refuses on scores: a margin answers non-inferiority only.
REFUSED_ON_SCORES = {"better by a margin", "equivalent"}


# ---------------------------------------------------------------------------------------------
# Scores on the page
# ---------------------------------------------------------------------------------------------
PAGE_QUESTIONS = {
    name: asked for name, (_, asked) in QUESTIONS.items() if asked and name not in REFUSED_ON_SCORES
}


def _page_texts(at) -> str:
    return " ".join(" ".join(element.value for element in at.text).split())


def _reference_scores(tmp_path: Path, capsys, question: str) -> dict:
    status, (scores, _), _ = _answer(
        capsys, ["cases", *_per_case(tmp_path), *QUESTIONS[question][0]]
    )
    assert status == 0
    return scores


def _headline_and_margin(scores: dict) -> list[str]:
    parts = [scores["report"].split(" Paired t test:")[0]]
    if scores["margin"] is not None:
        parts.append(scores["margin"]["sentence"])
    return parts


def _ask(at, prefix: str, asked: dict[str, str]) -> None:
    at.selectbox(key=f"{prefix}question").set_value(asked["question"]).run()
    if "margin" in asked:
        at.number_input(key=f"{prefix}margin").set_value(float(asked["margin"])).run()


@pytest.mark.parametrize("question", list(PAGE_QUESTIONS))
def test_the_per_case_pages_mean_scores_answer_as_the_command_line(tmp_path, capsys, question):
    expected = _headline_and_margin(_reference_scores(tmp_path, capsys, question))
    data = (tmp_path / "runs.csv").read_bytes()
    at = open_page("app_pages/cases.py")
    at.file_uploader(key=cases_files.UPLOAD_KEYS[0]).set_value(("runs.csv", data, "text/csv"))
    at.run()
    _ask(at, "scores_", PAGE_QUESTIONS[question])
    assert not at.exception, at.exception
    shown = _page_texts(at)
    for sentence in expected:
        assert " ".join(sentence.split()) in shown


@pytest.mark.parametrize("question", list(PAGE_QUESTIONS))
@pytest.mark.parametrize("shape", list(SCORE_LOGS))
def test_the_pages_logs_of_scores_answer_as_the_command_line(tmp_path, capsys, shape, question):
    expected = _headline_and_margin(_reference_scores(tmp_path, capsys, question))
    at = open_page("app_pages/cases.py")
    at.checkbox(key="logs_show").check().run()
    _ask(at, "logs_", PAGE_QUESTIONS[question])
    for side in (0, 1):
        files = [
            (name, data, "application/octet-stream")
            for name, data in SCORE_LOGS[shape](side).items()
            if "results_" not in name and "run_spec" not in name
        ]
        at.file_uploader(key=f"logs_{'ab'[side]}").set_value(files).run()
    assert not at.exception, at.exception
    shown = _page_texts(at)
    for sentence in expected:
        assert " ".join(sentence.split()) in shown, shape


# ---------------------------------------------------------------------------------------------
# A suite: two tasks, each question answered three times
# ---------------------------------------------------------------------------------------------
TASKS = ("alpha", "beta")
_SUITE_DRAW = random.Random(5)
#: (task, question, epoch) -> (A passes, B passes).
SUITE = {
    (task, q, epoch): (
        int(_SUITE_DRAW.random() < 0.7),
        int(_SUITE_DRAW.random() < (0.55 if task == "alpha" else 0.6)),
    )
    for task in TASKS
    for q in range(30)
    for epoch in range(3)
}


def _suite_long(folder: Path, *, repeats: bool) -> list[str]:
    rows = [
        f"{task},q{q},{epoch},{'AB'[s]},{pair[s]}\n"
        for (task, q, epoch), pair in SUITE.items()
        if repeats or epoch == 0
        for s in (0, 1)
    ]
    (folder / "long.csv").write_text("task,id,epoch,system,outcome\n" + "".join(rows))
    given = ["--system", "system", "--id", "id", "--outcome", "outcome", "--task", "task"]
    return [str(folder / "long.csv"), *given, "--a", "A", "--b", "B"] + (
        ["--repeat", "epoch"] if repeats else []
    )


def _task_values(task: str, side: int, *, repeats: bool) -> dict[tuple[str, int], float]:
    """One system's outcomes on `task` as Inspect samples: (id, epoch from 1) -> outcome."""
    return {
        (f"q{q}", epoch + 1): pair[side]
        for (name, q, epoch), pair in SUITE.items()
        if name == task and (repeats or epoch == 0)
    }


def _suite_inspect(folder: Path, *, repeats: bool) -> list[str]:
    for side in (0, 1):
        run = folder / "AB"[side]
        run.mkdir()
        for task in TASKS:
            values = _task_values(task, side, repeats=repeats)
            (run / f"log_{task}.json").write_bytes(
                writers.inspect_log(values, "AB"[side], task=task)
            )
    return [str(folder / "A"), str(folder / "B")]


def _suite_lm_eval(folder: Path) -> list[str]:
    for side in (0, 1):
        run = folder / "AB"[side]
        run.mkdir()
        for task in TASKS:
            values = list(_task_values(task, side, repeats=False).values())
            files = writers.lm_eval_files(values, "AB"[side], task=task)
            name = next(name for name in files if name.startswith("samples_"))
            (run / name).write_bytes(files[name])
    return [str(folder / "A"), str(folder / "B")]


def _suite_helm(folder: Path) -> list[str]:
    for side in (0, 1):
        for task in TASKS:
            run = folder / "AB"[side] / task  # a folder of one run per task
            run.mkdir(parents=True)
            values = list(_task_values(task, side, repeats=False).values())
            for name, data in writers.helm_files(values, "AB"[side], task=task).items():
                (run / name).write_bytes(data)
    return [str(folder / "A"), str(folder / "B")]


SUITE_QUESTIONS = {name: options for name, (options, _) in QUESTIONS.items()}
SUITE_QUESTIONS.update(
    {
        "better by a margin": ["--alternative", "greater", "--margin", "5pt"],
        "non-inferior": ["--margin", "5pt"],
        "equivalent": ["--margin", "10pt", "--equivalence"],
        "gate with a margin": ["--fail-if-worse", "--margin", "5pt"],
    }
)


def _decision(capsys, command: list[str]) -> tuple[int, object]:
    status, out, err = _cli(capsys, [*command, "--json"])
    if status not in (0, 1):
        return status, _first_sentence(err)
    document = json.loads(out)
    kept = ("table", "decision", "report", "gate", "clustered_by_task", "multiplicity")
    answer = {key: document.get(key) for key in kept}
    text_status, text, _ = _cli(capsys, command)
    assert text_status == status
    if document.get("report"):
        assert " ".join(document["report"].split()) in " ".join(text.split())
    return status, answer


def _first_sentence(message: str) -> str:
    return message.strip().split("\n")[-1]


def test_the_suite_has_repeats_and_two_tasks():
    assert {task for task, _, _ in SUITE} == set(TASKS)
    assert {epoch for _, _, epoch in SUITE} == {0, 1, 2}


@pytest.mark.parametrize("question", list(SUITE_QUESTIONS))
def test_a_suite_with_repeats_answers_alike_from_a_long_file_and_inspect_logs(
    tmp_path, capsys, question
):
    options = SUITE_QUESTIONS[question]
    answers = {}
    for shape, write in {"long file": _suite_long, "inspect": _suite_inspect}.items():
        folder = tmp_path / shape.replace(" ", "_")
        folder.mkdir()
        answers[shape] = _decision(capsys, ["cases", *write(folder, repeats=True), *options])
    assert answers["long file"] == answers["inspect"]


SUITE_SHAPES: dict[str, Callable[[Path], list[str]]] = {
    "long file": lambda folder: _suite_long(folder, repeats=False),
    "inspect": lambda folder: _suite_inspect(folder, repeats=False),
    "lm-eval": _suite_lm_eval,
    "helm": _suite_helm,
}


@pytest.mark.parametrize("question", list(SUITE_QUESTIONS))
def test_a_suite_answers_alike_from_every_shape(tmp_path, capsys, question):
    options = SUITE_QUESTIONS[question]
    answers = {}
    for shape, write in SUITE_SHAPES.items():
        folder = tmp_path / shape.replace(" ", "_")
        folder.mkdir()
        answers[shape] = _decision(capsys, ["cases", *write(folder), *options])
    reference = answers["long file"]
    for shape, answer in answers.items():
        assert answer == reference, shape


@pytest.mark.parametrize("question", sorted(REFUSED_ON_SCORES))
def test_the_page_refuses_on_scores_what_the_command_line_refuses(tmp_path, capsys, question):
    status, refusal, _ = _answer(capsys, ["cases", *_per_case(tmp_path), *QUESTIONS[question][0]])
    assert status == 2 and "margin" in refusal
    at = open_page("app_pages/cases.py")
    data = (tmp_path / "runs.csv").read_bytes()
    at.file_uploader(key=cases_files.UPLOAD_KEYS[0]).set_value(("runs.csv", data, "text/csv"))
    at.run()
    _ask(at, "scores_", QUESTIONS[question][1])
    assert not at.exception, at.exception
    errors = " ".join(error.value for error in at.error)
    assert "margin" in errors.lower(), errors  # refused, in the page's words, never answered
    assert "Over 40 cases" not in _page_texts(at)


# ---------------------------------------------------------------------------------------------
# Clusters: a group column of a per-case file, and repeats of a long file or an Inspect log
# ---------------------------------------------------------------------------------------------
#: One task of the suite: its 30 questions, each answered three times.
ONE_TASK = {(q, epoch): pair for (task, q, epoch), pair in SUITE.items() if task == "alpha"}


def _grouped_file(folder: Path) -> list[str]:
    rows = [f"q{q}-{epoch},q{q},{a},{b}\n" for (q, epoch), (a, b) in ONE_TASK.items()]
    (folder / "wide.csv").write_text("case,question,A,B\n" + "".join(rows))
    return [str(folder / "wide.csv"), "--id", "case", "--group", "question", "--a", "A", "--b", "B"]


def _repeats_long(folder: Path) -> list[str]:
    rows = [
        f"q{q},{epoch},{'AB'[s]},{pair[s]}\n"
        for (q, epoch), pair in ONE_TASK.items()
        for s in (0, 1)
    ]
    (folder / "long.csv").write_text("id,epoch,system,outcome\n" + "".join(rows))
    given = ["--system", "system", "--id", "id", "--outcome", "outcome", "--repeat", "epoch"]
    return [str(folder / "long.csv"), *given, "--a", "A", "--b", "B"]


def _repeats_inspect(folder: Path) -> list[str]:
    given = []
    for side in (0, 1):
        values = {(f"q{q}", epoch + 1): pair[side] for (q, epoch), pair in ONE_TASK.items()}
        path = folder / f"log_{'AB'[side]}.json"
        path.write_bytes(writers.inspect_log(values, "AB"[side], task="alpha"))
        given.append(str(path))
    return given


def _cluster_answer(capsys, command: list[str]) -> tuple[int, object]:
    status, out, err = _cli(capsys, [*command, "--json"])
    if status not in (0, 1):
        return status, _first_sentence(err)
    document = json.loads(out)
    # The table's cells; the per-case tests beside them differ on purpose: a group column's
    # cases are pairs, shown for contrast, while repeats pair A's and B's samples arbitrarily
    # and their per-case tests are not reported (the note of a log with repeats).
    cells = {cell: document["table"][cell] for cell in "abcdn"}
    return status, (cells, document["decision"], document.get("gate"))


@pytest.mark.parametrize("question", list(SUITE_QUESTIONS))
def test_clusters_answer_alike_from_a_group_column_and_from_repeats(tmp_path, capsys, question):
    options = SUITE_QUESTIONS[question]
    answers = {}
    shapes = {"group": _grouped_file, "long": _repeats_long, "inspect": _repeats_inspect}
    for shape, write in shapes.items():
        folder = tmp_path / shape
        folder.mkdir()
        answers[shape] = _cluster_answer(capsys, ["cases", *write(folder), *options])
    status, (table, decision, _) = answers["group"]
    assert decision["method"] == "cluster" and table["n"] == 90
    assert answers["long"] == answers["group"]
    assert answers["inspect"] == answers["group"]
