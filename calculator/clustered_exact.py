"""The exact test that the clustered McNemar test approximates, and the one rule that holds an
approximate cluster test at an exact p.

Durkalski's X2 = S^2 / sum_i d_i^2 (:func:`calculator.clustered.clustered_mcnemar`), with
d_i = b_i - c_i the lean of cluster i and S their sum, is referred to chi-square on 1 df, an
approximation in the number of clusters: with four clusters each leaning one case towards A it
gives p = 0.0455, while only 2 of the 16 sign patterns of the leans reach that X2 (p = 0.125).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from calculator.scores.signflip import SignFlipTest

__all__ = ["cluster_sign_flip", "held_at_exact", "log10_of"]

# Up to this many leaning clusters a pattern count over 2^m is held exactly by a double.
_DYADIC_UNITS = 50


def cluster_sign_flip(
    b_counts: Sequence[int] | np.ndarray,
    c_counts: Sequence[int] | np.ndarray,
    *,
    alternative: str = "two-sided",
    unit: str = "cluster",
) -> SignFlipTest:
    """The exact sign-flip test of the clusters' leans b_i - c_i (A - B, as the scores' tests).

    Under H0 (A and B exchangeable within each cluster) each lean is as likely to be +d_i as
    -d_i. sum d_i^2 is the same under every sign pattern, so ordering the patterns by |S| orders
    them by X2: the p-value is the share of the 2^m patterns of the m leaning clusters with |S|
    at least the observed one (one tail with `alternative` "greater", B ahead, or "less"),
    computed by convolution (:func:`calculator.scores.signflip.lattice_sign_flip`).

    Raises
    ------
    calculator.errors.CalculatorError
        On no cluster, or leans summing to more than
        :data:`calculator.scores.lattice.MAX_SUPPORT` in absolute value.

    Examples
    --------
    Four clusters each leaning one case towards A, and one balanced:

    >>> cluster_sign_flip([1, 1, 1, 1, 2], [0, 0, 0, 0, 2]).pvalue
    0.125
    """
    from calculator.clustered import _check_counts
    from calculator.scores.signflip import lattice_sign_flip

    b_i, c_i = _check_counts(b_counts, "b_counts"), _check_counts(c_counts, "c_counts")
    test = lattice_sign_flip(b_i - c_i, alternative=alternative, unit=unit)
    m = test.nonzero_units
    if test.note is None and m <= _DYADIC_UNITS:
        # The p is a count of patterns over 2^m: snapped to it, a tie with a dyadic alpha
        # (1/32) is exact in floating point, as the exact McNemar test's is.
        return dataclasses.replace(test, pvalue=round(test.pvalue * 2.0**m) / 2.0**m)
    return test


def held_at_exact(log10_pvalue: float, exact_log10_pvalue: float) -> tuple[float, bool]:
    """The one rule for an approximate cluster test beside an exact test of the same data: its
    p is never reported below the exact test's; it is raised to it, and `held` says it was.

    Parameters
    ----------
    log10_pvalue : float
        log10 of the approximate test's p-value.
    exact_log10_pvalue : float
        log10 of the exact test's p-value (-inf where it underflows).

    Returns
    -------
    (float, bool)
        log10 of the p-value to report, and whether it is the exact one.

    Examples
    --------
    >>> log10_p, held = held_at_exact(math.log10(0.0455), math.log10(0.125))
    >>> round(10**log10_p, 3), held
    (0.125, True)
    """
    if exact_log10_pvalue > log10_pvalue:
        return exact_log10_pvalue, True
    return log10_pvalue, False


def log10_of(pvalue: float) -> float:
    """log10 of a p-value, -inf for 0 (a p-value that underflowed)."""
    return math.log10(pvalue) if pvalue > 0.0 else -math.inf
