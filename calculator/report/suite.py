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

from calculator.questions import question_claim
from calculator.rejection import smallest_pvalue
from calculator.report.caveats import few_clusters_caveat
from calculator.report.decision import named_test
from calculator.report.formatting import format_p_equals, plural
from calculator.report.scores import permutation_p
from calculator.stratified import suite_method

if TYPE_CHECKING:
    from calculator.analysis import Analysis
    from calculator.logs.analysis import LogAnalysis
    from calculator.logs.scores import LogScores
    from calculator.scores import ScoresComparison

__all__ = [
    "CONTRAST",
    "answer_line",
    "chart_caption",
    "contrast_lines",
    "pvalue_note",
    "scores_pvalue_note",
    "report_items",
    "suite_mark",
    "task_mark",
    "scores_gate_clause",
    "scores_suite_lines",
    "scores_suite_payload",
    "suite_gate_clause",
    "suite_gate_test",
    "suite_payload",
    "suite_test_words",
    "task_test_words",
]

#: Below this many tasks, the task-clustered test's chi-square reference is rough.
_FEW_CLUSTERS = 10

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


def task_mark(shown: bool, alpha: float, tasks: int) -> str:
    """A task's mark on the suite's chart: its two-sided test's p (Holm-adjusted across the
    tasks when there are several) against alpha; whatever the question asked of the suite."""
    adjusted = ", Holm-adjusted" if tasks > 1 else ""
    return f"task: two-sided p{adjusted} {'≤' if shown else '>'} {alpha:g}"


def suite_mark(shown: bool, alpha: float) -> str:
    """The suite's mark: its own test of the question asked (one test, never adjusted)."""
    return f"suite: p for the question asked {'≤' if shown else '>'} {alpha:g}"


def chart_caption(result: LogAnalysis) -> str:
    """What the suite's chart shows and what its marks mean, one wording for the page and the
    HTML report: each task's two-sided test (Holm-adjusted across several tasks) and the
    suite's test of the question asked, which may be one-sided or against a margin."""
    adjusted = (
        "once Holm-adjusted across the tasks"
        if len(result.tasks) > 1
        else "(one task: nothing to adjust)"
    )
    return (
        "Each task's difference in pass rate A − B, in points, with its interval; a task's dot "
        f"is filled where its two-sided test gives p ≤ alpha {adjusted}. The last row is the "
        "suite over every task's questions, each counted once: its dot is filled where the "
        f"suite's test of the question asked ({named_test(result.pooled.decision)}; one test, "
        "not Holm-adjusted) gives p ≤ alpha."
    )


_TASK_TESTS = {
    "exact": "two-sided exact McNemar test",
    "clustered": "two-sided clustered McNemar test, question as cluster",
    "clustered-held": "two-sided clustered McNemar test, question as cluster, held at the exact "
    "sign-flip test's p",
}


def task_test_words(code: str) -> str:
    """A task's test in words, from its code (:attr:`calculator.logs.TaskAnalysis.test`)."""
    return _TASK_TESTS[code]


def _asked(decision: object) -> str:
    """The question a decision answers, by name and claim: "better: pB > pA"."""
    return f"{decision.question}: {question_claim(decision.question, decision.margin)}"


def pvalue_note(result: LogAnalysis | Analysis) -> str:
    """What each p of a report's table is (pass/fail): the tasks' own two-sided tests, Holm's
    adjustment of them, and the suite's test of the question asked, which may be one-sided or
    against a margin; for a per-case file, the test that decides, named (held at an exact
    test, with clusters)."""
    if not hasattr(result, "pooled"):
        decision = result.decision
        return f"p: the question asked ({_asked(decision)}), by the {named_test(decision)}"
    tests = " or ".join(dict.fromkeys(task_test_words(t.test) for t in result.tasks))
    each = "the task's" if len(result.tasks) == 1 else "each task's"
    note = f"p: {each} {tests} (different: pB != pA), whatever the question asked"
    if len(result.tasks) == 1:
        return note
    decision = result.pooled.decision
    return (
        f"{note}; Holm p: those adjusted across the tasks; suite: the question asked "
        f"({_asked(decision)}) over every task's questions, by the {named_test(decision)}, one "
        "test, not adjusted: the answer"
    )


def scores_pvalue_note(result: LogScores | ScoresComparison) -> str:
    """What each p of a scores table is: the sign-flip permutation test (by cluster where the
    cases are grouped) on the side asked, the paired t test where it was not run."""
    pooled = result.pooled if hasattr(result, "pooled") else result
    side = {
        "two-sided": "two-sided",
        "greater": "one-sided, B's mean higher",
        "less": "one-sided, B's mean lower",
    }[pooled.alternative]
    clusters = "" if pooled.clusters is None else ", clusters (not cases) flipped"
    note = f"p: the sign-flip permutation test, {side}{clusters} (the paired t test where it "
    note += "was not run)"
    if hasattr(result, "pooled") and len(result.tasks) > 1:
        note += "; Holm p: adjusted across the tasks; suite: the answer over every task"
    return note


