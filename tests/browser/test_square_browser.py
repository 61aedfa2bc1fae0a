"""The calculator page's k x k section in a real browser: it opens from the URL, a count typed
in the grid changes the results and the URL, and the section passes the axe-core audit.

Expected figures, from calculator.square (checked against R's contingencytables in
tests/core/test_square.py): the default table 35 5 0; 15 20 5; 10 5 5 gives Bowker's
chi-square 15.000 on 3 df; with 20 in row 1, column 2 it gives 10.714 (the report's words,
:func:`calculator.report.square.square_report`).

Every wait is for a condition on the page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import pytest
from browser_setup import Page, expect, skip_module_unless_runnable

skip_module_unless_runnable()
from test_accessibility import FIRST_RENDER_TIMEOUT_MS, audit, wait_idle  # noqa: E402

pytestmark = pytest.mark.browser

if expect is not None:
    expect.set_options(timeout=30_000)

MAIN = "[data-testid=stMain]"


def bowker(page: Page) -> str:
    return page.locator(f"{MAIN} p", has_text="Symmetry (Bowker's test").first.inner_text()


def test_the_section_opens_takes_a_count_and_passes_the_audit(new_page, app_server) -> None:
    page = new_page()
    page.goto(app_server.url + "?sq=true")
    wait_idle(page)
    cell = page.locator(".st-key-sq_0_1 input")
    expect(cell).to_have_value("5", timeout=FIRST_RENDER_TIMEOUT_MS)
    expect(cell).to_have_attribute("aria-label", "Cases A puts in 1 and B in 2")
    assert "chi-square 15.000 on 3 df" in bowker(page)

    cell.fill("20")
    cell.press("Enter")
    expect(page.locator(f"{MAIN} p", has_text="chi-square 10.714 on 3 df")).to_be_visible()
    wait_idle(page)
    expect(page.locator(".st-key-sq_counts input")).to_have_value("35 20 0; 15 20 5; 10 5 5")
    assert "sq_counts=35+20+0%3B+15+20+5%3B+10+5+5" in page.url
    # The share link, drawn above in the calculator's fragment, holds the new table too (it
    # kept the old one while a key here reran this section alone).
    share = page.locator(f"{MAIN} a[href*='sq_counts=35+20+0']")
    expect(share).to_have_count(1)

    assert audit(page) == []
