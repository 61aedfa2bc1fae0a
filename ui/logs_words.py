"""Words of the per-case page's section for evaluation-harness logs.

Pure Python (no Streamlit). The report of a comparison is the core's
(:func:`calculator.report.logs.report_lines`), shown as plain text.
"""

from __future__ import annotations

import re

from calculator.report.logs import Controls

__all__ = [
    "NAME_SEPARATOR",
    "PAGE_CONTROLS",
    "page_message",
    "model_label",
    "ONE_UPLOAD",
    "SAME_MODEL",
    "ALLOW_HELP",
    "BAD_THRESHOLD",
    "ALLOW_LABEL",
    "A_LABEL",
    "B_LABEL",
    "CONTROLS",
    "HOLM_EMPTY",
    "MISSING",
    "QUESTIONS_EMPTY",
    "FILTER_HELP",
    "FILTER_LABEL",
    "INTRO",
    "LOG_TYPES",
    "METRIC_HELP",
    "METRIC_LABEL",
    "PROMPT",
    "SCORES_POOLED",
    "SCORE_TABLE_COLUMNS",
    "TABLE_COLUMNS",
    "THRESHOLD_HELP",
    "THRESHOLD_LABEL",
    "TITLE",
]

TITLE = "Compare evaluation-harness logs directly (lm-eval, Inspect, HELM)"
INTRO = (
    "Give each system's log: lm-evaluation-harness samples files (one per task; select every "
    "file of a results folder, its results_*.json too for the model's name), Inspect .eval or "
    "JSON logs (an eval set's logs.json with them, or a zip of the eval-set folder), or HELM "
    "per_instance_stats.json (with its run_spec.json, or several runs as a zip of their "
    "folders, a suite's several models too). "
    "The cases are paired task by task on the harness's own ids; the metric used is named with "
    "the reason it was chosen."
)
A_LABEL = "Logs of A"
#: The command line's options as this section's controls, for the logs' own refusals (which
#: name the command line's options): longest first, so that no option is replaced in part.
PAGE_CONTROLS = (
    ("--allow-exclusions", "the box 'Analyse what pairs even when rows are left out'"),
    ("--threshold X", "the Threshold box"),
    ("--threshold", "the Threshold box"),
    ("--metric NAME", "the Metric box"),
    ("--metric", "the Metric box"),
    ("--filter NAME", "the lm-eval filter box"),
    ("--filter", "the lm-eval filter box"),
    ("--split", "the HELM split (a command-line option: python -m calculator cases --split)"),
    ("--models A,B", "the choice of each side's model"),
    ("--models", "the choice of each side's model"),
    ("--names", "the logs' own model names"),
    # A long file's columns (ui.widgets.cases_long), chosen in boxes named after them.
    ("--system COL", "the System column box"),
    ("--system", "the System column box"),
    ("--outcome COL", "the Outcome column box"),
    ("--outcome", "the Outcome column box"),
    ("--repeat COL", "the Repeat column box"),
    ("--repeat", "the Repeat column box"),
    ("--task COL", "the Task column box"),
    ("--task", "the Task column box"),
    ("--id COL", "the Case id box"),
    ("--id", "the Case id box"),
    ("--a and --b", "the A and B choices"),
)
B_LABEL = "Logs of B"
LOG_TYPES = ("jsonl", "json", "eval", "zip")
METRIC_LABEL = "Metric (optional)"
METRIC_HELP = (
    "The lm-eval metric key, the Inspect scorer or the HELM stat, for every task that logs it; "
    "TASK=NAME for one task, several separated by ';' (toy_add=acc_norm; gsm8k=exact_match). "
    "Empty: each task's own first pass/fail metric (--metric on the command line)."
)
#: How the report's reader changes what was compared here: the page's boxes, never the command
#: line's options.
CONTROLS = Controls(
    metric="type another in the Metric box",
    threshold="a value in the Threshold box cuts them into pass/fail for McNemar's test instead",
    more_tasks="the table below lists all",
    better="the “Better scores” choice",
)
FILTER_LABEL = "lm-eval filter (optional)"
FILTER_HELP = (
    "The filter for every task that logs it, such as strict-match; TASK=NAME for one task, "
    "several separated by ';'. Empty: each task's first filter (--filter on the command line)."
)
#: What separates several names in the Metric and filter boxes.
NAME_SEPARATOR = ";"
THRESHOLD_LABEL = "Threshold (optional)"
THRESHOLD_HELP = (
    "Scores (partial credit, graded stats) pass when at least this value, for McNemar's test "
    "(--threshold on the command line); without it such a metric is compared by its mean score."
)
BAD_THRESHOLD = "The threshold must be a finite number, such as 0.5."
ALLOW_LABEL = "Analyse what pairs even when rows are left out systematically"
ALLOW_HELP = (
    "Repeated cases, partial credit read as pass/fail, or more than 5% of a log without a "
    "partner stop the analysis, as what is left is rarely a random part of the questions "
    "(--allow-exclusions on the command line)."
)
PROMPT = (
    "Give the logs of both systems; an upload holding several models' logs (a zip of a HELM "
    "suite or of an eval-set folder) may be given as A's alone, and each side's model chosen."
)
#: Said when A's upload holds several models and B's is empty: both are read from it.
ONE_UPLOAD = "A's upload holds logs of several models: A and B are each one of them, chosen below."
#: Said when one upload is read for both sides with the same model chosen for each.
SAME_MODEL = "A and B are the same model of the same upload: choose two different models."


