"""The logs section's tables never show the word None, and its report names the page's own
controls, not the command line's options (statistics 4, C2; round 3's C2).

Before: with one task the "Holm-adjusted p" column read None, and without repeated samples the
"questions" column did; the report said "--threshold X cuts them into pass/fail" and "(as cases
--group does)" on the page, whose controls are boxes.
"""

from __future__ import annotations

import re

from test_logs_page import DUMMY, files, graded_files, graded_logs, open_logs

from ui import logs_words as words


def _cells(at) -> list[str]:
    return [str(cell) for frame in at.dataframe for cell in frame.value.to_numpy().ravel()]


def _shown(at) -> str:
    return "\n".join([t.value for t in at.text] + [c.value for c in at.caption])


def _no_option_names(shown: str) -> None:
    assert not re.search(r"(?<![\w-])--[a-z]", shown), re.findall(r"--[a-z][\w-]*", shown)
    assert "cases --group" not in shown


def test_one_graded_task_shows_a_dash_for_holm_and_says_why():
    at = graded_logs()  # one task (mock_qa), repeated samples: questions are counted
    assert "None" not in _cells(at)
    table = next(f.value for f in at.dataframe if "mean difference A − B" in f.value.columns)
    assert list(table["Holm-adjusted p"]) == [words.MISSING]
    assert list(table["questions"]) == [10]
    shown = _shown(at)
    assert words.HOLM_EMPTY in shown and words.QUESTIONS_EMPTY not in shown
    assert "a value in the Threshold box cuts them into pass/fail" in shown
    _no_option_names(shown)


def test_graded_tasks_without_repeats_show_a_dash_for_questions_and_say_why():
    given = [graded_files(folder) for folder in DUMMY]
    at = open_logs()
    at.file_uploader(key="logs_a").set_value(given[0]).run()
    at.file_uploader(key="logs_b").set_value(given[1]).run()
    at.text_input(key="logs_metric").set_value("acc").run()
    assert not at.exception and not at.error
    assert "None" not in _cells(at)
    table = next(f.value for f in at.dataframe if "mean difference A − B" in f.value.columns)
    assert list(table["questions"]) == [words.MISSING, words.MISSING]
    assert all(isinstance(p, float) for p in table["Holm-adjusted p"])  # two tasks: adjusted
    shown = _shown(at)
    assert words.QUESTIONS_EMPTY in shown and words.HOLM_EMPTY not in shown
    _no_option_names(shown)


def test_pass_fail_logs_with_repeats_name_no_option():
    from pathlib import Path

    mock = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "inspect"
    at = open_logs()
    for key, name in (("logs_a", "mock-a-3epochs.eval"), ("logs_b", "mock-b-3epochs.eval")):
        at.file_uploader(key=key).set_value([(name, (mock / name).read_bytes(), "x")]).run()
    assert not at.exception and not at.error
    assert "None" not in _cells(at)
    shown = _shown(at)
    assert "as a group column of a per-case file does" in shown
    assert words.HOLM_EMPTY in shown
    _no_option_names(shown)


def test_two_pass_fail_tasks_keep_their_holm_p():
    at = open_logs()
    at.file_uploader(key="logs_a").set_value(files(DUMMY[0])).run()
    at.file_uploader(key="logs_b").set_value(files(DUMMY[1])).run()
    assert not at.exception
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    assert all(isinstance(p, float) for p in table["Holm-adjusted p"])
    assert words.HOLM_EMPTY not in _shown(at)
