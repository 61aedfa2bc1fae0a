"""The decision's own lines after a pass/fail report: the answer when the report does not end
with it, the decision's p with its test, and the posterior probability that B is better; then,
for two logs compared, the composition every surface quotes (:func:`log_comparison_lines`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.analysis import analysis_report
from calculator.report.conjunction import task_count_lines
from calculator.report.decision import decision_pvalue, named_test, posterior_left_out
from calculator.report.formatting import format_probability
from calculator.report.logs import COMMAND_LINE, Controls, report_lines
from calculator.report.words import text

if TYPE_CHECKING:
    from calculator.analysis import Analysis
    from calculator.logs import LogAnalysis

__all__ = ["decision_lines", "log_comparison_lines"]


def decision_lines(analysis: Analysis) -> list[str]:
    """The decision sentence and p-value when a question is asked, and P(B better), for text.

    Examples
    --------
    >>> from calculator import analyze
    >>> lines = decision_lines(analyze(60, 5, 15, 20, alternative="greater"))
    >>> print("\\n".join(lines))  # doctest: +NORMALIZE_WHITESPACE
    decision p          0.021 (one-sided exact McNemar test; B better: yes)
    P(B better)         98.9% (posterior, Jeffreys prior; a probability of the direction,
    not of its size, and not a p-value)
    """
    decision, better = analysis.decision, analysis.better
    name_b = analysis.names[1]
    p_text = decision_pvalue(decision)
    claim = {
        "different": "differ",
        "better": f"{name_b} better",
        "worse": f"{name_b} worse",
        "non-inferior": f"{name_b} non-inferior",
        "equivalent": "equivalent",
    }[decision.question]
    left_out = posterior_left_out(decision)
    if left_out:  # with clusters: the reason, as a clause ("not shown with clusters: ...")
        value = left_out[0].lower() + left_out[1:].removesuffix(".")
    else:
        value = (
            f"{format_probability(better)} (posterior, Jeffreys prior; a probability of the "
            "direction, not of its size, and not a p-value)"
        )
    posterior = f"P({name_b} better)".ljust(19) + " " + value
    if decision.question == "different":  # the report already gives the two-sided test
        return [posterior]
    # The report (analysis_text) ends with the answer whenever it says more than the figures:
    # then it is not said twice.
    answer = [] if analysis_report(analysis).endswith(text(decision)) else [text(decision)]
    return [
        *answer,
        f"decision p          {p_text} ({named_test(decision)}; {claim}: "
        f"{'yes' if decision.reject else 'not shown'})",
        posterior,
    ]


def log_comparison_lines(
    result: LogAnalysis,
    *,
    alpha: float = 0.05,
    controls: Controls = COMMAND_LINE,
) -> list[str]:
    """Two logs (or a long file's two systems) compared as pass/fail, in plain lines: the
    report (:func:`calculator.report.logs.report_lines`), the decision's lines, and with
    several tasks on how many each system does better. The command line's text and the page
    quote these lines, each naming its own controls."""
    lines = report_lines(result, alpha=alpha, controls=controls)
    answer = text(result.pooled.decision)
    # With repeats the report already holds the decision's sentence (it counts questions).
    lines += [
        line for line in decision_lines(result.pooled) if not (result.repeats and line == answer)
    ]
    return lines + task_count_lines(result.tasks_better)
