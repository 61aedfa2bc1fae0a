"""Numbers for reading: no non-zero value printed as zero, no lost minus sign, no p-value printed
on the wrong side of alpha, counts that agree with their nouns."""

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import analyze, difference_interval
from calculator.report.formatting import (
    format_confidence,
    format_level,
    format_p_equals,
    format_percent,
    format_points,
    format_pvalue,
    format_ratio,
    plural,
)
from calculator.report.words import text

# --- The cases issue 11 names (each printed wrongly by the one-decimal formatting before).


def test_newcombe_upper_limit_below_zero_keeps_its_sign_at_70_4_12_14():
    ci = difference_interval(70, 4, 12, 14, method="newcombe")
    assert -1e-4 < ci.high < 0  # the interval excludes 0, by about 0.00006
    text = format_points(ci.high)
    assert text.startswith("-") and float(text) < 0
    assert text == "-0.006"


def test_a_million_to_three_prints_no_zero_width_interval_and_no_hundred_percent():
    result = analyze(1_000_000, 3, 0, 0)
    low, high = format_points(result.difference.low), format_points(result.difference.high)
    assert float(low) != 0 and float(high) != 0
    assert "+0.0 to +0.0" not in text(result)
    assert format_percent(result.table.pass_rate_b) == "99.9997%"
    assert "(99.9997%)" in text(result)  # B; A passes all 1,000,003 and reads 100.0%
    assert text(result).count("100.0%") == 1


def test_old_formatting_would_have_printed_plus_zero():
    # The one-decimal rule printed "+0.0" for these; the adaptive rule shows the first digit.
    assert format_points(-0.00006) == "-0.006"
    assert format_points(0.000003) == "+0.0003"


@pytest.mark.parametrize(
    ("fraction", "text"),
    [(1.0, "100.0%"), (0.0, "0.0%"), (0.265, "26.5%"), (0.9995, "99.95%"), (1e-5, "0.001%")],
)
def test_rates_read_100_or_0_only_when_exact(fraction, text):
    assert format_percent(fraction) == text


@pytest.mark.parametrize(
    ("fraction", "text"),
    [(0.0, "0.0"), (1.0, "+100.0"), (-1.0, "-100.0"), (0.999996, "+99.9996"), (0.1, "+10.0")],
)
def test_points_read_zero_or_100_only_when_exact(fraction, text):
    assert format_points(fraction) == text


def test_p_values_near_alpha_get_three_significant_figures():
    # Both read "0.050" with three decimals; side by side they must differ, each on its side.
    assert format_pvalue(0.0498, alpha=0.05) == "0.0498"
    assert format_pvalue(0.0501, alpha=0.05) == "0.0501"
    assert format_pvalue(0.0498) == "0.050"  # without alpha, three decimals as before


def test_p_value_a_hair_from_alpha_is_never_printed_as_alpha():
    assert float(format_pvalue(0.0499996, alpha=0.05)) < 0.05
    assert float(format_pvalue(0.0500004, alpha=0.05)) > 0.05
    assert format_pvalue(0.05, alpha=0.05) == "0.0500"


def test_p_value_below_one_never_reads_one():
    assert format_pvalue(0.99996) == "> 0.999"
    assert format_p_equals(0.99996) == "p > 0.999"
    assert format_pvalue(1.0) == "1"


def test_per_gate_levels_keep_three_significant_figures():
    assert format_level(0.0002) == "0.000200"
    assert format_level(0.000201) == "0.000201"
    assert format_level(0.05 / 6) == "0.00833"


@pytest.mark.parametrize(
    ("count", "noun", "text"),
    [(1, "case", "1 case"), (2, "case", "2 cases"), (0, "case", "0 cases")]
    + [(1, "discordant pair", "1 discordant pair"), (12_345, "case", "12,345 cases")],
)
def test_plural_agrees_in_number(count, noun, text):
    assert plural(count, noun) == text


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_formatting_refuses_nan_and_inf(bad):
    with pytest.raises(ValueError, match="finite"):
        format_points(bad)
    with pytest.raises(ValueError, match="finite"):
        format_percent(bad)
    with pytest.raises(ValueError):
        format_pvalue(bad)


# --- Properties over the whole range.

nonzero = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False).filter(lambda x: x != 0)


@given(nonzero)
def test_points_parse_back_with_the_same_sign_and_never_zero(fraction):
    text = format_points(fraction)
    parsed = float(text)
    assert parsed != 0
    assert math.copysign(1, parsed) == math.copysign(1, fraction)
    assert text[0] in "+-"


@given(st.floats(min_value=0.0, max_value=1.0, allow_nan=False))
def test_percent_never_reads_0_or_100_unless_exact(fraction):
    parsed = float(format_percent(fraction).rstrip("%"))
    assert (parsed == 0) == (fraction == 0)
    assert (parsed == 100) == (fraction == 1)


@given(
    st.floats(min_value=1e-12, max_value=1.0, allow_nan=False, exclude_max=True),
    st.sampled_from([0.05, 0.01, 0.001, 0.1, 0.05 / 6, 0.0002]),
)
def test_pvalue_parsed_back_lies_on_the_same_side_of_alpha(pvalue, alpha):
    text = format_pvalue(pvalue, alpha=alpha)
    if text.startswith(">"):
        assert pvalue > 0.999
        return
    parsed = float(text)
    assert parsed != 0
    assert (parsed <= alpha) == (pvalue <= alpha)
    assert parsed != alpha or pvalue == alpha
    if alpha / 1.2 <= pvalue <= alpha * 1.2:
        digits = re.sub(r"e.*$", "", text).replace(".", "").lstrip("0")
        assert len(digits) >= 3, text


@given(st.floats(min_value=0.0, max_value=1e12, allow_nan=False))
def test_ratio_parsed_back_keeps_its_side_of_one(value):
    parsed = float(format_ratio(value))
    assert (parsed < 1) == (value < 1) and (parsed > 1) == (value > 1)
    assert (parsed == 0) == (value == 0)


def test_ratio_limit_just_below_one_does_not_read_one():
    # The mid-p odds-ratio interval at 70/4/12/14 ends at 0.9957: three figures would give 0.996,
    # still below 1; a limit of 0.99957 would read "1.00" and look as if it touched 1.
    assert format_ratio(0.99957) == "0.9996"
    assert format_ratio(float("inf")) == "∞"


# --- confidence levels: never "100%" for a level below 1 (a CLI finding: --level 0.9999999999999999
# printed "100% CI"), never scientific notation ("1e-298% CI" for --level 1e-300).


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (0.95, "95%"),
        (0.9, "90%"),
        (0.999, "99.9%"),
        (0.5, "50%"),
        (0.9999999999999999, "99.99999999999999%"),
    ],
)
def test_confidence_level_reads_as_a_plain_percentage(level: float, expected: str) -> None:
    assert format_confidence(level) == expected


@given(st.floats(min_value=1e-12, max_value=1.0, exclude_max=True))
def test_confidence_level_below_one_never_reads_as_100_or_0(level: float) -> None:
    text = format_confidence(level)
    assert text.endswith("%") and "e" not in text
    shown = float(text[:-1])
    assert 0.0 < shown < 100.0
