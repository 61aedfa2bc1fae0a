"""The release question and its answer: one test and its interval for B - A.

A release asks one of five questions about system B against system A:

- "different": do the pass rates differ? (two-sided McNemar test)
- "better": is B's pass rate higher? (one-sided; with a margin, higher by more than the margin)
- "worse": is B's pass rate lower? (one-sided)
- "non-inferior": is B no worse than A by more than a margin? (Tango's score test)
- "equivalent": are they within +/- a margin of each other? (two one-sided score tests)

:func:`decide` answers it; every difference here is B minus A (positive: B passes more often).
The answer in words is :func:`calculator.report.decision.decision_sentence`'s, reached through
:func:`calculator.report.words.text`.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from calculator._validation import check_choice, check_probability
from calculator.clustered import (
    Clusters,
    cluster_aware_test,
    effective_clusters,
    interval_bound_of,
)
from calculator.clustered_exact import held_at_exact
from calculator.errors import CalculatorError
from calculator.intervals import DifferenceInterval, difference_interval
from calculator.mcnemar import ALTERNATIVES, CONVENTIONS, mcnemar_exact
from calculator.noninferiority import check_alpha, margin_test
from calculator.significance import agree_with_decisions, exact_test_rejects, rejects
from calculator.table import PairedTable

__all__ = [
    "QUESTIONS",
    "Decision",
    "decide",
    "decision_level",
    "resolve_question",
]

#: The questions a decision answers, in the order a page offers them.
QUESTIONS = ("different", "better", "worse", "non-inferior", "equivalent")

# The alternative each question tests ("greater": B's pass rate higher than A's); equivalence is
# an interval hypothesis, tested by two one-sided tests, and has none.
_ALTERNATIVE = {
    "different": "two-sided",
    "better": "greater",
    "worse": "less",
    "non-inferior": "greater",
    "equivalent": None,
}
_WITH_MARGIN = ("better", "non-inferior", "equivalent")
_HYPOTHESIS = {
    "non-inferior": "non-inferiority",
    "better": "superiority",
    "equivalent": "equivalence",
}
#: The test of a decision on clustered cases, in words.
CLUSTER_TEST = "cluster-robust score test"
_WITHOUT_ALTERNATIVE = {"two-sided": "different", "greater": "better", "less": "worse"}


# Not slotted: with slots, setting a property of a frozen dataclass raises TypeError instead of
# FrozenInstanceError (CPython 3.11's generated __setattr__ names the class before slotting).
@dataclass(frozen=True, kw_only=True)
class Decision:
    """The answer to one release question. Build it with :func:`decide`.

    Attributes
    ----------
    question : str
        One of :data:`QUESTIONS`.
    alternative : str or None
        "two-sided", "greater" (B's pass rate higher) or "less"; None for equivalence.
    margin : float or None
        Delta in pass rate (0.01 = one point), or None for a test against no difference.
    test : str
        The test in words, e.g. "two-sided exact McNemar test, doubled tail" or "Tango score test".
    statistic : float or None
        z for pB - pA at the null boundary (positive when B does better than it) for a score
        test; None for the exact McNemar test, whose statistic is the count b of the table.
    pvalue, log10_pvalue : float
        The p-value (for equivalence the larger of the two one-sided ones) and its log10.
    alpha : float
        The significance level of the decision.
    reject : bool
        True when p <= alpha: the question's claim is shown.
    estimate : float
        The observed pB - pA.
    low, high, level : float
        Interval for pB - pA; with a margin the Tango interval at level 1 - 2 alpha.
    interval_method : str
        Key of the interval method (see :data:`calculator.CI_METHODS`).
    table : PairedTable
        The table the question was asked of.
    names : (str, str)
        The names of A and B, for the words.
    framing : str
        "pass" or "correct": "pass rate" or "accuracy" in the words; never changes a number.
    card_level : float or None
        The level the user chose for the interval shown beside the decision; the words say
        why the decision's interval has another one.
    clusters : int or None
        The number of clusters the decision counted, None when it counted cases.
    effective_clusters : float or None
        With clusters, n^2 / sum_i n_i^2 (:func:`calculator.clustered.effective_clusters`).
    interval_bounded : bool
        False when the clusters are too few or too unequal in size to bound the difference
        (effective clusters at most z^2 of the interval's level): ``low`` and ``high`` are then
        -1 and 1, the whole range, and carry no information.

    The answer in words, to quote in a release note, is
    ``calculator.report.words.text(decision)``.
    """

    question: str
    alternative: str | None
    margin: float | None
    test: str
    statistic: float | None
    pvalue: float
    log10_pvalue: float
    alpha: float
    reject: bool
    estimate: float
    low: float
    high: float
    level: float
    interval_method: str
    table: PairedTable
    names: tuple[str, str] = ("A", "B")
    framing: str = "pass"
    card_level: float | None = None
    clusters: int | None = None
    effective_clusters: float | None = None
    interval_bounded: bool = True

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types; the interval is for pB - pA. The fields that say what was asked
        (table, names, framing, levels, clusters) are the analysis' keys, not repeated here;
        with clusters, "effective_clusters" and "interval_bounded" say whether the interval
        bounds anything;
        the answer in words is added by :func:`calculator.report.words.payload`."""
        counted = (
            {}
            if self.effective_clusters is None
            else {
                "effective_clusters": self.effective_clusters,
                "interval_bounded": self.interval_bounded,
            }
        )
        return {
            "question": self.question,
            "alternative": self.alternative,
            "margin": self.margin,
            "test": self.test,
            "statistic": self.statistic,
            "pvalue": self.pvalue,
            "log10_pvalue": self.log10_pvalue,
            "alpha": self.alpha,
            "reject": self.reject,
            "estimate": self.estimate,
            "interval": {
                "low": self.low,
                "high": self.high,
                "level": self.level,
                "method": self.interval_method,
                "of": "pB - pA",
            },
            **counted,
        }


def resolve_question(
    question: str | None, alternative: str = "two-sided", margin: float | None = None
) -> tuple[str, float | None]:
    """The question asked and its checked margin, from the three ways of saying it.

    Without `question`: no margin means the test `alternative` names ("two-sided" ->
    "different", "greater" -> "better", "less" -> "worse"); a margin means "non-inferior",
    or with "greater" "better" (by more than the margin); "less" takes no margin.

    Examples
    --------
    >>> resolve_question(None, "greater")
    ('better', None)
    >>> resolve_question(None, margin=0.01)
    ('non-inferior', 0.01)
    >>> resolve_question(None, "greater", margin=0.01)
    ('better', 0.01)
    >>> resolve_question("equivalent")
    Traceback (most recent call last):
    ...
    calculator.errors.CalculatorError: The question "equivalent" needs a margin: give `margin`, a \
number strictly between 0 and 1 (0.01 is one percentage point).
    """
    check_choice(alternative, "alternative", ALTERNATIVES)
    if margin is not None:
        margin = check_probability(margin, "margin")
    if question is None:
        if margin is None:
            return _WITHOUT_ALTERNATIVE[alternative], None
        if alternative == "less":
            raise CalculatorError(
                "A margin tests whether B is no worse than A by more than the margin; it does "
                'not go with `alternative` "less".'
            )
        # "greater" with a margin asks whether B is better by more than it, never silently
        # whether B is non-inferior.
        return ("better" if alternative == "greater" else "non-inferior"), margin
    check_choice(question, "question", QUESTIONS)
    implied = _ALTERNATIVE[question]
    if alternative != "two-sided" and alternative != implied:
        raise CalculatorError(
            f'`alternative` "{alternative}" contradicts the question "{question}"; leave '
            "`alternative` at its default."
        )
    if margin is None and question in ("non-inferior", "equivalent"):
        raise CalculatorError(
            f'The question "{question}" needs a margin: give `margin`, a number strictly '
            "between 0 and 1 (0.01 is one percentage point)."
        )
    if margin is not None and question not in _WITH_MARGIN:
        raise CalculatorError(
            f'The question "{question}" takes no margin; a margin goes with "better", '
            '"non-inferior" or "equivalent".'
        )
    return question, margin


def decide(
    table: PairedTable,
    difference: DifferenceInterval,
    *,
    question: str | None = None,
    alternative: str = "two-sided",
    margin: float | None = None,
    alpha: float = 0.05,
    convention: str = "doubling",
    names: tuple[str, str] = ("A", "B"),
    framing: str = "pass",
    clusters: Clusters | None = None,
) -> Decision:
    """Answer the release question for a table.

    Parameters
    ----------
    table : PairedTable
        The paired table; n >= 1.
    difference : DifferenceInterval
        The interval for pA - pB shown with a test against no difference (mirrored to B - A).
    question, alternative, margin
        The question (see :func:`resolve_question`).
    alpha : float
        Significance level; below 1/2 with a margin (the interval has level 1 - 2 alpha).
    convention : {"doubling", "mid-p"}
        Convention of the exact McNemar test used without a margin.
    names : (str, str)
        Names of A and B for the sentence.
    framing : {"pass", "correct"}
        "pass rate" or "accuracy" in the sentence; never changes a number.
    clusters : Clusters, optional
        The cases by cluster (document, user, ...): every question is then answered by the
        cluster-aware test (:func:`calculator.clustered.cluster_aware_test`).

    Returns
    -------
    Decision

    Notes
    -----
    The interval quoted has the decision's own level (:func:`decision_level`): 1 - alpha for
    a two-sided question, 1 - 2 alpha for a one-sided or margin question.

    Without a margin the decision is the exact McNemar test's with the chosen convention and
    alternative, and the interval is `difference`'s method at that level, mirrored to
    pB - pA. With a margin it is
    Tango's score test (:func:`calculator.noninferiority.margin_test`): "non-inferior" tests
    H0: pB - pA <= -Delta, "better" H0: pB - pA <= Delta, "equivalent" both ends (TOST), and
    the interval is Tango's at level 1 - 2 alpha, so that the test rejects exactly when the
    interval clears the margin. With `clusters`, every question (two-sided, one-sided, margin)
    uses the cluster-aware score test and the matching cluster-robust interval, whose
    p-value is continuous.

    Examples
    --------
    >>> from calculator.intervals import difference_interval
    >>> table = PairedTable(60, 5, 15, 20)
    >>> d = decide(table, difference_interval(60, 5, 15, 20), margin=0.02)
    >>> d.question, d.reject
    ('non-inferior', True)
    >>> from calculator.report.words import text
    >>> print(text(d))  # doctest: +NORMALIZE_WHITESPACE
    These cases show that B is not worse than A by more than 2 points: the 90% Tango interval
    for B's pass rate minus A's, +2.8 to +17.6 points, lies above -2 points (one-sided score
    test of non-inferiority, p = 0.004, α = 0.05).
    """
    question, margin = resolve_question(question, alternative, margin)
    check_choice(convention, "convention", CONVENTIONS)
    tested = _ALTERNATIVE[question]
    one_sided = margin is not None or tested != "two-sided"
    alpha = check_alpha(alpha) if one_sided else check_probability(alpha, "alpha")
    if clusters is not None:
        decision = _clustered(table, clusters, question, margin, alpha, convention)
    elif margin is None:
        decision = _exact(table, difference, question, alpha, convention)
    else:
        decision = _tango(table, question, margin, alpha)
    return dataclasses.replace(
        decision,
        names=names,
        framing=framing,
        card_level=difference.level,
        clusters=None if clusters is None else len(clusters.b_counts),
    )


def decision_level(question: str, margin: float | None, alpha: float) -> float:
    """The level of the interval quoted with a decision: 1 - alpha for a two-sided question,
    1 - 2 alpha for a one-sided or margin question (the interval then clears the null exactly
    when the test rejects).

    Examples
    --------
    >>> decision_level("different", None, 0.05), decision_level("better", None, 0.05)
    (0.95, 0.9)
    """
    if margin is None and _ALTERNATIVE[question] == "two-sided":
        return 1.0 - alpha
    return 1.0 - 2.0 * alpha


def _exact(
    table: PairedTable, difference: DifferenceInterval, question: str, alpha: float, convention: str
) -> Decision:
    """The exact McNemar test (or its mid-p), with `difference`'s method at the decision's level."""
    tested = _ALTERNATIVE[question]
    exact = mcnemar_exact(table.b, table.c, convention=convention, alternative=tested)
    sides = "two-sided" if tested == "two-sided" else "one-sided"
    # A one-sided exact p is one tail, nothing doubled; mid-p is not an exact test.
    name = {
        ("doubling", True): "two-sided exact McNemar test, doubled tail",
        ("doubling", False): "one-sided exact McNemar test",
    }.get((convention, tested == "two-sided"), f"{sides} McNemar mid-p test")
    level = decision_level(question, None, alpha)
    if not math.isclose(level, difference.level, rel_tol=0, abs_tol=1e-12):
        difference = difference_interval(
            table.a, table.b, table.c, table.d, level=level, method=difference.method
        )
    reject = exact_test_rejects(
        table.b,
        table.c,
        alpha,
        convention=convention,
        alternative=tested,
        log10_pvalue=exact.log10_pvalue,
    )
    # A p tied with alpha in exact arithmetic (1/32 computed as 0.031250000000000014) is
    # reported on the side the decision is on, as compare reports its adjusted p-values.
    (pvalue,), (log10_pvalue,) = agree_with_decisions(
        [exact.pvalue], [exact.log10_pvalue], [reject], alpha
    )
    return Decision(
        question=question,
        alternative=tested,
        margin=None,
        test=name,
        statistic=None,
        pvalue=float(pvalue),
        log10_pvalue=float(log10_pvalue),
        alpha=alpha,
        reject=reject,
        estimate=-difference.estimate,
        low=-difference.high,
        high=-difference.low,
        level=difference.level,
        interval_method=difference.method,
        table=table,
    )


def _tango(table: PairedTable, question: str, margin: float, alpha: float) -> Decision:
    """Tango's score test against the margin, with Tango's interval at level 1 - 2 alpha."""
    result = margin_test(
        table.a,
        table.b,
        table.c,
        table.d,
        margin=margin,
        hypothesis=_HYPOTHESIS[question],
        alpha=alpha,
    )
    return Decision(
        question=question,
        alternative=_ALTERNATIVE[question],
        margin=margin,
        test="two one-sided Tango score tests" if question == "equivalent" else "Tango score test",
        statistic=result.statistic,
        pvalue=result.pvalue,
        log10_pvalue=result.log10_pvalue,
        alpha=alpha,
        reject=result.reject,
        estimate=result.estimate,
        low=result.low,
        high=result.high,
        level=result.level,
        interval_method="tango",
        table=table,
    )


def _held(
    table: PairedTable, clusters: Clusters, alternative: str, convention: str, log10_p: float
) -> tuple[float, float, str]:
    """The cluster-aware p held at the exact McNemar test's (with `convention`) and at the exact
    sign-flip test's of the clusters' leans, the exact test the clustered McNemar statistic
    approximates (:func:`calculator.clustered_exact.held_at_exact`, the one rule): a few
    leaning clusters never give a smaller p than their 2^m sign patterns allow. The sign-flip
    test is left out with the mid-p convention (chosen as not exact; the mid-p McNemar test
    holds it) and when the leans sum to more than the lattice computes. Returns log10 p, p
    (the exact test's own value when held) and the test's name."""
    from calculator.clustered_exact import cluster_sign_flip, log10_of
    from calculator.scores.lattice import MAX_SUPPORT

    exact = mcnemar_exact(table.b, table.c, convention=convention, alternative=alternative)
    pvalue, held_by = 10.0**log10_p, None
    log10_p, held = held_at_exact(log10_p, exact.log10_pvalue)
    if held:
        pvalue, held_by = exact.pvalue, "mid-p test's" if convention == "mid-p" else "exact test's"
    b_i, c_i = clusters.b_counts, clusters.c_counts
    width = sum(abs(b - c) for b, c in zip(b_i, c_i, strict=True))
    if convention == "doubling" and width <= MAX_SUPPORT:
        flips = cluster_sign_flip(b_i, c_i, alternative=alternative)
        log10_p, held = held_at_exact(log10_p, log10_of(flips.pvalue))
        if held:
            pvalue, held_by = flips.pvalue, "exact sign-flip test's"
    if held_by is None or not table.discordant:  # with none, p = 1 is every test's answer
        return log10_p, pvalue, CLUSTER_TEST
    return log10_p, pvalue, f"{CLUSTER_TEST}, held at the {held_by} p"


def _clustered(
    table: PairedTable,
    clusters: Clusters,
    question: str,
    margin: float | None,
    alpha: float,
    convention: str,
) -> Decision:
    """Every question asked of clustered cases: :func:`calculator.clustered.cluster_aware_test`
    at each null boundary (two, for equivalence: the larger p decides). Without a margin the
    p-value is at least the exact McNemar test's (with `convention`) and the exact sign-flip
    test's of the clusters' leans (:func:`_held`), so counting clusters never makes a decision
    claim more than an exact test of the same cases (and with no discordant pair p = 1)."""
    level = decision_level(question, margin, alpha)
    delta = margin or 0.0
    boundaries = {
        "different": [(0.0, "two-sided")],
        "better": [(delta, "greater")],
        "worse": [(0.0, "less")],
        "non-inferior": [(-delta, "greater")],
        "equivalent": [(-delta, "greater"), (delta, "less")],
    }[question]
    results = [
        cluster_aware_test(table, clusters, null=null, alternative=side, level=level)
        for null, side in boundaries
    ]
    result = max(results, key=lambda r: r.log10_pvalue)
    log10_p, test = result.log10_pvalue, CLUSTER_TEST
    pvalue = 10.0**log10_p
    if margin is None:  # never claims more than an exact test of the same cases
        log10_p, pvalue, test = _held(table, clusters, _ALTERNATIVE[question], convention, log10_p)
    effective = effective_clusters(clusters)
    return Decision(
        effective_clusters=effective,
        interval_bounded=effective > interval_bound_of(level),
        question=question,
        alternative=_ALTERNATIVE[question],
        margin=margin,
        test=test,
        statistic=result.statistic,
        pvalue=pvalue,
        log10_pvalue=log10_p,
        alpha=alpha,
        reject=rejects(log10_p, alpha),
        estimate=(table.c - table.b) / table.n,
        low=result.low,
        high=result.high,
        level=level,
        interval_method="cluster-robust",
        table=table,
    )
