"""The paired table: validation of counts, and the three ways of building it."""

import json
import math

import numpy as np
import pytest

import calculator.table
from calculator import PairedTable, analyze, both_pass_sweep, mcnemar_exact
from calculator.table import MAX_COUNT, check_count, check_probability


@pytest.mark.parametrize("value", [0, 7, np.int64(7), np.uint8(7), 7.0, np.float64(7.0), 10**9])
def test_check_count_accepts_whole_numbers(value):
    assert check_count(value, "a") == int(value)
    assert type(check_count(value, "a")) is int


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (True, TypeError),
        (np.bool_(True), TypeError),
        ("3", TypeError),
        (None, TypeError),
        (2.5, ValueError),
        (-1, ValueError),
        (-1.0, ValueError),
        (math.nan, ValueError),
        (math.inf, ValueError),
    ],
)
def test_check_count_rejects_with_a_message_naming_cell_and_value(value, error):
    with pytest.raises(error) as caught:
        check_count(value, "c")
    message = str(caught.value)
    assert message.startswith("`c` must be a non-negative integer, but got ")
    assert repr(value) in message


def test_table_rejects_each_cell_by_name():
    for position, name in enumerate("abcd"):
        cells = [1, 1, 1, 1]
        cells[position] = -3
        with pytest.raises(
            ValueError, match=f"`{name}` must be a non-negative integer, but got -3"
        ):
            PairedTable(*cells)


def test_table_normalises_integral_floats_and_numpy_integers():
    table = PairedTable(3.0, np.int32(4), 5, np.int64(6))
    assert (table.a, table.b, table.c, table.d) == (3, 4, 5, 6)
    assert all(type(v) is int for v in (table.a, table.b, table.c, table.d))


def test_table_derived_quantities_on_the_seed_page_example():
    # Seed calculator page: "A passes 75 of 100 tasks, B passes 65", difference +10.0 pts.
    table = PairedTable(60, 15, 5, 20)
    assert (table.n, table.discordant) == (100, 20)
    assert (table.pass_rate_a, table.pass_rate_b) == (0.75, 0.65)
    assert table.difference == pytest.approx(0.10)


def test_rates_need_at_least_one_case():
    empty = PairedTable(0, 0, 0, 0)
    assert empty.n == 0
    with pytest.raises(ValueError, match="empty"):
        _ = empty.pass_rate_a


def test_table_is_frozen():
    table = PairedTable(1, 2, 3, 4)
    with pytest.raises(AttributeError):
        table.a = 5


def test_from_outcomes_tabulates_each_combination():
    a_pass = [True, True, True, False, False, np.bool_(False), 1, 0]
    b_pass = [True, False, False, True, False, np.bool_(False), 1, 1]
    assert PairedTable.from_outcomes(a_pass, b_pass) == PairedTable(2, 2, 2, 2)


def test_from_outcomes_rejects_unequal_lengths_and_non_booleans():
    with pytest.raises(ValueError, match="same length.*3 and 2"):
        PairedTable.from_outcomes([True] * 3, [True] * 2)
    with pytest.raises(ValueError, match="item 1 is 'yes'"):
        PairedTable.from_outcomes([True, "yes"], [True, True])
    with pytest.raises(ValueError, match="item 0 is 2"):
        PairedTable.from_outcomes([True], [2])


def test_classifier_framing_maps_cells_as_methods_says():
    # The classifier-comparison tutorial's errors framing: both correct -> a, both wrong -> d, only
    # A wrong -> c, only B wrong -> b.
    # The tutorial's example: 72 both right, 8 both wrong, 14 only A wrong, 6 only B wrong.
    table = PairedTable.from_errors(both_right=72, both_wrong=8, only_a_wrong=14, only_b_wrong=6)
    assert table == PairedTable(72, 6, 14, 8)
    # Error rates 0.22 vs 0.14 in the seed: R_A - R_B = -(pass-rate difference).
    assert 1 - table.pass_rate_a == pytest.approx(0.22)
    assert 1 - table.pass_rate_b == pytest.approx(0.14)
    assert -table.difference == pytest.approx(0.08)


