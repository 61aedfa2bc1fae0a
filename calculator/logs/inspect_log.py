"""Inspect evaluation logs: ``.eval`` files (a zip of JSON documents) and JSON logs.

The layout read is the one Inspect documents for its log files (``docs/eval-logs.qmd``, "Log
File Format"): an ``.eval`` log is a zip archive holding ``header.json`` (the eval's spec: task,
model, config; written when the run ends), ``_journal/start.json`` (the same spec, written when
it starts, so a cancelled run has it too), ``summaries.json`` and one member
``samples/<id>_epoch_<epoch>.json`` per sample and epoch; a JSON log is one document with the same
``eval`` spec and a ``samples`` list. Each sample holds its ``id``, its ``epoch`` and ``scores``,
one entry per scorer whose ``value`` is a grade, a number, a boolean or a dict of them. The case is
(sample id, epoch): the epoch is a repeat of the question.

Members are deflate-compressed in older Inspect versions and zstd-compressed (zip method 93) in
current ones; Python's ``zipfile`` reads the former, and the latter are decompressed here with the
small ``zstandard`` package from the member's raw bytes.

Why not Inspect's own ``read_eval_log``? It is the reference (the tests check this reader against
it, see tests/data/evallogs/generated/inspect/reference_scores.json), but ``inspect-ai`` brings
about 80 packages into an environment that needs none of them, and the calculator needs only each
sample's id, epoch and score values, which the documented layout gives directly. Measured with
``python benchmarks/bench_logs.py --inspect PYTHON`` on the GPQA log of tests/data/evallogs (one
run on this shared 2-core machine, 2026-12-01): reading the scores took 0.02 s here against
0.10 s for ``read_eval_log`` (which builds every message and event of every sample), after
imports of 0.8 s here (calculator, pandas and scipy, which the calculator needs anyway) and 1.0 s
for inspect-ai; peak memory was 172 MB here against 98 MB, for the same reason (pandas and scipy
loaded). The dependency this reader adds is ``zstandard`` alone (one compiled module), for
current Inspect versions' zstd members.

Grades are read as Inspect's ``value_to_float`` reads them (``inspect_ai.scorer``): ``C`` (correct)
= 1, ``I`` (incorrect) = 0, ``P`` (partial) = 0.5, ``N`` (no answer) = 0; "yes"/"true" = 1,
"no"/"false" = 0 (any case); numbers and finite numeric text as numbers. A value it cannot read
(where Inspect logs a warning and counts 0) is left missing here, and counted.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import struct
import sys
import zipfile
import zlib
from collections.abc import Callable

from calculator.logs.jsontext import log_budget, parse_json
from calculator.logs.table import (
    LogError,
    LogTable,
    RowBuilder,
    as_float,
    check_rows,
    repeat_number,
)
from calculator.text import plural

__all__ = [
    "GRADES",
    "eval_model",
    "grade_value",
    "is_inspect_json",
    "is_inspect_zip",
    "open_archive",
    "read_inspect",
    "read_member",
]

#: Inspect's grades and their values in its ``value_to_float``.
GRADES = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
_ZSTD = 93  # zip compression method of Zstandard
_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")
_SAMPLE = re.compile(r"^samples/.+\.json$")
_DIGEST = "\0input_digest"  # the key of a kept sample's input digest (no log's own key)
# Bounds on what an .eval archive may decompress to, so that a small file cannot take the
# machine (a zip bomb): JSON parsed into Python objects takes several times its text, so one
# member of 100 MB already needs about 1 GB while it is read.
MAX_MEMBER = 100 * 1024 * 1024  # a member decompressing to more than this is refused
MAX_ARCHIVE = 1024 * 1024 * 1024  # nor an archive whose members decompress to more in all
MAX_MEMBERS = 100_000  # nor one with more members (zipfile lists them all before reading)


def grade_value(value: object, where: Callable[[], str] = lambda: "a score value") -> float:
    """A score value as Inspect's ``value_to_float`` reads it; NaN where it cannot. An integer
    too large for a float is refused, naming ``where()`` (built only then).

    Examples
    --------
    >>> [grade_value(v) for v in ("C", "I", "P", "N", "yes", True, 0.25, "0.5")]
    [1.0, 0.0, 0.5, 0.0, 1.0, 1.0, 0.25, 0.5]
    """
    if isinstance(value, bool | int | float):
        try:
            return float(value)
        except OverflowError:
            return as_float(value, where())
    if isinstance(value, str):
        if value in GRADES:
            return GRADES[value]
        lowered = value.lower()
        if lowered in ("yes", "true"):
            return 1.0
        if lowered in ("no", "false"):
            return 0.0
        try:
            number = float(value)
        except ValueError:
            return math.nan
        return number if math.isfinite(number) else math.nan
    return math.nan


def is_inspect_zip(archive: zipfile.ZipFile) -> bool:
    """Whether a zip archive is an Inspect ``.eval`` log."""
    names = set(archive.namelist())
    return "header.json" in names or "_journal/start.json" in names


def is_inspect_json(document: object) -> bool:
    """Whether a JSON document is an Inspect JSON log."""
    return (
        isinstance(document, dict)
        and isinstance(document.get("eval"), dict)
        and "task" in document["eval"]
    )


@log_budget()  # the members of an archive counted together (a folder's, within its budget)
def read_inspect(name: str, data: bytes, document: dict | None = None) -> LogTable:
    """The long table of one Inspect log (``.eval`` bytes, or a parsed JSON log `document`).

    Raises
    ------
    LogError
        When the log holds no sample (written without samples, or a run stopped before any).
    """
    if document is not None:
        spec, samples = document["eval"], document.get("samples") or []
        if not isinstance(samples, list) or not all(isinstance(s, dict) for s in samples):
            raise LogError(
                f"{name}: its samples are not a list of objects, as Inspect writes them; the "
                "log is damaged or not Inspect's."
            )
        scorer_order = _scorers(document)
    else:
        spec, samples, scorer_order = _read_zip(name, data)
    _refuse_ids_alike_as_text(name, samples)
    rows = RowBuilder(("case", "repeat", "hash"))
    metrics: dict[str, None] = dict.fromkeys(scorer_order)
    unscored = 0
    for sample in samples:
        values = _sample_values(sample, name)
        if not values:
            unscored += 1
            continue
        digest = (
            sample[_DIGEST]
            if _DIGEST in sample
            else input_digest(sample.get("input"), sample.get("attachments"))
        )
        metrics.update(dict.fromkeys(values))
        where = f"{name}: sample {str(sample.get('id'))[:40]!r}, field 'epoch'"
        rows.shared["case"].append(str(sample.get("id")))
        rows.shared["repeat"].append(repeat_number(sample.get("epoch"), 1, where))
        rows.shared["hash"].append(digest)
        rows.counts.append(len(values))
        rows.metric.extend(values)
        rows.value.extend(values.values())
        check_rows(len(rows), name)
    if not samples:
        raise LogError(
            f"{name}: this Inspect log holds no samples (a run stopped before any finished, or "
            "written with --no-log-samples); per-case results need the samples."
        )
    notes = []
    if unscored:
        notes.append(
            f"{plural(unscored, 'sample')} without a score (an error, or not scored): left out"
        )
    task = str(spec.get("task", name)).split("/")[-1]
    return LogTable(
        format="inspect",
        system=str(spec.get("model", name)),
        sources=(name,),
        frame=rows.frame(system=str(spec.get("model", name)), task=task),
        metrics=tuple(metrics),
        notes=tuple(notes),
        data_key=hashlib.sha256(data).digest(),
    )


def _refuse_ids_alike_as_text(name: str, samples: list[dict]) -> None:
    """Refuse a log naming the same id as a number and as text (1 and "1").

    Inspect's sample id is ``int | str``: 1 and "1" are two samples there, while cases are
    paired here by the id's text, so the two would become one case (or one question's repeats)
    without a word. Such a log is refused, naming both.
    """
    seen: dict[str, object] = {}
    for sample in samples:
        sample_id = sample.get("id")
        first = seen.setdefault(str(sample_id), sample_id)
        if type(first) is not type(sample_id):
            raise LogError(
                f"{name}: samples with ids {first!r} ({_kind(first)}) and {sample_id!r} "
                f"({_kind(sample_id)}) are two samples in Inspect, but cases are paired by the "
                "id's text here, where they would be one; give them ids that differ as text."
            )


def _kind(value: object) -> str:
    """What a sample id is, in words."""
    if isinstance(value, str):
        return "text"
    if isinstance(value, bool):
        return "a boolean"
    return "a number" if isinstance(value, int | float) else "null" if value is None else "other"


def _sample_values(sample: dict, name: str) -> dict[str, float]:
    """Each scorer's value in a sample (a dict value gives one metric per key); `name` is the
    log's, for a refusal."""
    scores = sample.get("scores")
    if not isinstance(scores, dict):
        score = sample.get("score")  # the first JSON log versions: a single score
        scores = {"score": score} if isinstance(score, dict) else {}
    values: dict[str, float] = {}
    for scorer, score in scores.items():
        value = score.get("value") if isinstance(score, dict) else None
        if isinstance(value, dict):
            for key, item in value.items():
                values[sys.intern(f"{scorer}/{key}")] = grade_value(
                    item, lambda s=scorer, k=key: _where(name, sample, s, k)
                )
        else:
            values[str(scorer)] = grade_value(value, lambda s=scorer: _where(name, sample, s))
    return values


