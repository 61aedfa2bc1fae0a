"""The report of two compared logs as plain lines, shared by the command line and the page.

User text in it (task, system and file names) is plain text: callers print it, or show it as
text, never as Markdown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.formatting import format_p_equals, format_points, plural
from calculator.report.scores import sign_flip_p

if TYPE_CHECKING:
    from calculator.logs.analysis import LogAnalysis, TaskAnalysis
    from calculator.logs.pairing import PairedLogs

__all__ = ["input_lines", "report_lines"]

_LISTED_TASKS = 60  # task lines printed in the text report before "... more"
_FEW_CLUSTERS = 10  # below this many tasks, the task-clustered test's reference is rough


def report_lines(result: LogAnalysis, *, alpha: float = 0.05) -> list[str]:
    """The comparison of two logs in plain lines: what was compared (format, metric and why,
    filter, notes), a line per task, the pooled table, the task-clustered test and the pooled
    analysis (or, with repeats, why the per-case tests are not reported)."""
    paired = result.paired
    name_a, name_b = paired.names
    return input_lines(paired) + _report_tail(result, name_a, name_b, alpha)


def input_lines(paired: PairedLogs) -> list[str]:
    """What was compared: the logs, the metric and why (with the others), the threshold, the
    filter, the tasks only one log holds, the readers' notes, and which analysis was done."""
    name_a, name_b = paired.names
    choice = paired.metric
    lines = [
        f"input     {paired.format} logs: {name_a} = {', '.join(paired.sources[0][:3])}"
        + (" ..." if len(paired.sources[0]) > 3 else "")
        + f"; {name_b} = {', '.join(paired.sources[1][:3])}"
        + (" ..." if len(paired.sources[1]) > 3 else ""),
        f"metric    {choice.metric} ({choice.reason})"
        + (
            f"; also logged: {', '.join(choice.others[:8])}; choose with --metric"
            if choice.others
            else ""
        ),
    ]
    if paired.threshold is not None:
        lines.append(f"          pass when the value is at least {paired.threshold:g}")
    if paired.filter is not None:
        lines.append(f"filter    {paired.filter}")
    for side, tasks in zip(paired.names, paired.unpaired_tasks, strict=True):
        if tasks:
            lines.append(
                f"  ! {plural(len(tasks), 'task')} only in {side}'s log, left out: "
                f"{', '.join(tasks[:5])}"
            )
    lines += [f"  ! {note}" for note in paired.notes]
    lines.append(_analysed_line(paired))
    lines.append("")
    return lines


def _analysed_line(paired: PairedLogs) -> str:
    """Which analysis was done: McNemar's test of pass/fail outcomes, or the mean scores."""
    if paired.scores:
        return (
            f"analysed  as scores ({paired.metric.metric} holds values other than 0 and 1): the "
            "mean difference; --threshold X cuts them into pass/fail for McNemar's test instead"
        )
    return "analysed  as pass/fail outcomes: McNemar's test"


def _report_tail(result: LogAnalysis, name_a: str, name_b: str, alpha: float) -> list[str]:
    lines: list[str] = []
    for task in result.tasks[:_LISTED_TASKS]:
        lines += _task_lines(task, name_a, name_b, alpha, len(result.tasks) > 1)
    if len(result.tasks) > _LISTED_TASKS:
        lines.append(f"... ({len(result.tasks) - _LISTED_TASKS:,} more tasks; --json lists all)")
    t = result.pooled.table
    lines += [
        "",
        f"pooled    {plural(len(result.tasks), 'task')}: both pass {t.a:,}, only {name_a} {t.b:,}, "
        f"only {name_b} {t.c:,}, both fail {t.d:,}",
    ]
    if result.by_task is not None:
        lines.append(
            f"by task   clustered McNemar test, task as cluster ({result.by_task.clusters:,} "
            f"tasks): "
            + format_p_equals(result.by_task.pvalue, result.by_task.log10_pvalue, alpha=alpha)
            + (
                f"; with {result.by_task.clusters} tasks its chi-square reference is a rough "
                "approximation (it improves with the number of clusters)"
                if result.by_task.clusters < _FEW_CLUSTERS
                else ""
            )
        )
    if result.repeats:
        lines.append(
            "          the cases are repeated samples of each question: the per-case tests, "
            "which would count them as independent, are not reported; see the tests by question"
        )
    else:
        lines.append(result.pooled.report)
    return lines


def _task_lines(
    task: TaskAnalysis, name_a: str, name_b: str, alpha: float, several: bool
) -> list[str]:
    t = task.analysis.table
    cases = task.paired.cases
    line = (
        f"task {task.task}: both pass {t.a:,}, only {name_a} {t.b:,}, only {name_b} {t.c:,}, "
        f"both fail {t.d:,}; {task.test} {format_p_equals(task.pvalue, alpha=alpha)}"
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
        q = task.by_question
        lines.append(
            f"          by question ({q.clusters:,} questions, their repeats paired): clustered "
            f"McNemar test {format_p_equals(q.pvalue, q.log10_pvalue, alpha=alpha)}"
        )
    if task.shares is not None:
        s = task.shares
        lines.append(
            f"          per-question pass share, {name_a} minus {name_b}: mean "
            f"{format_points(s.statistic)} points over {plural(s.units, 'question')}, exact paired "
            f"sign-flip permutation test{f' ({s.note})' if s.note else ''} "
            f"{sign_flip_p(s, alpha)}"
        )
    elif task.shares_grid is not None:
        lines.append(
            "          per-question pass share: its sign-flip test is left out, the shares lying "
            f"on a grid of 1/{task.shares_grid:,} (the least common multiple of the questions' "
            "numbers of scored repeats, which errored samples make differ): too fine for its "
            "exact distribution in the time allowed. The clustered McNemar test is the task's "
            "test; with every question scored on the same number of repeats (the errored "
            "samples rerun), the grid is coarse"
        )
    return lines
