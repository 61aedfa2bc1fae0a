"""The sentences of a release decision: one home for the words of :class:`Decision`.

:func:`calculator.decide` computes the numbers; :func:`decision_sentence` words them, and the
page, the command line and the JSON quote it (:func:`calculator.report.words.text`).

Every difference is worded as A − B (positive: A passes more often), the direction of the
analysis' headline, and named once as such beside its figures. The outcome of a test against a
margin is worded by where that interval lies (:mod:`calculator.report.decision_margin`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from calculator.report.decision_margin import margin_sentence
from calculator.report.formatting import (
    format_confidence,
    format_p_equals,
    format_pvalue,
    limit_points,
    method_words,
    plural,
    points_of,
)
from calculator.report.naming import CLUSTER_TEST, named_test
from calculator.table import PairedTable

if TYPE_CHECKING:
    from calculator.decision import Decision

__all__ = [
    "CLUSTER_TEST",
    "Words",
    "decision_pvalue",
    "decision_sentence",
    "unbounded_sentence",
    "margin_sentence",
    "no_disagreement_note",
    "no_margin_sentence",
    "posterior_left_out",
    "named_test",
    "unclustered_figures_note",
]


def decision_sentence(decision: Decision) -> str:
    """The answer of `decision` in words, to quote in a release note.

    Without a margin it says what the test shows and the interval the data still allow; with one
    it is worded by where the interval lies against the margin (see the module's note). A note
    follows when the decision's interval has another level than the one chosen for the cards.
    """
    words = Words(decision.names, decision.framing, decision.alpha, decision.card_level)
    table = decision.table
    if not decision.interval_bounded:  # too few or too unequal clusters: no interval
        return unbounded_sentence(decision, words)
    if decision.margin is None:
        sentence = no_margin_sentence(decision, table, words)
    else:
        sentence = margin_sentence(decision, table, words) + no_disagreement_note(
            decision, table, words.rate
        )
    return sentence + words.level_note(decision)


@dataclass(frozen=True, slots=True)
class Words:
    """What every sentence of a decision needs: the names, the rate's word, alpha, and the
    level the user chose for the interval shown beside the decision (`card_level`)."""

    names: tuple[str, str]
    framing: str
    alpha: float
    card_level: float | None = None

    def score_test(self, decision: Decision) -> str:
        """ "score test" or "cluster-robust score test", as the decision's test is."""
        return CLUSTER_TEST if _clustered(decision) else "score test"

    def level_note(self, decision: Decision) -> str:
        """Why the decision's interval has another level than the one chosen for the cards."""
        if (
            self.card_level is None
            or decision.margin is not None  # a margin question is Tango's, never the cards'
            or math.isclose(decision.level, self.card_level, abs_tol=1e-12)
        ):
            return ""
        one_sided = decision.margin is not None or decision.alternative != "two-sided"
        return (
            f" The interval has the decision's level, {format_confidence(decision.level)} "
            f"({level_reason(one_sided, self.alpha)}): the level that goes with the test; the "
            f"{format_confidence(self.card_level)} interval chosen for the results is shown "
            "with them."
        )

    @property
    def rate(self) -> str:
        return "pass rate" if self.framing == "pass" else "accuracy"

    @property
    def errors(self) -> bool:
        """The classifier framing: the difference is printed as the error-rate difference
        A − B, as the headline prints it, which is minus the pass-rate difference the numbers
        hold (METHODS.md: a framing switch relabels, never changes a test)."""
        return self.framing != "pass"

    def ends(self, decision: Decision) -> tuple[float, float]:
        """The interval's ends as printed: A − B in pass rate, or in error rate (ends swapped)."""
        return (-decision.high, -decision.low) if self.errors else (decision.low, decision.high)

    @property
    def worse(self) -> str:
        """Where the printed difference lies when B does worse: "above" (pass rate: A − B
        positive) or "below" (error rate: A − B negative)."""
        return "below" if self.errors else "above"

    @property
    def better(self) -> str:
        """Where the printed difference lies when B does better: the other side."""
        return "above" if self.errors else "below"

    def p(self, decision: Decision) -> str:
        text = format_p_equals(decision.pvalue, decision.log10_pvalue, alpha=self.alpha)
        return f"{text}, α = {self.alpha:g}"

    def interval(self, decision: Decision) -> str:
        """ "the 95% Agresti-Min interval for the pass-rate difference A − B, -1.0 to +2.0
        points": the decision's interval, in the headline's direction and quantity (the
        error-rate difference A − B in the classifier framing)."""
        name_a, name_b = self.names
        method = method_words(decision.interval_method)
        if method == "Tango score":
            method = "Tango"
        if _clustered(decision):
            method = "cluster-robust"
        bounds = [-decision.margin, decision.margin] if decision.margin else []
        rate = "error-rate" if self.errors else "pass-rate"
        low, high = self.ends(decision)
        return (
            f"the {format_confidence(decision.level)} {method} interval for the {rate} "
            f"difference {name_a} − {name_b}, {limit_points(low, bounds)} to "
            f"{limit_points(high, bounds)} points"
        )


def decision_pvalue(decision: Decision) -> str:
    """The decision's p as a figure beside its answer, kept on its side of alpha; "not quoted"
    where the clusters cannot bound the difference and the test does not reject
    (:func:`unbounded_sentence` says why), as the answer quotes none there."""
    if not decision.interval_bounded and not decision.reject:
        return "not quoted"
    return format_pvalue(decision.pvalue, decision.log10_pvalue, alpha=decision.alpha)


def unbounded_sentence(decision: Decision, words: Words) -> str:
    """The answer when the clusters are too few or too unequal in size to bound the difference
    (``decision.interval_bounded`` False): no interval, and no p read as evidence when the
    test does not reject, since the interval is the whole range whatever the data.

    Examples
    --------
    >>> from calculator import analyze
    >>> from calculator.clustered import Clusters
    >>> one = Clusters.from_counts([15], [5], [100])
    >>> print(decision_sentence(analyze(60, 15, 5, 20, margin=0.02, clusters=one).decision))
    ... # doctest: +NORMALIZE_WHITESPACE
    These cases cannot settle whether B is not worse than A by more than 2 points: one cluster
    cannot bound the difference (the effective number of clusters, n²/Σnᵢ², is 1, and a 90%
    interval needs more than z² = 2.71), so no cluster-robust interval can be given, and the
    cluster-robust score test does not show it; B's pass rate is 10.0 points lower than A's on
    these cases.
    """
    from calculator.clustered import interval_bound_of

    name_a, name_b = words.names
    margin = points_of(decision.margin) if decision.margin else ""
    claim = {
        "different": f"{name_a} and {name_b} differ",
        "better": f"{name_b} is better than {name_a}" + (f" by more than {margin}" * bool(margin)),
        "worse": f"{name_b} is worse than {name_a}",
        "non-inferior": f"{name_b} is not worse than {name_a} by more than {margin}",
        "equivalent": f"{name_a} and {name_b} are within {margin} of each other",
    }[decision.question]
    count = decision.clusters or 0
    who = (
        "one cluster cannot bound the difference"
        if count == 1
        else f"the {plural(count, 'cluster')} are too few or too unequal in size to bound the "
        "difference"
    )
    why = (
        f"{who} (the effective number of clusters, n²/Σnᵢ², is "
        f"{decision.effective_clusters or 0.0:.3g}, and a {format_confidence(decision.level)} "
        f"interval needs more than z² = {interval_bound_of(decision.level):.3g})"
    )
    moved = _moved(decision.estimate, words)
    if decision.reject:
        return (
            f"These cases show that {claim} ({named_test(decision)}, {words.p(decision)}), "
            f"but {why}, "
            f"so no cluster-robust interval can be given; {moved} on these cases."
        )
    return (
        f"These cases cannot settle whether {claim}: {why}, so no cluster-robust interval can "
        f"be given, and the {words.score_test(decision)} does not show it; {moved} on these "
        "cases."
    )


def _clustered(decision: Decision) -> bool:
    return decision.interval_method == "cluster-robust"


def unclustered_figures_note(clusters: int) -> str:
    """Said between the plain figures and a cluster-aware answer: which of them count clusters.

    Examples
    --------
    >>> unclustered_figures_note(40)[:60]
    'The interval and the tests so far count every case as indepe'
    """
    return (
        "The interval and the tests so far count every case as independent; the answer that "
        f"follows counts the {plural(clusters, 'cluster')}, and it is the one to read."
    )


def posterior_left_out(decision: Decision) -> str | None:
    """Why P(B better) is not shown beside a decision that counts clusters, else None.

    The posterior (:func:`calculator.probability_b_better`) treats the discordant cases as
    independent draws; cases clustered by document or task are not, so it would claim far more
    certainty than the cluster-aware decision beside it (98% where the clustered p is 0.5).
    There is no cluster-aware version of it here, so it is left out rather than shown wrong.
    """
    if not _clustered(decision):
        return None
    return (
        "Not shown with clusters: the posterior treats every case as independent, which "
        "clustered cases are not, so it would overstate the certainty; the decision counts the "
        "clusters."
    )


def _moved(estimate: float, words: Words) -> str:
    """ "B's pass rate is 2.0 points higher than A's" on these cases, from the estimate of
    A − B (no sign in the words, so none to misread); in the classifier framing "B's error rate
    is 2.0 points lower than A's", the measure the interval beside it is printed in."""
    name_a, name_b = words.names
    rate = "error rate" if words.errors else words.rate
    if estimate == 0:
        return f"{name_b}'s {rate} equals {name_a}'s"
    way = "higher" if (estimate < 0) != words.errors else "lower"
    size = limit_points(abs(estimate), [])[1:]  # without its "+"
    return f"{name_b}'s {rate} is {size} points {way} than {name_a}'s"


def no_margin_sentence(decision: Decision, table: PairedTable, words: Words) -> str:
    name_a, name_b = words.names
    if table.discordant == 0:
        return (
            f"{name_a} and {name_b} agree on every case, so no case tells them apart: the "
            f"{named_test(decision)} gives p = 1, and these cases carry no evidence either way; "
            f"{words.interval(decision)}, gives the differences the data still allow."
        )
    return _no_margin_answer(decision, words) + _test_and_interval_differ(decision, words)


def _no_margin_answer(decision: Decision, words: Words) -> str:
    name_a, name_b = words.names
    test = f"{named_test(decision)}, {words.p(decision)}"
    moved = _moved(decision.estimate, words)
    interval = words.interval(decision)
    if decision.question == "different":
        if decision.reject:
            return (
                f"These cases show that {name_a} and {name_b} differ: {moved} ({test}; {interval})."
            )
        return (
            f"No difference between {name_a} and {name_b} is shown ({test}): {moved} on these "
            f"cases, and {interval}, gives the differences the data still allow. Not "
            "significant does not mean equal: every difference in that interval remains possible."
        )
    claim = "better" if decision.question == "better" else "worse"
    if decision.reject:
        return (
            f"These cases show that {name_b} is {claim} than {name_a}: {moved} ({test}; "
            f"{interval})."
        )
    # The interval on the far side of 0: the data lean against the direction asked.
    other = decision.low > 0 if claim == "better" else decision.high < 0
    against = (
        f" The interval lies entirely {words.worse if claim == 'better' else words.better} 0: "
        "the data "
        f"point the other way, to {name_b} being {'worse' if claim == 'better' else 'better'} "
        f"than {name_a}, which the one-sided question asked does not test."
        if other
        else ""
    )
    return (
        f"{name_b} is not shown to be {claim} than {name_a} ({test}): {moved} on these cases, "
        f"and {interval}, gives the differences the data still allow.{against}"
    )


def _test_and_interval_differ(decision: Decision, words: Words) -> str:
    """A sentence when the interval and the test answer the question differently, else "".

    The interval (A − B) supports the claim when it excludes 0 on the claim's side (below 0 for
    "better", above for "worse"); an exact
    test and a large-sample interval are different procedures and can disagree near the edge.
    """
    low, high = decision.low, decision.high
    supports = {"different": low > 0 or high < 0, "better": high < 0, "worse": low > 0}
    if decision.question not in supports or supports[decision.question] == decision.reject:
        return ""
    if decision.reject:
        return (
            " The interval still reaches 0 although the test rejects: the two are different "
            "procedures and can disagree near the edge; the answer rests on the test's p."
        )
    side = words.worse if low > 0 else words.better  # low > 0: B worse
    return (
        f" The interval lies entirely {side} 0 although the test does not reject: the two are "
        "different procedures and can disagree near the edge; the answer rests on the test's p."
    )


def no_disagreement_note(decision: Decision, table: PairedTable, rate: str = "pass rate") -> str:
    """Why a margin test still answers when no case separates the systems (m = 0).

    `rate` is the framing's word ("pass rate" or "accuracy", :attr:`Words.rate`).

    Examples
    --------
    >>> from calculator import analyze
    >>> analysis = analyze(0, 0, 0, 1, margin=0.05)
    >>> print(no_disagreement_note(analysis.decision, analysis.table, "accuracy"))
    ... # doctest: +NORMALIZE_WHITESPACE
     No case separates the systems here, yet the score test still answers: a difference in
     accuracy needs cases on which the systems disagree, and agreement on the one case bounds
     how often they can disagree, so enough agreeing cases can show this on their own.
    """
    if table.discordant or decision.question not in ("non-inferior", "equivalent"):
        return ""
    rates = "accuracy" if rate == "accuracy" else f"{rate}s"
    cases = "the one case" if table.n == 1 else f"all {table.n:,} cases"
    return (
        " No case separates the systems here, yet the score test still answers: a difference "
        f"in {rates} needs cases on which the systems disagree, and agreement on {cases} "
        "bounds how often they can disagree, so enough agreeing cases can show this on their "
        "own."
    )


def level_reason(one_sided: bool, alpha: float) -> str:
    """Why an interval quoted with a test has its level: 1 − α beside a two-sided test, 1 − 2α
    beside a one-sided one (its ends are then one-sided 1 − α bounds).

    Examples
    --------
    >>> level_reason(True, 0.05)
    '1 − 2α for a one-sided test at α = 0.05'
    """
    if one_sided:
        return f"1 − 2α for a one-sided test at α = {alpha:g}"
    return f"1 − α for a two-sided test at α = {alpha:g}"
