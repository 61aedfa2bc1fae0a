"""Where a HELM run's task name comes from, and that the input summary says so.

HELM writes each run to ``benchmark_output/runs/<suite>/<run name>/`` with ``run_spec.json``
(holding the run's ``name``) beside ``per_instance_stats.json``, whose entries are HELM's
``PerInstanceStats`` (instance_id, perturbation, train_trial_index, stats: helm
``benchmark/metrics/metric.py``): the stats themselves never name the run. So a stats file read
without its run spec is named after its folder or its file, and a note says which. Logs are the
real BBQ runs of tests/data/evallogs/helm (see SOURCES.md there); counts are the ones
tests/core/test_logs.py checks against the files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from calculator.logs import LogError, pair_logs, read_log
from calculator.logs.systems import load_log_systems

HELM = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "helm"
GPT = HELM / "bbq_openai_gpt-4o-2024-05-13_per_instance_stats.json"
LLAMA = HELM / "bbq_meta_llama-3-8b-chat_per_instance_stats.json"
RUN = "bbq:subject=all,method=multiple_choice_joint"


def renamed(tmp_path: Path, source: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copy(source, target)
    return target


def test_a_renamed_stats_file_says_its_task_is_named_after_the_file(tmp_path):
    log = read_log(renamed(tmp_path, GPT, "gpt.json"))
    assert log.tasks == ("gpt",)
    assert log.notes == (
        "gpt.json: HELM's per-instance stats do not name their run and no run_spec.json was "
        "read with them, so the task is named after the file: 'gpt'",
    )
    paired = pair_logs(log, read_log(renamed(tmp_path, LLAMA, "llama.json")))
    assert any("named after the file: 'llama'" in note for note in paired.notes)


def test_a_stats_file_in_a_folder_without_its_run_spec_is_named_after_the_folder(tmp_path):
    folder = tmp_path / "runs"
    (folder / "bbq_run").mkdir(parents=True)
    shutil.copy(GPT, folder / "bbq_run" / "per_instance_stats.json")
    log = read_log(folder)
    assert log.tasks == ("bbq_run",)
    assert log.notes[0].endswith("so the task is named after the folder: 'bbq_run'")


def test_a_run_read_with_its_run_spec_is_named_by_it_without_a_note(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(GPT, folder / "per_instance_stats.json")
    spec = GPT.with_name(GPT.name.replace("per_instance_stats", "run_spec"))
    shutil.copy(spec, folder / "run_spec.json")
    log = read_log(folder / "per_instance_stats.json")
    assert log.tasks == (RUN,) and log.notes == ()


def flipped_copy(tmp_path: Path, name: str, every: int = 3) -> Path:
    """LLAMA's stats with exact_match flipped on every third instance: a third system."""
    document = json.loads(LLAMA.read_text())
    for instance in document[::every]:
        for stat in instance["stats"]:
            if stat["name"]["name"] == "exact_match":
                stat["mean"] = stat["sum"] = 1.0 - stat["mean"]
    target = tmp_path / name
    target.write_text(json.dumps(document))
    return target


def test_three_renamed_stats_files_compare_on_their_common_questions(tmp_path):
    # Before: each task carried its file's name, no case was shared, and the comparison was
    # refused as runs "not made on the same questions".
    logs = [
        read_log(renamed(tmp_path, GPT, "gpt.json")),
        read_log(renamed(tmp_path, LLAMA, "llama.json")),
        read_log(flipped_copy(tmp_path, "third.json")),
    ]
    cases, choice, _ = load_log_systems(logs)
    assert choice.metric == "exact_match"
    assert cases.n == 100 and cases.rows_used == 300


def test_runs_whose_specs_name_different_tasks_are_still_refused(tmp_path):
    logs = []
    for k, source in enumerate((GPT, LLAMA, GPT)):
        folder = tmp_path / f"run{k}"
        folder.mkdir()
        shutil.copy(
            source if k < 2 else flipped_copy(tmp_path, "x.json"),
            folder / "per_instance_stats.json",
        )
        spec = json.loads(
            LLAMA.with_name(LLAMA.name.replace("per_instance_stats", "run_spec")).read_text()
        )
        spec["name"] = f"task{k}:model=m{k}"
        spec["adapter_spec"]["model"] = f"m{k}"
        (folder / "run_spec.json").write_text(json.dumps(spec))
        logs.append(read_log(folder))
    with pytest.raises(LogError, match=r"the logs are of different tasks \('task0', 'task1'"):
        load_log_systems(logs)
