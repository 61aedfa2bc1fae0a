"""Several systems' harness logs on the compare page, read and compared as
``python -m calculator compare`` does: one uploaded file per system (``compare LOG LOG ...``),
or one folder's files uploaded together (``compare FOLDER``).

:func:`log_uploads` says which of the two the uploads are: an Inspect eval set's files as
Inspect writes them (its ``.eval`` logs with ``logs.json``, ``eval-set.json``,
``.eval-set-id``) or a zip of an eval-set folder or of HELM run folders are one folder's, read
through :mod:`calculator.logs.uploads` (the manifest applied across the files, a failed attempt
left out), each model's logs one system, as the command line reads the folder; other logs are
each named by the model it names. :func:`compare_log_uploads` and
:func:`compare_folder_uploads` are the calls the page makes (in a child, through
:func:`ui.isolation.isolated`): the logs read from their bytes, then
:func:`calculator.compare.workflow.compare_log_systems`, the command line's own path (read,
pair, choose ranks or pass/fail, analyse), returning one picklable value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import PurePath

from calculator.compare.workflow import LogsComparison, SystemsAsk, compare_log_systems
from calculator.errors import CalculatorError
from calculator.logs import read_log_data
from calculator.logs.sources import MAX_LOG_BYTES
from calculator.logs.uploads import gather_uploads, gathered_models
from calculator.text import first_of

__all__ = [
    "LogUploads",
    "LogsComparison",
    "compare_folder_uploads",
    "compare_log_uploads",
    "default_systems",
    "folder_models",
    "log_systems",
    "log_uploads",
]

#: Files named in a refusal before "and N more".
_LISTED = 4


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class LogUploads:
    """How the uploads are read as systems' logs: `systems` is the model each upload's log
    names (one file per system), or with `folder` the models the folder's logs hold (each
    model one system)."""

    systems: tuple[str, ...]
    folder: bool = False


def log_uploads(files: tuple[tuple[str, bytes], ...]) -> LogUploads | None:
    """The uploads as logs (:func:`folder_models`, else :func:`log_systems`); None when no
    upload is a harness log (they are per-case files).

    Raises
    ------
    LogError, CalculatorError
        As :func:`folder_models` and :func:`log_systems` do.
    """
    models = folder_models(files)
    if models is not None:
        return LogUploads(systems=models, folder=True)
    systems = log_systems(files)
    return None if systems is None else LogUploads(systems=systems)


def folder_models(files: tuple[tuple[str, bytes], ...]) -> tuple[str, ...] | None:
    """The models whose logs the uploads hold when they are one folder's files
    (:attr:`calculator.logs.uploads.Gathered.folder`: an eval set's manifest, configuration or
    identifier among them, or a zip of a folder), sorted; None when they are not.

    Raises
    ------
    LogError
        As :func:`calculator.logs.uploads.gather_uploads` does (a manifest listing a log not
        given, a zip holding no log), naming the file.
    CalculatorError
        When the folder's logs are of fewer than two models.
    """
    gathered = gather_uploads(list(files), MAX_LOG_BYTES)
    if not gathered.folder:
        return None
    models = gathered_models(gathered)
    if len(models) < 2:
        held = f"of one model ({models[0]})" if models else "of no model they name"
        read = f" ({'; '.join(gathered.notes)})" if gathered.notes else ""  # what was left out
        raise CalculatorError(
            f"{_listed(files)}: read as one folder (an Inspect eval set's files, or a zip of "
            f"an eval-set folder or of HELM run folders), their logs are {held}{read}; the "
            "comparison needs two or more: give a folder of several models' logs, or one log "
            "per system."
        )
    return models


def compare_folder_uploads(
    files: tuple[tuple[str, bytes], ...],
    models: tuple[str, ...],
    names: tuple[str, ...],
    ask: SystemsAsk,
) -> LogsComparison:
    """The uploads read as one folder (:func:`folder_models`): each of `models` one system,
    its logs read from all the files by :func:`calculator.logs.read_log_data` with ``model``
    (the manifest applied, as ``compare FOLDER`` reads the folder once per model), named by
    `names` (the visitor's, in the order of `models`), compared as :func:`compare_log_uploads`.

    Raises
    ------
    LogError, CalculatorError
        As the readers and the comparison do; CalculatorError when two models are given one
        name.
    """
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        twice = [m for m, name in zip(models, names, strict=True) if name == repeated[0]]
        raise CalculatorError(
            f"the models {', '.join(twice)} are both named {repeated[0]!r}: in a folder each "
            "model's logs are one system; give each model its own name."
        )
    logs = [
        dataclasses.replace(read_log_data(files, model=model), system=name)
        for model, name in zip(models, names, strict=True)
    ]
    return compare_log_systems(logs, ask, what=", ".join(name for name, _ in files))


def _listed(files: Sequence[tuple[str, bytes]]) -> str:
    return first_of([name for name, _ in files], _LISTED)


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
