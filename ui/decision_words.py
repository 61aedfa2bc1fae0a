"""Words of the "Decision" section (pure): the questions, the margin, P(B better), explanations.

The answer sentence itself comes from the core (:func:`calculator.report.words.text`), so the
page, the report and the command line say the same thing.
"""

from __future__ import annotations

from calculator import BetterProbability, Decision
from calculator.release import GATE_MARGIN_LIMIT, gate_margin_too_wide
from calculator.report.decision import CLUSTER_TEST, decision_pvalue
from calculator.report.formatting import (
    format_probability,
    points_of,
)
from calculator.report.gate import too_wide_for_a_gate
from ui.params import DECISION_DEFAULTS, MARGIN_RANGE, PAGE_QUESTIONS
from ui.words import Wording

__all__ = [
    "DECISION_DEFAULTS",
    "DECISION_EXPLANATION",
    "DECISION_INTRO",
    "alpha_source",
    "MARGIN_HELP",
    "QUESTION_HELP",
    "MARGIN_RANGE",
    "gate_sentence",
    "PAGE_QUESTIONS",
    "TWO_QUESTIONS",
    "margin_label",
    "pvalue_label",
    "probability_label",
    "probability_text",
    "pvalue_text",
    "question_label",
    "takes_margin",
    "asked",
    "two_questions",
]

DECISION_INTRO = (
    "Ask the question the release asks. A two-sided test asks whether the systems differ; a "
    "release usually asks whether the new system is better, or at least no worse than the old "
    "by more than a small margin."
)
QUESTION_HELP = (
    "Choose the question before looking at the results, as you fix the margin. Switching to "
    "“better” after seeing which way the data lean halves the p-value: a two-sided p = 0.077 "
    "becomes a one-sided 0.038, and the answer then claims more than the data show."
)
MARGIN_HELP = (
    "The largest drop in pass rate, in percentage points, that you would still ship. Fix it "
    "before you look at the results. The margin questions use Tango's score test, a "
    "large-sample test: where B never beats A it can reject more often than α (6% at α = 5% "
    "with 300 cases and a 2-point margin; the Plan page gives the exact figure for a planned "
    "size)."
)
TWO_QUESTIONS = (
    "They answer different questions. The p-value is how often data at least this far from "
    "the null hypothesis would turn up if it were true. P({b} better) is how probable it is, "
    "given these cases and a Jeffreys prior Beta(1/2, 1/2) on the share of disagreements that "
    "{a} wins, that {b}'s {rate} is the higher one; it is not a test and needs no margin. It "
    "says which system is ahead, not by how much: with enough cases it comes near 100% for a "
    "difference far too small to matter, so read the interval for the size."
)
DECISION_EXPLANATION = """\
**Not significant is not "no worse".** A two-sided test at zero that finds no significant difference
says only that these cases cannot tell the systems apart. With few disagreements that is the usual
outcome even when the new system is clearly worse: the interval for the difference is then wide and
reaches well past zero. To claim that the new system is no worse, test that claim: non-inferiority
at a margin rejects "worse by the margin or more" and succeeds only when the whole interval for
the difference A − B (old minus new, as the results show it) lies below the margin. Too few
cases then fail the check instead of passing it.

**Choosing a margin before looking.** The margin is a product decision: the largest drop in
pass rate you would accept in exchange for what the new system brings (cost, speed, a simpler
stack). Write it down before running the comparison, for example from the run-to-run spread of
the old system or from the smallest change users notice. A margin picked after seeing the
interval can always be made to pass, and then the check means nothing. The same margin sets how
many cases you need (the Plan page).

**Equivalence** asks for both sides at once: the interval must lie inside minus to plus the
margin. **Better** with no margin is the one-sided exact McNemar test.
"""


def takes_margin(question: str) -> bool:
    """True for the page's questions asked against a margin."""
    return question in ("superior", "non-inferior", "equivalent")


def asked(question: str, margin: float, per: float = 100.0) -> tuple[str, float | None]:
    """The page's question (a key of :data:`PAGE_QUESTIONS`) as the library asks it: the
    question's name and its margin, `margin` / `per` (percentage points of pass rate to a
    share by default; `per` 1 keeps the scores' own units), or None where the question takes
    no margin.

    Examples
    --------
    >>> asked("superior", 2.0), asked("better", 2.0)
    (('better', 0.02), ('better', None))
    """
    margin = margin / per if takes_margin(question) else None
    return ("better" if question == "superior" else question), margin


def question_label(wording: Wording, question: str, margin_points: float) -> str:
    """The question in plain words, with the page's names and the margin.

    Examples
    --------
    >>> question_label(Wording("old", "new"), "non-inferior", 1.0)
    'Is new not worse than old by more than 1 point?'
    >>> question_label(Wording(), "equivalent", 2.5)
    'Are A and B equivalent within ± 2.5 points?'
    """
    a, b = wording.name_a, wording.name_b
    points = points_of(margin_points / 100.0)
    return {
        "different": f"Is {b} different from {a}?",
        "better": f"Is {b} better than {a}?",
        "worse": f"Is {b} worse than {a}?",
        "superior": f"Is {b} better than {a} by more than {points}?",
        "non-inferior": f"Is {b} not worse than {a} by more than {points}?",
        "equivalent": f"Are {a} and {b} equivalent within ± {points}?",
    }[question]


def margin_label(wording: Wording) -> str:
    """ "Margin (points of pass rate)" or "(points of accuracy)"."""
    return f"Margin (points of {_rate(wording)})"


