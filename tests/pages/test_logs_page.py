"""AppTest checks of the per-case page's section for harness logs (ui/widgets/cases_logs.py).

The expected tables are counted here with json and collections from the same files.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from apptest_pages import open_page

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"
DUMMY = [LOGS / "generated" / "lm-eval" / f"dummy-seed{k}" for k in (1, 2)]
PAGE = "app_pages/cases.py"


def files(folder: Path) -> list[tuple[str, bytes, str]]:
    return [(p.name, p.read_bytes(), "text/plain") for p in sorted(folder.glob("samples_*"))]


def open_logs() -> object:
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    return at


def test_two_results_folders_give_a_table_per_task():
    at = open_logs()
    at.file_uploader(key="logs_a").set_value(files(DUMMY[0])).run()
    at.file_uploader(key="logs_b").set_value(files(DUMMY[1])).run()
    assert not at.exception, at.exception
    report = "\n".join(t.value for t in at.text)
    assert "metric    acc (the first pass/fail metric in the task's metric list)" in report
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    for task in ("toy_add", "toy_mul"):
        a, b = (
            {
                json.loads(line)["doc_id"]: json.loads(line)["acc"]
                for line in next(d.glob(f"samples_{task}_*")).read_text().splitlines()
            }
            for d in DUMMY
        )
        cells = Counter((a[k] == 1, b[k] == 1) for k in a)
        row = table[table["task"] == task].iloc[0]
        assert (row["both pass"], row["only A"], row["only B"], row["both fail"]) == (
            cells[(True, True)],
            cells[(True, False)],
            cells[(False, True)],
            cells[(False, False)],
        )


def test_a_refusal_is_shown_not_raised():
    at = open_logs()
    at.file_uploader(key="logs_a").set_value(files(DUMMY[0])).run()
    at.file_uploader(key="logs_b").set_value(files(DUMMY[1])).run()
    at.text_input(key="logs_metric").set_value("exact_match").run()
    assert not at.exception, at.exception
    assert any("toy\\_gen" in e.value and "2 filters" in e.value for e in at.error), at.error


def test_partial_credit_needs_the_threshold_field():
    mock = LOGS / "generated" / "inspect"
    at = open_logs()
    for key, name in (("logs_a", "mock-a-3epochs.eval"), ("logs_b", "mock-b-3epochs.eval")):
        at.file_uploader(key=key).set_value([(name, (mock / name).read_bytes(), "x")]).run()
    at.text_input(key="logs_metric").set_value("graded").run()
    assert any("partial credit" in e.value for e in at.error)
    at.text_input(key="logs_threshold").set_value("0.5").run()
    assert not at.error and not at.exception
    assert "by question" in "\n".join(t.value for t in at.text)
    at.text_input(key="logs_threshold").set_value("inf").run()
    assert [e.value for e in at.error] == ["The threshold must be a finite number, such as 0.5."]
