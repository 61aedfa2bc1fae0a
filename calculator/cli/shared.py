"""What several subcommands share: exit statuses, the per-case extra, the gate's line and the
reading of harness logs. Subcommands import this module, never each other."""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from calculator.cli.arguments import UsageError
from calculator.report.gate import gate_verdict

if TYPE_CHECKING:
    from collections.abc import Sequence

    from calculator.analysis import Analysis
    from calculator.cases.findings import CaseIssue
    from calculator.logs import LogTable

__all__ = [
    "ANALYSED_AS_PASS_FAIL",
    "ANALYSED_AS_SCORES",
    "CASES_EXTRA",
    "EXIT_WORSE",
    "check_paths",
    "gate_line",
    "issue_lines",
    "read_logs",
    "require_cases_extra",
]

#: Exit status when --fail-if-worse finds B worse than A.
EXIT_WORSE = 1
#: What reading per-case files needs beyond numpy and scipy: the package's ``cases`` extra.
CASES_EXTRA = ("pandas", "pyarrow")
#: The JSON's "analysed_as": outcomes compared as scores, or as pass/fail.
ANALYSED_AS_SCORES = "scores"
ANALYSED_AS_PASS_FAIL = "pass/fail"


def require_cases_extra() -> None:
    """Refuse, saying what to install, when the ``cases`` extra is missing."""
    missing = [name for name in CASES_EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(
            f"per-case files need {' and '.join(missing)}, not installed here: "
            "pip install 'mcnemar-calculator[cases]' (from a checkout, pip install '.[cases]')"
        )


def check_paths(paths: list[str]) -> None:
    """Refuse a path that is missing, unreadable, or neither a file nor a folder (a pipe, a
    device), first and whatever the options: otherwise an option that does not fit a per-case
    file (``--metric``) is answered about a file that is not there.

    Raises
    ------
    OSError
        Naming the path and why (printed as ``error: PATH: reason``).
    """
    import errno
    import os

    for path in paths:
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
        if not (os.path.isfile(path) or os.path.isdir(path)):
            raise OSError(errno.EINVAL, "neither a file nor a folder, so it is not read", path)
        if not os.access(path, os.R_OK | (os.X_OK if os.path.isdir(path) else 0)):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)


def gate_line(analysis: Analysis, alpha: float) -> str:
    """The release gate's verdict in one line (:func:`calculator.report.gate.gate_verdict`)."""
    return f"gate      {gate_verdict(analysis, alpha)}"


def read_logs(
    paths: list[str],
    split: str | None,
    models: tuple[str, ...] | None = None,
    names: tuple[str, ...] | None = None,
) -> list[LogTable]:
    """Each system's log; `split` (``--split``) is HELM's split analysed, refused for others;
    `models` (``--models``) the model read from each path (a folder of several models' runs);
    `names` (``--names``) the systems' names in the report, in place of the logs' own."""
    import dataclasses

    from calculator.logs import read_log

    chosen = models or (None,) * len(paths)
    logs = [
        read_log(path, model=model) if split is None else read_log(path, split=split, model=model)
        for path, model in zip(paths, chosen, strict=True)
    ]
    other = next((log for log in logs if log.format != "helm"), None)
    if split is not None and other is not None:
        raise UsageError(
            f"--split applies to HELM logs; {other.sources[0]} is an {other.format} log, "
            "whose cases have no split to choose"
        )
    if names is not None:
        logs = [
            dataclasses.replace(log, system=name) for log, name in zip(logs, names, strict=True)
        ]
    return logs


def issue_lines(issues: Sequence[CaseIssue]) -> list[str]:
    """A per-case file's findings, a line each with its first rows ("  ! ... First: row 3 (q2)."),
    as ``cases``, ``compare`` and ``cases --categories`` print them."""
    lines = []
    for issue in issues:
        first = ", ".join(
            f"{issue.row_label} {example.row}"
            + (f" ({example.case_id})" if example.case_id else "")
            for example in issue.examples
        )
        lines.append(f"  ! {issue.message}" + (f" First: {first}." if first else ""))
    return lines
