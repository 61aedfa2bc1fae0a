"""The release question and its answer: one test, its interval for B - A, and a sentence.

A release asks one of five questions about system B against system A:

- "different": do the pass rates differ? (two-sided McNemar test)
- "better": is B's pass rate higher? (one-sided; with a margin, higher by more than the margin)
- "worse": is B's pass rate lower? (one-sided)
- "non-inferior": is B no worse than A by more than a margin? (Tango's score test)
- "equivalent": are they within +/- a margin of each other? (two one-sided score tests)

:func:`decide` answers it; every difference here is B minus A (positive: B passes more often).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from calculator._validation import check_choice, check_probability
from calculator.errors import CalculatorError
from calculator.formatting import format_confidence, format_p_equals, format_points
from calculator.intervals import CI_METHOD_NAMES, DifferenceInterval
from calculator.mcnemar import ALTERNATIVES, CONVENTIONS, mcnemar_exact
from calculator.noninferiority import check_alpha, margin_test
from calculator.table import PairedTable

__all__ = ["QUESTIONS", "Decision", "decide", "resolve_question"]

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
_WITHOUT_ALTERNATIVE = {"two-sided": "different", "greater": "better", "less": "worse"}


@dataclass(frozen=True, slots=True, kw_only=True)
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
        The test in words, e.g. "exact McNemar test (doubled tail)" or "Tango score test".
    statistic : float or None
        b for the exact McNemar test; Tango's z for pB - pA at the null boundary otherwise.
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
    sentence : str
        The answer in words, to quote in a release note.
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
    sentence: str

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types; the interval is for pB - pA."""
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
            "sentence": self.sentence,
        }


def resolve_question(
    question: str | None, alternative: str = "two-sided", margin: float | None = None
) -> tuple[str, float | None]:
    """The question asked and its checked margin, from the three ways of saying it.

    Without `question`: no margin means the test `alternative` names ("two-sided" ->
    "different", "greater" -> "better", "less" -> "worse"); a margin means "non-inferior".

    Examples
    --------
    >>> resolve_question(None, "greater")
    ('better', None)
    >>> resolve_question(None, margin=0.01)
    ('non-inferior', 0.01)
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
        return "non-inferior", margin
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

    Returns
    -------
    Decision

    Notes
    -----
    Without a margin the decision is the exact McNemar test's with the chosen convention and
    alternative, and the interval is `difference` mirrored to pB - pA. With a margin it is
    Tango's score test (:func:`calculator.noninferiority.margin_test`): "non-inferior" tests
    H0: pB - pA <= -Delta, "better" H0: pB - pA <= Delta, "equivalent" both ends (TOST), and
    the interval is Tango's at level 1 - 2 alpha, so that the test rejects exactly when the
    interval clears the margin.

    Examples
    --------
    >>> from calculator.intervals import difference_interval
    >>> table = PairedTable(60, 5, 15, 20)
    >>> d = decide(table, difference_interval(60, 5, 15, 20), margin=0.02)
    >>> d.question, d.reject
    ('non-inferior', True)
    >>> print(d.sentence)  # doctest: +NORMALIZE_WHITESPACE
    These cases show that B is not worse than A by more than 2 points: the 90% Tango interval
    for B's pass rate minus A's, +2.8 to +17.6 points, lies above -2 points (one-sided score
    test of non-inferiority, p = 0.004, α = 0.05).
    """
    question, margin = resolve_question(question, alternative, margin)
    check_choice(convention, "convention", CONVENTIONS)
    alpha = check_alpha(alpha) if margin is not None else check_probability(alpha, "alpha")
    words = _Words(names, framing, alpha)
    if margin is None:
        tested = _ALTERNATIVE[question]
        exact = mcnemar_exact(table.b, table.c, convention=convention, alternative=tested)
        sides = "two-sided" if tested == "two-sided" else "one-sided"
        # A one-sided exact p is one tail, nothing doubled; mid-p is not an exact test.
        name = {
            ("doubling", True): "two-sided exact McNemar test (doubled tail)",
            ("doubling", False): "one-sided exact McNemar test",
        }.get((convention, tested == "two-sided"), f"{sides} McNemar mid-p test")
        decision = Decision(
            question=question,
            alternative=tested,
            margin=None,
            test=name,
            statistic=exact.statistic,
            pvalue=exact.pvalue,
            log10_pvalue=exact.log10_pvalue,
            alpha=alpha,
            reject=exact.log10_pvalue <= math.log10(alpha),
            estimate=-difference.estimate,
            low=-difference.high,
            high=-difference.low,
            level=difference.level,
            interval_method=difference.method,
            sentence="",
        )
        sentence = _no_margin_sentence(decision, table, words)
    else:
        hypothesis = {
            "non-inferior": "non-inferiority",
            "better": "superiority",
            "equivalent": "equivalence",
        }[question]
        result = margin_test(
            table.a, table.b, table.c, table.d, margin=margin, hypothesis=hypothesis, alpha=alpha
        )
        decision = Decision(
            question=question,
            alternative=_ALTERNATIVE[question],
            margin=margin,
            test="Tango score test",
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
            sentence="",
        )
        sentence = _margin_sentence(decision, table, words) + _no_disagreement_note(decision, table)
    return _with_sentence(decision, sentence)


