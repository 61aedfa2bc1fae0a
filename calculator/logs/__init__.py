"""Evaluation-harness logs read directly: lm-evaluation-harness, Inspect and HELM.

Modules, in reading order:

- :mod:`~calculator.logs.table`: :class:`LogTable`, the long table every reader yields (system,
  task, case, repeat, metric, value), and :class:`LogError`;
- :mod:`~calculator.logs.lmeval`, :mod:`~calculator.logs.inspect_log`,
  :mod:`~calculator.logs.helm`: one reader per format;
- :mod:`~calculator.logs.sources`: :func:`read_log`, a file or folder recognised by content;
- :mod:`~calculator.logs.select`: the filter and the metric compared, and the refusals of a
  biased remainder;
- :mod:`~calculator.logs.pairing`: :func:`pair_logs`, each task's rows paired by
  :func:`calculator.cases.load_cases`;
- :mod:`~calculator.logs.question_means`: graded scores with different repeats in A and B,
  each question at its mean over every repeat;
- :mod:`~calculator.logs.analysis`: :func:`analyze_logs`, per task, pooled, clustered by task,
  Holm across tasks; by question for repeats (the pass shares by
  :func:`calculator.scores.signflip.lattice_sign_flip`).

pandas is imported inside the functions that need it, so ``import calculator`` stays light.
"""

from calculator.logs.analysis import LogAnalysis, TaskAnalysis, analyze_logs
from calculator.logs.pairing import MAX_EXCLUDED_SHARE, PairedLogs, pair_logs
from calculator.logs.sources import log_format, read_log, read_log_data
from calculator.logs.table import LogError, LogTable

__all__ = [
    "LogError",
    "LogTable",
    "read_log",
    "read_log_data",
    "log_format",
    "pair_logs",
    "PairedLogs",
    "MAX_EXCLUDED_SHARE",
    "analyze_logs",
    "LogAnalysis",
    "TaskAnalysis",
]
