"""The report of two compared logs as plain lines, shared by the command line and the page.

User text in it (task, system and file names) is plain text: callers print it, or show it as
text, never as Markdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from calculator.report.caveats import few_clusters_caveat
from calculator.report.formatting import format_p_equals, format_points, plural
from calculator.report.scores import permutation_p
from calculator.report.suite import answer_line, contrast_lines, task_test_words
from calculator.report.words import text
from calculator.scores.signflip import SignFlipTest

if TYPE_CHECKING:
    from calculator.logs.analysis import LogAnalysis, TaskAnalysis
    from calculator.logs.pairing import PairedLogs
    from calculator.logs.scores import TaskScores
    from calculator.logs.share_permutation import LabelPermutationTest

__all__ = [
    "COMMAND_LINE",
    "Controls",
    "direction_line",
    "filter_lines",
    "input_lines",
    "report_lines",
    "task_test_words",
]

_LISTED_TASKS = 60  # task lines printed in the text report before "... more"

# A task's test by its code (calculator.logs.analysis.TASK_TESTS). Every one is two-sided,
# whatever --alternative the pooled decision answers.


@dataclass(frozen=True)
class Controls:
    """How a reader changes what the report compared, in the words of the surface it is read
    on: the command line's options (:data:`COMMAND_LINE`) or the page's boxes, so that neither
    names the other's controls.

    Attributes
    ----------
    metric : str
        How another metric is chosen, after "also logged: ...".
    threshold : str
        How graded values are cut into pass/fail instead of compared by their mean.
    more_tasks : str
        Where the tasks past the listed ones are, after "... (N more tasks".
    better : str
        The control that says which scores are better.
    """

    metric: str = "choose with --metric"
    threshold: str = "--threshold X cuts them into pass/fail for McNemar's test instead"
    more_tasks: str = "--json lists all"
    better: str = "--better"


#: The command line's controls.
COMMAND_LINE = Controls()


def report_lines(
    result: LogAnalysis, *, alpha: float = 0.05, controls: Controls = COMMAND_LINE
) -> list[str]:
    """The comparison of two logs in plain lines: what was compared (format, metric and why,
    filter, notes), a line per task, the pooled table, the task-clustered test and the pooled
    analysis (or, with repeats, why the per-case tests are not reported)."""
    paired = result.paired
    name_a, name_b = paired.names
    return input_lines(paired, controls=controls) + _report_tail(
        result, name_a, name_b, alpha, controls
    )


def input_lines(paired: PairedLogs, *, controls: Controls = COMMAND_LINE) -> list[str]:
    """What was compared: the logs, the metric and why (with the others, and how to choose
    another in `controls`), the threshold, the filter, the tasks only one log holds, the
    readers' notes, and which analysis was done."""
    name_a, name_b = paired.names
    choice = paired.metric
    lines = [
        f"input     {paired.format} logs: {name_a} = {', '.join(paired.sources[0][:3])}"
        + (" ..." if len(paired.sources[0]) > 3 else "")
        + f"; {name_b} = {', '.join(paired.sources[1][:3])}"
        + (" ..." if len(paired.sources[1]) > 3 else ""),
        f"metric    {_metric_words(paired)}"
        + (
            f"; also logged: {', '.join(choice.others[:8])}; {controls.metric}"
            if choice.others
            else ""
        ),
    ]
    if paired.threshold is not None:
        lines.append(f"          pass when the value is at least {paired.threshold:g}")
    lines += filter_lines(paired.task_filters, paired.filter)
    lines += [
        f"          {task}: filter {paired.task_filters[task]}, {reason}"
        for task, reason in sorted(paired.filter_reasons.items())
        if reason.startswith("the task's first filter")
    ]
    for side, tasks in zip(paired.names, paired.unpaired_tasks, strict=True):
        if tasks:
            lines.append(
                f"  ! {plural(len(tasks), 'task')} only in {side}'s log, left out: "
                f"{', '.join(tasks[:5])}"
            )
    lines += [f"  ! {note}" for note in paired.notes]
    lines.append(_analysed_line(paired, controls))
    lines.append("")
    return lines


def _metric_words(paired: PairedLogs) -> str:
    """The metric and why; tasks compared on different metrics (issue #32) each with theirs."""
    choice = paired.metric
    if choice.metric is not None or not paired.task_metrics:
        return f"{choice.metric} ({choice.reason})"
    groups: dict[tuple[str, str], list[str]] = {}
    for task, chosen in sorted(paired.task_metrics.items()):
        groups.setdefault((str(chosen.metric), chosen.reason), []).append(task)
    listed = "; ".join(
        f"{metric} ({', '.join(tasks[:3])}{', ...' if len(tasks) > 3 else ''}: {reason})"
        for (metric, reason), tasks in groups.items()
    )
    return f"by task: {listed}"


