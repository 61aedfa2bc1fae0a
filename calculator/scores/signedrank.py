"""The Wilcoxon signed-rank test of the differences A - B (of the cluster means with clusters).

A location test that is robust to outliers: it ranks the absolute non-zero differences and asks
whether the ranks of the positive ones sum to more or less than chance allows. Zero differences
are dropped (Wilcoxon's convention, scipy's ``zero_method="wilcox"``) and counted.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from calculator._lazy_scipy import stats
from calculator.scores.signflip import EXACT_MAX_UNITS, exact_count, tail_of

__all__ = ["EXACT_UNTIED_MAX", "SignedRankTest", "signed_rank_test"]

#: Most non-zero differences for the exact null distribution of the untied statistic (scipy's
#: own limit for method="auto").
EXACT_UNTIED_MAX = 50


@dataclass(frozen=True, slots=True, kw_only=True)
class SignedRankTest:
    """The Wilcoxon signed-rank test. Build it with :func:`signed_rank_test`.

    Attributes
    ----------
    statistic : float or None
        W+ = the sum of the ranks of the differences where A scores higher than B (midranks
        for ties); None when every difference is 0.
    pvalue, log10_pvalue : float
        p-value for `alternative` (1 when every difference is 0: no case tells A and B apart)
        and its log10, finite where the normal-approximation p-value underflows.
    alternative : str
        "two-sided", "greater" (B's scores higher than A's) or "less".
    method : str
        "exact" (the exact null distribution, no ties, at most 50 non-zero differences),
        "exact-conditional" (all 2^m sign patterns of the tied ranks, at most 30), "normal"
        (normal approximation with the tie correction, no continuity correction), or "none"
        when every difference is 0.
    used, zeros : int
        Non-zero differences ranked, and zero differences dropped.
    ties : bool
        Whether some absolute differences are tied.
    unit : str
        "case", or "cluster" when the test ranks one mean difference per cluster.
    """

    statistic: float | None
    pvalue: float
    log10_pvalue: float
    alternative: str
    method: str
    used: int
    zeros: int
    ties: bool
    unit: str

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types."""
        return asdict(self)


def signed_rank_test(
    differences: np.ndarray, *, alternative: str, unit: str, rounding: float = 0.0
) -> SignedRankTest:
    """Wilcoxon signed-rank test of the differences (scaled ones do as well: only their order
    and signs matter). Absolute differences that agree to within `rounding` are ties: 0.1 - 0.3
    and 0.7 - 0.9 differ in their last bits but are the same difference.

    Notes
    -----
    As ``scipy.stats.wilcoxon(d, zero_method="wilcox", correction=False)``: the exact
    distribution without ties and zeros up to 50 differences, else the normal approximation
    with the tie correction; like scipy's method="auto" at up to 13 tied differences, tied or
    zero-bearing samples of up to 30 non-zero differences get the exact conditional p-value
    over all sign patterns of their midranks instead. scipy's two-sided statistic is
    min(W+, W-); this one is always W+.
    """
    nonzero = differences[differences != 0]
    used, zeros = int(nonzero.size), int(differences.size - nonzero.size)
    if used == 0:
        return SignedRankTest(
            statistic=None,
            pvalue=1.0,
            log10_pvalue=0.0,
            alternative=alternative,
            method="none",
            used=0,
            zeros=zeros,
            ties=False,
            unit=unit,
        )
    ranks, tied = _midranks(np.abs(nonzero), rounding)
    ties = bool(tied.max() > 1)
    w_plus = float(ranks[nonzero > 0].sum())
    common = {
        "statistic": w_plus,
        "alternative": alternative,
        "used": used,
        "zeros": zeros,
        "ties": ties,
        "unit": unit,
    }
    if not ties and used <= EXACT_UNTIED_MAX:
        # scipy's alternative is about A - B: B's scores higher means A - B tends to be low.
        scipy_alternative = {"two-sided": "two-sided", "greater": "less", "less": "greater"}
        result = stats.wilcoxon(
            nonzero,
            zero_method="wilcox",
            correction=False,
            alternative=scipy_alternative[alternative],
            method="exact",
        )
        pvalue = min(1.0, float(result.pvalue))
        return SignedRankTest(**common, pvalue=pvalue, log10_pvalue=_log10(pvalue), method="exact")
    if used <= EXACT_MAX_UNITS:
        count, total = exact_count(np.where(nonzero > 0, ranks, -ranks), tail_of(alternative))
        pvalue = count / total
        return SignedRankTest(
            **common, pvalue=pvalue, log10_pvalue=_log10(pvalue), method="exact-conditional"
        )
    log_p = _normal_log_pvalue(w_plus, used, tied, alternative)
    return SignedRankTest(
        **common, pvalue=math.exp(log_p), log10_pvalue=log_p / math.log(10.0), method="normal"
    )


def _midranks(values: np.ndarray, rounding: float) -> tuple[np.ndarray, np.ndarray]:
    """Ranks of `values` (1 = smallest), ties sharing their mean rank, and the tie-group sizes.

    Sorted values that follow each other within `rounding` form one group (exact ties only when
    `rounding` is 0); as ``scipy.stats.rankdata`` otherwise, with one sort.
    """
    order = np.argsort(values)
    new_group = np.diff(values[order]) > rounding
    starts = np.flatnonzero(np.concatenate(([True], new_group)))
    sizes = np.diff(np.append(starts, values.size))
    group = np.cumsum(np.concatenate(([0], new_group)))
    ranks = np.empty(values.size)
    ranks[order] = (starts + (sizes + 1) / 2.0)[group]
    return ranks, sizes


def _normal_log_pvalue(w_plus: float, used: int, tied: np.ndarray, alternative: str) -> float:
    """Natural log of the normal-approximation p-value, with the tie correction.

    z = (W+ - m(m + 1)/4) / sqrt(m(m + 1)(2m + 1)/24 - sum_t (t^3 - t)/48), t the sizes of
    the groups of tied ranks, as scipy.stats.wilcoxon(method="asymptotic", correction=False).
    """
    m = float(used)
    tied = tied.astype(float)
    variance = m * (m + 1.0) * (2.0 * m + 1.0) / 24.0 - float(np.sum(tied**3 - tied)) / 48.0
    z = (w_plus - m * (m + 1.0) / 4.0) / math.sqrt(variance)
    if alternative == "two-sided":
        return min(0.0, math.log(2.0) + float(stats.norm.logsf(abs(z))))
    if alternative == "greater":  # B higher: W+ (ranks where A is higher) low
        return float(stats.norm.logcdf(z))
    return float(stats.norm.logsf(z))


def _log10(pvalue: float) -> float:
    return math.log10(pvalue) if pvalue > 0 else -math.inf
