"""Fay & Lumbard's (2021) difference interval, compatible with the exact McNemar test."""

import math

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import analyze, difference_interval, mcnemar_exact
from calculator.fay_lumbard import exact_compatible_limits, upper_tail_probability
from calculator.intervals import CI_METHOD_NAMES, CI_METHODS
from calculator.report.words import payload as json_of
from calculator.report.words import reconciliation_of

# --- Own high-precision reference. P_U(delta) = P[T (2B - 1) >= delta], B ~ Beta(b + 1, c),
# T ~ Beta(m + 1, n - m) for delta >= 0 and Beta(m, n - m + 1) below (Fay & Lumbard 2021,
# section 3; exact2x2's mcnemarExactDP, R/mcnemarExactDP.R, pval.1sided). Integrated over t in
# mpmath with the Beta density, not over quantiles as the calculator does.


def _mp_upper_tail(delta, b, c, n):
    mpmath.mp.dps = 25
    delta, m = mpmath.mpf(delta), b + c

    def sf_b(s):
        if s >= 1:
            return mpmath.mpf(0)
        if s <= 0:
            return mpmath.mpf(1)
        return mpmath.betainc(b + 1, c, s, 1, regularized=True)

    shape = (m + 1, n - m) if delta >= 0 else (m, n - m + 1)
    start = abs(delta)
    base = 0 if delta >= 0 else mpmath.betainc(*shape, 0, start, regularized=True)
    log_beta = mpmath.log(mpmath.beta(*shape))

    def integrand(t):
        log_density = (shape[0] - 1) * mpmath.log(t) + (shape[1] - 1) * mpmath.log1p(-t)
        return sf_b(mpmath.mpf(1) / 2 + delta / (2 * t)) * mpmath.exp(log_density - log_beta)

    mode = mpmath.mpf(shape[0] - 1) / (sum(shape) - 2)
    points = sorted({start, *(x for x in (mode / 2, mode, (1 + mode) / 2) if start < x < 1), 1})
    return base + mpmath.quad(integrand, points)


@pytest.mark.parametrize(
    ("delta", "b", "c", "n"),
    [(0.05, 4, 12, 100), (-0.1, 4, 12, 100), (0.2, 15, 5, 100), (-0.3, 1, 7, 21)],
)
def test_tail_probability_matches_mpmath_to_twelve_digits(delta, b, c, n):
    expected = float(_mp_upper_tail(delta, b, c, n))
    assert upper_tail_probability(delta, b, c, n) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_tail_probability_at_zero_is_the_one_sided_exact_p():
    # P_U(0) = P[Binomial(16, 1/2) <= 4] = 2517/65536.
    assert upper_tail_probability(0.0, 4, 12, 100) == pytest.approx(2517 / 65536, rel=1e-14)


# --- Limits: the roots of P_U(delta) = (1 - level)/2, solved from _mp_upper_tail above by
# bisection then mpmath.findroot (Anderson) to 1e-25, mpmath 1.3.0 at 20-30 digits; the
# c = 0 ends are the Beta quantiles, solved the same way. Printed to 15 significant digits.
# (exact2x2 prints none of these in its manual or vignettes, and its own default tolerances
# are looser than six digits, so mpmath is the reference here.)
MPMATH_LIMITS = [
    # b, c, n, level, low, high
    # the McNemar article's example 70/4/12/14
    (4, 12, 100, 0.95, -0.170014169504767, 0.00768464163069258),
    (1, 7, 21, 0.95, -0.545498753426653, 0.0204495187517964),  # exact2x2's mcnemarExactDP example
    # the original page's table 60/15/5/20
    (15, 5, 100, 0.95, 0.00339067814944166, 0.197390688614183),
    (0, 3, 20, 0.95, -0.378926826545314, 0.0773191654094116),
    (5, 0, 10, 0.95, -0.0220672314570714, 0.812913971552601),
    (10, 10, 30, 0.95, -0.314812067808651, 0.314812067808651),
    (9, 2, 44, 0.90, 0.01340702201281, 0.298251130724874),
    (2, 30, 40, 0.99, -0.884066495145031, -0.361715578717203),
    (3, 1, 4, 0.95, -0.611759100633513, 0.98738107358058),
]
# n = 10^9, same script (the limits near 1e-9 show the quantile transform keeps its digits).
MPMATH_LIMITS_HUGE_N = [(1, 2, 10**9, 0.95, -6.47456452132261e-9, 4.11300327391553e-9)]


