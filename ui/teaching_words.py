"""Wording of the calculator page's teaching sections: titles, explanations, sentences, questions.

Plain Python (no Streamlit), so every sentence is tested directly. Numbers go through the core's
formatters, which keep a p-value on its side of alpha and never print a non-zero as zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from calculator.report.caveats import unreachable_sentence
from calculator.report.formatting import (
    format_p_equals,
    format_percent,
    format_pvalue_figures,
    plural,
)
from ui.words import Wording

if TYPE_CHECKING:
    from calculator.teaching import MarginSweep, NullDistribution

__all__ = [
    "NULL_TITLE",
    "null_test_label",
    "NULL_EXPLAIN",
    "ONE_TABLE",
    "OC_TITLE",
    "OC_EXPLAIN",
    "PAIR_TITLE",
    "PAIR_EXPLAIN",
    "QUESTIONS",
    "QUESTIONS_TITLE",
    "Question",
    "agreement_axis_title",
    "cell_phrases",
    "null_axis_title",
    "null_summary",
    "oc_too_large",
    "pairing_selected",
    "percent_beside",
]

NULL_TITLE = "Why the test works: the null distribution of the split"
NULL_EXPLAIN = (
    "Only the cases where the systems disagree carry evidence about which is better. If the two "
    "systems were equally good, each of those disagreements would be a fair coin toss between "
    "them, so b, the number that favour the first system, follows a Binomial(m, 1/2) "
    "distribution. The p-value adds "
    "up the probability of every split at least as lopsided as the one observed, in the "
    "direction tested: the shaded part of the chart (under mid-p, the splits exactly as lopsided "
    "count half)."
)
OC_TITLE = "The tests' real error rates at this number of cases"
OC_EXPLAIN = (
    "Take the entered table's proportions as the truth and imagine the study rerun many times "
    "with the same number of cases. Size is how often each test would declare a difference if "
    "the systems were equally good (with the same amount of disagreement), power how often it "
    "would detect the difference in the table, and coverage how often each interval would hold "
    "the true difference. Every figure is an exact sum over all possible tables, not a "
    "simulation."
)
PAIR_TITLE = "What pairing buys"
PAIR_EXPLAIN = (
    "Keep both pass rates as entered and change only how often the systems agree. The unpaired "
    "test sees only the two pass rates, so its p-value stays put; McNemar's test sees the "
    "disagreements, which become fewer as agreement rises while their imbalance stays the same, "
    "so its p-value falls (unless the pass rates are equal: then there is no imbalance to see, "
    "and the p-value stays high whatever the agreement). When the systems agree less than "
    "independent systems would (dotted line), the unpaired p-value tends to be the smaller one, "
    "but only because the unpaired test then understates the real variability."
)
#: In place of the agreement slider when a system passes every case or none.
ONE_TABLE = "Only one table keeps both pass rates: there is no agreement to vary."
QUESTIONS_TITLE = "Check your understanding"


@dataclass(frozen=True, slots=True)
class Question:
    """A question for a class and the answer revealed on click."""

    key: str
    question: str
    answer: str


QUESTIONS = (
    Question(
        "both_pass",
        "A second table has the same b and c but four times as many cases that both systems "
        "pass. Does McNemar's p-value change?",
        "No. The test looks only at the cases where the systems disagree; a case both pass (or "
        "both fail) says nothing about which is better. The extra cases do shrink the "
        "difference in pass rates, (b − c)/n, and its interval.",
    ),
    Question(
        "discordance",
        "In one table A is ahead by 12 to 2 disagreements, in another by 110 to 100. A leads by "
        "10 in both. Which is the stronger evidence?",
        "The first. What counts is how far the split is from even, given the number of "
        "disagreements: 12 of 14 is far from 7 of 14 (exact p ≈ 0.013), while 110 of 210 is "
        "close to 105 of 210 (p ≈ 0.53).",
    ),
    Question(
        "pairing",
        "Why not compare the two pass rates with an ordinary two-sample test?",
        "Both rates come from the same cases, so they move together: a hard case tends to "
        "defeat both systems. The two-sample test treats them as independent and so misjudges "
        "the uncertainty of their difference; when the systems mostly agree it overstates it "
        "and misses differences the paired test detects.",
    ),
    Question(
        "gates",
        "A release must pass six independent checks, each at α = 0.05, and the new model is in "
        "fact no different. How likely is at least one false alarm?",
        "1 − 0.95⁶ ≈ 26.5%. Every extra gate is another chance to fire by accident; testing each "
        "at α/6 (Bonferroni) or by Šidák's rule keeps the overall rate at or below 5%.",
    ),
    Question(
        "peeking",
        "You look at the p-value after every 100 new cases and stop as soon as it drops below "
        "0.05. Is your false-positive rate still 5%?",
        "No. Each look is one more chance for noise to cross the line, so stopping at the first "
        "significant look raises the false-positive rate well above 5% (the Plan page simulates "
        "by how much). Fix the number of cases in advance, or use a sequential design built for "
        "repeated looks.",
    ),
    Question(
        "small_m",
        "Only five cases differ and all five favour B. Can the exact test call this significant "
        "at 5%?",
        "Not with the usual two-sided test. The most lopsided split of five gives the two-sided "
        "p = 2/32 = "
        "0.0625, so with five or fewer disagreements no result reaches 0.05 two-sided, however "
        "many cases there are in total. A one-sided test, chosen before seeing the data, "
        "gives 1/32 = 0.031 for five out of five.",
    ),
)


def null_summary(null: NullDistribution) -> list[str]:
    """Sentences beside the null-distribution chart: the smallest p, the size, reachability."""
    m, alpha = null.discordant, null.alpha
    if m == 0:
        return ["No case separates the systems (m = 0), so there is no split to test: p = 1."]
    smallest = format_pvalue_figures(
        null.smallest_pvalue, alpha, log10_pvalue=null.log10_smallest_pvalue
    )
    sentences = [
        f"The most lopsided split of {plural(m, 'discordant pair')} gives p = {smallest}.",
    ]
    if not null.reachable:
        sentences.append(unreachable_sentence(m, alpha))
        return sentences
    if math.isclose(null.size, alpha, rel_tol=1e-12):  # a binomial tail equal to alpha
        comparison, size = "equal to", f"{100.0 * alpha:g}%"
    else:
        comparison = "below" if null.size < alpha else "above"
        size = percent_beside(null.size, alpha)
    if null.convention == "mid-p" and comparison == "above":
        # Above alpha not because b is whole but because the mid-p is not an exact test.
        sentences.append(
            f"At this m the mid-p test's actual false-alarm rate is {size}, above the nominal "
            f"α = {alpha:g}: the mid-p test counts the observed split only half, so it is not "
            "an exact test, and given the number of discordant pairs it can reject a true null "
            "hypothesis more often than α."
        )
        return sentences
    sentences.append(
        f"At this m the test's actual false-alarm rate is {size}, "
        f"{comparison} the nominal α = {alpha:g}, because b takes whole values only."
    )
    return sentences


def percent_beside(value: float, reference: float) -> str:
    """A rate as :func:`calculator.report.formatting.format_percent` prints it, with more decimals
    when that would print it equal to `reference` (alpha, a nominal level) while it is not: a
    size above alpha, or a coverage below the nominal level, never reads as on the mark.

    Examples
    --------
    >>> percent_beside(0.050368, 0.05), percent_beside(0.0498, 0.05), percent_beside(0.05, 0.05)
    ('5.04%', '4.98%', '5.0%')
    >>> percent_beside(0.9500136, 0.95), percent_beside(0.9721, 0.95)
    ('95.001%', '97.2%')
    """
    text = format_percent(value)
    if value == reference or not _reads_as(text, reference):
        return text
    for decimals in range(2, 13):
        text = f"{100.0 * value:.{decimals}f}%"
        if not _reads_as(text, reference):
            break
    return text


def _reads_as(text: str, reference: float) -> bool:
    return abs(float(text.removesuffix("%")) - 100.0 * reference) < 1e-9


def oc_too_large(n: int, largest: int) -> str:
    """The sentence shown instead of the operating characteristics for a very large table."""
    return (
        f"These exact sums are computed for up to {largest:,} cases; this table has {n:,}. The "
        "exact test's real error rate depends on the number of discordant pairs: the null "
        "distribution section shows it for this table."
    )


def cell_phrases(wording: Wording) -> tuple[str, str, str, str]:
    """The four cells in the page's framing: "both pass", "only A passes", ... (or "correct")."""
    a, b = wording.name_a, wording.name_b
    if wording.classifier:
        return ("both correct", f"only {a} correct", f"only {b} correct", "both wrong")
    return ("both pass", f"only {a} passes", f"only {b} passes", "both fail")


