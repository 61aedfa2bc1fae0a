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


def test_letters_of_five_real_inspect_models_are_read_from_the_page(new_page, app_server):
    assert len(LOGS) == 5
    page = new_page()
    open_compare(page, app_server.url)
    upload(page, [(path.name, path.read_bytes()) for path in LOGS])
    shown = letters_on_page(page, len(LOGS))
    assert shown == cli_json(*LOGS)["groups"]["letters"] == BY_HAND
    expect(page.locator(".st-key-compare_ranking canvas, .st-key-compare_ranking svg").first)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
