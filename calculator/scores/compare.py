""":func:`compare_scores`: the paired comparison of per-case scores, every figure and the report."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from calculator.analysis import _check_names
from calculator.errors import CalculatorError
from calculator.intervals import ConfidenceInterval
from calculator.scores.bootstrap import (
    BootstrapInterval,
    bca_interval,
    distinct_units,
    undefined_interval,
)
from calculator.scores.inputs import (
    PairedScores,
    check_alternative,
    check_better,
    check_level,
    check_margin,
    paired_scores,
)
from calculator.scores.margin import MarginDecision, margin_decision
from calculator.scores.resampling import check_resamples, check_seed, plan_resamples
from calculator.scores.signedrank import SignedRankTest, signed_rank_test
from calculator.scores.signflip import SignFlipTest, sign_flip_test
from calculator.scores.ttest import PairedTTest, paired_t_test
from calculator.text import plural

__all__ = ["MIN_BOOTSTRAP_UNITS", "ScoresComparison", "compare_scores"]

#: Fewest units (cases, or clusters) for a bootstrap interval: with n units the resampled means
#: take at most C(2n - 1, n) values, 35 at n = 4 and 126 at n = 5; fewer cannot resolve the 2.5%
#: tails of a 95% interval.
MIN_BOOTSTRAP_UNITS = 5


# Not slotted, so that setting the `report` property raises FrozenInstanceError (see
# calculator.analysis.Analysis).
@dataclass(frozen=True, kw_only=True)
class ScoresComparison:
    """Every figure of the paired comparison of two systems' per-case scores.

    Build it with :func:`compare_scores`. As scipy's results, `statistic`, `pvalue` and
    `confidence_interval` carry the headline: the mean difference A - B, the sign-flip
    permutation p-value and the paired t interval.

    Attributes
    ----------
    statistic : float
        The mean difference A - B (positive: A scores higher on average).
    pvalue : float or None
        The sign-flip permutation test's p-value; None when it was not run (see `permutation_note`).
    confidence_interval : ConfidenceInterval or None
        The paired t interval for the mean difference; None when t is undefined.
    confidence_level : float
    alternative : str
        "two-sided", "greater" (B's mean higher than A's) or "less".
    mean_a, mean_b : float
        Each system's mean score over the cases used.
    n, rows : int
        Pairs used, and rows given.
    excluded : dict of str to int
        Rows left out, by reason (see :data:`calculator.scores.inputs.EXCLUSION_REASONS`).
    clusters : int or None
        Clusters resampled and permuted; None without clusters.
    t_test : PairedTTest
    permutation : SignFlipTest or None
    permutation_note : str or None
        Why the permutation test was not run.
    signed_rank : SignedRankTest
    bootstrap : BootstrapInterval
    margin : MarginDecision or None
        Non-inferiority of B at the margin, when one is given.
    names : (str, str)
    seed : int
        The random seed of the bootstrap and of a Monte Carlo permutation test.
    better : str
        "higher" (higher scores are better) or "lower" (error rates, losses): which way the
        release gate (:func:`calculator.release.scores_gate_fails`) reads "B is worse".
    constant : bool
        True when every difference is the same (up to rounding): the words say so.

    The findings in sentences, headline first, are ``calculator.report.words.text(comparison)``.
    """

    statistic: float
    pvalue: float | None
    confidence_interval: ConfidenceInterval | None
    confidence_level: float
    alternative: str
    mean_a: float
    mean_b: float
    n: int
    rows: int
    excluded: dict[str, int]
    clusters: int | None
    t_test: PairedTTest
    permutation: SignFlipTest | None
    permutation_note: str | None
    signed_rank: SignedRankTest
    bootstrap: BootstrapInterval
    margin: MarginDecision | None
    names: tuple[str, str]
    seed: int
    constant: bool = False
    better: str = "higher"

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types: no NaN, no infinity; what is undefined is None with its reason."""
        ci = self.confidence_interval
        return {
            "names": {"A": self.names[0], "B": self.names[1]},
            "n": self.n,
            "rows": self.rows,
            "excluded": dict(self.excluded),
            "clusters": self.clusters,
            "mean": {"A": self.mean_a, "B": self.mean_b},
            "mean_difference": self.statistic,
            "difference": "A - B",
            "pvalue": self.pvalue,
            "confidence_interval": None if ci is None else {"low": ci.low, "high": ci.high},
            "confidence_level": self.confidence_level,
            "alternative": self.alternative,
            "alternative_of": "mean(B - A)",  # "greater": B higher, A - B below 0 (review 4)
            "t_test": self.t_test.to_dict(),
            "permutation": None if self.permutation is None else self.permutation.to_dict(),
            "permutation_note": self.permutation_note,
            "signed_rank": self.signed_rank.to_dict(),
            "bootstrap": self.bootstrap.to_dict(),
            "margin": None if self.margin is None else self.margin.to_dict(),
            "seed": self.seed,
            "better": self.better,
        }


