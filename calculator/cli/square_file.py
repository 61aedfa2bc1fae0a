"""A per-case file with categorical outcomes on the command line: ``square --file`` and
``cases --categories`` read it through the one per-case reader
(:func:`calculator.cases.labels.read_labels`) and print its ledger above the k x k report.

    python -m calculator square --file FILE --a COL --b COL [--id COL] [--categories x,y,z]
    python -m calculator cases FILE --a COL --b COL [--id COL] --categories [x,y,z]

With ``cases``, a bare ``--categories`` takes the categories from the labels seen (sorted); a
list gives them in their order, and a label not listed leaves its row out, shown in the ledger.
"""

from __future__ import annotations

import argparse

from calculator.cli.arguments import UsageError
from calculator.cli.output import print_json, print_lines
from calculator.cli.shared import issue_lines, require_cases_extra
from calculator.report.square import square_payload, square_report
from calculator.square import analyze_square

__all__ = [
    "add_categories_argument",
    "is_categories_input",
    "ledger_lines",
    "read_file_table",
    "run_categories",
]

# Options of ``cases`` that a k x k table has no use for, with their values when not given.
_PASS_FAIL_ONLY = {
    "file_b": None,
    "group_column": None,
    "threshold": None,
    "fail_if_worse": False,
    "resamples": None,
    "better": None,
    "alternative": "two-sided",
    "margin": None,
    "equivalence": False,
    "metric": None,
    "filter": None,
    "split": None,
    "system_column": None,
    "outcome_column": None,
    "repeat_column": None,
    "task_column": None,
    "metric_by_task": None,
    "filter_by_task": None,
    "allow_exclusions": False,
    "names": None,
    "models": None,
    "anytime": False,
    "anytime_prior": 1.0,
    "detect": None,
    "monitor": False,
    "every": None,
    "order": None,
}


def add_categories_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--categories`` to ``cases``: categorical outcomes, analysed as a k x k table."""
    parser.add_argument(
        "--categories",
        nargs="?",
        const="",
        metavar="LIST",
        help="the outcomes are categories (graded or multi-class labels): analyse the k x k "
        "table of A's label by B's (symmetry, marginal homogeneity, each category). Bare, the "
        "categories are the labels seen; or list them in their order, comma-separated",
    )


def is_categories_input(args: argparse.Namespace) -> bool:
    """True when ``cases`` was given ``--categories``."""
    return getattr(args, "categories", None) is not None


def run_categories(args: argparse.Namespace) -> int:
    """``cases FILE --a COL --b COL --categories``: the k x k analysis of one per-case file."""
    given = [
        option
        for option, default in _PASS_FAIL_ONLY.items()
        if getattr(args, option, default) != default
    ]
    if given:
        flag = "FILE_B" if given[0] == "file_b" else "--" + _flag(given[0])
        raise UsageError(
            f"{flag} does not apply to --categories, which analyses one file's two label "
            "columns as a k x k table; its options are --id, --a, --b, --alpha (the intervals at "
            "1 - alpha) and --json"
        )
    categories = _names(args.categories) if args.categories else None
    labelled = read_file_table(args.file, args.a_column, args.b_column, args.id_column, categories)
    result = analyze_square(labelled.table, level=1.0 - args.alpha)
    print_result(labelled, result, as_json=args.json)
    return 0


def read_file_table(
    file: str, a_column: str | None, b_column: str | None, id_column: str | None, categories
):  # noqa: ANN201 - a LabelledCases, imported lazily with pandas
    """The labelled cases of `file` (pandas is imported here, not with the command line)."""
    require_cases_extra()
    if a_column is None or b_column is None:
        raise UsageError("categorical outcomes need --a and --b, the columns of A's and B's labels")
    from calculator.cases.labels import read_labels

    return read_labels(file, a_column, b_column, id_column=id_column, categories=categories)


def print_result(labelled, result, *, as_json: bool) -> None:  # noqa: ANN001
    """The analysis with its ledger: JSON with an "input" key, or the ledger's lines first."""
    if as_json:
        print_json({**square_payload(result), "input": labelled.input_summary()})
    else:
        print_lines([*ledger_lines(labelled), "", *square_report(result).splitlines()])


def ledger_lines(labelled) -> list[str]:  # noqa: ANN001 - a LabelledCases
    """What was read and what was left out, line by line, as ``cases`` prints it."""
    columns = f"A = {labelled.columns[0]!r}, B = {labelled.columns[1]!r}"
    if labelled.id_column:
        columns += f", id = {labelled.id_column!r}"
    lines = [
        f"input     {labelled.file} ({columns}; categorical outcomes)",
        f"rows      {labelled.rows_read:,} read, {labelled.rows_used:,} used, "
        f"{labelled.rows_read - labelled.rows_used:,} excluded",
    ]
    for reason, count in labelled.excluded.items():
        if count:
            lines.append(f"          excluded, {reason.replace('_', ' ')}: {count:,}")
    lines += issue_lines(labelled.issues)
    return lines


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",")]


def _flag(dest: str) -> str:
    named = {"metric_by_task": "metric", "filter_by_task": "filter"}
    return {
        "group_column": "group",
        "system_column": "system",
        "outcome_column": "outcome",
        **named,
    }.get(dest, dest.replace("_column", "").replace("_", "-"))
