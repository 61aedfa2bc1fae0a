"""Tests on a paired k x k table: symmetry (Bowker), marginal homogeneity (Stuart-Maxwell and
Bhapkar), and, for ordered categories, the score test of equal mean scores.

Symmetry says each off-diagonal pair of cells is balanced (n_ij = n_ji in expectation); marginal
homogeneity only that the two systems put the same share of cases in each category. Symmetry
implies marginal homogeneity, not the reverse.

- :data:`EMPTY_PAIRS`: Bowker's conventions for the degrees of freedom.
- :class:`ChiSquareTest`, :func:`bowker`, :func:`stuart_maxwell`, :func:`bhapkar`.
- :class:`MeanScoreTest`, :func:`mean_score_test`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy import special

from calculator._lazy_scipy import stats
from calculator._validation import check_choice, check_probability, message
from calculator.errors import CalculatorError
from calculator.square.table import SquareTable

__all__ = [
    "EMPTY_PAIRS",
    "ChiSquareTest",
    "MeanScoreTest",
    "bhapkar",
    "bowker",
    "mean_score_test",
    "stuart_maxwell",
]

#: "every-pair": Bowker's k (k - 1) / 2 degrees of freedom whatever the table (R's
#: contingencytables); "non-empty": one for each pair of categories with a discordant case.
EMPTY_PAIRS = ("every-pair", "non-empty")
_LN10 = math.log(10.0)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChiSquareTest:
    """A chi-square test on the table.

    Attributes
    ----------
    method : str
        "bowker", "stuart-maxwell" or "bhapkar".
    statistic : float or None
        None when the test is undefined: no discordant case (then p = 1), or, for Bhapkar, a
        singular sample covariance (then p is None too).
    df : int
        Degrees of freedom of the chi-square reference.
    pvalue, log10_pvalue : float or None
        P[chi2_df >= statistic] and its base-10 log.
    """

    method: str
    statistic: float | None
    df: int
    pvalue: float | None
    log10_pvalue: float | None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def _chi2_test(method: str, statistic: float | None, df: int) -> ChiSquareTest:
    if statistic is None or df == 0:
        return ChiSquareTest(method=method, statistic=None, df=df, pvalue=1.0, log10_pvalue=0.0)
    log_p = float(stats.chi2.logsf(statistic, df)) if statistic > 0 else 0.0
    return ChiSquareTest(
        method=method,
        statistic=float(statistic),
        df=df,
        pvalue=math.exp(log_p),
        log10_pvalue=log_p / _LN10,
    )


def bowker(table: SquareTable, *, empty_pairs: str = "every-pair") -> ChiSquareTest:
    """Bowker's test of symmetry: is each pair of off-diagonal cells balanced?

    Notes
    -----
    X2 = sum over i < j with n_ij + n_ji > 0 of (n_ij - n_ji)^2 / (n_ij + n_ji); a pair with no
    case contributes nothing (0/0). Its degrees of freedom depend on the convention:

    - "every-pair": k (k - 1) / 2, as Bowker and R's contingencytables
      (``McNemarBowker_test_paired_cxc``) have it;
    - "non-empty": the number of pairs with n_ij + n_ji > 0, since an empty pair carries no
      information and cannot deviate (on Peterson et al.'s 4 x 4 table, 3 instead of 6).

    With no discordant case at all the statistic is undefined and p = 1. For k = 2 it is
    McNemar's uncorrected chi-square.

    References
    ----------
    .. [1] Bowker, A. H. (1948). A test for symmetry in contingency tables. Journal of the
           American Statistical Association 43(244), 572-574.

    Examples
    --------
    >>> from calculator.square.table import square_table
    >>> t = square_table([[596, 18, 6, 5], [0, 2, 0, 0], [0, 0, 42, 0], [11, 0, 0, 0]])
    >>> r = bowker(t)
    >>> round(r.statistic, 3), r.df, round(r.pvalue, 6)
    (26.25, 6, 0.0002)
    >>> bowker(t, empty_pairs="non-empty").df
    3
    """
    check_choice(empty_pairs, "empty_pairs", EMPTY_PAIRS)
    counts, k = table.counts, table.k
    statistic, pairs = 0.0, 0
    for i in range(k):
        for j in range(i + 1, k):
            seen = counts[i][j] + counts[j][i]
            if seen:
                statistic += (counts[i][j] - counts[j][i]) ** 2 / seen
                pairs += 1
    df = k * (k - 1) // 2 if empty_pairs == "every-pair" else pairs
    return _chi2_test("bowker", statistic if pairs else None, df)


def _stuart_statistic(table: SquareTable) -> tuple[float | None, int]:
    """d' V^- d and the rank of V, where d_i = n_i+ - n_+i and V is the null covariance.

    V is the Laplacian of the graph on the categories whose edge i-j weighs n_ij + n_ji. Its
    rank is k less the number of connected groups of categories; grounding one category in
    each group (removing its row and column) leaves a positive definite system with the same
    quadratic form, since d sums to zero over every group.
    """
    counts = np.array(table.counts, dtype=np.float64)
    weights = counts + counts.T
    np.fill_diagonal(weights, 0.0)
    laplacian = np.diag(weights.sum(axis=1)) - weights
    d = counts.sum(axis=1) - counts.sum(axis=0)
    grounded = _one_per_group(weights > 0)
    keep = [i for i in range(table.k) if i not in grounded]
    if not keep:
        return None, 0
    reduced = laplacian[np.ix_(keep, keep)]
    return float(d[keep] @ np.linalg.solve(reduced, d[keep])), len(keep)


def _one_per_group(linked: np.ndarray) -> set[int]:
    """One category of each connected group, the last category for its own group (so a
    connected table drops the last category, as Stuart-Maxwell is usually written)."""
    k = len(linked)
    grounded: set[int] = set()
    reached = [False] * k
    for start in [k - 1, *range(k - 1)]:
        if reached[start]:
            continue
        grounded.add(start)
        stack, reached[start] = [start], True
        while stack:
            node = stack.pop()
            for other in np.flatnonzero(linked[node]):
                if not reached[other]:
                    reached[other] = True
                    stack.append(int(other))
    return grounded


def stuart_maxwell(table: SquareTable) -> ChiSquareTest:
    """The Stuart-Maxwell test of marginal homogeneity (each category as often from A as B).

    Notes
    -----
    With d_i = n_i+ - n_+i and the covariance of d under marginal homogeneity
    V_ii = n_i+ + n_+i - 2 n_ii, V_ij = -(n_ij + n_ji), X2 = d' V^-1 d on k - 1 of the
    categories, chi-square with k - 1 degrees of freedom. When V is singular (a category, or
    a group of categories, with no discordant case linking it to the rest) a generalised
    inverse gives the same statistic whichever category is left out, on rank(V) = k - (the
    number of such groups) degrees of freedom; contingencytables then reports no statistic.
    Without any discordant case, the statistic is undefined and p = 1.

    References
    ----------
    .. [1] Stuart, A. (1955). A test for homogeneity of the marginal distributions in a
           two-way classification. Biometrika 42(3/4), 412-416.
    .. [2] Maxwell, A. E. (1970). Comparing the classification of subjects by two independent
           judges. British Journal of Psychiatry 116(535), 651-655.

    Examples
    --------
    >>> from calculator.square.table import square_table
    >>> r = stuart_maxwell(square_table([[35, 5, 0], [15, 20, 5], [10, 5, 5]]))
    >>> round(r.statistic, 3), r.df, round(r.pvalue, 6)
    (14.0, 2, 0.000912)
    """
    statistic, df = _stuart_statistic(table)
    return _chi2_test("stuart-maxwell", statistic, df)


def bhapkar(table: SquareTable) -> ChiSquareTest:
    """Bhapkar's test of marginal homogeneity: Stuart-Maxwell's with the sample covariance.

    Notes
    -----
    The covariance of d estimated without assuming homogeneity is V - d d' / n, which gives
    X2_B = X2_S / (1 - X2_S / n) (Sherman-Morrison), on the same degrees of freedom; it is
    always at least Stuart-Maxwell's. When X2_S reaches n the sample covariance is singular
    and X2_B is undefined (statistic and p None): this happens when every case lies in
    discordant cells that all point one way, e.g. the 2 x 2 table with only b > 0.

    References
    ----------
    .. [1] Bhapkar, V. P. (1966). A note on the equivalence of two test criteria for
           hypotheses in categorical data. Journal of the American Statistical Association
           61(313), 228-235.

    Examples
    --------
    >>> from calculator.square.table import square_table
    >>> t = square_table([[596, 18, 6, 5], [0, 2, 0, 0], [0, 0, 42, 0], [11, 0, 0, 0]])
    >>> r = bhapkar(t)
    >>> round(r.statistic, 3), r.df, round(r.pvalue, 6)
    (27.304, 3, 5e-06)
    """
    statistic, df = _stuart_statistic(table)
    if statistic is None:
        return _chi2_test("bhapkar", None, df)
    rest = 1.0 - statistic / table.n
    if rest <= 1e-12:
        return ChiSquareTest(
            method="bhapkar", statistic=None, df=df, pvalue=None, log10_pvalue=None
        )
    return _chi2_test("bhapkar", statistic / rest, df)


@dataclass(frozen=True, slots=True, kw_only=True)
class MeanScoreTest:
    """The score test of equal mean scores for ordered categories, and a Wald interval.

    Attributes
    ----------
    scores : tuple of float
        The score of each category, in the table's order.
    estimate : float
        A's mean score less B's: sum_i a_i (n_i+ - n_+i) / n.
    statistic : float or None
        The score z; None without any discordant case (then p = 1).
    pvalue, log10_pvalue : float
        Two-sided, 2 Phi(-|z|).
    level, low, high : float
        The Wald interval for the difference in mean scores.
    """

    scores: tuple[float, ...]
    estimate: float
    statistic: float | None
    pvalue: float
    log10_pvalue: float
    level: float
    low: float
    high: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def mean_score_test(
    table: SquareTable, scores: Sequence[float] | None = None, *, level: float = 0.95
) -> MeanScoreTest:
    """Score test that A's and B's mean scores are equal, for ordered categories.

    Parameters
    ----------
    table : SquareTable
        Categories in their order.
    scores : sequence of float, optional
        One finite score per category, not all equal; 1, 2, ..., k by default.
    level : float
        Confidence level of the interval.

    Notes
    -----
    With S = sum_ij (a_i - a_j)^2 n_ij, the score statistic is
    z = sum_i a_i (n_i+ - n_+i) / sqrt(S), standard normal under marginal homogeneity; it
    uses the order through the scores, so it has one degree of freedom where Stuart-Maxwell
    has k - 1. For k = 3 and equally spaced scores z^2 is the Fleiss-Levin-Paik statistic.
    The Wald interval is estimate +/- z_{1 - alpha/2} sqrt((S/n - estimate^2) / n).

    References
    ----------
    .. [1] Fagerland, M. W., Lydersen, S. & Laake, P. (2017). Statistical Analysis of
           Contingency Tables. Chapman & Hall/CRC, Chapter 9 (score and Wald tests for the
           difference between marginal mean scores; R package contingencytables).
    .. [2] Fleiss, J. L., Levin, B. & Paik, M. C. (2003). Statistical Methods for Rates and
           Proportions, 3rd ed. Wiley, Chapter 13.

    Examples
    --------
    >>> from calculator.square.table import square_table
    >>> r = mean_score_test(square_table([[596, 18, 6], [0, 2, 0], [0, 0, 42]]))
    >>> round(r.statistic**2, 3), round(r.pvalue, 6)
    (21.429, 4e-06)
    """
    level = check_probability(level, "level")
    a = _scores(scores, table.k)
    counts = np.array(table.counts, dtype=np.float64)
    n = float(counts.sum())
    shift = float(a @ (counts.sum(axis=1) - counts.sum(axis=0)))
    spread = float(((a[:, None] - a[None, :]) ** 2 * counts).sum())
    estimate = shift / n if n else 0.0
    if spread == 0.0:
        z, log_p, se = None, 0.0, 0.0
    else:
        z = shift / math.sqrt(spread)
        log_p = min(0.0, math.log(2.0) + float(special.log_ndtr(-abs(z))))
        se = math.sqrt(max(0.0, spread / n - estimate**2) / n)
    half = float(special.ndtri(0.5 + level / 2)) * se
    return MeanScoreTest(
        scores=tuple(float(v) for v in a),
        estimate=estimate,
        statistic=z,
        pvalue=math.exp(log_p),
        log10_pvalue=log_p / _LN10,
        level=level,
        low=estimate - half,
        high=estimate + half,
    )


def _scores(scores: Sequence[float] | None, k: int) -> np.ndarray:
    if scores is None:
        return np.arange(1.0, k + 1.0)
    try:
        values = np.array([float(v) for v in scores], dtype=np.float64)
    except (TypeError, ValueError):
        values = np.array([])
    if len(values) != k or not np.all(np.isfinite(values)) or np.ptp(values) == 0:
        raise CalculatorError(
            message("scores", f"{k} finite numbers, one for each category, not all equal", scores)
        )
    return values
