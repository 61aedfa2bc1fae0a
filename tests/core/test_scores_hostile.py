"""compare_scores at the edges of the doubles (issue 23, second round: hangs and silently wrong).

Before: scores from 2^1023 (about 9e307) to the largest double ended in Python's OverflowError
("math range error", an internal error on the command line), because the exact scaling of the
means takes the power of two above the largest score; and differences below the smallest normal
double (subnormals such as 5e-324) gave "a mean difference A - B of 0" beside a sign-flip
permutation test that counted five non-zero cases (p = 0.0625 = 2 / 2^5). Both are refused now,
with the value and the limit. -0.0 is 0 and gives nothing to refuse.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import compare_scores
from calculator.errors import CalculatorError

LARGEST = math.ldexp(1.0, 1023)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([1e308, 1e308], [0.0, 0.0]),
        ([1e308, 1e308], [1e308, 1e308]),  # no difference, but the means overflow the scaling
        ([LARGEST, 1.0, 2.0], [0.0, 0.0, 0.0]),
        ([0.0, 1.0, 2.0], [-np.finfo(float).max, 0.0, 0.0]),
    ],
)
def test_scores_of_2_to_the_1023_or_more_are_refused_naming_the_limit(a, b) -> None:
    with pytest.raises(CalculatorError, match=r"beyond the largest score taken \(8\.99e\+307"):
        compare_scores(a, b)


def test_the_largest_score_below_the_limit_is_analysed() -> None:
    below = math.nextafter(LARGEST, 0.0)
    result = compare_scores([below, below / 2, below / 4], [0.0, 0.0, 0.0])
    assert math.isclose(result.to_dict()["mean_difference"], below / 12 * 7, rel_tol=1e-15)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([5e-324] * 5 + [0.0] * 5, [0.0] * 10),
        ([1e-310, 1.0, 0.5], [0.0, 0.5, 0.5]),
        ([0.0, 0.3], [np.finfo(float).tiny / 2, 0.1]),
    ],
)
def test_subnormal_differences_are_refused(a, b) -> None:
    with pytest.raises(CalculatorError, match=r"below the smallest normal double \(2\.23e-308\)"):
        compare_scores(a, b)


def test_negative_zero_is_zero() -> None:
    plain = compare_scores([0.0, 0.0, 1.0, 0.5], [0.0, 0.0, 0.0, 0.25]).to_dict()
    signed = compare_scores([-0.0, 0.0, 1.0, 0.5], [0.0, -0.0, 0.0, 0.25]).to_dict()
    assert signed["mean_difference"] == plain["mean_difference"] == 0.3125
    assert signed["permutation"] == plain["permutation"]


@given(
    st.lists(
        st.tuples(
            st.floats(allow_nan=False, allow_infinity=False, width=64),
            st.floats(allow_nan=False, allow_infinity=False, width=64),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_any_finite_doubles_give_a_result_or_a_refusal_never_another_exception(pairs) -> None:
    a, b = (list(side) for side in zip(*pairs, strict=True))
    try:
        result = compare_scores(a, b, resamples=1000)
    except CalculatorError:
        return
    assert math.isfinite(result.to_dict()["mean_difference"])
