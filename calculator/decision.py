"""The release question and its answer: one test and its interval for A - B.

A release asks one of five questions about system B against system A:

- "different": do the pass rates differ? (two-sided McNemar test)
- "better": is B's pass rate higher? (one-sided; with a margin, higher by more than the margin)
- "worse": is B's pass rate lower? (one-sided)
- "non-inferior": is B no worse than A by more than a margin? (Tango's score test)
- "equivalent": are they within +/- a margin of each other? (two one-sided score tests)

:func:`decide` answers it; every difference a :class:`Decision` holds is A minus B (positive: A
passes more often), the direction of the analysis' headline. The tests underneath keep their own
parametrisation (Tango's statistic and the cluster-robust test are written for pB - pA); the
decision turns their numbers round once, here.
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
from calculator.intervals import DifferenceInterval, difference_interval
from calculator.mcnemar import CONVENTIONS, mcnemar_exact
from calculator.noninferiority import check_alpha, margin_test
from calculator.questions import (
    QUESTION_ALTERNATIVE,
    QUESTIONS,
    question_claim,
    resolve_question,
)
from calculator.significance import agree_with_decisions, exact_test_rejects, rejects
from calculator.table import PairedTable

__all__ = [
    "QUESTIONS",
    "Decision",
    "decide",
    "decision_level",
    "resolve_question",
]

_HYPOTHESIS = {
    "non-inferior": "non-inferiority",
    "better": "superiority",
    "equivalent": "equivalence",
}
#: The codes of a decision's test (:attr:`Decision.method`): the exact McNemar test (one tail,
#: doubled when two-sided), its mid-p, Tango's score test, two one-sided Tango tests for
#: equivalence, and the cluster-robust score test; worded by
#: :func:`calculator.report.naming.named_test`.
METHODS = ("exact", "mid-p", "tango", "tost", "cluster")
#: The exact tests a cluster-robust p can be held at (:attr:`Decision.held_at`): the exact
#: McNemar test, its mid-p, and the exact sign-flip test of the clusters' leans.
HELD_AT = ("exact", "mid-p", "sign-flip")


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
    method : str
        The test, one of :data:`METHODS` (a code; its name in words is
        :func:`calculator.report.naming.named_test`'s).
    statistic : float or None
        z for pA - pB at the null boundary (negative when B does better than the boundary) for
        a score test; None for the exact McNemar test, whose statistic is the count b of the
        table.
    pvalue, log10_pvalue : float
        The p-value (for equivalence the larger of the two one-sided ones) and its log10.
    alpha : float
        The significance level of the decision.
    reject : bool
        True when p <= alpha: the question's claim is shown.
    estimate : float
        The observed pA - pB = (b - c)/n.
    low, high, level : float
        Interval for pA - pB; with a margin the Tango interval at level 1 - 2 alpha.
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
    held_at : str or None
        For a cluster-robust test, the exact test (one of :data:`HELD_AT`) whose larger p it
        is held at; None when not held.
    effective_clusters : float or None
        With clusters, n^2 / sum_i n_i^2 (:func:`calculator.clustered.effective_clusters`).
    interval_bounded : bool
        False when the clusters are too few or too unequal in size to bound the difference
        (effective clusters at most z^2 of the interval's level): ``low`` and ``high`` are then
        -1 and 1, the whole range, and carry no information.
    boundary_size : float or None
        For Tango's test of non-inferiority or of superiority by the margin: its exact size for
        this n at the null boundary where one system never beats the other (B never beats A
        and trails by the margin; for "better", A never beats B and B leads by it), which the
        large-sample test can push above alpha
        (:func:`calculator.planning.noninferiority.boundary_size`). None for other questions,
        with clusters, and where the cases are too many to sum it quickly.
    zero_test : Decision or None
        For a margin question whose interval lies on one side of 0: the one-sided test of no
        difference that way, as asked without a margin (exact; with clusters held at the exact
        tests). The interval's side of 0 is worded as a finding only when it rejects.

    The answer in words, to quote in a release note, is
    ``calculator.report.words.text(decision)``.
    """

    question: str
    alternative: str | None
    margin: float | None
    method: str
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
    held_at: str | None = None
    names: tuple[str, str] = ("A", "B")
    framing: str = "pass"
    card_level: float | None = None
    clusters: int | None = None
    effective_clusters: float | None = None
    interval_bounded: bool = True
    boundary_size: float | None = None
    zero_test: Decision | None = None

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types; the interval is for pA - pB. The fields that say what was asked
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
            "alternative_of": "pB - pA",  # "greater": B higher, against the interval's "of"
            "claim": self.claim,
            "margin": self.margin,
            "method": self.method,
            "held_at": self.held_at,
            "statistic": self.statistic,
            "pvalue": self.pvalue,
            "log10_pvalue": self.log10_pvalue,
            "alpha": self.alpha,
            "reject": self.reject,
            "estimate": self.estimate,
            "boundary_size": self.boundary_size,
            "interval": {
                "low": self.low,
                "high": self.high,
                "level": self.level,
                "method": self.interval_method,
                "of": "pA - pB",
            },
            **counted,
            "zero_test": None if self.zero_test is None else self.zero_test.side_dict(),
        }

    @property
    def claim(self) -> str:
        """What a rejection shows, as a code of pA and pB (:func:`question_claim`)."""
        return question_claim(self.question, self.margin)

    def side_dict(self) -> dict[str, object]:
        """The fields of a one-sided test of no difference (:attr:`zero_test`) in JSON."""
        keys = ("question", "claim", "alternative", "method", "held_at", "pvalue", "log10_pvalue")
        return {key: getattr(self, key) for key in keys} | {"reject": self.reject}


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
        The interval for pA - pB shown with a test against no difference.
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
    alternative, and the interval is `difference`'s method at that level. With a margin it is
    Tango's score test (:func:`calculator.noninferiority.margin_test`): "non-inferior" tests
    H0: pA - pB >= Delta, "better" H0: pA - pB >= -Delta, "equivalent" both ends (TOST), and
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
    for the pass-rate difference A − B, -17.6 to -2.8 points, lies below +2 points (one-sided
    score test of non-inferiority, p = 0.004, α = 0.05).
    >>> round(d.estimate, 2), round(d.low, 3), round(d.high, 3)  # A - B = (b - c)/n
    (-0.1, -0.176, -0.028)
    """
    question, margin = resolve_question(question, alternative, margin)
    check_choice(convention, "convention", CONVENTIONS)
    tested = QUESTION_ALTERNATIVE[question]
    one_sided = margin is not None or tested != "two-sided"
    alpha = check_alpha(alpha) if one_sided else check_probability(alpha, "alpha")
    if clusters is not None:
        decision = _clustered(table, clusters, question, margin, alpha, convention)
    elif margin is None:
        decision = _exact(table, difference, question, alpha, convention)
    else:
        decision = _tango(table, question, margin, alpha)
    zero_test = None
    if margin is not None and (decision.low > 0 or decision.high < 0):
        side = "worse" if decision.low > 0 else "better"  # low > 0: A - B above 0, B worse
        zero_test = (
            _exact(table, difference, side, alpha, convention)
            if clusters is None
            else _clustered(table, clusters, side, None, alpha, convention)
        )
    held = clusters is not None and question == "better" and zero_test is not None
    if held and zero_test.log10_pvalue > decision.log10_pvalue:  # B better by more: B better
        decision = dataclasses.replace(
            decision,
            pvalue=zero_test.pvalue,
            log10_pvalue=zero_test.log10_pvalue,
            reject=zero_test.reject,
            held_at=zero_test.held_at,
        )
    return dataclasses.replace(
        decision,
        zero_test=zero_test,
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
    if margin is None and QUESTION_ALTERNATIVE[question] == "two-sided":
        return 1.0 - alpha
    return 1.0 - 2.0 * alpha


def _exact(
    table: PairedTable, difference: DifferenceInterval, question: str, alpha: float, convention: str
) -> Decision:
    """The exact McNemar test (or its mid-p), with `difference`'s method at the decision's level."""
    tested = QUESTION_ALTERNATIVE[question]
    exact = mcnemar_exact(table.b, table.c, convention=convention, alternative=tested)
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
        method="mid-p" if convention == "mid-p" else "exact",
        statistic=None,
        pvalue=float(pvalue),
        log10_pvalue=float(log10_pvalue),
        alpha=alpha,
        reject=reject,
        estimate=difference.estimate,
        low=difference.low,
        high=difference.high,
        level=difference.level,
        interval_method=difference.method,
        table=table,
    )


def _tango(table: PairedTable, question: str, margin: float, alpha: float) -> Decision:
    """Tango's score test against the margin, with Tango's interval at level 1 - 2 alpha, and
    its exact size where one system never beats the other (not for equivalence)."""
    from calculator.planning.noninferiority import boundary_size

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
        alternative=QUESTION_ALTERNATIVE[question],
        margin=margin,
        method="tost" if question == "equivalent" else "tango",
        statistic=-result.statistic,  # margin_test's z is for pB - pA
        pvalue=result.pvalue,
        log10_pvalue=result.log10_pvalue,
        alpha=alpha,
        reject=result.reject,
        estimate=(table.b - table.c) / table.n,
        low=-result.high,
        high=-result.low,
        level=result.level,
        interval_method="tango",
        table=table,
        boundary_size=None
        if question == "equivalent"
        else boundary_size(table.n, margin, alpha, superiority=question == "better"),
    )


def _held(
    table: PairedTable, clusters: Clusters, alternative: str, convention: str, log10_p: float
) -> tuple[float, float, str | None]:
    """The cluster-aware p held at the exact McNemar test's (with `convention`) and at the exact
    sign-flip test's of the clusters' leans, the exact test the clustered McNemar statistic
    approximates (:func:`calculator.clustered_exact.held_at_exact`, the one rule): a few
    leaning clusters never give a smaller p than their 2^m sign patterns allow. The sign-flip
    test is left out with the mid-p convention (chosen as not exact; the mid-p McNemar test
    holds it) and when the leans sum to more than the lattice computes. Returns log10 p, p
    (the exact test's own value when held) and the code of the test it is held at (None when
    not held: :data:`HELD_AT`)."""
    from calculator.clustered_exact import cluster_sign_flip, log10_of
    from calculator.scores.lattice import MAX_SUPPORT

    exact = mcnemar_exact(table.b, table.c, convention=convention, alternative=alternative)
    pvalue, held_by = 10.0**log10_p, None
    log10_p, held = held_at_exact(log10_p, exact.log10_pvalue)
    if held:
        pvalue, held_by = exact.pvalue, "mid-p" if convention == "mid-p" else "exact"
    b_i, c_i = clusters.b_counts, clusters.c_counts
    width = sum(abs(b - c) for b, c in zip(b_i, c_i, strict=True))
    if convention == "doubling" and width <= MAX_SUPPORT:
        flips = cluster_sign_flip(b_i, c_i, alternative=alternative)
        log10_p, held = held_at_exact(log10_p, log10_of(flips.pvalue))
        if held:
            pvalue, held_by = flips.pvalue, "sign-flip"
    if not table.discordant:  # with none, p = 1 is every test's answer
        return log10_p, pvalue, None
    return log10_p, pvalue, held_by


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
    log10_p, held_at = result.log10_pvalue, None
    pvalue = 10.0**log10_p
    if margin is None:  # never claims more than an exact test of the same cases
        log10_p, pvalue, held_at = _held(
            table, clusters, QUESTION_ALTERNATIVE[question], convention, log10_p
        )
    effective = effective_clusters(clusters)
    return Decision(
        effective_clusters=effective,
        interval_bounded=effective > interval_bound_of(level),
        question=question,
        alternative=QUESTION_ALTERNATIVE[question],
        margin=margin,
        method="cluster",
        held_at=held_at,
        statistic=-result.statistic,  # the cluster-aware test's z is for pB - pA
        pvalue=pvalue,
        log10_pvalue=log10_p,
        alpha=alpha,
        reject=rejects(log10_p, alpha),
        estimate=(table.b - table.c) / table.n,
        low=-result.high,
        high=-result.low,
        level=level,
        interval_method="cluster-robust",
        table=table,
    )
