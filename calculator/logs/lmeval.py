"""lm-evaluation-harness sample logs (``--log_samples``): one task's file, or a results folder.

What lm-eval writes, per its documentation (``docs/interface.md``, ``--log_samples``): a file
``samples_<task>_<timestamp>.jsonl`` per task under ``<output_path>/<model>/``, one JSON object per
line and per (document, filter): ``doc_id``, ``doc``, ``target``, ``arguments``, ``resps``,
``filtered_resps``, and from version 0.4.3 on ``filter``, ``metrics`` (the names of the metric
keys that follow), ``doc_hash``, ``prompt_hash`` and ``target_hash``; then one key per metric with
the document's value (``acc``, ``acc_norm``, ``exact_match``...). Versions up to 0.4.2 wrote the
same records as one JSON array (pretty-printed) in a file still named ``.jsonl``. Metrics that
lm-eval aggregates over the whole corpus (BLEU, F1 of the SQuAD family) log a list (the reference
and the prediction) instead of a number: those rows carry no per-case value and are noted.

The case is (task, ``doc_id``); lm-eval logs one row per document (its ``repeats`` are reduced
to one value per document by the task's filters), so the repeat is always 0 here.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from calculator.logs import table
from calculator.logs.jsontext import charge_values, log_budget, parse_json, parse_line
from calculator.logs.table import LogError, LogTable, RowBuilder, as_float, check_rows
from calculator.text import plural

__all__ = ["is_lm_eval_record", "is_lm_eval_results", "lm_eval_task", "read_lm_eval"]

# The bookkeeping keys of a sample record: never metrics.
_RECORD_KEYS = frozenset(
    {
        "doc_id",
        "doc",
        "target",
        "arguments",
        "resps",
        "filtered_resps",
        "filter",
        "metrics",
        "doc_hash",
        "prompt_hash",
        "target_hash",
    }
)
_NUMBERS = frozenset({int, float})  # the types of values read as they are (not bool)
_LARGEST = int(sys.float_info.max)  # the largest integer a float holds (about 1.8e308)
_FILE_NAME = re.compile(r"samples_(?P<task>.+?)_(?P<time>\d{4}-\d{2}-\d{2}T[0-9:.\-]+)\.jsonl?$")


def is_lm_eval_record(record: object) -> bool:
    """Whether a JSON value is an lm-eval sample record (an object with ``doc_id`` and the
    model's responses or the document)."""
    return (
        isinstance(record, dict)
        and "doc_id" in record
        and (
            "resps" in record
            or "doc" in record
            or "filtered_resps" in record
            or "arguments" in record
        )
    )


def is_lm_eval_results(document: object) -> bool:
    """Whether a JSON document is lm-eval's aggregate results file (``results_<time>.json``)."""
    return (
        isinstance(document, dict)
        and isinstance(document.get("results"), dict)
        and any(key in document for key in ("configs", "versions", "n-samples"))
    )


def lm_eval_time(file_name: str) -> str | None:
    """The timestamp of a ``samples_<task>_<time>.jsonl`` or ``results_<time>.json`` name."""
    found = re.search(r"_(\d{4}-\d{2}-\d{2}T[0-9:.\-]+)\.jsonl?$", Path(file_name).name)
    return found.group(1) if found else None


def lm_eval_task(file_name: str) -> str | None:
    """The task named by a ``samples_<task>_<timestamp>.jsonl`` file name, else None.

    Examples
    --------
    >>> lm_eval_task("samples_mmlu_abstract_algebra_2024-08-21T03-44-09.494230.jsonl")
    'mmlu_abstract_algebra'
    >>> lm_eval_task("wmdp_bio.jsonl") is None
    True
    """
    found = _FILE_NAME.search(Path(file_name).name)
    return found.group("task") if found else None


def read_lm_eval(
    files: Iterable[tuple[str, bytes]], *, system: str, records_of: dict[str, list] | None = None
) -> LogTable:
    """The long table of lm-eval sample files.

    Parameters
    ----------
    files : iterable of (name, bytes)
        Each sample file's name (its task comes from it, else from its stem) and content.
    system : str
        The model's name.
    records_of : dict, optional
        Records already parsed, by file name (a JSON array read while detecting the format).

    Raises
    ------
    LogError
        When a file holds no sample record, or two files hold the same task.
    """
    rows = RowBuilder(("task", "case", "hash", "filter"))
    metrics: dict[str, None] = {}
    notes: list[str] = []
    corpus: dict[str, None] = {}
    digest = hashlib.sha256()
    task_files: dict[str, str] = {}
    named = True
    with log_budget():
        for name, data in files:
            digest.update(data)
            task = lm_eval_task(name)
            named = named and task is not None
            task = task or Path(name).stem
            if task in task_files:
                raise LogError(
                    f"{task_files[task]} and {name} both hold lm-eval task {task!r} (two runs in "
                    "one folder?): give a folder with one samples file per task."
                )
            task_files[task] = name
            records = (records_of or {}).get(name)
            if records is None:
                records = _records(name, data)
            if isinstance(records, list):  # a JSON array (lm-eval <= 0.4.2): records by position
                records = (
                    checked_record(r, f"{name}, record {k:,}") for k, r in enumerate(records, 1)
                )
            _add_records(records, name, task, rows, metrics, notes, corpus)
    return LogTable(
        format="lm-eval",
        system=system,
        sources=tuple(task_files.values()),
        frame=rows.frame(system=system, repeat=0),
        metrics=tuple(metrics),
        notes=tuple(dict.fromkeys(notes)),
        data_key=digest.digest(),
        tasks_named=named,
        corpus_metrics=tuple(corpus),
    )


def _records(name: str, data: bytes) -> Iterable[object]:
    """The records of one file: JSON Lines, or one JSON array (lm-eval <= 0.4.2).

    JSON Lines are parsed one line at a time as the records are used, so that a file of a
    million documents never holds a million parsed records (each with its document and the
    model's responses) at once.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LogError(
            f"{name}: byte {error.start:,} is not UTF-8 text, as lm-eval writes its logs; the "
            "file is damaged or not a samples file."
        ) from None
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            return parse_json(stripped, name)
        except json.JSONDecodeError as error:
            raise LogError(f"{name}: a JSON array that is not valid JSON ({error}).") from None
    charge_values(text, name, lines=True)  # the lines are then parsed without a count
    return _lines(name, text)


def _lines(name: str, text: str) -> Iterator[object]:
    """Each line's JSON value; the lines that are not JSON are counted and refused at the end."""
    bad = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = parse_line(line, f"{name}, line {number}")
        except json.JSONDecodeError:
            bad += 1
            continue
        yield checked_record(record, f"{name}, line {number:,}")
    if bad:
        raise LogError(
            f"{name}: {plural(bad, 'line')} not JSON; lm-eval writes one JSON object per line: "
            "the file may be cut short (an interrupted run) or edited."
        )


def checked_record(record: object, where: str) -> object:
    """`record` when it is no sample record, or one whose fields have the JSON types lm-eval
    writes; else refused, naming `where` (the file and line), the field and what it may be.

    ``doc_id`` is an integer (or text), ``metrics`` a list of metric names, ``filter`` and
    ``doc_hash`` text (or null), and each metric's value a number that a float holds, or
    anything that is no number (a list, text: counted as no value).
    """
    if not is_lm_eval_record(record):
        return record
    assert isinstance(record, dict)  # noqa: S101 - is_lm_eval_record says so
    doc_id = record["doc_id"]
    if isinstance(doc_id, bool) or not isinstance(doc_id, int | str):
        _refuse_field(where, "doc_id", doc_id, "an integer (or text)")
    names = record.get("metrics")
    if names is not None and not (
        isinstance(names, list) and all(isinstance(name, str) for name in names)
    ):
        _refuse_field(where, "metrics", names, "a list of the metric names (text)")
    for key in ("filter", "doc_hash"):  # the other hashes are never read
        value = record.get(key)
        if value is not None and not isinstance(value, str):
            _refuse_field(where, key, value, "text (or null)")
    for key, value in record.items():  # an integer a float cannot hold: refused by name
        if type(value) is int and not -_LARGEST <= value <= _LARGEST and key not in _RECORD_KEYS:
            as_float(value, f"{where}, field {key!r}")
    return record


def _refuse_field(where: str, field: str, value: object, allowed: str) -> None:
    shown = _shown(value)
    if isinstance(value, list):
        other = next((item for item in value if not isinstance(item, str)), None)
        shown = f"a list holding {_shown(other)}" if other is not None else shown
    raise LogError(
        f"{where}: field {field!r} is {shown}, where lm-eval writes {allowed}: the file is "
        "damaged or not lm-eval's."
    )


def _shown(value: object) -> str:
    """A JSON value in a refusal: a list or an object by its kind, else itself, cut short."""
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    shown = json.dumps(value)  # null, a boolean, a number or text
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _value(key: object, value: object, notes: list[str], corpus: dict[str, None]) -> object:
    """A metric's value as a number (a boolean as 0 or 1), NaN where it is none; a list or
    object is a corpus-level metric's [gold, prediction] pair, noted."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, list | dict):
        corpus.setdefault(str(key), None)
        notes.append(
            f"{key!r} is logged per case as the reference and the prediction: lm-eval "
            "computes it over the whole corpus, so it has no per-case value to pair"
        )
        return math.nan
    return value if isinstance(value, int | float) else math.nan


def _add_records(
    records: Iterable[object],
    name: str,
    task: str,
    rows: RowBuilder,
    metrics: dict[str, None],
    notes: list[str],
    corpus: dict[str, None],
) -> None:
    """Append one file's records to the columns `rows`; metrics logged as [gold, pred]
    pairs go to `corpus`."""
    seen = 0
    metric, value_of, last = rows.metric, rows.value, None
    max_rows, count = table.MAX_ROWS, rows.counts.append
    tasks, cases, hashes, filters = (
        rows.shared[k].append for k in ("task", "case", "hash", "filter")
    )
    for record in records:
        if not is_lm_eval_record(record):
            continue
        seen += 1
        keys = record.get("metrics")
        if not isinstance(keys, list):
            keys = [key for key in record if key not in _RECORD_KEYS]
        present = [key for key in keys if key in record]
        values = [record[key] for key in present]
        if present != last:  # most records log the same metrics as the one before
            metrics.update(dict.fromkeys(present))
            last = present
        if not set(map(type, values)) <= _NUMBERS:
            values = [
                _value(key, value, notes, corpus)
                for key, value in zip(present, values, strict=True)
            ]
        metric.extend(map(str, present))
        value_of.extend(values)
        count(len(present))
        if len(metric) > max_rows:
            check_rows(len(metric), name)
        tasks(task)
        cases(str(record["doc_id"]))
        hashes(record.get("doc_hash"))
        filters(record.get("filter"))
    if not seen:
        raise LogError(
            f"{name}: no lm-eval sample record (a JSON object with doc_id and the model's "
            "responses) in this file."
        )
