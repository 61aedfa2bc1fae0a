"""What pairing buys (calculator.teaching.margin_sweep).

Provenance of the reference values:

- The original calculator page's table 60, 15, 5, 20, as that page prints it: exact p 0.041 and
  unpaired p 0.123 at the entered table.
- Hand arithmetic: A passes 75 of 100 and B 65, so the both-pass count runs from 75 + 65 - 100
  = 40 to min(75, 65) = 65; at a = 65 the table is 65, 10, 0, 25 and the exact p is
  2 * 2^-10 = 0.001953125.
- Every p-value against calculator.mcnemar_exact and calculator.unpaired_z_test table by table.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import mcnemar_exact, unpaired_z_test
from calculator.teaching import margin_sweep
from calculator.teaching.margin_sweep import MAX_SWEEP_POINTS


def test_seed_table_and_the_ends_of_its_sweep() -> None:
    sweep = margin_sweep(60, 15, 5, 20, points=101)
    assert (sweep.a[0], sweep.a[-1]) == (40, 65)
    assert sweep.a == tuple(range(40, 66))  # 26 tables, fewer than 101: all of them
    i = sweep.entered_index
    assert (sweep.a[i], sweep.b[i], sweep.c[i], sweep.d[i]) == (60, 15, 5, 20)
    assert round(sweep.exact_pvalue[i], 3) == 0.041
    assert round(sweep.unpaired_pvalue[i], 3) == 0.123
    assert (sweep.b[-1], sweep.c[-1], sweep.d[-1]) == (10, 0, 25)
    assert sweep.exact_pvalue[-1] == pytest.approx(2 * 2**-10, rel=1e-12)


def test_negative_correlation_favours_the_unpaired_test_and_agreement_the_paired_one() -> None:
    sweep = margin_sweep(60, 15, 5, 20)
    assert sweep.exact_pvalue[0] > sweep.unpaired_pvalue[0]
    assert sweep.exact_pvalue[-1] < sweep.unpaired_pvalue[-1]


def test_pvalues_match_the_core_tests_table_by_table() -> None:
    sweep = margin_sweep(30, 12, 4, 54, points=7, convention="mid-p")
    for a, b, c, d, exact, unpaired in zip(
        sweep.a, sweep.b, sweep.c, sweep.d, sweep.exact_pvalue, sweep.unpaired_pvalue, strict=True
    ):
        assert exact == mcnemar_exact(b, c, convention="mid-p").pvalue
        assert unpaired == pytest.approx(unpaired_z_test(a, b, c, d).pvalue, rel=1e-12)


def test_large_counts_are_subsampled_with_both_ends_and_the_entered_table() -> None:
    sweep = margin_sweep(10**8 + 3, 10**6, 2 * 10**6, 5 * 10**7, points=50)
    assert len(sweep.a) <= 51
    assert sweep.a[sweep.entered_index] == 10**8 + 3
    assert sweep.a[0] == max(0, (10**8 + 3 + 10**6) + (10**8 + 3 + 2 * 10**6) - sweep_n(sweep))
    assert json.loads(json.dumps(sweep.to_dict(), allow_nan=False))["entered_index"] >= 0


def sweep_n(sweep) -> int:
    return sweep.a[0] + sweep.b[0] + sweep.c[0] + sweep.d[0]


@pytest.mark.parametrize(
    ("args", "kwargs", "error"),
    [
        ((0, 0, 0, 0), {}, ValueError),
        ((1, 2, 3, -4), {}, ValueError),
        ((1, 2, 3, "4"), {}, TypeError),
        ((1, 2, 3, 4), {"points": 1}, ValueError),
        ((1, 2, 3, 4), {"points": MAX_SWEEP_POINTS + 1}, ValueError),
        ((1, 2, 3, 4), {"convention": "central"}, ValueError),
    ],
)
def test_bad_input_is_refused(args, kwargs, error) -> None:
    with pytest.raises(error):
        margin_sweep(*args, **kwargs)


counts = st.integers(min_value=0, max_value=10**6)


@given(a=counts, b=counts, c=counts, d=counts, points=st.integers(2, 300))
def test_sweep_keeps_both_pass_rates_and_orders_agreement(a, b, c, d, points) -> None:
    if a + b + c + d == 0:
        return
    sweep = margin_sweep(a, b, c, d, points)
    n = a + b + c + d
    for a2, b2, c2, d2 in zip(sweep.a, sweep.b, sweep.c, sweep.d, strict=True):
        assert min(a2, b2, c2, d2) >= 0
        assert (a2 + b2, a2 + c2, a2 + b2 + c2 + d2) == (a + b, a + c, n)
    assert list(sweep.agreement) == sorted(sweep.agreement)
    assert len(sweep.a) <= points + 1
    assert sweep.a[sweep.entered_index] == a
    # Both ends of the feasible range are in the sweep.
    assert sweep.a[0] == max(0, (a + b) + (a + c) - n)
    assert sweep.a[-1] == min(a + b, a + c)
    # More agreement, fewer discordant pairs with the same gap: the exact p never rises.
    pvalues = sweep.exact_pvalue
    assert all(q <= p * (1 + 1e-12) for p, q in zip(pvalues, pvalues[1:], strict=False))
    assert len(set(sweep.unpaired_pvalue)) == 1
