"""Paired k x k tables: published values with provenance, refusals, and invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from calculator.errors import CalculatorError
from calculator.intervals import difference_interval
from calculator.mcnemar import mcnemar_chi2, mcnemar_exact
from calculator.square import (
    MAX_CATEGORIES,
    analyze_square,
    bhapkar,
    bowker,
    compare_categories,
    mean_score_test,
    square_table,
    stuart_maxwell,
    table_from_labels,
)

# R package contingencytables 3.0.0 (Fagerland, Lydersen & Laake 2017, "Statistical Analysis of
# Contingency Tables"), R/datasets.R:
#   peterson_2007 <- rbind(c(596, 18, 6, 5), c(0, 2, 0, 0), c(0, 0, 42, 0), c(11, 0, 0, 0))
#     (Peterson et al. 2007, pretherapy susceptibility of pathogens; the book's Table 9.1)
#   fleiss_2003 <- rbind(c(35, 5, 0), c(15, 20, 5), c(10, 5, 5))
#     (Fleiss, Levin & Paik 2003, Table 13.6, page 382)
#   fischer_1999: the 5 x 5 table below (Fischer et al. 1999, serial vs retrospective ratings)
PETERSON_2007 = [[596, 18, 6, 5], [0, 2, 0, 0], [0, 0, 42, 0], [11, 0, 0, 0]]
FLEISS_2003 = [[35, 5, 0], [15, 20, 5], [10, 5, 5]]
FISCHER_1999 = [
    [1, 0, 1, 0, 0],
    [0, 2, 8, 4, 4],
    [1, 1, 31, 14, 11],
    [1, 0, 15, 9, 12],
    [0, 0, 2, 1, 3],
]

# --- contingencytables 3.0.0, tests/testthat/test-ch9.R, printed to 3 decimals (statistic) and
# 6 decimals (P):
#   McNemarBowker_test_paired_cxc(peterson_2007): P = 0.000200, T0 = 26.250 (df=6)
#   Stuart_test_paired_cxc(peterson_2007):        P = 0.000008, T0 = 26.250 (df=3)
#   Bhapkar_test_paired_cxc(peterson_2007):       P = 0.000005, T = 27.304 (df = 3)
#   FleissEveritt_test_paired_cxc(fleiss_2003):   P = 0.000912, T = 14.000 (df=2)
#     (Fleiss and Everitt's closed form of the Stuart test for k = 3)
# The "non-empty" row: the same statistic on the 3 pairs of categories of peterson_2007 with a
# discordant case (1-2, 1-3, 1-4); its P is scipy.stats.chi2.sf(26.25, 3) = 8.454e-06.
PUBLISHED = [
    (bowker, {"empty_pairs": "every-pair"}, PETERSON_2007, 26.250, 6, 0.000200),
    (bowker, {"empty_pairs": "non-empty"}, PETERSON_2007, 26.250, 3, 0.000008),
    (stuart_maxwell, {}, PETERSON_2007, 26.250, 3, 0.000008),
    (bhapkar, {}, PETERSON_2007, 27.304, 3, 0.000005),
    (stuart_maxwell, {}, FLEISS_2003, 14.000, 2, 0.000912),
]


@pytest.mark.parametrize(("test", "options", "counts", "statistic", "df", "pvalue"), PUBLISHED)
def test_reproduces_contingencytables(test, options, counts, statistic, df, pvalue):
    result = test(square_table(counts), **options)
    assert result.statistic == pytest.approx(statistic, abs=5e-4)
    assert result.df == df
    assert result.pvalue == pytest.approx(pvalue, abs=5e-7)


def test_non_empty_pairs_pvalue_is_the_chi_square_tail_on_three_df():
    result = bowker(square_table(PETERSON_2007), empty_pairs="non-empty")
    assert result.pvalue == pytest.approx(stats.chi2.sf(26.25, 3), rel=1e-12)


# --- contingencytables 3.0.0, tests/testthat/test-ch9.R:
#   FleissLevinPaik_test_paired_cxc(peterson_2007[-4, -4]): P = 0.000004, T = 21.429 (df=1)
#     (the 3 x 3 ordinal test; z^2 of the score test with scores 1, 2, 3)
#   a <- c(8, 3.5, 0, -3.5, -8)
#   Wald_test_and_CI_marginal_mean_scores_paired_cxc(fischer_1999, a):
#     The Wald CI: estimate = 1.6942 (95% CI 0.9347 to 2.4537)
#   Score_test_and_CI_marginal_mean_scores_paired_cxc(fischer_1999, a):
#     The score CI: estimate = 1.6942 (95% CI 0.8769 to 2.5115)
#     (estimate +/- 1.96 SE0, where SE0 = estimate / z is the score test's null standard error)
def test_ordinal_score_test_reproduces_fleiss_levin_paik():
    result = mean_score_test(square_table([row[:3] for row in PETERSON_2007[:3]]))
    assert result.statistic**2 == pytest.approx(21.429, abs=5e-4)
    assert result.pvalue == pytest.approx(0.000004, abs=5e-7)


def test_ordinal_interval_and_null_error_reproduce_fischer_1999():
    result = mean_score_test(square_table(FISCHER_1999), [8, 3.5, 0, -3.5, -8])
    assert result.estimate == pytest.approx(1.6942, abs=5e-5)
    assert (result.low, result.high) == pytest.approx((0.9347, 2.4537), abs=5e-5)
    null_error = result.estimate / result.statistic
    z = stats.norm.isf(0.025)
    assert result.estimate - z * null_error == pytest.approx(0.8769, abs=5e-5)
    assert result.estimate + z * null_error == pytest.approx(2.5115, abs=5e-5)


# --- contingencytables 3.0.0, tests/testthat/test-ch9.R:
#   Bonferroni_type_CIs_paired_cxc(peterson_2007):
#     pi_4+ vs pi_+4: delta = 0.0088 (-0.0059 to 0.0233)
BONFERRONI_TYPE = [
    (PETERSON_2007, 3, 0.0088, -0.0059, 0.0233),
]


@pytest.mark.parametrize(("counts", "index", "delta", "low", "high"), BONFERRONI_TYPE)
def test_category_intervals_reproduce_bonferroni_type_intervals(counts, index, delta, low, high):
    category = compare_categories(square_table(counts))[index]
    assert (category.difference, category.low, category.high) == pytest.approx(
        (delta, low, high), abs=5e-5
    )


# contingencytables 3.0.0 gives (-1 to 1) where the formula degenerates:
#   Bonferroni_type_CIs_paired_cxc(matrix(c(1, 0, 0, 1), 2)): pi_2+ vs pi_+2: 0.0000 (-1 to 1)
# A deliberate departure: a category no case disagrees on gets Tango's score interval of its
# collapsed 2 x 2 table at the same Bonferroni level, which narrows as agreeing cases add up,
# where (-1, 1) made full agreement look less informative than two disagreements.
@pytest.mark.parametrize("counts", [[[1, 0], [0, 1]], [[1, 2, 0], [2, 3, 0], [0, 0, 9]]])
def test_a_category_no_case_disagrees_on_gets_the_collapsed_tables_tango_interval(counts):
    table = square_table(counts)
    last = compare_categories(table, level=0.95)[-1]
    n, same = table.n, counts[-1][-1]
    tango = difference_interval(same, 0, 0, n - same, level=1 - 0.05 / table.k, method="tango")
    assert (last.low, last.high) == (tango.low, tango.high)
    assert -1.0 < last.low < 0.0 < last.high < 1.0


def test_each_category_against_the_rest_is_the_exact_mcnemar_test_holm_adjusted():
    categories = compare_categories(square_table(PETERSON_2007))
    assert [(c.only_a, c.only_b) for c in categories] == [(29, 11), (0, 18), (0, 6), (11, 5)]
    pvalues = [mcnemar_exact(c.only_a, c.only_b).pvalue for c in categories]
    assert [c.pvalue for c in categories] == pvalues
    order = np.argsort(pvalues)
    holm = np.maximum.accumulate([min(1, (4 - i) * pvalues[j]) for i, j in enumerate(order)])
    assert [categories[j].adjusted_pvalue for j in order] == pytest.approx(holm, rel=1e-12)


def test_analysis_holds_every_result_and_labels():
    result = analyze_square(FLEISS_2003, ["low", "mid", "high"], ordered=True)
    assert [c.label for c in result.categories] == ["low", "mid", "high"]
    assert result.ordinal is not None and result.ordinal.scores == (1.0, 2.0, 3.0)
    assert result.to_dict()["bowker"]["df"] == 3
    assert analyze_square(FLEISS_2003).ordinal is None


# --- Degenerate tables, decided on purpose.
def test_no_discordant_case_gives_no_statistic_and_p_one():
    result = analyze_square([[4, 0, 0], [0, 3, 0], [0, 0, 2]], ordered=True)
    for test in (result.bowker, result.stuart_maxwell, result.bhapkar):
        assert test.statistic is None and test.pvalue == 1.0
    assert result.ordinal.statistic is None and result.ordinal.pvalue == 1.0


def test_a_category_cut_off_from_the_rest_lowers_stuart_maxwell_df():
    # Category 3 has no discordant case: the 2 x 2 part is McNemar's, on 1 df.
    result = stuart_maxwell(square_table([[5, 2, 0], [6, 3, 0], [0, 0, 2]]))
    assert result.df == 1
    assert result.statistic == pytest.approx(mcnemar_chi2(2, 6).statistic)


def test_bhapkar_is_undefined_when_every_case_is_discordant_one_way():
    result = bhapkar(square_table([[0, 5], [0, 0]]))
    assert result.statistic is None and result.pvalue is None


def test_a_label_seen_in_one_system_only_is_a_category_with_a_zero_margin():
    table = table_from_labels(["x", "y", "y", "z"], ["x", "x", "y", "x"])
    assert table.labels == ("x", "y", "z")
    assert table.columns == (3, 1, 0)  # B never says "z"
    assert table.rows == (1, 2, 1)


# --- Refusals: the message repeats the bad value and says what is allowed.
REFUSALS = [
    ([[1, 2, 3], [4, 5, 6]], "`table` must be a square table of counts with 2 to 10 categories"),
    ([[1, -2], [3, 4]], "`table row 1, column 2` must be a non-negative integer, but got -2."),
    ([[1, 2.5], [3, 4]], "`table row 1, column 2` must be a non-negative integer, but got 2.5."),
    ([[1]], "but got 1 row of 1 count."),
    ([[1, 2], [3]], "but got 2 rows of 2, 1 counts."),
    ([[0] * 11] * 11, f"with 2 to {MAX_CATEGORIES} categories .*, but got 11 rows of 11 counts."),
    ("1 2; 3 4", "`table` must be a square table of counts"),
]


@pytest.mark.parametrize(("counts", "words"), REFUSALS)
def test_bad_tables_are_refused_by_name(counts, words):
    with pytest.raises(CalculatorError, match=words.replace("(", r"\(").replace(")", r"\)")):
        square_table(counts)


def test_bad_labels_scores_and_conventions_are_refused_by_name():
    with pytest.raises(CalculatorError, match="`labels` must be 2 distinct, non-blank names"):
        square_table([[1, 2], [3, 4]], ["x", "x"])
    with pytest.raises(CalculatorError, match="`scores` must be 2 finite numbers"):
        analyze_square([[1, 2], [3, 4]], scores=[1, 1])
    with pytest.raises(CalculatorError, match='`empty_pairs` must be one of "every-pair"'):
        analyze_square([[1, 2], [3, 4]], empty_pairs="some")
    with pytest.raises(CalculatorError, match="the labels must form 2 to 10 categories"):
        table_from_labels([str(i) for i in range(11)], ["0"] * 11)
    with pytest.raises(CalculatorError, match="`categories` must list every label"):
        table_from_labels(["x", "y"], ["y", "z"], categories=["x", "y"])


# --- Invariants.
def tables(max_k: int = 5):
    return st.integers(2, max_k).flatmap(
        lambda k: st.lists(
            st.lists(st.integers(0, 30), min_size=k, max_size=k), min_size=k, max_size=k
        )
    )


@given(tables())
def test_pvalues_lie_in_the_unit_interval(counts):
    result = analyze_square(counts, ordered=True)
    tests = [result.bowker, result.stuart_maxwell, result.bhapkar, result.ordinal]
    for test in tests:
        assert test.pvalue is None or 0.0 <= test.pvalue <= 1.0
    for category in result.categories:
        assert 0.0 <= category.pvalue <= category.adjusted_pvalue <= 1.0
        assert -1.0 <= category.low <= category.difference <= category.high <= 1.0


@given(tables())
def test_transposing_keeps_bowker_and_stuart_maxwell(counts):
    table, flipped = square_table(counts), square_table(np.array(counts).T.tolist())
    for test in (bowker, stuart_maxwell, bhapkar):
        one, other = test(table), test(flipped)
        assert one.df == other.df
        assert (one.statistic is None) == (other.statistic is None)
        if one.statistic is not None:
            assert other.statistic == pytest.approx(one.statistic, rel=1e-9, abs=1e-12)


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.integers(0, 50))
def test_two_by_two_bowker_and_stuart_maxwell_are_mcnemars_uncorrected_chi_square(a, b, c, d):
    table = square_table([[a, b], [c, d]])
    expected = mcnemar_chi2(b, c)
    for test in (bowker(table), stuart_maxwell(table)):
        if expected.statistic is None:  # no discordant pair: no statistic, p = 1
            assert test.statistic is None and test.pvalue == 1.0
        else:
            assert test.df == 1
            assert test.statistic == pytest.approx(expected.statistic, rel=1e-12)
            assert test.pvalue == pytest.approx(expected.pvalue, rel=1e-9)


@given(tables())
def test_bhapkar_is_at_least_stuart_maxwell(counts):
    table = square_table(counts)
    stuart, wald = stuart_maxwell(table), bhapkar(table)
    if stuart.statistic is not None and wald.statistic is not None:
        assert wald.statistic >= stuart.statistic - 1e-12
        assert wald.df == stuart.df


@given(tables(4), st.permutations(range(4)))
def test_relabelling_the_categories_keeps_every_test(counts, order):
    k = len(counts)
    order = [i for i in order if i < k]
    table = square_table(counts)
    shuffled = square_table([[counts[i][j] for j in order] for i in order])
    for test in (bowker, stuart_maxwell, bhapkar):
        one, other = test(table), test(shuffled)
        assert one.df == other.df
        if one.statistic is not None:
            assert other.statistic == pytest.approx(one.statistic, rel=1e-9, abs=1e-12)