@pytest.mark.parametrize(("b", "c", "n", "level", "low", "high"), MPMATH_LIMITS)
def test_limits_match_mpmath_to_ten_significant_digits(b, c, n, level, low, high):
    got_low, got_high = exact_compatible_limits(b, c, n, level)
    assert got_low == pytest.approx(low, rel=1e-10)
    assert got_high == pytest.approx(high, rel=1e-10)


@pytest.mark.parametrize(("b", "c", "n", "level", "low", "high"), MPMATH_LIMITS_HUGE_N)
def test_limits_at_a_billion_cases_match_mpmath_to_eight_digits(b, c, n, level, low, high):
    got_low, got_high = exact_compatible_limits(b, c, n, level)
    assert got_low == pytest.approx(low, rel=1e-8)
    assert got_high == pytest.approx(high, rel=1e-8)


def test_no_discordant_pairs_gives_plus_minus_the_clopper_pearson_limit():
    # 0 of 10 discordant: the upper 97.5% Clopper-Pearson limit is 1 - 0.025^(1/10).
    low, high = exact_compatible_limits(0, 0, 10, 0.95)
    assert high == pytest.approx(1 - 0.025**0.1, rel=1e-13)
    assert low == -high


# Every case discordant (a = d = 0). The limit on the side of the observed difference uses
# T ~ Beta(n + 1, 0), that is T = 1, and has the closed form 2 B - 1 at B's quantile. The other
# limit uses T's lower confidence distribution Beta(n, 1), not T = 1: an earlier version used the
# shortcut T = 1 there too and gave 2 * 0.025^(1/10) - 1 = 0.383 for (0, 10, 0, 0) and
# 1 - 2 (1 - 0.025^(1/9)) = 0.327 for (0, 9, 0, 0), narrower than the method's interval (and
# than exact2x2's mcnemarExactDP, which issue 24 quotes at 0.286 for (0, 9, 0, 0)).
# Reference: the root of _mp_upper_tail(delta, 0, m, m) = 0.025 above (the defining equation,
# mpmath 1.3.0 at 25 digits), by 60 bisections on [-1, 0] then mpmath.findroot(solver=
# "anderson", tol=1e-25); the lower limit of (b, c) = (m, 0) is minus that root.
ALL_DISCORDANT = [(9, 0.285530451064914015248921138821), (10, 0.338019229027136473941215741415)]


@pytest.mark.parametrize(("m", "low"), ALL_DISCORDANT)
def test_every_case_discordant_follows_the_defining_equation_on_both_sides(m, low):
    got_low, got_high = exact_compatible_limits(m, 0, m, 0.95)
    assert got_high == 1.0  # T = 1 and B = 1: the upper limit is the largest difference
    assert got_low == pytest.approx(low, rel=1e-10)
    assert upper_tail_probability(-got_low, 0, m, m) == pytest.approx(0.025, rel=1e-10)
    mirror_low, mirror_high = exact_compatible_limits(0, m, m, 0.95)
    assert (mirror_low, mirror_high) == (-1.0, -got_low)


def test_every_case_discordant_keeps_the_closed_form_on_the_observed_side():
    # (7, 3, 0, 0): P_U(0) = P[Bin(10, 1/2) <= 7] > 0.025, so the upper limit is positive and
    # uses T = 1: 2 x - 1 with P[Beta(8, 3) >= x] = 0.025 (scipy.special.betainccinv(8, 3, 0.025)).
    from scipy import special

    low, high = exact_compatible_limits(7, 3, 10, 0.95)
    assert high == pytest.approx(2 * special.betainccinv(8, 3, 0.025) - 1, rel=1e-13)
    assert low < 0.4 < high


def test_seed_example_interval_includes_zero_like_the_exact_test():
    # 70/4/12/14: the exact p is 0.077 and Agresti-Min excludes 0; this interval does not.
    ci = difference_interval(70, 4, 12, 14, method="exact-compatible")
    assert ci.low < 0 < ci.high
    assert difference_interval(70, 4, 12, 14).high < 0


def test_method_is_listed_with_its_display_name_and_reaches_analyze():
    assert "exact-compatible" in CI_METHODS
    assert CI_METHOD_NAMES["exact-compatible"] == "Exact-compatible (Fay-Lumbard)"
    data = analyze(60, 15, 5, 20, ci_method="exact-compatible").to_dict()["difference"]
    assert data["method"] == "exact-compatible"
    assert data["low"] == pytest.approx(0.00339067814944166, rel=1e-10)