def _where(name: str, sample: dict, scorer: object, key: object = None) -> str:
    """A sample's score in a refusal: the log, the sample id and epoch, the scorer's field."""
    field = f"scores.{scorer}.value" + ("" if key is None else f".{key}")
    return (
        f"{name}: sample {str(sample.get('id'))[:40]!r}, epoch {str(sample.get('epoch'))[:20]}, "
        f"field {field[:80]!r}"
    )


def _scorers(document: dict) -> list[str]:
    """The scorer names in the log's own order (the eval spec's, else the results')."""
    names = _names(document["eval"].get("scorers"))
    if not names:
        results = document.get("results")
        names = _names(results.get("scores") if isinstance(results, dict) else None)
    return names


def _names(entries: object) -> list[str]:
    """The "name" of each object in a list (a damaged list gives none, and the order falls
    back to the samples')."""
    if not isinstance(entries, list):
        return []
    names = (entry.get("name") for entry in entries if isinstance(entry, dict))
    return [str(name) for name in names if name]


def eval_model(name: str, data: bytes) -> str | None:
    """The model an ``.eval`` log names in its header (``eval.model``), its samples unread;
    None when the header does not name one."""
    with open_archive(name, data) as archive:
        members = {info.filename: info for info in archive.infolist()}
        head = members.get("header.json") or members.get("_journal/start.json")
        header = _member_json(archive, head, data, name) if head is not None else {}
    model = header.get("eval", {}).get("model") if is_inspect_json(header) else None
    return str(model) if model is not None else None


