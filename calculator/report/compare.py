"""Sentences about a comparison of several systems, shared by the command line and the page."""

from __future__ import annotations

from calculator.compare.cochran import CochranQResult
from calculator.compare.letters import MAX_GROUPS, letter_name
from calculator.compare.systems import PairComparison, SystemComparison
from calculator.report.caveats import smallest_pvalue
from calculator.report.figures import floor_bound, floor_undecided, format_standard_error
from calculator.report.formatting import (
    format_confidence,
    format_p_equals,
    format_percent,
    format_points,
    plural,
)

__all__ = [
    "ADJUSTMENT_NAMES",
    "describe_agreement",
    "describe_cochran",
    "describe_groups",
    "describe_pairs",
    "describe_ties",
    "never_separable",
    "tied_groups",
]

#: Display names of the multiplicity adjustments.
ADJUSTMENT_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni"}


def describe_cochran(result: SystemComparison) -> str:
    """Cochran's Q with its chi-square and permutation p-values, then the verdict at alpha.

    The verdict rests on the permutation p when it is exact or estimated, else on the
    chi-square p (:attr:`~calculator.compare.cochran.CochranQResult.decision_pvalue`); the
    sentence says which, and :func:`describe_pairs` uses the same p. A Monte Carlo p at its floor
    1/(R + 1) is written as that bound, and decides nothing below it.

    Examples
    --------
    >>> from calculator.compare import compare_systems
    >>> r = compare_systems([[1, 0, 0], [1, 0, 0], [1, 1, 0], [0, 0, 1]], ["A", "B", "C"])
    >>> print(describe_cochran(r))  # doctest: +NORMALIZE_WHITESPACE
    Cochran's Q = 2.00 on 2 degrees of freedom: chi-square p = 0.368; permutation p = 0.556
    (exact, given each case's number of passes). By the exact permutation p, the data do not
    show that the pass rates of the 3 systems differ at α = 0.05.
    """
    q = result.cochran
    k = len(result.names)
    if q.statistic is None:
        return (
            f"Cochran's Q is undefined: on every case the {k} systems all pass or all fail, so "
            "nothing tells them apart (p = 1)."
        )
    chi2 = format_p_equals(q.pvalue, q.log10_pvalue, alpha=result.alpha)
    head = (
        f"Cochran's Q = {_statistic(q.statistic)} on {plural(q.df, 'degree')} of freedom: "
        f"chi-square {chi2}; {describe_permutation(q, result.alpha)}"
    )
    rejects = q.rejects(result.alpha)
    if rejects is None:
        undecided = floor_undecided(q.resamples, result.alpha)
        return f"{head} {undecided[0].upper()}{undecided[1:]}."
    verdict = (
        f"equal pass rates of the {k} systems are rejected at α = {result.alpha:g}"
        if rejects
        else f"the data do not show that the pass rates of the {k} systems differ at α = "
        f"{result.alpha:g}"
    )
    return f"{head} By the {_basis(q)}, {verdict}."


def _basis(q: CochranQResult) -> str:
    """The name of the p-value the verdict rests on (:attr:`CochranQResult.decision_pvalue`)."""
    if q.method == "none":
        return "chi-square p"
    return "exact permutation p" if q.method == "exact" else "Monte Carlo permutation p"


def _statistic(value: float) -> str:
    """Two decimals, or two significant figures for a small non-zero value (never "0.00")."""
    return f"{value:.2f}" if value == 0 or value >= 0.01 else f"{value:.2g}"


def describe_permutation(q: CochranQResult, alpha: float) -> str:
    """How the permutation p came about, with its value (a clause ending in a full stop)."""
    if q.method == "none":
        sampling = (
            f"drawing {q.resamples_not_drawn:,} random ones would exceed the limit on the work"
            if q.resamples_not_drawn
            else "no random ones were asked for"
        )
        return (
            "the permutation p was not computed: its arrangements are too many to enumerate, "
            f"and {sampling} (the chi-square p is a good approximation when many cases separate "
            "the systems)."
        )
    if q.method == "exact":
        p = format_p_equals(q.exact_pvalue, alpha=alpha)
        return f"permutation {p} (exact, given each case's number of passes)."
    if q.at_floor:
        return (
            f"permutation p {floor_bound(q.resamples)} (Monte Carlo: none of {q.resamples:,} "
            f"resamples, random-number stream {q.seed}, was as extreme as the data)."
        )
    p = format_p_equals(q.exact_pvalue, alpha=alpha)
    return (
        f"permutation {p} (Monte Carlo estimate from {q.resamples:,} resamples, random-number "
        f"stream {q.seed}, "
        f"standard error {format_standard_error(q.standard_error)})."
    )


