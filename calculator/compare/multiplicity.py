"""p-values adjusted for a family of tests: Holm's step-down and Bonferroni's single step.

Both are computed on the p-values and on their base-10 logs, so that a p-value below the smallest
double still has a finite adjusted log10.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from calculator._validation import check_choice
from calculator.errors import CalculatorError
from calculator.significance import agree_with_decisions  # its home; compare uses it from here

__all__ = ["ADJUSTMENTS", "adjust_pvalues", "adjust_log10_pvalues", "agree_with_decisions"]

#: Multiplicity adjustments: Holm (the default; never less powerful) and Bonferroni.
ADJUSTMENTS = ("holm", "bonferroni")


def adjust_pvalues(pvalues: Sequence[float], *, method: str = "holm") -> np.ndarray:
    """p-values adjusted for the family of all of them (the family size is their number).

    Parameters
    ----------
    pvalues : sequence of float
        Unadjusted p-values, each in [0, 1].
    method : {"holm", "bonferroni"}
        Holm's step-down adjustment or Bonferroni's.

    Returns
    -------
    numpy.ndarray
        Adjusted p-values in the input order.

    Raises
    ------
    ValueError
        On an unknown method or a p-value outside [0, 1].

    Notes
    -----
    With K p-values sorted p_(1) <= ... <= p_(K), Holm's adjusted p_(i) is
    max_{j <= i} min(1, (K - j + 1) p_(j)); Bonferroni's is min(1, K p). Rejecting where the
    adjusted p is at most alpha keeps the chance of any false rejection at most alpha whatever
    the dependence between the tests. Ties are ordered by position; the adjusted values do not
    depend on it.

    References
    ----------
    .. [1] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
           Scandinavian Journal of Statistics 6(2), 65-70.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    >>> adjust_pvalues([0.01, 0.04, 0.03], method="bonferroni").tolist()
    [0.03, 0.12, 0.09]
    """
    method = check_choice(method, "method", ADJUSTMENTS)
    values = np.asarray(pvalues, dtype=np.float64).ravel()
    if not np.all((values >= 0.0) & (values <= 1.0)):  # also rejects NaN
        raise CalculatorError("`pvalues` must all be numbers from 0 to 1.")
    size = len(values)
    if method == "bonferroni":
        return np.minimum(1.0, size * values)
    order = np.argsort(values, kind="stable")
    multipliers = size - np.arange(size)
    stepped = np.maximum.accumulate(np.minimum(1.0, multipliers * values[order]))
    adjusted = np.empty(size)
    adjusted[order] = stepped
    return adjusted


def adjust_log10_pvalues(log10_pvalues: Sequence[float], *, method: str = "holm") -> np.ndarray:
    """The same adjustment as :func:`adjust_pvalues`, applied to base-10 logs of p-values.

    Examples
    --------
    >>> np.round(adjust_log10_pvalues([-400.0, -2.0]), 6).tolist()
    [-399.69897, -2.0]
    """
    method = check_choice(method, "method", ADJUSTMENTS)
    values = np.asarray(log10_pvalues, dtype=np.float64).ravel()
    size = len(values)
    if method == "bonferroni":
        return np.minimum(0.0, math.log10(size) + values) if size else values
    order = np.argsort(values, kind="stable")
    multipliers = np.log10(size - np.arange(size))
    stepped = np.maximum.accumulate(np.minimum(0.0, multipliers + values[order]))
    adjusted = np.empty(size)
    adjusted[order] = stepped
    return adjusted
