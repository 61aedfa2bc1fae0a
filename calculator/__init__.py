"""McNemar paired-comparison calculator: the statistics, with no user interface.

Contents, in reading order:

- :mod:`calculator.table`: ``PairedTable`` and the validation of counts and probabilities.
- :mod:`calculator.mcnemar`: the exact and chi-square McNemar tests, and the unpaired z-test.
- :mod:`calculator.intervals`: confidence intervals for the pass-rate difference
  (:mod:`calculator.fay_lumbard`: the one compatible with the exact test).
- :mod:`calculator.odds_ratio`: the matched-pairs odds ratio b/c, exact and mid-p intervals.
- :mod:`calculator.gates`: false-alarm rates of several release gates, Bonferroni and Sidak.
- :mod:`calculator.sweep`: p-values as the both-pass count moves (behind the chart).
- :mod:`calculator.noninferiority`: Tango's score test against a margin (non-inferiority,
  superiority by a margin, equivalence).
- :mod:`calculator.posterior`: the posterior probability that B is better (Jeffreys prior).
- :mod:`calculator.decision`: the release question ("is B better?", "no worse by more than
  a margin?", ...) answered by one test and its interval.
- :mod:`calculator.analysis`: ``analyze``, every figure for one table.
- :mod:`calculator.report`: every sentence of a result (the report, the decision's answer, the
  caveats) and numbers for reading; the results reach it through ``report`` and ``sentence``.
- :mod:`calculator.cases`: per-case files in, a paired table and the changed cases out
  (pandas is imported only when a file is read).
- :mod:`calculator.clustered`: McNemar's test for clustered cases (Durkalski et al. 2003).
- :mod:`calculator.planning`: power, sample size and the cost of peeking.
- :mod:`calculator.compare`: three or more systems on the same cases (Cochran's Q, every pair).
- :mod:`calculator.scores`: per-case scores compared (mean difference, t, sign-flip, Wilcoxon).
- :mod:`calculator.teaching`: the null distribution of the split, operating characteristics at
  n pairs, and what pairing buys (the margin sweep).
- :mod:`calculator.release`: the release gates on a table and on scores (``gate_fails``).
- :mod:`calculator.cli`: the command line, ``python -m calculator`` (installed: ``mcnemar``).

The names below are the library's public surface, grouped as the README presents them; everything
else (formatting helpers, validation, limits, release policy, teaching instruments) is reached
through its submodule, e.g. ``calculator.report.formatting.format_pvalue``.

- One table: ``analyze``, ``Analysis``, ``decide``, ``Decision``, ``PairedTable``.
- Tests: ``mcnemar_exact``, ``ExactTestResult``, ``mcnemar_chi2``, ``Chi2TestResult``,
  ``unpaired_z_test``, ``ZTestResult``, ``margin_test``, ``equivalence_test``,
  ``MarginTestResult``.
- Intervals and effect sizes: ``difference_interval``, ``DifferenceInterval``,
  ``ConfidenceInterval``, ``CI_METHODS``, ``odds_ratio``, ``OddsRatio``,
  ``probability_b_better``, ``BetterProbability``.
- Several gates and the both-pass sweep: ``gate_rates``, ``GateRates``, ``false_alarm_rate``,
  ``both_pass_sweep``, ``PassSweep``.
- Per-case files: ``load_cases``, ``PairedCases``, ``clustered_mcnemar``,
  ``ClusteredTestResult``.
- Three or more systems: ``load_systems``, ``SystemCases``, ``compare_systems``,
  ``SystemComparison``.
- Planning: ``plan``, ``PowerPlan``, ``noninferiority_plan``, ``NonInferiorityPlan``.
- Per-case scores: ``compare_scores``, ``ScoresComparison``.
- Refusals: ``CalculatorError``.

Examples
--------
>>> import calculator
>>> result = calculator.analyze(60, 15, 5, 20)
>>> round(result.exact.pvalue, 3)
0.041
"""

from calculator.analysis import Analysis, analyze
from calculator.decision import Decision, decide
from calculator.errors import CalculatorError
from calculator.gates import GateRates, false_alarm_rate, gate_rates
from calculator.intervals import (
    CI_METHODS,
    ConfidenceInterval,
    DifferenceInterval,
    difference_interval,
)
from calculator.mcnemar import (
    Chi2TestResult,
    ExactTestResult,
    ZTestResult,
    mcnemar_chi2,
    mcnemar_exact,
    unpaired_z_test,
)
from calculator.noninferiority import MarginTestResult, equivalence_test, margin_test
from calculator.odds_ratio import OddsRatio, odds_ratio
from calculator.posterior import BetterProbability, probability_b_better
from calculator.sweep import PassSweep, both_pass_sweep
from calculator.table import PairedTable

# Loaded on first use (PEP 562): they pull in scipy.stats, which the calculator page does not
# need, and importing it would add about half a second to the page's cold start.
_LAZY = {
    "load_cases": "calculator.cases",
    "PairedCases": "calculator.cases",
    "clustered_mcnemar": "calculator.clustered",
    "ClusteredTestResult": "calculator.clustered",
    "load_systems": "calculator.cases.multi",
    "SystemCases": "calculator.cases.systems_result",
    "compare_systems": "calculator.compare",
    "SystemComparison": "calculator.compare",
    "plan": "calculator.planning",
    "PowerPlan": "calculator.planning",
    "noninferiority_plan": "calculator.planning",
    "NonInferiorityPlan": "calculator.planning",
    "compare_scores": "calculator.scores",
    "ScoresComparison": "calculator.scores",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'calculator' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


# In the README's order: one table, tests, intervals and effect sizes, gates and the sweep,
# per-case files, three or more systems, planning, refusals.
__all__ = [
    "analyze",
    "Analysis",
    "decide",
    "Decision",
    "PairedTable",
    "mcnemar_exact",
    "ExactTestResult",
    "mcnemar_chi2",
    "Chi2TestResult",
    "unpaired_z_test",
    "ZTestResult",
    "margin_test",
    "equivalence_test",
    "MarginTestResult",
    "difference_interval",
    "DifferenceInterval",
    "ConfidenceInterval",
    "CI_METHODS",
    "odds_ratio",
    "OddsRatio",
    "probability_b_better",
    "BetterProbability",
    "gate_rates",
    "GateRates",
    "false_alarm_rate",
    "both_pass_sweep",
    "PassSweep",
    "load_cases",
    "PairedCases",
    "clustered_mcnemar",
    "ClusteredTestResult",
    "load_systems",
    "SystemCases",
    "compare_systems",
    "SystemComparison",
    "plan",
    "PowerPlan",
    "noninferiority_plan",
    "NonInferiorityPlan",
    "compare_scores",
    "ScoresComparison",
    "CalculatorError",
]
