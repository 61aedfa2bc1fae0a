"""``cases A B`` when A and B are evaluation-harness logs (lm-eval, Inspect, HELM) or folders.

The logs are read by :mod:`calculator.logs` and analysed task by task: a table and a test per
task, Holm's adjustment across tasks, and the suite's answer over every question, each counted
once (the task-stratified exact test, the summed table's: :mod:`calculator.stratified`), which
the question and the gate are asked of; the clustered McNemar test with the task as the
cluster is shown for contrast; with repeats (epochs, train trials), the tests by question.
Text words and JSON keys live here; the figures come from the core.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from calculator.cli.arguments import UsageError
from calculator.cli.cases_flips import (
    add_flips_output,
    flips_of_logs,
    markdown_output,
)
from calculator.cli.cases_scores import comparison_lines, score_options, scores_gate_line
from calculator.cli.output import print_json, print_lines
from calculator.cli.question import question_arguments
from calculator.cli.shared import ANALYSED_AS_PASS_FAIL, ANALYSED_AS_SCORES, gate_line, read_logs
from calculator.paired_data import of_logs
from calculator.report import words
from calculator.report.decision_lines import log_comparison_lines
from calculator.report.formatting import format_p_equals, plural
from calculator.report.gate import gate_payload, scores_gate_payload
from calculator.report.suite import (
    scores_gate_clause,
    scores_suite_lines,
    scores_suite_payload,
    suite_gate_clause,
    suite_gate_test,
    suite_payload,
)
from calculator.workflow import LogChoice, compare, pair_two_logs

if TYPE_CHECKING:
    from calculator.logs import LogAnalysis, LogTable
    from calculator.logs.pairing import PairedLogs
    from calculator.logs.scores import LogScores

_LISTED_TASKS = 60  # task lines printed in the text report before "... more"

__all__ = ["is_log_input", "run_logs", "run_log_tables", "build_log_payload"]


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


def run_logs(args: argparse.Namespace) -> int:
    """Read, pair and analyse two logs; print the report. Returns the exit status.

    The question (``--margin``, ``--alternative``) is read once the pairing shows whether the
    metric is pass/fail or graded: a graded metric's margin is in its own units.
    """
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
    logs = read_logs(
        [args.file, args.file_b],
        args.split,
        models=getattr(args, "models", None),
        names=getattr(args, "names", None),
    )
    return run_log_tables(args, logs)


def run_log_tables(args: argparse.Namespace, logs: list[LogTable]) -> int:
    """Pair and analyse two systems' log tables (harness logs, or a long file's systems: the
    same path); print the report. Returns the exit status."""

    choice = LogChoice(
        metric=args.metric,
        filter=args.filter,
        threshold=args.threshold,
        allow_exclusions=args.allow_exclusions,
        metric_by_task=tuple((getattr(args, "metric_by_task", None) or {}).items()),
        filter_by_task=tuple((getattr(args, "filter_by_task", None) or {}).items()),
    )
    paired = pair_two_logs(*logs, choice)
    if paired.scores:
        return run_log_scores(args, paired)
    result = compare(of_logs(paired), question_arguments(args)).logs
    counts = result.tasks_better
    flips = flips_of_logs(args, paired)  # None unless asked for
    if markdown_output(args, result, flips):
        pass
    elif args.json:
        document = build_log_payload(result)
        if counts:
            document["tasks_better"] = [count.to_dict() for count in counts]
        if args.fail_if_worse:
            gate = gate_payload(result.pooled, args.alpha)
            # The test that decided, and over what: with several tasks, the suite's answer.
            gate["test"] = suite_gate_test(result, gate["test"])
            gate["sentence"] += suite_gate_clause(result)  # as the text's gate line
            document["gate"] = gate
        add_flips_output(args, flips, document=document)
        print_json(document)
    else:
        lines = log_comparison_lines(result, alpha=args.alpha)
        if args.fail_if_worse:
            lines.append(gate_line(result.pooled, args.alpha) + suite_gate_clause(result))
        add_flips_output(args, flips, lines=lines)
        print_lines(lines)
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
            "table": t.to_dict(),
            "note": "repeated samples of each question: the per-case tests of the pooled table "
            "would treat them as independent and are not reported; the decision counts the "
            "questions as clusters; see each task's tests by question",
            "decision": words.payload(pooled.decision),
        }
    else:
        payload = words.payload(pooled)
    if len(result.tasks) > 1:  # which test decided: the task-stratified one, over every task
        payload["decision"]["suite"] = suite_payload(result)
    payload["analysed_as"] = ANALYSED_AS_PASS_FAIL
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
    if result.by_task_exact is not None:
        pvalue, held = result.by_task_pvalue
        payload["clustered_by_task"]["sign_flip"] = result.by_task_exact.to_dict()
        payload["clustered_by_task"]["held_pvalue"] = pvalue
        payload["clustered_by_task"]["held"] = held
    payload["multiplicity"] = {"method": "holm", "family": len(result.tasks)}
    return payload


def run_log_scores(args: argparse.Namespace, paired: PairedLogs) -> int:
    """Compare two logs paired on a graded metric as scores; print the report or JSON."""
    from calculator.release import scores_gate_fails

    result = compare(of_logs(paired), score_options(args)).log_scores
    flips = flips_of_logs(args, paired, better=result.pooled.better)  # largest differences
    if markdown_output(args, result, flips):
        pass
    elif args.json:
        document = build_log_scores_payload(result)
        if args.fail_if_worse:
            gate = scores_gate_payload(result.pooled, args.alpha)
            gate["sentence"] += scores_gate_clause(result)  # as the text's gate line
            document["gate"] = gate
        add_flips_output(args, flips, document=document)
        print_json(document)
    else:
        lines = _scores_text(result, args.alpha)
        if args.fail_if_worse:
            lines.append(scores_gate_line(result.pooled, args.alpha) + scores_gate_clause(result))
        add_flips_output(args, flips, lines=lines)
        print_lines(lines)
    if args.fail_if_worse and scores_gate_fails(result.pooled, args.alpha):
        return 1
    return 0


def build_log_scores_payload(result: LogScores) -> dict[str, object]:
    """The JSON document of logs compared as scores: "analysed_as", "input", "tasks" (each with
    its own "scores"), "scores" (pooled over the tasks, as a per-case file's) and "pooled_by"."""
    from calculator.logs.analysis import input_summary

    document = {
        "analysed_as": ANALYSED_AS_SCORES,
        "input": {**input_summary(result.paired), **_counts(result)},
        "tasks": [
            {**task.to_dict(), "scores": words.payload(task.comparison)} for task in result.tasks
        ],
        "scores": words.payload(result.pooled),
        "pooled_by": _pooled_by(result),
        "multiplicity": {"method": "holm", "family": len(result.tasks)},
    }
    if result.by_task is not None:  # several tasks: the suite's answer, and the contrast
        document["suite"] = scores_suite_payload(result)
        document["scores_by_task"] = words.payload(result.by_task)
    return document


def _pooled_by(result: LogScores) -> str | None:
    """What the pooled comparison resamples and flips: "question" (each question's repeats
    together, within its task) or None (each case, a question, alone). With several tasks the
    pooled comparison is the suite's; the one by task is shown for contrast."""
    if len(result.tasks) > 1:
        return None if result.pooled.clusters is None else "question"
    return "question" if result.repeats else None


def _scores_text(result: LogScores, alpha: float) -> list[str]:
    """The logs, a line per task (mean difference and its test), then the pooled comparison."""
    from calculator.logs.scores import headline_pvalue
    from calculator.report.figures import format_score
    from calculator.report.logs import (
        COMMAND_LINE,
        direction_line,
        input_lines,
        question_means_note,
    )
    from calculator.report.scores import permutation_p

    several = len(result.tasks) > 1
    lines = input_lines(result.paired)
    direction = direction_line(result.paired.stated_better, result.pooled.better)
    lines += [direction] if direction else []
    for task in result.tasks[:_LISTED_TASKS]:
        c = task.comparison
        test = "sign-flip permutation test" if c.permutation is not None else "paired t test"
        unit = f" ({plural(c.clusters, 'question')})" if c.clusters is not None else ""
        p = format_p_equals(headline_pvalue(c), alpha=alpha)
        if c.permutation is not None and c.permutation.at_floor:
            p = permutation_p(c.permutation)  # a Monte Carlo p at its floor is a bound
        if task.by_question is not None:  # the questions at their means: its own line
            lines.append(question_means_note(task, alpha))
            continue
        line = (
            f"task {task.task}: {plural(c.n, 'case')}{unit}, mean difference "
            f"{c.names[0]} − {c.names[1]} "
            f"{format_score(c.statistic)}, {test} {p}"
        )
        if several and task.holm_pvalue is not None:
            line += f", Holm-adjusted across tasks {format_p_equals(task.holm_pvalue, alpha=alpha)}"
        lines.append(line)
    if len(result.tasks) > _LISTED_TASKS:
        more = plural(len(result.tasks) - _LISTED_TASKS, "more task")
        lines.append(f"... ({more}; {COMMAND_LINE.more_tasks})")
    by = _pooled_by(result)
    clusters = None
    if by == "question" and result.pooled.clusters is None:  # one task of question means
        clusters = (
            "none: each case is a question at its mean score over every repeat; the task's "
            "test by question, above, answers"
        )
    elif by is not None:
        clusters = (
            f"{plural(result.pooled.clusters, by)} (each {by}'s cases resampled and sign-flipped "
            "together)"
        )
    answer, contrast = scores_suite_lines(result, alpha)
    lines += ["", f"pooled    {plural(len(result.tasks), 'task')}", *answer]
    return lines + comparison_lines(result.pooled, clusters) + contrast


def _counts(result: LogAnalysis | LogScores) -> dict[str, object]:
    """Rows read, used and excluded by reason, summed over the tasks, and each log's samples
    (given, used, repeats no repeat of the other log pairs)."""
    excluded: dict[str, int] = {}
    samples = {key: {"A": 0, "B": 0} for key in ("given", "used", "repeats_unpaired")}
    for task in result.tasks:
        for reason, count in task.paired.cases.excluded.items():
            excluded[reason] = excluded.get(reason, 0) + count
        for key, sides in task.paired.samples().items():
            if key in samples:
                for side in "AB":
                    samples[key][side] += sides[side]
    return {
        "samples": samples,
        "rows_read": sum(task.paired.cases.rows_read for task in result.tasks),
        "rows_used": sum(task.paired.cases.rows_used for task in result.tasks),
        "cases_used": sum(task.paired.cases.n for task in result.tasks),
        "excluded": excluded,
    }
