"""Each category of a paired k x k table on its own: how much more often A chooses it than B,
with simultaneous intervals, and McNemar's exact test of that category against the rest, Holm
adjusted over the k categories.

- :class:`CategoryComparison`, :func:`compare_categories`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from scipy import special

from calculator._validation import check_probability
from calculator.intervals import difference_interval
from calculator.mcnemar import mcnemar_exact
from calculator.square.table import SquareTable

__all__ = ["CategoryComparison", "compare_categories"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CategoryComparison:
    """One category against the rest.

    Attributes
    ----------
    label : str
        The category.
    share_a, share_b : float
        The share of cases A (B) puts in it: n_i+ / n and n_+i / n.
    difference : float
        share_a - share_b.
    low, high : float
        Bonferroni-type simultaneous interval for the difference (all k hold together at the
        level).
    only_a, only_b : int
        Cases only A (only B) puts in the category: n_i+ - n_ii and n_+i - n_ii.
    pvalue, log10_pvalue : float
        Exact McNemar test (doubled smaller tail) of only_a against only_b.
    adjusted_pvalue, log10_adjusted_pvalue : float
        Holm's adjustment of the k p-values.
    """

    label: str
    share_a: float
    share_b: float
    difference: float
    low: float
    high: float
    only_a: int
    only_b: int
    pvalue: float
    log10_pvalue: float
    adjusted_pvalue: float
    log10_adjusted_pvalue: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def compare_categories(
    table: SquareTable, *, level: float = 0.95
) -> tuple[CategoryComparison, ...]:
    """Every category against the rest, in the table's order.

    Notes
    -----
    Collapsing the table to "category i or not" gives a paired 2 x 2 table whose discordant
    cells are only_a = n_i+ - n_ii and only_b = n_+i - n_ii; its exact McNemar p-value (the
    doubling convention) tests whether A and B choose the category equally often. The k
    p-values are Holm adjusted, which holds the chance of any false finding at most alpha
    under any dependence between them.

    The interval for delta_i = (n_i+ - n_+i) / n is Fagerland, Lydersen & Laake's
    Bonferroni-type simultaneous interval: the delta with
    (deltahat - delta)^2 <= c (s_i / n^2 - delta^2 / n), s_i = n_i+ + n_+i - 2 n_ii, where c is
    the 1 - (1 - level) / k quantile of chi-square with 1 df. Where that set is not a proper
    interval (no case off the diagonal in the category's row or column, so the formula's
    variance is 0 and it would give the single point 0), the interval is Tango's score
    interval for the collapsed 2 x 2 table at the same Bonferroni level 1 - (1 - level)/k,
    which stays proper at zero discordant cases and narrows as agreeing cases add up.

    References
    ----------
    .. [1] Fagerland, M. W., Lydersen, S. & Laake, P. (2017). Statistical Analysis of
           Contingency Tables. Chapman & Hall/CRC, Chapter 9 (R package contingencytables,
           ``Bonferroni_type_CIs_paired_cxc``).
    .. [2] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
           Scandinavian Journal of Statistics 6(2), 65-70.

    Examples
    --------
    >>> from calculator.square.table import square_table
    >>> t = square_table([[596, 18, 6, 5], [0, 2, 0, 0], [0, 0, 42, 0], [11, 0, 0, 0]])
    >>> last = compare_categories(t)[-1]
    >>> round(last.difference, 4), round(last.low, 4), round(last.high, 4)
    (0.0088, -0.0059, 0.0233)
    """
    level = check_probability(level, "level")
    counts, n, k = table.counts, table.n, table.k
    rows, columns = table.rows, table.columns
    critical = float(special.chdtri(1, (1.0 - level) / k))  # chi-square(1) upper quantile
    tests = [mcnemar_exact(rows[i] - counts[i][i], columns[i] - counts[i][i]) for i in range(k)]
    # Imported here: the package of many systems' comparisons is not needed by the calculator
    # page, which imports this module with the k x k section's labels (issue 37).
    from calculator.compare.multiplicity import adjust_log10_pvalues, adjust_pvalues

    adjusted = adjust_pvalues([t.pvalue for t in tests])
    log_adjusted = adjust_log10_pvalues([t.log10_pvalue for t in tests])
    out = []
    for i, test in enumerate(tests):
        low, high = _interval(rows[i], columns[i], counts[i][i], n, critical)
        if low == -1.0 and high == 1.0 and n:  # not a proper interval: the 2 x 2's Tango
            same, only_a, only_b = counts[i][i], rows[i] - counts[i][i], columns[i] - counts[i][i]
            rest = n - same - only_a - only_b
            tango = difference_interval(
                same, only_a, only_b, rest, level=1.0 - (1.0 - level) / k, method="tango"
            )
            low, high = tango.low, tango.high
        out.append(
            CategoryComparison(
                label=table.labels[i],
                share_a=rows[i] / n if n else 0.0,
                share_b=columns[i] / n if n else 0.0,
                difference=(rows[i] - columns[i]) / n if n else 0.0,
                low=low,
                high=high,
                only_a=rows[i] - counts[i][i],
                only_b=columns[i] - counts[i][i],
                pvalue=test.pvalue,
                log10_pvalue=test.log10_pvalue,
                adjusted_pvalue=float(adjusted[i]),
                log10_adjusted_pvalue=float(log_adjusted[i]),
            )
        )
    return tuple(out)


def _interval(row: int, column: int, same: int, n: int, critical: float) -> tuple[float, float]:
    """The roots of (1 + c/n) delta^2 - 2 deltahat delta + deltahat^2 - c s / n^2."""
    if n == 0:
        return -1.0, 1.0
    estimate = (row - column) / n
    quadratic = 1.0 + critical / n
    constant = estimate**2 - critical * (row + column - 2 * same) / n**2
    discriminant = estimate**2 - quadratic * constant
    if discriminant <= 0.0:
        return -1.0, 1.0
    root = math.sqrt(discriminant)
    return (estimate - root) / quadratic, (estimate + root) / quadratic
