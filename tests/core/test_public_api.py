"""The library's top-level names are exactly the documented API, in the README's groups."""

from __future__ import annotations

import re
import types
from pathlib import Path

import calculator

# The groups in the order the README's "top-level names" paragraph and the package docstring
# present them. A name added to or removed from `calculator.__all__` must be added here, to the
# README and to the docstring, or this test fails.
DOCUMENTED = {
    "one table": ["analyze", "Analysis", "decide", "Decision", "PairedTable"],
    "tests": [
        "mcnemar_exact",
        "ExactTestResult",
        "mcnemar_chi2",
        "Chi2TestResult",
        "unpaired_z_test",
        "ZTestResult",
        "margin_test",
        "equivalence_test",
        "MarginTestResult",
    ],
    "intervals and effect sizes": [
        "difference_interval",
        "DifferenceInterval",
        "ConfidenceInterval",
        "CI_METHODS",
        "odds_ratio",
        "OddsRatio",
        "probability_b_better",
        "BetterProbability",
    ],
    "several gates and the sweep": [
        "gate_rates",
        "GateRates",
        "false_alarm_rate",
        "both_pass_sweep",
        "PassSweep",
    ],
    "per-case files": ["load_cases", "PairedCases", "clustered_mcnemar", "ClusteredTestResult"],
    "three or more systems": ["load_systems", "SystemCases", "compare_systems", "SystemComparison"],
    "planning": ["plan", "PowerPlan", "noninferiority_plan", "NonInferiorityPlan"],
    "per-case scores": ["compare_scores", "ScoresComparison"],
    "refusals": ["CalculatorError"],
}
NAMES = [name for group in DOCUMENTED.values() for name in group]
README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_public_names_are_exactly_the_documented_list_in_order():
    assert calculator.__all__ == NAMES
    assert len(NAMES) <= 42  # the bound is 'at most about 40'


def test_every_public_name_resolves_and_nothing_else_is_public():
    for name in NAMES:
        assert getattr(calculator, name) is not None
    public = {
        name
        for name in dir(calculator)
        if not name.startswith("_") and not isinstance(getattr(calculator, name), types.ModuleType)
    }
    assert public == set(NAMES)


def test_a_removed_name_is_reached_through_its_module_only():
    from calculator.release import is_worse
    from calculator.report.formatting import format_pvalue

    assert callable(format_pvalue) and callable(is_worse)
    for name in ("format_pvalue", "is_worse", "MAX_GATES", "null_distribution", "check_count"):
        assert not hasattr(calculator, name)


def test_the_package_docstring_and_the_readme_name_every_public_function_and_constant():
    readme = README.read_text(encoding="utf-8")
    paragraph = readme[readme.index("The top-level names") :].split("\n\n")[0]
    named_in_readme = set(re.findall(r"`(\w+)`", paragraph))
    named_in_docstring = set(re.findall(r"``(\w+)``", calculator.__doc__))
    for name in NAMES:
        assert name in named_in_docstring, name
        is_type = name[0].isupper() and not name.isupper() and name != "CalculatorError"
        if not is_type:  # the README names result types as "their result types"
            assert name in named_in_readme, name
