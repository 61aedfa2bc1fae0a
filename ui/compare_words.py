"""Words of the "three or more systems" part of the per-case page (pure: no Streamlit).

The sentences about the statistics themselves are the core's (:mod:`calculator.report.compare`),
shared with the command line; here are the page's labels, captions and choices.
"""

from __future__ import annotations

import pandas as pd

from calculator.cases.systems_result import SYSTEM_EXCLUSION_REASONS, SystemCases
from calculator.compare import SystemComparison
from calculator.report.compare import ADJUSTMENT_NAMES, describe_ties
from calculator.report.formatting import plural
from ui.cases_words import reason_text

__all__ = [
    "HEADING",
    "INTRO",
    "LAYOUTS",
    "MODES",
    "UPLOAD_HELP",
    "UPLOAD_LABEL",
    "UPLOAD_PROMPT",
    "FOLDER_SYSTEMS",
    "folder_line",
    "CHOOSE_SYSTEMS",
    "guess_system_column",
    "exclusion_table",
    "heatmap_caption",
    "pair_label",
    "ranking_caption",
    "separating_label",
    "validation_line",
]

#: The page's two modes, as the switch shows them.
MODES = ("Two systems (A and B)", "Three or more systems")
HEADING = "Three or more systems on the same cases"
INTRO = (
    "Upload one file with a column per system (wide), one file with a row per case and system "
    "(long), or one file per system sharing a case id. Only cases with an outcome for every "
    "chosen system are compared."
)
UPLOAD_LABEL = (
    "Results (one file, or one file per system; or an Inspect eval-set folder's files together, "
    "or a zip of the folder)"
)
UPLOAD_HELP = (
    "Harness logs: one log per system, or several per system (its tasks). An Inspect eval-set "
    "folder: choose its .eval logs with logs.json and eval-set.json together, or upload a zip "
    "of the folder; it is read as the command line reads the folder (the logs logs.json lists, "
    "a failed attempt left out), each model one system. Its .eval-set-id file is not needed: "
    "the uploader does not take it."
)
UPLOAD_PROMPT = "Upload the results (one file, or one file per system), or try the example."
CHOOSE_SYSTEMS = "Choose the outcome columns of at least two systems."
_SYSTEM_NAMES = ("system", "model", "model_name", "system_name", "run", "name")
#: How a single file is shaped, as the choice shows it, by layout key.
LAYOUTS = {
    "wide": "One column per system (wide)",
    "long": "One row per case and system (long)",
}

_MORE_REASONS = {
    "other_system": "a system not chosen",
    "missing_system": "the case has no row for some system",
    "partner_excluded": "the case lost another system's row",
}


def exclusion_table(cases: SystemCases) -> pd.DataFrame:
    """Rows read, used and excluded by reason (reasons with no row left out are omitted)."""
    labels = ["rows read", "rows used"]
    counts = [cases.rows_read, cases.rows_used]
    for reason in SYSTEM_EXCLUSION_REASONS:
        if cases.excluded[reason]:
            labels.append(f"excluded: {_MORE_REASONS.get(reason) or reason_text(reason)}")
            counts.append(cases.excluded[reason])
    return pd.DataFrame({"rows": counts}, index=labels)


def validation_line(cases: SystemCases) -> tuple[bool, str]:
    """Whether rows were left out, and one sentence saying how many cases are compared.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> validation_line(SimpleNamespace(rows_read=30, rows_used=27, n=9, names=("a", "b", "c"),
    ...                                 cases_missing_system=1, cases_with_excluded_row=0))
    (True, '9 cases of 3 systems compared (27 of 30 rows used); 1 case dropped because a system \
has no outcome for it, 0 because an outcome or row was left out.')
    """
    left_out = cases.rows_used < cases.rows_read
    text = (
        f"{plural(cases.n, 'case')} of {len(cases.names)} systems compared ({cases.rows_used:,} "
        f"of {plural(cases.rows_read, 'row')} used)"
    )
    if cases.cases_missing_system or cases.cases_with_excluded_row:
        text += (
            f"; {plural(cases.cases_missing_system, 'case')} dropped because a system has no "
            f"outcome for it, {cases.cases_with_excluded_row:,} because an outcome or row was "
            "left out"
        )
    return left_out, text + "."


def heatmap_caption(result: SystemComparison) -> str:
    """What the heatmap's colours, numbers and outlines mean."""
    return (
        "Each cell is the row system's pass rate minus the column system's, in percentage "
        "points (blue: the row passes more often). Outlined, starred cells differ at α = "
        f"{result.alpha:g} after {ADJUSTMENT_NAMES[result.adjust]}'s adjustment for "
        f"{plural(result.family_size, 'pair')} (exact McNemar tests)."
    )


