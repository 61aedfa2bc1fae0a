"""``python -m calculator square``: a paired k x k table of two systems' categorical outcomes.

    python -m calculator square --table "596 18 6 5; 0 2 0 0; 0 0 42 0; 11 0 0 0" [--labels L]
    python -m calculator square --file cases.csv --a COL --b COL [--id COL] [--categories x,y,z]

Rows are A's categories and columns B's (a row per ";", counts separated by spaces or commas;
``--labels`` names the categories, comma-separated), or
each case's two labels are read from a per-case file (CSV, TSV, JSON Lines or Parquet) by the
reader of ``cases``, whose ledger of rows read, used and left out (with their lines) is printed
above the report (:mod:`calculator.cli.square_file`). A label that only one system gives is a
category all the same, with a zero total for the other system, and the report says so.
Options: ``--empty-pairs`` (Bowker's degrees of freedom), ``--ordered`` or ``--scores``
(the score test of mean scores, in the table's or ``--categories``' order), ``--level``,
``--json`` (:meth:`calculator.square.SquareAnalysis.to_dict` with its report). Exit status 0, or
2 with one line on stderr.
"""

from __future__ import annotations

import argparse

from calculator.cli.arguments import UsageError, file_name, level
from calculator.cli.output import print_json, print_lines
from calculator.cli.shared import check_paths
from calculator.cli.square_file import print_result, read_file_table
from calculator.errors import CalculatorError
from calculator.report.square import square_payload, square_report
from calculator.square import EMPTY_PAIRS, analyze_square, square_table
from calculator.square.table import SquareTable, parse_counts
from calculator.text import clip

__all__ = ["add_parser", "parse_table", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``square`` subcommand to `subparsers`; it runs :func:`run`."""
    parser = subparsers.add_parser(
        "square",
        help="analyse a paired k x k table (graded or multi-class outcomes)",
        description="Bowker's test of symmetry, the Stuart-Maxwell and Bhapkar tests of "
        "marginal homogeneity and each category against the rest, for two systems' categorical "
        "outcomes on the same cases: rows for A, columns for B.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--table", help='the counts, a row per ";": "5 1 0; 2 7 1; 0 1 9"')
    source.add_argument(
        "--file", type=file_name, help="a per-case file (CSV, TSV, JSON Lines, Parquet)"
    )
    parser.add_argument("--a", help="with --file: the column of A's labels")
    parser.add_argument("--b", help="with --file: the column of B's labels")
    parser.add_argument("--id", help="with --file: the case id column (repeated ids left out)")
    parser.add_argument("--labels", help="with --table: the categories' names, comma-separated")
    parser.add_argument(
        "--categories", help="with --file: every category in its order, comma-separated"
    )
    parser.add_argument(
        "--empty-pairs",
        choices=EMPTY_PAIRS,
        default="every-pair",
        help="Bowker's df: every pair of categories (k(k-1)/2), or only pairs with a case",
    )
    parser.add_argument(
        "--ordered", action="store_true", help="the categories are ordered: add the score test"
    )
    parser.add_argument("--scores", help="scores of the ordered categories, comma-separated")
    parser.add_argument("--level", type=level("--level"), default=0.95, help="level (0.95)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the analysis for parsed `args`; invalid values raise CalculatorError (exit 2)."""
    labelled = None
    if args.file is not None:
        check_paths([args.file])  # a missing or unreadable file is said first, whatever the flags
        labelled = _labelled(args)
        table = labelled.table
    else:
        table = _table(args)
    result = analyze_square(
        table,
        empty_pairs=args.empty_pairs,
        ordered=args.ordered,
        scores=None if args.scores is None else _numbers(args.scores, "--scores"),
        level=args.level,
    )
    if labelled is not None:
        print_result(labelled, result, as_json=args.json)
    elif args.json:
        print_json(square_payload(result))
    else:
        print_lines(square_report(result).splitlines())
    return 0


def _table(args: argparse.Namespace) -> SquareTable:
    if args.a is not None or args.b is not None or args.categories is not None or args.id:
        raise UsageError("--a, --b, --id and --categories go with --file, not with --table")
    labels = None if args.labels is None else _names(args.labels)
    return square_table(parse_table(args.table), labels)


def _labelled(args: argparse.Namespace):  # noqa: ANN202 - a LabelledCases (pandas, lazily)
    if args.labels is not None:
        raise UsageError("--labels goes with --table; with --file use --categories")
    categories = None if args.categories is None else _names(args.categories)
    return read_file_table(args.file, args.a, args.b, args.id, categories)


def parse_table(text: str) -> list[list[object]]:
    """The counts of ``--table`` (:func:`calculator.square.table.parse_counts`).

    Examples
    --------
    >>> parse_table("5 1; 2,7")
    [[5, 1], [2, 7]]
    """
    return parse_counts(text, "--table")


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",")]


def _numbers(text: str, option: str) -> list[float]:
    try:
        return [float(value) for value in text.split(",")]
    except ValueError:
        raise CalculatorError(
            f"`{option}` must be numbers separated by commas, but got {clip(text, 60)!r}."
        ) from None
