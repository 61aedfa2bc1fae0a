"""Tests of B against A with a margin: non-inferiority, superiority by a margin, equivalence.

All three use Tango's (1998) score statistic for the paired difference, with the variance from the
restricted maximum-likelihood estimate (:func:`calculator.intervals.tango_score`, the statistic
whose inversion gives the Tango interval), and report the matching Tango interval for pB - pA at
level 1 - 2 alpha. Every difference here is B minus A, in pass rate: positive means B passes
more often.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from calculator._validation import check_choice, check_probability
from calculator.errors import CalculatorError
from calculator.intervals import difference_interval, tango_score
from calculator.mcnemar import LN10
from calculator.significance import rejects
from calculator.table import PairedTable
from calculator.tails import log_normal_pvalue

__all__ = [
    "MARGIN_HYPOTHESES",
    "MarginTestResult",
    "equivalence_test",
    "margin_test",
    "score_test",
]

#: What a margin test sets out to show about pB - pA, for a margin Delta > 0.
MARGIN_HYPOTHESES = ("non-inferiority", "superiority", "equivalence")


@dataclass(frozen=True, slots=True, kw_only=True)
class MarginTestResult:
    """A score test of pB - pA against a margin, with its matching interval.

    Attributes
    ----------
    hypothesis : str
        "non-inferiority" (H1: pB - pA > -margin), "superiority" (H1: pB - pA > margin) or
        "equivalence" (H1: -margin < pB - pA < margin).
    margin : float
        Delta, in pass rate (0.01 is one percentage point).
    estimate : float
        The observed pB - pA = (c - b)/n.
    statistic : float
        Tango's z for pB - pA at the boundary of the null hypothesis: positive when B does
        better than the boundary. For equivalence, the z of the one-sided test with the larger p.
    pvalue, log10_pvalue : float
        One-sided p-value (for equivalence the larger of the two, TOST) and its log10.
    alpha : float
        Significance level of the decision.
    reject : bool
        True when the p-value is at most alpha: the hypothesis is shown.
    low, high : float
        The Tango interval for pB - pA at level 1 - 2 alpha.
    level : float
        1 - 2 alpha.
    """

    hypothesis: str
    margin: float
    estimate: float
    statistic: float
    pvalue: float
    log10_pvalue: float
    alpha: float
    reject: bool
    low: float
    high: float
    level: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def score_test(
    b: int, c: int, n: int, null_difference: float, alternative: str
) -> tuple[float, float]:
    """Tango's z and the natural log of its p-value for H0: pB - pA = `null_difference`.

    The counts must already be valid (n >= b + c, n >= 1). z = -T(-null_difference) is positive
    when B does better than the null; "greater" has p = Phi(-z), "less" p = Phi(z),
    "two-sided" p = 2 Phi(-|z|).

    Examples
    --------
    >>> z, log_p = score_test(15, 5, 100, 0.0, "two-sided")
    >>> round(z * z, 6), round(math.exp(log_p), 4)
    (5.0, 0.0253)
    """
    z = -tango_score(b, c, n, -null_difference)
    log_p = log_normal_pvalue(z, alternative)
    return z, log_p


def margin_test(
    a: int,
    b: int,
    c: int,
    d: int,
    *,
    margin: float,
    hypothesis: str = "non-inferiority",
    alpha: float = 0.05,
) -> MarginTestResult:
    """Is B no worse than A by more than a margin (or better by more, or equivalent within it)?

    Parameters
    ----------
    a, b, c, d : int
        Both pass, only A passes, only B passes, both fail; n = a + b + c + d >= 1.
    margin : float
        Delta, strictly between 0 and 1, in pass rate (0.01 = one percentage point). Choose it
        before looking at the data.
    hypothesis : {"non-inferiority", "superiority", "equivalence"}
        What to show: pB - pA > -Delta; pB - pA > Delta; or |pB - pA| < Delta.
    alpha : float
        One-sided significance level, strictly between 0 and 1/2.

    Returns
    -------
    MarginTestResult

    Raises
    ------
    TypeError, ValueError
        On an invalid count, an empty table, a margin outside (0, 1), an alpha outside
        (0, 1/2) or an unknown hypothesis.

    Notes
    -----
    With D = pA - pB and Tango's score statistic

        T(D0) = (b - c - n D0) / sqrt(n (2 q + D0 (1 - D0))),

    where q is the restricted maximum-likelihood estimate of the "only B passes" probability
    under D = D0, the tests are (Phi the standard normal distribution function):

    - non-inferiority, H0: pB - pA <= -Delta: p = Phi(T(Delta));
    - superiority by the margin, H0: pB - pA <= Delta: p = Phi(T(-Delta));
    - equivalence, H0: |pB - pA| >= Delta, by two one-sided tests (Schuirmann's TOST):
      p = max(Phi(T(Delta)), Phi(-T(-Delta))).

    Each rejects at level alpha exactly when the Tango interval for pB - pA at level
    1 - 2 alpha lies above -Delta (non-inferiority), above Delta (superiority), or inside
    (-Delta, Delta) (equivalence), since the interval is the set of D0 with
    |T(D0)| <= z_{1-alpha} and T decreases in D0. At Delta = 0, T(0)^2 is McNemar's
    uncorrected chi-square.

    With no discordant pairs (b = c = 0) the test still answers. Under the null boundary
    pB - pA = -Delta the restricted estimate puts probability Delta on "only A passes" and 0
    on "only B passes", so n cases without a single one where only A passes are evidence
    against it: z = sqrt(n Delta / (1 - Delta)), and non-inferiority is shown once
    n Delta / (1 - Delta) > z_{1-alpha}^2 (n >= 268 at Delta = 0.01, alpha = 0.05). The test
    is asymptotic; there it is somewhat more liberal than the exact bound (1 - Delta)^n <= alpha
    (n >= 299).

    References
    ----------
    .. [1] Tango, T. (1998). Equivalence test and confidence interval for the difference in
           proportions for the paired-sample design. Statistics in Medicine 17(8), 891-908.
    .. [2] Nam, J. (1997). Establishing equivalence of two treatments and sample size
           requirements in matched-pairs design. Biometrics 53(4), 1422-1430.
    .. [3] Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the
           power approach for assessing the equivalence of average bioavailability. Journal of
           Pharmacokinetics and Biopharmaceutics 15(6), 657-680.

    Examples
    --------
    Tango's (1998) Table V example: 43 pairs where both pass and 1 where only B passes.

    >>> r = margin_test(43, 0, 1, 0, margin=0.1, hypothesis="equivalence")
    >>> round(r.low, 3), round(r.high, 3), r.reject
    (-0.037, 0.096, True)
    """
    table = PairedTable(a, b, c, d)
    if table.n == 0:
        raise CalculatorError("The table is empty (a + b + c + d = 0): a test needs a case.")
    margin = check_probability(margin, "margin")
    alpha = check_alpha(alpha)
    check_choice(hypothesis, "hypothesis", MARGIN_HYPOTHESES)
    n, b, c = table.n, table.b, table.c
    if hypothesis == "non-inferiority":
        z, log_p = score_test(b, c, n, -margin, "greater")
    elif hypothesis == "superiority":
        z, log_p = score_test(b, c, n, margin, "greater")
    else:
        lower = score_test(b, c, n, -margin, "greater")
        upper = score_test(b, c, n, margin, "less")
        z, log_p = lower if lower[1] >= upper[1] else upper
    low, high = b_minus_a_interval(table, alpha)
    return MarginTestResult(
        hypothesis=hypothesis,
        margin=margin,
        estimate=(c - b) / n,
        statistic=z,
        pvalue=math.exp(log_p),
        log10_pvalue=log_p / LN10,
        alpha=alpha,
        reject=rejects(log_p / LN10, alpha),
        low=low,
        high=high,
        level=1.0 - 2.0 * alpha,
    )


def equivalence_test(
    a: int, b: int, c: int, d: int, *, margin: float, alpha: float = 0.05
) -> MarginTestResult:
    """Are A and B within +/- `margin` of each other? Tango's score test by TOST.

    Shorthand for ``margin_test(..., hypothesis="equivalence")``.

    Examples
    --------
    >>> equivalence_test(60, 15, 5, 20, margin=0.05).reject
    False
    """
    return margin_test(a, b, c, d, margin=margin, hypothesis="equivalence", alpha=alpha)


def check_alpha(alpha: object) -> float:
    """alpha for a one-sided test with a 1 - 2 alpha interval: strictly between 0 and 1/2."""
    alpha = check_probability(alpha, "alpha")
    if alpha >= 0.5:
        raise CalculatorError(
            f"`alpha` must be a number strictly between 0 and 0.5 for a test against a margin, "
            f"but got {alpha!r}."
        )
    return alpha


def b_minus_a_interval(table: PairedTable, alpha: float) -> tuple[float, float]:
    """The Tango interval for pB - pA at level 1 - 2 alpha (the A - B interval mirrored)."""
    ci = difference_interval(
        table.a, table.b, table.c, table.d, level=1.0 - 2.0 * alpha, method="tango"
    )
    return -ci.high, -ci.low