def test_from_correctness_is_from_outcomes():
    correct_a = [True, False, False, True]
    correct_b = [True, True, False, False]
    assert PairedTable.from_correctness(correct_a, correct_b) == PairedTable(1, 1, 1, 1)


def test_from_errors_names_the_bad_count():
    with pytest.raises(ValueError, match="`only_a_wrong`"):
        PairedTable.from_errors(both_right=1, both_wrong=1, only_a_wrong=-1, only_b_wrong=1)


@pytest.mark.parametrize("value", [0, 1, 1.5, -0.1, math.nan, math.inf])
def test_check_probability_rejects_outside_open_unit_interval(value):
    with pytest.raises(ValueError, match="`level` must be a number strictly between 0 and 1"):
        check_probability(value, "level")


def test_check_probability_closed_interval_and_types():
    assert check_probability(0, "rho", open_interval=False) == 0.0
    assert check_probability(1, "rho", open_interval=False) == 1.0
    with pytest.raises(TypeError):
        check_probability("0.5", "alpha")
    with pytest.raises(TypeError):
        check_probability(True, "alpha")


# --- the bound on counts (issue 16, item 9) -----------------------------------------------------
# Counts of 10^16 to 10^400 once raised OverflowError or MemoryError, and 10^307 printed NaN into
# JSON. Every cell is bounded by MAX_COUNT = 10^12, and a larger count is a ValueError naming it.

HUGE_COUNTS = [
    (10**12 + 1, "1000000000001"),
    (10**16, "10000000000000000"),
    (1e307, "1e+307"),
    (10**400, "an integer of 401 digits"),
    (10**5000, "an integer of about 5,000 digits"),  # str() of it would raise
]


@pytest.mark.parametrize(
    ("value", "shown"), HUGE_COUNTS, ids=["1e12+1", "1e16", "1e307", "1e400", "1e5000"]
)
def test_counts_beyond_the_bound_are_refused_naming_it(value, shown):
    expected = (
        f"`b` must be a non-negative integer of at most 1,000,000,000,000 (10^12), but got {shown}."
    )
    with pytest.raises(ValueError) as caught:
        PairedTable(1, value, 1, 1)
    assert str(caught.value) == expected
    with pytest.raises(ValueError, match=r"at most 1,000,000,000,000 \(10\^12\)"):
        analyze(1, value, 1, 1)
    with pytest.raises(ValueError, match=r"\(10\^12\)"):
        mcnemar_exact(value, 1)
    with pytest.raises(ValueError, match=r"\(10\^12\)"):
        both_pass_sweep([0, 1], value, 1, 1)
    # In the swept both-pass counts a number too large for numpy is a TypeError.
    with pytest.raises((TypeError, ValueError), match="`a_values` must"):
        both_pass_sweep([0, value], 1, 1, 1)


def test_counts_at_the_bound_give_finite_strict_json():
    # Exactness up to the bound: b - c and n are exact floats, and the exact p-value at b = c
    # is 1 (the doubled tail of a symmetric binomial at its centre, capped at 1).
    result = analyze(MAX_COUNT, MAX_COUNT, MAX_COUNT, MAX_COUNT)
    json.dumps(result.to_dict(), allow_nan=False)
    assert result.exact.pvalue == 1.0
    assert PairedTable(MAX_COUNT, 0, 0, 0).n == MAX_COUNT


def test_the_bound_is_one_constant_shared_by_table_and_validation():
    assert MAX_COUNT == calculator.table.MAX_COUNT == 10**12
    assert check_count(MAX_COUNT, "a") == MAX_COUNT
    assert check_count(10**15, "seed", maximum=None) == 10**15
