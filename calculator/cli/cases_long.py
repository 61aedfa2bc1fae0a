"""``cases FILE --system COL``: a long (tidy) file, one row per case x system (x repeat, x task).

    python -m calculator cases FILE --system COL [--id COL] [--outcome COL] [--repeat COL]
        [--task COL] [--threshold X] [--allow-exclusions] [...the question's options]

The file's two systems become two log tables (:func:`calculator.logs.long_file.read_long_file`)
and go the way of two harness logs (:func:`calculator.cli.cases_logs.run_log_tables`): repeats
are analysed by question, several tasks by task, and the JSON carries the logs' ledger. Options
``--a`` and ``--b`` name which value of the system column is A and which is B; without them
the systems are taken in the order they first appear, said in the input summary, and the release
gate, whose verdict depends on which is B, is refused until they are named. Options of other
inputs (``--group``, ``--metric``, ``--filter``, ``--split``, a second file) are refused by name.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING

from calculator.cli.arguments import UsageError
from calculator.cli.cases_logs import run_log_tables
from calculator.report.formatting import plural
from calculator.text import clip, first_of

if TYPE_CHECKING:
    from calculator.logs import LogTable

__all__ = ["LONG_OPTIONS", "add_long_arguments", "is_long_input", "run_long"]

#: The options that read FILE as a long file, by their attribute.
LONG_OPTIONS = {
    "system_column": "--system",
    "outcome_column": "--outcome",
    "repeat_column": "--repeat",
    "task_column": "--task",
}
#: Options of other inputs, refused with a long file: the attribute, the option, what it is for.
_OTHER_OPTIONS = (
    ("file_b", "a second file", "holds every system's rows: give the long file alone"),
    (
        "group_column",
        "--group",
        "names a wide file's clusters; a long file's repeats are "
        "clustered by question (name the repeat column with --repeat)",
    ),
    (
        "metric",
        "--metric",
        "chooses a harness log's metric; name a long file's outcome column with --outcome",
    ),
    ("filter", "--filter", "chooses an lm-eval log's filter; a long file has none"),
    (
        "metric_by_task",
        "--metric",
        "chooses a harness log's metric; name a long file's outcome column with --outcome",
    ),
    ("filter_by_task", "--filter", "chooses an lm-eval log's filter; a long file has none"),
    ("split", "--split", "chooses a HELM log's split; a long file has none"),
    ("names", "--names", "names two logs' systems; a long file's are its system column's"),
    ("models", "--models", "chooses a model in a folder of logs; name them with --a and --b"),
)


def add_long_arguments(parser: argparse.ArgumentParser) -> None:
    """``--system``, ``--outcome``, ``--repeat`` and ``--task``: the columns of a long file."""
    group = parser.add_argument_group(
        "long files (one row per case and system)",
        "--system reads FILE as a long file; a column left unnamed is taken from Inspect's "
        "samples_df names when the file has them (model, id, epoch, task_name, its only "
        "score_* column), and the input summary says so",
    )
    group.add_argument(
        "--system", dest="system_column", metavar="COL", help="long file: the system column"
    )
    group.add_argument(
        "--outcome", dest="outcome_column", metavar="COL", help="long file: the outcome column"
    )
    group.add_argument(
        "--repeat",
        dest="repeat_column",
        metavar="COL",
        help="long file: the repeat column (an epoch): the questions are compared by question",
    )
    group.add_argument(
        "--task", dest="task_column", metavar="COL", help="long file: the task column"
    )


def is_long_input(args: argparse.Namespace) -> bool:
    """Whether FILE is to be read as a long file: one of :data:`LONG_OPTIONS` was given."""
    return any(getattr(args, name, None) is not None for name in LONG_OPTIONS)


def run_long(args: argparse.Namespace) -> int:
    """Read the long file's two systems and compare them as two logs; the exit status."""
    from calculator.logs.long_file import LongColumns, read_long_file

    for name, option, why in _OTHER_OPTIONS:
        if getattr(args, name, None) is not None:
            raise UsageError(f"{option} {why}" if option.startswith("--") else f"{args.file} {why}")
    columns = LongColumns(
        system=args.system_column,
        id=args.id_column,
        outcome=args.outcome_column,
        repeat=args.repeat_column,
        task=args.task_column,
    )
    both_named = args.a_column is not None and args.b_column is not None
    # Three or more systems: the two that --a and --b name, the others left out in a note.
    read = read_long_file(args.file, columns, threshold=args.threshold, exactly_two=not both_named)
    tables = _roles(args, read)
    # A named outcome column is the metric asked for; a guessed one (stated in the notes) is
    # the log's only metric, chosen as a log's is.
    metric = tables[0].metrics[0] if args.outcome_column is not None else None
    chosen = argparse.Namespace(**{**vars(args), "metric": metric})
    return run_log_tables(chosen, list(tables))


def _roles(args: argparse.Namespace, tables: tuple[LogTable, ...]) -> tuple[LogTable, LogTable]:
    """A's and B's tables: the systems ``--a`` and ``--b`` name, else the file's order, said
    in a note; the release gate waits for the names, as its verdict turns on which is B."""
    names = [table.system for table in tables]
    found = ", ".join(repr(clip(name, 40)) for name in names)
    for option, name in (("--a", args.a_column), ("--b", args.b_column)):
        if name is not None and name not in names:
            raise UsageError(
                f"{option} {clip(repr(name), 40)}: no such system in column "
                f"{clip(repr(args.system_column or 'model'), 40)} of {args.file} (it holds {found})"
            )
    if args.a_column is not None or args.b_column is not None:
        a = (
            args.a_column
            if args.a_column is not None
            else next(n for n in names if n != args.b_column)
        )
        b = args.b_column if args.b_column is not None else next(n for n in names if n != a)
        if a == b:
            raise UsageError(f"--a and --b name the same system, {clip(repr(a), 40)}")
        first, second = tables[names.index(a)], tables[names.index(b)]
        others = [name for name in names if name not in (a, b)]
        if others:
            shown = first_of([repr(clip(name, 40)) for name in others], 8)
            note = (
                f"{args.file}: {plural(len(others), 'other system')} left out ({shown}): "
                "two are compared at a time; `compare` takes them all"
            )
            first = replace(first, notes=(note, *first.notes))
        return first, second
    if args.fail_if_worse:
        raise UsageError(
            "--fail-if-worse fails when B is worse than A: name which system of the long file "
            f"is A and which is B with --a NAME --b NAME (the file holds {found}); the order of "
            "its rows decides nothing"
        )
    note = (
        f"A = {clip(repr(names[0]), 40)}, B = {clip(repr(names[1]), 40)}: the systems in the order "
        "they first appear in the file (name them with --a and --b)"
    )
    first, second = tables
    return replace(first, notes=(note, *first.notes)), second
