"""One comparison, every surface (issue 30): for each input shape and question, the page (under
AppTest), the command line's text and its JSON answer with the same numbers and the same words.

The shapes: a per-case file of pass/fail outcomes (one file, two files joined on an id, a group
column), a per-case file of scores, lm-eval logs of several tasks, Inspect logs with repeats
(3 epochs against 3, and against 1). The questions: two-sided, one-sided, a margin and
equivalence, on the command line (the page's per-case and logs sections answer their default
question; its Decision section is tested in test_decision_page.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from apptest_pages import open_page

from calculator.cli import main
from ui.widgets import cases_files

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"
GENERATED = LOGS / "generated"
PAGE = "app_pages/cases.py"

ROWS = [f"q{k},{int(k % 3 != 0)},{int(k % 4 == 0)},d{k % 5}" for k in range(40)]
PASS_FAIL = ("id,old,new,doc\n" + "\n".join(ROWS) + "\n").encode()
SCORES = (
    "id,old,new\n" + "\n".join(f"q{k},{(k * 7) % 10 / 10},{(k * 3) % 10 / 10}" for k in range(30))
).encode()


def _cli(capsys: pytest.CaptureFixture[str], *command: str) -> tuple[int, str, str]:
    status = main(list(command))
    out, err = capsys.readouterr()
    return status, out, err


def _write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _page_texts(at: object) -> str:
    return "\n".join(element.value for element in at.text)  # type: ignore[attr-defined]


def _choose(at: object, base: str) -> object:
    widgets = [*at.selectbox, *at.text_input, *at.checkbox]  # type: ignore[attr-defined]
    (found,) = [w for w in widgets if w.key is not None and w.key.split("__")[0] == base]
    return found


@pytest.mark.parametrize("group", [None, "doc"])
def test_per_case_pass_fail_the_page_reports_what_the_command_line_does(tmp_path, capsys, group):
    path = _write(tmp_path, "runs.csv", PASS_FAIL)
    command = ["cases", path, "--id", "id", "--a", "old", "--b", "new"]
    command += ["--group", group] if group else []
    status, out, _ = _cli(capsys, *command, "--json")
    assert status == 0
    report = json.loads(out)["report"]
    status, text_out, _ = _cli(capsys, *command)
    assert status == 0 and report in text_out
    at = open_page(PAGE)
    at.file_uploader(key=cases_files.UPLOAD_KEYS[0]).set_value(("runs.csv", PASS_FAIL, "text/csv"))
    at.run()
    if group:
        _choose(at, "cases_group").set_value(group).run()
    assert not at.exception, at.exception
    assert report in _page_texts(at)


def test_two_files_joined_on_an_id_give_one_report(tmp_path, capsys):
    a = "id,old\n" + "\n".join(f"q{k},{int(k % 3 != 0)}" for k in range(40)) + "\n"
    b = "id,new\n" + "\n".join(f"q{k},{int(k % 4 == 0)}" for k in reversed(range(40))) + "\n"
    paths = _write(tmp_path, "a.csv", a.encode()), _write(tmp_path, "b.csv", b.encode())
    command = ["cases", *paths, "--id", "id", "--a", "old", "--b", "new", "--json"]
    status, out, _ = _cli(capsys, *command)
    assert status == 0
    report = json.loads(out)["report"]
    at = open_page(PAGE)
    at.file_uploader(key=cases_files.UPLOAD_KEYS[0]).set_value(("a.csv", a.encode(), "text/csv"))
    at.file_uploader(key=cases_files.UPLOAD_KEYS[1]).set_value(("b.csv", b.encode(), "text/csv"))
    at.run()
    assert not at.exception, at.exception
    assert report in _page_texts(at)


@pytest.mark.parametrize(
    ("options", "question"),
    [
        ([], "different"),
        (["--alternative", "greater"], "better"),
        (["--alternative", "less"], "worse"),
        (["--margin", "2pt"], "non-inferior"),
        (["--margin", "5pt", "--equivalence"], "equivalent"),
    ],
)
@pytest.mark.parametrize("group", [None, "doc"])
def test_every_question_is_answered_alike_in_text_and_json(
    tmp_path, capsys, options, question, group
):
    path = _write(tmp_path, "runs.csv", PASS_FAIL)
    command = ["cases", path, "--id", "id", "--a", "old", "--b", "new", *options]
    command += ["--group", group] if group else []
    status, out, _ = _cli(capsys, *command, "--json")
    assert status == 0
    payload = json.loads(out)
    assert payload["decision"]["question"] == question
    assert ("cluster" in payload) == (group is not None)
    if group:  # the decision counts the clusters, whatever the question
        assert payload["decision"]["interval"]["method"] == "cluster-robust"
    status, text_out, _ = _cli(capsys, *command)
    assert status == 0
    # The text prints the JSON's report (which holds the answer whenever it says more than
    # the figures), in the same words.
    assert payload["report"] in text_out
    if question != "different" or group:
        assert payload["decision"]["sentence"] in payload["report"]
    if question != "different":
        assert f"Question: {question}" in payload["report"]


def test_per_case_scores_the_page_reports_the_command_lines_headline(tmp_path, capsys):
    path = _write(tmp_path, "scores.csv", SCORES)
    status, out, _ = _cli(capsys, "cases", path, "--id", "id", "--a", "old", "--b", "new", "--json")
    assert status == 0
    report = json.loads(out)["scores"]["report"]
    headline = report.split("\n")[0].split(". ")[0]
    at = open_page(PAGE)
    at.file_uploader(key=cases_files.UPLOAD_KEYS[0]).set_value(("scores.csv", SCORES, "text/csv"))
    at.run()
    assert not at.exception, at.exception
    assert headline in _page_texts(at)


def _log_files(paths: list[Path]) -> list[tuple[str, bytes, str]]:
    return [(p.name, p.read_bytes(), "application/octet-stream") for p in paths]


LOG_PAIRS = {
    "lm-eval, several tasks": (
        sorted((GENERATED / "lm-eval" / "dummy-seed1").glob("samples_*")),
        sorted((GENERATED / "lm-eval" / "dummy-seed2").glob("samples_*")),
    ),
    "inspect, 3 epochs against 3": (
        [GENERATED / "inspect" / "mock-a-3epochs.eval"],
        [GENERATED / "inspect" / "mock-b-3epochs.eval"],
    ),
    "inspect, 3 epochs against 1": (
        [GENERATED / "inspect" / "mock-a-3epochs.eval"],
        [GENERATED / "inspect" / "mock-b-1epoch.json"],
    ),
}


def _as_given(tmp_path: Path, side: str, paths: list[Path]) -> str:
    """What the command line reads for the files the page is given: the file itself, or a
    folder of the samples files alone, named as the page names the system (no results file
    naming the model, which the page's uploads do not take)."""
    if len(paths) == 1:
        return str(paths[0])
    folder = tmp_path / side
    folder.mkdir()
    for path in paths:
        (folder / path.name).write_bytes(path.read_bytes())
    return str(folder)


@pytest.mark.parametrize("shape", list(LOG_PAIRS))
def test_logs_the_page_and_the_command_line_give_each_task_the_same_test(tmp_path, capsys, shape):
    a, b = LOG_PAIRS[shape]
    given = _as_given(tmp_path, "A", a), _as_given(tmp_path, "B", b)
    status, out, err = _cli(capsys, "cases", *given, "--json")
    assert status == 0, err
    payload = json.loads(out)
    tasks = {task["task"]: task for task in payload["tasks"]}
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    at.file_uploader(key="logs_a").set_value(_log_files(a)).run()
    at.file_uploader(key="logs_b").set_value(_log_files(b)).run()
    assert not at.exception, at.exception
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    assert set(table["task"]) == set(tasks)
    for _, row in table.iterrows():
        task = tasks[row["task"]]
        assert row.iloc[6] == pytest.approx(task["pvalue"], rel=1e-12)  # the task's p
        assert (row.iloc[1], row.iloc[2], row.iloc[3], row.iloc[4]) == tuple(
            task["table"][cell] for cell in "abcd"
        )
    if "report" in payload:  # no repeats: the pooled report, as the page prints it
        assert payload["report"] in _page_texts(at)


def test_the_pages_report_answers_the_question_its_decision_section_asks(tmp_path, capsys):
    # The per-case page's report (beside the table) answered the two-sided question while its
    # Decision section below answered the one chosen there (review of this change, 2).
    path = _write(tmp_path, "runs.csv", PASS_FAIL)
    command = ["cases", path, "--id", "id", "--a", "old", "--b", "new", "--group", "doc"]
    status, out, _ = _cli(capsys, *command, "--alternative", "greater", "--json")
    assert status == 0
    report = json.loads(out)["report"]
    assert "Question: better" in report
    at = open_page(PAGE)
    at.file_uploader(key=cases_files.UPLOAD_KEYS[0]).set_value(("runs.csv", PASS_FAIL, "text/csv"))
    at.run()
    _choose(at, "cases_group").set_value("doc").run()
    at.radio(key="cases_question").set_value("better").run()
    assert not at.exception, at.exception
    assert report in _page_texts(at)
