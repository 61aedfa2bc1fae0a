"""``python -m calculator cases``: per-case results in, the paired analysis and a release gate out.

    python -m calculator cases FILE [FILE_B] [--id COL] [--a COL] [--b COL] [--group COL]
        [--threshold X] [--alpha X] [--json] [--fail-if-worse [--anytime]] [--margin DELTA]
        [--resamples R] [--detect POINTS]
    python -m calculator cases LOG_A LOG_B [--metric NAME] [--filter NAME] [--allow-exclusions]

With one file, ``--a`` and ``--b`` name its two outcome columns; with two files, ``--a`` names the
outcome column of FILE, ``--b`` that of FILE_B, and ``--id`` the column pairing their rows.
Columns are guessed when omitted and obvious. Evaluation-harness logs (lm-eval samples files or
results folders, Inspect .eval or JSON logs, HELM per-instance stats or run folders) are read
directly, task by task (:mod:`calculator.cli.cases_logs`). Exit status: 0, or 1 with
``--fail-if-worse`` when
B is worse than A at level alpha by the two-sided exact McNemar test (with ``--margin DELTA``:
unless B is shown non-inferior, no worse than A by DELTA or more); 2 for unusable input. The
gate fails in one direction only, so its false-alarm rate per comparison is at most alpha/2
(at most alpha with ``--alternative less``, a one-sided test at alpha). With ``--anytime`` the
gate decides by the one-sided anytime-valid test (:func:`calculator.release.anytime_gate`) at
alpha: it may be re-run on a file that grows, at any time, and fails when B is no worse with
probability at most alpha over all its runs together. The JSON of a per-case pass/fail file
holds the anytime-valid test under "anytime" (as ``table --json``); with ``--group`` that key
says why it is left out, and logs, long files and scores have no such key. ``--detect POINTS``
adds the n the two-sided exact test needs to detect a difference of POINTS points with 80% power
at the share of cases the systems disagree on, and the comparison's n as a ratio of it
(:func:`calculator.planning.detect.detect_check`; JSON key "detect").
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from calculator.analysis import Analysis
from calculator.anytime import anytime_of
from calculator.cli.arguments import (
    UsageError,
    add_log_arguments,
    add_side_names_arguments,
    add_split_argument,
    file_name,
    finite_number,
)
from calculator.cli.arguments import count as whole_number
from calculator.cli.cases_flips import (
    add_flips_arguments,
    add_flips_output,
    check_flips_options,
    flips_of_cases,
    markdown_output,
)
from calculator.cli.cases_logs import is_log_input, run_logs
from calculator.cli.cases_long import add_long_arguments, is_long_input, run_long
from calculator.cli.cases_scores import (
    run_scores,
    scores_columns,
    threshold_columns,
)
from calculator.cli.monitor import add_monitor_arguments, run_monitor
from calculator.cli.output import print_json, print_lines
from calculator.cli.question import (
    add_question_arguments,
    alpha_value,
    analysis_text,
    question_arguments,
)
from calculator.cli.shared import (
    ANALYSED_AS_PASS_FAIL,
    EXIT_WORSE,
    check_paths,
    gate_line,
    issue_lines,
    require_cases_extra,
)
from calculator.cli.square_file import add_categories_argument, is_categories_input, run_categories
from calculator.errors import CalculatorError
from calculator.paired_data import of_cases
from calculator.planning.detect import DetectCheck, detect_check
from calculator.release import gate_fails
from calculator.report import words
from calculator.report.anytime import anytime_gate_payload, anytime_gate_verdict
from calculator.report.clusters import describe_cluster_change
from calculator.report.decision_lines import decision_lines
from calculator.report.formatting import plural
from calculator.report.gate import gate_payload
from calculator.report.planning import detect_sentence
from calculator.scores.resampling import MAX_RESAMPLES, MIN_RESAMPLES
from calculator.workflow import compare

if TYPE_CHECKING:
    from calculator.anytime import AnytimeAnalysis
    from calculator.cases import CaseFile, PairedCases
    from calculator.clustered import ClusteredTestResult

__all__ = ["add_parser", "run", "build_payload"]

_LISTED_IDS = 20  # ids printed per list in the text report
#: The JSON's "anytime" with clusters: the test takes each case as one independent pair.
ANYTIME_CLUSTERS = {
    "refused": "the anytime-valid test treats each case as one independent pair; with --group "
    "the cases are clustered, so it is left out"
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``cases`` subcommand to `subparsers`; it runs :func:`run`."""
    parser = subparsers.add_parser(
        "cases",
        help="analyse per-case outcomes from CSV, TSV, JSON Lines or Parquet",
        description="Pair per-case pass/fail outcomes of systems A and B (one file with two "
        "outcome columns, or two files joined on an id), report every row left out and why, "
        "and analyse the paired table; optionally gate a release on it.",
    )
    parser.add_argument("file", type=file_name, help="per-case results (A's, or both systems')")
    parser.add_argument(
        "file_b", type=file_name, nargs="?", help="B's per-case results, joined on --id"
    )
    add_log_arguments(parser)
    add_side_names_arguments(parser)
    add_split_argument(parser)
    parser.add_argument("--id", dest="id_column", metavar="COL", help="case id column")
    parser.add_argument("--a", dest="a_column", metavar="COL", help="A's outcome column")
    parser.add_argument("--b", dest="b_column", metavar="COL", help="B's outcome column")
    parser.add_argument(
        "--group", dest="group_column", metavar="COL", help="cluster column (document, user...)"
    )
    parser.add_argument(
        "--threshold",
        type=finite_number("--threshold"),
        metavar="X",
        help="cut scores into pass/fail (a case passes when its score is at least X) for "
        "McNemar's test; without it, score columns are compared by their mean score",
    )
    parser.add_argument(
        "--alpha",
        type=alpha_value,
        default=0.05,
        metavar="X",
        help="significance level of the gate (0.05)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--fail-if-worse",
        action="store_true",
        help="exit with status 1 when B is significantly worse than A (two-sided exact test at "
        "--alpha; the gate fires in that one direction only, so on a change that does nothing "
        "it raises a false alarm at most alpha/2 of the time; with --alternative less it is "
        "the one-sided test, at most alpha); with --margin, unless B is shown non-inferior",
    )
    _add_anytime_and_detect(parser)
    parser.add_argument(
        "--resamples",
        type=whole_number("--resamples", maximum=MAX_RESAMPLES),
        metavar="R",
        help=f"scores only: bootstrap resamples and Monte Carlo sign patterns, {MIN_RESAMPLES:,} "
        f"to {MAX_RESAMPLES:,} (10,000; a Monte Carlo p is never below 1/(R + 1), so a gate at "
        "a smaller --alpha needs more); pass/fail outcomes are tested exactly and refuse it",
    )
    parser.add_argument(
        "--better",
        choices=("higher", "lower"),
        metavar="higher|lower",
        help="scores only: which scores are better, for --fail-if-worse (higher; lower for "
        "error rates and losses). A gate on a score whose name reads lower-is-better (wer, "
        "loss, ...) needs it stated; pass/fail outcomes refuse it",
    )
    add_question_arguments(parser, scores=True)  # the margin's unit follows the outcomes
    add_long_arguments(parser)
    add_categories_argument(parser)  # categorical outcomes: the k x k table (square_file.py)
    add_monitor_arguments(parser)
    add_flips_arguments(parser)  # --flips N, --flips-csv, --text, --format (cases_flips.py)
    parser.set_defaults(func=run)


