"""Properties of the bulk rule (calculator.cases.bulk, issue #31): the reading chosen keeps at
least as many rows as the other; a column of 0 and 1 only is pass/fail; the counts are bounded
by the rows holding an outcome; the reading is clear exactly when it keeps 95% of them."""

from __future__ import annotations

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from calculator.cases.bulk import MIN_SHARE, PASS_FAIL, SCORES, bulk_reading

CELLS = st.one_of(
    st.sampled_from(["pass", "fail", "Yes", " no ", "correct", "1", "0", "1.0", "", "maybe"]),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(["0.5", "0.83", "12", "-3", "inf", "n/a?"]),
)
ZERO_ONE = st.sampled_from([0, 1, 0.0, 1.0, "0", "1", "1.0", " 0 ", None, ""])


def columns(cells, size):
    return st.lists(cells, min_size=size, max_size=size).map(lambda v: pd.Series(v, dtype=object))


@st.composite
def files(draw, cells=CELLS):
    drawn = []
    for _ in range(draw(st.integers(1, 2))):
        size = draw(st.integers(0, 30))
        width = draw(st.integers(1, 3))
        drawn.append([draw(columns(cells, size)) for _ in range(width)])
    return drawn


@given(files())
def test_the_chosen_reading_keeps_at_least_as_many_rows_as_the_other(drawn):
    reading = bulk_reading(drawn)
    assert reading.kept == max(reading.pass_fail, reading.scores)
    other = reading.scores if reading.kind == PASS_FAIL else reading.pass_fail
    assert reading.kept >= other
    assert 0 <= reading.pass_fail <= reading.rows and 0 <= reading.scores <= reading.rows
    assert reading.clear == (reading.kept >= MIN_SHARE * reading.rows)
    if reading.kind == SCORES:
        assert reading.scores > reading.pass_fail  # pass/fail on a tie


@given(files(ZERO_ONE))
def test_a_column_of_0_and_1_only_is_pass_fail(drawn):
    reading = bulk_reading(drawn)
    assert reading.kind == PASS_FAIL and reading.clear
    assert reading.pass_fail == reading.scores == reading.rows


@given(st.lists(st.sampled_from([0, 1]), min_size=1, max_size=50))
def test_a_numeric_column_of_0_and_1_is_pass_fail(values):
    assert bulk_reading([[pd.Series(values)]]).kind == PASS_FAIL


@given(st.integers(1, 60), st.integers(0, 60))
def test_one_reading_per_row_counts_rows_not_cells(words, numbers):
    a = pd.Series(["pass"] * words + ["0.5"] * numbers)
    b = pd.Series(["0.25"] * (words + numbers))  # every row of B is a number
    reading = bulk_reading([[a, b]])
    assert (reading.rows, reading.pass_fail, reading.scores) == (words + numbers, 0, numbers)
