"""The answer to a question asked against a margin, worded by where the interval for A − B lies.

The interval is the decision's, for the difference A − B (positive: A passes more often), the
direction of the analysis' headline, at level 1 − 2α. With a margin Δ:

- B non-inferior (no worse than A by more than Δ) is shown when it lies below +Δ;
- B better than A by more than Δ is shown when it lies below -Δ;
- equivalence is shown when it lies inside -Δ to +Δ.

In the classifier framing the headline prints the error-rate difference A − B, minus the
pass-rate one, so the interval is printed so too and every side turns round (non-inferiority:
above -Δ); :class:`~calculator.report.decision.Words` says which side is which.

"Not shown" covers data that settle nothing as well as data that point past a margin or to one
side of 0, so a failed question is worded by where the interval lies. What one end of a
1 − 2α interval says is a one-sided result at α, and is said as one: a two-sided test of no
difference at the same α asks for the 1 − α interval to clear 0, and need not reject where the
one-sided bound clears it (``table 60 12 4 24 --margin 0.05``: the 90% interval for A − B starts
at +1.5 points while the exact two-sided McNemar test gives p = 0.077).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from calculator.report.formatting import (
    format_confidence,
    format_size,
    margin_number,
    plural,
    points_of,
)
from calculator.report.naming import held_words, named_test

if TYPE_CHECKING:
    from calculator.decision import Decision
    from calculator.report.decision import Words
    from calculator.table import PairedTable

__all__ = ["boundary_size_sentence", "margin_sentence"]


def margin_sentence(decision: Decision, table: PairedTable, words: Words) -> str:
    """The answer to a question asked against a margin, worded by where the interval lies,
    followed by the test's exact size where it exceeds α (:func:`boundary_size_sentence`)."""
    del table  # the interval and the margin say everything
    if decision.question == "non-inferior":
        sentence = _noninferiority_sentence(decision, words)
    elif decision.question == "better":
        sentence = _superiority_sentence(decision, words)
    else:
        sentence = _equivalence_sentence(decision, words)
    return sentence + boundary_size_sentence(decision, words.names)


@dataclass(frozen=True, slots=True)
class _Margin:
    """The margin in the forms a sentence needs: "2 points", "-2", "+2", "point(s)"."""

    delta: str
    minus: str
    plus: str
    unit: str
    worse: str
    better: str

    @classmethod
    def of(cls, margin: float, words: Words) -> _Margin:
        """`worse` is the bound on the side where B does worse (+Δ, or -Δ in error rate),
        `better` the other."""
        number = margin_number(margin)
        unit = "point" if number == "1" else "points"
        minus, plus = f"-{number}", f"+{number}"
        worse, better = (minus, plus) if words.errors else (plus, minus)
        return cls(points_of(margin), minus, plus, unit, worse, better)


def _rate(words: Words) -> str:
    """The measure a finding names: the one its interval is printed in."""
    return "error rate" if words.errors else words.rate


def _way(b_lower: bool, words: Words) -> str:
    """ "lower" or "higher" for B's rate in that measure, given whether B's pass rate is lower."""
    return "lower" if b_lower != words.errors else "higher"


def _inner_end(words: Words, b_worse: bool) -> str:
    """The name of the interval's end nearer 0 when it lies on B's worse (or better) side."""
    return "lower" if (words.worse == "above") == b_worse else "upper"


def _one_sided(decision: Decision, words: Words, finding: str) -> str:
    """A finding read from one end of the 1 − 2α interval against 0, said as what it is, after
    a colon; or, where the one-sided test of no difference does not show that side,
    :func:`_zero_doubt` instead."""
    return _zero_doubt(decision, words) or (
        f": at one-sided α = {words.alpha:g}, {finding} (a one-sided reading of the "
        f"{format_confidence(decision.level)} interval; the two-sided test of no difference at "
        "α need not agree)"
    )