def pvalue_label(decision: Decision) -> str:
    """Label of the decision's p-value: which test gave it."""
    if decision.question == "equivalent":
        return "p, larger of two one-sided score tests"
    sides = "two-sided" if decision.alternative == "two-sided" else "one-sided"
    if decision.interval_method == "cluster-robust":
        return f"p, {sides} {CLUSTER_TEST}"
    if decision.margin is not None:
        return "p, one-sided Tango score test"
    if decision.method == "mid-p":  # the mid-p value is not an exact test's p
        return f"p, {sides} McNemar mid-p"
    return f"p, {sides} exact McNemar"


def pvalue_text(decision: Decision) -> str:
    """The p-value as the page prints it, kept on its side of alpha
    (:func:`calculator.report.decision.decision_pvalue`)."""
    return decision_pvalue(decision)


def probability_label(wording: Wording) -> str:
    return f"P({wording.name_b} better | data)"


def probability_text(better: BetterProbability) -> str:
    """The posterior probability, never 0% or 100%
    (:func:`calculator.report.formatting.format_probability`).

    Examples
    --------
    >>> from calculator import probability_b_better as better
    >>> probability_text(better(5, 15)), probability_text(better(0, 4000))
    ('98.9%', '> 99.9999%')
    """
    return format_probability(better)


def alpha_source(alpha: float, *, in_url: bool) -> str:
    """Where the decision's α comes from: the calculator page's input "α: level of each gate",
    or the per-case page's fixed level (the command line's default).

    Examples
    --------
    >>> alpha_source(0.01, in_url=True)
    'The decision is taken at α = 0.01, the level set above as “α: level of each gate”.'
    """
    if in_url:
        return (
            f"The decision is taken at α = {alpha:g}, the level set above as "
            "“α: level of each gate”."
        )
    return (
        f"The decision is taken at α = {alpha:g}, the level the command line uses unless "
        "told another."
    )


def two_questions(wording: Wording) -> str:
    """The sentence on why the p-value and P(B better) differ, with the page's names."""
    return TWO_QUESTIONS.format(a=wording.name_a, b=wording.name_b, rate=_rate(wording))


def gate_sentence(wording: Wording, decision: Decision, *, fails: bool) -> str:
    """What a release gate would do with these cases, in the page's own terms (the margin set
    above, or none): `decision` is the gate's own question
    (:func:`calculator.release.gate_question`), non-inferior with a margin, else the two-sided
    test, the rule of the command line's gate (``cases --fail-if-worse``) that the page does
    not name. A margin wider than a gate takes
    (:func:`calculator.release.gate_margin_too_wide`) gets no verdict; `fails` is then not read.

    Examples
    --------
    >>> from calculator import analyze
    >>> d = analyze(1000, 0, 0, 0, margin=0.01).decision
    >>> print(gate_sentence(Wording(), d, fails=False))  # doctest: +NORMALIZE_WHITESPACE
    As a release gate at the margin set above, this comparison passes: B is shown
    non-inferior to A at a margin of 1 point.
    >>> d = analyze(1000, 0, 0, 0, margin=0.2).decision
    >>> print(gate_sentence(Wording(), d, fails=False))  # doctest: +NORMALIZE_WHITESPACE
    As a release gate this comparison has no verdict at a margin of 20 points: that margin lets
    the gate pass B up to 20 points worse than A, more than the 10 points a release gate takes.
    A margin of at most 10 points gives the gate's verdict.
    """
    a, b = wording.name_a, wording.name_b
    verdict = "fails" if fails else "passes"
    if decision.question == "non-inferior" and gate_margin_too_wide(decision.margin):
        margin = decision.margin or 0.0
        return (
            f"As a release gate this comparison has no verdict at a margin of "
            f"{points_of(margin)}: that margin {too_wide_for_a_gate(margin, (a, b))}. A margin "
            f"of at most {points_of(GATE_MARGIN_LIMIT)} gives the gate's verdict."
        )
    if decision.question == "non-inferior" and decision.margin is not None:
        shown = "not shown" if fails else "shown"
        return (
            f"As a release gate at the margin set above, this comparison {verdict}: {b} is "
            f"{shown} non-inferior to {a} at a margin of {points_of(decision.margin)}."
        )
    if decision.interval_method == "cluster-robust":
        test = CLUSTER_TEST
    else:
        test = "mid-p test" if decision.method == "mid-p" else "exact test"
    # The doubled exact test never rejects more often than alpha, so one direction of it at
    # most alpha/2; the mid-p and the large-sample cluster test only about as often.
    bound = "at most" if test == "exact test" else "about"
    shows = f"the two-sided {test} shows {b} worse than {a} at α = {decision.alpha:g}"
    if fails:
        reason = f"{shows}."
    else:
        # Not shown worse is all this gate asks: too few cases to show anything pass it too.
        reason = (
            f"that gate fails only when {shows}, and it does not here; with too few cases "
            f"to show a drop it passes as well, since not being shown worse does not show that "
            f"{b} is no worse."
        )
    advice = (
        ""
        if fails
        else f" Choose non-inferior to require evidence that {b} is no worse than {a} by more "
        "than a margin."
    )
    return (
        f"As a release gate without a margin, this comparison {verdict}: "
        f"{reason} It looks in that one direction, so on a change that does nothing it fails "
        f"{bound} α/2 = {decision.alpha / 2:g} of the time.{advice}"
    )


def _rate(wording: Wording) -> str:
    return "accuracy" if wording.classifier else "pass rate"
