"""The command line: ``python -m calculator COMMAND ...``, installed as ``mcnemar COMMAND ...``.

``table A B C D`` prints the report for a paired table (:mod:`calculator.cli.table`); ``cases``
analyses per-case files (:mod:`calculator.cli.cases`) and ``plan`` sizes a comparison
(:mod:`calculator.cli.plan`). Every usage error and every invalid value exits with status 2 and
one line on stderr, never a traceback.

A new subcommand is a module in this package with an ``add_parser(subparsers)`` function (see
:mod:`calculator.cli.arguments`) and one line in :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from calculator.cli import cases, compare, plan, table
from calculator.cli.arguments import EXIT_USAGE, Parser, UsageError

__all__ = ["SUBCOMMANDS", "UsageError", "build_parser", "main"]

#: The subcommand modules, in the order ``--help`` lists them.
SUBCOMMANDS = (table, cases, compare, plan)


def build_parser(prog: str = "python -m calculator") -> Parser:
    """The parser of the whole command line, one subparser per module in :data:`SUBCOMMANDS`."""
    parser = Parser(prog=prog, description=__doc__.split("\n\n")[0])
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in SUBCOMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    # Messages name the command as it was typed: the installed script, or the module.
    installed = argv is None and Path(sys.argv[0]).stem == "mcnemar"
    try:
        args = build_parser("mcnemar" if installed else "python -m calculator").parse_args(argv)
        return args.func(args)
    except UsageError as error:
        return _fail(str(error))
    except (TypeError, ValueError, OSError) as error:
        return _fail(f"error: {error}")


def _fail(message: str) -> int:
    print(message.replace("\n", " "), file=sys.stderr)
    return EXIT_USAGE
