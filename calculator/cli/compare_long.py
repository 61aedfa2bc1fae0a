"""``compare FILE --system COL --repeat COL`` or ``--task COL``: a long file's systems as logs.

With a repeat or a task column, the long file's systems become log tables
(:func:`calculator.logs.long_file.read_long_file`) compared as several systems' logs are
(:func:`calculator.logs.systems.load_log_systems`): several tasks each keep their own cases, and
repeated samples of a question (more than one repeat number) are refused by name with what to
do (compare two systems at a time, by question, with ``cases``). Without those options a long
file is read by the per-case reader of several systems, as before.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from calculator.cli.arguments import UsageError
from calculator.errors import CalculatorError

if TYPE_CHECKING:
    from calculator.logs import LogTable

__all__ = [
    "add_long_arguments",
    "long_given",
    "long_scores_given",
    "long_tables",
    "refuse_repeats",
]

#: Options of other inputs, refused with a repeat or task column: the attribute, the option and
#: why.
_OTHER_OPTIONS = (
    (
        "systems",
        "--systems",
        "chooses a wide file's columns; keep the rows of the systems to compare in the long file",
    ),
    (
        "metric",
        "--metric",
        "chooses a harness log's metric; name the outcome column with --outcome",
    ),
    ("filter", "--filter", "chooses an lm-eval log's filter; a long file has none"),
    ("split", "--split", "chooses a HELM log's split; a long file has none"),
)


def add_long_arguments(parser: argparse.ArgumentParser) -> None:
    """``--repeat`` and ``--task``: a long file's repeat and task columns."""
    parser.add_argument(
        "--repeat",
        dest="repeat_column",
        metavar="COL",
        help="long file: the repeat column (an epoch); repeated samples of a question are "
        "compared two systems at a time, by question, with `cases`",
    )
    parser.add_argument(
        "--task",
        dest="task_column",
        metavar="COL",
        help="long file: the task column (each task's cases kept apart)",
    )


def long_given(args: argparse.Namespace) -> bool:
    """Whether a repeat or task column was named."""
    return args.repeat_column is not None or args.task_column is not None


def long_tables(args: argparse.Namespace) -> tuple[argparse.Namespace, list[LogTable]]:
    """`args` with the outcome column as the metric, and the long file's systems as log
    tables; options of other inputs refused by name."""
    from calculator.logs.long_file import LongColumns, read_long_file

    if len(args.files) > 1:
        raise UsageError(
            "--repeat and --task name columns of one long file (every system's rows); give one file"
        )
    for name, option, why in _OTHER_OPTIONS:
        if getattr(args, name, None) is not None:
            raise UsageError(f"{option} {why}")
    columns = LongColumns(
        system=args.system_column,
        id=args.id_column,
        outcome=args.outcome_column,
        repeat=args.repeat_column,
        task=args.task_column,
    )
    tables = read_long_file(args.files[0], columns, threshold=args.threshold)
    metric = tables[0].metrics[0] if args.outcome_column is not None else None
    return argparse.Namespace(**{**vars(args), "metric": metric}), list(tables)


def long_scores_given(args: argparse.Namespace) -> tuple[argparse.Namespace, list] | None:
    """A long file (``--system``, no ``--threshold``) whose outcomes are scores: the arguments
    and its systems as log tables, compared by ranks; None when its outcomes are pass/fail or
    it is not a long file (the per-case reader of several systems takes it, and says why it
    cannot)."""
    from calculator.logs.systems_scores import load_log_scores

    if args.system_column is None or args.threshold is not None or len(args.files) != 1:
        return None
    chosen = None
    if args.systems is not None:
        chosen = [name.strip() for name in args.systems.split(",") if name.strip()]
    try:
        long_args, tables = long_tables(argparse.Namespace(**{**vars(args), "systems": None}))
        if chosen is not None:
            known = {table.system for table in tables}
            missing = [name for name in chosen if name not in known]
            if missing:
                raise UsageError(
                    f"--systems: {missing[0]!r} is not a system of {args.files[0]} (its "
                    f"systems: {', '.join(sorted(known))})"
                )
            tables = [table for table in tables if table.system in chosen]
        graded = load_log_scores(tables, allow_exclusions=args.allow_exclusions)
    except CalculatorError:
        return None  # the per-case reader's own words say what is wrong
    return None if graded is None else (long_args, tables)


def refuse_repeats(args: argparse.Namespace, tables: list[LogTable]) -> None:
    """Refuse, naming the first repeated case, a file holding several repeats of a question:
    the comparison of k systems counts every row as an independent case (pass/fail; scores
    use a question's mean over its repeats)."""
    for table in tables:
        frame = table.frame
        twice = frame.duplicated(["task", "case"], keep=False)
        if twice.any():
            first = frame[twice].iloc[0]
            numbers = sorted(set(frame.loc[twice, "repeat"].tolist()))
            shown = ", ".join(map(str, numbers[:5])) + (", ..." if len(numbers) > 5 else "")
            system = args.system_column or "COL"
            raise UsageError(
                f"{args.files[0]}: case {first['case']!r} of {table.system!r} has several repeats "
                f"in {args.repeat_column!r} ({shown}): compare's tests count every row as an "
                "independent case, which repeats of a question are not; compare two systems at "
                f"a time, by question: cases {args.files[0]} --system {system} "
                f"--repeat {args.repeat_column}"
            )
