"""Which way a metric is better, as the harness that wrote the log states it.

lm-evaluation-harness writes, beside its samples files, a results file
(``results_<time>.json``) whose ``higher_is_better`` section says, per task and metric, whether
a higher value is better (``{"asr": {"wer": false}}``). A metric's name alone cannot say so (a
renamed ``asr_metric`` reads as nothing), so the chooser takes the harness's word for the
metric compared (:func:`stated_better`), as it takes ``--better``; ``--better`` overrides it,
and the report says when the two differ. Numbers and codes only: "higher", "lower" or None.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calculator.logs.table import LogTable

__all__ = ["results_directions", "stated_better", "with_directions", "with_results_beside"]

#: A results file's size limit when read for its directions (its summary is small).
_MAX_RESULTS_BYTES = 64 * 1024 * 1024


def results_directions(document: object) -> tuple[tuple[str, str, bool], ...]:
    """(task, metric, higher is better) for each boolean of a results file's
    ``higher_is_better`` section; nothing when it has none.

    Examples
    --------
    >>> results_directions({"higher_is_better": {"asr": {"wer": False, "x": "?"}}})
    (('asr', 'wer', False),)
    """
    section = document.get("higher_is_better") if isinstance(document, dict) else None
    if not isinstance(section, dict):
        return ()
    found = []
    for task, metrics in section.items():
        if isinstance(metrics, dict):
            found += [
                (str(task), str(metric), bool(higher))
                for metric, higher in metrics.items()
                if isinstance(higher, bool)
            ]
    return tuple(found)


def with_results_beside(table: LogTable, sources: Iterable[object]) -> LogTable:
    """`table` with the directions stated by lm-eval's results files of the same runs beside
    its samples files (`sources`: paths; bytes, from uploads, have no folder and are skipped).
    A results file that cannot be read states nothing."""
    from calculator.logs.jsontext import parse_json
    from calculator.logs.lmeval import lm_eval_time

    found: dict[tuple[str, str], bool] = {}
    seen: set[Path] = set()
    for source in sources:
        if not isinstance(source, Path):
            continue
        time = lm_eval_time(source.name)
        if time is None:
            continue
        for results in sorted(source.parent.glob(f"*results_{time}.json")):
            if results in seen or results.is_symlink():
                continue
            seen.add(results)
            try:
                if results.stat().st_size > _MAX_RESULTS_BYTES:
                    continue
                document = parse_json(results.read_bytes(), results.name)
            except (OSError, ValueError):
                continue
            for task, metric, higher in results_directions(document):
                found.setdefault((task, metric), higher)
    return with_directions(table, [(task, metric, h) for (task, metric), h in found.items()])


def with_directions(table: LogTable, stated: Iterable[tuple[str, str, bool]]) -> LogTable:
    """`table` with the directions `stated` (the first for each task and metric); unchanged
    when none is."""
    found: dict[tuple[str, str], bool] = {}
    for task, metric, higher in stated:
        found.setdefault((task, metric), higher)
    if not found:
        return table
    return dataclasses.replace(
        table, higher_is_better=tuple((t, m, h) for (t, m), h in found.items())
    )


def stated_better(tables: Iterable[LogTable], metrics: Mapping[str, str]) -> str | None:
    """ "lower" or "higher" when the logs state one direction for the metric compared in
    each task (`metrics`: task -> metric), None when none is stated or they disagree.

    Examples
    --------
    >>> from types import SimpleNamespace as T
    >>> log = T(higher_is_better=(("asr", "wer", False),))
    >>> stated_better([log, T(higher_is_better=())], {"asr": "wer"})
    'lower'
    >>> stated_better([log], {"asr": "acc"}) is None
    True
    """
    said = set()
    for table in tables:
        for task, metric, higher in table.higher_is_better:
            if metrics.get(task) == metric:
                said.add("higher" if higher else "lower")
    return said.pop() if len(said) == 1 else None
