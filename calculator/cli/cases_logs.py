"""``cases A B`` when A and B are evaluation-harness logs (lm-eval, Inspect, HELM) or folders.

The logs are read by :mod:`calculator.logs` and analysed task by task: a table and a test per
task, the pooled table, with several tasks the clustered McNemar test with the task as the
cluster and Holm's adjustment across tasks; with repeats (epochs, train trials), the tests by
question. Text words and JSON keys live here; the figures come from the core.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from calculator.cli.arguments import UsageError
from calculator.cli.output import print_json, print_lines
from calculator.formatting import format_p_equals

if TYPE_CHECKING:
    from calculator.logs import LogAnalysis

__all__ = ["is_log_input", "run_logs", "build_log_payload"]

_LISTED_TASKS = 60  # task lines printed in the text report before "... more"
_FEW_CLUSTERS = 10  # below this many tasks, the task-clustered test's reference is rough


def is_log_input(args: argparse.Namespace) -> bool:
    """Whether the files given are harness logs or folders (then the logs path runs).

    Files given with column options (``--id``, ``--a``...) are read as per-case files, as
    before logs were read directly; folders always as logs.
    """
    from calculator.logs import log_format

    paths = [p for p in (args.file, args.file_b) if p is not None]
    columns = any(getattr(args, n) for n in ("id_column", "a_column", "b_column", "group_column"))
    if columns and not any(Path(p).is_dir() for p in paths):
        return False  # columns named: the files are read as per-case files, as before
    if args.file_b is not None and any(Path(p).is_dir() for p in paths):
        return True  # two folders, or a folder and a file: read as logs, or said why not
    return any((Path(p).is_file() or Path(p).is_dir()) and log_format(p) is not None for p in paths)


def run_logs(args: argparse.Namespace, question: dict) -> int:
    """Read, pair and analyse two logs; print the report. Returns the exit status."""
    from calculator.logs import analyze_logs, pair_logs, read_log

    if args.file_b is None:
        raise UsageError(
            f"{args.file}: an evaluation log holds one system's results; give B's log (a file or "
            "folder of the same harness) as the second argument"
        )
    given = [
        name
        for name in ("id_column", "a_column", "b_column", "group_column")
        if getattr(args, name)
    ]
    if given:
        option = "--" + given[0].split("_")[0]
        raise UsageError(
            f"{option} names a column of a per-case file; harness logs are paired by their own "
            "case ids: choose what is compared with --metric (and --filter)"
        )
    logs = [read_log(path) for path in (args.file, args.file_b)]
    paired = pair_logs(
        *logs,
        metric=args.metric,
        filter=args.filter,
        threshold=args.threshold,
        allow_exclusions=args.allow_exclusions,
    )
    result = analyze_logs(paired, alpha=args.alpha, **question)
    if args.fail_if_worse and (result.repeats or len(result.tasks) > 1):
        raise UsageError(
            "--fail-if-worse gates on one task without repeats; with several tasks or repeated "
            "samples its per-case test would treat dependent cases as independent"
        )
    if args.json:
        print_json(build_log_payload(result))
    else:
        print_lines(_text(result, args.alpha))
    from calculator.release import gate_fails

    if args.fail_if_worse and gate_fails(result.pooled):
        return 1
    return 0


def build_log_payload(result: LogAnalysis) -> dict[str, object]:
    """The JSON document: the pooled analysis (without repeats), "input", "tasks", "table"."""
    pooled = result.pooled
    if result.repeats:
        t = pooled.table
        payload: dict[str, object] = {
            "table": {"a": t.a, "b": t.b, "c": t.c, "d": t.d, "n": t.n},
            "note": "repeated samples of each question: the per-case tests of the pooled table "
            "would treat them as independent and are not reported; see each task's tests by "
            "question",
        }
    else:
        payload = pooled.to_dict()
    payload["input"] = {**result.input_summary(), **_counts(result)}
    several = len(result.tasks) > 1
    payload["discordant_cases"] = {
        side: [
            f"{task.task}/{case}" if several else str(case)
            for task in result.tasks
            for case in (
                task.paired.cases.only_a() if side == "only_A" else task.paired.cases.only_b()
            )["case"].astype("str")
        ]
        for side in ("only_A", "only_B")
    }
    payload["tasks"] = [task.to_dict() for task in result.tasks]
    payload["clustered_by_task"] = None if result.by_task is None else result.by_task.to_dict()
    payload["multiplicity"] = {"method": "holm", "family": len(result.tasks)}
    return payload


def _counts(result: LogAnalysis) -> dict[str, object]:
    """Rows read, used and excluded by reason, summed over the tasks."""
    excluded: dict[str, int] = {}
    for task in result.tasks:
        for reason, count in task.paired.cases.excluded.items():
            excluded[reason] = excluded.get(reason, 0) + count
    return {
        "rows_read": sum(task.paired.cases.rows_read for task in result.tasks),
        "rows_used": sum(task.paired.cases.rows_used for task in result.tasks),
        "cases_used": sum(task.paired.cases.n for task in result.tasks),
        "excluded": excluded,
    }


def _text(result: LogAnalysis, alpha: float) -> list[str]:
    paired = result.paired
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
                f"  ! {len(tasks)} task(s) only in {side}'s log, left out: {', '.join(tasks[:5])}"
            )
    lines += [f"  ! {note}" for note in paired.notes]
    lines.append("")
    for task in result.tasks[:_LISTED_TASKS]:
        lines += _task_lines(task, name_a, name_b, alpha, len(result.tasks) > 1)
    if len(result.tasks) > _LISTED_TASKS:
        lines.append(f"... ({len(result.tasks) - _LISTED_TASKS:,} more tasks; --json lists all)")
    t = result.pooled.table
    lines += [
        "",
        f"pooled    {len(result.tasks):,} task(s): both pass {t.a:,}, only {name_a} {t.b:,}, "
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


def _task_lines(task, name_a: str, name_b: str, alpha: float, several: bool) -> list[str]:  # noqa: ANN001
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
            f"{s.mean_difference:+.4g} over {s.questions:,} questions, {s.method} "
            f"{format_p_equals(s.pvalue, alpha=alpha)}"
        )
    return lines


def logs_given(args: argparse.Namespace) -> bool:
    """Whether ``compare``'s files are harness logs or folders of them; files given with
    column options are read as per-case files, as before logs were read directly."""
    from calculator.logs import log_format

    paths = args.files
    if any(Path(p).is_dir() for p in paths):
        return True
    if args.id_column or args.system_column or args.outcome_column or args.systems:
        return False
    return any((Path(p).is_file() or Path(p).is_dir()) and log_format(p) is not None for p in paths)


def compare_logs(args: argparse.Namespace) -> int:
    """``compare LOG LOG LOG ...``: the systems' logs through the comparison of k systems."""
    from calculator.cli.compare import build_payload, text_report
    from calculator.logs import read_log
    from calculator.logs.systems import load_log_systems

    if len(args.files) < 3:
        raise UsageError("compare takes three or more systems' logs; for two, use cases A B")
    if args.id_column or args.system_column or args.outcome_column or args.systems:
        raise UsageError(
            "--id, --system, --outcome and --systems name columns of per-case files; harness "
            "logs are joined on their own case ids: choose what is compared with --metric"
        )
    logs = [read_log(path) for path in args.files]
    cases, choice = load_log_systems(
        logs,
        metric=args.metric,
        filter=args.filter,
        threshold=args.threshold,
        allow_exclusions=args.allow_exclusions,
    )
    if cases.n == 0:
        raise ValueError("the logs share no question with a usable outcome in every one")
    result = cases.compare(alpha=args.alpha, adjust=args.adjust, ci_method=args.ci_method)
    if args.json:
        payload = build_payload(cases, result)
        payload["input"].update(
            {"format": logs[0].format, "metric": choice.metric, "metric_reason": choice.reason}
        )
        payload["input"]["filter"] = args.filter
        print_json(payload)
    else:
        others = f"; also logged: {', '.join(choice.others[:8])}" if choice.others else ""
        lines = [f"metric    {choice.metric} ({choice.reason}){others}"]
        print_lines(lines + text_report(cases, result))
    return 0
