"""Three or more systems on the same cases: Cochran's Q, Holm/Bonferroni, pairs, ranking.

References used below, each with its provenance:
- SAS/STAT PROC FREQ documentation, Example "Cochran's Q Test" (data of Agresti 2002,
  Categorical Data Analysis, 2nd ed., three drugs on 46 subjects): printed output
  "Cochran's Q 8.4706, DF 2, Pr > Q 0.0145"; one-way tables 61% favourable for drugs A and B,
  35% for drug C.
- statsmodels 0.15.0: ``statsmodels.stats.contingency_tables.cochrans_q(x)`` and
  ``statsmodels.stats.multitest.multipletests(p, method="holm" | "bonferroni")`` on data drawn
  here with ``numpy.random.default_rng`` and fixed seeds.
- scipy 1.17.1: ``scipy.stats.binomtest(k, n).proportion_ci(confidence_level, method="wilson")``.
- Brute force: every arrangement of each case's passes among the k systems enumerated with
  itertools, Q compared with exact fractions.
"""

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.contingency_tables import cochrans_q
from statsmodels.stats.multitest import multipletests

import calculator
from calculator.compare import (
    adjust_log10_pvalues,
    adjust_pvalues,
    cochran,
    cochran_q,
    compare_systems,
    wilson_interval,
)
from calculator.intervals import difference_interval
from calculator.mcnemar import mcnemar_chi2, mcnemar_exact


def expand(patterns):
    """Rows of outcomes from (pattern, count) pairs."""
    return np.array([row for row, count in patterns for _ in range(count)], dtype=bool)


# SAS PROC FREQ "Cochran's Q Test" example (F = 1, U = 0), columns drug A, B, C.
DRUGS = expand(
    [
        ((1, 1, 1), 6),
        ((1, 1, 0), 16),
        ((1, 0, 1), 2),
        ((1, 0, 0), 4),
        ((0, 1, 1), 2),
        ((0, 1, 0), 4),
        ((0, 0, 1), 6),
        ((0, 0, 0), 6),
    ]
)


def test_cochran_q_reproduces_the_sas_drugs_example():
    result = compare_systems(DRUGS, ["A", "B", "C"])
    assert result.n == 46
    assert result.cochran.statistic == pytest.approx(8.4706, abs=5e-5)
    assert result.cochran.df == 2
    assert result.cochran.pvalue == pytest.approx(0.0145, abs=5e-5)
    rates = [round(100 * system.rate) for system in result.systems]
    assert rates == [61, 61, 35]


def test_cochran_q_of_the_drugs_example_by_hand():
    # T = (28, 28, 16), N = 72, sum R^2 = 148: Q = 2 (3 * 1824 - 72^2) / (3 * 72 - 148) = 576/68.
    assert cochran_q(DRUGS).statistic == pytest.approx(576 / 68, rel=1e-15)


