"""The words of an option refused by the comparison of several systems
(:class:`calculator.compare.workflow.SystemsRefused`), on the command line (by its flag) and on
the page (by its control's name)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calculator.compare.workflow import SystemsRefused

__all__ = ["refusal_text"]

#: Each option's name: (command line, page).
_NAMES = {
    "better": ("--better", "Which scores are better"),
    "adjust": ("--adjust", "The adjustment"),
    "ci_method": ("--ci-method", "The interval method"),
    "resamples": ("--resamples", "The resamples"),
    "metric": ("--metric", "The metric"),
    "filter": ("--filter", "The filter"),
    "allow_exclusions": ("--allow-exclusions", "Allowing exclusions"),
}


def refusal_text(error: SystemsRefused, *, flags: bool = True) -> str:
    """One line: what was refused and what to do; `flags` names command-line options, else the
    page's controls.

    >>> from calculator.compare.workflow import SystemsRefused
    >>> refusal_text(SystemsRefused("better_unstated", "wer"), flags=False)[:40]
    "'wer' reads as a score where lower is be"
    """
    where = 0 if flags else 1
    threshold = "set --threshold X" if flags else "give a threshold"
    if error.option == "better_unstated":
        say = "--better lower (or --better higher)" if flags else '"lower" or "higher"'
        return (
            f"{error.detail!r} reads as a score where lower is better (an error rate, loss or "
            f"distance), but ranks take higher scores as better; say which with {say}"
        )
    if error.option == "better":
        return (
            f"{_NAMES['better'][where]} says which scores are better when scores are compared "
            "by ranks; these outcomes are compared as pass/fail (by pass rate, where passing is "
            "better)"
        )
    name = _NAMES[error.option][where]
    if error.option in ("metric", "filter"):
        columns = "--systems (or --system and --outcome)" if flags else "the column choices"
        return (
            f"{name} applies to evaluation-harness logs; {error.detail} is a per-case file: "
            f"choose its systems' outcome columns with {columns}"
        )
    if error.option == "allow_exclusions":
        return (
            f"{name} lifts the 5% limit on what a pairing of harness logs or a long file "
            f"leaves out; {error.detail} is a per-case file, whose rows left out are listed "
            "and counted"
        )
    if error.option == "adjust":
        shown = f"{name} {error.detail}" if flags else f"{name} ({error.detail})"
        return (
            f"{shown}: scores compared by ranks have their pairs' signed-rank p-values adjusted "
            f"by Holm only; leave {'--adjust out' if flags else 'it at Holm'} (or {threshold} to "
            "compare pass/fail outcomes, whose pairs take either adjustment)"
        )
    if error.option == "ci_method":
        return (
            f"{name} {error.detail}: the interval methods are for a difference of pass rates; "
            f"scores compared by ranks have none ({threshold} to compare pass/fail outcomes)"
        )
    return (
        f"{name} sets the Monte Carlo resamples of Cochran's Q for pass/fail outcomes; "
        "Friedman's test on scores is exact when small enough, else the F test decides"
    )