def direction_line(
    stated: str | None, used: str, *, controls: Controls = COMMAND_LINE
) -> str | None:
    """The metric's direction when the logs state it (lm-eval's results file): taken, or
    overridden by the better control (said, never silent); None when the logs say nothing.

    >>> direction_line("lower", "lower")
    "better    lower is better, as lm-eval's results file says"
    """
    if stated is None:
        return None
    if stated == used:
        return f"better    {stated} is better, as lm-eval's results file says"
    return (
        f"better    {used} taken as better, as {controls.better} asks, though lm-eval's results "
        f"file says {stated} is better"
    )


def filter_lines(task_filters: dict[str, str], asked: str | None) -> list[str]:
    """The lm-eval filter each task was analysed under: one line when every task used one
    filter; else the filters with their tasks, and a warning when a task does not log the
    filter asked for (it is analysed under its only filter, so the pool mixes filters)."""
    used: dict[str, list[str]] = {}
    for task, name in sorted(task_filters.items()):
        used.setdefault(name, []).append(task)
    if len(used) <= 1:
        only = next(iter(used), asked)
        return [] if only is None else [f"filter    {only}"]
    listed = "; ".join(
        f"{name} ({', '.join(tasks[:3])}{', ...' if len(tasks) > 3 else ''})"
        for name, tasks in used.items()
    )
    lines = [f"filter    by task: {listed}"]
    off = sorted(task for task, name in task_filters.items() if asked is not None and name != asked)
    if off:
        lines.append(
            f"  ! the filter asked for, {asked!r}, is not logged for {plural(len(off), 'task')} "
            f"({', '.join(off[:5])}{' ...' if len(off) > 5 else ''}), analysed "
            f"{'under its' if len(off) == 1 else 'each under its'} only filter: the pooled "
            f"result is not of {asked!r} alone"
        )
    return lines


def _analysed_line(paired: PairedLogs, controls: Controls) -> str:
    """Which analysis was done: McNemar's test of pass/fail outcomes, or the mean scores."""
    if paired.scores:
        return (
            f"analysed  as scores ({paired.metric.metric} holds values other than 0 and 1): the "
            f"mean difference; {controls.threshold}"
        )
    return "analysed  as pass/fail outcomes: McNemar's test"


# The pass-share test by its method: the sign flip with as many repeats of each question for
# A and B, the label permutation otherwise (calculator.logs.share_permutation).
_SHARE_TESTS = {
    "exact-convolution": "exact paired sign-flip permutation test",
    "exact-label-permutation": "exact permutation test of the A and B labels within each "
    "question (A and B have different numbers of repeats, so a sign flip would not be exact)",
    "normal-label-permutation": "permutation test of the A and B labels within each question "
    "by its normal approximation (A and B have different numbers of repeats, so a sign flip "
    "would not be exact; too many questions for the exact distribution)",
    "normal-label-permutation-scores": "permutation test of the A and B labels within each "
    "question's scores, by its normal approximation over the questions (A and B have different "
    "numbers of repeats, so a sign flip would not be exact)",
}


def question_means_note(task: TaskScores, alpha: float = 0.05) -> str:
    """A task of graded scores with different numbers of repeats in A and B: its cases are
    the questions at their mean over every repeat, and the test by question answers."""
    counts, names = task.paired.samples(), task.comparison.names
    used, given = counts["used"], counts["given"]
    parts = [
        f"{used[side]:,} of {name}'s {given[side]:,}"
        if used[side] != given[side]
        else f"all {used[side]:,} of {name}'s"
        for side, name in zip("AB", names, strict=True)
    ]
    test = task.by_question
    return (
        f"task {task.task}: {plural(test.units, 'question')}, each at its mean score over "
        f"{parts[0]} and {parts[1]} samples; {share_test_words(test.method)}, "
        f"{_share_p(test, alpha)} (the test by question, which answers)"
    )


def share_test_words(method: str) -> str:
    """A test by question of repeats (pass shares, or scores' label permutation) in words."""
    return _SHARE_TESTS.get(method, _SHARE_TESTS["exact-convolution"])


