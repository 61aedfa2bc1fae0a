"""The sentences the core writes say what was computed.

A test is named for what it is (a one-sided exact p is not "doubled", a mid-p is not exact), a
limit is not rounded to a number it is not (-0.000692 points is not printed as -0.001), every
sentence has a verb, and p = 1 without discordant pairs is no evidence, not "no difference".

Reference values: the Agresti-Min interval of 1,000,000/3/0/0 for pA - pB is
(-9.2e-7, 6.92e-6) as a fraction (adds 1/2 to every cell; Agresti & Min 2005), from -0.000092
to +0.000692 points; the report prints these as -0.00009 and +0.0007.
"""

from __future__ import annotations

import re

import pytest

from calculator import analyze
from calculator.report.decision import named_test
from calculator.report.formatting import limit_points
from calculator.report.words import text


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_exact_test_is_not_called_doubled(alternative):
    decision = analyze(70, 4, 12, 14, alternative=alternative).decision
    assert named_test(decision) == "one-sided exact McNemar test"
    assert "doubled" not in text(decision)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_mid_p_decision_is_never_called_exact(alternative):
    decision = analyze(70, 4, 12, 14, alternative=alternative, convention="mid-p").decision
    assert "exact" not in named_test(decision)
    assert "mid-p" in named_test(decision)
    assert "exact McNemar" not in text(decision)


def test_two_sided_doubling_still_names_its_rule():
    assert (
        named_test(analyze(70, 4, 12, 14).decision) == "two-sided exact McNemar test, doubled tail"
    )


def test_decision_limits_read_as_the_report_prints_them():
    # The two-sided decision quotes the report's own 95% interval (a one-sided one quotes its
    # 90% interval, the decision's level).
    analysis = analyze(1_000_000, 3, 0, 0)
    sentence = text(analysis.decision)
    # Since issue 30 the decision's interval is A - B, as the report's own line.
    assert "-0.00009 to +0.0007 points" in sentence
    assert "+0.001" not in sentence  # +0.000692 is not +0.001
    assert "-0.00009 to +0.0007" in text(analysis)


@pytest.mark.parametrize(
    ("value", "bounds", "expected"),
    [
        (-6.919888959735913e-06, [], "-0.0007"),
        (9.19918959585914e-07, [], "+0.00009"),
        (-0.0099996, [-0.01, 0.01], "-0.99996"),  # kept off the margin
        (0.1234, [], "+12.3"),
    ],
)
def test_limit_points_first_digit_then_more_only_if_a_side_needs_it(value, bounds, expected):
    assert limit_points(value, bounds) == expected


@pytest.mark.parametrize(
    ("table", "alternative"),
    [((5, 1, 0, 5), "greater"), ((10, 5, 5, 10), "two-sided"), ((70, 4, 12, 14), "less")],
)
def test_non_significant_sentence_is_a_sentence(table, alternative):
    sentence = text(analyze(*table, alternative=alternative).decision)
    # The interval clause has its verb: "..., -28.6 to +13.2 points, gives ...".
    assert re.search(r"points, gives the differences the data still allow\.", sentence)
    assert not sentence.rstrip().endswith("points.")


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_no_discordant_pair_is_no_evidence_not_no_difference(alternative):
    sentence = text(analyze(0, 0, 0, 10, alternative=alternative).decision)
    assert "shows no difference" not in sentence
    assert "no evidence either way" in sentence


# ---------------------------------------------------------------------------------------------
# teach's text: a count agrees in number, a zero truncation is not "probability below 0", and
# no size or coverage that is not 0 or 1 prints as 0.0000 or 1.0000. At n = 8 with
# p10 = p01 = 0.001 the tests reject only when several of the 8 pairs are discordant, an event
# of probability near 1e-13 or below, so the mid-p and chi-square sizes are tiny but not zero.
# ---------------------------------------------------------------------------------------------
def _teach(capsys, *argv: str) -> str:
    from calculator.cli import main

    assert main(["teach", *argv]) == 0
    return capsys.readouterr().out


def test_teach_one_pair_is_singular_and_nothing_left_out(capsys):
    out = _teach(capsys, "--n", "1", "--p10", "0", "--p01", "0")
    assert out.startswith("n = 1 pair,")
    assert "probability below 0)" not in out
    assert "no table left out" in out


def test_teach_difference_in_points_with_sign(capsys):
    out = _teach(capsys, "--n", "100", "--p10", "0.15", "--p01", "0.05")
    assert "true difference A − B = +10.0 points" in out


def test_teach_tiny_rates_never_read_zero_or_one(capsys):
    out = _teach(capsys, "--n", "8", "--p10", "0.001", "--p01", "0.001")
    mid_p = next(line for line in out.splitlines() if "Mid-p" in line)
    assert "0.0000" not in mid_p  # the size is about 1e-13, not zero
    wald = next(line for line in out.splitlines() if line.strip().startswith("Wald"))
    assert "1.0000" not in wald and "> 0.9999" in wald


# ---------------------------------------------------------------------------------------------
# Cochran's Q = 0: every arrangement of the passes within cases gives Q >= 0, so the exact
# permutation p is 1 exactly (it summed to 1 - 1.1e-16 and printed "p > 0.999", a p below 1).
# ---------------------------------------------------------------------------------------------
def test_cochran_exact_p_is_one_when_q_is_zero():
    import numpy as np

    from calculator import compare_systems
    from calculator.report.compare import describe_cochran

    outcomes = np.array([[1, 1, 1], [1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 0]])
    result = compare_systems(outcomes, ["s1", "s2", "s3"])
    assert result.cochran.statistic == 0
    assert result.cochran.exact_pvalue == 1.0
    assert "> 0.999" not in describe_cochran(result)


# --- no discordant pair (issue 12: "m = 0 ... the non-inferiority test still has an answer
# there: say what it is and why"), and no sentence said twice in the report.


@pytest.mark.parametrize("n", [10, 300])
def test_margin_test_without_disagreements_says_why_it_still_answers(n):
    result = analyze(0, 0, 0, n, margin=0.01)
    sentence = text(result.decision)
    assert "No case separates the systems here, yet the score test still answers" in sentence
    assert sentence in text(result)
    # Agreement on 300 cases is enough at a 1-point margin (alpha 0.05); on 10 it is not.
    assert result.decision.reject is (n == 300)


def test_one_sided_question_without_disagreements_is_not_said_twice():
    report = text(analyze(0, 0, 0, 10, alternative="greater"))
    assert report.count("agree on every case") == 1
