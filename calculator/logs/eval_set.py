"""An Inspect eval-set log folder: the logs its ``logs.json`` lists, recognised by content.

``inspect eval-set`` (and ``inspect_ai.eval_set``) writes its logs to one folder with a
manifest, ``logs.json``: a JSON object from each log's file name to its header (``status``,
``eval`` with ``task`` and ``model``...). A task retried after an error keeps its failed log
beside the successful one unless the failed one was cleaned up: read whole, the folder would
hold the task twice. The manifest says which is which: for each (task, model), the logs listed
with status "success" are read and the others left out, with a note; a log the manifest lists
that is not in the folder is refused by name.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from calculator.logs.jsontext import parse_json
from calculator.logs.table import LogError
from calculator.text import plural

__all__ = [
    "MANIFEST",
    "eval_set_logs",
    "eval_set_part",
    "is_eval_set_manifest",
    "manifest_logs",
    "not_a_log",
]

#: The manifest's file name, as Inspect writes it.
MANIFEST = "logs.json"


def is_eval_set_manifest(document: object) -> bool:
    """Whether a JSON document is an eval-set manifest: an object from log file names to
    Inspect log headers (each with an ``eval`` spec naming its task)."""
    return (
        isinstance(document, dict)
        and bool(document)
        and all(
            isinstance(name, str)
            and isinstance(header, dict)
            and isinstance(header.get("eval"), dict)
            and "task" in header["eval"]
            for name, header in document.items()
        )
    )


def eval_set_part(document: object) -> str | None:
    """Which file of an eval-set folder a JSON document is when it is not a log: "manifest"
    (``logs.json``), "configuration" (``eval-set.json``: its ``eval_set_id`` and the
    ``tasks`` it ran), else None."""
    if is_eval_set_manifest(document):
        return "manifest"
    if (
        isinstance(document, dict)
        and "eval_set_id" in document
        and isinstance(document.get("tasks"), list)
    ):
        return "configuration"
    return None


def not_a_log(name: str, part: str) -> str:
    """The refusal of an eval set's manifest, configuration or identifier (`part`: as
    :func:`eval_set_part` names it, or "identifier") read where a log is wanted, file `name`."""
    what = {
        "manifest": "an Inspect eval set's manifest (the headers of the logs it lists)",
        "identifier": "an Inspect eval set's identifier",
    }.get(part, "an Inspect eval set's configuration (the tasks and models it ran)")
    return (
        f"{name}: {what}, not a log: it holds no per-case results. Give the eval set's .eval "
        "logs, or the folder that holds them."
    )


def eval_set_logs(
    folder: Path, files: list[Path], read: Callable[[Path], bytes]
) -> tuple[list[Path], list[str]]:
    """The logs of `files` (the folder's Inspect logs) to read, and the notes of what was
    left out; all of them, without a note, when the folder holds no manifest (`read` reads a
    file within the readers' size limit).

    Raises
    ------
    LogError
        When the manifest lists a log that is not among `files`.
    """
    index = folder / MANIFEST
    if index.is_symlink() or not index.is_file():  # links are not followed, as in a folder
        return files, []
    try:
        manifest = parse_json(read(index), index.name)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return files, []
    if not is_eval_set_manifest(manifest):
        return files, []
    by_name = {file.relative_to(folder).as_posix(): file for file in files}
    kept, notes = manifest_logs(
        manifest,
        list(by_name),
        folder.name,
        (f"{folder}", "in the folder", "copy the eval-set folder whole"),
    )
    return [by_name[name] for name in kept], notes


def manifest_logs(
    manifest: dict, names: list[str], label: str, refusal: tuple[str, str, str]
) -> tuple[list[str], list[str]]:
    """The names among `names` (the logs given, by their names relative to the manifest) that
    an eval-set `manifest` keeps, sorted, and the notes of what was left out: for each (task,
    model) the logs with status "success", else all of them (said); the logs it does not list
    are left out (said). `label` names the eval set in the notes; `refusal` is what a refusal
    names it, where the logs were looked for, and what to do.

    Raises
    ------
    LogError
        When the manifest lists a log that is not among `names`.
    """
    given, (where, looked, hint) = set(names), refusal
    missing = sorted(name for name in manifest if name not in given)
    if missing:
        raise LogError(
            f"{where}: its eval-set manifest {MANIFEST} lists {plural(len(missing), 'log')} not "
            f"{looked} ({', '.join(missing[:3])}); {hint}."
        )
    statuses: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for name, header in manifest.items():
        key = (str(header["eval"].get("task")), str(header["eval"].get("model")))
        statuses.setdefault(key, []).append((name, str(header.get("status"))))
    kept, notes = [], [f"{label}: an Inspect eval-set folder ({MANIFEST} read)"]
    for (task, _), logs in sorted(statuses.items()):
        good = [name for name, status in logs if status == "success"]
        chosen = good or [name for name, _ in logs]
        kept += chosen
        left = [f"{name} ({status})" for name, status in logs if name not in chosen]
        if left:
            notes.append(
                f"task {task!r}: {plural(len(left), 'log')} of an attempt that did not succeed "
                f"left out ({', '.join(left[:3])}); its successful log is read"
            )
        elif not good:
            notes.append(f"task {task!r}: no log of it succeeded ({logs[0][1]}); its samples read")
    unlisted = sorted(given - set(manifest))
    if unlisted:
        notes.append(
            f"{plural(len(unlisted), 'log')} not in {MANIFEST} left out ({', '.join(unlisted[:3])})"
        )
    return sorted(kept), notes
