"""A suite's answer in words: which p answers the question asked of several tasks, and which is
shown for contrast.

A suite's question is asked of all its questions, each counted once (the micro-average): the
task-stratified exact McNemar test answers it, and it is the exact test of the tasks' summed
table (:mod:`calculator.stratified`); with a margin, Tango's test of the micro-averaged
difference on that table; with repeats, the cluster-robust test over every task's questions,
each question a cluster of its repeats. The task-clustered test asks whether a lead would carry
over to other tasks like these: it is shown beside the answer, for contrast, never as it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.decision import named_test
from calculator.report.formatting import format_p_equals, plural

if TYPE_CHECKING:
    from calculator.logs.analysis import LogAnalysis

__all__ = [
    "CONTRAST",
    "answer_line",
    "suite_gate_clause",
    "suite_gate_test",
    "suite_payload",
    "suite_test_words",
]

#: What the task-clustered test asks, said wherever it is shown beside a suite's answer.
CONTRAST = (
    "shown for contrast, not the answer: it asks whether the lead would carry over to other "
    "tasks like these, with the tasks as the sample"
)

_STRATA = {
    "exact": "task-stratified (with no difference, a discordant question of any task is as "
    "likely to favour either system, so the tasks' splits add up to the summed table's "
    "binomial: this exact test of the summed table is the stratified exact test)",
    "mid-p": "task-stratified (the mid-p of the summed table's exact test, which is the "
    "stratified exact test)",
    "tango": "of the micro-averaged difference on the summed table (its variance, from the "
    "summed table, is at least the task-stratified one, so the strata can only make it careful)",
    "cluster": "over every task's questions, each question a cluster of its repeats within its "
    "task (stratified by task, questions as clusters)",
}
_STRATA["tost"] = _STRATA["tango"]


def suite_test_words(result: LogAnalysis) -> str | None:
    """The test that answers a suite's question, in words; None for one task (its test is
    named by its decision alone).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from calculator import analyze
    >>> suite = SimpleNamespace(pooled=analyze(2, 16, 11, 21), tasks=(1, 2), method="stratified")
    >>> print(suite_test_words(suite)[:62])
    two-sided exact McNemar test, doubled tail, task-stratified (w
    """
    if len(result.tasks) < 2:
        return None
    decision = result.pooled.decision
    return f"{named_test(decision)}, {_STRATA[decision.method]}"


def answer_line(result: LogAnalysis, alpha: float) -> list[str]:
    """The line that says which p answers a suite's question: the summed table's decision,
    task-stratified; empty for one task."""
    words = suite_test_words(result)
    if words is None:
        return []
    decision = result.pooled.decision
    t = result.pooled.table
    over = (
        f"all {plural(decision.clusters or t.n, 'question')} ({plural(t.n, 'sample')}) of the "
        f"{plural(len(result.tasks), 'task')}"
        if result.repeats
        else f"all {plural(t.n, 'question')} of the {plural(len(result.tasks), 'task')}, each "
        "counted once"
    )
    p = format_p_equals(decision.pvalue, decision.log10_pvalue, alpha=alpha)
    return [
        f"answer    over {over}: {words}, {p}: the p that answers the question asked. The "
        "tests by task answer each task alone (Holm-adjusted across tasks); the task-clustered "
        "test is shown for contrast"
    ]


_GATE_BASIS = {
    "exact": "task-stratified, the exact test of the tasks' summed table",
    "mid-p": "task-stratified, the mid-p of the tasks' summed table",
    "tango": "of the micro-averaged difference, on the tasks' summed table",
    "cluster": "over every task's questions, each a cluster of its repeats (stratified by task)",
}
_GATE_BASIS["tost"] = _GATE_BASIS["tango"]


def suite_gate_test(result: LogAnalysis, test: str) -> str:
    """The gate's test (the JSON's "test") with what it was decided over, for several tasks.

    >>> from types import SimpleNamespace
    >>> from calculator import analyze
    >>> suite = SimpleNamespace(pooled=analyze(2, 16, 11, 21), tasks=(1, 2))
    >>> suite_gate_test(suite, "two-sided exact McNemar test")
    "two-sided exact McNemar test, task-stratified, the exact test of the tasks' summed table"
    """
    if len(result.tasks) < 2:
        return test
    return f"{test}, {_GATE_BASIS[result.pooled.decision.method]}"


def suite_gate_clause(result: LogAnalysis) -> str:
    """What the gate decided by, after its verdict, for several tasks ("" for one)."""
    if len(result.tasks) < 2:
        return ""
    basis = ", each a cluster of its repeats" if result.repeats else ", on their summed table"
    return (
        f"; decided over every question of the {plural(len(result.tasks), 'task')}{basis} "
        "(the suite's answer)"
    )


def suite_payload(result: LogAnalysis) -> dict[str, object]:
    """The JSON's "suite" object, in the decision and the gate: "method" (the code of
    :func:`calculator.stratified.suite_method`), "tasks", "clusters" ("question" with repeats,
    else None) and "questions" (the clusters counted with repeats, else None), "test" (the
    test that decided, in words) and "contrast" (the key of the
    task-clustered test, shown for contrast, and what it asks)."""
    several = len(result.tasks) > 1
    return {
        "method": result.method,
        "tasks": len(result.tasks),
        "clusters": "question" if result.repeats else None,
        "questions": result.pooled.decision.clusters if result.repeats else None,
        "test": suite_test_words(result) or named_test(result.pooled.decision),
        "contrast": {"key": "clustered_by_task", "asks": CONTRAST} if several else None,
    }
