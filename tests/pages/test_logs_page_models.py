"""AppTest checks of the per-case page's harness-log section on uploads holding several models'
logs: a zip of a HELM suite folder (the real BBQ runs of two models, laid out as HELM writes
``runs/<suite>/<run>/``) and a zip of an Inspect eval-set folder of two models; the models are
listed by the names the logs give, each side's chosen, and the tables are those of the
command line's ``--models`` (recounted here with json alone). An eval set's ``logs.json``
given with its logs is recognised by its content and keeps the logs it lists as succeeded.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
from pathlib import Path

import zstandard
from apptest_pages import open_page

from calculator.cli import main

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"
HELM = LOGS / "helm"
EVALSET = LOGS / "generated" / "inspect"
MODELS = ("meta/llama-3-8b-chat", "openai/gpt-4o-2024-05-13")


def helm_suite_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for stats in sorted(HELM.glob("bbq_*_per_instance_stats.json")):
            spec = stats.with_name(stats.name.replace("per_instance_stats", "run_spec"))
            run = json.loads(spec.read_text())["name"]
            archive.write(stats, f"runs/v4/{run}/per_instance_stats.json")
            archive.write(spec, f"runs/v4/{run}/run_spec.json")
    return buffer.getvalue()


def helm_values(model: str) -> dict[str, float]:
    stem = model.replace("/", "_")
    found = {}
    for instance in json.loads((HELM / f"bbq_{stem}_per_instance_stats.json").read_text()):
        for stat in instance["stats"]:
            name = stat["name"]
            if (
                name["name"] == "exact_match"
                and name["split"] == "test"
                and name.get("perturbation") is None
            ):
                found[instance["instance_id"]] = stat["mean"]
    return found


def open_logs(a: list[tuple[str, bytes]], b: list[tuple[str, bytes]] | None = None):
    at = open_page("app_pages/cases.py")
    at.checkbox(key="logs_show").check().run()
    at.file_uploader(key="logs_a").set_value([(n, d, "x") for n, d in a]).run()
    if b is not None:
        at.file_uploader(key="logs_b").set_value([(n, d, "x") for n, d in b]).run()
    assert not at.exception, at.exception
    return at


def report(at) -> str:
    return "\n".join(t.value for t in at.text)


def test_a_helm_suite_zip_given_once_lists_its_models_and_compares_the_two_chosen():
    at = open_logs([("suite.zip", helm_suite_zip())])
    choices = {s.key: s for s in at.selectbox if s.key in ("logs_model_a", "logs_model_b")}
    assert list(choices["logs_model_a"].options) == list(MODELS)
    assert (choices["logs_model_a"].value, choices["logs_model_b"].value) == MODELS
    at.text_input(key="logs_metric").set_value("exact_match").run()
    choices["logs_model_a"].set_value(MODELS[1]).run()
    at.selectbox(key="logs_model_b").set_value(MODELS[0]).run()
    assert not at.error, [e.value for e in at.error]
    a, b = helm_values(MODELS[1]), helm_values(MODELS[0])
    table = next(f.value for f in at.dataframe if "task" in f.value.columns).iloc[0]
    assert table["only A"] == sum(a[i] == 1 and b[i] != 1 for i in a)
    assert table["only B"] == sum(a[i] != 1 and b[i] == 1 for i in a)
    assert table["both pass"] + table["both fail"] + table["only A"] + table["only B"] == len(a)
    # Named from the logs, A first.
    assert f"input     helm logs: {MODELS[1]} = suite.zip/runs/v4/" in report(at)


def test_the_same_model_on_both_sides_of_one_upload_is_refused():
    at = open_logs([("suite.zip", helm_suite_zip())])
    at.selectbox(key="logs_model_b").set_value(MODELS[0]).run()
    assert [e.value for e in at.error] == [
        "A and B are the same model of the same upload: choose two different models."
    ]


def test_the_suite_page_gives_the_command_lines_table(tmp_path, capsys):
    root = tmp_path / "suite"
    with zipfile.ZipFile(io.BytesIO(helm_suite_zip())) as archive:
        archive.extractall(root)
    folder = root / "runs" / "v4"
    status = main(
        [
            "cases",
            str(folder),
            str(folder),
            "--models",
            ",".join(MODELS),
            "--json",
            "--metric",
            "exact_match",
        ]
    )
    assert status == 0
    table = json.loads(capsys.readouterr().out)["table"]
    at = open_logs([("suite.zip", helm_suite_zip())])
    at.text_input(key="logs_metric").set_value("exact_match").run()
    row = next(f.value for f in at.dataframe if "task" in f.value.columns).iloc[0]
    shown = (row["both pass"], row["only A"], row["only B"], row["both fail"])
    assert shown == (table["a"], table["b"], table["c"], table["d"])


def eval_set_files(folder: Path) -> list[tuple[str, bytes]]:
    """The files a visitor selects in an eval-set folder: its logs, logs.json, eval-set.json."""
    return [
        (p.name, p.read_bytes()) for p in sorted(folder.iterdir()) if p.suffix in (".eval", ".json")
    ]


def test_an_eval_sets_logs_json_is_read_with_its_logs():
    at = open_logs(eval_set_files(EVALSET / "evalset-a"), eval_set_files(EVALSET / "evalset-b"))
    assert not at.error, [e.value for e in at.error]
    assert "an Inspect eval-set folder (logs.json read)" in report(at)
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    assert sorted(table["task"]) == ["arith", "capitals"]


def test_a_manifest_is_recognised_by_content_and_a_failed_attempt_left_out():
    files = eval_set_files(EVALSET / "evalset-a")
    manifest = json.loads(dict(files)["logs.json"])
    log = next(name for name in manifest if "_arith_" in name)
    failed = "2026-12-06T15-30-00-00-00_arith_failedattempt.eval"
    manifest[failed] = {**manifest[log], "status": "error"}
    renamed = [(n, d) for n, d in files if n != "logs.json"]
    renamed += [("index (1).json", json.dumps(manifest).encode()), (failed, dict(files)[log])]
    at = open_logs(renamed, eval_set_files(EVALSET / "evalset-b"))
    assert not at.error, [e.value for e in at.error]
    assert "arith_failedattempt.eval (error)" in report(at)


def with_model(data: bytes, model: str) -> bytes:
    """An .eval log with its header's model renamed, every member rewritten deflated (the
    generated logs' members are zstd-compressed, which zipfile cannot read)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            raw = _zstd_member(data, info) if info.compress_type == 93 else source.read(info)
            if info.filename in ("header.json", "_journal/start.json"):
                document = json.loads(raw)
                document["eval"]["model"] = model
                raw = json.dumps(document).encode()
            target.writestr(info.filename, raw, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _zstd_member(data: bytes, info: zipfile.ZipInfo) -> bytes:
    """A zstd member's bytes, from the raw archive (its local header's name and extra skipped)."""
    offset = info.header_offset
    name_length, extra_length = struct.unpack("<HH", data[offset + 26 : offset + 30])
    start = offset + 30 + name_length + extra_length
    return zstandard.ZstdDecompressor().decompress(
        data[start : start + info.compress_size], max_output_size=info.file_size
    )


def test_an_eval_set_zip_of_two_models_lists_them_and_compares_the_chosen():
    buffer, manifest = io.BytesIO(), {}
    with zipfile.ZipFile(buffer, "w") as archive:
        for folder, model in (("evalset-a", "mock/alpha"), ("evalset-b", "mock/beta")):
            headers = json.loads((EVALSET / folder / "logs.json").read_text())
            for log in sorted((EVALSET / folder).glob("*.eval")):
                archive.writestr(f"set/{log.name}", with_model(log.read_bytes(), model))
                header = headers[log.name]
                manifest[log.name] = {**header, "eval": {**header["eval"], "model": model}}
        archive.writestr("set/logs.json", json.dumps(manifest))
    at = open_logs([("evalset.zip", buffer.getvalue())])
    assert list(at.selectbox(key="logs_model_a").options) == ["mock/alpha", "mock/beta"]
    assert not at.error, [e.value for e in at.error]
    text = report(at)
    assert "input     inspect logs: mock/alpha = evalset.zip/set/" in text
    assert "set: an Inspect eval-set folder (logs.json read)" in text
    # The same pairs as the two folders given apart (the same samples, each side one model).
    apart = open_logs(eval_set_files(EVALSET / "evalset-a"), eval_set_files(EVALSET / "evalset-b"))
    tables = [next(f.value for f in x.dataframe if "task" in f.value.columns) for x in (at, apart)]
    columns = ["task", "both pass", "only A", "only B", "both fail"]
    assert tables[0][columns].values.tolist() == tables[1][columns].values.tolist()
