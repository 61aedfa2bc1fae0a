"""The one p <= alpha rule (calculator.significance) in the teaching code, the planning limits
and the printed p-values (issue 24, item 4 and the review of every sentence).

Reference values: the exact two-sided McNemar p of the split m to 0 is 2 / 2^m (doubling) and
the mid-p value 1 / 2^m (Fagerland, Lydersen & Laake 2013, eq. 2 and 4), so at m = 6 the exact
p is 1/32 = 0.03125 exactly and at m = 5 the mid-p value is 1/32. A level a hair below that
(a relative 5e-10, inside the old 1e-9 tolerance) must not be reached; the level itself must.
"""

from __future__ import annotations

import numpy as np

from calculator.mcnemar import mcnemar_exact
from calculator.rejection import rejection_limits
from calculator.report.formatting import format_p_equals, format_pvalue
from calculator.teaching import null_distribution
from ui.teaching_words import null_summary

TIE = 1 / 32
HAIR_BELOW = TIE * (1 - 5e-10)


def test_rejection_limits_reach_a_tie_but_not_a_hair_below_it():
    assert rejection_limits(np.array([6]), "exact", TIE).tolist() == [0]
    assert rejection_limits(np.array([6]), "exact", HAIR_BELOW).tolist() == [-1]
    assert rejection_limits(np.array([5]), "mid-p", TIE).tolist() == [0]
    assert rejection_limits(np.array([5]), "mid-p", HAIR_BELOW).tolist() == [-1]


def test_null_distribution_decides_by_the_one_rule():
    at_tie = null_distribution(6, 6, alpha=TIE)
    assert at_tie.reachable and at_tie.rejection_limit == 0 and at_tie.size == TIE
    below = null_distribution(6, 6, alpha=HAIR_BELOW)
    assert not below.reachable and below.rejection_limit == -1 and below.size == 0.0
    assert "no result can reach" in " ".join(null_summary(below))


def test_an_exact_p_equal_to_alpha_prints_as_alpha_not_above_it():
    exact = mcnemar_exact(6, 0)
    assert exact.pvalue == TIE  # the rational 1/32 (review 4, C3); the log sum was a few ulps above
    # A p a few ulps above alpha still prints as alpha.
    assert format_p_equals(0.031250000000000014, exact.log10_pvalue, alpha=TIE) == "p = 0.03125"
    assert format_p_equals(exact.pvalue, exact.log10_pvalue, alpha=TIE) == "p = 0.03125"
    assert format_pvalue(0.0312, alpha=0.0312) == "0.0312"
    summary = " ".join(null_summary(null_distribution(6, 6, alpha=TIE)))
    assert "gives p = 0.03125." in summary
    assert "false-alarm rate is 3.125%, equal to the nominal α = 0.03125" in summary
