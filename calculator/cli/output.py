"""What the command line prints: strict JSON, and text lines that no input can forge.

Ids, names, file and column names come from the user's files. Printed raw, an ANSI escape in an
id could clear the terminal, and a carriage return, a newline or a bidirectional override could
make a line of the report say something it does not. :func:`calculator.text.printable` writes
every such character as a visible escape; :func:`print_lines` applies it to each line of a
report. JSON needs no such care: its encoder escapes control characters itself.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable

from calculator.text import printable

__all__ = ["flush", "print_json", "print_lines", "silence_stdout", "write"]


def print_lines(lines: Iterable[str]) -> None:
    """Print each of `lines` on its own line, made :func:`calculator.text.printable` first."""
    write("\n".join(printable(line) for line in lines))


def print_json(payload: object) -> None:
    """Print `payload` as strict JSON (no NaN or infinity), indented.

    Non-ASCII characters are written as they are, unless the text cannot be encoded for
    standard output (a lone surrogate from a file name, a terminal that is not UTF-8): then every
    non-ASCII character is written as a JSON ``\\u`` escape, which reads back the same.
    """
    text = json.dumps(payload, allow_nan=False, ensure_ascii=False, indent=2)
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        text = json.dumps(payload, allow_nan=False, ensure_ascii=True, indent=2)
    write(text)


def write(text: str) -> None:
    """Print `text` and a newline to standard output, and flush it.

    A reader that has gone away (``mcnemar ... | head``), or standard output closed from the
    start, is not an error: the output is dropped and the command goes on to its exit status, so
    a release gate still fails with 1. Any other failure to write (a full disk) raises OSError
    naming standard output.
    """
    if sys.stdout is None:  # started with standard output closed (`>&-`): no reader at all
        return
    encoding = sys.stdout.encoding or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:  # an ASCII or Latin-1 terminal: "−" is written as "\u2212"
        text = text.encode(encoding, "backslashreplace").decode(encoding)
    try:
        print(text)
    except BrokenPipeError:
        silence_stdout()
    except OSError as error:  # a full disk, a device that refuses: say where it happened
        raise OSError(error.errno, error.strerror, "standard output") from None
    flush()


def flush() -> None:
    """Flush standard output, with the care of :func:`write` (the command line's last step)."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    except OSError as error:
        raise OSError(error.errno, error.strerror, "standard output") from None


def silence_stdout() -> None:
    """Send what is left for standard output to the null device (its reader has gone away).

    Python flushes standard output once more at exit; pointed at the null device, that flush
    cannot fail again with "Broken pipe" (the recipe of the Python documentation, signal module).
    """
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor: an in-memory stream
        pass