def compare_scores(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    level: float = 0.95,
    alternative: str = "two-sided",
    margin: float | None = None,
    resamples: int | None = None,
    seed: int = 0,
    clusters: Sequence[object] | np.ndarray | None = None,
    names: tuple[str, str] = ("A", "B"),
    better: str = "higher",
) -> ScoresComparison:
    """Compare two systems' scores on the same cases: is B's mean score different from A's?

    Parameters
    ----------
    a, b : sequence of float
        A's and B's score on each case, paired by position. Rows where either score is NaN
        (missing) or infinite are left out and counted in ``excluded``.
    level : float
        Confidence level of the intervals, strictly between 0 and 1.
    alternative : {"two-sided", "greater", "less"}
        As everywhere in the calculator, "greater" asks whether B's mean is higher than A's,
        "less" whether it is lower. The intervals stay two-sided.
    margin : float or None
        In the scores' units: test non-inferiority of B (the t interval for A - B against
        +margin); see :mod:`calculator.scores.margin`. Only with `alternative` "two-sided".
    resamples : int or None
        Bootstrap resamples and Monte Carlo sign patterns, 1,000 to 1,000,000. None: 10,000,
        fewer (not below 1,000) when that would exceed the bound on random draws, and none
        (said in the result) when even 1,000 would.
    seed : int
        Seed of the random generator (the bootstrap and a Monte Carlo permutation test draw
        from two independent streams spawned from it).
    clusters : sequence or None
        A cluster label per row (several samples of one question, several tasks): the
        bootstrap resamples clusters, the permutation test flips whole clusters, the t test
        uses the cluster-robust standard error and the signed-rank test ranks cluster means.
    names : (str, str)
        Names of A and B for the report.
    better : {"higher", "lower"}
        Which scores are better: "lower" for error rates and losses. It sets which way the
        release gate reads "B is worse"; every figure stays A - B. A margin (non-inferiority)
        is answered for higher-is-better scores only.

    Returns
    -------
    ScoresComparison

    Raises
    ------
    TypeError
        A score, `margin`, `resamples` or `seed` of the wrong type.
    calculator.errors.CalculatorError
        Values out of range, unequal lengths, no usable pair, or more resamples than the
        bound allows.

    Notes
    -----
    Degenerate inputs, decided on purpose: when every difference is 0 the mean difference is
    0, both rank and permutation tests give p = 1 and t is undefined (0/0); with one case t
    is undefined and the permutation p is 1; with constant non-zero differences t and the
    bootstrap are undefined (no spread) while the permutation and signed-rank tests still
    answer; with fewer than :data:`MIN_BOOTSTRAP_UNITS` cases (clusters) there is no bootstrap
    interval (too few distinct resampled means). Undefined figures are None with their
    reason, never NaN.

    Examples
    --------
    >>> r = compare_scores([0.9, 0.8, 0.75, 1.0, 0.6], [0.7, 0.8, 0.5, 0.9, 0.4])
    >>> round(r.statistic, 3), r.permutation.method, r.pvalue
    (0.15, 'exact', 0.125)
    """
    level = check_level(level)
    alternative = check_alternative(alternative)
    margin = check_margin(margin)
    better = check_better(better)
    if margin is not None and better == "lower":
        raise CalculatorError(
            "`margin` (non-inferiority: is B no worse than A by more than the margin?) is "
            'answered for higher-is-better scores only; with `better` "lower" leave it out'
        )
    if margin is not None and alternative != "two-sided":
        # margin_decision answers non-inferiority (H0: mean(A - B) >= margin); "greater" would
        # ask superiority by the margin, "less" no margin question at all: never answered
        # silently as another question.
        raise CalculatorError(
            f"`margin` asks whether B is non-inferior to A; it does not go with `alternative` "
            f'"{alternative}" (superiority by a margin is not answered on scores): leave '
            '`alternative` "two-sided"'
        )
    resamples = check_resamples(resamples)
    seed = check_seed(seed)
    names = _check_names(names)
    scores = paired_scores(a, b, clusters)
    bootstrap_rng, permutation_rng = (
        np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(2)
    )
    estimate = scores.mean_difference
    t_test = paired_t_test(scores, level=level, alternative=alternative)
    permutation, permutation_note = _permutation(
        scores, alternative, resamples, permutation_rng, seed
    )
    sums, sizes = scores.cluster_totals()
    unit = "case" if scores.clusters is None else "cluster"
    signed_rank = signed_rank_test(
        sums / sizes / scores.scale, alternative=alternative, unit=unit, rounding=scores.rounding
    )
    bootstrap = _bootstrap(scores, level, resamples, bootstrap_rng, seed)
    decision = None if margin is None else margin_decision(t_test, estimate, margin, names)
    return ScoresComparison(
        statistic=estimate,
        pvalue=None if permutation is None else permutation.pvalue,
        confidence_interval=t_test.confidence_interval,
        confidence_level=level,
        alternative=alternative,
        mean_a=scores.mean_a,
        mean_b=scores.mean_b,
        n=scores.n,
        rows=scores.rows,
        excluded=scores.excluded,
        clusters=scores.clusters,
        t_test=t_test,
        permutation=permutation,
        permutation_note=permutation_note,
        signed_rank=signed_rank,
        bootstrap=bootstrap,
        margin=decision,
        names=names,
        seed=seed,
        constant=scores.constant,
        better=better,
    )


