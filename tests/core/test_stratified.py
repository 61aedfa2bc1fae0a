"""The task-stratified exact McNemar test is the exact McNemar test of the summed table
(:mod:`calculator.stratified`'s identity): by enumeration of a small two-task example against
the product of the two binomial laws, and as a hypothesis property over random suites.

Reference: the doubled exact p of the summed table is ``calculator.mcnemar.mcnemar_exact``,
itself checked against R's ``binom.test`` (tests/core/test_mcnemar.py).
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.errors import CalculatorError
from calculator.mcnemar import mcnemar_exact
from calculator.stratified import stratified_exact_pvalue, stratified_null, suite_method


def enumerated_pvalue(b: tuple[int, int], m: tuple[int, int], alternative: str) -> float:
    """The stratified p by enumeration of every (b_1, b_2) with its probability
    C(m_1, b_1) C(m_2, b_2) / 2^(m_1 + m_2): the mass of the outcomes whose sum is at least as
    extreme as the one seen, in the direction asked (doubled smaller tail when two-sided)."""
    total = b[0] + b[1]
    lower = upper = 0.0
    for b1, b2 in itertools.product(range(m[0] + 1), range(m[1] + 1)):
        mass = math.comb(m[0], b1) * math.comb(m[1], b2) / 2.0 ** (m[0] + m[1])
        lower += mass if b1 + b2 <= total else 0.0
        upper += mass if b1 + b2 >= total else 0.0
    if alternative == "greater":
        return lower
    if alternative == "less":
        return upper
    return min(1.0, 2.0 * min(lower, upper))


# Two tasks: (b_1, c_1) and (b_2, c_2), with the summed table's (b, c).
TWO_TASKS = [
    ((9, 6), (7, 5)),  # the dummy lm-eval logs' toy_add and toy_mul
    ((5, 0), (0, 3)),  # the tasks lean opposite ways
    ((4, 1), (3, 0)),
    ((0, 0), (2, 7)),  # one task with no discordant question
    ((1, 1), (1, 1)),
]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(("task1", "task2"), TWO_TASKS)
def test_enumeration_equals_the_summed_tables_exact_test(task1, task2, alternative) -> None:
    m = (sum(task1), sum(task2))
    b = (task1[0], task2[0])
    enumerated = enumerated_pvalue(b, m, alternative)
    summed = mcnemar_exact(task1[0] + task2[0], task1[1] + task2[1], alternative=alternative)
    convolved = stratified_exact_pvalue(
        [task1[0], task2[0]], [task1[1], task2[1]], alternative=alternative
    )
    assert enumerated == pytest.approx(summed.pvalue, rel=1e-12, abs=1e-15)
    assert convolved == pytest.approx(summed.pvalue, rel=1e-12, abs=1e-15)


def test_the_null_law_is_binomial_of_the_summed_count() -> None:
    law = stratified_null([3, 4, 0, 2])
    expected = [math.comb(9, k) / 2.0**9 for k in range(10)]
    assert law.tolist() == pytest.approx(expected, rel=1e-12)


@given(
    st.lists(
        st.tuples(st.integers(0, 25), st.integers(0, 25)),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from(["two-sided", "greater", "less"]),
)
def test_stratified_p_is_the_summed_tables_exact_p(tasks, alternative) -> None:
    b = [t[0] for t in tasks]
    c = [t[1] for t in tasks]
    p = stratified_exact_pvalue(b, c, alternative=alternative)
    summed = mcnemar_exact(sum(b), sum(c), alternative=alternative)
    assert 0.0 <= p <= 1.0
    assert p == pytest.approx(summed.pvalue, rel=1e-9, abs=1e-14)


def test_refuses_what_is_not_counts() -> None:
    with pytest.raises(CalculatorError):
        stratified_exact_pvalue([1, -1], [0, 0])
    with pytest.raises(CalculatorError):
        stratified_null([20_001])


@pytest.mark.parametrize(
    ("tasks", "repeats", "code"),
    [
        (1, False, "exact"),
        (1, True, "by-question"),
        (2, False, "stratified"),
        (2, True, "stratified-by-question"),
    ],
)
def test_suite_method(tasks, repeats, code) -> None:
    assert suite_method(tasks, repeats) == code