def _report_tail(
    result: LogAnalysis, name_a: str, name_b: str, alpha: float, controls: Controls
) -> list[str]:
    lines: list[str] = []
    for task in result.tasks[:_LISTED_TASKS]:
        lines += _task_lines(task, name_a, name_b, alpha, len(result.tasks) > 1)
    if len(result.tasks) > _LISTED_TASKS:
        more = plural(len(result.tasks) - _LISTED_TASKS, "more task")
        lines.append(f"... ({more}; {controls.more_tasks})")
    t = result.pooled.table
    lines += [
        "",
        f"pooled    {plural(len(result.tasks), 'task')}: both pass {t.a:,}, only {name_a} {t.b:,}, "
        f"only {name_b} {t.c:,}, both fail {t.d:,}",
    ]
    lines += answer_line(result, alpha)
    if result.by_task is not None:
        lines += contrast_lines(result, alpha)
    if result.repeats:
        lines += [
            "          the cases are repeated samples of each question: the per-case tests, "
            "which would count them as independent, are not reported; the answer below counts "
            "the questions as clusters (as a group column of a per-case file does), and the "
            "tests by question are above",
            f"          with repeats, the counts pair each repeat of {name_a} with the repeat of "
            f"the same number of {name_b}, an arbitrary pairing of independent samples: only a "
            f"question's lean (only {name_a} minus only {name_b}) is the same under every "
            "pairing; the tests by question rest on the leans alone, the answer below on the "
            "counts too",
            f"          {text(result.pooled.decision)}",
        ]
    else:
        lines += text(result.pooled).split("\n")  # a paragraph a line, each escaped alone
    return lines


def _task_lines(
    task: TaskAnalysis, name_a: str, name_b: str, alpha: float, several: bool
) -> list[str]:
    t = task.analysis.table
    cases = task.paired.cases
    line = (
        f"task {task.task}: both pass {t.a:,}, only {name_a} {t.b:,}, only {name_b} {t.c:,}, "
        f"both fail {t.d:,}; {task_test_words(task.test)}, "
        f"{format_p_equals(task.pvalue, alpha=alpha)}"
    )
    if several and task.holm_pvalue is not None:
        line += f", Holm-adjusted across tasks {format_p_equals(task.holm_pvalue, alpha=alpha)}"
    lines = [line]
    excluded = {k: v for k, v in cases.excluded.items() if v}
    if excluded:
        lines.append(
            "          excluded: "
            + ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in excluded.items())
        )
    only_a, only_b = task.paired.repeats_unpaired
    if only_a or only_b:
        lines.append(
            f"          repeats paired by number; {only_a:,} of {name_a}'s and {only_b:,} of "
            f"{name_b}'s samples have no repeat of that number in the other log: they count in "
            "the pass shares only"
        )
    if task.by_question is not None:
        q, exact = task.by_question, task.by_question_exact
        line = (
            f"          by question ({plural(q.clusters, 'question')}, their repeats paired): "
            f"clustered McNemar test {format_p_equals(q.pvalue, q.log10_pvalue, alpha=alpha)}"
        )
        if exact is not None:
            line += (
                f"; exact sign-flip test of the questions' leans (only {name_a} minus only "
                f"{name_b}), which it approximates, {format_p_equals(exact.pvalue, alpha=alpha)}"
            )
        lines.append(line)
        few = few_clusters_caveat(exact.nonzero_units, alpha) if exact is not None else None
        if few:
            lines.append(f"          {few}")
    if task.shares is not None:
        s = task.shares
        test = _SHARE_TESTS.get(s.method, _SHARE_TESTS["exact-convolution"])
        lines.append(
            f"          per-question pass share, {name_a} minus {name_b}: mean "
            f"{format_points(s.statistic)} points over {plural(s.units, 'question')}, "
            f"{test}{f' ({s.note})' if s.note else ''}, {_share_p(s, alpha)}"
        )
    elif task.shares_grid is not None:
        lines.append(
            "          per-question pass share: its exact test is left out, the shares lying "
            f"on a grid of 1/{task.shares_grid:,}{' or finer' * task.paired.shares_too_fine}"
            " (the least common multiple of the questions' "
            "numbers of scored repeats, which errored samples make differ): too fine for its "
            "exact distribution in the time allowed. The clustered McNemar test is the task's "
            "test; with every question scored on the same number of repeats (the errored "
            "samples rerun), the grid is coarse"
        )
    return lines


def _share_p(shares: SignFlipTest | LabelPermutationTest, alpha: float) -> str:
    """The pass-share test's p, a bound where it is one, the sign flip's and the label
    permutation's alike (:func:`calculator.report.scores.permutation_p`)."""
    return permutation_p(shares, alpha)
