"""McNemar's tests on a paired table, and the unpaired z-test shown for contrast.

Every p-value comes with its base-10 logarithm, computed in the log domain, so that a p-value far
below the smallest double (about 1e-308) is still reported exactly instead of as 0.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fractions import Fraction

import numpy as np
from scipy import special

from calculator._validation import check_choice, check_count
from calculator.errors import CalculatorTypeError
from calculator.tails import log_binom_half_cdf, log_binom_half_pmf

__all__ = [
    "ALTERNATIVES",
    "CONVENTIONS",
    "ExactTestResult",
    "Chi2TestResult",
    "ZTestResult",
    "EXACT_TIE_LIMIT",
    "RATIONAL_MAX_DISCORDANT",
    "exact_pvalue_fraction",
    "mcnemar_exact",
    "mcnemar_chi2",
    "unpaired_z_test",
    "log_binom_half_cdf",
]

CONVENTIONS = ("doubling", "mid-p")
#: scipy's vocabulary. "greater": B's pass rate is higher than A's (c > b); "less": it is lower.
ALTERNATIVES = ("two-sided", "greater", "less")

#: log(10), to turn a natural-log p-value into its base-10 logarithm.
LN10 = math.log(10.0)


@dataclass(frozen=True, slots=True, kw_only=True)
class ExactTestResult:
    """Result of the exact (conditional binomial) McNemar test.

    Attributes
    ----------
    statistic : int
        b, the discordant pairs that favour A (only A passes).
    discordant : int
        m = b + c.
    pvalue : float
        p-value; may underflow to 0.0 for m in the thousands, see `log10_pvalue`.
    log10_pvalue : float
        log10 of the p-value, finite for every table.
    convention : str
        "doubling" or "mid-p".
    alternative : str
        "two-sided"; "greater" (B's pass rate higher than A's) or "less" (lower).
    """

    statistic: int
    discordant: int
    pvalue: float
    log10_pvalue: float
    convention: str
    alternative: str = "two-sided"

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Chi2TestResult:
    """Result of McNemar's chi-square test (1 degree of freedom).

    `statistic` is None when there are no discordant pairs (0/0 is undefined); `pvalue` is then 1.
    `alternative` is "two-sided", "greater" (B's pass rate higher than A's) or "less".
    """

    statistic: float | None
    df: int
    pvalue: float
    log10_pvalue: float
    continuity_correction: bool
    alternative: str = "two-sided"

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class ZTestResult:
    """Result of the unpaired pooled two-proportion z-test (ignores the pairing; for contrast).

    `statistic` is None when the pooled pass rate is 0 or 1 (standard error 0); `pvalue` is then 1.
    """

    statistic: float | None
    pvalue: float
    log10_pvalue: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def mcnemar_exact(
    b: int, c: int, *, convention: str = "doubling", alternative: str = "two-sided"
) -> ExactTestResult:
    """Exact McNemar test: b given b + c is Binomial(b + c, 1/2) when A and B pass equally often.

    Parameters
    ----------
    b, c : int
        Discordant counts: only A passes, only B passes.
    convention : {"doubling", "mid-p"}
        How the p-value is formed from the binomial tail.
    alternative : {"two-sided", "greater", "less"}
        The alternative hypothesis: the pass rates differ; B's pass rate is higher than A's
        (c > b expected); B's pass rate is lower than A's.

    Returns
    -------
    ExactTestResult

    Raises
    ------
    TypeError, ValueError
        If `b` or `c` is not a non-negative integer, or `convention` is unknown.

    Notes
    -----
    With m = b + c, k = min(b, c) and T ~ Binomial(m, 1/2):

    - doubling: p = min(1, 2 P[T <= k]);
    - mid-p: p = 2 P[T <= k] - P[T = k] when b != c, and p = 1 - P[T = k] / 2 when b == c
      (Fagerland, Lydersen & Laake's definition: only the observed split is as extreme).

    One-sided: "greater" (B better) takes the tail P[T <= b], "less" (A better) P[T >= b];
    mid-p subtracts P[T = b] / 2 from either. The two one-sided p-values add up to
    1 + P[T = b] (to 1 under mid-p), and the doubled two-sided p is twice the smaller, capped
    at 1.

    With no discordant pairs (m = 0) no case tells the systems apart and p = 1, one-sided too.

    References
    ----------
    .. [1] McNemar, Q. (1947). Note on the sampling error of the difference between correlated
           proportions or percentages. Psychometrika 12(2), 153-157.
    .. [2] Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
           matched-pairs data: mid-p and asymptotic are better than exact conditional.
           BMC Medical Research Methodology 13:91.

    Examples
    --------
    >>> r = mcnemar_exact(15, 5)
    >>> round(r.pvalue, 4), r.convention
    (0.0414, 'doubling')
    >>> round(mcnemar_exact(5, 5, convention="mid-p").pvalue, 4)
    0.877
    >>> round(mcnemar_exact(15, 5, alternative="less").pvalue, 4)
    0.0207
    """
    b = check_count(b, "b")
    c = check_count(c, "c")
    check_choice(convention, "convention", CONVENTIONS)
    check_choice(alternative, "alternative", ALTERNATIVES)
    m = b + c
    k = min(b, c)
    exact = (
        exact_pvalue_fraction(b, c, convention=convention, alternative=alternative)
        if m <= RATIONAL_MAX_DISCORDANT
        else None
    )
    if exact is not None:
        return ExactTestResult(
            statistic=b,
            discordant=m,
            pvalue=float(exact),  # the float nearest the rational, rounded once
            log10_pvalue=math.log10(exact.numerator) - math.log10(exact.denominator),
            convention=convention,
            alternative=alternative,
        )
    if m == 0:
        log_p = 0.0
    elif alternative != "two-sided":
        log_p = _log_one_sided_exact(b if alternative == "greater" else c, m, convention)
    elif convention == "doubling":
        log_p = min(0.0, math.log(2.0) + log_binom_half_cdf(k, m))
    elif b == c:
        log_p = math.log1p(-0.5 * math.exp(log_binom_half_pmf(k, m)))
    else:
        # 2 P[T <= k] - P[T = k] = P[T <= k] + P[T <= k - 1], both in the log domain.
        log_p = float(np.logaddexp(log_binom_half_cdf(k, m), log_binom_half_cdf(k - 1, m)))
    return ExactTestResult(
        statistic=b,
        discordant=m,
        pvalue=math.exp(log_p),
        log10_pvalue=log_p / LN10,
        convention=convention,
        alternative=alternative,
    )


#: Largest number of discordant pairs for which a near-tie is settled in exact arithmetic.
EXACT_TIE_LIMIT = 20_000
#: Up to this many discordant pairs :func:`mcnemar_exact` gives p as the float nearest its
#: rational k/2^m (:func:`exact_pvalue_fraction`): 1/32 as 0.03125, not 0.031250000000000014
#: through logs. Above it the log-domain sums, within float noise of the same value.
RATIONAL_MAX_DISCORDANT = 200


def exact_pvalue_fraction(
    b: int, c: int, *, convention: str = "doubling", alternative: str = "two-sided"
) -> Fraction | None:
    """The exact McNemar p-value as a fraction, or None beyond :data:`EXACT_TIE_LIMIT` pairs.

    With m = b + c and S(k) = sum_{j <= k} C(m, j): two-sided doubling p = min(1, 2 S(k)/2^m)
    with k = min(b, c); two-sided mid-p p = (2 S(k) - C(m, k))/2^m, and 1 - C(m, k)/2^(m+1) at
    b = c, as :func:`calculator.mcnemar_exact` defines it; one-sided "greater"
    (B better) takes k = b, "less" k = c, with p = S(k)/2^m, less C(m, k)/2^(m+1) under mid-p.

    Examples
    --------
    >>> exact_pvalue_fraction(6, 0)
    Fraction(1, 32)
    >>> exact_pvalue_fraction(3, 1, convention="mid-p", alternative="less")
    Fraction(3, 16)
    """
    m = b + c
    if m > EXACT_TIE_LIMIT:
        return None
    if m == 0:
        return Fraction(1)
    two_sided = alternative == "two-sided"
    k = min(b, c) if two_sided else (b if alternative == "greater" else c)
    term, tail = 1, 1  # C(m, 0) and S(0)
    for j in range(1, k + 1):
        term = term * (m - j + 1) // j
        tail += term
    if convention == "doubling":
        numerator = 2 * tail if two_sided else tail
    elif two_sided and b == c:
        return 1 - Fraction(term, 2 ** (m + 1))  # the mid-p value at the centre: 1 - P[T = k]/2
    else:
        numerator = 2 * tail - term if two_sided else Fraction(2 * tail - term, 2)
    return min(Fraction(1), Fraction(numerator) / 2**m)


def _log_one_sided_exact(k: int, m: int, convention: str) -> float:
    """log P[T <= k] for T ~ Binomial(m, 1/2), less half P[T = k] under mid-p.

    "greater" passes k = b; "less" passes k = c, since P[T >= b] = P[T <= c] by symmetry.
    """
    if convention == "doubling":
        return log_binom_half_cdf(k, m)
    # P[T <= k] - P[T = k]/2 = (P[T <= k] + P[T <= k - 1]) / 2
    both = float(np.logaddexp(log_binom_half_cdf(k, m), log_binom_half_cdf(k - 1, m)))
    return both - math.log(2.0)


def mcnemar_chi2(
    b: int, c: int, *, correction: bool = False, alternative: str = "two-sided"
) -> Chi2TestResult:
    """McNemar's chi-square test with 1 degree of freedom, optionally continuity corrected.

    Parameters
    ----------
    b, c : int
        Discordant counts: only A passes, only B passes.
    correction : bool
        Apply Edwards' continuity correction.
    alternative : {"two-sided", "greater", "less"}
        The pass rates differ; B's pass rate is higher than A's; B's is lower than A's.

    Returns
    -------
    Chi2TestResult

    Notes
    -----
    Uncorrected: X2 = (b - c)^2 / (b + c). Corrected: X2 = max(0, |b - c| - 1)^2 / (b + c); the
    floor at 0 makes b == c give X2 = 0 and p = 1, as R's ``mcnemar.test`` does. The p-value is
    P[chi2_1 >= X2] = 2 Phi(-sqrt(X2)), computed in the log domain. At b + c = 0 the statistic
    is undefined (None) and p = 1.

    One-sided, the normal form of the binomial tail: "greater" (B better) has
    p = Phi((b - c + k)/sqrt(b + c)) and "less" p = Phi((c - b + k)/sqrt(b + c)), with k = 1
    under the correction (the half-count of each tail) and 0 without. When c > b the "greater"
    p is half the two-sided one. `statistic` stays X2; the direction gives its sign.

    References
    ----------
    .. [1] Edwards, A. L. (1948). Note on the "correction for continuity" in testing the
           significance of the difference between correlated proportions. Psychometrika 13(3),
           185-187.

    Examples
    --------
    >>> r = mcnemar_chi2(15, 5)
    >>> r.statistic, round(r.pvalue, 4)
    (5.0, 0.0253)
    >>> round(mcnemar_chi2(4, 12, correction=True).statistic, 2)
    3.06
    >>> round(mcnemar_chi2(15, 5, alternative="less").pvalue, 4)
    0.0127
    """
    b = check_count(b, "b")
    c = check_count(c, "c")
    if not isinstance(correction, bool | np.bool_):
        raise CalculatorTypeError(f"`correction` must be True or False, but got {correction!r}.")
    check_choice(alternative, "alternative", ALTERNATIVES)
    m = b + c
    if m == 0:
        return Chi2TestResult(
            statistic=None,
            df=1,
            pvalue=1.0,
            log10_pvalue=0.0,
            continuity_correction=correction,
            alternative=alternative,
        )
    gap = abs(b - c)
    if correction:
        gap = max(0, gap - 1)
    if alternative == "two-sided":
        root = gap / math.sqrt(m)  # sqrt(X2), the |z| of the normal form
        log_p = min(0.0, math.log(2.0) + float(special.log_ndtr(-root)))
    else:
        towards = (c - b) if alternative == "greater" else (b - c)
        log_p = float(special.log_ndtr((int(correction) - towards) / math.sqrt(m)))
    return Chi2TestResult(
        statistic=gap * gap / m,
        df=1,
        pvalue=math.exp(log_p),
        log10_pvalue=log_p / LN10,
        continuity_correction=bool(correction),
        alternative=alternative,
    )


def unpaired_z_test(a: int, b: int, c: int, d: int) -> ZTestResult:
    """Pooled two-proportion z-test that treats A's and B's outcomes as independent samples.

    This is the wrong test for paired data, shown only to contrast with McNemar's.

    Notes
    -----
    pA = (a + b)/n, pB = (a + c)/n, pooled p = (pA + pB)/2, se = sqrt(2 p (1 - p) / n),
    z = (pA - pB)/se, two-sided p = 2 Phi(-|z|). Written in counts,
    z = (b - c) sqrt(2n) / sqrt((2a + b + c)(b + c + 2d)), which stays exact for counts up to
    10^9. When the pooled rate is 0 or 1 (se = 0) the two rates are equal and p = 1.

    Examples
    --------
    >>> r = unpaired_z_test(70, 4, 12, 14)
    >>> round(r.statistic, 2), round(r.pvalue, 3)
    (-1.37, 0.172)
    """
    a, b, c, d = (check_count(v, name) for v, name in zip((a, b, c, d), "abcd", strict=True))
    z = unpaired_z_statistic(np.float64(a), b, c, d)
    if not np.isfinite(z):
        return ZTestResult(statistic=None, pvalue=1.0, log10_pvalue=0.0)
    log_p = two_sided_normal_log_p(float(z))
    return ZTestResult(statistic=float(z), pvalue=math.exp(log_p), log10_pvalue=log_p / LN10)


def unpaired_z_statistic(a: np.ndarray | np.float64, b: int, c: int, d: int) -> np.ndarray:
    """z of the pooled two-proportion test, vectorised over `a`; NaN where se = 0."""
    n = a + (b + c + d)
    pass_total = 2.0 * a + (b + c)  # A's passes plus B's passes
    fail_total = float(b + c + 2 * d)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (b - c) * np.sqrt(2.0 * n) / np.sqrt(pass_total * fail_total)
    return np.where(pass_total * fail_total > 0, z, np.nan)


def two_sided_normal_log_p(z: np.ndarray | float) -> np.ndarray | float:
    """log of 2 Phi(-|z|), capped at log 1 = 0."""
    return np.minimum(0.0, math.log(2.0) + special.log_ndtr(-np.abs(z)))
