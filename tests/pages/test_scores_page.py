"""AppTest checks of the "Mean scores" section of the per-case page (issue 22): score columns
without a threshold are compared by their mean score; with the threshold ticked, as pass/fail."""

from __future__ import annotations

from apptest_pages import open_page
from streamlit.testing.v1 import AppTest

from calculator import compare_scores
from calculator.report.figures import format_score
from calculator.report.formatting import format_pvalue
from calculator.report.words import text
from ui.widgets import cases_files as files

PAGE = "app_pages/cases.py"
GRADES_A = [1, 0.75, 0.5, 1, 0.25, 0.75, 1, 0.5, 0.75, 1, 0, 0.5]
GRADES_B = [0.75, 0.75, 0.25, 0.5, 0.25, 0.5, 1, 0.75, 0.25, 0.75, 0, 0.25]


def graded_csv() -> bytes:
    rows = [f"q{i},{a},{b}" for i, (a, b) in enumerate(zip(GRADES_A, GRADES_B, strict=True))]
    return ("id,old,new_*x*\n" + "\n".join(rows) + "\n").encode()


def uploaded() -> AppTest:
    at = open_page(PAGE)
    at.file_uploader(key=files.UPLOAD_KEYS[0]).set_value(("grades.csv", graded_csv(), "text/csv"))
    at.run()
    assert not at.exception, at.exception
    return at


def test_score_columns_show_the_mean_difference_interval_and_permutation_p():
    at = uploaded()
    assert "Mean scores" in [header.value for header in at.header]
    expected = compare_scores(GRADES_A, GRADES_B, names=("old", "new_*x*"))
    metrics = {metric.label: metric.value for metric in at.metric}
    # The name is shown as written: its Markdown characters are escaped in the label.
    assert metrics[r"Mean difference old − new\_\*x\*"] == format_score(expected.statistic)
    low, high = expected.confidence_interval
    assert metrics["95% t interval"] == f"{format_score(low)} to {format_score(high)}"
    assert metrics["Permutation p"] == format_pvalue(expected.pvalue)
    assert text(expected).split(". Paired t test")[0] in "\n".join(t.value for t in at.text)
    assert "Paired table from the data" not in [header.value for header in at.header]


def tick_cut(at: AppTest, threshold: float | None) -> AppTest:
    box = next(c for c in at.checkbox if c.key.startswith("cases_is_score"))
    box.check().run()
    if threshold is not None:
        field = next(n for n in at.number_input if n.key.startswith("cases_threshold"))
        field.set_value(threshold).run()
    assert not at.exception, at.exception
    return at


def test_ticking_the_cut_with_a_threshold_gives_the_pass_fail_table():
    # The threshold starts empty (review 4, B6): this test sets it, where it took a default 0.5.
    at = tick_cut(uploaded(), 0.5)
    headers = [header.value for header in at.header]
    assert "Paired table from the data" in headers and "Mean scores" not in headers


def test_the_cut_is_named_for_what_it_does_and_waits_for_a_threshold():
    # Review 4, B6: the box read "Outcomes are scores" and cut at a default 0.5.
    at = uploaded()
    box = next(c for c in at.checkbox if c.key.startswith("cases_is_score"))
    assert box.label == "Cut scores into pass/fail at a threshold"
    tick_cut(at, None)
    headers = [header.value for header in at.header]
    assert "Paired table from the data" not in headers and "Mean scores" not in headers
    assert any(i.value.startswith("Enter the threshold") for i in at.info)


def test_a_threshold_below_every_score_warns_that_every_case_passes():
    # BLEU-like scores 8 to 48 cut at 0.5: every case passed for both systems, silently.
    rows = [f"q{i},{8 + i},{48 - i}" for i in range(41)]
    at = open_page(PAGE)
    data = ("id,old,new\n" + "\n".join(rows) + "\n").encode()
    at.file_uploader(key=files.UPLOAD_KEYS[0]).set_value(("bleu.csv", data, "text/csv"))
    at.run()
    tick_cut(at, 0.5)
    warnings = [w.value for w in at.warning]
    assert any(
        w.startswith(
            "Every score, from 8 to 48, is at least the threshold 0.5, so every case "
            "passes for both systems"
        )
        for w in warnings
    ), warnings


def test_a_refusal_of_compare_scores_is_shown_naming_the_file_not_raised():
    # A score of 1e308 is beyond what compare_scores takes: the page said so with a traceback.
    at = open_page(PAGE)
    data = b"id,old,new\nq0,0.5,0.25\nq1,1e308,0.5\nq2,0.75,0.5\n"
    at.file_uploader(key=files.UPLOAD_KEYS[0]).set_value(("huge_*x*.csv", data, "text/csv"))
    at.run()
    assert not at.exception, at.exception
    errors = [e.value.replace("\\", "") for e in at.error]  # shown as text: escaped Markdown
    assert any(
        e.startswith("huge_*x*.csv (A = 'old', B = 'new', id = 'id'): A score of 1e+308")
        for e in errors
    ), errors
