"""Several systems' harness logs on the compare page: one uploaded file per system, read and
compared as ``python -m calculator compare LOG LOG ...`` does.

:func:`compare_log_uploads` is the one call the page makes (in a child, through
:func:`ui.isolation.isolated`): the logs read from their bytes and grouped by the system the
visitor named, then :func:`calculator.compare.workflow.compare_log_systems`, the command line's
own path (read, pair, choose ranks or pass/fail, analyse), returning one picklable value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import PurePath

from calculator.compare.workflow import LogsComparison, SystemsAsk, compare_log_systems
from calculator.errors import CalculatorError
from calculator.logs import read_log_data

__all__ = ["LogsComparison", "compare_log_uploads", "default_systems", "log_systems"]


def _stem(name: str) -> str:
    """A file's name as the command line names a system: no suffix, no lm-eval
    "__samples_..." tail."""
    return PurePath(name).stem.split("__samples_")[0]


def log_systems(files: tuple[tuple[str, bytes], ...]) -> tuple[str, ...] | None:
    """The model each upload's log names (its file's name when the log names none); None when
    no upload is a harness log (they are per-case files).

    Raises
    ------
    LogError
        When an upload is a near miss of a log, or unreadable as one.
    """
    from calculator.logs.sources import log_kind

    if not any(log_kind(name, data) is not None for name, data in files):
        return None
    specs = spec_partners(files)
    stats = {j: i for i, j in specs.items()}

    def run(i: int) -> list[tuple[str, bytes]]:  # a HELM run's stats with its spec, if given
        return [files[i], files[stats[i]]] if i in stats else [files[i]]

    return tuple(
        read_log_data(run(specs.get(i, i)), system=_stem(files[specs.get(i, i)][0])).system
        for i in range(len(files))
    )


def spec_partners(files: Sequence[tuple[str, bytes]]) -> dict[int, int]:
    """Each HELM run spec uploaded beside its run's stats under a shared prefix
    (``bbq_<model>_run_spec.json`` beside ``bbq_<model>_per_instance_stats.json``): the spec's
    place mapped to its stats file's (the reader recognises the spec by its content).

    >>> spec_partners([("x_per_instance_stats.json", b""), ("x_run_spec.json", b"")])
    {1: 0}
    """
    from calculator.logs.run_names import flat_spec_name

    places = {PurePath(name).name: i for i, (name, _) in enumerate(files)}
    partners = {}
    for i, (name, _) in enumerate(files):
        spec = flat_spec_name(PurePath(name).name)
        if spec in places:
            partners[places[spec]] = i
    return partners


def default_systems(names: Sequence[str], systems: Sequence[str]) -> tuple[str, ...]:
    """Which system each upload is of, until the visitor says otherwise: the models the logs
    name when they name two or more (a model's logs of several tasks then go together), else
    each file its own system, named after the file.

    Examples
    --------
    >>> default_systems(["a.eval", "b.eval", "c.eval"], ["gpt", "gpt", "llama"])
    ('gpt', 'gpt', 'llama')
    >>> default_systems(["x.eval", "y.eval"], ["mock", "mock"])
    ('x', 'y')
    """
    if len(set(systems)) >= 2:
        return tuple(systems)
    return tuple(_stem(name) for name in names)


def compare_log_uploads(
    files: tuple[tuple[str, bytes], ...],
    systems: tuple[str, ...],
    ask: SystemsAsk,
) -> LogsComparison:
    """Each (name, bytes) a log of the system named at its place in `systems` (a system's
    several files read together, as a folder: its tasks), compared by
    :func:`calculator.compare.workflow.compare_log_systems`, as the command line's ``compare``.

    Raises
    ------
    LogError, CalculatorError
        As the readers and the comparison do, with the file's name; SystemsRefused for an
        option the chosen analysis cannot answer.
    """
    specs = spec_partners(files)  # a HELM run spec goes with its stats file's system
    grouped: dict[str, list[tuple[str, bytes]]] = {}
    for i, item in enumerate(files):
        grouped.setdefault(systems[specs.get(i, i)], []).append(item)
    if len(grouped) < 2:
        raise CalculatorError(
            f"every log is of one system ({next(iter(grouped), '')}): name at least two "
            "systems, one for each model's logs"
        )
    logs = [
        dataclasses.replace(read_log_data(items, system=name), system=name)
        for name, items in grouped.items()
    ]
    return compare_log_systems(logs, ask, what=", ".join(name for name, _ in files))
