"""``cases --flips N``, ``--flips-csv PATH``, ``--text COL`` and ``--format markdown``: the
flipped cases of a comparison with their texts, and the report to paste.

    python -m calculator cases LOG_A LOG_B --flips 5
    python -m calculator cases a.csv b.csv --id id --a ok --b ok --text prompt --flips 5
    python -m calculator cases LOG_A LOG_B --format markdown > report.md

``--flips N`` prints the churn (flips by task) and the first N flips of each direction with
their texts cut; with ``--json`` the document's "flips" holds every flip with its full texts;
``--flips-csv PATH`` writes every flip, texts whole, as CSV (text cells escaped against
spreadsheet formulas). ``--format markdown`` prints the comparison as GitHub-renderable
Markdown with the top flips (N of each direction with ``--flips N``, else 10) in a collapsed
block. Logs carry their own texts; a per-case file names its text columns with ``--text``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from calculator.cli.arguments import UsageError
from calculator.cli.arguments import count as whole_number

if TYPE_CHECKING:
    from calculator.cases import PairedCases
    from calculator.flips import Flips
    from calculator.logs.pairing import PairedLogs

__all__ = [
    "add_flips_arguments",
    "add_flips_output",
    "check_flips_options",
    "flips_of_cases",
    "flips_of_logs",
    "markdown_output",
    "wants_flips",
]

_FORMATS = ("text", "json", "markdown", "html")


def add_flips_arguments(parser: argparse.ArgumentParser) -> None:
    """``--flips N``, ``--flips-csv PATH``, ``--text COL`` and ``--format``."""
    parser.add_argument(
        "--flips",
        type=whole_number("--flips", maximum=1_000_000),
        metavar="N",
        help="list the cases where exactly one system passes (for scores, the largest "
        "differences), the first N of each direction with their texts cut, and the flips by "
        "task: regressions (only A, the baseline, passes) and improvements (only B, the new "
        "system, passes); with --json every flip with its full texts",
    )
    parser.add_argument(
        "--flips-csv",
        metavar="PATH",
        help="write every flip (task, id, both outcomes, the full texts) to PATH as CSV",
    )
    parser.add_argument(
        "--text",
        action="append",
        metavar="COL",
        help="per-case files: a column holding a text of each case (a prompt, an output), "
        "shown beside its flips (repeatable); a column in both files that differs is each "
        "system's own",
    )
    parser.add_argument(
        "--format",
        choices=_FORMATS,
        metavar="text|json|markdown|html",
        help="the output: text (the default), json (as --json), markdown (a report to paste "
        "into GitHub, with the top flips in a collapsed block) or html (pass/fail: the same report "
        "as one self-contained page with a chart of each task's difference, for a release)",
    )


def wants_flips(args: argparse.Namespace) -> bool:
    """Whether the flips are asked for (listed, written, or in the Markdown report)."""
    return (
        getattr(args, "flips", None) is not None
        or getattr(args, "flips_csv", None) is not None
        or getattr(args, "format", None) in ("markdown", "html")
    )


def check_flips_options(args: argparse.Namespace, *, refused_by: str | None = None) -> None:
    """``--format json`` is ``--json``; ``--json`` beside another format is refused, and every
    flips option where `refused_by` (what the run is) cannot answer it."""
    fmt = getattr(args, "format", None)
    flips = getattr(args, "flips", None)
    if flips is not None and flips < 0:  # argparse's count leaves the range to the caller
        raise UsageError(
            f"--flips must be a non-negative integer (how many flips of each direction to "
            f"list; 0 for the churn alone), but got {flips}"
        )
    _check_csv_path(args)
    if fmt == "json":
        args.json = True
    elif fmt is not None and args.json:
        raise UsageError(f"--json and --format {fmt} ask for two outputs: give one")
    if refused_by is None:
        return
    for option, given in (
        ("--flips", args.flips is not None),
        ("--flips-csv", args.flips_csv is not None),
        ("--text", bool(args.text)),
        ("--format markdown", fmt == "markdown"),
        ("--format html", fmt == "html"),
    ):
        if given:
            raise UsageError(f"{option} lists the flips of a paired comparison; {refused_by}")


def _check_csv_path(args: argparse.Namespace) -> None:
    """``--flips-csv PATH`` is refused where it would overwrite an input (the same file, by
    its resolved path, or a file inside an input folder, which the next read would take for a
    log) and as ``-``: standard output carries the report, so the CSV needs a file of its own."""
    path = getattr(args, "flips_csv", None)
    if path is None:
        return
    if path == "-":
        raise UsageError(
            "--flips-csv -: standard output carries the report; give the CSV a file path "
            "(--json puts every flip in the JSON on standard output)"
        )
    target = Path(path).resolve()
    for given in (getattr(args, "file", None), getattr(args, "file_b", None)):
        if given is None:
            continue
        source = Path(given).resolve()
        if target == source or (source.is_dir() and source in target.parents):
            raise UsageError(
                f"--flips-csv {path}: that is the input {given} (or inside it); writing the "
                "flips there would overwrite what was read: give another path"
            )


def flips_of_logs(
    args: argparse.Namespace, paired: PairedLogs, *, better: str | None = None
) -> Flips | None:
    """The flips of two paired logs with their texts (read again for the flipped ids only),
    or None when not asked for; a long file gives ids only. For scores, `better` is the
    comparison's better direction (``--better``, else the log's stated one, else higher)."""
    if args.text:
        raise UsageError(
            "--text names text columns of a per-case file; harness logs carry their own texts "
            "(a long file none)"
        )
    if not wants_flips(args):
        return None
    from calculator.flips import oriented
    from calculator.flips.attach import read_log_flips

    sources = (args.file, args.file_b if args.file_b is not None else args.file)
    return oriented(read_log_flips(paired, sources), better)


def flips_of_cases(
    args: argparse.Namespace,
    cases: PairedCases,
    *,
    scores: bool = False,
    better: str | None = None,
) -> Flips | None:
    """The flips of a per-case file (or two) with the texts of ``--text`` columns; with
    `scores` (score columns compared by their means), the largest differences both ways,
    "regression" where A scores better in the comparison's `better` direction."""
    if args.text and not wants_flips(args):
        raise UsageError("--text shows texts beside the flips: give it with --flips N")
    if not wants_flips(args):
        return None
    from calculator.flips import cases_flips, oriented, with_texts
    from calculator.flips.case_texts import case_file_texts

    flips = oriented(cases_flips(cases, scores=scores), better)
    wanted = {flip.case for flip in flips.flips}
    return with_texts(flips, *case_file_texts(cases, args.text or [], wanted))


