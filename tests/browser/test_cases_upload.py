"""The "Per-case data" page in a real browser: upload A's file, then B's (issue 16, item 3).

Expected counts are worked out by hand from the two logs written below. The exact two-sided
McNemar p for b = 2, c = 1 is scipy's `stats.binomtest(1, 3).pvalue` (= 1).

Every wait is for a condition on the page (Playwright's `expect` retries until it holds);
nothing sleeps a fixed time.
"""

from __future__ import annotations

import json

import pytest
from browser_setup import IDLE, Page, expect, skip_module_unless_runnable

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

#: Generous: a first render imports scipy, pandas and altair on a shared 2-core machine.
FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)


def jsonl(records: list[dict]) -> bytes:
    return "".join(json.dumps(record) + "\n" for record in records).encode()


# A's acc passes ids 0-19, B's acc ids 2-20, of ids 0-39: a = 18, b = 2 (0, 1), c = 1 (20),
# d = 19. B's acc_norm fails everywhere: A's acc against it would give b = 20, c = 0.
LOG_A = jsonl([{"doc_id": i, "acc": int(i < 20), "acc_norm": int(i < 25)} for i in range(40)])
LOG_B = jsonl([{"doc_id": i, "acc": int(2 <= i <= 20), "acc_norm": 0} for i in range(40)])


def upload(page: Page, slot: str, name: str, data: bytes) -> None:
    field = page.locator(f".st-key-cases_upload_{slot} input[type=file]")
    field.set_input_files({"name": name, "mimeType": "application/json", "buffer": data})


def choice(page: Page, base: str):
    """A column widget; its key ends in a signature of the files in use."""
    return page.locator(f'[class*="st-key-{base}"]')


def shown_text(page: Page):
    return page.locator("[data-testid=stMain] [data-testid=stText]")


def test_upload_a_then_b_pairs_the_same_column(new_page, app_server) -> None:
    page = new_page()
    page.goto(app_server.url + "cases")
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    upload(page, "a", "a.jsonl", LOG_A)
    # One file: its two outcome columns are compared with each other.
    expect(
        shown_text(page).filter(has_text="acc_norm: column 'acc_norm' of a.jsonl")
    ).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
    upload(page, "b", "b.jsonl", LOG_B)
    used = shown_text(page).filter(has_text="Paired on the id column 'doc_id'.")
    expect(used).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
    expect(used).to_contain_text("A: column 'acc' of a.jsonl")
    expect(used).to_contain_text("B: column 'acc' of b.jsonl")
    expect(choice(page, "cases_a").get_by_role("combobox")).to_have_value("acc")
    expect(choice(page, "cases_b").get_by_role("combobox")).to_have_value("acc")
    report = shown_text(page).filter(has_text="cases where they disagree")
    expect(report).to_contain_text("Of the 3 cases where they disagree, 2 passed only by A")
    expect(report).to_contain_text("1 only by B")
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
