"""``cases A B --flips N`` (text), ``--json`` and ``--flips-csv`` on the shared real logs
(/work/shared/evallogs, copied to tests/data/evallogs: lm-eval, Inspect, HELM), each flip
recounted here from the logs with ``json`` and ``zipfile`` alone, with the text that belongs
beside its id. This module does not import the product: it runs it in a subprocess.

Recount: a flip is a case one log passes and the other fails under the metric (and filter) the
product says it compared (``input.by_task``); its texts are read here from the same record
(lm-eval: ``resps`` and ``target``; Inspect: the sample's output completion and ``input``).

The one real Inspect log is a single run, so its B is a copy written here with ``zipfile``:
five samples' scores turned (C to I, I to C) and their completions rewritten, every other
member unchanged; the recount reads both archives.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "data" / "evallogs"
WINOGRANDE = {
    name: next((LOGS / "lm-eval").glob(f"output__{name}*winogrande*.jsonl"))
    for name in ("gpt-4o", "LGAI-EXAONE", "upstage")
}
GPQA = next((LOGS / "inspect").glob("*gpqa-diamond*.eval"))
HELM = [
    LOGS / "helm" / f"bbq_{m}_per_instance_stats.json"
    for m in ("openai_gpt-4o-2024-05-13", "meta_llama-3-8b-chat")
]


def run(*argv: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "cases", *map(str, argv)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def recount(a: dict[str, float], b: dict[str, float]) -> dict[str, list[str]]:
    """The ids only A passes and only B passes, among the ids both hold."""
    both = [case for case in a if case in b]
    return {
        "regression": sorted(c for c in both if a[c] == 1 and b[c] == 0),
        "improvement": sorted(c for c in both if a[c] == 0 and b[c] == 1),
    }


def lm_eval_records(path: Path) -> dict[str, dict]:
    return {str(r["doc_id"]): r for r in map(json.loads, path.read_text().splitlines())}


def by_direction(flips: list[dict]) -> dict[str, list[str]]:
    return {
        d: sorted(f["id"] for f in flips if f["direction"] == d)
        for d in ("regression", "improvement")
    }


@pytest.mark.parametrize("b_name", ["LGAI-EXAONE", "upstage"])
def test_lm_eval_flips_json_csv_and_text_against_the_recount(tmp_path, b_name):
    a_path, b_path = WINOGRANDE["gpt-4o"], WINOGRANDE[b_name]
    code, out, err = run(
        a_path, b_path, "--json", "--flips", "2", "--flips-csv", tmp_path / "f.csv"
    )
    assert code == 0, err
    document = json.loads(out)
    (choice,) = document["input"]["by_task"].values()
    metric = choice["metric"]
    ra, rb = lm_eval_records(a_path), lm_eval_records(b_path)
    expected = recount(
        {c: float(r[metric]) for c, r in ra.items()}, {c: float(r[metric]) for c, r in rb.items()}
    )
    flips = document["flips"]["flips"]
    assert by_direction(flips) == expected
    assert sum(map(len, expected.values())) > 0
    for flip in flips:  # the right texts beside each id
        case = flip["id"]
        assert flip["A_texts"]["outputs"]["resps"] == ra[case]["resps"][0][0]
        assert flip["B_texts"]["outputs"]["resps"] == rb[case]["resps"][0][0]
        assert flip["target"] == str(ra[case]["target"])
        assert ra[case]["doc"]["sentence"] in flip["prompt"]
        assert (flip["A"], flip["B"]) == (ra[case][metric], rb[case][metric])
    rows = list(csv.DictReader(io.StringIO((tmp_path / "f.csv").read_text())))
    assert by_direction([{"id": r["id"], "direction": r["direction"]} for r in rows]) == expected
    for row in rows:
        assert ra[row["id"]]["resps"][0][0] in row["A_output"]
        assert rb[row["id"]]["resps"][0][0] in row["B_output"]
    code, text, err = run(a_path, b_path, "--flips", "2")
    assert code == 0, err
    order = [c for c in ra if c in expected["regression"]][:2]  # listed in the log's order
    for case in order:
        block = text.split(f"winogrande/{case}:", 1)[1].split("\n  winogrande/", 1)[0]
        assert ra[case]["resps"][0][0][:100] in block
        assert rb[case]["resps"][0][0][:100] in block
    assert (
        "regressions (only " in text
        and f": {len(order)} shown of {len(expected['regression'])}" in text
    )


def _gpqa_samples(path: Path) -> dict[str, dict]:
    with zipfile.ZipFile(path) as archive:
        return {
            name: json.loads(archive.read(name))
            for name in archive.namelist()
            if name.startswith("samples/") and name.endswith(".json")
        }


def _turned_copy(path: Path, target: Path, count: int) -> list[str]:
    """A copy of an .eval log with `count` samples' first scorer turned and their completions
    rewritten; the ids changed."""
    samples = _gpqa_samples(path)
    changed = []
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename in samples and len(changed) < count:
                sample = samples[info.filename]
                scorer = next(iter(sample["scores"]))
                value = sample["scores"][scorer]["value"]
                sample["scores"][scorer]["value"] = {"C": "I", "I": "C"}[value]
                sample["output"]["choices"][0]["message"]["content"] = (
                    f"B's answer to {sample['id']}"
                )
                sample["output"]["completion"] = f"B's answer to {sample['id']}"
                data = json.dumps(sample).encode()
                changed.append(str(sample["id"]))
            out.writestr(info, data)
    return changed


def _completion(sample: dict) -> str:
    output = sample["output"]
    if output.get("completion"):
        return output["completion"]
    content = output["choices"][0]["message"]["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


def test_inspect_flips_against_the_recount(tmp_path):
    b_path = tmp_path / "gpqa-b.eval"
    changed = _turned_copy(GPQA, b_path, 5)
    code, out, err = run(GPQA, b_path, "--json", "--flips", "1")
    assert code == 0, err
    document = json.loads(out)
    (choice,) = document["input"]["by_task"].values()
    grade = {"C": 1.0, "I": 0.0}
    a = {str(s["id"]): s for s in _gpqa_samples(GPQA).values()}
    b = {str(s["id"]): s for s in _gpqa_samples(b_path).values()}
    scorer = choice["metric"]
    expected = recount(
        {c: grade[s["scores"][scorer]["value"]] for c, s in a.items()},
        {c: grade[s["scores"][scorer]["value"]] for c, s in b.items()},
    )
    flips = document["flips"]["flips"]
    assert by_direction(flips) == expected
    assert sorted(sum(expected.values(), [])) == sorted(changed)
    for flip in flips:
        assert flip["B_texts"]["outputs"]["completion"] == f"B's answer to {flip['id']}"
        assert flip["A_texts"]["outputs"]["completion"] == _completion(a[flip["id"]])
        assert flip["prompt"].startswith(a[flip["id"]]["input"][:50])
        assert flip["target"] == a[flip["id"]]["target"]


def test_helm_stats_alone_flips_are_ids_said_to_have_no_texts(tmp_path):
    code, out, err = run(*HELM, "--json", "--flips", "3", "--flips-csv", tmp_path / "h.csv")
    assert code == 0, err
    document = json.loads(out)
    (choice,) = document["input"]["by_task"].values()

    def values(path: Path) -> dict[str, float]:
        found = {}
        for instance in json.loads(path.read_text()):
            for stat in instance["stats"]:
                name = stat["name"]
                if (
                    name["name"] == choice["metric"]
                    and name.get("split") == "test"
                    and "perturbation" not in name
                ):
                    found[instance["instance_id"]] = stat["mean"]
        return found

    expected = recount(values(HELM[0]), values(HELM[1]))
    flips = document["flips"]["flips"]
    assert by_direction(flips) == expected
    assert {f["texts"] for f in flips} == {"none_in_source"}
    rows = list(csv.DictReader(io.StringIO((tmp_path / "h.csv").read_text())))
    assert len(rows) == len(flips) and {r["texts"] for r in rows} == {"none_in_source"}
    code, text, _ = run(*HELM, "--flips", "3")
    shown = sum(min(3, len(ids)) for ids in expected.values())
    assert text.count("no texts: the source holds ids and outcomes only") == shown