def describe_pairs(result: SystemComparison) -> str:
    """Which pairs differ after the adjustment, with the direction and interval of each.

    Examples
    --------
    >>> from calculator.compare import compare_systems
    >>> r = compare_systems([[1, 0, 0]] * 12 + [[0, 1, 1]], ["A", "B", "C"])
    >>> print(describe_pairs(r))  # doctest: +NORMALIZE_WHITESPACE
    2 of the 3 pairs differ at α = 0.05 after Holm's adjustment for 3 comparisons (exact
    McNemar tests): A passes more often than B (+84.6 points, 95% CI +41.5 to +100.0,
    adjusted p = 0.010); A passes more often than C (+84.6 points, 95% CI +41.5 to +100.0,
    adjusted p = 0.010). Each interval is a 95% interval for its pair alone, not adjusted for
    the number of pairs. This pair can never be separated at α = 0.05, whichever way their
    discordant cases split: B and C (no case separates them). With m discordant cases the most
    lopsided split, m to 0, gives the exact p = 2^(1 − m) (1 when m ≤ 1) even before the
    adjustment, which here exceeds α; not being separated says little about whether they
    differ.
    """
    adjusted = ADJUSTMENT_NAMES[result.adjust]
    family = result.family_size
    separated = [pair for pair in result.pairs if pair.reject]
    if family == 1:
        head = "The pair differs" if separated else "The pair does not differ"
    elif len(separated) == 1:
        head = f"1 of the {plural(family, 'pair')} differs"
    else:
        head = f"{len(separated)} of the {plural(family, 'pair')} differ"
    text = (
        f"{head} at α = {result.alpha:g} after {adjusted}'s adjustment for "
        f"{plural(family, 'comparison')} (exact McNemar tests)"
    )
    if not separated:
        text += "."
    else:
        text += ": " + "; ".join(_pair_phrase(pair, result) for pair in separated) + "."
        text += (
            f" Each interval is a {format_confidence(result.level)} interval for its pair "
            "alone, not "
            "adjusted for the number of pairs."
        )
    hopeless = [pair for pair in result.pairs if never_separable(pair, result)]
    if hopeless:
        text += " " + _never_separable_sentence(hopeless, result)
    q = result.cochran
    if not separated and q.statistic is not None and q.rejects(result.alpha):
        text += (
            f" Cochran's Q rejects equal pass rates (by the {_basis(q)}, as above), yet no "
            "single pair is separated: the differences are spread over several systems, or too "
            "small pair by pair to locate."
        )
    return text


def _pair_phrase(pair: PairComparison, result: SystemComparison) -> str:
    better, worse = (pair.a, pair.b) if pair.difference > 0 else (pair.b, pair.a)
    sign = 1 if pair.difference > 0 else -1
    low, high = sorted((sign * pair.low, sign * pair.high))
    level = format_confidence(result.level)
    p = format_p_equals(pair.adjusted_pvalue, pair.log10_adjusted_pvalue, alpha=result.alpha)
    return (
        f"{better} passes more often than {worse} ({format_points(sign * pair.difference)} "
        f"points, {level} CI {format_points(low)} to {format_points(high)}, adjusted {p})"
    )


def describe_agreement(result: SystemComparison) -> str:
    """How many cases every system agrees on; they carry no evidence about any difference.

    Examples
    --------
    >>> from calculator.compare import compare_systems
    >>> r = compare_systems([[1, 1, 1], [0, 0, 0], [1, 0, 1]], ["A", "B", "C"])
    >>> describe_agreement(r)
    'All 3 systems agree on 2 of the 3 cases (66.7%: 1 all pass, 1 all fail); those cases carry \
no evidence about any difference.'
    """
    k = len(result.names)
    if result.agreeing == 0 and result.n == 1:
        verb = "disagree" if k == 2 else "do not all agree"
        return f"The {k} systems {verb} on the one case."
    if result.agreeing == 0 and k == 2:
        return f"The 2 systems disagree on each of the {plural(result.n, 'case')}."
    if result.agreeing == 0:
        return (
            f"The {k} systems never all agree: each of the {plural(result.n, 'case')} separates "
            "at least two of them."
        )
    share = format_percent(result.agreeing / result.n)
    return (
        f"{'Both' if k == 2 else f'All {k}'} systems agree on {result.agreeing:,} of the "
        f"{plural(result.n, 'case')} "
        f"({share}: {result.all_pass:,} all pass, {result.all_fail:,} all fail); those cases "
        "carry no evidence about any difference."
    )


