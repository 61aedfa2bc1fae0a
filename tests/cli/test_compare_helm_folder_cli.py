"""``compare`` on HELM's runs copied flat into one folder (``bbq_<model>_per_instance_stats.json``
beside ``bbq_<model>_run_spec.json``, as tests/data/evallogs/helm and the shared real logs hold
them): each stats file is paired with the run spec of the same prefix, recognised by its content,
so the systems are named by the run spec's model, and the one folder holding two models' runs is
compared as two systems (issue #35).

Expected names are the run specs' own ``adapter_spec.model``, read from the files here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HELM = ROOT / "tests" / "data" / "evallogs" / "helm"


def run(*argv: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *map(str, argv)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def spec_models() -> set[str]:
    specs = sorted(HELM.glob("bbq_*_run_spec.json"))
    return {json.loads(path.read_text())["adapter_spec"]["model"] for path in specs}


def test_the_flat_folder_given_as_one_path_is_two_systems_named_by_their_run_specs():
    done = run(HELM, "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert set(payload["input"]["systems"]) == spec_models() and len(spec_models()) == 2
    assert set(payload["groups"]["letters"]) == spec_models()
    by_files = json.loads(run(*sorted(HELM.glob("bbq_*_per_instance_stats.json")), "--json").stdout)
    assert by_files["groups"] == payload["groups"]  # the folder and its files: one answer
    assert by_files["input"]["systems"] == payload["input"]["systems"]


def test_a_spec_is_paired_by_content_not_by_name_alone(tmp_path):
    """A file named like a run spec that is not one is not taken for it: the system is named
    after the file, with the reader's note."""
    stats = sorted(HELM.glob("bbq_*_per_instance_stats.json"))
    for path in stats:
        shutil.copy(path, tmp_path / path.name)
        spec = path.name.replace("per_instance_stats", "run_spec")
        (tmp_path / spec).write_text('{"not": "a run spec"}')
    done = run(*sorted(tmp_path.glob("*_per_instance_stats.json")), "--json")
    assert done.returncode == 0, done.stderr
    names = json.loads(done.stdout)["input"]["systems"]
    assert not set(names) & spec_models()
    assert "no run_spec.json was read with them" in " ".join(
        json.loads(done.stdout)["input"]["notes"]
    )


def test_a_folder_of_one_model_is_still_refused_as_nothing_to_compare(tmp_path):
    for path in HELM.glob("bbq_openai_*"):
        shutil.copy(path, tmp_path / path.name)
    done = run(tmp_path)
    assert done.returncode == 2
    assert "two or more systems' logs" in done.stderr
