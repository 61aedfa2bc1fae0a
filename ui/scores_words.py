"""Words of the "Mean scores" section of the per-case page (pure). The findings' sentences come
from the core (:mod:`calculator.report.scores`), so the page and the command line say the same."""

from __future__ import annotations

from ui.cases_words import CUT_SCORES_LABEL

__all__ = ["OTHER_TESTS", "SCORES_HEADER", "SCORES_INTRO", "metric_labels"]

SCORES_HEADER = "Mean scores"
SCORES_INTRO = (
    "These outcome columns hold scores (numbers other than 0 and 1), so the cases are compared "
    "by their mean score: the mean difference, its interval and a permutation test. To cut the "
    f'scores into pass/fail for McNemar\'s test instead, tick "{CUT_SCORES_LABEL}" and set the '
    "threshold on the scores' scale."
)
OTHER_TESTS = "The paired t test, the signed-rank test and the bootstrap interval"


def metric_labels(names: tuple[str, str]) -> tuple[str, str, str]:
    """Labels of the three headline figures, with the systems' names.

    Examples
    --------
    >>> metric_labels(("old", "new"))[0]
    'Mean difference old − new'
    """
    name_a, name_b = names
    return (f"Mean difference {name_a} − {name_b}", "t interval", "Permutation p")
