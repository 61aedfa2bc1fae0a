"""Exact McNemar p-values of small m come out as the rationals they are (review 4, C3).

``table 3 6 0 0 --alpha 0.03125 --json`` gave ``decision.pvalue`` 0.03125 beside
``mcnemar_exact.pvalue`` 0.031250000000000014 and ``gates.false_alarm`` 0.031249999999999997;
the logs ``fourA``/``fourB`` gave ``decision.pvalue`` 0.12500000000000003. The exact binomial
tails are k/2^m: summed in integers and rounded once they are the float nearest the rational,
which fractions.Fraction gives independently here (the binomial coefficients by math.comb).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.cli import main
from calculator.gates import false_alarm_rate, gate_rates
from calculator.mcnemar import mcnemar_exact


def _tail(k: int, m: int) -> Fraction:
    """P[T <= k] for T ~ Binomial(m, 1/2), as a fraction."""
    return Fraction(sum(math.comb(m, j) for j in range(k + 1)), 2**m)


def _reference(b: int, c: int, convention: str, alternative: str) -> Fraction:
    m = b + c
    if m == 0:
        return Fraction(1)
    if alternative != "two-sided":
        k = b if alternative == "greater" else c
        point = Fraction(math.comb(m, k), 2**m)
        return _tail(k, m) - (point / 2 if convention == "mid-p" else 0)
    k = min(b, c)
    if convention == "doubling":
        return min(Fraction(1), 2 * _tail(k, m))
    point = Fraction(math.comb(m, k), 2**m)
    if b == c:  # the mid-p at the centre: 1 - P[T = k]/2 (Fagerland et al. 2013)
        return 1 - point / 2
    return 2 * _tail(k, m) - point


@settings(max_examples=300, deadline=None)
@given(
    b=st.integers(0, 40),
    c=st.integers(0, 40),
    convention=st.sampled_from(["doubling", "mid-p"]),
    alternative=st.sampled_from(["two-sided", "greater", "less"]),
)
def test_the_exact_p_is_the_float_nearest_its_rational(b, c, convention, alternative):
    result = mcnemar_exact(b, c, convention=convention, alternative=alternative)
    exact = _reference(b, c, convention, alternative)
    assert result.pvalue == float(exact)
    assert result.log10_pvalue == pytest.approx(math.log10(exact), abs=1e-13)


@pytest.mark.parametrize(("b", "c"), [(6, 0), (0, 5), (4, 0), (30, 30), (2, 58)])
def test_small_tables_print_their_p_exactly(b, c):
    assert mcnemar_exact(b, c).pvalue == float(_reference(b, c, "doubling", "two-sided"))


def test_above_the_integer_sums_the_log_path_agrees():
    # m = 201 is summed in logs; the rational is the reference to 1e-12 relative.
    result = mcnemar_exact(90, 111)
    assert result.pvalue == pytest.approx(float(_reference(90, 111, "doubling", "two-sided")))


def test_one_gate_fires_at_its_own_alpha_exactly():
    assert false_alarm_rate(1, 0.03125) == 0.03125
    assert false_alarm_rate(1, 0.05, rho=0.5) == 0.05
    gates = gate_rates(1, 0.03125)
    assert gates.false_alarm == 0.03125 and gates.sidak_alpha == 0.03125


def test_the_json_has_no_float_noise(capsys):
    assert main(["table", "3", "6", "0", "0", "--alpha", "0.03125", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decision"]["pvalue"] == 0.03125
    assert data["mcnemar_exact"]["pvalue"] == 0.03125
    assert data["mcnemar_mid_p"]["pvalue"] == 0.015625
    assert data["gates"]["false_alarm"] == 0.03125
