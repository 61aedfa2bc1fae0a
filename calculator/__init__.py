"""McNemar paired-comparison calculator: the statistics, with no user interface.

Contents, in reading order:

- :mod:`calculator.table`: ``PairedTable`` and the validation of counts and probabilities.
- :mod:`calculator.mcnemar`: the exact and chi-square McNemar tests, and the unpaired z-test.
- :mod:`calculator.intervals`: confidence intervals for the pass-rate difference
  (:mod:`calculator.fay_lumbard`: the one compatible with the exact test).
- :mod:`calculator.odds_ratio`: the matched-pairs odds ratio b/c, exact and mid-p intervals.
- :mod:`calculator.reconcile`: the sentence when the interval and the test disagree.
- :mod:`calculator.gates`: false-alarm rates of several release gates, Bonferroni and Sidak.
- :mod:`calculator.sweep`: p-values as the both-pass count moves (behind the chart).
- :mod:`calculator.noninferiority`: Tango's score test against a margin (non-inferiority,
  superiority by a margin, equivalence).
- :mod:`calculator.posterior`: the posterior probability that B is better (Jeffreys prior).
- :mod:`calculator.decision`: the release question ("is B better?", "no worse by more than
  a margin?", ...) answered by one test, its interval and a sentence.
- :mod:`calculator.analysis`: ``analyze``, every figure for one table, and the report.
- :mod:`calculator.formatting`: numbers for reading.
- :mod:`calculator.cases`: per-case files in, a paired table and the changed cases out
  (pandas is imported only when a file is read).
- :mod:`calculator.clustered`: McNemar's test for clustered cases (Durkalski et al. 2003).
- :mod:`calculator.planning`: power, sample size and the cost of peeking.
- :mod:`calculator.compare`: three or more systems on the same cases (Cochran's Q, every pair).
- :mod:`calculator.teaching`: the null distribution of the split, operating characteristics at
  n pairs, and what pairing buys (the margin sweep).
- :mod:`calculator.release`: the release gate (``is_worse``) and the cluster sentence.
- :mod:`calculator.cli`: the command line, ``python -m calculator`` (installed: ``mcnemar``).

Examples
--------
>>> import calculator
>>> result = calculator.analyze(60, 15, 5, 20)
>>> round(result.exact.pvalue, 3)
0.041
"""

from calculator.analysis import FRAMINGS, MAX_NAME_LENGTH, Analysis, analyze
from calculator.decision import QUESTIONS, Decision, decide
from calculator.formatting import format_level, format_percent, format_points, format_pvalue, plural
from calculator.gates import MAX_GATES, GateRates, false_alarm_rate, gate_rates
from calculator.intervals import (
    CI_METHOD_NAMES,
    CI_METHODS,
    ConfidenceInterval,
    DifferenceInterval,
    difference_interval,
)
from calculator.mcnemar import (
    ALTERNATIVES,
    CONVENTIONS,
    Chi2TestResult,
    ExactTestResult,
    ZTestResult,
    mcnemar_chi2,
    mcnemar_exact,
    unpaired_z_test,
)
from calculator.noninferiority import (
    MARGIN_HYPOTHESES,
    MarginTestResult,
    equivalence_test,
    margin_test,
)
from calculator.odds_ratio import ODDS_RATIO_METHODS, OddsRatio, odds_ratio
from calculator.posterior import BetterProbability, probability_b_better
from calculator.reconcile import reconciliation
from calculator.release import describe_cluster_change, gate_fails, is_worse
from calculator.sweep import PassSweep, both_pass_sweep
from calculator.table import MAX_COUNT, PairedTable, check_count, check_probability

# Loaded on first use (PEP 562): they pull in scipy.stats, which the calculator page does not
# need, and importing it would add about half a second to the page's cold start.
_LAZY = {
    "PairedCases": "calculator.cases",
    "load_cases": "calculator.cases",
    "read_case_file": "calculator.cases",
    "ClusteredTestResult": "calculator.clustered",
    "clustered_mcnemar": "calculator.clustered",
    "PLAN_TESTS": "calculator.planning",
    "NonInferiorityPlan": "calculator.planning",
    "PowerPlan": "calculator.planning",
    "connor_n": "calculator.planning",
    "exact_power": "calculator.planning",
    "minimum_detectable_difference": "calculator.planning",
    "noninferiority_plan": "calculator.planning",
    "noninferiority_power": "calculator.planning",
    "plan": "calculator.planning",
    "power_curve": "calculator.planning",
    "simulate_optional_stopping": "calculator.planning",
    "SystemComparison": "calculator.compare",
    "adjust_pvalues": "calculator.compare",
    "compare_systems": "calculator.compare",
    "SystemCases": "calculator.cases.systems_result",
    "load_systems": "calculator.cases.multi",
    "MarginSweep": "calculator.teaching",
    "NullDistribution": "calculator.teaching",
    "OperatingCharacteristics": "calculator.teaching",
    "margin_sweep": "calculator.teaching",
    "null_distribution": "calculator.teaching",
    "operating_characteristics": "calculator.teaching",
    "compare_scores": "calculator.scores",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'calculator' has no attribute {name!r}")


__all__ = [
    "ODDS_RATIO_METHODS",
    "OddsRatio",
    "format_level",
    "odds_ratio",
    "plural",
    "reconciliation",
    "ALTERNATIVES",
    "QUESTIONS",
    "MARGIN_HYPOTHESES",
    "BetterProbability",
    "Decision",
    "MarginTestResult",
    "decide",
    "equivalence_test",
    "margin_test",
    "probability_b_better",
    "MarginSweep",
    "NullDistribution",
    "OperatingCharacteristics",
    "margin_sweep",
    "null_distribution",
    "operating_characteristics",
    "SystemComparison",
    "adjust_pvalues",
    "compare_systems",
    "compare_scores",
    "SystemCases",
    "load_systems",
    "PLAN_TESTS",
    "ClusteredTestResult",
    "PairedCases",
    "NonInferiorityPlan",
    "PowerPlan",
    "clustered_mcnemar",
    "connor_n",
    "exact_power",
    "load_cases",
    "minimum_detectable_difference",
    "noninferiority_plan",
    "noninferiority_power",
    "plan",
    "power_curve",
    "read_case_file",
    "simulate_optional_stopping",
    "CI_METHODS",
    "CI_METHOD_NAMES",
    "CONVENTIONS",
    "FRAMINGS",
    "MAX_NAME_LENGTH",
    "MAX_COUNT",
    "MAX_GATES",
    "Analysis",
    "Chi2TestResult",
    "ConfidenceInterval",
    "DifferenceInterval",
    "ExactTestResult",
    "GateRates",
    "PairedTable",
    "PassSweep",
    "ZTestResult",
    "analyze",
    "both_pass_sweep",
    "describe_cluster_change",
    "check_count",
    "check_probability",
    "difference_interval",
    "false_alarm_rate",
    "format_percent",
    "format_points",
    "format_pvalue",
    "gate_rates",
    "is_worse",
    "gate_fails",
    "mcnemar_chi2",
    "mcnemar_exact",
    "unpaired_z_test",
]
