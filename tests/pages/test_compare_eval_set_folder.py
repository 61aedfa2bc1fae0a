"""The compare page (three or more systems) on an Inspect eval-set folder uploaded as Inspect
wrote it: (a) the folder's files together (its ``.eval`` logs with ``logs.json``,
``eval-set.json`` and ``.eval-set-id``) and (b) a zip of the folder, each read through the one
reader of uploads (``calculator/logs/uploads.py``: the manifest applied across the files, each
model's logs read with ``read_log_data(model=...)``), as ``python -m calculator compare FOLDER``
reads the folder.

Before, the page read each upload on its own to name its system: ``.eval-set-id`` and
``logs.json`` were refused as "not an evaluation log" / "not a log", and the zip as "a zip archive
that is not an Inspect .eval log".

The data are real: tests/data/evallogs/real-inspect-models/eval-set/ (three models on the same
100 questions of Inspect's ``popularity`` task; SOURCES.md there). Expected letters are the
command line's JSON on the folder, and the ones worked out by hand from an independent recount
of the raw logs in tests/cli/test_real_inspect_models.py (its docstring gives the provenance):
gemini-2.5-pro "a", claude-sonnet-4 "b", gpt-5 "b". A zip of HELM run folders (the real BBQ
runs) is read the same way, as ``compare runs/v4/``; the refusals name the files and what is
allowed.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from apptest_pages import open_page
from shape_writers import compare_json as cli_json
from shape_writers import helm_suite
from streamlit.testing.v1 import AppTest

from calculator.compare.workflow import SystemsAsk
from ui import compare_words as words
from ui.widgets.cases_files import StoredFile

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "data" / "evallogs" / "real-inspect-models" / "eval-set"
ONE_MODEL = ROOT / "tests" / "data" / "evallogs" / "generated" / "inspect" / "evalset-a"
HELM = ROOT / "tests" / "data" / "evallogs" / "helm"
PAGE = "app_pages/cases.py"
PRO, CLAUDE, GPT5 = (
    "google/gemini-2.5-pro",
    "anthropic/claude-sonnet-4-20250514",
    "openai/gpt-5",
)
# By hand from the recount (tests/cli/test_real_inspect_models.py).
BY_HAND = {PRO: "a", CLAUDE: "b", GPT5: "b"}


def folder_files(folder: Path = FOLDER) -> list[tuple[str, bytes]]:
    """Every file Inspect wrote in the folder (SOURCES.md is the test data's own note)."""
    return [
        (path.name, path.read_bytes())
        for path in sorted(folder.iterdir())
        if path.is_file() and path.name != "SOURCES.md"
    ]


def zipped(files: list[tuple[str, bytes]], folder: str = "eval-set") -> list[tuple[str, bytes]]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files:
            archive.writestr(f"{folder}/{name}", data)
    return [(f"{folder}.zip", buffer.getvalue())]


def page_with(files: list[tuple[str, bytes]]) -> AppTest:
    at = open_page(PAGE)
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    at.session_state["_compare_files"] = [StoredFile.of(name, data) for name, data in files]
    at.run(timeout=180)
    assert not at.exception, at.exception
    return at


def shown_letters(at: AppTest) -> dict[str, str]:
    (table,) = at.table
    frame = table.value
    return {
        name.replace("\\", ""): letters
        for name, letters in zip(frame["system"], frame["letters"], strict=True)
    }


def shown_words(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [t.value for t in at.text]
    return "\n".join(parts).replace("\\", "")  # the page escapes Markdown; shown unescaped


def errors(at: AppTest) -> list[str]:
    return [e.value.replace("\\", "") for e in at.error]


@pytest.fixture(scope="module")
def cli_folder() -> dict:
    return cli_json(FOLDER)


@pytest.mark.parametrize("with_id", [True, False], ids=["with .eval-set-id", "without it"])
def test_the_folders_files_uploaded_together_give_the_command_lines_groups(cli_folder, with_id):
    """Every file of the folder, or all but ``.eval-set-id`` (in a browser the uploader turns it
    away: tests/browser/test_compare_letters_inspect_real.py): the same groups; given, the
    identifier is set aside as the configuration is."""
    files = [(n, d) for n, d in folder_files() if with_id or n != ".eval-set-id"]
    assert {name for name, _ in files} >= {"logs.json", "eval-set.json"}
    at = page_with(files)
    assert not errors(at), errors(at)
    assert shown_letters(at) == cli_folder["groups"]["letters"] == BY_HAND
    said = shown_words(at)
    assert f"{len(files)} files read as one folder" in said
    assert "an Inspect eval-set folder (logs.json read)" in said
    cochran = cli_folder["cochran"]
    # The page's own function returns the command line's every figure on the folder.
    from ui.compare_logs import compare_folder_uploads, log_uploads

    uploads = log_uploads(tuple(files))
    assert uploads is not None and uploads.folder
    assert set(uploads.systems) == set(cli_folder["input"]["systems"])
    result = compare_folder_uploads(tuple(files), uploads.systems, uploads.systems, SystemsAsk())
    assert result.rates is not None
    expected = {key: value for key, value in cli_folder.items() if key != "input"}
    assert json.loads(json.dumps(result.rates.to_dict())) == expected
    assert result.rates.to_dict()["cochran"]["statistic"] == cochran["statistic"]


def test_a_zip_of_the_folder_gives_the_command_lines_groups(cli_folder):
    at = page_with(zipped(folder_files()))
    assert not errors(at), errors(at)
    assert shown_letters(at) == cli_folder["groups"]["letters"] == BY_HAND
    assert "1 file read as one folder" in shown_words(at)


def test_a_failed_attempt_the_manifest_lists_is_left_out_as_on_the_command_line(tmp_path):
    """An eval set whose gpt-5 task was retried: the failed attempt's log stays in the folder,
    listed in logs.json with status "error". Read, it would hold gpt-5's task twice (refused);
    the manifest leaves it out, on the page as on the command line."""
    folder = tmp_path / "eval-set"
    shutil.copytree(FOLDER, folder)
    manifest = json.loads((folder / "logs.json").read_text())
    (good,) = [name for name, header in manifest.items() if header["eval"]["model"] == GPT5]
    failed = "2025-09-15T14-58-01-04-00_popularity_failedAttempt0000000000.eval"
    shutil.copy(folder / good, folder / failed)
    manifest[failed] = {**manifest[good], "status": "error"}
    (folder / "logs.json").write_text(json.dumps(manifest))
    expected = cli_json(folder)
    assert any("attempt that did not succeed left out" in n for n in expected["input"]["notes"])
    for files in (folder_files(folder), zipped(folder_files(folder))):
        at = page_with(files)
        assert not errors(at), errors(at)
        assert shown_letters(at) == expected["groups"]["letters"] == BY_HAND
        assert f"1 log of an attempt that did not succeed left out ({failed} (error))" in (
            shown_words(at)
        )


def test_a_model_renamed_on_the_page_keeps_its_letters(cli_folder):
    at = page_with(folder_files())
    boxes = [box for box in at.text_input if box.key.startswith("compare_folder_system_")]
    assert [box.value for box in boxes] == sorted(BY_HAND)
    boxes[sorted(BY_HAND).index(PRO)].set_value("pro")
    at.run(timeout=180)
    assert not errors(at), errors(at)
    renamed = {("pro" if name == PRO else name): v for name, v in BY_HAND.items()}
    assert shown_letters(at) == renamed


def test_two_models_given_one_name_are_refused_by_name():
    at = page_with(folder_files())
    boxes = [box for box in at.text_input if box.key.startswith("compare_folder_system_")]
    for box in boxes[:2]:
        box.set_value("same")
    at.run(timeout=180)
    (refusal,) = errors(at)
    assert refusal.startswith(f"the models {CLAUDE}, {PRO} are both named 'same'")
    assert "give each model its own name" in refusal
    assert not at.table


def test_an_eval_set_of_one_model_is_refused_naming_its_files():
    files = folder_files(ONE_MODEL)
    at = page_with(files)
    (refusal,) = errors(at)
    assert refusal.startswith(", ".join(name for name, _ in files[:4]))
    assert "their logs are of one model (mockllm/model)" in refusal
    assert "give a folder of several models' logs, or one log per system" in refusal
    assert not at.table


def test_a_log_beside_a_one_model_eval_set_is_left_out_by_its_manifest_and_said():
    """A folder holds what its manifest lists (as on the command line): another model's log
    uploaded beside a one-model eval set is left out, and the refusal says so."""
    (other,) = [p for p in FOLDER.glob("*.eval") if "L8g2GLGD" in p.name]  # gpt-5's
    files = [*folder_files(ONE_MODEL), (other.name, other.read_bytes())]
    at = page_with(files)
    (refusal,) = errors(at)
    assert "their logs are of one model (mockllm/model)" in refusal
    assert f"1 log not in logs.json left out ({other.name})" in refusal


def test_a_zip_of_helm_run_folders_gives_the_command_lines_groups(tmp_path):
    """A HELM suite folder (runs/v4/<run>/ with each run's stats and spec; the real BBQ runs,
    tests/data/evallogs/SOURCES.md) zipped: each model one system, as ``compare runs/v4/``."""
    suite = helm_suite(tmp_path, HELM)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(suite.rglob("*.json")):
            archive.write(path, path.relative_to(tmp_path).as_posix())
    expected = cli_json(suite)["groups"]["letters"]
    assert len(expected) == 2
    at = page_with([("runs.zip", buffer.getvalue())])
    assert not errors(at), errors(at)
    assert shown_letters(at) == expected


def test_a_manifest_listing_a_log_not_uploaded_is_refused_naming_it():
    files = [(name, data) for name, data in folder_files() if "L8g2GLGD" not in name]
    at = page_with(files)
    (refusal,) = errors(at)
    assert "logs.json lists 1 log not among the files given" in refusal
    assert "L8g2GLGDDfsiXvdJ8LyZNJ.eval" in refusal
    assert "give every log it lists, or leave it out" in refusal


def test_a_zip_holding_no_log_is_refused_naming_it_and_what_a_zip_may_be():
    at = page_with(zipped([("notes.csv", b"id,x\n1,1\n")], folder="notes"))
    (refusal,) = errors(at)
    assert refusal.startswith("notes.zip: a zip archive holding no Inspect .eval log")
    assert "a zip of an Inspect eval-set folder (its .eval logs, with logs.json)" in refusal
    assert "HELM run folders" in refusal