def never_separable(pair: PairComparison, result: SystemComparison) -> bool:
    """True when no split of the pair's discordant cases could be separated at alpha.

    With m = b + c discordant cases the smallest exact p is 2^(1 - m) (m to 0). Bonferroni's
    adjusted p is at least K times it; Holm's at least the p itself (its last step), so the
    bound used for Holm holds whatever the other pairs show.
    """
    smallest = smallest_pvalue(pair.b_count + pair.c_count, "doubling")
    multiplier = result.family_size if result.adjust == "bonferroni" else 1
    return min(1.0, multiplier * smallest) > result.alpha


def _never_separable_sentence(pairs: list[PairComparison], result: SystemComparison) -> str:
    """Which pairs have too few discordant cases to be separated, and why."""
    names = "; ".join(f"{pair.a} and {pair.b} ({_separating(pair)})" for pair in pairs)
    bonferroni = result.adjust == "bonferroni"
    where = (
        f"Bonferroni's adjusted p = {result.family_size} × 2^(1 − m) (at most 1)"
        if bonferroni
        else "the exact p = 2^(1 − m) (1 when m ≤ 1) even before the adjustment"
    )
    verb = "This pair" if len(pairs) == 1 else "These pairs"
    return (
        f"{verb} can never be separated at α = {result.alpha:g}, whichever way their "
        f"discordant cases split: {names}. With m discordant cases the most lopsided split, m "
        f"to 0, gives {where}, which here exceeds α; not being separated says little "
        "about whether they differ."
    )


def _separating(pair: PairComparison) -> str:
    m = pair.b_count + pair.c_count
    if m == 0:
        return "no case separates them"
    return f"{plural(m, 'case')} {'separates' if m == 1 else 'separate'} them"


def tied_groups(result: SystemComparison) -> list[tuple[str, ...]]:
    """Systems with the same number of passes (two or more), in ranking order."""
    groups: dict[int, list[str]] = {}
    for name in result.ranking:
        groups.setdefault(result.rank(name), []).append(name)
    return [tuple(group) for group in groups.values() if len(group) > 1]


def describe_ties(result: SystemComparison) -> str | None:
    """A sentence naming the systems tied on pass rate (not ranked among themselves), or None.

    Examples
    --------
    >>> from calculator.compare import compare_systems
    >>> r = compare_systems([[1, 0, 0], [0, 1, 0], [1, 1, 0]], ["x", "y", "z"])
    >>> describe_ties(r)
    'x and y pass equally often (2 of the 3 cases each): they are tied, not ranked.'
    """
    groups = tied_groups(result)
    if not groups:
        return None
    parts = []
    for group in groups:
        passes = result.systems[result.names.index(group[0])].passes
        names = ", ".join(group[:-1]) + f" and {group[-1]}"
        parts.append(
            f"{names} pass equally often ({passes:,} of the {plural(result.n, 'case')} each)"
        )
    return "; ".join(parts) + ": they are tied, not ranked."


def describe_groups(result: SystemComparison) -> str:
    """The compact letter display in words: what sharing a letter means, and how many
    neighbours in rank order the adjusted tests separated (the letters are in the ranking).

    Examples
    --------
    >>> from calculator.compare import compare_systems
    >>> r = compare_systems([[1, 0, 0]] * 12 + [[0, 1, 1]], ["A", "B", "C"])
    >>> print(describe_groups(r))  # doctest: +NORMALIZE_WHITESPACE
    Letters a to b mark the groups of systems not shown different, in rank order: systems that
    share a letter were not separated by Holm-adjusted exact McNemar tests at α = 0.05, and
    systems with no letter in common were. Sharing a letter does not make systems equal, and not
    being separated is not transitive. 1 of the 2 neighbouring pairs in rank order is separated.
    """
    shown = result.letter_display()
    k = len(result.names)
    count = shown.adjacent_separated
    neighbours = (
        f"{count} of the {k - 1} neighbouring pairs in rank order "
        f"{'is' if count == 1 else 'are'} separated."
        if k > 2
        else f"The pair is {'separated' if count else 'not separated'}."
    )
    if not shown.complete:
        return (
            "No letter display: the groups of systems not separated from each other are more "
            f"than the {MAX_GROUPS} a display can show. {neighbours}"
        )
    groups = len(shown.groups)
    letters = "Letter a marks" if groups == 1 else f"Letters a to {letter_name(groups - 1)} mark"
    return (
        f"{letters} the groups of systems not shown different, in rank order: systems that "
        f"share a letter were not separated by {ADJUSTMENT_NAMES[result.adjust]}-adjusted exact "
        f"McNemar tests at α = {result.alpha:g}, and systems with no letter in common were. "
        "Sharing a letter does not make systems equal, and not being separated is not "
        "transitive. " + neighbours
    )
