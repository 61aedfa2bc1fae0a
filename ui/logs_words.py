"""Words of the per-case page's section for evaluation-harness logs.

Pure Python (no Streamlit). The report of a comparison is the core's
(:func:`calculator.report.logs.report_lines`), shown as plain text.
"""

from __future__ import annotations

__all__ = [
    "ALLOW_HELP",
    "BAD_THRESHOLD",
    "ALLOW_LABEL",
    "A_LABEL",
    "B_LABEL",
    "FILTER_HELP",
    "FILTER_LABEL",
    "INTRO",
    "LOG_TYPES",
    "METRIC_HELP",
    "METRIC_LABEL",
    "PROMPT",
    "TABLE_COLUMNS",
    "THRESHOLD_HELP",
    "THRESHOLD_LABEL",
    "TITLE",
]

TITLE = "Compare evaluation-harness logs directly (lm-eval, Inspect, HELM)"
INTRO = (
    "Give each system's log: lm-evaluation-harness samples files (one per task; select every "
    "file of a results folder), Inspect .eval or JSON logs, or HELM per_instance_stats.json. "
    "The cases are paired task by task on the harness's own ids; the metric used is named with "
    "the reason it was chosen."
)
A_LABEL = "Logs of A"
B_LABEL = "Logs of B"
LOG_TYPES = ("jsonl", "json", "eval")
METRIC_LABEL = "Metric (optional)"
METRIC_HELP = (
    "The lm-eval metric key, the Inspect scorer or the HELM stat; chosen when empty "
    "(--metric on the command line)."
)
FILTER_LABEL = "lm-eval filter (optional)"
FILTER_HELP = (
    "Needed when a task is logged under several filters, such as strict-match (--filter on the "
    "command line)."
)
THRESHOLD_LABEL = "Threshold (optional)"
THRESHOLD_HELP = (
    "Scores (partial credit, graded stats) pass when at least this value (--threshold on the "
    "command line)."
)
BAD_THRESHOLD = "The threshold must be a finite number, such as 0.5."
ALLOW_LABEL = "Analyse what pairs even when rows are left out systematically"
ALLOW_HELP = (
    "Repeated cases, partial credit read as pass/fail, or more than 5% of a log without a "
    "partner stop the analysis, as what is left is rarely a random part of the questions "
    "(--allow-exclusions on the command line)."
)
PROMPT = "Give the logs of both systems."
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
