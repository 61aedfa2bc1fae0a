"""``python -m calculator cases FILE --monitor [--every K] [--order COL]``: the anytime-valid test
after every K cases, in file order (or sorted by COL), stopping at the first look where the
e-value reaches 1/alpha.

``cases`` adds these options with :func:`add_monitor_arguments` and hands a run with
``--monitor`` to :func:`run_monitor`. Clusters (``--group``), repeated case ids and harness logs
are refused by name: the monitor treats each case as one independent pair, once.
"""

from __future__ import annotations

import argparse

from calculator.cli.arguments import UsageError, prior_shape
from calculator.cli.arguments import count as whole_number
from calculator.cli.cases_logs import is_log_input
from calculator.cli.output import print_json, print_lines
from calculator.errors import CalculatorError
from calculator.monitor import MAX_MONITORED, monitor_outcomes
from calculator.report.anytime import monitor_lines
from calculator.report.words import payload, text

__all__ = ["add_monitor_arguments", "run_monitor"]

# Options of ``cases`` that ask for something the monitor does not do.
_REFUSED = {
    "group_column": "--group (clusters: the monitor treats each case as one independent pair)",
    "file_b": "a second file (the monitor reads one file with both outcome columns)",
    "margin": "--margin (the monitor tests no difference, two-sided or one-sided)",
    "fail_if_worse": "--fail-if-worse (the monitor's decision is its crossing)",
    "anytime": "--anytime (the monitor is anytime-valid already; its decision is its crossing)",
    "resamples": "--resamples (the monitor reads pass/fail outcomes)",
    "better": "--better (the monitor reads pass/fail outcomes)",
    "equivalence": "--equivalence (the monitor tests no difference, two-sided or one-sided)",
    "categories": "--categories (the monitor reads pass/fail outcomes, not labels)",
    "system_column": "--system (a long file: the monitor reads one row per case)",
    "outcome_column": "--outcome (a long file: the monitor reads one row per case)",
    "repeat_column": "--repeat (repeats: the monitor treats each case as one independent pair)",
    "task_column": "--task (tasks: the monitor reads one sequence of cases)",
}


def add_monitor_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--monitor``, ``--every``, ``--order`` and ``--anytime-prior`` to ``cases``."""
    group = parser.add_argument_group("monitoring with an anytime-valid test")
    group.add_argument(
        "--monitor",
        action="store_true",
        help="read the cases in file order (or --order COL) and print the e-value, the "
        "anytime-valid p and the confidence sequence after every --every cases, stopping at "
        "the first look where the e-value reaches 1/--alpha",
    )
    group.add_argument(
        "--every",
        type=whole_number("--every", maximum=MAX_MONITORED),
        default=None,
        metavar="K",
        help="with --monitor: cases between looks (1, or as many as keep to 2,000 looks)",
    )
    group.add_argument(
        "--order", metavar="COL", help="with --monitor: sort the cases by this column first"
    )
    group.add_argument(
        "--anytime-prior",
        type=prior_shape("--anytime-prior"),
        default=1.0,
        metavar="K",
        help="k of the Beta(k, k) mixture of the anytime-valid test (1: uniform), for "
        '--monitor, --anytime and the JSON\'s "anytime" key',
    )


def run_monitor(args: argparse.Namespace) -> int:
    """Run the monitor for parsed ``cases`` arguments; return 0."""
    from calculator.cases import load_cases, read_case_file
    from calculator.cases.columns import guess_outcomes

    if is_log_input(args):
        raise UsageError("--monitor reads a per-case file, not harness logs (their repeats)")
    for option, what in _REFUSED.items():
        if getattr(args, option, None) not in (None, False):  # a bare --categories is ""
            raise UsageError(f"--monitor refuses {what}")
    first = read_case_file(args.file)
    id_column = args.id_column or guess_outcomes(first.frame).id_column
    cases = load_cases(
        first,
        None,
        id_column=id_column,
        a_column=args.a_column,
        b_column=args.b_column,
        threshold=args.threshold,
    )
    repeated = cases.excluded.get("duplicate_id", 0)
    if repeated:
        raise CalculatorError(
            f"--monitor refuses repeated case ids ({repeated:,} rows repeat an id in column "
            f"{id_column!r}): each case must be one independent pair, seen once."
        )
    if cases.n == 0:
        raise CalculatorError("no usable cases to monitor.")
    a_pass, b_pass = cases.a_pass, cases.b_pass
    if args.order is not None:
        if args.order not in cases.cases.columns:
            raise CalculatorError(
                f"`--order` must name a column of {args.file}, but got {args.order!r}."
            )
        order = cases.cases[args.order].to_numpy().argsort(kind="stable")
        a_pass, b_pass = a_pass[order], b_pass[order]
    result = monitor_outcomes(
        a_pass,
        b_pass,
        every=args.every,
        alpha=args.alpha,
        alternative=args.alternative,
        prior_shape=args.anytime_prior,
    )
    if args.json:
        print_json(payload(result))
    else:
        print_lines([*monitor_lines(result), "", text(result)])
    return 0
