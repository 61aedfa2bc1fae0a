"""What every subcommand of the command line shares: the parser and the argument types.

A subcommand module defines ``add_parser(subparsers)``, which adds its parser (made by
:class:`Parser`, so a mistake is one line) and sets ``func`` to a function taking the parsed
arguments and returning the exit status. What it prints goes through
:mod:`calculator.cli.output`.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from calculator._validation import MAX_COUNT, shown

__all__ = [
    "EXIT_USAGE",
    "Parser",
    "UsageError",
    "add_log_arguments",
    "add_side_names_arguments",
    "Once",
    "count",
    "file_name",
    "finite_number",
    "level",
]

#: Exit status for a usage error or an unusable value.
EXIT_USAGE = 2

# Longer counts are not converted: far beyond any limit, and slow or refused by int().
_LONGEST_COUNT = 100


class UsageError(Exception):
    """A command-line mistake; its message is the one line printed on stderr."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes raise :class:`UsageError` instead of printing usage."""

    # argparse prints the whole usage block and exits; one clear line is easier to act on.
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def count(name: str, maximum: int = MAX_COUNT) -> Callable[[str], int]:
    """An argparse type that accepts whole numbers written as integers only.

    The value goes on to the core, which checks its range; a number too long to convert quickly
    (Python refuses integers of over 4,300 digits) is refused here, with the limit, and a long
    text is shown shortened.

    Examples
    --------
    >>> count("b")("15")
    15
    >>> count("b")("9" * 5000)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: b must be a non-negative integer of at most \
1,000,000,000,000, but got an integer of 5,000 digits
    """

    def parse(text: str) -> int:
        digits = text.strip().lstrip("+")
        if len(digits) > _LONGEST_COUNT and digits.isascii() and digits.isdigit():
            raise argparse.ArgumentTypeError(
                f"{name} must be a non-negative integer of at most {maximum:,}, "
                f"but got an integer of {len(digits.lstrip('0')):,} digits"
            )
        try:
            if len(text) <= _LONGEST_COUNT:
                return int(text)
        except ValueError:
            pass
        raise argparse.ArgumentTypeError(
            f"{name} must be a non-negative integer, but got {shown(text)}"
        )

    return parse


def file_name(text: str) -> str:
    """An argparse type for a file to read: any non-blank path (the reader reports the rest).

    An empty argument (an unset shell variable, ``""``) would otherwise name the current
    directory.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(f"a file name is needed, but got {text!r}")
    return text


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


def prior_shape(option: str) -> Callable[[str], float]:
    """An argparse type for the k of the anytime-valid test's Beta(k, k) mixture, refused in
    the option's name (:func:`calculator.confidence_sequence.check_prior_shape`'s range)."""
    from calculator.confidence_sequence import MAX_PRIOR_SHAPE

    number = finite_number(option)

    def parse(text: str) -> float:
        value = number(text)
        if not 1 / MAX_PRIOR_SHAPE <= value <= MAX_PRIOR_SHAPE:
            raise argparse.ArgumentTypeError(
                f"{option} must be a number from 1e-06 to 1e+06 (the k of the Beta(k, k) "
                f"mixture), but got {text!r}"
            )
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


class Once(argparse.Action):
    """An option given at most once: a second copy is refused by name, not silently taken
    over the first (``--metric acc --metric f1`` would compare f1 alone)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        before = getattr(namespace, self.dest, None)
        if before is not None:
            raise argparse.ArgumentError(
                self,
                f"given twice ({before!r}, then {values!r}); one value is used for every task "
                "and file: give it once (a log option may name one task: TASK=NAME)",
            )
        setattr(namespace, self.dest, values)


