"""AppTest checks of the "Per-case data" page and its helpers in ui/cases_tables.py,
ui/cases_words.py and ui/widgets/cases_files.py.

Counts are worked out by hand from the files written in each test.
"""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest
from apptest_pages import open_page as open_app_page
from streamlit.testing.v1 import AppTest

from ui import cases_tables as tables
from ui.examples import example_sample_logs
from ui.widgets import cases_files as files
from ui.words import escape_markdown

PAGE = "app_pages/cases.py"


def open_page() -> AppTest:
    return open_app_page(PAGE)


def upload(at: AppTest, name: str, data: bytes, slot: int = 0) -> AppTest:
    at.file_uploader(key=files.UPLOAD_KEYS[slot]).set_value((name, data, "text/plain")).run()
    assert not at.exception, at.exception
    return at


def choice(at: AppTest, base: str):
    """The column or name widget `base` ("cases_a", "cases_name_b", ...): its key carries a
    signature of the files in use, so that a change of files drops every earlier choice."""
    widgets = [*at.selectbox, *at.text_input, *at.checkbox, *at.number_input]
    found = [w for w in widgets if w.key is not None and w.key.split("__")[0] == base]
    assert len(found) == 1, [w.key for w in widgets]
    return found[0]


def exclusions(at: AppTest) -> pd.DataFrame:
    """The rows read / used / excluded table (the only one with a single "rows" column)."""
    return next(f.value for f in at.dataframe if list(f.value.columns) == ["rows"])


def count_table(at: AppTest) -> pd.DataFrame:
    return next(f.value for f in at.dataframe if str(f.value.columns[0]).endswith(" passes"))


def case_list(at: AppTest, which: str) -> pd.DataFrame:
    """The shown page of "only A passes" ("a") or "only B passes" ("b"): the last two tables."""
    return at.dataframe[-2 if which == "a" else -1].value


def texts(at: AppTest) -> str:
    return "\n".join(element.value for element in at.text)


