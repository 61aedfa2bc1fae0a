"""The words of a paired k x k analysis and of McNemar's exact unconditional test.

:func:`calculator.square.analyze_square` and
:func:`calculator.unconditional.mcnemar_unconditional` compute the numbers; this module words
them once, for the command line's text and JSON alike.

- :func:`square_report`, :func:`square_payload`: a k x k analysis.
- :func:`unconditional_sentence`, :func:`unconditional_line`, :func:`unconditional_payload`: the
  unconditional test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.formatting import (
    format_confidence,
    format_p_equals,
    format_percent,
    format_points,
    format_pvalue,
)
from calculator.text import plural, printable

if TYPE_CHECKING:
    from calculator.square import (
        CategoryComparison,
        ChiSquareTest,
        MeanScoreTest,
        SquareAnalysis,
        SquareTable,
    )
    from calculator.unconditional import UnconditionalTestResult

__all__ = [
    "square_payload",
    "square_report",
    "unconditional_line",
    "unconditional_payload",
    "unconditional_sentence",
]


def square_report(result: SquareAnalysis) -> str:
    """The report of a k x k analysis: the agreement, the two hypotheses, each category.

    Examples
    --------
    >>> from calculator.square import analyze_square
    >>> r = analyze_square([[35, 5, 0], [15, 20, 5], [10, 5, 5]], ["low", "mid", "high"])
    >>> print(square_report(r).splitlines()[0])
    A and B put the same 100 cases into 3 categories (low, mid, high) and agreed on 60 (60.0%).
    """
    table = result.table
    agreed = sum(table.counts[i][i] for i in range(table.k))
    names = ", ".join(printable(label) for label in table.labels)
    lines = [
        f"A and B put the same {plural(table.n, 'case')} into {table.k} categories ({names}) "
        f"and agreed on {agreed:,} ({format_percent(agreed / table.n) if table.n else 'none'}).",
        *_unused_categories(table),
        _bowker_sentence(result.bowker, result.empty_pairs, table.k),
        _homogeneity_sentence(result.stuart_maxwell, result.bhapkar),
    ]
    if result.ordinal is not None:
        lines.append(_ordinal_sentence(result.ordinal))
    lines.append(
        f"Each category against the rest ({format_confidence(result.level)} Bonferroni-type "
        "intervals that hold for all categories together; exact McNemar test of the cases "
        f"only A or only B put there, doubled tail, Holm adjusted over the {table.k}):"
    )
    lines.extend(_category_line(category) for category in result.categories)
    return "\n".join(lines)


def _unused_categories(table: SquareTable) -> list[str]:
    """A sentence for each category one system never used (a zero total), or neither did.

    Examples
    --------
    >>> from calculator.square import square_table
    >>> _unused_categories(square_table([[2, 1, 0], [0, 3, 1], [0, 0, 0]], ["x", "y", "z"]))
    ["A never put a case in z, which B put 1 case in: the category is kept, with A's total 0, \
as that difference between the margins is part of what is tested."]
    """
    lines = []
    for label, row, column in zip(table.labels, table.rows, table.columns, strict=True):
        name = printable(label)
        if row == column == 0:
            lines.append(f"Neither system put a case in {name}, so its difference is 0.")
        elif row == 0 or column == 0:
            never, other, count = ("A", "B", column) if row == 0 else ("B", "A", row)
            lines.append(
                f"{never} never put a case in {name}, which {other} put "
                f"{plural(count, 'case')} in: the category is kept, with {never}'s total 0, as "
                "that difference between the margins is part of what is tested."
            )
    return lines


def _bowker_sentence(test: ChiSquareTest, empty_pairs: str, k: int) -> str:
    asks = (
        "Symmetry (Bowker's test: is each kind of disagreement, A saying i where B says j, "
        "as common as the reverse?)"
    )
    if test.statistic is None:
        return f"{asks}: undefined, since A and B never disagree; p = 1."
    pairs = k * (k - 1) // 2
    if empty_pairs == "every-pair":
        counted = f"all {plural(pairs, 'pair')} of categories counted, with a disagreement or not"
    else:
        counted = f"only the {test.df} of {pairs} pairs of categories with a disagreement counted"
    return (
        f"{asks}: chi-square {test.statistic:.3f} on {test.df} df ({counted}), "
        f"{format_p_equals(test.pvalue, test.log10_pvalue)}."
    )


def _homogeneity_sentence(stuart: ChiSquareTest, bhapkar: ChiSquareTest) -> str:
    asks = "Marginal homogeneity (does A use each category as often as B?)"
    if stuart.statistic is None:
        return f"{asks}: undefined, since A and B never disagree; p = 1."
    if bhapkar.statistic is None:
        bhapkar_text = (
            "Bhapkar's version is undefined here (the sample covariance of the differences "
            "between the margins is singular, as when every case is a disagreement in the "
            "same direction)"
        )
    else:
        bhapkar_text = (
            f"Bhapkar's version chi-square {bhapkar.statistic:.3f}, "
            f"{format_p_equals(bhapkar.pvalue, bhapkar.log10_pvalue)}"
        )
    return (
        f"{asks}: Stuart-Maxwell chi-square {stuart.statistic:.3f} on {stuart.df} df, "
        f"{format_p_equals(stuart.pvalue, stuart.log10_pvalue)}; {bhapkar_text}."
    )


def _ordinal_sentence(test: MeanScoreTest) -> str:
    scores = ", ".join(f"{score:g}" for score in test.scores)
    asks = f"Ordered categories (score test of equal mean scores, scores {scores})"
    if test.statistic is None:
        return f"{asks}: undefined, since A and B never disagree; p = 1."
    return (
        f"{asks}: A's mean score less B's is {test.estimate:+.3f} "
        f"({format_confidence(test.level)} Wald CI {test.low:+.3f} to {test.high:+.3f}), "
        f"z = {test.statistic:.3f}, {format_p_equals(test.pvalue, test.log10_pvalue)}."
    )


def _category_line(category: CategoryComparison) -> str:
    return (
        f"  {printable(category.label)}: A {format_percent(category.share_a)}, "
        f"B {format_percent(category.share_b)}, difference {format_points(category.difference)} "
        f"points ({format_points(category.low)} to {format_points(category.high)}); "
        f"only A {category.only_a:,}, only B {category.only_b:,}, "
        f"exact {format_p_equals(category.pvalue, category.log10_pvalue)}, Holm-adjusted "
        f"{format_p_equals(category.adjusted_pvalue, category.log10_adjusted_pvalue)}"
    )


def square_payload(result: SquareAnalysis) -> dict[str, object]:
    """The JSON of a k x k analysis: its numbers and its report."""
    return {**result.to_dict(), "report": square_report(result)}


def unconditional_sentence(result: UnconditionalTestResult) -> str:
    """The unconditional test in one sentence, its search and γ named.

    The ends of the search are percentages that never print as 0% unless they are 0.

    Examples
    --------
    >>> from calculator.unconditional import mcnemar_unconditional
    >>> print(unconditional_sentence(mcnemar_unconditional(5, 0, 1, 8)))
    McNemar's exact unconditional test (two-sided, Suissa-Shuster; the largest tail over the \
chance that a case is discordant, searched within its 99.99% Clopper-Pearson interval, from \
0.0004% to 60.5%, with Berger-Boos γ = 0.0001 added): p = 0.542.
    """
    name = "McNemar's exact unconditional test"
    if result.statistic is None:
        return f"{name}: p = 1, since no case is discordant (none tells the systems apart)."
    return (
        f"{name} (two-sided, Suissa-Shuster; the largest tail over the chance that a case is "
        f"discordant, {_search(result)}): {format_p_equals(result.pvalue, result.log10_pvalue)}."
    )


def unconditional_line(result: UnconditionalTestResult, *, alpha: float | None = None) -> str:
    """The unconditional test's p and its method in brief, for a report of one line a figure;
    with `alpha`, the p never prints on the wrong side of it.

    Examples
    --------
    >>> from calculator.unconditional import mcnemar_unconditional
    >>> print(unconditional_line(mcnemar_unconditional(5, 0, 1, 8)))
    0.542 (two-sided, Suissa-Shuster: the largest tail over the chance that a case is discordant, \
searched within its 99.99% Clopper-Pearson interval, from 0.0004% to 60.5%, with Berger-Boos \
γ = 0.0001 added)
    """
    if result.statistic is None:
        return "1 (no case is discordant)"
    pvalue = format_pvalue(result.pvalue, result.log10_pvalue, alpha=alpha)
    return (
        f"{pvalue} (two-sided, Suissa-Shuster: the largest tail over the chance that a case "
        f"is discordant, {_search(result)})"
    )


def _search(result: UnconditionalTestResult) -> str:
    if result.gamma == 0:
        return "searched over every value from 0% to 100%, no γ added"
    return (
        f"searched within its {format_confidence(1 - result.gamma)} Clopper-Pearson "
        f"interval, from {format_percent(result.nuisance_low)} to "
        f"{format_percent(result.nuisance_high)}, with Berger-Boos γ = {result.gamma:g} added"
    )


def unconditional_payload(result: UnconditionalTestResult) -> dict[str, object]:
    """The JSON of the unconditional test: its numbers and its sentence."""
    return {**result.to_dict(), "sentence": unconditional_sentence(result)}
