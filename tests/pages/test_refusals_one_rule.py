"""One chooser, every surface: an option the chosen test cannot answer is refused by the same
rule (calculator/chooser.py) on the command line and on the per-case page, each in its own
words (the command line names its flags, the page its widgets, never a flag); and the page's
logs and scores sections answer the question asked, as the command line does.

Before: the refusals were written in the command line's modules only; the page's logs and
scores sections answered the two-sided question alone, and the workflow's compare_logs dropped
a question asked of logs paired as scores without a word.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from apptest_pages import open_page

from calculator.cli import main
from calculator.logs import read_log
from calculator.paired_data import of_logs
from calculator.workflow import LogChoice, Question, compare, pair_two_logs
from ui.widgets import cases_files

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated"
SEVERAL = (
    sorted((LOGS / "lm-eval" / "dummy-seed1").glob("samples_*")),
    sorted((LOGS / "lm-eval" / "dummy-seed2").glob("samples_*")),
)
EPOCHS = ([LOGS / "inspect" / "mock-a-3epochs.eval"], [LOGS / "inspect" / "mock-b-3epochs.eval"])
PAGE = "app_pages/cases.py"
SCORES = (
    "id,old,new\n" + "\n".join(f"q{k},{(k * 7) % 10 / 10},{(k * 3) % 10 / 10}" for k in range(30))
).encode()


def _cli(capsys: pytest.CaptureFixture[str], *command: str) -> tuple[int, str, str]:
    status = main(list(command))
    out, err = capsys.readouterr()
    return status, out, err


def _folder(tmp_path: Path, side: str, paths: list[Path]) -> str:
    if len(paths) == 1:
        return str(paths[0])
    folder = tmp_path / side
    folder.mkdir()
    for path in paths:
        (folder / path.name).write_bytes(path.read_bytes())
    return str(folder)


def _logs_page(a: list[Path], b: list[Path], **inputs: object) -> object:
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    for key, value in inputs.items():
        widget = at.number_input if key == "margin" else at.selectbox
        widget(key=f"logs_{key}").set_value(value).run()
    for key, paths in (("logs_a", a), ("logs_b", b)):
        files = [(p.name, p.read_bytes(), "application/octet-stream") for p in paths]
        at.file_uploader(key=key).set_value(files).run()
    assert not at.exception, at.exception
    return at


def _scores_page(**inputs: object) -> object:
    at = open_page(PAGE)
    at.file_uploader(key=cases_files.UPLOAD_KEYS[0]).set_value(("s.csv", SCORES, "text/csv"))
    at.run()
    for key, value in inputs.items():
        widget = at.number_input if key == "margin" else at.selectbox
        widget(key=f"scores_{key}").set_value(value).run()
    assert not at.exception, at.exception
    return at


def _errors(at: object) -> str:
    """The page's errors as read (Markdown's escapes taken off)."""
    shown = "\n".join(element.value for element in at.error)  # type: ignore[attr-defined]
    return re.sub(r"\\(.)", r"\1", shown)


def _texts(at: object) -> str:
    return "\n".join(element.value for element in at.text)  # type: ignore[attr-defined]


# Several tasks: a one-sided question and a margin were refused here ("answered for one task
# at a time") until issue #32; both surfaces now answer them over all the suite's questions by
# the task-stratified test of the summed table (tests/cli/test_suite_cli.py checks the numbers).
SUITE_QUESTIONS = [
    (["--alternative", "greater"], {"question": "better"}, "one-sided exact McNemar test"),
    (["--alternative", "less"], {"question": "worse"}, "one-sided exact McNemar test"),
    (["--margin", "2pt"], {"question": "non-inferior", "margin": 2.0}, "Tango score test"),
]


@pytest.mark.parametrize(("options", "inputs", "test"), SUITE_QUESTIONS)
def test_logs_of_several_tasks_answer_the_same_question_on_both_surfaces(
    tmp_path, capsys, options, inputs, test
):
    given = _folder(tmp_path, "A", SEVERAL[0]), _folder(tmp_path, "B", SEVERAL[1])
    status, out, err = _cli(capsys, "cases", *given, *options)
    assert status == 0 and err == ""
    (answer,) = [line for line in out.splitlines() if line.startswith("answer    ")]
    assert f"each counted once: {test}" in answer
    at = _logs_page(*SEVERAL, **inputs)
    assert not at.error
    assert answer in _texts(at).splitlines()  # the page says the suite's answer as the CLI


# (the command line's options, the page's inputs, the CLI's words, the page's words)
LOG_REFUSALS = [
    (
        ["--better", "lower"],
        {"better": "lower"},
        "--better says which scores are better; pass/fail outcomes",
        "“Better scores” says which scores are better; pass/fail outcomes",
    ),
]


SCORE_REFUSALS = [
    (
        ["--margin", "0.1", "--equivalence"],
        {"question": "equivalent", "margin": 0.1},
        "--equivalence is for pass/fail outcomes; with scores give --margin only",
        "The question “equivalent” is for pass/fail outcomes; with scores give a margin only",
    ),
    (
        ["--margin", "0.1", "--better", "lower"],
        {"question": "non-inferior", "margin": 0.1, "better": "lower"},
        "--margin answers non-inferiority for higher-is-better scores only; with --better lower",
        "A margin answers non-inferiority for higher-is-better scores only; with “Better "
        "scores: lower”",
    ),
]


@pytest.mark.parametrize(("options", "inputs", "cli_words", "page_words"), SCORE_REFUSALS)
def test_scores_refuse_the_same_option_on_both_surfaces(
    tmp_path, capsys, options, inputs, cli_words, page_words
):
    path = tmp_path / "s.csv"
    path.write_bytes(SCORES)
    status, out, err = _cli(capsys, "cases", str(path), "--id", "id", *options)
    assert status == 2 and out == "" and err.startswith(f"error: {cli_words}")
    page = _errors(_scores_page(**inputs))
    assert page_words in page and "--" not in page


def test_the_pages_scores_section_answers_the_question_asked(tmp_path, capsys):
    # It answered the two-sided question whatever was wanted: it had no question to ask.
    path = tmp_path / "s.csv"
    path.write_bytes(SCORES)
    command = ["cases", str(path), "--id", "id", "--a", "old", "--b", "new", "--json"]
    status, out, _ = _cli(capsys, *command, "--margin", "0.1")
    assert status == 0
    report = json.loads(out)["scores"]["report"]
    page = _texts(_scores_page(question="non-inferior", margin=0.1)).splitlines()
    (answer,) = [line for line in page if "non-inferior to old at a margin of 0.1" in line]
    assert answer in report
    assert "(90% t interval" in page[1]  # the interval at 1 - 2 alpha beside a margin


def test_the_pages_logs_section_answers_the_question_asked(tmp_path, capsys):
    a, b = (str(paths[0]) for paths in EPOCHS)
    status, out, _ = _cli(capsys, "cases", a, b, "--margin", "2pt", "--json")
    assert status == 0
    sentence = json.loads(out)["decision"]["sentence"]
    page = _texts(_logs_page(*EPOCHS, question="non-inferior", margin=2.0))
    assert sentence in page


def test_compare_logs_answers_the_question_asked_of_scores():
    # compare_logs took the question for pass/fail and a second one for scores: a question
    # given to logs that turned out to be scores was dropped, and the two-sided one answered.
    a, b = (read_log(paths[0]) for paths in EPOCHS)
    paired = pair_two_logs(a, b, LogChoice(metric="graded"))
    assert paired.scores
    result = compare(of_logs(paired), Question(alternative="greater")).log_scores
    assert result.pooled.alternative == "greater"
    assert all(task.comparison.alternative == "greater" for task in result.tasks)


# Two logs compared as pass/fail: the command line printed the decision's p, P(B better) and,
# with several tasks, on how many each system does better; the page's logs section left these
# lines out. Both now quote one composition (calculator.report.decision_lines); only the names
# of the controls differ (the page's boxes for the command line's options).
@pytest.mark.parametrize(
    ("options", "inputs"),
    [([], {}), (["--alternative", "greater"], {"question": "better"})],
)
def test_the_pages_logs_section_prints_every_line_of_the_command_lines_text(
    tmp_path, capsys, options, inputs
):
    from ui.logs_words import page_message

    given = _folder(tmp_path, "A", SEVERAL[0]), _folder(tmp_path, "B", SEVERAL[1])
    status, out, err = _cli(capsys, "cases", *given, *options)
    assert status == 0 and err == ""
    cli_lines = [page_message(line) for line in out.splitlines() if line.strip()]
    assert any(line.startswith("P(B better)") for line in cli_lines)
    assert any("on how many tasks each system does better" in line for line in cli_lines)
    page_lines = _texts(_logs_page(*SEVERAL, **inputs)).splitlines()
    # The input lines name the files as given (paths on the command line, uploads on the
    # page) and how to choose another metric, each surface by its own control.
    figures = [line for line in cli_lines if not line.startswith(("input ", "metric "))]
    assert len(figures) > 10
    assert [line for line in figures if line not in page_lines] == []
