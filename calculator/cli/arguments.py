"""What every subcommand of the command line shares: the parser, argument types, the output.

A subcommand module defines ``add_parser(subparsers)``, which adds its parser (made by
:class:`Parser`, so a mistake is one line) and sets ``func`` to a function taking the parsed
arguments and returning the exit status.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable

__all__ = [
    "EXIT_USAGE",
    "Parser",
    "UsageError",
    "count",
    "finite_number",
    "level",
    "print_json",
]

#: Exit status for a usage error or an unusable value.
EXIT_USAGE = 2


class UsageError(Exception):
    """A command-line mistake; its message is the one line printed on stderr."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes raise :class:`UsageError` instead of printing usage."""

    # argparse prints the whole usage block and exits; one clear line is easier to act on.
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def count(name: str) -> Callable[[str], int]:
    """An argparse type that accepts whole numbers written as integers only."""

    def parse(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} must be a non-negative integer, but got {text!r}"
            ) from None

    return parse


def finite_number(option: str) -> Callable[[str], float]:
    """An argparse type that accepts a finite decimal number."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{option} must be a finite number, but got {text!r}")
        return value

    return parse


def level(option: str) -> Callable[[str], float]:
    """An argparse type that accepts a number strictly between 0 and 1."""
    number = finite_number(option)

    def parse(text: str) -> float:
        value = number(text)
        if not 0.0 < value < 1.0:
            raise argparse.ArgumentTypeError(
                f"{option} must be a number strictly between 0 and 1, but got {text!r}"
            )
        return value

    return parse


def print_json(payload: object) -> None:
    """Print `payload` as strict JSON (no NaN or infinity), indented, non-ASCII kept."""
    print(json.dumps(payload, allow_nan=False, ensure_ascii=False, indent=2))
