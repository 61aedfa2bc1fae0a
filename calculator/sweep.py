"""The both-pass sweep behind the chart: p-values as the both-pass count a moves.

McNemar's tests look only at b and c, so their p-values are flat in a; the unpaired test's is not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calculator._validation import MAX_COUNT, check_count
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.mcnemar import (
    LN10,
    mcnemar_chi2,
    mcnemar_exact,
    two_sided_normal_log_p,
    unpaired_z_statistic,
)

__all__ = ["PassSweep", "both_pass_sweep"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PassSweep:
    """p-values (and their log10) of three tests at each both-pass count in `a`.

    All attributes are numpy arrays of the same length as `a`.
    """

    a: np.ndarray
    exact_pvalue: np.ndarray
    exact_log10: np.ndarray
    chi2_pvalue: np.ndarray
    chi2_log10: np.ndarray
    unpaired_pvalue: np.ndarray
    unpaired_log10: np.ndarray


def both_pass_sweep(
    a_values: object,
    b: int,
    c: int,
    d: int,
    *,
    convention: str = "doubling",
    correction: bool = False,
) -> PassSweep:
    """Exact McNemar, chi-square McNemar and unpaired z-test p-values over both-pass counts.

    Parameters
    ----------
    a_values : array_like of int
        Both-pass counts to evaluate (non-negative whole numbers).
    b, c, d : int
        The other three cells, held fixed.
    convention, correction
        As in :func:`mcnemar_exact` and :func:`mcnemar_chi2`.

    Notes
    -----
    The McNemar p-values do not depend on a, so they are computed once and repeated; the
    unpaired z-test is evaluated for all a at once. A table with no cases (a = b = c = d = 0)
    gets p = 1 from every test.

    Examples
    --------
    >>> s = both_pass_sweep([0, 60, 600], 15, 5, 20)
    >>> s.exact_pvalue.round(3).tolist()
    [0.041, 0.041, 0.041]
    >>> s.unpaired_pvalue.round(3).tolist()
    [0.01, 0.123, 0.186]
    """
    a = np.asarray(a_values)
    if a.ndim != 1 or not (
        np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)
    ):
        raise CalculatorTypeError("`a_values` must be a one-dimensional sequence of whole numbers.")
    if a.size and not (
        np.all(np.isfinite(a))
        and np.all(a >= 0)
        and np.all(a == np.floor(a))
        and a.max() <= MAX_COUNT
    ):
        raise CalculatorError(
            f"`a_values` must hold non-negative whole numbers of at most {MAX_COUNT:,} only."
        )
    b, c, d = check_count(b, "b"), check_count(c, "c"), check_count(d, "d")
    exact = mcnemar_exact(b, c, convention=convention)
    chi2 = mcnemar_chi2(b, c, correction=correction)
    a = a.astype(np.float64)
    z = unpaired_z_statistic(a, b, c, d)
    unpaired_log = np.where(np.isfinite(z), two_sided_normal_log_p(np.nan_to_num(z)), 0.0)
    size = a.shape
    return PassSweep(
        a=a.astype(np.int64),
        exact_pvalue=np.full(size, exact.pvalue),
        exact_log10=np.full(size, exact.log10_pvalue),
        chi2_pvalue=np.full(size, chi2.pvalue),
        chi2_log10=np.full(size, chi2.log10_pvalue),
        unpaired_pvalue=np.exp(unpaired_log),
        unpaired_log10=unpaired_log / LN10,
    )