def _read_zip(name: str, data: bytes) -> tuple[dict, list[dict], list[str]]:
    """The eval spec, the samples and the scorer order of an ``.eval`` archive."""
    archive = open_archive(name, data)
    with archive:
        members = {info.filename: info for info in archive.infolist()}
        total = sum(info.file_size for info in members.values())
        if total > MAX_ARCHIVE:
            raise LogError(
                f"{name}: the log's members are {total:,} bytes once decompressed, over the limit "
                f"of {MAX_ARCHIVE:,}."
            )
        head = members.get("header.json") or members.get("_journal/start.json")
        if head is None:
            raise LogError(
                f"{name}: a zip archive without header.json or _journal/start.json, so not an "
                "Inspect .eval log."
            )
        header = _member_json(archive, head, data, name)
        if not is_inspect_json(header):
            raise LogError(
                f'{name}: member {head.filename} has no eval spec (an object "eval" naming '
                "the task), so this is not an Inspect .eval log, or it is damaged."
            )
        samples = [
            _scores_only(_member_json(archive, info, data, name))
            for member, info in members.items()
            if _SAMPLE.match(member)
        ]
    samples.sort(key=lambda s: (str(s.get("id")), str(s.get("epoch"))))
    return header["eval"], samples, _scorers(header)


def _member_json(archive: zipfile.ZipFile, info: zipfile.ZipInfo, data: bytes, name: str) -> dict:
    """One member's JSON object; a member that is not one is refused, naming it."""
    where = f"{name}: member {info.filename}"
    try:
        document = parse_json(read_member(archive, info, data, name), where)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise LogError(f"{where} is not valid JSON ({error}): the log is damaged.") from None
    if not isinstance(document, dict):
        raise LogError(f"{where} is not a JSON object, as Inspect writes each member.")
    return document