def _add_anytime_and_detect(parser: argparse.ArgumentParser) -> None:
    """``--anytime`` (the gate by the anytime-valid test) and ``--detect POINTS`` (the n a
    difference needs, against the file's), for per-case pass/fail files."""
    parser.add_argument(
        "--anytime",
        action="store_true",
        help="with --fail-if-worse: decide by the one-sided anytime-valid test (B worse) at "
        "--alpha, so the gate may be re-run on a file that grows, as often as you like, and "
        "fails when B is no worse with probability at most alpha over all its runs (cases "
        "added in an order not chosen by their outcomes); per-case pass/fail files only, "
        "no --margin, no --group",
    )
    parser.add_argument(
        "--detect",
        type=_points,
        metavar="POINTS",
        help="per-case pass/fail files: the n the two-sided exact test at --alpha needs to "
        "detect a difference of POINTS percentage points (either way) with 80%% power, at the "
        "share of cases the systems disagree on here, and this comparison's n as a ratio of it "
        "(the difference is yours: power at the observed difference only restates the p)",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``cases`` for parsed `args`; return the exit status (0, or 1 for a failed gate).

    Raises
    ------
    CalculatorError, OSError
        For unusable input, with a one-line message (the caller prints it and exits with 2).
    UsageError
        When pandas or pyarrow is not installed (the package was installed without ``[cases]``).
    """
    require_cases_extra()
    check_paths([p for p in (args.file, args.file_b) if p is not None])
    _refuse_file_only(args)
    check_flips_options(args, refused_by=_flips_refused_by(args))
    if args.monitor:  # refuses what it cannot watch (logs, long files, labels, clusters)
        return run_monitor(args)
    if is_categories_input(args):  # labels, not pass/fail: the k x k analysis
        return run_categories(args)
    if is_long_input(args):  # one row per case and system: read as two logs
        return run_long(args)
    if is_log_input(args):  # the question is read once the logs show pass/fail or scores
        return run_logs(args)
    if args.metric or args.filter or args.metric_by_task or args.filter_by_task:
        option = "--metric" if args.metric or args.metric_by_task else "--filter"
        raise UsageError(
            f"{option} applies to evaluation-harness logs; {args.file} is a per-case file: name "
            "its outcome columns with --a and --b"
        )
    if args.split is not None:
        raise UsageError(f"--split applies to HELM logs; {args.file} is a per-case file")
    if args.allow_exclusions:
        raise UsageError(
            "--allow-exclusions lifts the 5% limit on what a pairing of harness logs or a long "
            f"file leaves out; {args.file} is a per-case file, whose rows left out are listed "
            "and counted"
        )
    if args.names is not None or args.models is not None:
        option = "--names" if args.names is not None else "--models"
        raise UsageError(
            f"{option} applies to evaluation-harness logs; {args.file} is a per-case file, "
            "whose systems are named by their columns (--a and --b)"
        )
    first, second = _read(args)
    columns = scores_columns(args, first, second)
    if columns is not None:  # numbers other than 0 and 1, no --threshold: compare mean scores
        _refuse_for_scores(args)
        return run_scores(args, first, second, columns)
    args = threshold_columns(args, first, second)  # --threshold on guessed score columns
    cases = _load(args, first, second)
    if cases.n == 0:
        raise CalculatorError(f"no usable cases: {_exclusion_summary(cases)}")
    compared = compare(of_cases(cases), question_arguments(args))
    analysis, cluster, gate = compared.analysis, compared.cluster, compared.anytime
    detect = _detect(args, analysis, cluster is not None)
    flips = flips_of_cases(args, cases)
    if markdown_output(args, analysis, flips):
        pass
    elif args.json:
        payload = build_payload(cases, analysis, cluster, args.anytime_prior)
        payload["analysed_as"] = ANALYSED_AS_PASS_FAIL
        if detect is not None:
            payload["detect"] = {
                **detect.to_dict(),
                "sentence": detect_sentence(detect, cases.names),
            }
        if args.fail_if_worse:
            payload["gate"] = (
                gate_payload(analysis, args.alpha) if gate is None else anytime_gate_payload(gate)
            )
        add_flips_output(args, flips, document=payload)
        print_json(payload)
    else:
        lines = _text_report(cases, analysis, cluster, args, gate)
        if detect is not None:
            lines.append(f"detect    {detect_sentence(detect, cases.names)}")
        add_flips_output(args, flips, lines=lines)
        print_lines(lines)
    if args.fail_if_worse and (gate_fails(analysis) if gate is None else gate.rejects):
        return EXIT_WORSE
    return 0


def _flips_refused_by(args: argparse.Namespace) -> str | None:
    """What a run that lists no flips is, for the refusal of the flips' options."""
    if args.monitor:
        return "--monitor watches a growing file and lists none"
    if is_categories_input(args):
        return "--categories compares labels in a k x k table, which has no two directions"
    return None


def _points(text: str) -> float:
    """``--detect POINTS``: a difference in percentage points, above 0 and below 100."""
    value = finite_number("--detect")(text)
    if not 0 < value < 100:
        raise argparse.ArgumentTypeError(
            f"--detect must be a number of percentage points above 0 and below 100, but got "
            f"{text!r}"
        )
    return value


def _refuse_for_scores(args: argparse.Namespace) -> None:
    """``--detect`` and ``--anytime-prior`` are of pass/fail outcomes: refused for scores."""
    for option, given in (
        ("--detect plans for", args.detect is not None),
        (
            "--anytime-prior names the mixture of an anytime-valid test of",
            args.anytime_prior != 1.0,
        ),
    ):
        if given:
            raise UsageError(
                f"{option} pass/fail outcomes; these columns hold scores (cut them with "
                "--threshold to analyse them as pass/fail)"
            )


def _refuse_file_only(args: argparse.Namespace) -> None:
    """``--anytime`` and ``--detect`` read a per-case pass/fail file: refused by name for what
    they cannot read (the chooser refuses the rest of ``--anytime``'s: no gate, a margin,
    clusters, scores)."""
    for option, does in (("--anytime", "gates"), ("--detect", "plans for")):
        if not getattr(args, option[2:]):
            continue
        refused = (
            ("--monitor (it is anytime-valid already)", args.monitor),
            ("--categories (labels, not pass/fail outcomes)", is_categories_input(args)),
            ("a long file (one row per case and system)", is_long_input(args)),
            (
                "harness logs (--fail-if-worse alone gates them, by the exact test)",
                is_log_input(args),
            ),
            (
                f"--format {getattr(args, 'format', None)} (that report does not carry it; the "
                "text and --json do)",
                getattr(args, "format", None) in ("markdown", "html"),
            ),
        )
        for what, present in refused:
            if present:
                raise UsageError(f"{option} {does} a per-case pass/fail file; it refuses {what}")
    if not args.monitor and (args.every is not None or args.order is not None):
        option = "--every" if args.every is not None else "--order"
        raise UsageError(f"{option} sets how --monitor reads the cases; give it with --monitor")
    if args.anytime_prior != 1.0 and not (args.monitor or args.anytime or args.json):
        raise UsageError(
            "--anytime-prior names the mixture of the anytime-valid test, which the text of a "
            "comparison does not print: give it with --monitor, --anytime or --json"
        )
    if args.anytime_prior != 1.0 and (is_log_input(args) or is_long_input(args)):
        raise UsageError(
            "--anytime-prior names the mixture of the anytime-valid test of a per-case pass/fail "
            "file; harness logs and long files are reported without it"
        )


def _detect(args: argparse.Namespace, analysis: Analysis, clustered: bool) -> DetectCheck | None:
    """``--detect``'s check on the table, or None when not asked; refused with clusters."""
    if args.detect is None:
        return None
    if clustered:
        raise UsageError(
            "--detect plans for independent pairs; with --group the cases are clustered, and "
            "the n needed depends on the clusters, which this plan does not model"
        )
    table = analysis.table
    return detect_check(table.n, table.discordant, args.detect / 100, alpha=args.alpha)


def build_payload(
    cases: PairedCases,
    analysis: Analysis,
    cluster: ClusteredTestResult | None,
    prior_shape: float = 1.0,
) -> dict[str, object]:
    """``payload(analysis)`` plus "input", "discordant_cases", "anytime" (the anytime-valid
    test, as in ``table --json``; with clusters {"refused": why}) and, with clusters,
    "cluster"."""
    payload = words.payload(analysis)
    payload["anytime"] = (
        words.payload(anytime_of(analysis, prior_shape)) if cluster is None else ANYTIME_CLUSTERS
    )
    payload["input"] = cases.input_summary()
    payload["discordant_cases"] = {
        "only_A": _ids(cases.only_a()),
        "only_B": _ids(cases.only_b()),
    }
    if cluster is not None:
        payload["cluster"] = {"column": cases.group_column, **cluster.to_dict()}
    return payload


def _read(args: argparse.Namespace) -> tuple[CaseFile, CaseFile | None]:
    from calculator.cases import read_case_file

    first = read_case_file(args.file)
    return first, None if args.file_b is None else read_case_file(args.file_b)


def _load(args: argparse.Namespace, first: CaseFile, second: CaseFile | None) -> PairedCases:
    from calculator.cases import load_cases
    from calculator.cases.columns import guess_outcomes

    id_column = args.id_column
    if id_column is None and args.file_b is None:
        id_column = guess_outcomes(first.frame).id_column  # numbered rows when there is none
    return load_cases(
        first,
        second,
        id_column=id_column,
        a_column=args.a_column,
        b_column=args.b_column,
        group_column=args.group_column,
        threshold=args.threshold,
    )


def _ids(frame) -> list[str]:  # noqa: ANN001 - a pandas DataFrame, imported lazily
    return frame.iloc[:, 0].astype("str").tolist()


def _exclusion_summary(cases: PairedCases) -> str:
    parts = [
        f"{count:,} {reason.replace('_', ' ')}" for reason, count in cases.excluded.items() if count
    ]
    read = f"{cases.rows_read:,} rows read"
    return f"{read}, excluded: {', '.join(parts)}" if parts else read


def _text_report(
    cases: PairedCases,
    analysis: Analysis,
    cluster: ClusteredTestResult | None,
    args: argparse.Namespace,
    gate: AnytimeAnalysis | None = None,
) -> list[str]:
    """The lines of the text report; ids and names in them are escaped when printed."""
    name_a, name_b = cases.names
    columns = f"A = {cases.outcome_columns[0]!r}, B = {cases.outcome_columns[1]!r}"
    if cases.id_column:
        columns += f", id = {cases.id_column!r}"
    if cases.threshold is not None:
        columns += f", pass when score >= {cases.threshold:g}: analysed as pass/fail"
    lines = [
        f"input     {' + '.join(cases.files)} ({columns})",
        f"rows      {cases.rows_read:,} read, {cases.rows_used:,} used, "
        f"{cases.rows_read - cases.rows_used:,} excluded; {plural(cases.n, 'case')} analysed",
    ]
    for reason, count in cases.excluded.items():  # in the order of EXCLUSION_REASONS
        if count:
            lines.append(f"          excluded, {reason.replace('_', ' ')}: {count:,}")
    lines += issue_lines(cases.issues)
    t = analysis.table
    lines += [
        "",
        f"table     both pass {t.a:,}, only {name_a} {t.b:,}, only {name_b} {t.c:,}, "
        f"both fail {t.d:,}",
        *analysis_text(analysis),
    ]
    if cluster is not None:
        lines.append(_cluster_line(cases, analysis, cluster))
    for label, frame in (
        (f"only {name_a} passes", cases.only_a()),
        (f"only {name_b} passes", cases.only_b()),
    ):
        ids = _ids(frame.head(_LISTED_IDS))
        more = f", ... ({len(frame) - len(ids):,} more)" if len(frame) > len(ids) else ""
        lines.append(f"{label} ({len(frame):,}): {', '.join(ids) or 'none'}{more}")
    lines += decision_lines(analysis)
    if args.fail_if_worse:
        lines.append(
            gate_line(analysis, args.alpha)
            if gate is None
            else f"gate      {anytime_gate_verdict(gate)}"
        )
    return lines


def _cluster_line(cases: PairedCases, analysis: Analysis, cluster: ClusteredTestResult) -> str:
    head = f"clusters  {plural(cluster.clusters, 'group')} in {cases.group_column!r}: "
    return (
        head
        + describe_cluster_change(cluster, analysis.chi2)
        + " The decision and the gate count clusters."
    )
