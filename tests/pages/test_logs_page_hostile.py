"""The logs section of the per-case page with hostile names in the logs (issue 23, second round).

Task names (from lm-eval's file names), metric names, filters and case ids come from the logs;
before, the report (st.text) and the per-task table showed a right-to-left override, a zero-width
space and an escape sequence as they are, so a task could display under another name.
"""

from __future__ import annotations

import json

from apptest_pages import open_page

PAGE = "app_pages/cases.py"
TIME = "2024-01-01T00-00-00.000000"
HIDDEN = ("\u202e", "\u200b", "\x1b")


def log(offset: int) -> tuple[str, bytes, str]:
    lines = []
    for i in range(30):
        value = (i + offset * (i % 3 == 0)) % 2
        record = {
            "doc_id": i,
            "doc": {},
            "resps": [],
            "filter": "none\u200b",
            "metrics": ["acc\u202eEVIL"],
            "acc\u202eEVIL": value,
        }
        lines.append(json.dumps(record))
    name = f"samples_ta\u202esk\x1b[2J_{TIME}.jsonl"
    return name, ("\n".join(lines) + "\n").encode(), "text/plain"


def test_names_from_logs_show_their_hidden_characters_in_the_report_and_the_table():
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    at.file_uploader(key="logs_a").set_value([log(0)]).run()
    at.file_uploader(key="logs_b").set_value([log(1)]).run()
    assert not at.exception, at.exception
    report = "\n".join(t.value for t in at.text)
    assert "acc\\u202eEVIL" in report and "none\\u200b" in report
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    shown = "".join(table["task"])
    assert shown == "ta\\u202esk\\x1b[2J"
    assert not any(c in report + shown for c in HIDDEN)


def test_a_huge_integer_in_a_log_is_an_error_naming_the_line_not_a_traceback():
    # Hostile review 4 (C1): "Uncaught app execution ... OverflowError: int too large to convert
    # to float" at calculator/logs/table.py (long_frame) before; the page catches CalculatorError.
    records = [{"doc_id": i, "doc": {}, "resps": [], "acc": i % 2} for i in range(20)]
    good = ("\n".join(map(json.dumps, records)) + "\n").encode()
    records[7]["acc"] = 10**400 - 1
    bad = ("\n".join(map(json.dumps, records)) + "\n").encode()
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    at.file_uploader(key="logs_a").set_value([(f"samples_t_{TIME}.jsonl", bad, "text/plain")]).run()
    at.file_uploader(key="logs_b").set_value(
        [(f"samples_t_{TIME}.jsonl", good, "text/plain")]
    ).run()
    assert not at.exception, at.exception
    (error,) = at.error
    assert "line 8, field 'acc'\\: an integer of 400 digits" in error.value  # escaped Markdown


def test_the_page_points_to_its_metric_box_not_a_command_line_flag():
    # Hostile review 4 (U4): the report's "also logged: ...; choose with --metric" and the reason
    # "named with --metric" were shown on the page, beside its own Metric box.
    from pathlib import Path

    dummy = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "lm-eval"

    def files(seed: int) -> list[tuple[str, bytes, str]]:
        folder = dummy / f"dummy-seed{seed}"
        return [(p.name, p.read_bytes(), "text/plain") for p in sorted(folder.glob("samples_*"))]

    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    at.file_uploader(key="logs_a").set_value(files(1)).run()
    at.file_uploader(key="logs_b").set_value(files(2)).run()
    assert not at.exception, at.exception
    report = "\n".join(t.value for t in at.text)
    assert "also logged: acc_norm, exact_match; type another in the Metric box" in report
    at.text_input(key="logs_metric").set_value("acc_norm").run()
    report = "\n".join(t.value for t in at.text)
    assert "metric    acc_norm (the one asked for)" in report
    assert "--metric" not in report
