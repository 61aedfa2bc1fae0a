"""The several-systems page preselects the columns the command line guesses (issue 23, item 4):
one guess, :func:`calculator.cases.columns.guess_outcomes`, for both.

Before: the long layout preselected the last guessed outcome column where `compare` takes the
first, and the wide layout preselected every 0/1 column as a system, a 0/1 feature included.
"""

from __future__ import annotations

from apptest_pages import open_page
from streamlit.testing.v1 import AppTest

from calculator.cases.multi import load_systems
from ui import compare_words as words

PAGE = "app_pages/cases.py"
LONG = b"id,system,is_refusal,exact_match\n1,a,0,1\n1,b,1,0\n1,c,0,1\n2,a,0,0\n2,b,0,1\n2,c,1,1\n"


def upload(name: str, data: bytes) -> AppTest:
    at = open_page(PAGE)
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    at.file_uploader(key="compare_upload").set_value([(name, data, "text/csv")]).run()
    assert not at.exception, at.exception
    return at


def test_the_long_layout_preselects_the_outcome_column_the_command_line_takes():
    at = upload("long.csv", LONG)
    at.radio(key="compare_layout").set_value("long").run()
    assert not at.exception, at.exception
    cli = load_systems(LONG, system_column="system", file_names=["long.csv"])
    assert cli.outcome_columns == ("exact_match",)
    assert at.selectbox(key="compare_outcome").value == "exact_match"
    assert at.selectbox(key="compare_system").value == "system"


def test_the_wide_layout_preselects_no_system_when_a_feature_is_beside_them():
    # Held-out variant: a 0/1 feature and a text column beside three systems.
    data = b"id,question,has_image,x,y,z\nq1,a,1,1,0,1\nq2,b,0,0,0,1\nq3,c,1,1,1,0\n"
    at = upload("wide.csv", data)
    assert at.multiselect(key="compare_columns").value == []
    assert words.CHOOSE_SYSTEMS in [info.value for info in at.info]
    at.multiselect(key="compare_columns").set_value(["x", "y", "z"]).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="compare_id").value == "id"
