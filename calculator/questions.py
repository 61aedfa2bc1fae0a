"""The questions a release decision answers, and the one reading of how a user asks one.

A question is "different", "better", "worse", "non-inferior" or "equivalent"; a user may say it
by its name, or by a test's `alternative` and a `margin` (:func:`resolve_question`).
"""

from __future__ import annotations

from calculator._validation import check_choice, check_probability
from calculator.errors import CalculatorError
from calculator.mcnemar import ALTERNATIVES

__all__ = [
    "QUESTIONS",
    "QUESTION_ALTERNATIVE",
    "WITH_MARGIN",
    "question_claim",
    "resolve_question",
]

#: The questions a decision answers, in the order a page offers them.
QUESTIONS = ("different", "better", "worse", "non-inferior", "equivalent")

# The alternative each question tests ("greater": B's pass rate higher than A's); equivalence is
# an interval hypothesis, tested by two one-sided tests, and has none.
QUESTION_ALTERNATIVE = {
    "different": "two-sided",
    "better": "greater",
    "worse": "less",
    "non-inferior": "greater",
    "equivalent": None,
}
WITH_MARGIN = ("better", "non-inferior", "equivalent")
# What each question's rejection shows, words-free (the decision's JSON "claim").
_CLAIMS = {
    "different": "pB != pA",
    "better": "pB > pA",
    "worse": "pB < pA",
    "non-inferior": "pB > pA - margin",
    "equivalent": "|pB - pA| < margin",
}


def question_claim(question: str, margin: float | None) -> str:
    """What a rejection of `question` shows, as a code of the pass rates pA and pB: the
    decision's JSON "claim", beside "alternative" ("greater": pB - pA above its null).

    Examples
    --------
    >>> question_claim("better", None), question_claim("better", 0.02)
    ('pB > pA', 'pB > pA + margin')
    """
    if question == "better" and margin:
        return "pB > pA + margin"
    return _CLAIMS[question]


_WITHOUT_ALTERNATIVE = {"two-sided": "different", "greater": "better", "less": "worse"}


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
    implied = QUESTION_ALTERNATIVE[question]
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
    if margin is not None and question not in WITH_MARGIN:
        raise CalculatorError(
            f'The question "{question}" takes no margin; a margin goes with "better", '
            '"non-inferior" or "equivalent".'
        )
    return question, margin
