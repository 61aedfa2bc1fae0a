"""Per-case input: how each outcome cell reads (pass, fail, missing or unparseable).

Every accepted spelling in any case and spacing, typed columns, scores with and without a
threshold, and the invariant that each value is exactly one of the four. Split from
test_cases.py (files, joins and exclusions), whose expected values are worked out the same way:
by hand from the small inputs written in each test.
"""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.cases import FAIL_WORDS, PASS_WORDS, parse_outcomes

SPELLINGS = [
    *((word, True) for word in PASS_WORDS),
    *((word, False) for word in FAIL_WORDS),
    ("1", True),
    ("0", False),
    ("1.0", True),
    ("0.0", False),
]


@pytest.mark.parametrize(("word", "expected"), SPELLINGS)
@pytest.mark.parametrize("dress", [str.lower, str.upper, str.title, lambda w: f"  {w}\t"])
def test_every_spelling_in_any_case_and_spacing(word, expected, dress):
    parsed = parse_outcomes([dress(word)])
    assert parsed.passed.tolist() == [expected]
    assert not parsed.missing[0] and not parsed.unparseable[0]


def test_the_documented_spellings_are_all_accepted():
    # The spellings the README lists: 1/0, true/false, pass/fail, yes/no, correct/wrong.
    parsed = parse_outcomes(
        ["1", "true", "pass", "yes", "correct", "0", "false", "fail", "no", "wrong"]
    )
    assert parsed.passed.tolist() == [True] * 5 + [False] * 5
    assert not parsed.unparseable.any()


@pytest.mark.parametrize(
    ("values", "passed"),
    [
        (pd.Series([True, False]), [True, False]),
        (pd.Series([1, 0]), [True, False]),
        (pd.Series([1.0, 0.0]), [True, False]),
        (pd.Series([True, None], dtype="boolean"), [True, False]),
        (pd.Series([True, "fail", 1, 0.0], dtype=object), [True, False, True, False]),
    ],
)
def test_typed_columns(values, passed):
    assert parse_outcomes(values).passed.tolist() == passed


def test_missing_and_blank_values_are_missing_not_unparseable():
    parsed = parse_outcomes(["", "   ", None, float("nan"), "pass"])
    assert parsed.missing.tolist() == [True, True, True, True, False]
    assert not parsed.unparseable.any()


@pytest.mark.parametrize("value", ["maybe", "2", "0.5", "passs", "-1", "nan", "[1]"])
def test_other_values_are_unparseable_without_threshold(value):
    parsed = parse_outcomes([value])
    assert parsed.unparseable.tolist() == [True]
    assert parsed.passed.tolist() == [False]


def test_scores_with_threshold_pass_at_or_above():
    parsed = parse_outcomes([0.2, 0.5, 0.9, None, "0.7", " 1e-3 "], threshold=0.5)
    assert parsed.passed.tolist() == [False, True, True, False, True, False]
    assert parsed.missing.tolist() == [False, False, False, True, False, False]


def test_words_are_unparseable_when_a_threshold_is_set():
    assert parse_outcomes(["pass", "0.9"], threshold=0.5).unparseable.tolist() == [True, False]


def test_scores_without_threshold_are_unparseable_unless_zero_or_one():
    assert parse_outcomes([0.3, 1.0, 0.0]).unparseable.tolist() == [True, False, False]


@pytest.mark.parametrize(
    ("threshold", "error"),
    [("0.5", TypeError), (True, TypeError), (float("nan"), ValueError), (float("inf"), ValueError)],
)
def test_bad_threshold(threshold, error):
    with pytest.raises(error, match="threshold"):
        parse_outcomes([1], threshold=threshold)


@given(st.lists(st.sampled_from([*PASS_WORDS, *FAIL_WORDS, "1", "0", "x", "", None]), max_size=40))
def test_every_value_is_exactly_one_of_pass_fail_missing_unparseable(values):
    parsed = parse_outcomes(values)
    failed = ~parsed.passed & ~parsed.missing & ~parsed.unparseable
    total = parsed.passed.astype(int) + parsed.missing + parsed.unparseable + failed
    assert (total == 1).all()
