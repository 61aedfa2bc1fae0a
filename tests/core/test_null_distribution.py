"""The null distribution of the discordant split (calculator.teaching.null_distribution).

Provenance of the reference values:

- Size of the two-sided exact test at alpha = 0.05 for m = 5, 10, 20, 100: from the binomial
  distribution with scipy.stats.binom (scipy 1.1x), ``k = max{j: 2 * binom.cdf(j, m, 0.5) <=
  0.05}`` and ``size = 2 * binom.cdf(k, m, 0.5)``; the exact fractions are written beside them
  (m = 10: k = 1, size = 2 * 11 / 1024; m = 20: k = 5, size = 2 * 21700 / 2^20). The test also
  recomputes them with scipy, so a transcription slip cannot pass.
- One-sided p-values: scipy.stats.binomtest(b, m, 0.5, alternative=...).pvalue.
- Two-sided p-values: calculator.mcnemar_exact, whose own tests reproduce the published worked
  examples.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from calculator import mcnemar_exact
from calculator.teaching import null_distribution
from calculator.teaching.null_distribution import MAX_BARS, OUTLINE_POINTS

# --- reference: the exact test's size at alpha = 0.05 ---------------------------------------

# scipy.stats.binom, see the module docstring.
EXACT_SIZE_AT_05 = [
    (5, -1, 0.0),  # 2 / 2^5 = 0.0625 > 0.05: no split is significant
    (10, 1, 22 / 1024),  # 0.021484375
    (20, 5, 2 * 21700 / 2**20),  # 0.04138946533203125
    (100, 39, 0.035200200217704855),
]


@pytest.mark.parametrize(("m", "limit", "size"), EXACT_SIZE_AT_05)
def test_exact_size_at_five_percent_matches_the_binomial_distribution(
    m: int, limit: int, size: float
) -> None:
    result = null_distribution(m, 0, alpha=0.05)
    assert result.rejection_limit == limit
    assert result.size == pytest.approx(size, rel=1e-12, abs=1e-300)
    # The same from scipy.stats.binom directly.
    k = max((j for j in range(m + 1) if 2 * stats.binom.cdf(j, m, 0.5) <= 0.05), default=-1)
    assert k == limit
    assert result.size == pytest.approx(2 * stats.binom.cdf(k, m, 0.5) if k >= 0 else 0.0)


def test_five_pairs_cannot_reach_five_percent_but_six_can() -> None:
    five, six = null_distribution(5, 0), null_distribution(6, 0)
    assert not five.reachable and five.smallest_pvalue == pytest.approx(0.0625, rel=1e-12)
    assert six.reachable and six.smallest_pvalue == pytest.approx(0.03125, rel=1e-12)
    assert six.size == pytest.approx(0.03125)


@pytest.mark.parametrize("m", [1, 2, 7, 30, 1000])
def test_smallest_two_sided_pvalue_is_two_to_the_one_minus_m(m: int) -> None:
    result = null_distribution(m, m // 2)
    assert result.smallest_pvalue == pytest.approx(min(1.0, 2.0 ** (1 - m)), rel=1e-12)
    assert result.log10_smallest_pvalue == pytest.approx(min(0.0, (1 - m) * math.log10(2)))


def test_smallest_pvalue_keeps_its_logarithm_past_the_double_range() -> None:
    result = null_distribution(5000, 2500)
    assert result.smallest_pvalue == 0.0
    assert result.log10_smallest_pvalue == pytest.approx(-4999 * math.log10(2), rel=1e-12)


def test_no_discordant_pairs() -> None:
    result = null_distribution(0, 0)
    assert (result.pvalue, result.size, result.reachable) == (1.0, 0.0, False)
    assert result.outcomes == (0,) and result.probabilities == (1.0,)


# --- p-values agree with the tests and with the shaded tails -------------------------------------


@pytest.mark.parametrize("convention", ["doubling", "mid-p"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_pvalue_is_mcnemar_exact(convention: str, alternative: str) -> None:
    for m in range(0, 41):
        for b in range(m + 1):
            expected = mcnemar_exact(b, m - b, convention=convention, alternative=alternative)
            result = null_distribution(m, b, convention=convention, alternative=alternative)
            assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-12)


@pytest.mark.parametrize(
    ("alternative", "scipy_alternative"), [("greater", "less"), ("less", "greater")]
)
def test_one_sided_pvalues_match_scipy_binomtest(alternative: str, scipy_alternative: str) -> None:
    # "greater" means B passes more often (c > b), which small b shows: P[X <= b].
    for m in (1, 9, 24, 60):
        for b in range(m + 1):
            expected = stats.binomtest(b, m, 0.5, alternative=scipy_alternative).pvalue
            result = null_distribution(m, b, alternative=alternative)
            assert result.pvalue == pytest.approx(expected, rel=1e-10)
            mid = null_distribution(m, b, alternative=alternative, convention="mid-p")
            half_point = stats.binom.pmf(b, m, 0.5) / 2
            assert mid.pvalue == pytest.approx(expected - half_point, rel=1e-10, abs=1e-300)


@pytest.mark.parametrize("convention", ["doubling", "mid-p"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_tail_weights_add_up_to_the_pvalue(convention: str, alternative: str) -> None:
    for m in range(0, 31):
        for b in range(m + 1):
            result = null_distribution(m, b, convention=convention, alternative=alternative)
            weighted = float(np.dot(result.probabilities, result.tail_weights))
            assert min(1.0, weighted) == pytest.approx(result.pvalue, rel=1e-10), (m, b)
            assert set(result.tail_weights) <= {0.0, 0.5, 1.0}


def test_doubling_shades_both_tails_at_least_as_extreme() -> None:
    result = null_distribution(10, 2)
    assert result.tail_weights == (1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1)
    mid = null_distribution(10, 2, convention="mid-p")
    assert mid.tail_weights == (1, 1, 0.5, 0, 0, 0, 0, 0, 0.5, 1, 1)


@pytest.mark.parametrize("convention", ["doubling", "mid-p"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_size_is_the_null_probability_of_every_rejected_split(
    convention: str, alternative: str
) -> None:
    # Brute force: every split's own p-value decides; the bisection must find the same set.
    for alpha in (0.05, 0.2):
        for m in range(0, 41):
            pvalues = [
                null_distribution(m, b, convention=convention, alternative=alternative).pvalue
                for b in range(m + 1)
            ]
            pmf = stats.binom.pmf(np.arange(m + 1), m, 0.5)
            expected = float(pmf[np.array(pvalues) <= alpha * (1 + 1e-9)].sum())
            result = null_distribution(
                m, 0, convention=convention, alternative=alternative, alpha=alpha
            )
            assert result.size == pytest.approx(expected, rel=1e-10, abs=1e-15), (m, alpha)


def test_dyadic_alpha_reached_exactly_counts_as_significant() -> None:
    # m = 4, b = 0: p = 2/16 = 0.125 exactly.
    assert null_distribution(4, 0, alpha=0.125).reachable
    assert null_distribution(4, 0, alpha=0.125).size == pytest.approx(0.125)


# --- layout ----------------------------------------------------------------------------------


def test_bars_up_to_the_limit_then_an_outline() -> None:
    bars = null_distribution(MAX_BARS, 150)
    assert bars.kind == "bars" and bars.outcomes == tuple(range(MAX_BARS + 1))
    assert sum(bars.probabilities) == pytest.approx(1.0)
    outline = null_distribution(MAX_BARS + 1, 150)
    assert outline.kind == "outline" and len(outline.outcomes) <= OUTLINE_POINTS
    assert list(outline.outcomes) == sorted(set(outline.outcomes))


def test_outline_for_a_billion_pairs_is_finite_and_centred() -> None:
    result = null_distribution(10**9, 499_990_000)
    assert result.kind == "outline"
    assert all(math.isfinite(p) for p in result.probabilities)
    peak = result.outcomes[int(np.argmax(result.probabilities))]
    assert abs(peak - 5 * 10**8) < 10**5
    assert 0.04 < result.size <= 0.05


def test_to_dict_is_strict_json() -> None:
    for args in ((0, 0), (5, 0), (1000, 2), (10**9, 0)):
        text = json.dumps(null_distribution(*args).to_dict(), allow_nan=False)
        assert json.loads(text)["discordant"] == args[0]


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"m": 3, "b": 4}, ValueError),
        ({"m": -1, "b": 0}, ValueError),
        ({"m": "5", "b": 0}, TypeError),
        ({"m": 5, "b": 1.5}, ValueError),
        ({"m": 5, "b": 1, "convention": "central"}, ValueError),
        ({"m": 5, "b": 1, "alternative": "bigger"}, ValueError),
        ({"m": 5, "b": 1, "alpha": 1.0}, ValueError),
        ({"m": 5, "b": 1, "alpha": "0.05"}, TypeError),
    ],
)
def test_bad_input_is_refused(kwargs: dict, error: type) -> None:
    with pytest.raises(error):
        null_distribution(**kwargs)


# --- properties ------------------------------------------------------------------------------


def test_exact_size_never_exceeds_alpha_for_m_up_to_2000() -> None:
    for m in range(0, 2001):
        assert null_distribution(m, 0).size <= 0.05, m


@given(
    m=st.integers(min_value=0, max_value=10**7),
    alpha=st.floats(min_value=1e-6, max_value=0.5),
)
def test_exact_size_never_exceeds_alpha(m: int, alpha: float) -> None:
    result = null_distribution(m, m // 3, alpha=alpha)
    assert 0.0 <= result.size <= alpha * (1 + 1e-9)
    assert result.reachable == (result.smallest_pvalue <= alpha * (1 + 1e-9))


@given(
    m=st.integers(min_value=1, max_value=400),
    data=st.data(),
    convention=st.sampled_from(["doubling", "mid-p"]),
    alternative=st.sampled_from(["two-sided", "greater", "less"]),
)
def test_pvalue_and_probabilities_are_probabilities(
    m: int, data: st.DataObject, convention: str, alternative: str
) -> None:
    b = data.draw(st.integers(min_value=0, max_value=m))
    result = null_distribution(m, b, convention=convention, alternative=alternative)
    assert 0.0 < result.pvalue <= 1.0
    assert result.smallest_pvalue <= result.pvalue
    assert sum(result.probabilities) == pytest.approx(1.0)
