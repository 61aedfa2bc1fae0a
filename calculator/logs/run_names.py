"""Who ran a log when the log does not say: the model that lm-eval's results file or HELM's
``run_spec.json`` beside it names, else a name from the file's path; and the bounded read of
one file (:data:`MAX_LOG_BYTES`) that every reader of a folder uses."""

from __future__ import annotations

import json
from pathlib import Path

from calculator.cases.reading import MAX_FILE_BYTES
from calculator.logs.jsontext import parse_json
from calculator.logs.lmeval import lm_eval_time
from calculator.logs.table import LogError

__all__ = [
    "MAX_LOG_BYTES",
    "flat_spec_name",
    "is_helm_run_spec",
    "lm_eval_model",
    "lm_eval_system",
    "path_system",
    "read_bounded",
    "run_spec",
]

#: Largest log file read (bytes): the per-case files' limit; a folder may hold many of them.
MAX_LOG_BYTES = MAX_FILE_BYTES


def read_bounded(path: Path) -> bytes:
    """The bytes of `path`, refused over :data:`MAX_LOG_BYTES`."""
    size = path.stat().st_size
    if size > MAX_LOG_BYTES:
        raise LogError(f"{path.name}: {size:,} bytes, over the limit of {MAX_LOG_BYTES:,} bytes.")
    return path.read_bytes()


def path_system(path: Path) -> str:
    """A file's system name when the log does not say: what its name holds before lm-eval's
    ``samples_<task>_<time>`` (a name given when copying it), else its folder's name (lm-eval
    writes ``<output_path>/<model>/samples_...``), else its stem."""
    before = path.stem.split("samples_")[0].strip("_ ") if "samples_" in path.stem else ""
    return before or path.parent.name or path.stem


def lm_eval_model(files: list) -> str | None:
    """The one model that lm-eval's results files beside `files` name, None if none does.

    Raises
    ------
    LogError
        When they name several: runs of several models in one folder, which would otherwise be
        read as one system's tasks.
    """
    found: dict[tuple[Path, str | None], str | None] = {}
    models: dict[str, str] = {}
    for name, source, _, _ in files:
        if isinstance(source, bytes):
            continue
        key = (source.parent, lm_eval_time(source.name))
        if key not in found:
            found[key] = lm_eval_system(source)
        if found[key] is not None:
            models.setdefault(found[key], name)
    if len(models) > 1:
        (first, one), (second, other) = list(models.items())[:2]
        raise LogError(
            f"the lm-eval logs given as one system are runs of several models ({first!r} for "
            f"{one}, {second!r} for {other}, per the results files beside them); give each "
            "model's folder separately."
        )
    return next(iter(models), None)


def lm_eval_system(file: Path) -> str | None:
    """The model named by lm-eval's results file of the same run beside a samples file."""
    time = lm_eval_time(file.name)
    if time is None:
        return None
    for results in sorted(file.parent.glob(f"*results_{time}.json")):
        if results.is_symlink():  # as in a folder, links found beside a log are not followed
            continue
        try:
            document = parse_json(read_bounded(results), results.name)
        except (OSError, ValueError):  # unreadable, not JSON, or refused: not the model's name
            continue
        name = document.get("model_name") if isinstance(document, dict) else None
        if isinstance(name, str) and name:
            return name
    return None


#: HELM's per-instance stats file, and its run spec, as a run folder names them.
STATS, SPEC = "per_instance_stats.json", "run_spec.json"


def is_helm_run_spec(document: object) -> bool:
    """Whether a JSON document is HELM's ``run_spec.json`` (a run's name and adapter)."""
    return (
        isinstance(document, dict)
        and isinstance(document.get("name"), str)
        and isinstance(document.get("adapter_spec"), dict)
    )


def flat_spec_name(stats_name: str) -> str | None:
    """The run spec's name beside a run's stats copied out of its folder under a shared prefix
    (``bbq_<model>_per_instance_stats.json`` beside ``bbq_<model>_run_spec.json``); None for a
    name without a prefix (the run folder's own ``run_spec.json`` then serves).

    >>> flat_spec_name("bbq_gpt_per_instance_stats.json"), flat_spec_name("per_instance_stats.json")
    ('bbq_gpt_run_spec.json', None)
    """
    if stats_name.endswith(STATS) and len(stats_name) > len(STATS):
        return stats_name[: -len(STATS)] + SPEC
    return None


def run_spec(file: Path) -> dict | None:
    """The run spec of a HELM stats file: its flat namesake (:func:`flat_spec_name`), else the
    run folder's ``run_spec.json``; each recognised by its content (a run's name and adapter),
    None when neither is one."""
    flat = flat_spec_name(file.name)
    for spec in ([file.parent / flat] if flat else []) + [file.parent / SPEC]:
        if spec.is_symlink() or not spec.is_file():  # links beside a log are not followed
            continue
        try:
            document = parse_json(read_bounded(spec), spec.name)
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
        if is_helm_run_spec(document):
            return document
    return None
