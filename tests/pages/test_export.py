"""Downloads (ui/export.py): strict JSON, flat CSV, and CSV that a spreadsheet opens as text.

The escaping rule (a leading =, +, -, @, tab or carriage return makes a cell a formula) is
OWASP's, "CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection; the expected
cells are written out by hand from it.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pandas as pd
import pytest

from calculator import analyze, decide
from calculator.cases import load_cases
from calculator.report.words import text
from ui.export import (
    escape_spreadsheet_cell,
    export_dict,
    report_text,
    results_csv,
    results_json,
    to_escaped_csv,
)


@pytest.mark.parametrize(
    ("cell", "escaped"),
    [
        ("=SUM(A1:A9)", "'=SUM(A1:A9)"),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("a=1", "a=1"),
        ("", ""),
        ("plain", "plain"),
    ],
)
def test_escape_spreadsheet_cell(cell, escaped):
    assert escape_spreadsheet_cell(cell) == escaped


def test_escape_needs_text():
    with pytest.raises(TypeError):
        escape_spreadsheet_cell(1)


def test_exported_csv_cannot_run_formulas():
    frame = pd.DataFrame(
        {
            "=id": ["q1", "q2"],
            "answer": ['=HYPERLINK("http://evil","click")', "fine"],
            "note": ["@SUM(1)", None],
            "score": [-1.5, 2.0],
        }
    )
    text = to_escaped_csv(frame)
    read_back = pd.read_csv(io.StringIO(text), keep_default_na=False)
    assert list(read_back.columns) == ["'=id", "answer", "note", "score"]
    assert read_back["answer"].tolist() == ['\'=HYPERLINK("http://evil","click")', "fine"]
    assert read_back["note"].tolist() == ["'@SUM(1)", ""]
    assert read_back["score"].tolist() == [-1.5, 2.0]  # numbers stay numbers
    for line in text.splitlines()[1:]:
        for cell in line.split(","):
            assert not cell.startswith(("=", "+", "@"))


def test_discordant_export_escapes_cells_from_the_file():
    data = b"id,old,new,answer\nq1,1,0,=SUM(A1:A9)\nq2,1,0,-cmd|' /C calc'!A0\n"
    cases = load_cases(
        data, id_column="id", a_column="old", b_column="new", file_names=("runs.csv", None)
    )
    rows = pd.read_csv(io.StringIO(to_escaped_csv(cases.only_a())))["answer"].tolist()
    assert rows == ["'=SUM(A1:A9)", "'-cmd|' /C calc'!A0"]


@pytest.mark.parametrize(
    "name",
    [
        '=HYPERLINK("http://evil","click")',  # the issue's
        "@SUM(1+1)*cmd|' /C calc'!A0",  # held out: @ and a DDE payload
        "+1+cmd",
        "\t=1+1",
    ],
)
def test_results_csv_cannot_run_a_formula_from_a_name(name):
    """Issue 23, item 7: the results download escaped no cell, and the report and the sentences
    start with the names."""
    results = export_dict(analyze(60, 15, 5, 20, names=(name, "B")))
    rows = list(csv.reader(io.StringIO(results_csv(results))))
    assert rows[0] == ["field", "value"]
    started = [cell for row in rows for cell in row if cell.startswith(name)]
    assert not started  # the report starts with the name; it is escaped
    report = dict(rows)["report"]
    assert report == "'" + results["report"]
    assert dict(rows)["table.a"] == "60" and dict(rows)["difference.estimate"] == "0.1"


def test_results_csv_leaves_negative_numbers_as_numbers():
    rows = dict(csv.reader(io.StringIO(results_csv({"difference": {"low": -0.25}}))))
    assert rows["difference.low"] == "-0.25"


# -- The exports answer the page's question (issue 23, item 5). ----------------------------------


def _calculator(query: dict[str, str]):
    from apptest_pages import APP, TIMEOUT
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize(
    ("query", "heading"),
    [
        ({"question": "non-inferior", "margin": "2"}, "Question: non-inferior, margin 2 points: "),
        # Held out: another question, another margin, another table.
        (
            {"question": "equivalent", "margin": "3.5", "a": "40", "b": "6", "c": "9"},
            "Question: equivalent, margin 3.5 points: ",
        ),
    ],
)
def test_the_report_answers_the_decision_sections_question(query, heading):
    from ui.widgets.calculator_results import REPORT_KEY
    from ui.widgets.decision import ANSWER_PREFIX

    at = _calculator(query)
    at.toggle(key=REPORT_KEY).set_value(True).run()
    assert not at.exception, at.exception
    answer = next(m.value for m in at.markdown if m.value.startswith(ANSWER_PREFIX))
    sentence = re.sub(r"\\(.)", r"\1", answer.removeprefix(ANSWER_PREFIX))
    (report,) = [block.value for block in at.code]
    assert report.endswith(heading + sentence)


def test_the_downloads_carry_the_question_the_margin_and_the_answer():
    table = analyze(60, 5, 15, 20)
    asked = decide(table.table, table.difference, question="non-inferior", margin=0.02, alpha=0.05)
    answered = analyze(60, 5, 15, 20, question="non-inferior", margin=0.02)
    assert answered.decision == asked  # the page's answer and its report's: one decide() call
    exported = export_dict(answered)
    assert exported["decision"]["question"] == "non-inferior"
    assert exported["decision"]["margin"] == 0.02
    assert exported["decision"]["sentence"] == text(asked)
    assert exported["report"].endswith(text(asked))
    rows = dict(csv.reader(io.StringIO(results_csv(exported))))
    assert rows["decision.question"] == "non-inferior" and rows["decision.margin"] == "0.02"
    assert rows["decision.reject"] == str(asked.reject)
    assert json.loads(results_json(exported))["decision"]["reject"] == asked.reject


@pytest.mark.parametrize(
    ("question", "margin"), [("non-inferior", 0.02), ("better", None), ("equivalent", 0.05)]
)
def test_the_pasted_report_gives_the_answer_once(question, margin):
    # The page's analysis answers its default question; the downloads answer the page's. The
    # answer is written once, after its question, never also inside the figures before it.
    table = analyze(60, 5, 15, 20)
    asked = decide(table.table, table.difference, question=question, margin=margin, alpha=0.05)
    report = report_text(analyze(60, 5, 15, 20, question=question, margin=margin))
    assert report.count(text(asked)) == 1
    figures, _, answer = report.partition("\n\nQuestion: ")
    assert text(asked) not in figures and answer.endswith(text(asked))
