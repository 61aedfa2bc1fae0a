"""Words for the calculator page's anytime-valid line (pure): its label, its one line of figures
and its help. The sentences under it are the report's (:mod:`calculator.report.anytime`,
through :func:`calculator.report.words.text`), in the page's names and framing, as the command
line's JSON quotes them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.anytime import evalue_text
from calculator.report.formatting import format_pvalue

if TYPE_CHECKING:
    from calculator.anytime import AnytimeAnalysis

__all__ = ["ANYTIME_HELP", "ANYTIME_LABEL", "anytime_line"]

ANYTIME_LABEL = "Anytime-valid p"
ANYTIME_HELP = (
    "The exact McNemar test above is valid when the number of cases was fixed before looking. "
    "This p is valid however often you look and whenever you stop (an e-value, Ville's "
    "inequality), as long as the cases come in an order not chosen by their outcomes and the "
    "decision to stop uses only the cases seen. It pays for that with a larger p at any one "
    'fixed number of cases. On the command line: table --json (the key "anytime"), cases '
    "--monitor, and cases --fail-if-worse --anytime."
)


def anytime_line(result: AnytimeAnalysis) -> str:
    """The figures in one line: the anytime-valid p, the e-value, and the fixed-n exact p.

    Examples
    --------
    >>> from calculator.anytime import anytime_analysis
    >>> anytime_line(anytime_analysis(35, 15))
    '0.102 (e-value 9.81); the exact McNemar test at a fixed n gives 0.007'
    """
    test, alpha = result.test, result.alpha
    p = format_pvalue(test.pvalue, test.log10_pvalue, alpha=alpha)
    fixed = format_pvalue(result.fixed_n_pvalue, result.fixed_n_log10_pvalue, alpha=alpha)
    sides = "" if test.alternative == "two-sided" else "one-sided "
    return (
        f"{p} ({sides}e-value {evalue_text(test)}); the {sides}exact McNemar test at a fixed n "
        f"gives {fixed}"
    )