def ranking_caption(result: SystemComparison) -> str:
    """What the ranking shows, and which pairs of systems it cannot order.

    Examples
    --------
    >>> from calculator.compare import compare_systems
    >>> r = compare_systems([[1, 0, 0], [0, 1, 0], [1, 1, 0]], ["x", "y", "z"])
    >>> ranking_caption(r)
    'Pass rates with 95% Wilson intervals, highest first. x and y pass equally often (2 of the 3 \
cases each): they are tied, not ranked. Not separated after the adjustment: x and y; x and z; y \
and z.'
    """
    level = f"{100 * result.level:g}%"
    rank = {name: position for position, name in enumerate(result.ranking)}
    tied = [
        " and ".join(sorted((pair.a, pair.b), key=rank.__getitem__))
        for pair in sorted(result.pairs, key=lambda p: sorted((rank[p.a], rank[p.b])))
        if not pair.reject
    ]
    text = f"Pass rates with {level} Wilson intervals, highest first."
    ties = describe_ties(result)
    if ties:
        text += " " + ties
    if not tied:
        return text + " Every pair is separated after the adjustment."
    return text + " Not separated after the adjustment: " + "; ".join(tied) + "."


def guess_system_column(columns: list[str]) -> str | None:
    """The column that most likely names the system in a long file, if one has a usual name.

    Examples
    --------
    >>> guess_system_column(["id", "Model", "ok"]), guess_system_column(["id", "ok"])
    ('Model', None)
    """
    lowered = {str(column).strip().lower(): column for column in columns}
    return next((lowered[name] for name in _SYSTEM_NAMES if name in lowered), None)


def pair_label(first: str, second: str) -> str:
    """The label of the button that opens a pair's table in the calculator."""
    return f"{first} vs {second}"


def separating_label(name: str, other: str, count: int) -> str:
    """A tab's label: the cases only `name` passes, against `other`."""
    return f"Only {name} passes ({count:,}), not {other}"


# Several systems' harness logs, and scores compared by ranks (ui/widgets/compare_ranks.py).
LOG_SYSTEMS = "Which system is each log of? (logs of one system: its tasks)"
FOLDER_SYSTEMS = "The systems' names (each model of the folder is one system)"
LOG_METRIC = "Metric (empty: each log's first pass/fail metric, else its first graded one)"
LOG_THRESHOLD = (
    "Threshold for a graded metric (pass at or above; empty: compare the scores by ranks)"
)
LOG_THRESHOLD_PLACEHOLDER = "empty: scores by ranks"
BETTER_LABEL = "Which scores are better (scores compared by ranks)"
BETTER_CHOICES = {"higher": "Higher", "lower": "Lower (error rates, losses)"}
BETTER_HELP = (
    "Ranks take the better score as rank 1. Left unset, higher scores are better, unless the "
    "score's name reads as lower-is-better (wer, loss, ...): then say which. Pass/fail outcomes "
    "are compared by pass rate, and a choice here is refused for them."
)
BY_TASK = "**By task, and the suite's answer**"
SCORES_SUITE_CAPTION = (
    "Below: Friedman's test over every question of every task, each question its own block (a "
    "stratum finer than its task), the suite's answer; the rows above answer each task alone."
)
SCORES_BY_RANKS = (
    "These outcomes are scores and no threshold is set: the systems are compared by their ranks "
    "within each case (Friedman's test). Tick the box above to cut them into pass/fail instead."
)


def folder_line(files: int, models: int) -> str:
    """How one folder's uploads are read (an eval set's files, a zip of a folder).

    >>> folder_line(6, 3)
    '6 files read as one folder, as the command line reads it: 3 models, each one system'
    """
    return (
        f"{plural(files, 'file')} read as one folder, as the command line reads it: "
        f"{models:,} models, each one system"
    )


def logs_line(names: tuple[str, ...], questions: int, tasks: int, metric: str, why: str) -> str:
    """What was compared: the systems, the questions every one answered, the tasks, the metric.

    >>> logs_line(("a", "b"), 10, 1, "acc", "the one asked for")
    '2 systems (a, b), 10 questions every one answered, 1 task; metric acc (the one asked for)'
    """
    return (
        f"{len(names)} systems ({', '.join(names)}), {plural(questions, 'question')} every one "
        f"answered, {plural(tasks, 'task')}; metric {metric} ({why})"
    )
