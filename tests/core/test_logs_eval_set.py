"""Inspect eval-set folders (``inspect_ai.eval_set`` with mockllm:
``docs/evallog-recipes/make_inspect_evalset.py``): the logs its manifest ``logs.json`` lists,
a retried task's failed attempt left out by the manifest's status, and the near misses."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from calculator.logs import LogError, read_log
from calculator.logs.eval_set import is_eval_set_manifest

EVALSET = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "inspect"


@pytest.fixture
def folder(tmp_path) -> Path:
    target = tmp_path / "evalset-a"
    shutil.copytree(EVALSET / "evalset-a", target)
    return target


def manifest(folder: Path) -> dict:
    return json.loads((folder / "logs.json").read_text())


def test_an_eval_set_folder_is_read_and_said(folder):
    table = read_log(folder)
    assert table.tasks == ("arith", "capitals")
    assert table.system == "mockllm/model"
    assert "evalset-a: an Inspect eval-set folder (logs.json read)" in table.notes
    assert is_eval_set_manifest(manifest(folder))
    assert not is_eval_set_manifest(json.loads((folder / "eval-set.json").read_text()))


def retried(folder: Path) -> None:
    """A failed first attempt of arith beside the successful one, listed in the manifest."""
    (log,) = folder.glob("*_arith_*.eval")
    failed = "2026-12-06T15-30-00-00-00_arith_failedattempt.eval"
    shutil.copy(log, folder / failed)
    index = manifest(folder)
    index[failed] = {**index[log.name], "status": "error"}
    (folder / "logs.json").write_text(json.dumps(index))


def test_a_retried_task_reads_its_successful_log(folder):
    retried(folder)
    table = read_log(folder)
    assert table.tasks == ("arith", "capitals") and len(table.sources) == 2
    assert any("arith_failedattempt.eval (error)" in note for note in table.notes)
    (folder / "logs.json").unlink()  # without the manifest the folder holds arith twice
    with pytest.raises(LogError, match="task 'arith' is in several of the Inspect logs"):
        read_log(folder)


def test_a_listed_log_missing_is_refused_and_an_unlisted_one_left_out(folder):
    (log,) = folder.glob("*_capitals_*.eval")
    shutil.copy(log, folder / "extra_capitals.eval")
    table = read_log(folder)
    assert any("1 log not in logs.json left out (extra_capitals.eval)" in n for n in table.notes)
    log.unlink()
    with pytest.raises(LogError, match=r"lists 1 log not in the folder .*copy the eval-set"):
        read_log(folder)