def model_label(side: str, count: int) -> str:
    """The label of the choice of `side`'s model among the `count` an upload holds.

    >>> model_label("A", 3)
    'Model of A (3 in its upload)'
    """
    return f"Model of {side} ({count:,} in its upload)"


#: The per-task table's columns.
TABLE_COLUMNS = (
    "task",
    "both pass",
    "only A",
    "only B",
    "both fail",
    "test",
    "p",
    "Holm-adjusted p",
)
#: The per-task table's columns when a graded metric is compared as scores ("questions" is
#: MISSING without repeated samples; "p" is the sign-flip permutation test's, the paired t test's
#: where the permutation test was not run).
SCORE_TABLE_COLUMNS = (
    "task",
    "cases",
    "questions",
    "mean A",
    "mean B",
    "mean difference A − B",
    "p",
    "Holm-adjusted p",
)
#: What a table cell shows where a figure does not exist (never the word None).
MISSING = "—"
#: The tables' captions for their empty cells.
HOLM_EMPTY = (
    f"A dash ({MISSING}) under Holm-adjusted p: with one task there is no other task to adjust "
    "for, so the task's p is the one to read."
)
QUESTIONS_EMPTY = (
    f"A dash ({MISSING}) under questions: the task has no repeated samples, so each case is a "
    "question of its own."
)
SCORES_POOLED = (
    "The metric holds values other than 0 and 1, so the logs are compared by their mean score. "
    "In the table, p is the sign-flip permutation test's (the paired t test's where that test "
    "was not run); with several tasks, the Holm-adjusted p allows for testing every task. "
    "Below, the comparison pooled "
    "over every task's questions, each counted once (with repeated samples, each question a "
    "cluster of its repeats): with several tasks it is the suite's answer, stratified by task, "
    "and the comparison with each task as a cluster follows it, shown for contrast."
)


def page_message(message: str) -> str:
    """A refusal or report line of the logs in this section's words: the command line's
    options it names become the boxes that do the same here. An option is replaced where it
    stands as a word (a task or model named ``x--task`` keeps its name).

    >>> page_message("name another with --id; compare with --metric NAME")
    'name another with the Case id box; compare with the Metric box'
    >>> page_message("task 'x--task' and --task")
    "task 'x--task' and the Task column box"
    """
    return _OPTION.sub(lambda found: _CONTROL_OF[found.group(0)], message)


_CONTROL_OF = dict(PAGE_CONTROLS)
#: Any option of PAGE_CONTROLS standing as a word; longest first, so none is replaced in part.
_OPTION = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(re.escape(option) for option, _ in sorted(PAGE_CONTROLS, key=lambda c: -len(c[0])))
    + r")(?![\w-])"
)