def test_a_billion_cases_keep_finite_ordered_limits():
    low, high = exact_compatible_limits(1, 2, 10**9, 0.95)
    assert -1e-8 < low < -1e-9 < 0 < high < 1e-8
    low, high = exact_compatible_limits(10**6, 10**6 + 5000, 10**9, 0.95)
    assert low < -5000 / 10**9 < high < 0  # the exact p is about 4e-4: the interval excludes 0
    assert mcnemar_exact(10**6, 10**6 + 5000).pvalue < 0.05


# --- Compatibility: excludes 0 exactly when the doubled exact p is at most 1 - level. Levels
# whose 1 - level is dyadic (0.75, 0.5) let p equal alpha exactly; those are tested by name.

small_tables = st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 40)).filter(
    lambda t: sum(t) > 0
)


@given(small_tables, st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_excludes_zero_exactly_when_the_exact_test_rejects(table, level):
    b, c, rest = table
    low, high = exact_compatible_limits(b, c, b + c + rest, level)
    rejects = mcnemar_exact(b, c).pvalue <= 1 - level
    assert (low > 0 or high < 0) == rejects
    assert -1 <= low <= (b - c) / (b + c + rest) <= high <= 1


@given(small_tables)
def test_limits_mirror_when_b_and_c_swap_and_nest_as_level_rises(table):
    b, c, rest = table
    n = b + c + rest
    low, high = exact_compatible_limits(b, c, n, 0.9)
    mirror_low, mirror_high = exact_compatible_limits(c, b, n, 0.9)
    assert mirror_low == pytest.approx(-high, abs=1e-15) and mirror_high == pytest.approx(-low)
    wide_low, wide_high = exact_compatible_limits(b, c, n, 0.99)
    assert wide_low <= low and high <= wide_high


def test_p_equal_to_alpha_excludes_zero_as_the_test_rejects():
    # b, c = 0, 3: the doubled exact p is 2 P[Binomial(3, 1/2) = 0] = 2/8, equal to alpha at
    # level 0.75; the test rejects (p <= alpha), so the interval must exclude 0.
    low, high = exact_compatible_limits(0, 3, 3, 0.75)
    assert high < 0 and math.isclose(high, 0.0, abs_tol=1e-300)
    low, high = exact_compatible_limits(0, 3, 10, 0.75)
    assert high < 0


# --- The reconciliation sentence, when the shown interval and the shown test disagree.


def test_seed_example_with_agresti_min_gets_one_sentence_naming_the_compatible_interval():
    result = analyze(70, 4, 12, 14)
    text = reconciliation_of(result)
    assert text is not None and text.count(". ") == 0 and text.endswith(".")
    assert "Agresti-Min interval excludes 0" in text
    assert "does not reject at α = 0.05 (p = 0.077)" in text
    assert "conditions on the 16 discordant pairs" in text
    assert "exact-compatible (Fay-Lumbard) interval" in text
    assert json_of(result)["reconciliation"] == text


def test_mid_p_test_rejecting_while_the_exact_compatible_interval_includes_zero_is_explained():
    text = reconciliation_of(
        analyze(70, 4, 12, 14, convention="mid-p", ci_method="exact-compatible")
    )
    assert text.startswith("The McNemar mid-p test rejects at α = 0.05 (p = 0.0490)")
    assert "mid-p interval for the odds ratio" in text
    assert "exact McNemar" not in text  # mid-p is never called exact


def test_one_discordant_pair_is_singular_in_the_sentence():
    text = reconciliation_of(analyze(0, 1, 0, 0, level=0.5, ci_method="wald"))
    assert text is None or "1 discordant pair" in text


@given(small_tables, st.sampled_from(CI_METHODS), st.sampled_from(["doubling", "mid-p"]))
def test_reconciliation_appears_exactly_when_interval_and_test_disagree(table, method, convention):
    b, c, rest = table
    result = analyze(rest, b, c, 0, ci_method=method, convention=convention)
    excludes = result.difference.low > 0 or result.difference.high < 0
    # The reconciliation reads the binomial test in the chosen convention (mid-p or doubled).
    rejects = result.binomial.pvalue <= 1 - result.difference.level
    assert (reconciliation_of(result) is None) == (excludes == rejects)
    if method == "exact-compatible" and convention == "doubling":
        assert reconciliation_of(result) is None