def open_archive(name: str, data: bytes) -> zipfile.ZipFile:
    """The zip archive of `data`, its member count checked before zipfile lists them.

    Raises
    ------
    LogError
        When the archive cannot be read or lists more than :data:`MAX_MEMBERS` members.
    """
    count = _member_count(data)
    if count > MAX_MEMBERS:
        raise LogError(
            f"{name}: a zip archive of {count:,} members, over the limit of {MAX_MEMBERS:,} "
            "(an Inspect log holds one per sample and epoch)."
        )
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError) as error:
        raise LogError(f"{name}: not a readable .eval log (a zip archive): {error}.") from None


def _member_count(data: bytes) -> int:
    """An upper bound on the members of a zip archive: its central directory entries' signatures
    counted in all its bytes (the end record's count is 16 bits and zipfile does not trust it
    either: it lists every entry its central directory holds)."""
    return data.count(b"PK\x01\x02")


def slim_json_log(document: dict) -> dict:
    """An Inspect JSON log with only what the reader uses: its spec, its results and each
    sample's id, epoch and scores (the messages and events of a sample can be megabytes, and a
    folder's logs are held together until they are read)."""
    samples = document.get("samples")
    if isinstance(samples, list):
        samples = [_scores_only(s) if isinstance(s, dict) else s for s in samples]
    return {"eval": document["eval"], "results": document.get("results"), "samples": samples}


def _scores_only(sample: dict) -> dict:
    """What the reader uses of a sample (its messages and events can be megabytes): its id,
    epoch and scores, and the digest of its input."""
    kept = {key: sample.get(key) for key in ("id", "epoch", "scores", "score")}
    kept[_DIGEST] = input_digest(sample.get("input"), sample.get("attachments"))
    return kept


