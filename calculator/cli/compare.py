"""``python -m calculator compare``: three or more systems on the same cases.

    python -m calculator compare FILE [FILE ...] [--id COL]
        [--system COL --outcome COL | --systems COL,COL,...] [--threshold X]
        [--adjust holm|bonferroni] [--alpha X] [--ci-method M] [--resamples R] [--json]

One file with ``--systems``: a wide file, one outcome column per system. One file with
``--system`` (and ``--outcome``): a long file, one row per case and system. Several files: one per
system, joined on ``--id``, each with its outcome in ``--outcome`` (guessed when omitted). Exit
status 0, or 2 with one line on stderr for unusable input.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from calculator.cli.arguments import (
    UsageError,
    add_log_arguments,
    add_split_argument,
    finite_number,
    level,
)
from calculator.cli.arguments import count as whole_number
from calculator.cli.compare_long import (
    add_long_arguments,
    long_given,
    long_scores_given,
    long_tables,
    refuse_repeats,
)
from calculator.cli.compare_scores import (
    refused_as_usage,
    run_log_scores,
    run_scores,
    scores_given,
    systems_ask,
)
from calculator.cli.output import print_json, print_lines
from calculator.cli.shared import check_paths, issue_lines, read_logs, require_cases_extra
from calculator.compare.cochran import MAX_RESAMPLES
from calculator.errors import CalculatorError
from calculator.intervals import CI_METHODS
from calculator.report.formatting import (
    format_p_equals,
    format_percent,
    format_points,
    method_words,
    plural,
)
from calculator.text import first_of

if TYPE_CHECKING:
    from calculator.cases.systems_result import SystemCases
    from calculator.compare import SystemComparison
    from calculator.logs import LogTable

__all__ = ["add_parser", "run", "build_payload"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``compare`` subcommand to `subparsers`; it runs :func:`run`."""
    parser = subparsers.add_parser(
        "compare",
        help="compare three or more systems on the same cases (Cochran's Q, every pair)",
        description="Read per-case pass/fail outcomes of several systems (a wide file, a long "
        "file, or one file per system), report every row left out and why, and compare the "
        "systems: Cochran's Q, then every pair by the exact McNemar test, adjusted for the "
        "number of pairs.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="per-case results")
    parser.add_argument("--id", dest="id_column", metavar="COL", help="case id column")
    parser.add_argument(
        "--system", dest="system_column", metavar="COL", help="long file: the system column"
    )
    parser.add_argument(
        "--outcome",
        dest="outcome_column",
        metavar="COL",
        help="long file, or one file per system: the outcome column",
    )
    parser.add_argument(
        "--systems",
        metavar="COL,COL,...",
        help="wide file: the outcome columns to compare; long file: the systems to compare",
    )
    parser.add_argument(
        "--threshold",
        type=finite_number("--threshold"),
        metavar="X",
        help="outcomes are scores; a case passes when its score is at least X (without it, "
        "score columns of a wide file are compared by ranks: Friedman's test)",
    )
    parser.add_argument(
        "--better",
        choices=("higher", "lower"),
        default=None,
        help="score columns compared by ranks: which scores are better (higher; lower for error "
        "rates and losses); a column whose name reads lower-is-better (wer, loss, ...) needs it "
        "stated; refused for pass/fail outcomes",
    )
    parser.add_argument(
        "--adjust",
        choices=("holm", "bonferroni"),
        default="holm",
        help="adjustment of the pairwise p-values for the number of pairs (holm)",
    )
    parser.add_argument(
        "--alpha",
        type=level("--alpha"),
        default=0.05,
        metavar="X",
        help="significance level after the adjustment (0.05)",
    )
    parser.add_argument(
        "--ci-method",
        choices=CI_METHODS,
        default="agresti-min",
        help="interval method for each pair's difference (agresti-min)",
    )
    parser.add_argument(
        "--resamples",
        type=whole_number("--resamples", maximum=MAX_RESAMPLES),
        default=9_999,
        metavar="R",
        help="Monte Carlo resamples for Cochran's permutation p when it cannot be computed "
        f"exactly, 0 to {MAX_RESAMPLES:,} (9,999; its smallest value is 1/(R + 1); 0: none)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    add_log_arguments(parser)
    add_split_argument(parser)
    add_long_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``compare`` for parsed `args`; return the exit status.

    Raises
    ------
    CalculatorError, OSError
        For unusable input, with a one-line message (the caller prints it and exits with 2).
    UsageError
        For options that do not fit together, or when pandas or pyarrow is missing.
    """
    require_cases_extra()
    check_paths(args.files)
    if len(args.files) > 1 and args.system_column is not None:
        raise UsageError("--system names a long file's system column; give one file")
    if len(args.files) > 1 and args.systems is not None:
        raise UsageError(
            "with one file per system, the systems are the files; --systems is for one file"
        )
    from calculator.compare.workflow import compare_case_systems, load_case_systems

    if long_given(args):  # --repeat or --task: a long file's systems compared as logs
        return compare_log_tables(*long_tables(args))
    if logs_given(args):
        return compare_logs(args)
    long_scores = long_scores_given(args)  # a long file of scores, no --threshold: by ranks
    if long_scores is not None:
        return compare_log_tables(*long_scores)
    if args.split is not None:
        raise UsageError(f"--split applies to HELM logs; {args.files[0]} is a per-case file")
    _refuse_log_options(args)
    joined = scores_given(args)  # scores, no --threshold: by ranks
    if joined is not None:
        return run_scores(args, *joined)
    systems = None
    if args.systems is not None:
        systems = [name.strip() for name in args.systems.split(",") if name.strip()]
    with refused_as_usage():
        cases = load_case_systems(
            args.files if len(args.files) > 1 else args.files[0],
            id_column=args.id_column,
            systems=systems,
            system_column=args.system_column,
            outcome_column=args.outcome_column,
            threshold=args.threshold,
        )
        if cases.n == 0:
            raise CalculatorError(_nothing_left(cases))
        result = compare_case_systems(cases, systems_ask(args))
    if args.json:
        print_json(build_payload(cases, result))
    else:
        print_lines(text_report(cases, result))
    return 0


def _refuse_log_options(args: argparse.Namespace) -> None:
    """Per-case files: --metric, --filter (plain or TASK=NAME) and --allow-exclusions refused
    by name, through the workflow's refusal codes."""
    from calculator.compare.workflow import SystemsAsk, refuse_log_options

    ask = SystemsAsk(
        metric=args.metric or (", ".join(args.metric_by_task) if args.metric_by_task else None),
        filter=args.filter or (", ".join(args.filter_by_task) if args.filter_by_task else None),
        allow_exclusions=args.allow_exclusions,
    )
    with refused_as_usage():
        refuse_log_options(ask, " + ".join(map(str, args.files)))


def _nothing_left(cases: SystemCases) -> str:
    """One line: no complete case, the rows excluded by reason, and the first finding."""
    parts = [f"{n:,} {reason.replace('_', ' ')}" for reason, n in cases.excluded.items() if n]
    text = (
        f"{' + '.join(cases.files)}: no case has a usable outcome for every one of the "
        f"{len(cases.names)} systems ({cases.rows_read:,} rows read; excluded: {', '.join(parts)})"
    )
    if cases.issues:
        text += f"; first problem: {cases.issues[0].message}"
    return text


def build_payload(cases: SystemCases, result: SystemComparison) -> dict[str, object]:
    """``result.to_dict()`` plus "input": files, columns, rows read, used and excluded, findings."""
    payload = result.to_dict()
    payload["input"] = cases.input_summary()
    return payload


def text_report(cases: SystemCases, result: SystemComparison) -> list[str]:
    """The lines printed without ``--json`` (made printable by :func:`print_lines`)."""
    from calculator.report.compare import (
        describe_agreement,
        describe_cochran,
        describe_groups,
        describe_pairs,
        describe_ties,
        never_separable,
        tied_groups,
    )

    lines = _input_lines(cases)
    lines += ["", describe_agreement(result), describe_cochran(result)]
    lines += ["", _systems_header(result)]
    width = max(len(name) for name in result.names)
    tied = {name for group in tied_groups(result) for name in group}
    letters = result.letter_display().letters
    lettered = max(len(value) for value in letters.values())
    for name in result.ranking:
        system = result.systems[result.names.index(name)]
        together = ", ".join(other for other in result.not_separated(name))
        place = f"{result.rank(name):>2}{'=' if name in tied else '.'}"  # 2= : tied for 2nd
        lines.append(
            f"  {place} {name:<{width}}  {letters[name]:<{lettered}}"
            f"{format_percent(system.rate):>8} "
            f"({format_percent(system.low)} to {format_percent(system.high)}), "
            f"{system.passes:,}/{system.n:,}"
            + (f"; not separated from {together}" if together else "; separated from all")
        )
    ties = describe_ties(result)
    lines += [ties] if ties else []
    lines.append(describe_groups(result))
    lines += ["", describe_pairs(result), _pairs_header(result)]
    for pair in result.pairs:
        verdict = "differ" if pair.reject else "not separated"
        if never_separable(pair, result):
            verdict += " (too few discordant cases ever to be)"
        adjusted = pair.adjusted_pvalue
        lines.append(
            f"  {pair.a} − {pair.b}: {format_points(pair.difference)} pts "
            f"({format_points(pair.low)} to {format_points(pair.high)}); only "
            f"{pair.a} {pair.b_count:,}, only {pair.b} {pair.c_count:,}; "
            f"{format_p_equals(pair.pvalue, pair.log10_pvalue)}, adjusted "
            f"{format_p_equals(adjusted, pair.log10_adjusted_pvalue, alpha=result.alpha)}"
            f"; {verdict}"
        )
    return lines


def _input_lines(cases: SystemCases) -> list[str]:
    columns = [f"layout {cases.layout}"]
    if cases.id_column:
        columns.append(f"id = {cases.id_column!r}")
    if cases.system_column:
        columns.append(f"system = {cases.system_column!r}")
    if cases.outcome_columns:  # none for logs: their reader's columns are not the user's
        columns.append("outcomes = " + ", ".join(repr(c) for c in cases.outcome_columns))
    if cases.threshold is not None:
        columns.append(f"pass when score >= {cases.threshold:g}")
    lines = [
        f"input     {' + '.join(cases.files)} ({'; '.join(columns)})",
        f"systems   {', '.join(cases.names)}",
        f"rows      {cases.rows_read:,} read, {cases.rows_used:,} used, "
        f"{cases.rows_read - cases.rows_used:,} excluded; {plural(cases.n, 'case')} analysed",
    ]
    for reason, count in cases.excluded.items():
        if count:
            lines.append(f"          excluded, {reason.replace('_', ' ')}: {count:,}")
    if cases.cases_missing_system or cases.cases_with_excluded_row:
        lines.append(
            f"          cases dropped: {cases.cases_missing_system:,} with no outcome for some "
            f"system, {cases.cases_with_excluded_row:,} with an outcome or row left out"
        )
    lines += issue_lines(cases.issues)
    return lines


def _systems_header(result: SystemComparison) -> str:
    return (
        f"ranked by pass rate (letters: groups not shown different; {100 * result.level:g}% "
        "Wilson interval, passes/cases; 2= marks a tie); "
        f"separation after {result.adjust.capitalize()}'s adjustment at α = {result.alpha:g}"
    )


def _pairs_header(result: SystemComparison) -> str:
    return (
        f"each pair: first minus second in points ({100 * result.level:g}% CI for the pair "
        f"alone, {method_words(result.ci_method, in_parentheses=True)}), exact McNemar p and "
        f"p adjusted over {plural(result.family_size, 'pair')}"
    )


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
    if len(args.files) == 1 and Path(args.files[0]).is_dir():
        logs = _models_of_folder(args)
        if logs is not None:
            return compare_log_tables(args, logs)
    if len(args.files) < 2:
        raise UsageError(
            "compare takes two or more systems' logs, one per system; for one log alone there "
            "is nothing to compare"
        )
    if args.id_column or args.system_column or args.outcome_column or args.systems:
        raise UsageError(
            "--id, --system, --outcome and --systems name columns of per-case files; harness "
            "logs are joined on their own case ids: choose what is compared with --metric"
        )
    from calculator.logs.suites import SeveralModels

    try:
        logs = read_logs(args.files, args.split)
    except SeveralModels as several:  # the cases command's advice (--models) is not compare's
        raise UsageError(
            f"{several.where}: holds runs of {len(several.models)} models "
            f"({first_of(list(several.models), 6)}), given beside other inputs: give that folder "
            "alone (each of its models is then a system), or its logs one by one beside the "
            "others"
        ) from None
    return compare_log_tables(args, logs)


def _models_of_folder(args: argparse.Namespace) -> list[LogTable] | None:
    """One folder holding several models' runs (a HELM suite folder, an Inspect eval set): each
    model's runs a system; None when it holds one model's (nothing to compare)."""
    from calculator.logs.suites import SeveralModels

    try:
        read_logs(args.files, args.split)
    except SeveralModels as several:
        return read_logs(args.files * len(several.models), args.split, models=several.models)
    return None


def compare_log_tables(args: argparse.Namespace, logs: list[LogTable]) -> int:
    """The systems' log tables (harness logs, or a long file's systems) compared through
    :func:`calculator.compare.workflow.compare_log_systems`, the page's path too."""
    from calculator.compare.workflow import SystemsRefused, compare_log_systems
    from calculator.logs import LogError
    from calculator.report.compare_refusals import refusal_text
    from calculator.report.compare_suite import suite_lines
    from calculator.report.logs import filter_lines

    for option in ("metric", "filter"):
        if getattr(args, f"{option}_by_task", None):
            raise UsageError(
                f"--{option} TASK=NAME chooses per task when two logs are compared (cases); "
                f"compare analyses every task on one --{option} NAME"
            )
    try:
        compared = compare_log_systems(
            logs, systems_ask(args), what=", ".join(map(str, args.files))
        )
    except SystemsRefused as error:
        raise UsageError(refusal_text(error)) from None
    except LogError:
        if getattr(args, "repeat_column", None) is not None:
            refuse_repeats(args, logs)  # names the repeated case and the command that takes it
        raise
    if compared.ranks is not None:
        return run_log_scores(args, compared, logs)
    cases, result, suite = compared.cases, compared.rates, compared.rates_by_task
    assert cases is not None and result is not None
    choice, task_filters = compared.choice, compared.filters
    notes = list(compared.notes)  # what each reader noticed
    if args.json:
        payload = build_payload(cases, result)
        if suite is not None:
            payload["suite"] = suite.to_dict()
        payload["input"].update(
            {"format": logs[0].format, "metric": choice.metric, "metric_reason": choice.reason}
        )
        used = sorted(set(task_filters.values()))
        # As for two logs: the filter asked for, else the one every task used.
        payload["input"]["filter"] = args.filter or (used[0] if len(used) == 1 else None)
        payload["input"]["filters_by_task"] = task_filters
        payload["input"]["notes"] = notes
        print_json(payload)
    else:
        others = f"; also logged: {', '.join(choice.others[:8])}" if choice.others else ""
        lines = [f"metric    {choice.metric} ({choice.reason}){others}"]
        lines += filter_lines(task_filters, args.filter)
        lines += [f"  ! {note}" for note in notes]
        report = text_report(cases, result)
        if suite is not None:  # the input's lines, the tasks, then the suite's comparison
            cut = report.index("")
            report = report[:cut] + ["", *suite_lines(suite)] + report[cut:]
        print_lines(lines + report)
    return 0
