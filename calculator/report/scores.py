"""The sentences of the scores comparison: the headline first (the mean difference, its interval,
the permutation p), then the other tests, the exclusions and the margin decision.

Every sentence lives here once; the command line and the pages quote them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.caveats import few_clusters_caveat
from calculator.report.decision import level_reason
from calculator.report.figures import floor_bound, format_score, format_standard_error
from calculator.report.formatting import (
    format_confidence,
    format_p_equals,
    format_pvalue,
    margin_number,
    plural,
)

if TYPE_CHECKING:
    from calculator.logs.share_permutation import LabelPermutationTest
    from calculator.scores.bootstrap import BootstrapInterval
    from calculator.scores.compare import ScoresComparison
    from calculator.scores.margin import MarginDecision
    from calculator.scores.signedrank import SignedRankTest
    from calculator.scores.signflip import SignFlipTest
    from calculator.scores.ttest import PairedTTest

__all__ = [
    "CLUSTER_WEIGHTS",
    "bootstrap_sentence",
    "exclusion_sentence",
    "few_flips_caveat",
    "headline",
    "margin_sentence",
    "one_sided_level_sentence",
    "permutation_p",
    "permutation_words",
    "alpha_of",
    "scores_report",
    "scores_sentences",
    "signed_rank_sentence",
    "t_sentence",
]

_SIDES = {
    "two-sided": "two-sided",
    "greater": "one-sided, {b} higher",
    "less": "one-sided, {b} lower",
}
_REASONS = {
    "missing_score": "a missing score",
    "infinite_score": "an infinite score",
    "missing_cluster": "no cluster label",
}


def scores_report(result: ScoresComparison) -> str:
    """The whole report, as one paragraph: :func:`scores_sentences`."""
    lead, rest = scores_sentences(result)
    return " ".join([*lead, *rest])


def scores_sentences(
    result: ScoresComparison, clusters: str | None = None
) -> tuple[list[str], list[str]]:
    """The report's sentences in two groups, the one composition every surface words: the
    lead (headline, why a one-sided question's intervals are at 1 − 2α, too few non-zero cases
    for the exact test to reach α) and the rest (a constant difference, the other tests, the
    clusters, the exclusions and the margin's answer). `clusters` replaces the general
    sentence on clusters by a line that says what they are (the command line's, naming the
    column); α is the one the intervals' level goes with (:func:`alpha_of`)."""
    alpha = alpha_of(result)
    lead = [headline(result)]
    if result.alternative != "two-sided" and result.margin is None:
        lead.append(one_sided_level_sentence(result.confidence_level, alpha))
    few = few_flips_caveat(result, alpha)
    if few is not None:
        lead.append(few)
    rest = []
    if result.statistic == 0 and result.constant:
        name_a, name_b = result.names
        rest.append(
            f"{name_a} and {name_b} have the same score on every case, so no case tells them "
            "apart: the permutation and signed-rank tests give p = 1 and the t statistic is "
            "undefined (0/0)."
        )
    rest += [
        t_sentence(result.t_test, result.names),
        signed_rank_sentence(result.signed_rank, result.names),
        bootstrap_sentence(result.bootstrap),
    ]
    if clusters is not None or result.clusters is not None:
        rest.append(clusters or _cluster_sentence(result))
    excluded = exclusion_sentence(result.excluded, result.rows)
    if excluded:
        rest.append(excluded)
    if result.margin is not None:
        rest.append(margin_sentence(result.margin))
    return lead, rest


def alpha_of(result: ScoresComparison) -> float:
    """The α that the intervals' level goes with (:func:`calculator.decision.decision_level`):
    1 − level for a two-sided question, (1 − level) / 2 for a one-sided one or a margin, as
    :mod:`calculator.scores.margin` reads it; rounded to 12 figures (0.05, not
    0.04999999999999999).

    >>> from calculator import compare_scores
    >>> alpha_of(compare_scores([1, 2, 3], [0, 2, 2], level=0.9, alternative="greater"))
    0.05
    """
    share = 1.0 - result.confidence_level
    one_sided = result.alternative != "two-sided" or result.margin is not None
    return float(f"{share / 2.0 if one_sided else share:.12g}")


def _cluster_sentence(result: ScoresComparison) -> str:
    return (
        f"The {plural(result.n, 'case')} fall in {plural(result.clusters, 'cluster')}: "
        "the bootstrap resamples whole clusters, the permutation test flips whole "
        "clusters, the t test uses the cluster-robust standard error and the signed-rank "
        f"test ranks one mean difference per cluster. {CLUSTER_WEIGHTS}"
    )


#: Why the signed-rank test can disagree with the others on clusters of unequal size.
CLUSTER_WEIGHTS = (
    "The t and permutation tests weigh each cluster by its cases and the signed-rank test "
    "weighs every cluster alike, so with clusters of unequal size they answer different "
    "questions: the first two, the mean difference over cases; the signed-rank test, the "
    "typical cluster's."
)


def headline(result: ScoresComparison) -> str:
    """Means, the mean difference with its t interval, and the permutation p."""
    name_a, name_b = result.names
    keep = (0.0,) if result.margin is None else (0.0, result.margin.margin)
    difference = format_score(result.statistic, keep, snap=True)  # 0.1, not 0.09999999999999998
    if result.confidence_interval is not None:
        low, high = result.confidence_interval
        interval = (
            f" ({format_confidence(result.confidence_level)} t interval "
            f"{format_score(low, keep)} to {format_score(high, keep)})"
        )
    else:
        interval = " (no t interval: see below)"
    text = (
        f"Over {plural(result.n, 'case')}, {name_a}'s mean score is "
        f"{format_score(result.mean_a, signed=False)} and {name_b}'s "
        f"{format_score(result.mean_b, signed=False)}: a mean difference {name_a} − {name_b} "
        f"of {difference}{interval}"
    )
    if result.permutation is None:
        return f"{text}; {result.permutation_note}."
    return f"{text}; {permutation_words(result.permutation, result.names)}."


def one_sided_level_sentence(level: float, alpha: float) -> str:
    """Why the intervals beside a one-sided test are at 1 − 2α.

    Examples
    --------
    >>> one_sided_level_sentence(0.9, 0.05)  # doctest: +NORMALIZE_WHITESPACE
    'The intervals have level 90% (1 − 2α for a one-sided test at α = 0.05): the level that goes
    with the test, each end a one-sided 95% bound.'
    """
    return (
        f"The intervals have level {format_confidence(level)} ({level_reason(True, alpha)}): "
        f"the level that goes with the test, each end a one-sided {format_confidence(1 - alpha)} "
        "bound."
    )


def permutation_words(test: SignFlipTest, names: tuple[str, str]) -> str:
    """ "sign-flip permutation test p = 0.012 (two-sided, exact over all 2^12 sign patterns)"."""
    side = _SIDES[test.alternative].format(b=names[1])
    if test.method == "exact":
        count = test.nonzero_units
        units = plural(count, "non-zero " + test.unit)
        how = (
            f"exact over all {test.patterns:,} sign patterns of the {units}"
            if count
            else f"exact: no {test.unit} has a non-zero difference"
        )
    elif test.method == "exact-convolution":
        units = plural(test.nonzero_units, "non-zero " + test.unit)
        how = (
            f"exact over all 2^{test.nonzero_units:,} sign patterns of the {units}, the "
            "differences lying on a common grid: the distribution of their sum by convolution"
            + (f"; {test.note}" if test.note else "")
        )
    elif test.at_floor:  # a bound, with no standard error: no pattern was as extreme
        how = (
            f"Monte Carlo: none of {test.patterns:,} random sign patterns of "
            f"{plural(test.nonzero_units, 'non-zero ' + test.unit)}, random-number stream "
            f"{test.seed}, was as extreme as the data"
        )
    else:
        how = (
            f"Monte Carlo over {test.patterns:,} random sign patterns of "
            f"{plural(test.nonzero_units, 'non-zero ' + test.unit)}, random-number stream "
            f"{test.seed}, standard error {format_standard_error(test.standard_error)}"
        )
    return f"sign-flip permutation test {permutation_p(test)} ({side}, {how})"


def few_flips_caveat(result: ScoresComparison, alpha: float) -> str | None:
    """The pass/fail sentence for too few leaning clusters
    (:func:`calculator.report.caveats.few_clusters_caveat`), said of the scores' exact
    sign-flip test when its non-zero cases or clusters are too few for any sign pattern to
    reach alpha, else None."""
    test = result.permutation
    if test is None or not test.method.startswith("exact"):
        return None
    return few_clusters_caveat(
        test.nonzero_units,
        alpha,
        test.unit,
        held=False,
        one_sided=result.alternative != "two-sided",
    )


def permutation_p(test: SignFlipTest | LabelPermutationTest, alpha: float | None = None) -> str:
    """ "p = 0.012" (on the side of `alpha` it lies on); "p ≤ 1/10,001" for a Monte Carlo p
    at its floor, and "p < 1.0e-12" for a p below what its computation resolves (an FFT
    convolution, a normal approximation's far tail): each a bound, not a value. Takes the
    sign flip's test and the logs' label permutation by question alike."""
    if getattr(test, "at_floor", False):  # only a Monte Carlo sign flip has a floor
        return f"p {floor_bound(test.patterns)}"
    if test.pvalue_bound:
        return f"p < {format_pvalue(test.pvalue)}"
    return format_p_equals(test.pvalue, alpha=alpha)


def t_sentence(test: PairedTTest, names: tuple[str, str]) -> str:
    """The paired t test, or why it is undefined."""
    if test.statistic is None:
        return f"Paired t test: undefined, because {test.undefined}."
    side = _SIDES[test.alternative].format(b=names[1])
    return (
        f"Paired t test: t = {format_score(test.statistic, signed=False)} on "
        f"{plural(test.df, 'degree')} of freedom, "
        f"{format_p_equals(test.pvalue, test.log10_pvalue)} ({side})."
    )


def signed_rank_sentence(test: SignedRankTest, names: tuple[str, str]) -> str:
    """The Wilcoxon signed-rank test, with its method and the zeros it dropped."""
    what = "difference" if test.unit == "case" else "cluster mean difference"
    if test.statistic is None:
        return (
            f"Wilcoxon signed-rank test: p = 1, no {what} is non-zero "
            f"({plural(test.zeros, 'zero')} dropped)."
        )
    side = _SIDES[test.alternative].format(b=names[1])
    method = {
        "exact": "exact distribution",
        "exact-conditional": "exact over all sign patterns of the tied ranks",
        "normal": "normal approximation with tie correction",
    }[test.method]
    dropped = f", {plural(test.zeros, 'zero ' + what)} dropped" if test.zeros else ""
    return (
        f"Wilcoxon signed-rank test: W+ = {_rank_sum(test.statistic)} (ranks where {names[0]} "
        "is higher) "
        f"over {plural(test.used, 'non-zero ' + what)}{dropped}, "
        f"{format_p_equals(test.pvalue, test.log10_pvalue)} ({side}, {method})."
    )


def _rank_sum(value: float) -> str:
    """A sum of ranks, whole or (with tied midranks) a half: every digit, with thousands
    separators (25,610,400,000, not 2.56104e+10).

    Examples
    --------
    >>> _rank_sum(521.0), _rank_sum(2.56104e10), _rank_sum(12.5)
    ('521', '25,610,400,000', '12.5')
    """
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def bootstrap_sentence(interval: BootstrapInterval) -> str:
    """The BCa interval with its resamples and random-number stream, or why there is none."""
    if interval.confidence_interval is None:
        return f"BCa bootstrap interval: none, because {interval.undefined}."
    low, high = interval.confidence_interval
    text = (
        f"{format_confidence(interval.confidence_level)} BCa bootstrap interval "
        f"{format_score(low)} to {format_score(high)} ({interval.resamples:,} resamples of the "
        f"{plural(interval.units, interval.unit)}, random-number stream {interval.seed})."
    )
    if interval.few_tail_resamples:
        text += (
            f" Only {interval.tail_resamples:.2g} of them are expected beyond its nearer end, too "
            f"few to place the ends of a {format_confidence(interval.confidence_level)} interval: "
            "its ends are close to the most extreme resamples, and more resamples are needed to "
            "place them."
        )
    return text


def exclusion_sentence(excluded: dict[str, int], rows: int) -> str | None:
    """Rows left out, by reason; None when none was."""
    parts = [f"{count:,} with {_REASONS[reason]}" for reason, count in excluded.items() if count]
    if not parts:
        return None
    left = sum(excluded.values())
    return f"{plural(left, 'row')} of {rows:,} left out: {', '.join(parts)}."


def margin_sentence(decision: MarginDecision) -> str:
    """Non-inferiority of B on the mean score in words, by where the t interval lies."""
    name_a, name_b = decision.names
    margin = decision.margin
    delta = margin_number(margin, points=False)
    if decision.outcome == "undetermined":
        return (
            f"Non-inferiority of {name_b} at a margin of {delta} is not decided: the paired t "
            f"interval it rests on is undefined: {decision.undefined}."
        )
    # In A − B, as the headline beside it: positive means B lower, the drop the margin bounds.
    low, high = decision.low, decision.high
    keep = (margin, 0.0)
    interval = (
        f"the {format_confidence(decision.confidence_level)} t interval for {name_a} − {name_b}, "
        f"{format_score(low, keep)} to {format_score(high, keep)},"
    )
    test = (
        "one-sided paired t test of non-inferiority, "
        f"{format_p_equals(decision.pvalue, alpha=decision.alpha)}, α = {decision.alpha:g}"
    )
    if decision.outcome == "non-inferior":
        return (
            f"These cases show that {name_b} is not worse than {name_a} by more than {delta}: "
            f"{interval} lies below +{delta} ({test})."
        )
    if decision.outcome == "worse-beyond-margin":
        return (
            f"These cases show that {name_b} is worse than {name_a} by more than {delta}: "
            f"{interval} lies entirely above +{delta} ({test})."
        )
    if decision.outcome == "worse-unsettled":
        return (
            f"These cases show that {name_b} is worse than {name_a}, by an amount they do not "
            f"settle: {interval} lies above 0 but reaches across +{delta}, so {name_b} is not "
            f"shown non-inferior at a margin of {delta} ({test})."
        )
    return (
        f"{name_b} is not shown to be non-inferior to {name_a} at a margin of {delta}: "
        f"{interval} reaches above +{delta} and down to 0 or below ({test}). No difference is "
        f"shown either way; these cases cannot rule out a drop of {delta} or more."
    )