def csv_text(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def test_empty_page_invites_an_upload():
    at = open_page()
    assert "Upload a file" in at.info[0].value
    assert not at.error


def test_example_logs_show_validation_table_and_lists():
    at = open_page()
    at.button(key="cases_example").click().run()
    assert not at.exception and not at.error
    # The example's A log has a cut line (doc 17) and B's lacks docs 237-239.
    assert "5 rows left out" in at.warning[0].value
    excluded = exclusions(at)
    assert excluded.loc["excluded: line not readable as a row", "rows"] == 1
    assert excluded.loc["excluded: id in one file only", "rows"] == 4
    assert choice(at, "cases_id").value == "doc_id"
    assert choice(at, "cases_a").value == "acc"
    table = count_table(at)
    assert table.to_numpy().sum() == 236
    assert "passes" in texts(at)


def test_one_file_upload_counts_and_searchable_paginated_lists():
    rows = [f"q{i},1,0,question {i}" for i in range(120)]  # only A passes: 120
    rows += [f"r{i},0,1,=cmd|' /C calc'!A{i}" for i in range(3)]  # only B passes: 3
    rows += ["s1,1,1,x", "s2,maybe,1,y"]
    at = upload(open_page(), "runs.csv", csv_text("id,old,new,question", *rows))
    assert choice(at, "cases_a").value == "old" or choice(at, "cases_a").value
    choice(at, "cases_a").set_value("old").run()
    choice(at, "cases_b").set_value("new").run()
    table = count_table(at)
    assert table.to_numpy().tolist() == [[1, 120], [3, 0]]
    # A page shows at most PAGE_SIZE rows, never the whole list.
    assert len(case_list(at, "a")) == tables.PAGE_SIZE
    pager = at.get("pagination")[0]
    assert pager.num_pages == 3
    pager.set_value(3).run()
    assert len(case_list(at, "a")) == 120 - 2 * tables.PAGE_SIZE
    choice(at, "cases_search_a").set_value("QUESTION 11").run()
    found = case_list(at, "a")
    assert found["id"].tolist() == [
        "q11",
        "q110",
        "q111",
        "q112",
        "q113",
        "q114",
        "q115",
        "q116",
        "q117",
        "q118",
        "q119",
    ]
    # The unparseable row is reported with its row and id.
    assert "1 value in 'old' not read as a pass/fail outcome" in texts(at)


def test_fatal_file_problem_is_an_error_with_rows_not_a_traceback():
    at = upload(open_page(), "runs.csv", csv_text("id;old;new", "q1;1;0", "q2;0;0"))
    assert "semicolon" in at.error[0].value
    assert at.dataframe[0].value["line"].tolist() == [1, 2, 3]


def test_header_only_and_binary_uploads():
    at = upload(open_page(), "runs.csv", b"id,old,new\n")
    assert "no rows of data" in at.error[0].value
    at = upload(open_page(), "runs.csv", b"\x00\x01garbage\x00")
    assert "binary data" in at.error[0].value


def test_group_column_shows_the_cluster_test():
    rows = ["q1,1,0,d1", "q2,1,0,d1", "q3,1,0,d2", "q4,0,1,d3", "q5,1,1,d3"]
    at = upload(open_page(), "runs.csv", csv_text("id,old,new,doc", *rows))
    choice(at, "cases_group").set_value("doc").run()
    assert not at.exception
    assert "not independent" in at.info[0].value
    assert at.metric[0].value == "3"
    # b = 3, c = 1; (b_i - c_i) = 2, 1, -1 -> X2 = 4 / 6 = 0.667; plain (3-1)^2/4 = 1.
    assert "X2 = 0.667" in texts(at) and "plain chi-square p = 0.317" in texts(at)
    assert "Only 3 clusters" in at.warning[-1].value


def test_two_files_joined_on_id():
    first = csv_text("doc_id,acc", "1,1", "2,1", "3,0", "4,1")
    second = csv_text("doc_id,acc", "2,0", "3,1", "4,1", "5,0")
    at = upload(open_page(), "a.csv", first)
    at = upload(at, "b.csv", second, slot=1)
    assert choice(at, "cases_id").value == "doc_id"
    # Shared ids 2 (1/0), 3 (0/1), 4 (1/1); 1 only in a.csv, 5 only in b.csv.
    assert count_table(at).to_numpy().tolist() == [[1, 1], [1, 0]]
    assert exclusions(at).loc["excluded: id in one file only", "rows"] == 2


def jsonl(records: list[dict]) -> bytes:
    return "".join(json.dumps(record) + "\n" for record in records).encode()


# Two harness-style logs with the same columns. A's acc passes ids 0-19, B's acc passes ids 2-20
# over ids 0-39: by hand a = 18 (2-19), b = 2 (0, 1), c = 1 (20), d = 19 (21-39). B's acc_norm
# fails everywhere, so pairing A's acc with B's acc_norm (the one-file guess for A's second
# outcome column) would give b = 20, c = 0: a "very significant" difference that is not there.
LOG_A = jsonl([{"doc_id": i, "acc": int(i < 20), "acc_norm": int(i < 25)} for i in range(40)])
LOG_B = jsonl([{"doc_id": i, "acc": int(2 <= i <= 20), "acc_norm": 0} for i in range(40)])


def test_choices_are_guessed_anew_when_the_files_change():
    at = upload(open_page(), "a.jsonl", LOG_A)
    # One file: its two outcome columns are A and B, named after them.
    assert choice(at, "cases_a").value == "acc" and choice(at, "cases_b").value == "acc_norm"
    assert choice(at, "cases_name_b").value == "acc_norm"
    at = upload(at, "b.jsonl", LOG_B, slot=1)
    assert choice(at, "cases_a").value == "acc" and choice(at, "cases_b").value == "acc"
    assert choice(at, "cases_name_a").value == "A" and choice(at, "cases_name_b").value == "B"
    assert count_table(at).to_numpy().tolist() == [[18, 2], [1, 19]]
    shown = texts(at)
    assert "A: column 'acc' of a.jsonl\nB: column 'acc' of b.jsonl" in shown
    assert "Paired on the id column 'doc_id'." in shown
    # A choice made for these two files is dropped when B is removed: A's file alone again.
    choice(at, "cases_group").set_value("acc_norm").run()
    at.file_uploader(key=files.UPLOAD_KEYS[1]).set_value(None).run()
    assert not at.exception
    assert choice(at, "cases_group").value == "(none)"
    assert choice(at, "cases_b").value == "acc_norm"
    assert "acc: column 'acc' of a.jsonl\nacc_norm: column 'acc_norm' of a.jsonl" in texts(at)


def test_a_search_typed_for_other_files_does_not_hide_cases():
    at = upload(open_page(), "a.csv", csv_text("id,old,new", "q1,1,0", "q2,1,0", "q3,0,1"))
    choice(at, "cases_search_a").set_value("q1").run()
    assert case_list(at, "a")["id"].tolist() == ["q1"]
    at = upload(at, "c.csv", csv_text("id,old,new", "r1,1,0", "r2,1,0", "r3,1,1"))
    assert choice(at, "cases_search_a").value == ""
    assert case_list(at, "a")["id"].tolist() == ["r1", "r2"]


def test_the_same_bytes_renamed_are_reported_under_the_new_name():
    data = csv_text("id,old,new", "q1,1,0", "q2,1,1")
    at = upload(upload(open_page(), "first.csv", data), "second.csv", data)
    assert "old: column 'old' of second.csv" in texts(at)
    assert "first.csv" not in texts(at)


def test_forgotten_files_leave_no_uploader_showing_them():
    at = upload(open_page(), "a.csv", csv_text("id,old,new", "q1,1,0", "q2,1,1"))
    at.button(key="cases_clear").click().run()
    assert [uploader.value for uploader in at.file_uploader] == [None, None]
    at.button(key="cases_example").click().run()
    assert [uploader.value for uploader in at.file_uploader] == [None, None]
    assert "samples_model_a.jsonl" in texts(at) and "a.csv" not in texts(at)


def test_a_file_in_b_alone_is_said_to_be_read_as_both_systems():
    at = upload(open_page(), "b.csv", csv_text("id,old,new", "q1,1,0", "q2,1,1"), slot=1)
    assert any("Only B's uploader holds a file" in box.value for box in at.info)
    assert "old: column 'old' of b.csv" in texts(at)


def test_send_table_to_the_calculator():
    at = upload(open_page(), "runs.csv", csv_text("id,old,new", "q1,1,0", "q2,1,1", "q3,0,0"))
    at.button(key="cases_to_calculator").click().run()
    assert not at.exception
    assert [at.session_state[key] for key in "abcd"] == [1, 1, 0, 1]


def test_all_rows_excluded_is_an_error_not_a_crash():
    # Every row lacks an outcome. (Unreadable words in every row now stop before pairing, as
    # no reading keeps 95% of the rows, issue #31: an error too.)
    at = upload(open_page(), "runs.csv", csv_text("id,old,new,x", "q1,,1,a", "q2,0,,b"))
    choice(at, "cases_a").set_value("old").run()
    choice(at, "cases_b").set_value("new").run()
    assert not at.exception
    assert any("No case is left" in element.value for element in at.error)
    at = upload(open_page(), "runs.csv", csv_text("id,old,new", "q1,x,y", "q2,z,w"))
    choice(at, "cases_a").set_value("old").run()
    choice(at, "cases_b").set_value("new").run()
    assert not at.exception
    assert any("no one reading keeps 95%" in element.value for element in at.error)


def test_files_survive_a_visit_to_the_calculator():
    at = upload(open_page(), "runs.csv", csv_text("id,old,new", "q1,1,0", "q2,1,1"))
    at.switch_page("app_pages/calculator.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert "runs.csv" in texts(at)


# --- helpers ------------------------------------------------------------------------------------


def test_page_of_never_returns_more_than_a_page():
    frame = pd.DataFrame({"id": range(100_000)})
    assert tables.page_count(len(frame)) == 2000
    assert tables.page_of(frame, 1)["id"].tolist() == list(range(50))
    assert tables.page_of(frame, 99_999)["id"].iloc[0] == 99_950  # clamped to the last page
    assert tables.page_count(0) == 1 and tables.page_of(frame.head(0), 1).empty


def test_search_is_literal_and_case_insensitive():
    frame = pd.DataFrame({"id": ["a.b", "axb", "C"], "text": ["Hello", "world", None]})
    assert tables.search_cases(frame, "A.B")["id"].tolist() == ["a.b"]
    assert tables.search_cases(frame, "hello")["id"].tolist() == ["a.b"]
    assert len(tables.search_cases(frame, "  ")) == 3


def test_download_csv_is_escaped_and_nested_values_are_text():
    frame = pd.DataFrame({"id": ["q1"], "resps": [[["=1+1"]]], "note": ["@x"], "score": [1.5]})
    read_back = pd.read_csv(io.BytesIO(tables.escaped_csv(frame)))
    assert read_back.loc[0, "note"] == "'@x"
    assert json.loads(read_back.loc[0, "resps"]) == [["=1+1"]]  # starts with "[": inert
    assert read_back.loc[0, "score"] == 1.5


@pytest.mark.parametrize(
    ("text", "escaped"),
    [("[click](javascript:x)", r"\[click\]\(javascript\:x\)"), ("**b** <i>", r"\*\*b\*\* \<i\>")],
)
def test_markdown_from_files_is_escaped(text, escaped):
    assert escape_markdown(text) == escaped


def test_example_logs_are_harness_shaped():
    first, second = example_sample_logs()
    record = json.loads(second.splitlines()[0])
    assert {"doc_id", "doc", "target", "resps", "acc"} <= set(record)
    assert len(second.splitlines()) == 237 and len(first.splitlines()) == 240


def test_file_over_the_upload_limit_is_refused(monkeypatch):
    monkeypatch.setattr(files, "upload_limit", lambda: 64)
    at = upload(open_page(), "runs.csv", csv_text("id,old,new", *(f"q{i},1,0" for i in range(20))))
    assert "over the limit of 64 bytes" in at.error[0].value


def test_the_pages_report_with_a_group_column_is_the_command_lines(tmp_path, capsys):
    # One comparison (calculator.workflow.compare_cases): with a group column the command line's
    # report counts clusters, while the page's analysed the same table as independent cases and
    # said nothing of them.
    import json as json_module

    from calculator.cli import main

    rows = [f"q{k},1,0,d{k % 4}" for k in range(12)] + [f"r{k},0,1,d{k % 4}" for k in range(3)]
    data = csv_text("id,old,new,doc", *rows)
    path = tmp_path / "runs.csv"
    path.write_bytes(data)
    command = ["cases", str(path), "--id", "id", "--a", "old", "--b", "new", "--group", "doc"]
    assert main([*command, "--json"]) == 0
    report = json_module.loads(capsys.readouterr().out)["report"]
    assert "the answer that follows counts the 4 clusters" in report
    at = upload(open_page(), "runs.csv", data)
    choice(at, "cases_group").set_value("doc").run()
    assert not at.exception
    assert report in texts(at)
