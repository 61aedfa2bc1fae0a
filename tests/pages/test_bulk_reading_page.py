"""AppTest checks of the per-case page following the bulk of the outcome columns (issue #31):
pass/fail words with one number are compared as pass/fail, the number excluded with its line;
a mix that no reading keeps 95% of stops with both readings' counts."""

from __future__ import annotations

from apptest_pages import open_page
from streamlit.testing.v1 import AppTest

from ui.widgets import cases_files as files

PAGE = "app_pages/cases.py"
WORDS = ("pass", "fail", "fail", "pass", "pass", "fail", "pass")


def uploaded(rows: list[str]) -> AppTest:
    at = open_page(PAGE)
    data = ("id,old,new\n" + "\n".join(rows) + "\n").encode()
    at.file_uploader(key=files.UPLOAD_KEYS[0]).set_value(("runs.csv", data, "text/csv"))
    at.run()
    assert not at.exception, at.exception
    return at


def shown(at: AppTest) -> str:
    return "\n".join(
        [t.value for t in at.text] + [m.value for m in at.markdown] + [e.value for e in at.error]
    )


def test_words_with_one_number_are_compared_as_pass_fail_with_the_number_excluded():
    rows = [f"q{i},{WORDS[i % 7]},{WORDS[(i * 3 + 1) % 7]}" for i in range(200)]
    rows[57] = f"q57,0.5,{WORDS[(57 * 3 + 1) % 7]}"
    at = uploaded(rows)
    headers = [header.value for header in at.header]
    assert "Mean scores" not in headers and not at.error
    assert "Paired table from the data" in headers
    assert "1 value in 'old' not read as a pass/fail outcome (on line 59)" in shown(at)


def test_a_mix_no_reading_keeps_95_percent_of_stops_with_both_counts():
    rows = [
        f"q{i},0.{i % 9 + 1},0.{(i + 4) % 9 + 1}" if i % 5 >= 3 else f"q{i},pass,fail"
        for i in range(200)
    ]
    at = uploaded(rows)  # no column reads as outcomes or scores: the user picks them
    for key, column in (("cases_a", "old"), ("cases_b", "new")):
        next(box for box in at.selectbox if box.key.startswith(key)).select(column).run()
    assert not at.exception, at.exception
    errors = "\n".join(e.value for e in at.error)
    assert (
        "runs.csv ('old', 'new'): no one reading keeps 95% of the rows: 120 of 200 rows read as "
        "pass/fail, 80 as numbers (scores)" in errors.replace("\\", "")
    )
