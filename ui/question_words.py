"""Words of the question asked in the per-case page's logs and scores sections (pure), and the
page's names for the options the chooser refuses (:func:`calculator.report.refusals.refusal_text`),
so a refusal on the page names its own widgets, never a command-line flag.
"""

from __future__ import annotations

__all__ = [
    "BETTER_HELP",
    "BETTER_LABEL",
    "BETTER_OPTIONS",
    "BETTER_STATED",
    "MARGIN_HELP",
    "MARGIN_LABEL",
    "PAGE_OPTION_NAMES",
    "QUESTION_NAMES",
    "QUESTION_HELP",
    "QUESTION_LABEL",
]

#: The questions offered (the Decision section's, :data:`ui.params.PAGE_QUESTIONS`), as shown.
QUESTION_NAMES = {
    "different": "different",
    "better": "better",
    "worse": "worse",
    "superior": "better by more than the margin",
    "non-inferior": "non-inferior",
    "equivalent": "equivalent",
}
QUESTION_LABEL = "Question"
QUESTION_HELP = (
    "Choose the question before looking at the results. “better” and “worse” are one-sided "
    "tests; “better by more than the margin”, “non-inferior” and “equivalent” are asked "
    "against the margin."
)
MARGIN_LABEL = "Margin"
MARGIN_HELP = (
    "For the questions asked against it: in points of pass rate for pass/fail outcomes "
    "(2 is two points), in the scores' own units for scores (2 is 2 BLEU on a 0-100 scale)."
)
BETTER_LABEL = "Better scores"
BETTER_OPTIONS = ("higher", "lower")
#: The logs' first choice: the direction lm-eval's results file states, else higher.
BETTER_STATED = "as the logs say (else higher)"
BETTER_HELP = "For scores: which scores are better (lower for error rates and losses)."

#: The page's names for the options a comparison can refuse, by the chooser's codes.
PAGE_OPTION_NAMES = {
    "alternative": "a one-sided question (“better” or “worse”)",
    "alternative greater": "the question “better”",
    "alternative less": "the question “worse”",
    "margin": "a margin",
    "margin DELTA": "a margin (the Margin box, for “non-inferior” or “equivalent”)",
    "DELTA": "the margin",
    "equivalence": "the question “equivalent”",
    "gate": "the release gate",
    "better": f"“{BETTER_LABEL}”",
    "better lower": f"“{BETTER_LABEL}: lower”",
    "better higher": f"“{BETTER_LABEL}: higher”",
    "resamples": "the number of resamples",
    "alpha": "α",
}
