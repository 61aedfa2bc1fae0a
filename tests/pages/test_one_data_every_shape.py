"""One data set through every input shape, every question and every surface.

The same 40 cases (20 both pass, 12 only A, 3 only B, 5 both fail) are written as a typed
table, a per-case file, two per-case files joined on an id, a long file (a row per case and
system), lm-eval samples, an Inspect log and a HELM run. Each shape is asked every question
(different, better, worse, better by more than 5 points, non-inferior at 5 points, equivalent
within 10 points) and the release gate, on the command line (text and JSON) and on the page
(AppTest). Every path must give the same decision:
the same test, p, interval, verdict and sentence, or the same refusal.

The reference is the typed table's own JSON (``table 20 12 3 5``), whose numbers are checked
against exact enumerations elsewhere (tests/core/test_decision.py); here the point is that no
shape or surface answers by other code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import shape_writers as writers
from apptest_pages import open_page
from streamlit.testing.v1 import AppTest

from ui.widgets import cases_files
from ui.widgets.decision import ANSWER_PREFIX

APP = str(Path(__file__).resolve().parents[2] / "app.py")
CELLS = (20, 12, 3, 5)  # both pass, only A, only B, both fail
#: One (A passes, B passes) pair per case, in the cells' order.
OUTCOMES = [(1, 1)] * CELLS[0] + [(1, 0)] * CELLS[1] + [(0, 1)] * CELLS[2] + [(0, 0)] * CELLS[3]

#: Each question as the command line asks it, and as the page's Decision section does (its
#: question and its margin in percentage points).
QUESTIONS: dict[str, tuple[list[str], dict[str, str]]] = {
    "different": ([], {"question": "different"}),
    "better": (["--alternative", "greater"], {"question": "better"}),
    "worse": (["--alternative", "less"], {"question": "worse"}),
    "better by a margin": (
        ["--alternative", "greater", "--margin", "5pt"],
        {"question": "superior", "margin": "5"},
    ),
    "non-inferior": (["--margin", "5pt"], {"question": "non-inferior", "margin": "5"}),
    "equivalent": (
        ["--margin", "10pt", "--equivalence"],
        {"question": "equivalent", "margin": "10"},
    ),
}
GATES = {"gate": ["--fail-if-worse"], "gate with a margin": ["--fail-if-worse", "--margin", "5pt"]}


# ---------------------------------------------------------------------------------------------
# The shapes, each written from OUTCOMES
# ---------------------------------------------------------------------------------------------
LOG_SHAPES = writers.log_shapes(OUTCOMES)
SHAPES = writers.shapes(OUTCOMES, LOG_SHAPES)


# ---------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------
_cli = writers.cli


def _reference(capsys: pytest.CaptureFixture[str], options: list[str]) -> dict:
    status, out, err = _cli(capsys, ["table", *map(str, CELLS), *options, "--json"])
    assert status == 0, err
    return json.loads(out)


def test_the_data_are_the_cells_they_claim():
    # Counted here without the product: the shapes all carry this one table.
    counts = {pair: OUTCOMES.count(pair) for pair in [(1, 1), (1, 0), (0, 1), (0, 0)]}
    assert tuple(counts.values()) == CELLS


@pytest.mark.parametrize("question", list(QUESTIONS))
@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_answers_every_question_as_the_typed_table(tmp_path, capsys, shape, question):
    options, _ = QUESTIONS[question]
    reference = _reference(capsys, options)
    command = ["cases", *SHAPES[shape](tmp_path), *options]
    status, out, err = _cli(capsys, [*command, "--json"])
    assert status == 0, err
    payload = json.loads(out)
    assert payload["table"] == reference["table"]
    # The decision whole: question, test, p, interval, verdict and its sentence.
    assert payload["decision"] == reference["decision"]
    assert payload["report"] == reference["report"]
    status, text, err = _cli(capsys, command)
    assert status == 0, err
    assert reference["report"] in text


@pytest.mark.parametrize("gate", list(GATES))
@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_gates_alike(tmp_path, capsys, shape, gate):
    given = SHAPES[shape](tmp_path)
    outcomes = {}
    for form in ("json", "text"):
        command = ["cases", *given, *GATES[gate]] + (["--json"] if form == "json" else [])
        outcomes[form] = _cli(capsys, command)
    status, out, err = outcomes["json"]
    # Only A passes 12 cases to B's 3: B is worse (exact p = 0.035), and the gate fails.
    assert status == 1, err
    verdict = json.loads(out)["gate"]
    reference = _GATE_VERDICTS.setdefault(gate, verdict)
    assert verdict == reference
    assert outcomes["text"][0] == 1


_GATE_VERDICTS: dict[str, dict] = {}


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------
def _unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def _answers(at: AppTest) -> list[str]:
    prefix = _unescape(ANSWER_PREFIX)
    return [
        _unescape(m.value)[len(prefix) :]
        for m in at.markdown
        if _unescape(m.value).startswith(prefix)
    ]


def _texts(at: AppTest) -> str:
    return "\n".join(element.value for element in at.text)


@pytest.mark.parametrize("question", list(QUESTIONS))
def test_the_calculator_page_answers_as_the_command_line(capsys, question):
    options, query = QUESTIONS[question]
    reference = _reference(capsys, options)["decision"]["sentence"]
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(dict(zip("abcd", map(str, CELLS), strict=True)) | query)
    at.run()
    assert not at.exception, at.exception
    assert _answers(at) == [reference]


@pytest.mark.parametrize("question", list(QUESTIONS))
def test_the_per_case_page_answers_as_the_command_line(capsys, question):
    options, query = QUESTIONS[question]
    reference = _reference(capsys, options)
    data = ("id,A,B\n" + "".join(f"q{i},{a},{b}\n" for i, (a, b) in enumerate(OUTCOMES))).encode()
    at = open_page("app_pages/cases.py")
    at.file_uploader(key=cases_files.UPLOAD_KEYS[0]).set_value(("runs.csv", data, "text/csv"))
    at.run()
    at.radio(key="cases_question").set_value(query["question"]).run()
    if "margin" in query:
        at.number_input(key="cases_margin").set_value(float(query["margin"])).run()
    assert not at.exception, at.exception
    assert _answers(at) == [reference["decision"]["sentence"]]
    assert reference["report"] in _texts(at)


@pytest.mark.parametrize("question", list(QUESTIONS))
@pytest.mark.parametrize("shape", list(LOG_SHAPES))
def test_the_pages_logs_section_answers_as_the_command_line(capsys, shape, question):
    options, query = QUESTIONS[question]
    reference = _reference(capsys, options)
    at = open_page("app_pages/cases.py")
    at.checkbox(key="logs_show").check().run()
    at.selectbox(key="logs_question").set_value(query["question"]).run()
    if "margin" in query:
        at.number_input(key="logs_margin").set_value(float(query["margin"])).run()
    for side in (0, 1):
        files = [
            (name, data, "application/octet-stream")
            for name, data in LOG_SHAPES[shape](side).items()
            if "results_" not in name and "run_spec" not in name
        ]
        at.file_uploader(key=f"logs_{'ab'[side]}").set_value(files).run()
    assert not at.exception, at.exception
    # The report holds the decision's sentence whenever it says more than the figures.
    assert reference["report"] in _texts(at)
    assert (reference["decision"]["sentence"] in reference["report"]) == (question != "different")
