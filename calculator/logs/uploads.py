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
  ``<run>/run_spec.json``), or of an Inspect eval-set folder (its ``.eval`` logs and
  ``logs.json``), read as the folder would be;
- an Inspect eval set's manifest (``logs.json``: an object from log file names to their
  headers, :func:`~calculator.logs.eval_set.is_eval_set_manifest`), which keeps the logs it
  lists as succeeded (:func:`~calculator.logs.eval_set.manifest_logs`), and its configuration
  (``eval-set.json``) and identifier (``.eval-set-id``), which hold no result and are set aside.

Such a file, or a zip of a folder, makes the files one folder's (:attr:`Gathered.folder`): read
as the folder itself would be, each model's logs one system (the compare page, as
``python -m calculator compare FOLDER``).

:func:`upload_models` names the models whose logs the files hold (a HELM suite, an eval set of
several models), and :func:`model_of` the model of one log, so that one model's logs can be
read from them (:func:`calculator.logs.read_log_data` with ``model``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from calculator.logs.directions import results_directions
from calculator.logs.eval_set import MANIFEST, eval_set_part, manifest_logs, not_a_log
from calculator.logs.helm import run_model
from calculator.logs.inspect_log import eval_model, is_inspect_json, is_inspect_zip, open_archive
from calculator.logs.jsontext import parse_json
from calculator.logs.lmeval import is_lm_eval_results
from calculator.logs.run_names import flat_spec_name, is_helm_run_spec
from calculator.logs.suites import choose_model
from calculator.logs.table import LogError
from calculator.text import plural

__all__ = [
    "Gathered",
    "gather_uploads",
    "gathered_models",
    "is_helm_run_spec",
    "model_of",
    "of_model",
    "upload_models",
]

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
    #: What was set aside and why (an eval set's manifest read, a failed attempt left out).
    notes: tuple[str, ...] = ()
    #: Whether the files are a folder's: an eval set's manifest, configuration or identifier
    #: among them, or a zip of run or eval-set folders.
    folder: bool = False


#: Largest file looked into as a run's summary: lm-eval's results file of a 57-task suite with
#: its configs is about a megabyte, a HELM run spec a few kilobytes.
MAX_SUMMARY_BYTES = 16_000_000
#: A key one of the summaries holds (:func:`is_lm_eval_results`, :func:`is_helm_run_spec`).
_SUMMARY_KEYS = (b'"configs"', b'"versions"', b'"n-samples"', b'"adapter_spec"')
#: How an eval set's manifest opens (its first key a log's file name) and its configuration.
_MANIFEST_HEAD = re.compile(rb'\A\s*\{\s*"[^"\n]{1,500}\.(?:eval|json)"\s*:')
_CONFIG_HEAD = re.compile(rb'\A\s*\{\s*"eval_set_id"\s*:')
#: An eval set's identifier file, as Inspect writes it beside its logs: one short token.
_ID_NAME = ".eval-set-id"
_ID_TEXT = re.compile(rb"\A\s*[A-Za-z0-9_-]{1,200}\s*\Z")


def gather_uploads(files: list[tuple[str, bytes]], limit: int) -> Gathered:
    """The logs among `files`, zips of HELM run folders or of an eval-set folder expanded (each
    member at most `limit` bytes, all of them at most ten times as many), an eval set's
    manifest applied.

    Raises
    ------
    LogError
        When only results files or run specs are given, several run specs are given loose,
        lm-eval's results files name several models, a member is over `limit`, or a manifest
        lists a log not given.
    """
    logs: list[tuple[str, bytes]] = []
    specs: list[tuple[str, dict]] = []
    models: dict[str, str] = {}
    held: dict[str, dict] = {}
    manifests: list[tuple[str, dict]] = []
    directions: tuple[tuple[str, str, bool], ...] = ()
    aside: list[tuple[str, str]] = []  # an eval set's manifest or configuration, given loose
    zipped = False
    for name, data in files:
        if data[:4] == b"PK\x03\x04" and _folder_zip(name, data, limit, logs, held, manifests):
            zipped = True
            continue
        part = _eval_set_part(name, data, manifests)
        if part is not None:
            aside.append((name, part))
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
    if not logs and aside:
        raise LogError(not_a_log(*aside[0]))
    if not logs:
        given = specs[0][0] if specs else next(iter(models.values()), "the files")
        raise LogError(
            f"{given}: a run's summary (lm-eval's results file, HELM's run_spec.json), not its "
            "per-case results: give it together with the samples_<task>_<time>.jsonl files "
            "(lm-eval) or the per_instance_stats.json (HELM) of the same run."
        )
    loose = [name for name, _ in logs if name not in held]
    specs = _paired_by_prefix(specs, loose, held)
    if specs:
        loose = [name for name, _ in logs if name not in held]
        if len(specs) > 1 or len(loose) > 1:
            raise LogError(
                f"{plural(len(specs), 'HELM run_spec.json file')} given loose beside "
                f"{plural(len(loose), 'per-instance stats file')}: which spec is whose cannot be "
                "told; give one run's two files, or a zip of the run folders (runs/<suite>/<run>/)."
            )
        held[loose[0]] = specs[0][1]
    logs, notes = _by_manifest(logs, manifests)
    return Gathered(
        files=logs,
        specs=held,
        model=next(iter(models), None),
        directions=directions,
        notes=tuple(notes),
        folder=zipped or bool(aside),
    )


def model_of(name: str, data: bytes, spec: dict | None = None) -> str | None:
    """The model one log names: an Inspect log's (its header), a HELM run's (its run spec
    `spec`, else its folder's name); None for a log that does not name it (lm-eval's samples,
    whose model is in the results file) or a file that is not a log."""
    if data[:4] == b"PK\x03\x04":
        return eval_model(name, data)
    head = data.lstrip()[:1]
    if head == b"[" or spec is not None:  # HELM's per-instance stats: a JSON array
        return run_model(name, spec) if PurePosixPath(name).name == _STATS or spec else None
    if head != b"{" or b"\n{" in data:  # JSON Lines: lm-eval's samples, or a per-case file
        return None
    try:
        document = parse_json(data, name)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    model = document["eval"].get("model") if is_inspect_json(document) else None
    return None if model is None else str(model)


def of_model(entries: list[tuple], gathered: Gathered, model: str, where: str) -> list[tuple]:
    """The `entries` (each a log's name and bytes first) of `model`'s logs
    (:func:`~calculator.logs.suites.choose_model`, by :func:`model_of`, lm-eval's samples by
    the model their results files name); `where` names the files in a refusal."""

    def of(entry: tuple) -> str | None:
        return model_of(entry[0], entry[1], gathered.specs.get(entry[0])) or gathered.model

    return choose_model(entries, of, model, where)


def _paired_by_prefix(
    specs: list[tuple[str, dict]], loose: list[str], held: dict[str, dict]
) -> list[tuple[str, dict]]:
    """Each loose ``X_per_instance_stats.json`` given its ``X_run_spec.json`` (in `held`); the
    specs left without their stats file returned."""
    by_name = {str(PurePosixPath(name)): spec for name, spec in specs}
    used = set()
    for name in loose:
        flat = flat_spec_name(PurePosixPath(name).name)
        spec_name = str(PurePosixPath(name).with_name(flat)) if flat else None
        if spec_name in by_name:
            held[name] = by_name[spec_name]
            used.add(spec_name)
    return [(name, spec) for name, spec in specs if str(PurePosixPath(name)) not in used]


def upload_models(files: list[tuple[str, bytes]], limit: int) -> tuple[str, ...]:
    """The models whose logs `files` hold, sorted (:func:`model_of` of each log, with the
    model lm-eval's results files name); () when no log names one."""
    return gathered_models(gather_uploads(files, limit))


def gathered_models(gathered: Gathered) -> tuple[str, ...]:
    """The models whose logs the gathered files hold, sorted, as :func:`upload_models`."""
    found = {gathered.model} if gathered.model else set()
    for name, data in gathered.files:
        found.add(model_of(name, data, gathered.specs.get(name)))
    found.discard(None)
    return tuple(sorted(found))


def _eval_set_part(name: str, data: bytes, manifests: list[tuple[str, dict]]) -> str | None:
    """Which part of an eval set a file is, if one (:func:`eval_set_part`): its manifest (kept
    in `manifests` under its folder) or its configuration (``eval-set.json``, no result in
    it); both are told by their content, and its identifier (``.eval-set-id``, one short
    token) by its name and shape."""
    if PurePosixPath(name).name == _ID_NAME and len(data) < 1000 and _ID_TEXT.match(data):
        return "identifier"
    if len(data) > MAX_SUMMARY_BYTES:
        return None
    manifest = _MANIFEST_HEAD.match(data) is not None
    if not manifest and _CONFIG_HEAD.match(data) is None:
        return None
    try:
        document = parse_json(data, name, charged=True)
    except (json.JSONDecodeError, UnicodeDecodeError, LogError):
        return None
    part = eval_set_part(document)
    if part is None or (part == "manifest") != manifest:
        return None
    if part == "manifest":
        folder = str(PurePosixPath(name).parent)
        manifests.append(("" if folder == "." else folder + "/", document))
    return part


def _by_manifest(
    logs: list[tuple[str, bytes]], manifests: list[tuple[str, dict]]
) -> tuple[list[tuple[str, bytes]], list[str]]:
    """The logs each manifest keeps among those in its folder (the others as they are), and
    the manifests' notes."""
    folders = [folder for folder, _ in manifests]
    if len(set(folders)) < len(folders):
        raise LogError(
            f"several eval-set manifests ({MANIFEST}) given for one folder; give one eval set's "
            "files at a time, or a zip of each eval-set folder."
        )
    notes: list[str] = []
    for folder, manifest in manifests:
        # A manifest given loose governs the logs given loose; one in a zip, its folder's.
        under = {
            name[len(folder) :]: (name, data)
            for name, data in logs
            if name.startswith(folder) and (folder or "/" not in name)
        }
        label = folder.rstrip("/") or "the files given"
        kept, said = manifest_logs(
            manifest,
            list(under),
            label,
            (label, "among the files given", "give every log it lists, or leave it out"),
        )
        dropped = {under[rel][0] for rel in under} - {under[rel][0] for rel in kept}
        logs = [item for item in logs if item[0] not in dropped]
        notes += said
    return logs, notes


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


def _folder_zip(
    name: str,
    data: bytes,
    limit: int,
    logs: list[tuple[str, bytes]],
    specs: dict[str, dict],
    manifests: list[tuple[str, dict]],
) -> bool:
    """Expand a zip of HELM run folders (their per-instance stats, with each run's spec in
    `specs`) or of Inspect logs (an eval-set folder: its ``.eval`` and JSON files, a manifest
    into `manifests`) into `logs`; False if it is an Inspect log itself.

    Raises
    ------
    LogError
        When it holds neither a log nor a run, or a member is over `limit`.
    """
    with open_archive(name, data) as archive:
        if is_inspect_zip(archive):
            return False
        infos = [m for m in archive.infolist() if not m.is_dir()]
        members = [m for m in infos if PurePosixPath(m.filename).name == _STATS]
        helm = bool(members)
        if not helm:  # an eval-set folder: its logs, manifest and configuration
            members = [m for m in infos if m.filename.endswith((".eval", ".json"))]
            if not any(m.filename.endswith(".eval") for m in members):
                raise LogError(
                    f"{name}: a zip archive holding no Inspect .eval log and no HELM run "
                    "(per_instance_stats.json); a zip is read when it is an Inspect .eval log, "
                    "or a zip of an Inspect eval-set folder (its .eval logs, with logs.json) or "
                    "of HELM run folders (<run>/per_instance_stats.json with run_spec.json)."
                )
        total = 0
        for member in members:
            total += member.file_size
            if member.file_size > limit:
                raise LogError(
                    f"{name}: {member.filename} is {member.file_size:,} bytes, over the limit "
                    f"of {limit:,}."
                )
            if total > 10 * limit:
                raise LogError(
                    f"{name}: its logs are over {10 * limit:,} bytes in all once unpacked, the "
                    "limit of one system's logs; give each model and benchmark apart."
                )
            key = f"{name}/{member.filename}"
            content = archive.read(member)
            if not helm and _eval_set_part(key, content, manifests):
                continue
            logs.append((key, content))
            if not helm:
                continue
            spec_name = str(PurePosixPath(member.filename).parent / _SPEC)
            if spec_name in archive.namelist():
                spec = _document(spec_name, archive.read(spec_name))
                if is_helm_run_spec(spec):
                    specs[key] = spec
    return True
