"""Files given together as one system's logs (uploads), sorted before they are read.

A folder on disk says which files belong together; uploads do not. Three kinds of file are
therefore recognised by content here, before the readers see the logs themselves:

- lm-eval's results file (``results_<time>.json``): the model's name (``model_name``), used
  when it is given beside the samples files (alone it is refused by the reader: it holds no
  per-case results);
- HELM's ``run_spec.json`` (an object with ``name`` and ``adapter_spec``): the run's name and
  model, given beside one run's ``per_instance_stats.json`` (with several runs, give a zip of
  the run folders, whose folders say which spec is whose);
- a zip archive of HELM run folders (``<run>/per_instance_stats.json`` with
  ``<run>/run_spec.json``), read as the folder would be.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from calculator.logs.directions import results_directions
from calculator.logs.inspect_log import is_inspect_zip, open_archive
from calculator.logs.jsontext import parse_json
from calculator.logs.lmeval import is_lm_eval_results
from calculator.logs.table import LogError
from calculator.text import plural

__all__ = ["Gathered", "gather_uploads", "is_helm_run_spec"]

_STATS = "per_instance_stats.json"
_SPEC = "run_spec.json"


@dataclass(frozen=True, slots=True, kw_only=True)
class Gathered:
    """The logs among the files given, each HELM run's spec by its log's name, and the model
    lm-eval's results files name."""

    files: list[tuple[str, bytes]]
    specs: dict[str, dict] = field(default_factory=dict)
    model: str | None = None
    #: (task, metric, higher is better) as the results files state them (directions.py).
    directions: tuple[tuple[str, str, bool], ...] = ()


def is_helm_run_spec(document: object) -> bool:
    """Whether a JSON document is HELM's ``run_spec.json`` (a run's name and adapter)."""
    return (
        isinstance(document, dict)
        and isinstance(document.get("name"), str)
        and isinstance(document.get("adapter_spec"), dict)
    )


#: Largest file looked into as a run's summary: lm-eval's results file of a 57-task suite with
#: its configs is about a megabyte, a HELM run spec a few kilobytes.
MAX_SUMMARY_BYTES = 16_000_000
#: A key one of the summaries holds (:func:`is_lm_eval_results`, :func:`is_helm_run_spec`).
_SUMMARY_KEYS = (b'"configs"', b'"versions"', b'"n-samples"', b'"adapter_spec"')


def gather_uploads(files: list[tuple[str, bytes]], limit: int) -> Gathered:
    """The logs among `files`, HELM zips expanded (each member at most `limit` bytes).

    Raises
    ------
    LogError
        When only results files or run specs are given, several run specs are given loose,
        lm-eval's results files name several models, or a member is over `limit`.
    """
    logs: list[tuple[str, bytes]] = []
    specs: list[tuple[str, dict]] = []
    models: dict[str, str] = {}
    held: dict[str, dict] = {}
    directions: tuple[tuple[str, str, bool], ...] = ()
    for name, data in files:
        if data[:4] == b"PK\x03\x04" and _helm_zip(name, data, limit, logs, held):
            continue
        document = _document(name, data)
        if is_lm_eval_results(document):
            directions += results_directions(document)
            model = document.get("model_name")
            if isinstance(model, str) and model:
                models.setdefault(model, name)
            continue
        if is_helm_run_spec(document):
            specs.append((name, document))
            continue
        logs.append((name, data))
    if len(models) > 1:
        (first, one), (second, other) = list(models.items())[:2]
        raise LogError(
            f"the lm-eval results files given as one system name several models ({first!r} "
            f"in {one}, {second!r} in {other}); give each model's files separately."
        )
    if not logs:
        given = specs[0][0] if specs else next(iter(models.values()), "the files")
        raise LogError(
            f"{given}: a run's summary (lm-eval's results file, HELM's run_spec.json), not its "
            "per-case results: give it together with the samples_<task>_<time>.jsonl files "
            "(lm-eval) or the per_instance_stats.json (HELM) of the same run."
        )
    if specs:
        loose = [name for name, _ in logs if name not in held]
        if len(specs) > 1 or len(loose) > 1:
            raise LogError(
                f"{plural(len(specs), 'HELM run_spec.json file')} given loose beside "
                f"{plural(len(loose), 'per-instance stats file')}: which spec is whose cannot be "
                "told; give one run's two files, or a zip of the run folders (runs/<suite>/<run>/)."
            )
        held[loose[0]] = specs[0][1]
    return Gathered(files=logs, specs=held, model=next(iter(models), None), directions=directions)


def _document(name: str, data: bytes) -> object:
    """A file's JSON document when it is one object small enough to be a run's summary (an
    lm-eval results file, a HELM run spec), else None. JSON Lines (an object opening a line)
    and larger files are left to the readers unparsed: they parse each log once, and this
    look is not charged to the log's budget of values, which it would spend twice."""
    if data.lstrip()[:1] != b"{" or len(data) > MAX_SUMMARY_BYTES or b"\n{" in data:
        return None
    if not any(key in data for key in _SUMMARY_KEYS):  # an Inspect JSON log, say
        return None
    try:
        return parse_json(data, name, charged=True)
    except (json.JSONDecodeError, UnicodeDecodeError, LogError):
        return None  # JSON Lines, or not JSON: the readers say what it is


def _helm_zip(
    name: str, data: bytes, limit: int, logs: list[tuple[str, bytes]], specs: dict[str, dict]
) -> bool:
    """Expand a zip of HELM run folders into `logs` and `specs`; False if it holds none."""
    with open_archive(name, data) as archive:
        if is_inspect_zip(archive):
            return False
        members = [m for m in archive.infolist() if PurePosixPath(m.filename).name == _STATS]
        if not members:
            return False
        for member in members:
            if member.file_size > limit:
                raise LogError(
                    f"{name}: {member.filename} is {member.file_size:,} bytes, over the limit "
                    f"of {limit:,}."
                )
            key = f"{name}/{member.filename}"
            logs.append((key, archive.read(member)))
            spec_name = str(PurePosixPath(member.filename).parent / _SPEC)
            if spec_name in archive.namelist():
                spec = _document(spec_name, archive.read(spec_name))
                if is_helm_run_spec(spec):
                    specs[key] = spec
    return True
