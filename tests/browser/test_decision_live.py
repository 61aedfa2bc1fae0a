"""The Decision chart's x domain in a real browser (Debian's Chromium, Playwright).

The page sends the chart's spec once per kind of question and only its two small tables on
each key press (``ui.widgets.cache.decision_spec``); the domain is a Vega expression of those
tables. Here the drawn chart must show the domain Altair writes for the same decision
(``ui.decision_chart.decision_chart``): symmetric about zero, so the zero rule is at the middle
of the plot, and each margin rule at margin / (domain's end) of the half-width from it; and
after a key press the chart follows the new table without being drawn anew.

Every wait is for a condition on the page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import re

import pytest
from browser_setup import APP_RENDERED, DECISION_CHART, expect, skip_module_unless_runnable

from calculator import analyze, decide
from ui.decision_chart import decision_chart
from ui.words import Wording

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

FIRST_RENDER_TIMEOUT_MS = 90_000
CHART = DECISION_CHART
# The data rules (zero and the margins), not the axis grid, with their x positions in pixels.
RULES = f"""() => Array.from(
  document.querySelectorAll('{CHART} svg g.mark-rule.role-mark line'),
  line => [line.__data__ && line.__data__.datum ? line.__data__.datum.at : null,
           Number(/translate\\(([-0-9.e]+)/.exec(line.getAttribute('transform'))[1])])"""


def altair_domain_end(b: int, margin_points: float) -> float:
    """The right end of the x domain Altair writes for table (60, b, 5, 20), equivalence."""
    analysis = analyze(60, b, 5, 20)
    decision = decide(
        analysis.table,
        analysis.difference,
        question="equivalent",
        margin=margin_points / 100,
        alpha=analysis.gates.alpha,
    )
    spec = decision_chart(decision, Wording("A", "B", "pass")).to_dict(validate=False)
    domain = spec["layer"][0]["encoding"]["x"]["scale"]["domain"]
    assert domain[0] == pytest.approx(-domain[1])
    return domain[1]


def drawn_rules(page) -> dict[float, float]:
    rules = page.evaluate(RULES)
    assert all(at is not None for at, _ in rules), rules
    return dict(rules)


def check_domain(page, b: int) -> None:
    rules = drawn_rules(page)
    assert set(rules) == {0.0, -5.0, 5.0}
    middle = rules[0.0]
    end = altair_domain_end(b, 5.0)
    # x = middle * (1 + value / end) on a domain [-end, end] drawn from 0 to 2 * middle.
    assert (rules[5.0] - middle) / middle == pytest.approx(5.0 / end, rel=0.01)
    assert (middle - rules[-5.0]) / middle == pytest.approx(5.0 / end, rel=0.01)


def test_decision_chart_domain_follows_the_table(new_page, app_server) -> None:
    page = new_page()
    page.goto(f"{app_server.url}?a=60&b=15&c=5&d=20&question=equivalent&margin=5")
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.wait_for_function(f"() => ({RULES})().length === 3", timeout=30_000)
    check_domain(page, 15)
    chart = page.locator(CHART).locator("svg").first
    chart.evaluate("svg => { svg.dataset.first = 'yes'; }")  # gone if the chart is drawn anew
    before = drawn_rules(page)
    page.locator(".st-key-live_panel [data-count=b] input[type=range]").focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.search.includes('b=20')", timeout=30_000)
    page.wait_for_function(
        f"() => ({RULES})().some(([at, x]) => at === 5 && Math.abs(x - {before[5.0]}) > 1)",
        timeout=30_000,
    )
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stApp]')"
        ".getAttribute('data-test-script-state') === 'notRunning'"
    )
    check_domain(page, 20)
    assert chart.evaluate("svg => svg.dataset.first") == "yes"
    assert re.search(r"stException", page.content()) is None


def test_the_folded_explanation_is_sent_when_opened(new_page, app_server) -> None:
    page = new_page()
    page.goto(app_server.url)
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    why = page.locator("[data-testid=stExpander]").filter(has_text="not “no worse”")
    expect(why).to_have_count(1)
    expect(why.get_by_text("cannot tell the systems apart", exact=False)).to_have_count(0)
    why.locator("summary").click()
    expect(why.get_by_text("cannot tell the systems apart", exact=False)).to_be_visible(
        timeout=30_000
    )
