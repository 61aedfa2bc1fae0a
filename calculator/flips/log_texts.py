"""The texts of the flipped cases, read from a harness log in a second pass, for those ids only.

The first pass (:mod:`calculator.logs`) keeps numbers only: one row per case, repeat and metric.
Once the flips are known, this module reads the same files again and keeps, for the wanted
(case, repeat) ids alone, what the log holds of each:

- lm-eval samples: the document's fields (``doc``) as the prompt, ``target``, and the outputs
  ``filtered_resps [<filter>]`` for each filter logged and the raw ``resps``;
- Inspect samples: ``input`` (a string, or the messages' text; attachments resolved),
  ``target``, the output's completion, and each scorer's ``explanation`` (the compared
  scorer's first);
- HELM run folders: ``scenario_state.json`` (each request state's instance input, correct
  references and completion), else ``display_predictions.json`` (``predicted_text``) with
  ``display_requests.json`` (the prompt); a run whose folder holds neither gives ids only,
  said by :attr:`LogTexts.holds_texts`.

Texts are kept whole here; they are cut for display where they are shown.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from calculator.flips.model import CaseTexts
from calculator.logs.helm import run_name_parts
from calculator.logs.inspect_log import (
    is_inspect_json,
    is_inspect_zip,
    open_archive,
    read_member,
)
from calculator.logs.lmeval import is_lm_eval_record, lm_eval_task

__all__ = ["LogTexts", "Wanted", "read_log_texts"]

#: (case id, repeat) pairs whose texts are kept; a repeat of None keeps every repeat.
Wanted = set[tuple[str, int | None]]
_ENDINGS = (".json", ".jsonl", ".eval")
_HELM_FILES = ("scenario_state.json", "display_predictions.json", "display_requests.json")
#: What a file whose texts are not as the harness writes them raises while they are read: its
#: flips then have no texts ("not_found"), and the file is named in `LogTexts.unreadable`.
_DAMAGED = (ValueError, TypeError, AttributeError, KeyError, IndexError)


@dataclass(slots=True)
class LogTexts:
    """Texts found, by task, case and repeat; `holds_texts` is False when the log holds none
    (HELM per-instance stats without the run's scenario or display files)."""

    by_task: dict[str, dict[tuple[str, int], CaseTexts]] = field(default_factory=dict)
    holds_texts: bool = True
    #: Files (or HELM run folders) whose texts could not be read as the harness writes them.
    unreadable: list[str] = field(default_factory=list)

    def add(self, task: str, case: str, repeat: int, texts: CaseTexts) -> None:
        self.by_task.setdefault(task, {})[(case, repeat)] = texts

    def find(self, task: str | None, case: str, repeat: int | None) -> CaseTexts | None:
        """The texts of a case: under its task, else under the log's only task (a task named
        after its file, or paired by content under the other log's name)."""
        found = self.by_task.get(task) if task is not None else None
        if found is None and len(self.by_task) == 1:
            found = next(iter(self.by_task.values()))
        if found is None:
            return None
        if repeat is not None:
            return found.get((case, repeat))
        return next((t for (c, _), t in found.items() if c == case), None)


def read_log_texts(
    source: str | os.PathLike[str] | Sequence[tuple[str, bytes]],
    log_format: str,
    wanted: Wanted,
    *,
    scorers: dict[str, str] | None = None,
) -> LogTexts:
    """The texts `wanted` of one system's log: a file or folder (a path), or uploads ((name,
    bytes) pairs); `scorers` names each task's compared metric (an Inspect scorer, whose
    explanation comes first)."""
    ids = {case for case, _ in wanted}
    texts = LogTexts()
    helm: dict[str, dict[str, object]] = {}
    for name, data in _files(source):
        try:
            if data.startswith(b"PK\x03\x04"):
                _zip(name, data, log_format, ids, texts, helm, scorers or {})
            else:
                _document(name, data, log_format, ids, texts, helm, scorers or {})
        except _DAMAGED:  # texts the first pass did not need, in a shape no harness writes
            texts.unreadable.append(name)
    if log_format == "helm":
        _helm_runs(helm, ids, texts)
    return texts


def _files(source: object) -> Iterator[tuple[str, bytes]]:
    if isinstance(source, list | tuple):
        yield from source
        return
    path = Path(source)  # type: ignore[arg-type]
    if path.is_file():
        yield path.name, path.read_bytes()
        return
    for root, _, names in sorted(os.walk(path)):
        for file_name in sorted(names):
            file = Path(root) / file_name
            if file.name.endswith(_ENDINGS) and not file.is_symlink() and file.is_file():
                yield str(file.relative_to(path)), file.read_bytes()


def _zip(name, data, log_format, ids, texts, helm, scorers) -> None:  # noqa: ANN001, PLR0913
    archive = open_archive(name, data)
    with archive:
        if is_inspect_zip(archive):
            header_info = archive.getinfo(
                "header.json" if "header.json" in archive.namelist() else "_journal/start.json"
            )
            header = json.loads(read_member(archive, header_info, data, name))
            task = _inspect_task(header.get("eval") or {}, name)
            members = [
                info
                for info in archive.infolist()
                if info.filename.startswith("samples/") and info.filename.endswith(".json")
            ]
            # The member's name says whose sample it is (samples/<id>_epoch_<n>.json): the
            # others are read only when an id is not found so (a name Inspect had to change).
            named = [i for i in members if i.filename[8:].rsplit("_epoch_", 1)[0] in ids]
            for info in named:
                sample = json.loads(read_member(archive, info, data, name))
                _inspect_sample(sample, task, ids, texts, scorers.get(task))
            found = {case for case, _ in texts.by_task.get(task, {})}
            if ids - found:
                for info in (i for i in members if i not in set(named)):
                    sample = json.loads(read_member(archive, info, data, name))
                    _inspect_sample(sample, task, ids - found, texts, scorers.get(task))
            return
        for info in archive.infolist():  # a zip of HELM run folders (an upload)
            if info.filename.endswith(".json") and not info.is_dir():
                _document(
                    info.filename,
                    read_member(archive, info, data, name),
                    log_format,
                    ids,
                    texts,
                    helm,
                    scorers,
                )


def _document(name, data, log_format, ids, texts, helm, scorers) -> None:  # noqa: ANN001, PLR0913
    text = data.decode("utf-8-sig", errors="replace")
    stripped = text.lstrip()
    if log_format == "lm-eval":
        task = lm_eval_task(name) or PurePosixPath(name.replace("\\", "/")).stem
        if stripped.startswith("["):
            records = json.loads(stripped)
        else:
            records = (_line(line) for line in text.split("\n") if line.strip())
        for record in records:
            if is_lm_eval_record(record) and str(record["doc_id"]) in ids:
                _lm_eval_record(record, task, texts)
        return
    try:
        document = json.loads(stripped)
    except json.JSONDecodeError:
        return  # not a JSON document: the first pass read no log from it
    if log_format == "inspect" and is_inspect_json(document):
        task = _inspect_task(document["eval"], name)
        for sample in document.get("samples") or []:
            if isinstance(sample, dict):
                _inspect_sample(sample, task, ids, texts, scorers.get(task))
    elif log_format == "helm":
        folder = str(PurePosixPath(name.replace("\\", "/")).parent)
        base = PurePosixPath(name.replace("\\", "/")).name
        documents = helm.setdefault(folder, {})
        documents[base] = document
        if base.endswith("per_instance_stats.json"):
            documents["\0stats_name"] = name


def _line(line: str) -> object:
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        return None


def _lm_eval_record(record: dict, task: str, texts: LogTexts) -> None:
    """One lm-eval record (one document and filter); a document's records of other filters
    add their outputs to the same case."""
    case = str(record["doc_id"])
    before = texts.by_task.get(task, {}).get((case, 0))
    outputs = dict(before.outputs) if before is not None else {}
    label = f"filtered_resps [{record['filter']}]" if record.get("filter") else "filtered_resps"
    if "filtered_resps" in record:
        outputs[label] = _text(record["filtered_resps"])
    if "resps" in record:
        outputs.setdefault("resps", _text(record["resps"]))
    texts.add(
        task,
        case,
        0,
        CaseTexts(
            prompt=_doc_text(record.get("doc")),
            target=None if record.get("target") is None else _text(record["target"]),
            outputs=tuple(outputs.items()),
        ),
    )


def _doc_text(doc: object) -> str | None:
    """lm-eval's document: each field on a line ("question: ..."), or the value itself."""
    if doc is None:
        return None
    if isinstance(doc, dict):
        return "\n".join(f"{key}: {_text(value)}" for key, value in doc.items())
    return _text(doc)


def _text(value: object) -> str:
    """A logged value as text: a string as it is, a one-item list as its item, else JSON."""
    while isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _inspect_task(spec: dict, name: str) -> str:
    return str(spec.get("task", name)).split("/")[-1]


def _inspect_sample(
    sample: dict, task: str, ids: set[str], texts: LogTexts, scorer: str | None
) -> None:
    case = str(sample.get("id"))
    if case not in ids:
        return
    attachments = sample.get("attachments") or {}
    output = sample.get("output") or {}
    completion = output.get("completion") if isinstance(output, dict) else None
    if not completion and isinstance(output, dict) and output.get("choices"):
        message = (output["choices"][0] or {}).get("message") or {}
        completion = _message_text(message.get("content"), attachments)
    scores = sample.get("scores") or {}
    first = (scorer or "").split("/")[0]
    order = sorted(scores, key=lambda s: s != first)
    explanations = [
        f"{name}: {_resolve(score['explanation'], attachments)}"
        for name in order
        if isinstance(score := scores[name], dict) and score.get("explanation")
    ]
    epoch = sample.get("epoch")
    texts.add(
        task,
        case,
        int(epoch) if isinstance(epoch, int) else 1,
        CaseTexts(
            prompt=_message_text(sample.get("input"), attachments),
            target=None if sample.get("target") is None else _text(sample["target"]),
            outputs=(("completion", _resolve(completion or "", attachments)),),
            explanation="\n\n".join(explanations) or None,
        ),
    )


def _message_text(content: object, attachments: dict) -> str | None:
    """Inspect's input or content: a string, a list of messages, or of content parts."""
    if content is None:
        return None
    if isinstance(content, str):
        return _resolve(content, attachments)
    if isinstance(content, list):
        parts = []
        for item in content:
            if isinstance(item, dict) and "role" in item:
                parts.append(f"{item['role']}: {_message_text(item.get('content'), attachments)}")
            elif isinstance(item, dict):
                parts.append(
                    _resolve(str(item.get("text", item.get("reasoning", ""))), attachments)
                )
            else:
                parts.append(_text(item))
        return "\n".join(parts)
    return _text(content)


def _resolve(text: str, attachments: dict) -> str:
    """An ``attachment://<hash>`` reference as the text it stands for."""
    if isinstance(text, str) and text.startswith("attachment://"):
        return str(attachments.get(text[len("attachment://") :], text))
    return text


def _helm_runs(helm: dict[str, dict[str, object]], ids: set[str], texts: LogTexts) -> None:
    """Each HELM run folder's texts, under the run's task (its run spec's name, else its
    folder's, else its stats file's, as :mod:`calculator.logs.helm` names it)."""
    texts.holds_texts = False
    for folder, documents in helm.items():
        if not any(name in documents for name in _HELM_FILES):
            continue
        texts.holds_texts = True
        spec = documents.get("run_spec.json")
        run_name = spec.get("name") if isinstance(spec, dict) else None
        stats_name = str(documents.get("\0stats_name", ""))
        if not run_name:
            run_name = (
                PurePosixPath(folder).name if folder != "." else PurePosixPath(stats_name).stem
            )
        task = run_name_parts(str(run_name))[0]
        state = documents.get("scenario_state.json")
        try:
            if isinstance(state, dict) and isinstance(state.get("request_states"), list):
                _helm_state(state["request_states"], task, ids, texts)
            else:
                _helm_display(documents, task, ids, texts)
        except _DAMAGED:
            texts.unreadable.append(folder)


def _helm_state(states: list, task: str, ids: set[str], texts: LogTexts) -> None:
    for state in states:
        instance = state.get("instance") or {} if isinstance(state, dict) else {}
        case = str(instance.get("id"))
        if case not in ids or instance.get("perturbation"):
            continue
        references = [
            (r.get("output") or {}).get("text", "")
            for r in instance.get("references") or []
            if "correct" in (r.get("tags") or [])
        ]
        result = state.get("result") or {}
        completions = [c.get("text", "") for c in result.get("completions") or []]
        texts.add(
            task,
            case,
            int(state.get("train_trial_index") or 0),
            CaseTexts(
                prompt=(instance.get("input") or {}).get("text"),
                target="\n".join(references) or None,
                outputs=(("completion", completions[0] if completions else ""),),
            ),
        )


def _helm_display(documents: dict, task: str, ids: set[str], texts: LogTexts) -> None:
    requests = {}
    for item in documents.get("display_requests.json") or []:
        if isinstance(item, dict) and str(item.get("instance_id")) in ids:
            key = (str(item["instance_id"]), int(item.get("train_trial_index") or 0))
            requests[key] = (item.get("request") or {}).get("prompt")
    for item in documents.get("display_predictions.json") or []:
        if not isinstance(item, dict) or str(item.get("instance_id")) not in ids:
            continue
        if item.get("perturbation"):
            continue
        key = (str(item["instance_id"]), int(item.get("train_trial_index") or 0))
        texts.add(
            task,
            *key,
            CaseTexts(
                prompt=requests.get(key),
                outputs=(("predicted_text", str(item.get("predicted_text", ""))),),
            ),
        )
