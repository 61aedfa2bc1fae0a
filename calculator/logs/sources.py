"""Which harness wrote a file or a folder, recognised by content, and the reading of it.

A file is recognised by what it holds, whatever its name: a zip with ``header.json`` or
``_journal/start.json`` is an Inspect ``.eval`` log; a JSON document with an ``eval`` spec an
Inspect JSON log; a JSON array of ``{instance_id, stats}`` HELM's per-instance stats; JSON Lines
(or, lm-eval <= 0.4.2, a JSON array) of objects with ``doc_id`` and the model's responses an
lm-eval samples file. A folder is read whole: every ``samples_*.jsonl`` under it (lm-eval),
every ``.eval`` or Inspect JSON log (Inspect), every ``per_instance_stats.json`` (HELM).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Sequence
from pathlib import Path, PurePath

from calculator.cases.reading import MAX_FILE_BYTES
from calculator.logs.directions import with_directions, with_results_beside
from calculator.logs.eval_set import eval_set_logs, eval_set_part, not_a_log
from calculator.logs.helm import is_helm_stats, read_helm, run_model
from calculator.logs.inspect_log import (
    is_inspect_json,
    is_inspect_zip,
    open_archive,
    read_inspect,
    slim_json_log,
)
from calculator.logs.jsontext import log_budget, parse_json
from calculator.logs.lmeval import (
    is_lm_eval_record,
    is_lm_eval_results,
    lm_eval_task,
    read_lm_eval,
)
from calculator.logs.run_names import MAX_LOG_BYTES, lm_eval_model, lm_eval_system, run_spec
from calculator.logs.run_names import path_system as _system
from calculator.logs.run_names import read_bounded as _read
from calculator.logs.suites import choose_model
from calculator.logs.table import LogError, LogTable, check_rows
from calculator.logs.uploads import gather_uploads, of_model

__all__ = ["MAX_LOG_BYTES", "log_format", "read_log", "read_log_data"]

#: Most bytes read from one folder in all.
MAX_FOLDER_BYTES = 10 * MAX_FILE_BYTES
_MAX_FILES = 5_000  # files of one folder read at most
_MAX_ENTRIES = 4 * _MAX_FILES  # files and folders visited under one folder at most
_LOG_ENDINGS = (".json", ".jsonl", ".eval")  # the files a folder's logs can be
#: Most tasks in one system's logs: each task is paired and tested on its own (about 5 ms
#: each), and 2,000 is some forty full MMLU runs' worth of subtasks.
MAX_TASKS = 2_000
_FIRST_LINE = 1 << 24  # bytes of a first line read to recognise a file


def log_format(source: str | os.PathLike[str]) -> str | None:
    """The harness that wrote a file or folder ("lm-eval", "inspect", "helm"), None if none.

    Raises
    ------
    LogError
        For the near misses that no reader of per-case files would read right: a pretty-printed
        JSON document that is not a log, a zip archive that is not an Inspect log, a folder
        holding no log.
    """
    path = Path(source)
    if path.is_dir():
        return _folder_kind(path)[0]
    with path.open("rb") as handle:  # the first line decides most files without reading them
        first = handle.readline(_FIRST_LINE)
    head = first.lstrip()[:1]
    if head not in (b"{", b"[") and not first.startswith(b"PK\x03\x04"):
        return None
    if head == b"{":
        try:
            record = parse_json(first, f"{path.name}, line 1")
        except (json.JSONDecodeError, UnicodeDecodeError):
            record = None
        if is_lm_eval_record(record):
            return "lm-eval"
        if isinstance(record, dict) and path.stat().st_size > len(first):
            return None  # JSON Lines of other records: a per-case file
    kind, _ = _sniff(path.name, _read(path))
    return kind


@log_budget()  # one system's JSON values counted together
def read_log(
    source: str | os.PathLike[str], *, split: str = "test", model: str | None = None
) -> LogTable:
    """One system's log: a file of any of the three harnesses, or a folder of them; with
    `model`, that model's runs of a folder holding several models' (a HELM suite folder, an
    Inspect eval-set folder: :func:`~calculator.logs.suites.choose_model`).

    Raises
    ------
    LogError
        When the file or folder is not a harness log, or holds logs of several harnesses or
        models.
    """
    path = Path(source)
    if path.is_dir():
        kind, files, links = _folder_kind(path)
        if kind is None:
            raise LogError(_empty_folder(path, links))
        files, notes = eval_set_logs(path, files, _read) if kind == "inspect" else (files, [])
        parsed = [
            (str(file.relative_to(path)), file, *_sniff(file.name, _read(file))) for file in files
        ]
        table = _read_parsed(kind, parsed, system=path.name, split=split, model=model, where=path)
        if links:
            notes.append(f"{path.name}: {_links_skipped(links)}")
        return dataclasses.replace(table, notes=(*notes, *table.notes)) if notes else table
    data = _read(path)
    kind, parsed = _sniff(path.name, data)
    if kind is None:
        raise LogError(_not_a_log(path.name))
    return _read_parsed(
        kind, [(path.name, path, kind, parsed)], system=_system(path), split=split, model=model
    )


@log_budget()
def read_log_data(
    files: Sequence[tuple[str, bytes]],
    *,
    system: str | None = None,
    split: str = "test",
    model: str | None = None,
) -> LogTable:
    """One system's log from files' bytes (uploads): one file, or several of one harness (an
    lm-eval results folder's samples files, Inspect logs of several tasks); with `model`, that
    model's logs among them (:func:`~calculator.logs.uploads.upload_models` names those held).

    Raises
    ------
    LogError
        When a file is not a harness log, is over :data:`MAX_LOG_BYTES`, or the files are of
        several harnesses.
    """
    total = sum(len(data) for _, data in files)
    if total > MAX_FOLDER_BYTES:
        raise LogError(
            f"the {len(files):,} files given as one system are {total:,} bytes in all, over the "
            f"limit of {MAX_FOLDER_BYTES:,} (a folder's); give each model and benchmark apart."
        )
    if len(files) > _MAX_FILES:
        raise LogError(
            f"{len(files):,} files given as one system, over the limit of {_MAX_FILES:,} (a "
            "folder's)."
        )
    gathered = gather_uploads(list(files), MAX_LOG_BYTES)
    if sum(len(data) for _, data in gathered.files) > MAX_FOLDER_BYTES:
        raise LogError(f"the logs given as one system are over {MAX_FOLDER_BYTES:,} bytes in all.")
    entries = []
    for name, data in gathered.files:
        if len(data) > MAX_LOG_BYTES:
            raise LogError(f"{name}: {len(data):,} bytes, over the limit of {MAX_LOG_BYTES:,}.")
        kind, parsed = _sniff(name, data)
        if kind is None:
            raise LogError(_not_a_log(name))
        entries.append((name, data, kind, parsed))
    if model is not None:  # one model's logs of several (a HELM suite, an eval set)
        entries = of_model(entries, gathered, model, ", ".join(name for name, _ in files[:2]))
    kinds = sorted({kind for _, _, kind, _ in entries})
    if not kinds:
        raise LogError("no file given.")
    if len(kinds) > 1:
        raise LogError(
            f"the files given as one system are logs of several harnesses ({', '.join(kinds)})."
        )
    system = gathered.model or system or Path(files[0][0]).stem
    table = _read_parsed(kinds[0], entries, system=system, split=split, specs=gathered.specs)
    table = dataclasses.replace(table, notes=(*gathered.notes, *table.notes))
    return with_directions(table, gathered.directions)  # lm-eval's results files' directions


def log_kind(name: str, data: bytes) -> str | None:
    """The harness whose per-case log `data` is ("lm-eval", "inspect", "helm"), or None for a
    file of another kind (a per-case file); near misses refused as :func:`read_log_data` does.
    """
    return _sniff(name, data)[0]


def _data(source: Path | bytes) -> bytes:
    return source if isinstance(source, bytes) else _read(source)


def _read_parsed(
    kind: str,
    files: list,
    *,
    system: str,
    split: str,
    specs: dict | None = None,
    model: str | None = None,
    where: Path | None = None,
) -> LogTable:
    """The log of `files`: (name, path or bytes, kind, parsed document or None) each, with
    at most :data:`MAX_TASKS` tasks; `specs`: HELM run specs given with uploads, by name;
    `model`: the model kept (:func:`~calculator.logs.suites.choose_model`); `where`: the
    folder read, whose HELM and Inspect runs must then be of one model unless `model` is given.
    """
    label = str(where) if where is not None else ", ".join(name for name, *_ in files[:2])
    chosen = (model, label) if model is not None or where is not None else None
    table = _read_kind(kind, files, system=system, split=split, specs=specs or {}, chosen=chosen)
    check_rows(len(table.frame), table.sources[0])
    tasks = table.frame["task"].nunique()
    if tasks > MAX_TASKS:
        raise LogError(
            f"{table.sources[0]} and the other logs given as {table.system[:60]!r} hold "
            f"{tasks:,} tasks, over the limit of {MAX_TASKS:,}; compare a benchmark's tasks "
            "in parts."
        )
    return table


def _read_kind(
    kind: str,
    files: list,
    *,
    system: str,
    split: str,
    specs: dict,
    chosen: tuple[str | None, str] | None = None,
) -> LogTable:
    """The log of `files` read by the reader of `kind`; with `chosen` (the model asked for or
    None, and what the files are called), only one model's runs (:func:`choose_model`)."""
    model, where = chosen or (None, "")
    if kind == "lm-eval":
        if model is not None:  # else several models are refused naming a file of each
            files = choose_model(files, lambda f: lm_eval_system(f[1]), model, where)
        records = {name: parsed for name, _, _, parsed in files if parsed is not None}
        table = read_lm_eval(
            ((name, _data(source)) for name, source, _, _ in files),
            system=lm_eval_model(files) or system,
            records_of=records,
        )
        return with_results_beside(table, [source for _, source, _, _ in files])  # directions
    if kind == "helm":
        runs = [
            (name, parsed, specs.get(name) if isinstance(source, bytes) else run_spec(source))
            for name, source, _, parsed in files
        ]
        if chosen:
            runs = choose_model(runs, lambda run: run_model(run[0], run[2]), model, where)
        return read_helm(runs, system=system, split=split)
    tables = [read_inspect(name, _data(source), parsed) for name, source, _, parsed in files]
    if chosen:
        tables = choose_model(tables, lambda table: table.system, model, where)
    return _joined(tables)


def _sniff(name: str, data: bytes) -> tuple[str | None, object]:
    """(kind, parsed document or None) of one file's bytes; near misses refused."""
    if data[:4] == b"PK\x03\x04":
        with open_archive(name, data) as archive:
            if is_inspect_zip(archive):
                return "inspect", None
        raise LogError(
            f"{name}: a zip archive that is not an Inspect .eval log (no header.json or "
            "_journal/start.json in it); give the log itself, or unzip the archive."
        )
    head = data.lstrip()[:1]
    if head not in (b"{", b"["):
        return None, None
    first = data.lstrip().split(b"\n", 1)[0]
    try:
        record = parse_json(first, f"{name}, line 1")
    except (json.JSONDecodeError, UnicodeDecodeError):
        record = None
    if is_lm_eval_record(record):
        return "lm-eval", None
    if record is not None and data.strip().count(b"\n") > 0 and head == b"{":
        return None, None  # JSON Lines whose records are not lm-eval's: a plain per-case file
    try:  # a document on one line was read whole as its first line
        whole = record is not None and len(first.strip()) == len(data.strip())
        document = record if whole else parse_json(data, name)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None, None  # JSON Lines (or not JSON): the per-case reader says which lines
    if is_inspect_json(document):
        return "inspect", slim_json_log(document)
    if is_helm_stats(document):
        return "helm", document
    if isinstance(document, list) and document and is_lm_eval_record(document[0]):
        return "lm-eval", document
    if is_lm_eval_results(document):
        raise LogError(
            f"{name}: lm-eval's results file (the scores of the whole task); the per-case "
            "results are the samples_<task>_<time>.jsonl files that lm-eval writes beside it "
            "with --log_samples: give one of those, or the folder."
        )
    part = eval_set_part(document)
    if part is not None:
        raise LogError(not_a_log(name, part))
    if isinstance(document, dict) and data.strip().count(b"\n") > 0:
        keys = ", ".join(list(document)[:8])
        raise LogError(
            f"{name}: one JSON document (an object with the keys {keys}), not JSON Lines (one "
            "object per line per case): give the per-case records, one JSON object per line, or "
            "an lm-eval, Inspect or HELM log."
        )
    return None, None


def _folder_kind(path: Path) -> tuple[str | None, list[Path], int]:
    """The harness of a folder's logs, the files to read and the symbolic links left unread;
    refuses a mixed folder."""
    found: dict[str | None, list[Path]] = {}
    under, links = _files_under(path)
    for file in under:
        found.setdefault(_file_kind(file), []).append(file)
    found.pop(None, None)
    total = sum(file.stat().st_size for files in found.values() for file in files)
    if total > MAX_FOLDER_BYTES:
        raise LogError(
            f"{path}: its logs are {total:,} bytes in all, over the limit of "
            f"{MAX_FOLDER_BYTES:,}; give a folder per model and benchmark."
        )
    if len(found) > 1:
        raise LogError(
            f"{path}: holds logs of several harnesses ({', '.join(sorted(found))}); give one "
            "system's logs of one harness per folder."
        )
    if not found:
        return None, [], links
    kind, files = found.popitem()
    return kind, files, links


def _files_under(path: Path) -> tuple[list[Path], int]:
    """The files under a folder, sorted, bounded before any is read: at most
    :data:`_MAX_ENTRIES` entries visited (a home folder given by mistake is refused at once,
    not listed whole), at most ``_MAX_FILES`` files, and the files that could be logs at most
    :data:`MAX_FOLDER_BYTES` in all; and the number of symbolic links under it. No symbolic
    link is followed, to a folder (no loop) or to a file (which may lie outside the folder)."""
    files: list[Path] = []
    visited = links = 0
    for root, folders, names in os.walk(path):
        visited += len(folders) + len(names)
        if visited > _MAX_ENTRIES:
            raise LogError(
                f"{path}: over {_MAX_ENTRIES:,} files and folders under this folder; give the "
                "folder of one model's logs."
            )
        links += sum((Path(root) / folder).is_symlink() for folder in folders)
        for name in names:
            file = Path(root) / name
            if file.is_symlink():
                links += 1
            else:
                files.append(file)
    files = sorted(file for file in files if file.is_file())
    if len(files) > _MAX_FILES:
        raise LogError(f"{path}: over {_MAX_FILES:,} files under this folder; give a smaller one.")
    candidates = sum(file.stat().st_size for file in files if file.name.endswith(_LOG_ENDINGS))
    if candidates > MAX_FOLDER_BYTES:
        raise LogError(
            f"{path}: its JSON and .eval files are {candidates:,} bytes in all, over the limit "
            f"of {MAX_FOLDER_BYTES:,}; give a folder per model and benchmark."
        )
    return files, links


def _links_skipped(links: int) -> str:
    return (
        f"{links:,} symbolic link{'s' * (links != 1)} under the folder not followed (a link "
        "can point outside it): give the files themselves, or the folder they are in"
    )


def _file_kind(file: Path) -> str | None:
    """The harness of one file in a folder: by lm-eval's and HELM's file names, else by content
    (JSON and JSON Lines files, .eval archives)."""
    name = file.name
    if lm_eval_task(name) is not None:
        return "lm-eval"
    if name == "per_instance_stats.json":
        return "helm"
    if not name.endswith(_LOG_ENDINGS):
        return None
    try:
        return _sniff(name, _read(file))[0]
    except LogError:  # lm-eval's results file, a pretty-printed document: not a log
        return None


def _not_a_log(name: str) -> str:
    if PurePath(name).name == ".eval-set-id":  # the third file Inspect writes in an eval set
        return not_a_log(name, "identifier")
    return (
        f"{name}: not an evaluation log of lm-eval (samples_<task>_<time>.jsonl), Inspect "
        "(.eval, or a JSON log) or HELM (per_instance_stats.json)."
    )


def _empty_folder(path: Path, links: int = 0) -> str:
    names = sorted(p.name for p in path.iterdir())[:6]
    held = ", ".join(names) if names else "nothing"
    return (
        f"{path}: a folder without an evaluation log; expected samples_<task>_<time>.jsonl files "
        "(lm-eval --log_samples), .eval logs (Inspect) or per_instance_stats.json (HELM); it "
        f"holds {held}. To compare two per-case files, give the files themselves."
        + (f" ({_links_skipped(links)}.)" if links else "")
    )


def _joined(tables: list[LogTable]) -> LogTable:
    """Inspect logs of one model (several tasks) as one table."""
    import hashlib

    import pandas as pd

    models = sorted({table.system for table in tables})
    if len(models) > 1:
        raise LogError(
            f"the Inspect logs given as one system are of several models ({', '.join(models)}); "
            "give each model's logs separately."
        )
    tasks = [task for table in tables for task in table.tasks]
    repeated = sorted({task for task in tasks if tasks.count(task) > 1})
    if repeated:
        raise LogError(
            f"task {repeated[0]!r} is in several of the Inspect logs given as one system; keep "
            "one log per task."
        )
    if len(tables) == 1:
        return tables[0]
    digest = hashlib.sha256(b"".join(table.data_key for table in tables)).digest()
    return LogTable(
        format="inspect",
        system=models[0],
        sources=tuple(s for table in tables for s in table.sources),
        frame=pd.concat([table.frame for table in tables], ignore_index=True),
        metrics=tuple(dict.fromkeys(m for table in tables for m in table.metrics)),
        notes=tuple(n for table in tables for n in table.notes),
        data_key=digest,
    )