def contrast_lines(result: LogAnalysis, alpha: float) -> list[str]:
    """The task-clustered test, held at the exact sign-flip test of the tasks' leans, with
    the chi-square p beside it and, with few tasks, what they can show (several tasks)."""
    by_task, exact = result.by_task, result.by_task_exact
    pvalue, held = result.by_task_pvalue or (by_task.pvalue, False)
    line = (
        f"by task   {CONTRAST}; two-sided clustered McNemar test, task as cluster "
        f"({by_task.clusters:,} tasks)"
        + (", held at the exact sign-flip test's p, " if held else ": ")
        + format_p_equals(pvalue, alpha=alpha)
    )
    if held:
        chi2 = format_p_equals(by_task.pvalue, by_task.log10_pvalue, alpha=alpha)
        line += f" (its chi-square reference gives {chi2})"
    elif by_task.clusters < _FEW_CLUSTERS:
        line += (
            f"; with {by_task.clusters} tasks its chi-square reference is a rough "
            "approximation (it improves with the number of clusters)"
        )
    lines = [line]
    few = few_clusters_caveat(exact.nonzero_units, alpha, "task") if exact is not None else None
    if few:
        lines.append(f"          {few}")
    return lines


def report_items(result: LogAnalysis | LogScores, alpha: float) -> list[str]:
    """The suite's answer and the task-clustered test shown for contrast, as the items of a
    report's decision (Markdown, HTML): the text report's "answer" and "by task" lines, each
    line with its continuation; empty for one task. The answer says the task-clustered test
    is shown for contrast: these items show it."""
    if hasattr(result, "by_task_exact"):  # pass/fail
        if len(result.tasks) < 2 or result.by_task is None:
            return [line.removeprefix("answer").strip() for line in answer_line(result, alpha)]
        lines = [*answer_line(result, alpha), *contrast_lines(result, alpha)]
    else:
        answer, contrast = scores_suite_lines(result, alpha)
        lines = [*answer, *contrast]
    items: list[str] = []
    for line in lines:
        if line.startswith(" "):  # a continuation of the line above: a sentence of its own
            items[-1] += (" " if items[-1].endswith(".") else ". ") + line.strip()
        elif line.startswith("by task"):
            items.append("By task: " + line.removeprefix("by task").strip())
        else:
            items.append(line.removeprefix("answer").strip())
    return items


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
    """The JSON's "suite" object, in the decision: "method" (the code of
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


def scores_suite_lines(result: LogScores, alpha: float = 0.05) -> tuple[list[str], list[str]]:
    """Logs compared as scores over several tasks: the line that says which comparison answers
    (before the pooled comparison), and the task-clustered one, shown for contrast (after it);
    both empty for one task."""
    contrast = result.by_task
    if contrast is None:
        return [], []
    pooled = result.pooled
    k = len(result.tasks)
    over = (
        f"all {plural(pooled.clusters, 'question')} ({plural(pooled.n, 'sample')}) of the "
        f"{plural(k, 'task')}, each question a cluster of its repeats within its task"
        if pooled.clusters is not None
        else f"all {plural(pooled.n, 'question')} of the {plural(k, 'task')}, each counted once"
    )
    answer = [
        f"answer    over {over}: the comparison below, stratified by task (its sign flip flips "
        "each question alone, so the tasks add nothing to its strata), whose p answers the "
        "question asked. The tests by task answer each task alone (Holm-adjusted across "
        "tasks); the task-clustered comparison is shown for contrast"
    ]
    test = contrast.permutation
    if test is not None:
        p = permutation_p(test, alpha)
        method = f"sign-flip permutation test, task as cluster ({plural(k, 'task')}), {p}"
    else:
        t = contrast.t_test
        shown = "t undefined" if t.pvalue is None else format_p_equals(t.pvalue, alpha=alpha)
        method = f"paired t test, task as cluster ({plural(k, 'task')}), {shown}"
    lines = [f"by task   {CONTRAST}; {method}"]
    leaning = 0 if test is None else test.nonzero_units
    smallest = smallest_pvalue(leaning, "doubling")
    if leaning and smallest > alpha:  # a power of two: exact at a tie
        lines.append(
            f"          With only {plural(leaning, 'task')} leaning either way it cannot give "
            f"p ≤ {alpha:g}: the exact sign flip of the tasks cannot go below 2^(1 − "
            f"{leaning:,}) = {smallest:.4g}"
        )
    return answer, lines


def scores_suite_payload(result: LogScores) -> dict[str, object] | None:
    """The JSON's "suite" object for logs compared as scores (None for one task): "method",
    "tasks", "clusters" and "contrast", as :func:`suite_payload`."""
    if result.by_task is None:
        return None
    return {
        "method": suite_method(len(result.tasks), result.pooled.clusters is not None),
        "tasks": len(result.tasks),
        "clusters": None if result.pooled.clusters is None else "question",
        "contrast": {"key": "scores_by_task", "asks": CONTRAST},
    }


def scores_gate_clause(result: LogScores) -> str:
    """What a gate on scores decided by, after its verdict, for several tasks ("" for one)."""
    if result.by_task is None:
        return ""
    each = "" if result.pooled.clusters is None else ", each a cluster of its repeats"
    return (
        f"; decided over every question of the {plural(len(result.tasks), 'task')}{each}, "
        "stratified by task (the suite's answer)"
    )