def _zero_doubt(decision: Decision, words: Words) -> str:
    """ ", but the one-sided test of no difference (…) does not show B worse than A: …" where
    the interval lies on one side of 0 and the test of that side, as the question is answered
    without a margin (:attr:`~calculator.decision.Decision.zero_test`: the exact McNemar test,
    or the cluster-robust test held at the exact tests), does not reject; else "". A
    cluster-robust interval is never read as showing more than the exact test it approximates
    (``cases fourA.json fourB.json --margin 0.05``: 4 questions leaning, all one way, exact
    one-sided p = 1/16)."""
    zero = decision.zero_test
    if zero is None or zero.reject:
        return ""
    name_a, name_b = words.names
    way = "worse" if zero.question == "worse" else "better"
    return (
        f", but the one-sided test of no difference ({named_test(zero)}, {words.p(zero)}) does "
        f"not show {name_b} {way} than {name_a}: the interval is not read past that test"
    )


def _noninferiority_sentence(decision: Decision, words: Words) -> str:
    name_a, name_b = words.names
    m = _Margin.of(decision.margin or 0.0, words)
    interval = words.interval(decision)
    test = f"one-sided {words.score_test(decision)} of non-inferiority, {words.p(decision)}"
    margin = decision.margin or 0.0
    if decision.reject:
        # Non-inferior and still worse: the interval can lie below +Delta and above 0.
        finding = f"{name_b} is also worse than {name_a}, by less than {m.delta}"
        worse = (
            f" Its {_inner_end(words, True)} end lies {words.worse} 0 as well"
            f"{_one_sided(decision, words, finding)}."
            if decision.low > 0
            else ""
        )
        return (
            f"These cases show that {name_b} is not worse than {name_a} by more than "
            f"{m.delta}: {interval}, lies {words.better} {m.worse} {m.unit} ({test}).{worse}"
        )
    head = f"{name_b} is not shown to be non-inferior to {name_a} at a margin of {m.delta}"
    if decision.low > margin:
        beyond = _zero_doubt(decision, words) or (
            f", so at one-sided α = {words.alpha:g} {name_b} is worse than {name_a} by more "
            f"than {m.delta}"
        )
        return (
            f"{head} ({test}): {interval}, lies entirely {words.worse} {m.worse} {m.unit}{beyond}."
        )
    if decision.low > 0:
        finding = f"{name_b} is worse than {name_a}, by an amount these cases do not settle"
        return (
            f"{head}: {interval}, reaches {words.worse} {m.worse} {m.unit}, so {name_b} being "
            f"worse than {name_a} by {m.delta} or more is not ruled out ({test}). Its "
            f"{_inner_end(words, True)} end lies {words.worse} 0"
            f"{_one_sided(decision, words, finding)}."
        )
    return (
        f"{head}: {interval}, does not lie entirely {words.better} {m.worse} {m.unit} ({test}). "
        f"The interval also reaches {words.better} 0, so no difference is shown either way. "
        "This does "
        f"not show that {name_b} is worse; these cases cannot rule out {name_b} being worse than "
        f"{name_a} by {m.delta} or more."
    )


def _superiority_sentence(decision: Decision, words: Words) -> str:
    name_a, name_b = words.names
    m = _Margin.of(decision.margin or 0.0, words)
    interval = words.interval(decision)
    test = (
        f"one-sided {words.score_test(decision)} of superiority by the margin"
        f"{held_words(decision)}, {words.p(decision)}"
    )
    margin = decision.margin or 0.0
    if decision.reject:
        return (
            f"These cases show that {name_b} is better than {name_a} by more than {m.delta}: "
            f"{interval}, lies {words.better} {m.better} {m.unit} ({test})."
        )
    head = f"{name_b} is not shown to be better than {name_a} by more than {m.delta}"
    if decision.high < -margin:  # past the margin, but the held test does not show B better
        return (
            f"{head} ({test}): {interval}, lies {words.better} {m.better} {m.unit}"
            f"{_zero_doubt(decision, words)}."
        )
    if decision.high < 0:
        finding = (
            f"{name_b} is better than {name_a}, though not shown better by more than {m.delta}"
        )
        return (
            f"{head}: {interval}, lies {words.better} 0 but reaches {words.worse} {m.better} "
            f"{m.unit} ({test}). Its {_inner_end(words, False)} end lies {words.better} 0"
            f"{_one_sided(decision, words, finding)}."
        )
    if decision.low > -margin:
        worse = (
            f" It lies entirely {words.worse} 0 as well"
            + (
                _zero_doubt(decision, words)
                or (
                    ": at the same one-sided level the data point the other way, to "
                    f"{name_b} being worse than {name_a}"
                )
            )
            + "."
            if decision.low > 0
            else ""
        )
        return (
            f"{head}: {interval}, lies entirely {words.worse} {m.better} {m.unit}, so at one-sided "
            f"α = {words.alpha:g} these cases rule out a gain of {m.delta} or more "
            f"({test}).{worse}"
        )
    return f"{head}: {interval}, does not lie entirely {words.better} {m.better} {m.unit} ({test})."


