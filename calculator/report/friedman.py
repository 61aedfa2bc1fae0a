"""Sentences about several systems' scores compared by ranks (Friedman, Nemenyi, the pairs),
shared by the command line and the page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.compare.letters import MAX_GROUPS, letter_name
from calculator.report.formatting import format_p_equals, plural

if TYPE_CHECKING:
    from calculator.compare.friedman import FriedmanComparison
    from calculator.compare.friedman_suite import FriedmanSuite

__all__ = [
    "describe_cliques",
    "describe_friedman",
    "describe_nemenyi",
    "describe_rank_gap",
    "describe_rank_groups",
    "describe_rank_pairs",
    "friedman_task_lines",
]


def describe_friedman(result: FriedmanComparison) -> str:
    """Friedman's chi-square and the Iman-Davenport F, the exact p when enumerated, and the
    verdict at alpha on the p it rests on.

    Examples
    --------
    >>> from calculator.compare.friedman import friedman_compare
    >>> x = [[0.9, 0.5, 0.1], [0.8, 0.6, 0.2], [0.7, 0.4, 0.3], [0.6, 0.7, 0.1]]
    >>> print(describe_friedman(friedman_compare(x, ["A", "B", "C"])))
    ... # doctest: +NORMALIZE_WHITESPACE
    Friedman's test of the systems' ranks within each case: chi-square = 6.50 on 2 degrees of
    freedom, p = 0.039; Iman-Davenport F = 13.00 on 2 and 6 degrees of freedom, p = 0.007;
    permutation p = 0.042 (exact: each case's ranks permuted among the systems). By the exact
    permutation p, the hypothesis that every ordering of the 3 systems within a case is equally
    likely is rejected at α = 0.05.
    """
    k, alpha = len(result.names), result.alpha
    if result.statistic is None:
        return (
            f"Friedman's test is undefined: on every case the {k} systems score alike, so "
            "nothing tells them apart (p = 1)."
        )
    f = (
        f"Iman-Davenport F = {result.f_statistic:.2f} on {result.f_df1} and {result.f_df2} "
        f"degrees of freedom, {format_p_equals(result.f_pvalue, alpha=alpha)}"
        if result.f_statistic is not None
        else "Iman-Davenport F is unbounded (every case ranks the systems alike), p = 0"
    )
    if result.method == "exact":
        exact = (
            f"permutation {format_p_equals(result.exact_pvalue, alpha=alpha)} (exact: each "
            "case's ranks permuted among the systems)"
        )
        basis = "exact permutation p"
    else:
        exact = (
            "the exact permutation p was not enumerated: the table is past the bound on the "
            "work, so the F p decides (Demšar 2006 prefers it to the chi-square)"
        )
        basis = "Iman-Davenport F p"
    verdict = (
        f"the hypothesis that every ordering of the {k} systems within a case is equally likely "
        f"is rejected at α = {alpha:g}"
        if result.reject
        else f"the data do not show the {k} systems ranking differently at α = {alpha:g}"
    )
    return (
        f"Friedman's test of the systems' ranks within each case: chi-square = "
        f"{result.statistic:.2f} on {plural(result.df, 'degree')} of freedom, "
        f"{format_p_equals(result.pvalue, alpha=alpha)}; {f}; {exact}. By the {basis}, "
        f"{verdict}."
    )


def describe_nemenyi(result: FriedmanComparison) -> str:
    """Nemenyi's critical difference and the pairs whose average ranks lie further apart."""
    far = [pair for pair in result.pairs if pair.beyond_cd]
    listed = "; ".join(f"{p.a} and {p.b} ({abs(p.rank_gap):.2f})" for p in far)
    head = (
        f"Nemenyi's critical difference at α = {result.alpha:g}: {result.critical_difference:.2f}"
        f" in average rank ({len(result.names)} systems, {plural(result.n, 'case')})"
    )
    if not far:
        return f"{head}; no two systems' average ranks lie further apart."
    return f"{head}; further apart, so shown different by Nemenyi's test: {listed}."


def describe_cliques(result: FriedmanComparison) -> str:
    """The critical-difference diagram's groups in words: the systems whose average ranks lie
    within Nemenyi's CD of each other, best first, and those that stand alone.

    Examples
    --------
    >>> from calculator.compare.friedman import friedman_compare
    >>> x = [[0.9, 0.5, 0.1], [0.8, 0.6, 0.2], [0.7, 0.4, 0.3], [0.6, 0.7, 0.1]]
    >>> print(describe_cliques(friedman_compare(x, ["A", "B", "C"])))
    ... # doctest: +NORMALIZE_WHITESPACE
    Critical-difference groups (average ranks within 1.66 of each other, so not shown
    different by Nemenyi's test): {A (1.25), B (1.75)}; {B (1.75), C (3.00)}.
    """
    ranks = dict(zip(result.names, result.average_ranks, strict=True))
    cd = result.critical_difference
    groups = [
        "{" + ", ".join(f"{name} ({ranks[name]:.2f})" for name in clique) + "}"
        for clique in result.cliques()
        if len(clique) > 1
    ]
    alone = [clique[0] for clique in result.cliques() if len(clique) == 1]
    parts = []
    if groups:
        parts.append(
            f"Critical-difference groups (average ranks within {cd:.2f} of each other, so not "
            f"shown different by Nemenyi's test): {'; '.join(groups)}"
        )
    if alone:
        who = ", ".join(f"{name} ({ranks[name]:.2f})" for name in alone)
        if not groups:
            parts.append(
                f"No two systems' average ranks lie within the CD ({cd:.2f}) of each other: "
                f"each stands apart, {who}"
            )
        elif len(alone) == 1:
            parts.append(
                f"{who} stands apart: its average rank lies further than the CD from every "
                "other system's"
            )
        else:
            parts.append(
                f"{who} stand apart: each one's average rank lies further than the CD from "
                "every other system's"
            )
    return "; ".join(parts) + "."


def describe_rank_pairs(result: FriedmanComparison) -> str:
    """How many pairs the Holm-adjusted signed-rank tests separate."""
    family = len(result.pairs)
    separated = sum(pair.reject for pair in result.pairs)
    return (
        f"{separated} of the {plural(family, 'pair')} differ at α = {result.alpha:g} by the "
        "two-sided Wilcoxon signed-rank test of each pair's score differences, after Holm's "
        f"adjustment for {plural(family, 'comparison')}; a pair's own test can disagree with "
        "Nemenyi's, which rests on ranks among all the systems."
    )


def describe_rank_gap(result: FriedmanComparison) -> str:
    """What each pair's average rank gap and signed-rank p measure, in the pair's own order
    A − B (the one direction of every difference): A's average rank minus B's.

    Examples
    --------
    >>> from calculator.compare.friedman import friedman_compare
    >>> x = [[0.9, 0.5, 0.1], [0.8, 0.6, 0.2], [0.7, 0.4, 0.3], [0.6, 0.7, 0.1]]
    >>> print(describe_rank_gap(friedman_compare(x, ["A", "B", "C"])))
    ... # doctest: +NORMALIZE_WHITESPACE
    Each pair A − B: A's average rank minus B's (rank 1 is the highest score on a case, so a
    negative gap means A ranks better), against Nemenyi's CD 1.66; the two-sided signed-rank p
    of A's scores minus B's, and that p adjusted over 3 pairs (Holm).
    """
    best = "highest" if result.better == "higher" else "lowest"
    return (
        f"Each pair A − B: A's average rank minus B's (rank 1 is the {best} score on a case, so "
        f"a negative gap means A ranks better), against Nemenyi's CD "
        f"{result.critical_difference:.2f}; the two-sided signed-rank p of A's scores minus "
        f"B's, and that p adjusted over {plural(len(result.pairs), 'pair')} (Holm)."
    )


def describe_rank_groups(result: FriedmanComparison) -> str:
    """The letter display of the signed-rank tests, in words (the letters are in the ranking)."""
    shown = result.letter_display()
    if not shown.complete:
        return (
            "No letter display: the groups of systems not separated from each other are more "
            f"than the {MAX_GROUPS} a display can show."
        )
    groups = len(shown.groups)
    letters = "Letter a marks" if groups == 1 else f"Letters a to {letter_name(groups - 1)} mark"
    k = len(result.names)
    return (
        f"{letters} the groups of systems not shown different, in rank order: systems that "
        "share a letter were not separated by the Holm-adjusted signed-rank tests, and systems "
        "with no letter in common were; sharing a letter does not make systems equal. "
        f"{shown.adjacent_separated} of the {k - 1} neighbouring pairs in rank order "
        f"{'is' if shown.adjacent_separated == 1 else 'are'} separated."
    )


def friedman_task_lines(suite: FriedmanSuite) -> list[str]:
    """A line per task: its mean scores, Friedman's p (the one its verdict rests on) and that
    p adjusted by Holm across the tasks."""
    lines = []
    family = sum(p is not None for p in suite.holm_pvalues)
    for task, size, result, holm in zip(
        suite.tasks, suite.sizes, suite.by_task, suite.holm_pvalues, strict=True
    ):
        if result is None or holm is None:
            lines.append(
                f"task {task} ({plural(size, 'question')}): too few questions for Friedman's "
                "test (it needs 2)"
            )
            continue
        means = ", ".join(
            f"{name} {mean:#.4g}"
            for name, mean in zip(result.names, result.mean_scores, strict=True)
        )
        basis = "exact permutation" if result.method == "exact" else "Iman-Davenport F"
        lines.append(
            f"task {task} ({plural(size, 'question')}): mean scores {means}; Friedman "
            f"({basis}) {format_p_equals(result.decision_pvalue, alpha=result.alpha)}, "
            f"Holm-adjusted across {plural(family, 'task')} "
            f"{format_p_equals(holm, alpha=result.alpha)}"
        )
    return lines