class PerTask(Once):
    """``--metric NAME`` (every task that logs it: at most once, as :class:`Once`) or
    ``--metric TASK=NAME`` (that task; several tasks, each at most once), gathered in
    ``<dest>_by_task``. The task is what precedes the last "=" (HELM's run names hold "=")."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from calculator.logs.table import LogError
        from calculator.logs.task_choice import Asked

        text = str(values)
        if "=" not in text:
            super().__call__(parser, namespace, values, option_string)
            return
        chosen = getattr(namespace, f"{self.dest}_by_task", None) or {}
        try:
            asked = Asked(by_task=chosen).add(text)
        except LogError as error:
            raise argparse.ArgumentError(self, str(error)) from None
        setattr(namespace, f"{self.dest}_by_task", dict(asked.by_task))


def add_log_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of evaluation-harness logs: ``--metric``, ``--filter`` (a plain name at most
    once, ``TASK=NAME`` once per task: :class:`PerTask`), ``--allow-exclusions``."""
    parser.add_argument(
        "--metric",
        action=PerTask,
        metavar="[TASK=]NAME",
        help="harness logs: the metric compared (lm-eval metric key, Inspect scorer, HELM "
        "stat) for every task that logs it, or TASK=NAME for one task (repeatable); by "
        "default each task's own first pass/fail metric",
    )
    parser.add_argument(
        "--filter",
        action=PerTask,
        metavar="[TASK=]NAME",
        help="lm-eval logs: the filter compared (strict-match...) for every task that logs "
        "it, or TASK=NAME for one task (repeatable); by default each task's first filter",
    )
    parser.set_defaults(metric_by_task=None, filter_by_task=None)
    parser.add_argument(
        "--allow-exclusions",
        action="store_true",
        help="harness logs: analyse what pairs even when rows are left out systematically "
        "(repeated cases, partial credit, more than 5%% of a log unpaired)",
    )


def two_names(option: str, *, different: bool = True) -> Callable[[str], tuple[str, str]]:
    """An argparse type for ``A,B``: two non-blank names (one per side), different unless
    `different` is False.

    Examples
    --------
    >>> two_names("--names")("gpt-4o, llama")
    ('gpt-4o', 'llama')
    >>> two_names("--names")("solo")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: --names takes two names, A's and B's, separated by a comma \
(--names 'run 1,run 2'), but got 'solo'
    """

    def parse(text: str) -> tuple[str, str]:
        parts = [part.strip() for part in text.split(",")]
        same = different and len(parts) == 2 and parts[0] == parts[1]
        if len(parts) != 2 or not all(parts) or same:
            raise argparse.ArgumentTypeError(
                f"{option} takes two names, A's and B's, separated by a comma ({option} "
                f"'run 1,run 2'), but got {shown(text)}"
                + ("; the two are the same" if same else "")
            )
        return parts[0], parts[1]

    return parse


def add_side_names_arguments(parser: argparse.ArgumentParser) -> None:
    """``--names A,B`` (what the two logs' systems are called) and ``--models A,B`` (the model
    read from each side's folder when a folder holds several models' runs)."""
    parser.add_argument(
        "--names",
        type=two_names("--names"),
        action=Once,
        metavar="A,B",
        help="harness logs: the names of the two systems in the report (two logs of one model "
        "name are otherwise called A and B)",
    )
    parser.add_argument(
        "--models",
        type=two_names("--models", different=False),
        action=Once,
        metavar="A,B",
        help="harness logs: the model read from A's folder, then from B's, when a folder holds "
        "several models' runs (a HELM suite folder, an Inspect eval-set folder; the same "
        "folder may be given twice)",
    )


def add_split_argument(parser: argparse.ArgumentParser) -> None:
    """``--split NAME``: the split of HELM logs analysed (HELM's reader reads "test" unless told).

    Left None when not given, so that a command can refuse it for inputs other than HELM logs.
    """
    parser.add_argument(
        "--split",
        action=Once,
        metavar="NAME",
        help="HELM logs: the split whose per-instance stats are compared (HELM evaluates "
        "'valid' and 'test'; test unless given); refused for other inputs",
    )
