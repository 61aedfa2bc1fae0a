"""The paired t test of the mean difference A - B and its interval (cluster-robust with clusters).

Without clusters it is Student's paired t test (``scipy.stats.ttest_rel``). With clusters the
standard error is the cluster-robust (sandwich) one with the small-sample factor G/(G - 1) and
G - 1 degrees of freedom, which reduces to the paired t test when every cluster holds one case.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from calculator._lazy_scipy import stats
from calculator.intervals import ConfidenceInterval
from calculator.scores.inputs import PairedScores

__all__ = ["PairedTTest", "paired_t_test"]

_LN10 = math.log(10.0)


@dataclass(frozen=True, slots=True, kw_only=True)
class PairedTTest:
    """The paired t test of the mean difference A - B. Build it with :func:`paired_t_test`.

    Attributes
    ----------
    statistic : float or None
        t = mean difference / standard error; None when undefined (see `undefined`).
    df : int or None
        Degrees of freedom: pairs - 1, or clusters - 1 with clusters.
    pvalue, log10_pvalue : float or None
        The p-value for `alternative` and its log10 (finite where the p-value underflows).
    alternative : str
        "two-sided", "greater" (B's mean higher than A's) or "less".
    standard_error : float or None
        Of the mean difference.
    confidence_interval : ConfidenceInterval or None
        Two-sided interval for the mean difference A - B at `confidence_level`, whatever the
        alternative.
    confidence_level : float
    undefined : str or None
        Why there is no t statistic (one case, or differences without spread), else None.
    """

    statistic: float | None
    df: int | None
    pvalue: float | None
    log10_pvalue: float | None
    alternative: str
    standard_error: float | None
    confidence_interval: ConfidenceInterval | None
    confidence_level: float
    undefined: str | None

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types; undefined figures are None."""
        ci = self.confidence_interval
        return {
            "statistic": self.statistic,
            "df": self.df,
            "pvalue": self.pvalue,
            "log10_pvalue": self.log10_pvalue,
            "alternative": self.alternative,
            "standard_error": self.standard_error,
            "confidence_interval": None if ci is None else {"low": ci.low, "high": ci.high},
            "confidence_level": self.confidence_level,
            "undefined": self.undefined,
        }


def paired_t_test(scores: PairedScores, *, level: float, alternative: str) -> PairedTTest:
    """Paired t test of mean(A - B) = 0 and the t interval for it.

    Notes
    -----
    With G units (cases, or clusters with sums T_g of N_g differences), N = sum N_g and the mean
    difference D = sum T_g / N, the standard error is

        se^2 = G / (G - 1) * sum_g (T_g - N_g D)^2 / N^2,

    and t = D / se on G - 1 degrees of freedom. With one case per unit this is s^2 / n, the
    paired t test. The interval is D -/+ t_{(1 + level)/2, G - 1} se. "greater" (B's mean
    higher) takes the lower tail of t, "less" the upper one. t is undefined with one unit
    (no degrees of freedom) and when se = 0 (no spread): both are said, never shown as NaN.

    Examples
    --------
    >>> from calculator.scores.inputs import paired_scores
    >>> r = paired_t_test(paired_scores([3, 5, 4, 6], [2, 3, 3, 5]), level=0.95,
    ...                   alternative="two-sided")
    >>> round(r.statistic, 4), r.df, round(r.pvalue, 4)
    (5.0, 3, 0.0154)
    """
    units = scores.units
    unit = "clusters" if scores.clusters is not None else "cases"
    none = {
        "statistic": None,
        "df": None,
        "pvalue": None,
        "log10_pvalue": None,
        "standard_error": None,
        "confidence_interval": None,
    }
    if units < 2:
        reason = f"one {unit[:-1]} gives no degrees of freedom to estimate the spread"
        return PairedTTest(
            **none, alternative=alternative, confidence_level=level, undefined=reason
        )
    sums, sizes = scores.cluster_totals()
    sums = sums / scores.scale
    total = float(sizes.sum())
    mean = float(sums.sum()) / total
    residuals = sums - sizes * mean
    se = math.sqrt(units / (units - 1) * float(np.dot(residuals, residuals))) / total
    if scores.constant or se == 0.0:
        reason = (
            "every difference is the same, so the differences have no spread and t, the mean "
            "difference over its standard error, is undefined"
            if scores.constant
            else "every cluster has the same mean difference, so the standard error is 0 and "
            "t is undefined"
        )
        return PairedTTest(
            **none, alternative=alternative, confidence_level=level, undefined=reason
        )
    df = units - 1
    t = mean / se
    log_p = _log_pvalue(t, df, alternative)
    half = float(stats.t.ppf((1.0 + level) / 2.0, df)) * se
    scale = scores.scale
    return PairedTTest(
        statistic=t,
        df=df,
        pvalue=math.exp(log_p),
        log10_pvalue=log_p / _LN10,
        alternative=alternative,
        standard_error=se * scale,
        confidence_interval=ConfidenceInterval((mean - half) * scale, (mean + half) * scale),
        confidence_level=level,
        undefined=None,
    )


def _log_pvalue(t: float, df: int, alternative: str) -> float:
    """Natural log of the p-value, finite where the p-value itself underflows."""
    if alternative == "two-sided":
        return min(0.0, math.log(2.0) + log_t_sf(abs(t), df))
    if alternative == "greater":  # B higher: A - B low
        return log_t_sf(-t, df)
    return log_t_sf(t, df)


def log_t_sf(t: float, df: int) -> float:
    """log P[T_df >= t], finite far into the tail, where scipy's ``t.logsf`` gives -inf.

    Notes
    -----
    For t > 0, P[T >= t] = I_x(a, 1/2) / 2 with a = df/2 and x = df/(df + t^2), and
    I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) 2F1(a + b, 1; a + 1; x) (DLMF 8.17.8), whose log
    stays finite when the tail underflows.

    Examples
    --------
    >>> round(log_t_sf(387.3, 199_999) / math.log(10), 2)
    -24306.8
    """
    direct = float(stats.t.logsf(t, df))
    if t <= 0 or direct > -700.0:
        return direct
    a, b = df / 2.0, 0.5
    x = df / (df + t * t)
    return (
        math.log(0.5)
        + a * math.log(x)
        + b * math.log1p(-x)
        - math.log(a)
        - float(special.betaln(a, b))
        + math.log(float(special.hyp2f1(a + b, 1.0, a + 1.0, x)))
    )


def one_sided_margin_pvalue(test: PairedTTest, estimate: float, margin: float) -> float | None:
    """p of the one-sided t test of H0: mean(B - A) <= -margin, from the same standard error.

    `estimate` is the mean difference A - B; None when t is undefined.
    """
    if test.statistic is None or test.standard_error is None or test.df is None:
        return None
    statistic = (margin - estimate) / test.standard_error  # (mean(B - A) + margin) / se
    return float(stats.t.sf(statistic, test.df))