@pytest.mark.parametrize(
    ("seed", "n", "rates"),
    [
        (1, 200, (0.5, 0.6, 0.55, 0.7)),
        (2, 50, (0.3, 0.3, 0.3)),
        (3, 1000, (0.8, 0.82, 0.85, 0.79, 0.9)),
        (4, 30, (0.1, 0.5)),
        (5, 500, (0.6,) * 8),
    ],
)
def test_cochran_q_matches_statsmodels_on_generated_data(seed, n, rates):
    rng = np.random.default_rng(seed)
    x = rng.random((n, len(rates))) < np.array(rates)
    reference = cochrans_q(x.astype(int))
    result = cochran_q(x)
    assert result.statistic == pytest.approx(reference.statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(reference.pvalue, rel=1e-9)
    assert result.df == reference.df == len(rates) - 1


@pytest.mark.parametrize("seed", range(6))
def test_cochran_q_with_two_systems_is_the_uncorrected_mcnemar_chi2(seed):
    rng = np.random.default_rng(100 + seed)
    x = rng.random((40 + 10 * seed, 2)) < [0.4, 0.6]
    b = int(np.count_nonzero(x[:, 0] & ~x[:, 1]))
    c = int(np.count_nonzero(~x[:, 0] & x[:, 1]))
    result = cochran_q(x)
    mcnemar = mcnemar_chi2(b, c)
    assert result.statistic == pytest.approx(mcnemar.statistic, rel=1e-13)
    assert result.pvalue == pytest.approx(mcnemar.pvalue, rel=1e-10)
    assert result.exact_pvalue == pytest.approx(mcnemar_exact(b, c).pvalue, rel=1e-12)


def brute_force_pvalue(x):
    """Share of all arrangements of each row's passes with Q at least the observed Q."""
    n, k = x.shape

    def q(rows):
        totals = [sum(row[j] for row in rows) for j in range(k)]
        grand = sum(totals)
        denominator = sum(sum(row) * (k - sum(row)) for row in rows)
        return Fraction((k - 1) * (k * sum(t * t for t in totals) - grand * grand), denominator)

    observed = q(x.astype(int).tolist())
    choices = []
    for row in x.astype(int).tolist():
        passes = sum(row)
        choices.append(
            [
                tuple(int(j in chosen) for j in range(k))
                for chosen in itertools.combinations(range(k), passes)
            ]
        )
    at_least = total = 0
    for rows in itertools.product(*choices):
        total += 1
        at_least += q(list(rows)) >= observed
    return at_least / total


TINY = [
    expand([((1, 0, 0), 3), ((0, 1, 0), 1), ((1, 1, 0), 1), ((0, 0, 1), 1)]),
    expand([((1, 1, 0), 2), ((1, 0, 0), 2), ((0, 1, 1), 1), ((1, 1, 1), 2), ((0, 0, 0), 1)]),
    expand([((1, 0, 0, 0), 2), ((1, 1, 0, 0), 2), ((1, 1, 1, 0), 1), ((0, 0, 0, 1), 1)]),
    expand([((0, 1, 1, 1), 2), ((1, 0, 0, 1), 1), ((1, 1, 0, 0), 2), ((0, 0, 1, 0), 1)]),
    expand([((1, 0, 0, 0, 0), 3), ((1, 1, 0, 1, 0), 1), ((0, 0, 0, 0, 1), 1)]),
]


@pytest.mark.parametrize("x", TINY)
def test_exact_permutation_pvalue_equals_brute_force_enumeration(x):
    result = cochran_q(x)
    assert result.method == "exact"
    assert result.exact_pvalue == pytest.approx(brute_force_pvalue(x), rel=1e-12)


def test_monte_carlo_pvalue_is_close_to_the_exact_one_and_reproducible(monkeypatch):
    rng = np.random.default_rng(7)
    x = rng.random((40, 3)) < [0.35, 0.5, 0.6]
    exact = cochran_q(x)
    assert exact.method == "exact"
    monkeypatch.setattr(cochran, "MAX_EXACT_STEPS", 0)
    simulated = cochran_q(x, resamples=9_999, seed=11)
    assert simulated.method == "monte-carlo"
    assert (simulated.resamples, simulated.seed) == (9_999, 11)
    assert simulated.statistic == exact.statistic
    # p = (1 + exceed)/(1 + B) and its binomial standard error.
    p = simulated.exact_pvalue
    assert simulated.standard_error == pytest.approx(math.sqrt(p * (1 - p) / 9_999))
    assert abs(p - exact.exact_pvalue) < 4 * simulated.standard_error + 1 / 10_000
    assert cochran_q(x, resamples=9_999, seed=11) == simulated
    assert cochran_q(x, resamples=9_999, seed=12).exact_pvalue != p


def test_monte_carlo_pvalue_is_never_zero(monkeypatch):
    x = expand([((1, 0, 0), 60), ((0, 1, 1), 2)])
    monkeypatch.setattr(cochran, "MAX_EXACT_STEPS", 0)
    result = cochran_q(x, resamples=999)
    assert result.method == "monte-carlo"
    assert result.exact_pvalue == pytest.approx(1 / 1000)


def test_both_monte_carlo_routes_agree_with_the_exact_pvalue(monkeypatch):
    # Four systems with one case of two passes: the per-case route draws it, the multinomial
    # route draws the many single-pass cases.
    x = expand([((1, 0, 0, 0), 20), ((0, 1, 0, 0), 6), ((0, 0, 1, 0), 9), ((0, 1, 1, 0), 1)])
    exact = cochran_q(x)
    monkeypatch.setattr(cochran, "MAX_EXACT_STEPS", 0)
    simulated = cochran_q(x, resamples=20_000, seed=3)
    assert abs(simulated.exact_pvalue - exact.exact_pvalue) < 4 * simulated.standard_error


def test_permutation_pvalue_is_left_out_when_too_costly():
    rng = np.random.default_rng(9)
    x = rng.random((2_000, 10)) < 0.6
    result = cochran_q(x)
    assert result.method == "none"
    assert result.exact_pvalue is None and result.standard_error is None
    assert result.to_dict()["exact_pvalue"] is None


def test_cochran_q_is_undefined_when_every_case_agrees():
    x = expand([((1, 1, 1), 4), ((0, 0, 0), 3)])
    result = compare_systems(x, ["A", "B", "C"])
    assert result.cochran.statistic is None
    assert (result.cochran.pvalue, result.cochran.exact_pvalue) == (1.0, 1.0)
    assert (result.all_pass, result.all_fail, result.agreeing) == (4, 3, 7)
    assert all(pair.pvalue == 1.0 and not pair.reject for pair in result.pairs)
    json.dumps(result.to_dict(), allow_nan=False)


def test_log10_pvalue_stays_finite_far_below_the_double_range():
    # Three systems, 5000 cases where only the first passes: T = (5000, 0, 0), every R_i = 1,
    # Q = 2 (3 * 5000^2 - 5000^2) / (5000 * 2) = 10000; with 2 df, P = exp(-Q/2) exactly.
    x = expand([((1, 0, 0), 5_000)])
    result = cochran_q(x)
    assert result.statistic == 10_000
    assert result.pvalue == 0.0
    assert result.log10_pvalue == pytest.approx(-5_000 / math.log(10), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("method", ["holm", "bonferroni"])
def test_adjusted_pvalues_match_statsmodels_multipletests(seed, method):
    rng = np.random.default_rng(seed)
    p = rng.random(10) ** 3
    p[3] = p[5]  # a tie
    reference = multipletests(p, method=method)[1]
    np.testing.assert_allclose(adjust_pvalues(p, method=method), reference, rtol=1e-14)
    np.testing.assert_allclose(
        10 ** adjust_log10_pvalues(np.log10(p), method=method), reference, rtol=1e-12
    )


@pytest.mark.parametrize("method", ["holm", "bonferroni"])
def test_pair_pvalues_are_adjusted_as_statsmodels_does(method):
    rng = np.random.default_rng(21)
    x = rng.random((120, 5)) < [0.5, 0.55, 0.7, 0.45, 0.6]
    result = compare_systems(x, list("VWXYZ"), adjust=method, alpha=0.05)
    raw = [pair.pvalue for pair in result.pairs]
    reject, adjusted, _, _ = multipletests(raw, alpha=0.05, method=method)
    assert result.family_size == len(raw) == 10
    np.testing.assert_allclose([pair.adjusted_pvalue for pair in result.pairs], adjusted)
    assert [pair.reject for pair in result.pairs] == reject.tolist()


@pytest.mark.parametrize(("passes", "n"), [(28, 46), (0, 10), (10, 10), (3, 1000), (1, 1)])
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_wilson_interval_matches_scipy(passes, n, level):
    reference = stats.binomtest(passes, n).proportion_ci(level, method="wilson")
    low, high = wilson_interval(passes, n, level)
    assert low == pytest.approx(reference.low, abs=1e-12)
    assert high == pytest.approx(reference.high, abs=1e-12)


@pytest.mark.parametrize("ci_method", calculator.CI_METHODS)
def test_each_pair_is_the_two_system_analysis_of_its_table(ci_method):
    rng = np.random.default_rng(5)
    x = rng.random((80, 4)) < [0.4, 0.5, 0.65, 0.5]
    names = ["w", "x", "y", "z"]
    result = compare_systems(x, names, ci_method=ci_method, level=0.9)
    for pair in result.pairs:
        first, second = x[:, names.index(pair.a)], x[:, names.index(pair.b)]
        cells = [
            int(np.count_nonzero(first & second)),
            int(np.count_nonzero(first & ~second)),
            int(np.count_nonzero(~first & second)),
            int(np.count_nonzero(~first & ~second)),
        ]
        assert [pair.a_count, pair.b_count, pair.c_count, pair.d_count] == cells
        interval = difference_interval(*cells, level=0.9, method=ci_method)
        assert (pair.difference, pair.low, pair.high) == (
            interval.estimate,
            interval.low,
            interval.high,
        )
        assert pair.pvalue == mcnemar_exact(cells[1], cells[2]).pvalue
        table = pair.table
        assert (table.a, table.b, table.c, table.d) == tuple(cells)
        # Read from the other side, the difference and its interval change sign.
        swapped = result.pair(pair.b, pair.a)
        reverse = difference_interval(
            cells[0], cells[2], cells[1], cells[3], level=0.9, method=ci_method
        )
        assert swapped.low == pytest.approx(reverse.low, abs=1e-12)
        assert swapped.high == pytest.approx(reverse.high, abs=1e-12)
        assert (swapped.b_count, swapped.c_count) == (cells[2], cells[1])


def test_separating_cases_list_the_rows_where_only_one_passes():
    result = compare_systems(DRUGS, ["A", "B", "C"])
    only_a, only_c = result.separating_cases("A", "C")
    assert len(only_a) == result.pair("A", "C").b_count == 16 + 4
    assert len(only_c) == result.pair("A", "C").c_count == 2 + 6
    assert DRUGS[only_a, 0].all() and not DRUGS[only_a, 2].any()
    with pytest.raises(ValueError, match="No pair"):
        result.separating_cases("A", "D")


def test_ranking_marks_the_systems_not_separated_after_adjustment():
    # Q rejects at 0.05, yet C's exact McNemar p against A or B (20 vs 8 discordant cases,
    # p = 0.0357) is 0.107 after Holm over three pairs: no pair is separated.
    result = compare_systems(DRUGS, ["A", "B", "C"])
    assert result.cochran.pvalue < 0.05
    assert result.ranking == ("A", "B", "C")  # A and B tie at 28 and keep column order
    assert result.pair("A", "C").pvalue == pytest.approx(0.0357, abs=5e-5)
    assert result.pair("A", "C").adjusted_pvalue == pytest.approx(3 * 0.035698, abs=5e-5)
    assert result.not_separated("C") == ("A", "B")
    # With every case seen twice, C is separated from both, A and B still from neither.
    doubled = compare_systems(np.vstack([DRUGS, DRUGS]), ["A", "B", "C"])
    assert doubled.not_separated("A") == ("B",)
    assert doubled.not_separated("C") == ()
    ranking = doubled.to_dict()["ranking"]
    assert ranking[0] == {"name": "A", "rank": 1, "not_separated_from": ["B"]}
    assert ranking[2] == {"name": "C", "rank": 3, "not_separated_from": []}


def test_to_dict_is_strict_json_with_the_documented_keys():
    result = compare_systems(DRUGS, ["A", "B", "C"])
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert {"statistic", "df", "pvalue", "log10_pvalue", "exact_pvalue", "method"} <= set(
        data["cochran"]
    )
    assert set(data["systems"][0]) == {"name", "passes", "n", "rate", "low", "high"}
    assert {
        "a", "b", "difference", "low", "high", "pvalue", "adjusted_pvalue", "reject",
        "b_count", "c_count",
    } <= set(data["pairs"][0])  # fmt: skip
    assert data["family_size"] == 3 and data["adjust"] == "holm"
    assert data["agreement"] == {"all_pass": 6, "all_fail": 6, "informative": 34}


@pytest.mark.parametrize(
    ("outcomes", "names", "error", "match"),
    [
        ([[1, 0, 2]], ["A", "B", "C"], ValueError, "row 0 .* 'C' holds 2"),
        ([[1, 0, np.nan]], ["A", "B", "C"], ValueError, "only 0 and 1"),
        ([["1", "0"]], ["A", "B"], TypeError, "array of 0s and 1s"),
        ([1, 0], ["A", "B"], ValueError, "2-D"),
        (np.zeros((0, 2)), ["A", "B"], ValueError, "at least one"),
        ([[1, 0]], ["A", "B", "C"], ValueError, "2 columns but `names` has 3"),
        ([[1]], ["A"], ValueError, "2 to 50 systems"),
        ([[1, 0]], ["A", "A"], ValueError, "distinct"),
        ([[1, 0]], ["A", " "], ValueError, "empty name"),
        ([[1, 0]], "AB", TypeError, "sequence of strings"),
        ([[1, 0]], ["A", 2], TypeError, "sequence of strings"),
    ],
)
def test_bad_outcomes_and_names_are_refused_with_a_clear_message(outcomes, names, error, match):
    with pytest.raises(error, match=match):
        compare_systems(outcomes, names)


@pytest.mark.parametrize(
    ("keyword", "value", "error"),
    [
        ("alpha", 0.0, ValueError),
        ("alpha", "0.05", TypeError),
        ("adjust", "hochberg", ValueError),
        ("ci_method", "exact", ValueError),
        ("level", 1.0, ValueError),
        ("resamples", -1, ValueError),
    ],
)
def test_bad_options_are_refused(keyword, value, error):
    with pytest.raises(error, match=f"`{keyword}`"):
        compare_systems(DRUGS, ["A", "B", "C"], **{keyword: value})


def test_compare_systems_is_exported_lazily_from_the_package():
    assert calculator.compare_systems is compare_systems


# --- Properties -------------------------------------------------------------------------------

outcome_arrays = st.integers(2, 5).flatmap(
    lambda k: st.lists(
        st.lists(st.booleans(), min_size=k, max_size=k), min_size=1, max_size=12
    ).map(lambda rows: np.array(rows, dtype=bool))
)


@given(outcome_arrays, st.randoms(use_true_random=False))
def test_q_and_its_pvalues_do_not_depend_on_the_order_of_cases_or_systems(x, random):
    rows = list(range(x.shape[0]))
    columns = list(range(x.shape[1]))
    random.shuffle(rows)
    random.shuffle(columns)
    first, second = cochran_q(x), cochran_q(x[rows][:, columns])
    if first.statistic is None:
        assert second.statistic is None
    else:
        assert second.statistic == pytest.approx(first.statistic, rel=1e-12)
    assert second.pvalue == pytest.approx(first.pvalue, rel=1e-9)
    assert second.exact_pvalue == pytest.approx(first.exact_pvalue, rel=1e-9)


@given(outcome_arrays, st.integers(0, 5), st.integers(0, 5))
def test_cases_where_all_agree_do_not_move_q(x, all_pass, all_fail):
    k = x.shape[1]
    padded = np.vstack([x, np.ones((all_pass, k), bool), np.zeros((all_fail, k), bool)])
    first, second = cochran_q(x), cochran_q(padded)
    assert second.statistic == first.statistic
    assert second.exact_pvalue == pytest.approx(first.exact_pvalue, rel=1e-12)
    assert second.informative_cases == first.informative_cases


@given(outcome_arrays)
def test_figures_stay_in_range(x):
    names = [f"s{j}" for j in range(x.shape[1])]
    result = compare_systems(x, names)
    q = result.cochran
    assert q.statistic is None or q.statistic >= -1e-12
    assert 0.0 <= q.pvalue <= 1.0 and q.log10_pvalue <= 0.0
    assert 0.0 <= q.exact_pvalue <= 1.0
    for pair in result.pairs:
        assert pair.pvalue <= pair.adjusted_pvalue <= 1.0
        assert pair.a_count + pair.b_count + pair.c_count + pair.d_count == result.n
    for system in result.systems:
        assert 0.0 <= system.low <= system.rate <= system.high <= 1.0
    assert result.agreeing + q.informative_cases == result.n
    json.dumps(result.to_dict(), allow_nan=False)


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30))
def test_holm_lies_between_the_raw_and_the_bonferroni_pvalues(pvalues):
    holm = adjust_pvalues(pvalues)
    bonferroni = adjust_pvalues(pvalues, method="bonferroni")
    raw = np.array(pvalues)
    assert np.all(raw <= holm + 1e-15) and np.all(holm <= bonferroni + 1e-15)
    # Holm keeps the order of the raw p-values.
    order = np.argsort(raw, kind="stable")
    assert np.all(np.diff(holm[order]) >= 0)


