"""The calculator page's "Decision" chart in a real browser (Debian's Chromium, Playwright).

The page opens with the question and the margin in the URL; the chart must be drawn (an SVG with
the interval bar and the rules), and choosing another question redraws it and updates the URL.
Table 60, 5, 15, 20 at a 5-point margin: B is shown non-inferior (tests/core/test_decision.py).

Every wait is for a condition on the page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import pytest
from browser_setup import APP_RENDERED, DECISION_CHART, expect, skip_module_unless_runnable

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)

CHART = DECISION_CHART


def test_decision_chart_draws_and_follows_the_question(new_page, app_server) -> None:
    page = new_page()
    page.goto(f"{app_server.url}?a=60&b=5&c=15&d=20&question=non-inferior&margin=5")
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    svg = page.locator(CHART).locator("svg").first
    expect(svg).to_be_visible()
    # The interval bar and the three marks' layers are drawn (Vega's SVG renderer names them).
    expect(page.locator(f"{CHART} svg g.mark-rect.role-mark path")).to_have_count(1)
    expect(page.locator(f"{CHART} svg g.mark-rule.role-mark line")).to_have_count(
        2
    )  # zero and -margin
    expect(page.get_by_text("B is not worse than A by more than 5 points")).to_be_visible()
    before = svg.inner_html()
    page.locator(".st-key-question label").filter(has_text="equivalent").first.click()
    page.wait_for_function("() => location.search.includes('question=equivalent')")
    expect(page.locator(f"{CHART} svg g.mark-rule.role-mark line")).to_have_count(
        3
    )  # zero and +/-margin
    assert svg.inner_html() != before
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
