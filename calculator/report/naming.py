"""The names of a decision's tests, from its codes (``Decision.method``, ``held_at``).

A decision holds codes (:data:`calculator.decision.METHODS`); every sentence that names its test
takes the name from :func:`named_test`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calculator.decision import Decision

__all__ = ["CLUSTER_TEST", "held_words", "named_test"]

#: The test of a decision on clustered cases, in words.
CLUSTER_TEST = "cluster-robust score test"
# "exact McNemar", never "exact" alone: the sign-flip test of the clusters' leans is exact too.
_HELD_AT = {
    "exact": "exact McNemar test's",
    "mid-p": "McNemar mid-p test's",
    "sign-flip": "exact sign-flip test's",
}


def named_test(decision: Decision, *, two_sided: bool = False) -> str:
    """The decision's test in words, from its codes (``method``, ``alternative``, ``held_at``).

    `two_sided` names the two-sided exact test without "doubled tail" (the gate's line).

    Examples
    --------
    >>> from calculator import analyze
    >>> named_test(analyze(70, 4, 12, 14).decision)
    'two-sided exact McNemar test, doubled tail'
    >>> named_test(analyze(70, 4, 12, 14, alternative="greater", convention="mid-p").decision)
    'one-sided McNemar mid-p test'
    >>> named_test(analyze(70, 4, 12, 14, margin=0.02).decision)
    'Tango score test'
    """
    sides = "two-sided" if decision.alternative == "two-sided" else "one-sided"
    if decision.method == "exact":
        if sides == "one-sided":
            return "one-sided exact McNemar test"  # one tail, nothing doubled
        return "two-sided exact McNemar test" + ("" if two_sided else ", doubled tail")
    if decision.method == "mid-p":
        return f"{sides} McNemar mid-p test"  # mid-p is not an exact test
    if decision.method == "tango":
        return "Tango score test"
    if decision.method == "tost":
        return "two one-sided Tango score tests"
    if decision.held_at is None:
        return CLUSTER_TEST
    return f"{CLUSTER_TEST}, held at the {_HELD_AT[decision.held_at]} p"


def held_words(decision: Decision) -> str:
    """ ", held at the exact McNemar test's p" where the decision's p is held at an exact
    test's (``held_at``), else "": for a test named in its own words (a margin's)."""
    if decision.held_at is None:
        return ""
    return f", held at the {_HELD_AT[decision.held_at]} p"