# --- Sentences (calculator.report.compare) ----------------------------------------------------

from calculator.report.compare import (  # noqa: E402
    describe_agreement,
    describe_cochran,
    describe_pairs,
)


def test_sentences_for_the_drugs_example_say_q_rejects_but_no_pair_is_located():
    result = compare_systems(DRUGS, ["A", "B", "C"])
    cochran_text = describe_cochran(result)
    assert cochran_text.startswith("Cochran's Q = 8.47 on 2 degrees of freedom: chi-square p = ")
    assert "By the exact permutation p, equal pass rates of the 3 systems are rejected" in (
        cochran_text
    )
    pairs_text = describe_pairs(result)
    assert pairs_text.startswith("0 of the 3 pairs differ at α = 0.05 after Holm's")
    assert "yet no single pair is separated" in pairs_text
    assert describe_agreement(result).startswith("All 3 systems agree on 12 of the 46 cases")


def test_one_case_is_not_called_each_of_the_1_case():
    # Found in review: a single analysed case read "disagree on each of the 1 case".
    assert describe_agreement(compare_systems([[1, 0]], ["A", "B"])) == (
        "The 2 systems disagree on the one case."
    )
    assert describe_agreement(compare_systems([[1, 0, 1]], ["A", "B", "C"])) == (
        "The 3 systems do not all agree on the one case."
    )


def test_the_verdict_rests_on_the_chi_square_p_when_no_permutation_p_exists():
    rng = np.random.default_rng(9)
    result = compare_systems(rng.random((2_000, 10)) < 0.6, [f"m{j}" for j in range(10)])
    assert result.cochran.method == "none"
    text = describe_cochran(result)
    assert "the permutation p was not computed" in text and "By the chi-square p," in text


def test_a_small_q_is_never_printed_as_zero():
    # 200 cases only A passes, 199 only B, 200 only C: Q = 2 * (3 * 119_801 - 599^2) / 1_198.
    x = expand([((1, 0, 0), 200), ((0, 1, 0), 199), ((0, 0, 1), 200)])
    result = compare_systems(x, ["A", "B", "C"])
    assert 0 < result.cochran.statistic < 0.01
    assert "Cochran's Q = 0.0033 on" in describe_cochran(result)
