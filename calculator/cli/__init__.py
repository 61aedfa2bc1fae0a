"""The command line: ``python -m calculator COMMAND ...``, installed as ``mcnemar COMMAND ...``.

``table A B C D`` prints the report for a paired table (:mod:`calculator.cli.table`); ``cases``
analyses per-case files (:mod:`calculator.cli.cases`) and ``plan`` sizes a comparison
(:mod:`calculator.cli.plan`). Every usage error and every refused value exits with status 2 and
one line on stderr, never a traceback; anything else is a bug, reported in one line with
status 3.

A new subcommand is a module in this package with an ``add_parser(subparsers)`` function (see
:mod:`calculator.cli.arguments`) and one line in :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from calculator.chooser import OptionRefused
from calculator.cli import cases, compare, plan, square, table, teach
from calculator.cli.arguments import EXIT_USAGE, Parser, UsageError
from calculator.cli.output import flush, silence_stdout
from calculator.cli.question import refusal_words
from calculator.errors import CalculatorError
from calculator.text import printable

__all__ = ["EXIT_BUG", "SUBCOMMANDS", "UsageError", "build_parser", "main"]

#: Exit status when the user stops the command (Ctrl-C): 128 + SIGINT, as shells report it.
EXIT_INTERRUPTED = 130

#: Exit status for an exception that is not a refusal: a bug in the calculator. Distinct from 2
#: (the input was refused) and from 1 (the release gate failed).
EXIT_BUG = 3

#: The subcommand modules, in the order ``--help`` lists them.
SUBCOMMANDS = (table, cases, compare, plan, teach, square)


def build_parser(prog: str = "python -m calculator") -> Parser:
    """The parser of the whole command line, one subparser per module in :data:`SUBCOMMANDS`."""
    parser = Parser(
        prog=prog,
        description="Paired pass/fail comparisons of systems on the same cases: McNemar's tests, "
        "intervals, release gates and sample sizes. Each command has its own --help.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in SUBCOMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status.

    0 when done; 1 only when ``cases --fail-if-worse`` finds B worse; 2 for a usage error, a
    refusal (:class:`~calculator.errors.CalculatorError`) or a file that cannot be read, with one
    line on stderr and never a traceback; 3 (:data:`EXIT_BUG`) for any other exception, which is
    a bug and says so in one line; 130 when interrupted. A reader that stops early (a closed
    pipe) changes none of these.
    """
    # Messages name the command as it was typed: the installed script, or the module.
    installed = argv is None and Path(sys.argv[0]).stem == "mcnemar"
    prog = "mcnemar" if installed else "python -m calculator"
    args = None
    try:
        args = build_parser(prog).parse_args(argv)
        status = args.func(args)
        flush()  # a reader that went away, or a full disk, shows here and not at Python's exit
        return status
    except BrokenPipeError:  # `mcnemar ... | head`: the reader has all it wanted
        silence_stdout()
        return 0
    except UsageError as error:  # argparse's name the command; the others begin "error:"
        text = str(error)
        return _fail(text if text.startswith(f"{prog}") else f"error: {text}")
    except OptionRefused as error:  # an option the chosen test cannot answer, by its flag
        return _fail(f"error: {refusal_words(error, args)}")
    except CalculatorError as error:  # a refusal the library made on purpose, with its reason
        return _fail(f"error: {error}")
    except OSError as error:  # a path that cannot be read, or an output that cannot be written
        return _fail(f"error: {_os_error(error)}")
    except KeyboardInterrupt:
        _fail("interrupted")
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug: one line, and never exit 1, which means a failed gate
        return _fail(_bug_message(error), EXIT_BUG)


def _bug_message(error: Exception) -> str:
    """The one line for an exception that is not a refusal: it is a bug, and says so."""
    kind = type(error).__name__
    beyond = next((words for cls, words in _BEYOND.items() if isinstance(error, cls)), None)
    what = f"{beyond} ({kind})" if beyond else f"{kind}: {error}"
    return (
        f"internal error ({what}); this is a bug in the calculator, not in the input: "
        "please report it with the command that gave it"
    )


def _os_error(error: OSError) -> str:
    """ "FILE: reason" for an error about a file, Python's own words otherwise."""
    if error.filename is not None and error.strerror:
        return f"{error.filename}: {error.strerror}"
    return str(error)


# An error line longer than this keeps its start and its end (which says what would fix it).
_LONGEST_MESSAGE = 500

# A safety net: each input known to cause these is refused earlier with its own message, so
# reaching one is a bug, reported with what it means.
_BEYOND = {
    MemoryError: "the input needs more memory than this machine has",
    RecursionError: "the input is nested too deeply to analyse",
    OverflowError: "a number in the input or the options is too large to compute with",
}


def _fail(message: str, status: int = EXIT_USAGE) -> int:
    message = printable(message.replace("\n", " "))
    if len(message) > _LONGEST_MESSAGE:  # a value of thousands of characters quoted in it
        message = f"{message[:300]} ... {message[-150:]}"
    print(message, file=sys.stderr)
    return status
