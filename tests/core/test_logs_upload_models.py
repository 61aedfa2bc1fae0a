"""Uploads holding several models' logs (``calculator/logs/uploads.py``): the models named by
the logs themselves (a HELM run's spec, an Inspect log's header), one model's logs read with
``read_log_data(model=...)``, and an eval set's manifest and configuration told by content;
the logs are the real HELM BBQ runs and the eval sets written by ``inspect_ai.eval_set``
(tests/data/evallogs/SOURCES.md)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from calculator.logs import LogError, read_log_data
from calculator.logs.sources import MAX_LOG_BYTES
from calculator.logs.uploads import gather_uploads, model_of, upload_models

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"
HELM = LOGS / "helm"
EVALSET = LOGS / "generated" / "inspect" / "evalset-a"
MODELS = ("meta/llama-3-8b-chat", "openai/gpt-4o-2024-05-13")


def suite_zip() -> list[tuple[str, bytes]]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for stats in sorted(HELM.glob("bbq_*_per_instance_stats.json")):
            spec = stats.with_name(stats.name.replace("per_instance_stats", "run_spec"))
            run = json.loads(spec.read_text())["name"]
            archive.write(stats, f"runs/v4/{run}/per_instance_stats.json")
            archive.write(spec, f"runs/v4/{run}/run_spec.json")
    return [("suite.zip", buffer.getvalue())]


def eval_set() -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in sorted(EVALSET.iterdir()) if p.suffix != ""]


def test_a_helm_suite_zip_names_its_models_and_reads_one():
    files = suite_zip()
    assert upload_models(files, MAX_LOG_BYTES) == MODELS
    for model in MODELS:
        table = read_log_data(files, model=model)
        assert table.system == model
        stem = model.replace("/", "_")
        stats = json.loads((HELM / f"bbq_{stem}_per_instance_stats.json").read_text())
        ids = {instance["instance_id"] for instance in stats}
        assert set(table.frame["case"]) == ids


def test_a_model_the_upload_lacks_is_refused_naming_those_held():
    with pytest.raises(LogError, match=r"no run of model 'x/y' \(the models it holds: meta"):
        read_log_data(suite_zip(), model="x/y")


def test_an_inspect_logs_model_is_its_headers():
    (log,) = EVALSET.glob("*_arith_*.eval")
    assert model_of(log.name, log.read_bytes()) == "mockllm/model"
    assert model_of("x.jsonl", b'{"doc_id": 0}\n{"doc_id": 1}\n') is None


def test_an_eval_sets_manifest_and_configuration_are_told_by_content():
    files = [("index.json" if n == "logs.json" else n, d) for n, d in eval_set()]
    gathered = gather_uploads(files, MAX_LOG_BYTES)
    assert sorted(name for name, _ in gathered.files) == sorted(
        n for n, _ in files if n.endswith(".eval")
    )  # eval-set.json (its configuration) set aside, the manifest read
    assert gathered.notes == ("the files given: an Inspect eval-set folder (logs.json read)",)


def test_a_manifest_listing_a_log_not_given_is_refused():
    files = [(n, d) for n, d in eval_set() if "_capitals_" not in n]
    with pytest.raises(LogError, match=r"lists 1 log not among the files given .*capitals"):
        gather_uploads(files, MAX_LOG_BYTES)


def test_a_loose_manifest_does_not_govern_a_zips_logs():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in eval_set():
            if name.endswith(".eval"):
                archive.writestr(f"other/{name}", data)
    manifest = [(n, d) for n, d in eval_set() if n == "logs.json"]
    with pytest.raises(LogError, match="lists 2 logs not among the files given"):
        gather_uploads([("set.zip", buffer.getvalue()), *manifest], MAX_LOG_BYTES)
