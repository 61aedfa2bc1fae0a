"""The calculator page's k x k section under AppTest: its numbers are calculator.square's, its
state is in the URL, and bad input is refused in words.

Reference: Peterson et al. (2007)'s 4 x 4 table, as in tests/core/test_square.py (R package
contingencytables 3.0.0, tests/testthat/test-ch9.R): Bowker 26.250 on 6 df, P = 0.000200;
Stuart-Maxwell 26.250 on 3 df, P = 0.000008; Bhapkar 27.304, P = 0.000005.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl

from streamlit.testing.v1 import AppTest

from calculator.report.square import square_report
from calculator.square import analyze_square
from ui.square_params import SQUARE_DEFAULTS

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PETERSON = [[596, 18, 6, 5], [0, 2, 0, 0], [0, 0, 42, 0], [11, 0, 0, 0]]
PETERSON_TEXT = "596 18 6 5; 0 2 0 0; 0 0 42 0; 11 0 0 0"


def page(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    return at.run()


def shown(at: AppTest) -> str:
    return "\n".join(re.sub(r"\\(.)", r"\1", m.value) for m in at.markdown)


def errors(at: AppTest) -> str:
    return "\n".join(re.sub(r"\\(.)", r"\1", e.value) for e in at.error)


def test_the_section_is_off_by_default_and_computes_nothing():
    at = page()
    assert at.toggle(key="sq").value is False
    assert "Bowker" not in shown(at) and not [n for n in at.number_input if n.key == "sq_0_0"]


def test_the_numbers_on_the_page_are_calculator_square_s_for_peterson_2007():
    at = page(sq="true", sq_counts=PETERSON_TEXT, sq_names="S, I, R, NA")
    assert not at.exception
    expected = square_report(analyze_square(PETERSON, ["S", "I", "R", "NA"]))
    text = shown(at)
    for line in expected.splitlines():
        assert line.strip() in text
    assert (
        "chi-square 26.250 on 6 df" in text and "Stuart-Maxwell chi-square 26.250 on 3 df" in text
    )
    assert "Bhapkar's version chi-square 27.304" in text
    assert at.number_input(key="sq_k").value == 4
    assert at.number_input(key="sq_3_0").value == 11


def test_a_count_typed_in_the_grid_moves_the_url_and_the_results():
    at = page(sq="true", sq_counts=PETERSON_TEXT)
    at.number_input(key="sq_0_1").set_value(20).run()
    assert at.query_params["sq_counts"] == "596 20 6 5; 0 2 0 0; 0 0 42 0; 11 0 0 0"
    table = [[596, 20, 6, 5], *PETERSON[1:]]
    expected = square_report(analyze_square(table)).splitlines()[1]
    assert expected in shown(at)


def test_the_url_state_round_trips_through_the_share_link():
    at = page(sq="true", sq_counts="5 1 0; 2 7 1; 0 1 9", sq_names="x, y, z", sq_ord="true")
    link = next(m.value for m in at.markdown if "sq_counts=" in m.value)
    query = link.rsplit("](", 1)[1].removesuffix(")").split("?", 1)[1]
    assert "sq=true" in query and "sq_counts=5+1+0%3B+2+7+1%3B+0+1+9" in query
    assert "sq_names=x%2C+y%2C+z" in query and "sq_ord=true" in query
    again = page(**dict(parse_qsl(query)))
    assert again.text_input(key="sq_counts").value == "5 1 0; 2 7 1; 0 1 9"
    assert again.text_input(key="sq_names").value == "x, y, z"
    assert "Ordered categories (score test of equal mean scores" in shown(again)


def test_changing_k_pads_the_table_and_the_names():
    at = page(sq="true", sq_names="low, mid, high")
    assert at.text_input(key="sq_counts").value == SQUARE_DEFAULTS["sq_counts"]
    at.number_input(key="sq_k").set_value(4).run()
    assert at.text_input(key="sq_counts").value == "35 5 0 0; 15 20 5 0; 10 5 5 0; 0 0 0 0"
    assert at.text_input(key="sq_names").value == "low, mid, high, 4"
    assert "Neither system put a case in 4, so its difference is 0." in shown(at)


BAD = [
    ("1 2 3; 4 5 6", "`table` must be a square table of counts with 2 to 10 categories"),
    ("1 -2; 3 4", "`table row 1, column 2` must be a non-negative integer"),
    ("1 2.5; 3 4", "but got 2.5."),
    ("; ".join(["1 " * 11] * 11), "with 2 to 10 categories (k rows of k counts), but got 11 rows"),
]


def test_bad_tables_are_refused_in_words():
    for counts, words in BAD:
        at = page(sq="true", sq_counts=counts)
        assert not at.exception, counts
        assert words in errors(at), counts


def test_names_that_do_not_fit_and_a_bad_url_value_are_refused_in_words():
    at = page(sq="true", sq_names="a, b")
    assert "`labels` must be 3 distinct, non-blank names" in errors(at)
    at = page(sq="true", sq_counts="1 2; <b>")
    warned = "\n".join(w.value for w in at.warning)
    assert 'URL parameter "sq\\_counts" must be counts in rows separated by' in warned or (
        'URL parameter "sq_counts" must be counts' in warned
    )
    assert at.text_input(key="sq_counts").value == SQUARE_DEFAULTS["sq_counts"]
