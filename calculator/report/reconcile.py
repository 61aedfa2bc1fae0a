"""One sentence for when the shown interval and the shown McNemar test disagree.

An interval for the difference and a test of no difference are different procedures: the usual
intervals are large-sample formulas for the difference over all n cases, while the exact test
conditions on the m = b + c discordant pairs. At the same level they can disagree (the seed
example 70/4/12/14: the 95% Agresti-Min interval excludes 0, the exact p is 0.077). The
functions here decide whether they disagree and say so, naming the interval that cannot.
"""

from __future__ import annotations

from calculator.intervals import DifferenceInterval
from calculator.mcnemar import ExactTestResult
from calculator.report.formatting import format_confidence, format_p_equals, method_words, plural
from calculator.significance import exact_test_rejects

__all__ = ["interval_excludes_zero", "reconciliation", "rejects_at"]


def interval_excludes_zero(difference: DifferenceInterval) -> bool:
    """True when the whole interval lies on one side of 0."""
    return difference.low > 0.0 or difference.high < 0.0


def rejects_at(exact: ExactTestResult, alpha: float) -> bool:
    """True when the test's p-value is at most `alpha`, by the one rule
    (:func:`calculator.significance.exact_test_rejects`: exact at a tie, never lost to
    underflow)."""
    return exact_test_rejects(
        exact.statistic,
        exact.discordant - exact.statistic,
        alpha,
        convention=exact.convention,
        alternative=exact.alternative,
        log10_pvalue=exact.log10_pvalue,
    )


def reconciliation(difference: DifferenceInterval, exact: ExactTestResult) -> str | None:
    """The sentence that explains a disagreement between the interval and the test, or None.

    The test is judged at alpha = 1 - level, the level the interval was built at.

    Parameters
    ----------
    difference : DifferenceInterval
        The interval shown for the difference A - B.
    exact : ExactTestResult
        The McNemar test shown: exact (doubling) or mid-p.

    Returns
    -------
    str or None
        None when the interval excludes 0 exactly when the test rejects; otherwise one sentence
        that says which way they disagree, why, and which interval agrees with that test by
        construction.

    Notes
    -----
    The exact-compatible (Fay & Lumbard 2021) interval and the exact odds-ratio interval agree
    with the doubled exact test at every table; the mid-p odds-ratio interval agrees with the
    mid-p test. So with the exact test and the exact-compatible interval this returns None.

    Examples
    --------
    >>> from calculator.intervals import difference_interval
    >>> from calculator.mcnemar import mcnemar_exact
    >>> text = reconciliation(difference_interval(70, 4, 12, 14), mcnemar_exact(4, 12))
    >>> text.startswith("The 95% Agresti-Min interval excludes 0")
    True
    >>> ci = difference_interval(70, 4, 12, 14, method="exact-compatible")
    >>> reconciliation(ci, mcnemar_exact(4, 12)) is None
    True
    """
    alpha = 1.0 - difference.level
    excludes, rejects = interval_excludes_zero(difference), rejects_at(exact, alpha)
    if excludes == rejects:
        return None
    level = format_confidence(difference.level)
    method = method_words(difference.method)
    mid_p = exact.convention == "mid-p"
    test = "McNemar mid-p test" if mid_p else "exact McNemar test"
    p_text = format_p_equals(exact.pvalue, exact.log10_pvalue, alpha=alpha)
    if excludes:
        what = (
            f"The {level} {method} interval excludes 0, but the {test} does not reject at "
            f"α = {alpha:.3g} ({p_text})"
        )
    else:
        what = (
            f"The {test} rejects at α = {alpha:.3g} ({p_text}), but the {level} {method} "
            "interval includes 0"
        )
    discordant = plural(exact.discordant, "discordant pair")
    if difference.method == "exact-compatible":
        # Only with the mid-p test: the exact-compatible interval matches the doubled exact test.
        why = (
            "the exact-compatible interval is built to agree with the exact test, which is more "
            f"conservative than the mid-p test; given the {discordant}, the mid-p interval for "
            "the odds ratio agrees with the mid-p test"
        )
    else:
        agreeing = (
            "the mid-p interval for the odds ratio"
            if mid_p
            else "the exact-compatible (Fay-Lumbard) interval for the difference"
        )
        why = (
            f"the two are different procedures, the {method} interval being a large-sample "
            f"formula for the difference over all cases while the {test} conditions on the "
            f"{discordant}, and only {agreeing} is built to agree with this test"
        )
    return f"{what}: {why}."
