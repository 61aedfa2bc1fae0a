"""The paired table: validation of counts, and the three ways of building it."""

import math

import numpy as np
import pytest

from calculator import PairedTable, check_count, check_probability


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
    # METHODS.md: both correct -> a, both wrong -> d, only A wrong -> c, only B wrong -> b.
    # Seed tutorial example: 72 both right, 8 both wrong, 14 only A wrong, 6 only B wrong.
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
