"""Many tasks are paired in time linear in their number (hostile review 4, H4).

2,000 lm-eval tasks (the limit) of 100 documents took 74 s of CPU: each task's rows were taken
by comparing the whole table's task column with the task's name (in the pairing and again in
the choice of the filter), 2 x 2,000 scans of 400,000 rows. The tables are now split by task
once. The test counts the rows compared, never the time (benchmarks/bench_limits.py times it).
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from calculator.logs import pair_logs, read_log_data

TIMES = ("2024-07-01T00-00-00.000000", "2024-07-02T00-00-00.000000")


def logs(tasks: int, docs: int = 3) -> list:
    """Two lm-eval runs of `tasks` tasks, each logged under the filter "none"."""
    runs = []
    for side, time in enumerate(TIMES):
        files = []
        for k in range(tasks):
            lines = (
                json.dumps({"doc_id": i, "doc": {}, "filter": "none", "acc": (i + k + side) % 2})
                for i in range(docs)
            )
            files.append((f"samples_task{k:04d}_{time}.jsonl", "\n".join(lines).encode()))
        runs.append(read_log_data(files, system="AB"[side]))
    return runs


def compared(monkeypatch: pytest.MonkeyPatch, tasks: int) -> int:
    """Rows compared with == while `tasks` tasks are paired."""
    a, b = logs(tasks)
    total = [0]
    equal = pd.Series.__eq__

    def counting(self, other):
        total[0] += len(self)
        return equal(self, other)

    with monkeypatch.context() as patch:
        patch.setattr(pd.Series, "__eq__", counting)
        paired = pair_logs(a, b)
    assert len(paired.tasks) == tasks and paired.task_filters[f"task{tasks - 1:04d}"] == "none"
    return total[0]


def test_rows_compared_grow_linearly_with_the_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    small, large = compared(monkeypatch, 40), compared(monkeypatch, 160)
    # Four times the tasks (and rows): linear work compares about 4 times the rows, a scan of
    # the whole table per task 16 times (the old code: 16.0).
    assert large <= 6 * small, (small, large)
