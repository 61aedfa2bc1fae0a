"""The sentences of the scores comparison: the headline first (the mean difference, its interval,
the permutation p), then the other tests, the exclusions and the margin decision.

Every sentence lives here once; the command line and the pages quote them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.figures import format_score
from calculator.report.formatting import (
    format_confidence,
    format_p_equals,
    format_pvalue,
    margin_number,
    plural,
)

if TYPE_CHECKING:
    from calculator.scores.bootstrap import BootstrapInterval
    from calculator.scores.compare import ScoresComparison
    from calculator.scores.margin import MarginDecision
    from calculator.scores.signedrank import SignedRankTest
    from calculator.scores.signflip import SignFlipTest
    from calculator.scores.ttest import PairedTTest

__all__ = [
    "bootstrap_sentence",
    "exclusion_sentence",
    "headline",
    "margin_sentence",
    "permutation_words",
    "scores_report",
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
    """The whole report: headline, the other figures, exclusions, and the margin's answer."""
    sentences = [headline(result)]
    if result.statistic == 0 and result.constant:
        name_a, name_b = result.names
        sentences.append(
            f"{name_a} and {name_b} have the same score on every case, so no case tells them "
            "apart: the permutation and signed-rank tests give p = 1 and the t statistic is "
            "undefined (0/0)."
        )
    sentences += [
        t_sentence(result.t_test, result.names),
        signed_rank_sentence(result.signed_rank, result.names),
        bootstrap_sentence(result.bootstrap),
    ]
    if result.clusters is not None:
        sentences.append(
            f"The {plural(result.n, 'case')} fall in {plural(result.clusters, 'cluster')}: "
            "the bootstrap resamples whole clusters, the permutation test flips whole "
            "clusters, the t test uses the cluster-robust standard error and the signed-rank "
            "test ranks one mean difference per cluster."
        )
    excluded = exclusion_sentence(result.excluded, result.rows)
    if excluded:
        sentences.append(excluded)
    if result.margin is not None:
        sentences.append(result.margin.sentence)
    return " ".join(sentences)


def headline(result: ScoresComparison) -> str:
    """Means, the mean difference with its t interval, and the permutation p."""
    name_a, name_b = result.names
    keep = (0.0,) if result.margin is None else (0.0, result.margin.margin)
    difference = format_score(result.statistic, keep)
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
    else:
        how = (
            f"Monte Carlo over {test.patterns:,} random sign patterns of "
            f"{plural(test.nonzero_units, 'non-zero ' + test.unit)}, random seed {test.seed}, "
            f"standard error {test.standard_error:.2g}"
        )
    return f"sign-flip permutation test {sign_flip_p(test)} ({side}, {how})"


def sign_flip_p(test: SignFlipTest, alpha: float | None = None) -> str:
    """ "p = 0.012"; "p < 1.0e-12" when the p-value is only a bound (below what its
    computation resolves)."""
    if test.pvalue_bound:
        return f"p < {format_pvalue(test.pvalue)}"
    return format_p_equals(test.pvalue, alpha=alpha)


def t_sentence(test: PairedTTest, names: tuple[str, str]) -> str:
    """The paired t test, or why it is undefined."""
    if test.statistic is None:
        return f"Paired t test: undefined, because {test.undefined}."
    side = _SIDES[test.alternative].format(b=names[1])
    return (
        f"Paired t test: t = {test.statistic:.3g} on {plural(test.df, 'degree')} of freedom, "
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
        f"Wilcoxon signed-rank test: W+ = {test.statistic:g} (ranks where {names[0]} is higher) "
        f"over {plural(test.used, 'non-zero ' + what)}{dropped}, "
        f"{format_p_equals(test.pvalue, test.log10_pvalue)} ({side}, {method})."
    )


def bootstrap_sentence(interval: BootstrapInterval) -> str:
    """The BCa interval with its resamples and seed, or why there is none."""
    if interval.confidence_interval is None:
        return f"BCa bootstrap interval: none, because {interval.undefined}."
    low, high = interval.confidence_interval
    return (
        f"{format_confidence(interval.confidence_level)} BCa bootstrap interval "
        f"{format_score(low)} to {format_score(high)} ({interval.resamples:,} resamples of the "
        f"{plural(interval.units, interval.unit)}, random seed {interval.seed})."
    )


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
    keep = (-margin, 0.0)
    low = format_score(decision.low, keep)  # type: ignore[arg-type]
    high = format_score(decision.high, keep)  # type: ignore[arg-type]
    interval = (
        f"the {format_confidence(decision.confidence_level)} t interval for {name_b}'s mean "
        f"score minus {name_a}'s, {low} to {high},"
    )
    test = (
        "one-sided paired t test of non-inferiority, "
        f"{format_p_equals(decision.pvalue, alpha=decision.alpha)}, α = {decision.alpha:g}"
    )
    if decision.outcome == "non-inferior":
        return (
            f"These cases show that {name_b} is not worse than {name_a} by more than {delta}: "
            f"{interval} lies above -{delta} ({test})."
        )
    if decision.outcome == "worse-beyond-margin":
        return (
            f"These cases show that {name_b} is worse than {name_a} by more than {delta}: "
            f"{interval} lies entirely below -{delta} ({test})."
        )
    if decision.outcome == "worse-unsettled":
        return (
            f"These cases show that {name_b} is worse than {name_a}, by an amount they do not "
            f"settle: {interval} lies below 0 but reaches across -{delta}, so {name_b} is not "
            f"shown non-inferior at a margin of {delta} ({test})."
        )
    return (
        f"{name_b} is not shown to be non-inferior to {name_a} at a margin of {delta}: "
        f"{interval} reaches below -{delta} and up to 0 or above ({test}). No difference is "
        f"shown either way; these cases cannot rule out a drop of {delta} or more."
    )