def add_flips_output(
    args: argparse.Namespace,
    flips: Flips | None,
    *,
    lines: list[str] | None = None,
    document: dict | None = None,
) -> None:
    """The flips in the text report's `lines` (with ``--flips N``) or the JSON `document`
    ("flips", every one), and the CSV file of ``--flips-csv``."""
    if flips is None:
        return
    if args.flips_csv is not None:
        _write_csv(args.flips_csv, flips)
    if document is not None:
        document["flips"] = flips.to_dict()
    elif lines is not None and args.flips is not None:
        from calculator.report.flips import flip_lines

        lines += ["", *flip_lines(flips, args.flips)]


def markdown_output(args: argparse.Namespace, result: object, flips: Flips | None) -> bool:
    """Print the Markdown (or HTML) report when ``--format`` asks for it; whether it did."""
    fmt = getattr(args, "format", None)
    if fmt not in ("markdown", "html"):
        return False
    from calculator.cli.output import write
    from calculator.report.markdown import TOP_FLIPS, is_scores, markdown_report

    top = args.flips if args.flips is not None else TOP_FLIPS
    if fmt == "html":
        if is_scores(result):
            raise UsageError(
                "--format html draws differences in pass rate; these outcomes are scores: use "
                "--format markdown (or cut them with --threshold)"
            )
        from calculator.report.html_report import html_report

        write(html_report(result, flips, alpha=args.alpha, gate=args.fail_if_worse, top=top))
    else:
        write(markdown_report(result, flips, alpha=args.alpha, gate=args.fail_if_worse, top=top))
    if flips is not None and args.flips_csv is not None:
        _write_csv(args.flips_csv, flips)
    return True


def _write_csv(path: str, flips: Flips) -> None:
    from calculator.flips.table import flips_csv

    try:
        Path(path).write_text(flips_csv(flips), encoding="utf-8", newline="")
    except OSError as error:
        raise UsageError(f"--flips-csv {path}: cannot write the file ({error.strerror})") from None