def _permutation(
    scores: PairedScores,
    alternative: str,
    resamples: int | None,
    rng: np.random.Generator,
    seed: int,
) -> tuple[SignFlipTest | None, str | None]:
    sums, sizes = scores.cluster_totals()
    return sign_flip_test(
        sums / scores.scale,
        total_cases=scores.n,
        scale=scores.scale,
        alternative=alternative,
        resamples=resamples,
        rng=rng,
        seed=seed,
        unit="case" if scores.clusters is None else "cluster",
        rounding=scores.rounding * float(sizes.max()),  # a sum's rounding adds up
    )


def _bootstrap(
    scores: PairedScores,
    level: float,
    resamples: int | None,
    rng: np.random.Generator,
    seed: int,
) -> BootstrapInterval:
    sums, sizes = scores.cluster_totals()
    sums = sums / scores.scale
    unit = "case" if scores.clusters is None else "cluster"
    common = {"level": level, "unit": unit, "units": scores.units, "seed": seed}
    if scores.units < MIN_BOOTSTRAP_UNITS:
        verb = "gives" if scores.units == 1 else "give"
        values = math.comb(2 * scores.units - 1, scores.units)
        return undefined_interval(
            f"{plural(scores.units, unit)} {verb} at most "
            f"{plural(values, 'distinct resampled mean')}, too few for the tails of an interval "
            f"(it takes at least {MIN_BOOTSTRAP_UNITS} {unit}s)",
            **common,
        )
    means = sums / sizes
    if scores.constant or np.all(means == means[0]):
        what = "difference" if scores.clusters is None else "mean difference"
        return undefined_interval(
            f"every {unit} has the same {what}, so every resample has the same mean", **common
        )
    distinct = distinct_units(sums, sizes)
    planned, note = plan_resamples(resamples, distinct.width(scores.units), "the bootstrap")
    if planned is None:
        return undefined_interval(note or "", **common)
    return bca_interval(
        sums,
        sizes,
        distinct=distinct,
        level=level,
        resamples=planned,
        rng=rng,
        seed=seed,
        scale=scores.scale,
        unit=unit,
    )