def _equivalence_sentence(decision: Decision, words: Words) -> str:
    name_a, name_b = words.names
    m = _Margin.of(decision.margin or 0.0, words)
    interval = words.interval(decision)
    test = f"two one-sided {words.score_test(decision)}s, larger {words.p(decision)}"
    margin = decision.margin or 0.0
    if decision.reject:
        return (
            f"These cases show that {name_a} and {name_b} are equivalent within ±{m.delta}: "
            f"{interval}, lies inside {m.minus} to {m.plus} points ({test})."
        )
    head = f"Equivalence of {name_a} and {name_b} within ±{m.delta} is not shown"
    if decision.low > margin or decision.high < -margin:
        lower = decision.low > margin  # A ahead by more than the margin: B lower
        side = f"{words.worse} {m.worse}" if lower else f"{words.better} {m.better}"
        beyond = _zero_doubt(decision, words) or (
            f", so at one-sided α = {words.alpha:g} {name_b}'s {_rate(words)} is "
            f"{_way(lower, words)} than {name_a}'s by more than {m.delta}"
        )
        return f"{head} ({test}): {interval}, lies entirely {side} {m.unit}{beyond}."
    if decision.low > 0 or decision.high < 0:
        finding = (
            f"{name_b}'s {_rate(words)} is {_way(decision.low > 0, words)} than {name_a}'s, by "
            "an amount these cases do not settle"
        )
        return (
            f"{head}: {interval}, reaches beyond the margin, so a difference of {m.delta} or "
            f"more is not ruled out ({test}). It excludes 0"
            f"{_one_sided(decision, words, finding)}."
        )
    return (
        f"{head}: {interval}, does not lie inside {m.minus} to {m.plus} points ({test}). No "
        f"difference is shown either way, and these cases cannot rule out a difference of "
        f"{m.delta} or more."
    )


def boundary_size_sentence(decision: Decision, names: tuple[str, str]) -> str:
    """How often Tango's large-sample test claims the margin question where its null holds, at
    the boundary point where one system never beats the other, when that exceeds α; else "".

    The figure is :attr:`calculator.decision.Decision.boundary_size`, computed exactly for the
    cases counted here; it is left out (None) for equivalence, with clusters, and where the
    cases are too many to sum it cheaply.

    Examples
    --------
    >>> from calculator import analyze
    >>> print(boundary_size_sentence(analyze(270, 6, 0, 24, margin=0.02).decision, ("A", "B")))
    ... # doctest: +NORMALIZE_WHITESPACE
     Tango's score test is a large-sample test and can reject more often than α: where B never
     beats A and trails it by exactly 2 points, it would show non-inferiority in 6.0% of samples
     of 300 cases, against the nominal α = 0.05.
    """
    size = decision.boundary_size
    if size is None or size <= decision.alpha or decision.margin is None:
        return ""
    name_a, name_b = names
    delta = points_of(decision.margin)
    where, claim = {
        "non-inferior": (
            f"{name_b} never beats {name_a} and trails it by exactly {delta}",
            "show non-inferiority",
        ),
        "better": (
            f"{name_a} never beats {name_b} and {name_b} leads by exactly {delta}",
            f"show {name_b} better by more than {delta}",
        ),
    }[decision.question]
    return (
        " Tango's score test is a large-sample test and can reject more often than α: where "
        f"{where}, it would {claim} in {format_size(size, decision.alpha)} of samples of "
        f"{plural(decision.table.n, 'case')}, against the nominal α = {decision.alpha:g}."
    )