def null_axis_title(wording: Wording, m: int) -> str:
    """x-axis title of the null-distribution chart."""
    return f"b: cases {cell_phrases(wording)[1]}, of the m = {m:,} that differ"


def agreement_axis_title(wording: Wording) -> str:
    """x-axis title of the pairing chart."""
    both_good, _, _, both_bad = cell_phrases(wording)
    return f"Agreement: share of cases {both_good} or {both_bad}"


def pairing_selected(sweep: MarginSweep, index: int, alpha: float, wording: Wording) -> str:
    """The table the agreement slider points at, with both p-values."""
    exact = format_p_equals(sweep.exact_pvalue[index], sweep.exact_log10[index], alpha=alpha)
    unpaired = format_p_equals(
        sweep.unpaired_pvalue[index], sweep.unpaired_log10[index], alpha=alpha
    )
    cells = cell_phrases(wording)
    counts = (sweep.a[index], sweep.b[index], sweep.c[index], sweep.d[index])
    table = "; ".join(f"{phrase} {count:,}" for phrase, count in zip(cells, counts, strict=True))
    return (
        f"{table[0].upper()}{table[1:]} (agreement {format_percent(sweep.agreement[index])}): "
        f"McNemar's {_binomial_name(sweep.convention)} {exact}; unpaired {unpaired}."
    )


def null_test_label(convention: str, alternative: str = "two-sided") -> str:
    """The null section's label for the binomial test's p: a mid-p value is not an exact test's,
    and the sides are named, since the Decision beside it may ask a one-sided question.

    Examples
    --------
    >>> null_test_label("doubling"), null_test_label("mid-p", "greater")
    ('Exact test, two-sided', 'Mid-p test (not exact), one-sided')
    """
    test = "Mid-p test (not exact)" if convention == "mid-p" else "Exact test"
    return f"{test}, {'two-sided' if alternative == 'two-sided' else 'one-sided'}"


def _binomial_name(convention: str) -> str:
    """McNemar's binomial test by its convention: the mid-p is not an exact test."""
    return "mid-p test:" if convention == "mid-p" else "exact"
