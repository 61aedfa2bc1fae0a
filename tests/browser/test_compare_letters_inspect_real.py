"""The compare page on real Inspect logs of five models (issue #35): the logs in
tests/data/evallogs/real-inspect-models/ (real runs of gpt-5, claude-sonnet-4, gemini-2.5-pro,
-flash and -flash-lite on the same 100 questions; SOURCES.md there) uploaded in a real
Chromium, the groups' letters read from the page and matched with the command line's on the
same files and with the letters worked out by hand from an independent recount
(tests/cli/test_real_inspect_models.py, whose docstring gives their provenance).

Every wait is for a condition on the page (Playwright's `expect` retries until it holds);
nothing sleeps a fixed time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_setup import expect, skip_module_unless_runnable
from shape_writers import compare_json as cli_json
from test_compare_letters import letters_on_page, open_compare, upload

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

REAL = Path(__file__).resolve().parents[2] / "tests" / "data" / "evallogs" / "real-inspect-models"
LOGS = sorted((REAL / "eval-set").glob("*.eval")) + sorted((REAL / "not-set").glob("*.eval"))
# Worked out by hand from the recount (tests/cli/test_real_inspect_models.py).
BY_HAND = {
    "google/gemini-2.5-flash-lite": "a",
    "google/gemini-2.5-pro": "ab",
    "google/gemini-2.5-flash": "abc",
    "anthropic/claude-sonnet-4-20250514": "bc",
    "openai/gpt-5": "c",
}
# The eval-set folder's three, likewise by hand (tests/cli/test_real_inspect_models.py).
BY_HAND_EVAL_SET = {
    "google/gemini-2.5-pro": "a",
    "anthropic/claude-sonnet-4-20250514": "b",
    "openai/gpt-5": "b",
}


def test_letters_of_five_real_inspect_models_are_read_from_the_page(new_page, app_server):
    assert len(LOGS) == 5
    page = new_page()
    open_compare(page, app_server.url)
    upload(page, [(path.name, path.read_bytes()) for path in LOGS])
    shown = letters_on_page(page, len(LOGS))
    assert shown == cli_json(*LOGS)["groups"]["letters"] == BY_HAND
    expect(page.locator(".st-key-compare_ranking canvas, .st-key-compare_ranking svg").first)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)


def test_letters_of_the_eval_set_folders_files_uploaded_together(new_page, app_server):
    """The eval-set folder's every file as Inspect wrote it (three .eval logs with logs.json,
    eval-set.json and .eval-set-id) chosen together: read as one folder through its manifest,
    the command line's groups on the folder (before, each upload was read alone and logs.json
    was refused as not a log). The uploader itself turns .eval-set-id away (Streamlit's drop
    zone takes only extensions of letters, digits and underscores, so no type admits it); the
    five files it takes are the folder's logs, manifest and configuration."""
    folder = REAL / "eval-set"
    files = [p for p in sorted(folder.iterdir()) if p.is_file() and p.name != "SOURCES.md"]
    assert {p.name for p in files} >= {".eval-set-id", "logs.json", "eval-set.json"}
    page = new_page()
    open_compare(page, app_server.url)
    upload(page, [(path.name, path.read_bytes()) for path in files])
    shown = letters_on_page(page, 3)
    assert shown == cli_json(folder)["groups"]["letters"] == BY_HAND_EVAL_SET
    expect(page.get_by_text("5 files read as one folder")).to_be_visible()
    # Each model's log was read from the folder: the note once per model, said of it.
    expect(page.get_by_text("an Inspect eval-set folder (logs.json read)")).to_have_count(3)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
    expect(page.locator("[data-testid=stAlertContentError]")).to_have_count(0)