def input_digest(value: object, attachments: object = None) -> str | None:
    """A digest of a sample's input (its messages' roles and text; a text input is the user's
    message), to tell two questions logged under the same id apart as lm-eval's ``doc_hash``
    does; None without an input. Text that Inspect moved to the sample's `attachments`
    (``attachment://<key>``) is digested as the text itself, as a log that kept it inline has it.

    Only the text is digested: a message's other fields (its ``id``, generated anew by each
    run, its metadata) say nothing of the question. The target is left out too: a task that
    shuffles the choices of each question in each run (GPQA's) logs another letter as the
    target of the same question.

    Examples
    --------
    >>> input_digest("2 + 2 =") == input_digest([{"role": "user", "content": "2 + 2 =", "id": "x"}])
    True
    >>> input_digest([{"role": "user", "content": "q"}]) == input_digest(
    ...     [{"role": "user", "content": [{"type": "text", "text": "q"}], "id": "y"}]
    ... )
    True
    >>> input_digest("2 + 2 =") == input_digest("2 + 3 ="), input_digest(None)
    (False, None)
    >>> input_digest("attachment://k1", {"k1": "2 + 2 ="}) == input_digest("2 + 2 =")
    True
    """
    stored = attachments if isinstance(attachments, dict) else {}

    def text(item: object) -> str:
        item = str(item)
        if item.startswith("attachment://"):
            return str(stored.get(item[len("attachment://") :], item))
        return item

    if isinstance(value, str):
        value = [{"role": "user", "content": value}]
    if not isinstance(value, list):
        return None
    parts = []
    for message in value:
        content = message.get("content") if isinstance(message, dict) else message
        if isinstance(content, list):
            content = "\0".join(
                text(part.get("text", part.get("image", part)))
                if isinstance(part, dict)
                else text(part)
                for part in content
            )
        role = message.get("role") if isinstance(message, dict) else None
        parts.append(f"{role}\0{text(content)}")
    return hashlib.sha256("\1".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, data: bytes, name: str) -> bytes:
    """One member's bytes: through zipfile, or for zstd members from the raw bytes; the one
    reader of an Inspect archive's members (the log's reader here, and the flips' texts,
    :mod:`calculator.flips.log_texts`), each member held to :data:`MAX_MEMBER` bytes.

    Raises
    ------
    LogError
        When the member is over the limit or cannot be read, naming the file and the member.
    """
    if info.file_size > MAX_MEMBER:
        raise LogError(
            f"{name}: member {info.filename} is {info.file_size:,} bytes once decompressed, over "
            f"the limit of {MAX_MEMBER:,}."
        )
    if info.compress_type != _ZSTD:
        try:  # zipfile stops at the declared size and checks the CRC
            return archive.read(info)
        except (
            zipfile.BadZipFile,
            zlib.error,
            EOFError,
            NotImplementedError,
            RuntimeError,
        ) as error:
            raise LogError(f"{name}: member {info.filename} cannot be read: {error}.") from None
    try:
        import zstandard
    except ImportError:  # pragma: no cover - a runtime dependency of the cases extra
        raise LogError(
            f"{name}: this .eval log is zstd-compressed and reading it needs the zstandard "
            "package: pip install 'mcnemar-calculator[cases]'."
        ) from None
    try:
        fields = _LOCAL_HEADER.unpack_from(data, info.header_offset)
    except struct.error:
        raise LogError(f"{name}: member {info.filename} lies outside the archive.") from None
    start = info.header_offset + _LOCAL_HEADER.size + fields[9] + fields[10]
    raw = data[start : start + info.compress_size]
    try:
        member = _bounded_zstd(zstandard, raw, info.file_size)
    except zstandard.ZstdError as error:
        raise LogError(f"{name}: member {info.filename} cannot be decompressed: {error}.") from None
    if len(member) != info.file_size or zlib.crc32(member) != info.CRC:
        if len(member) > info.file_size:
            found = f"more than the {info.file_size:,} bytes the archive declares"
        elif len(member) < info.file_size:
            found = f"{len(member):,} bytes, not the {info.file_size:,} the archive declares"
        else:
            found = "bytes that do not match the archive's checksum (CRC-32)"
        raise LogError(
            f"{name}: member {info.filename} decompresses to {found}: the log is damaged or "
            "was altered."
        )
    return member


def _bounded_zstd(zstandard: object, raw: bytes, size: int) -> bytes:
    """At most `size` + 1 bytes of a zstd stream, whatever size its frames declare or omit
    (``decompress`` trusts a frame's own content size, whatever ``max_output_size`` says)."""
    reader = zstandard.ZstdDecompressor().stream_reader(raw)  # type: ignore[attr-defined]
    chunks, total = [], 0
    while total <= size:
        chunk = reader.read(min(1 << 20, size + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)