@dataclass(frozen=True, slots=True)
class _Words:
    names: tuple[str, str]
    framing: str
    alpha: float

    @property
    def rate(self) -> str:
        return "pass rate" if self.framing == "pass" else "accuracy"

    def p(self, decision: Decision) -> str:
        text = format_p_equals(decision.pvalue, decision.log10_pvalue, alpha=self.alpha)
        return f"{text}, α = {self.alpha:g}"

    def interval(self, decision: Decision) -> str:
        """ "the 95% Agresti-Min interval for B's pass rate minus A's, -1.0 to +2.0 points"."""
        name_a, name_b = self.names
        method = CI_METHOD_NAMES.get(decision.interval_method, decision.interval_method)
        if method == "Tango score":
            method = "Tango"
        bounds = [-decision.margin, decision.margin] if decision.margin else []
        return (
            f"the {format_confidence(decision.level)} {method} interval for {name_b}'s "
            f"{self.rate} minus {name_a}'s, {limit_points(decision.low, bounds)} to "
            f"{limit_points(decision.high, bounds)} points"
        )


def points_of(margin: float) -> str:
    """A margin in points for a sentence: "1 point", "2.5 points".

    Examples
    --------
    >>> points_of(0.01), points_of(0.025)
    ('1 point', '2.5 points')
    """
    value = f"{round(100.0 * margin, 10):g}"
    return f"{value} point" if value == "1" else f"{value} points"


def limit_points(value: float, bounds: list[float]) -> str:
    """An interval limit in signed points, with digits added until it reads on the same side of
    zero and of every bound (the margins) as it lies, and equal to one only when it is.

    Examples
    --------
    >>> limit_points(-0.0099996, [-0.01, 0.01])
    '-0.99996'
    >>> limit_points(0.1234, []), limit_points(2e-7, []), limit_points(0.0, [])
    ('+12.3', '+0.00002', '0.0')
    """
    if value == 0:
        return "0.0"
    bounds = [0.0, *bounds]
    first = format_points(value)  # as the report prints it: -0.0007, not -0.001
    if "e" in first:
        return first
    for decimals in range(len(first.partition(".")[2]) or 1, 16):
        text = f"{100.0 * value:+.{decimals}f}"
        shown = float(text) / 100.0
        if all(_side(shown, bound) == _side(value, bound) for bound in bounds):
            return text
    return format_points(value)  # never zero for a non-zero value, and keeps the sign


def _side(value: float, bound: float) -> int:
    return (value > bound) - (value < bound)


def _moved(estimate: float, rate: str, names: tuple[str, str]) -> str:
    """ "B's pass rate is 2.0 points higher than A's" on these cases."""
    name_a, name_b = names
    if estimate == 0:
        return f"{name_b}'s {rate} equals {name_a}'s"
    way = "higher" if estimate > 0 else "lower"
    size = limit_points(abs(estimate), [])[1:]  # without its "+"
    return f"{name_b}'s {rate} is {size} points {way} than {name_a}'s"


def _no_margin_sentence(decision: Decision, table: PairedTable, words: _Words) -> str:
    name_a, name_b = words.names
    test = f"{decision.test}, {words.p(decision)}"
    if table.discordant == 0:
        return (
            f"{name_a} and {name_b} agree on every case, so no case tells them apart: the "
            f"{decision.test} gives p = 1, and these cases carry no evidence either way; "
            f"{words.interval(decision)}, gives the differences the data still allow."
        )
    moved = _moved(decision.estimate, words.rate, words.names)
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
    return (
        f"{name_b} is not shown to be {claim} than {name_a} ({test}): {moved} on these cases, "
        f"and {interval}, gives the differences the data still allow."
    )


def _no_disagreement_note(decision: Decision, table: PairedTable) -> str:
    """Why a margin test still answers when no case separates the systems (m = 0)."""
    if table.discordant or decision.question not in ("non-inferior", "equivalent"):
        return ""
    return (
        " No case separates the systems here, yet the score test still answers: a difference "
        "in pass rates needs cases on which the systems disagree, and agreement on all "
        f"{table.n:,} cases bounds how often they can disagree, so enough agreeing cases can "
        "show this on their own."
    )


def _margin_sentence(decision: Decision, table: PairedTable, words: _Words) -> str:
    name_a, name_b = words.names
    margin = decision.margin or 0.0
    delta = points_of(margin)
    number = f"{round(100.0 * margin, 10):g}"
    unit = "point" if number == "1" else "points"
    minus, plus = f"-{number}", f"+{number}"
    interval = words.interval(decision)
    p_text = words.p(decision)
    if decision.question == "non-inferior":
        test = f"one-sided score test of non-inferiority, {p_text}"
        if decision.reject:
            return (
                f"These cases show that {name_b} is not worse than {name_a} by more than "
                f"{delta}: {interval}, lies "
                f"above {minus} {unit} ({test})."
            )
        return (
            f"{name_b} is not shown to be non-inferior to {name_a} at a margin of {delta}: "
            f"{interval}, does not lie entirely above {minus} {unit} ({test}). "
            f"This does not show that {name_b} is worse; these cases cannot rule out a drop of "
            f"{delta} or more."
        )
    if decision.question == "better":
        test = f"one-sided score test of superiority by the margin, {p_text}"
        if decision.reject:
            return (
                f"These cases show that {name_b} is better than {name_a} by more than {delta}: "
                f"{interval}, lies "
                f"above {plus} {unit} ({test})."
            )
        return (
            f"{name_b} is not shown to be better than {name_a} by more than {delta}: "
            f"{interval}, does not lie entirely above {plus} {unit} ({test})."
        )
    test = f"two one-sided score tests, larger {p_text}"
    if decision.reject:
        return (
            f"These cases show that {name_a} and {name_b} are equivalent within ±{delta}: "
            f"{interval}, lies inside "
            f"{minus} to {plus} points ({test})."
        )
    return (
        f"Equivalence of {name_a} and {name_b} within ±{delta} is not shown: {interval}, "
        f"does not lie inside {minus} to {plus} points ({test}). These cases cannot rule out a "
        f"difference of {delta} or more."
    )


def _with_sentence(decision: Decision, sentence: str) -> Decision:
    return dataclasses.replace(decision, sentence=sentence)
