"""Accessibility of every page in a real browser (Debian's Chromium through Playwright).

- An axe-core audit (the copy bundled with ``axe-playwright-python``; nothing is downloaded)
  of each page as it opens and with its folded sections opened: no violation at all. One
  exclusion, by selector: Streamlit's own file uploader wraps its drop zone in an element with
  ``role="presentation"`` that is focusable (``presentation-role-conflict``, impact minor). That
  markup is Streamlit's, not this project's, and no setting of ``st.file_uploader`` changes it.
- Keyboard alone: Tab reaches every input of the calculator in reading order, the arrow keys
  move a slider, and the accessibility tree gives each result with its label.
- A phone (390 x 844): the first screen, without scrolling, shows the headline result (the
  difference with its interval and the exact p) and at least one input.

Expected figures: the default table is the original calculator page's (60, 15, 5, 20), whose
printed figures are: difference +10.0 points,
95% Agresti-Min interval +1.2 to +18.4 points, exact McNemar p = 0.041
(``scipy.stats.binomtest(5, 20).pvalue`` = 0.0414).

Every wait is for a condition on the page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import re

import pytest
from browser_setup import (
    APP_RENDERED,
    CHARTS,
    Page,
    card_box,
    card_part,
    expect,
    skip_module_unless_runnable,
)

skip_module_unless_runnable()
try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # only under CI=true: the fixtures fail each test with the reason
    Axe = None

pytestmark = pytest.mark.browser

FIRST_RENDER_TIMEOUT_MS = 150_000  # a cold first render on a shared, loaded 2-core machine
if expect is not None:
    expect.set_options(timeout=30_000)  # a rerun can take seconds on a busy 2-core machine

#: Streamlit's file uploader (see the module docstring); nothing else is excluded.
STREAMLIT_UPLOADER = '[data-testid="stFileUploader"] [role="presentation"]'
#: Any page: the script is idle and the title is drawn.
PAGE_IDLE = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('h1') !== null;
}"""
#: Every Vega-Lite chart on the page (Streamlit's, and the live panel's bundle's) has drawn its
#: SVG.
CHARTS_DRAWN = """() => Array.from(
    document.querySelectorAll('[data-testid=stVegaLiteChart], .lp-chart, .lp-page-chart'))
  .every(chart => chart.querySelector('svg .mark-group') !== null)"""
#: What Tab can stop on in the main area, in document order: text, number and range inputs,
#: check boxes and switches, combo boxes and the selected button of each radio group.
#: A radio group is one stop (its checked option; the arrow keys move within it).
INPUTS_IN_ORDER = """() => Array.from(document.querySelectorAll(
    '[data-testid=stMain] input, [data-testid=stMain] [role=radio]'))
  .filter(el => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0)
  .filter(el => !(el.type === 'radio' || el.getAttribute('role') === 'radio')
                || el.checked || el.getAttribute('aria-checked') === 'true')"""


def audit(page: Page) -> list[str]:
    """axe-core's violations on the page, one line each: rule, impact, first targets."""
    results = Axe().run(
        page,
        context={"exclude": [[STREAMLIT_UPLOADER]]},
        options={"resultTypes": ["violations"]},
    )
    return [
        f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']][:3]}"
        for v in results.response["violations"]
    ]


def wait_idle(page: Page) -> None:
    page.wait_for_function(PAGE_IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.wait_for_function(CHARTS_DRAWN, timeout=FIRST_RENDER_TIMEOUT_MS)


#: Every open expander has drawn its content (some send nothing until opened).
OPEN_SECTIONS_FILLED = """() => Array.from(document.querySelectorAll(
    '[data-testid=stExpander] details[open] [data-testid=stExpanderDetails]'))
  .every(details => details.innerText.trim().length > 0)"""


def open_every_section(page: Page) -> int:
    """Unfold every expander and wait for its content; return how many were opened."""
    summaries = page.locator("[data-testid=stExpander] details:not([open]) > summary")
    opened = 0
    while summaries.count() and opened < 50:
        summaries.first.click()
        opened += 1
        page.wait_for_function(OPEN_SECTIONS_FILLED, timeout=FIRST_RENDER_TIMEOUT_MS)
        wait_idle(page)
    return opened


def test_calculator_page_passes_the_audit_folded_and_unfolded(new_page, app_server) -> None:
    page = new_page()
    page.goto(app_server.url)
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    assert audit(page) == []
    assert open_every_section(page) >= 2  # worked examples, explanations, ...
    assert audit(page) == []


def test_calculator_teaching_sections_pass_the_audit(new_page, app_server) -> None:
    page = new_page()
    page.goto(app_server.url)
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    # The teaching sections open by their switches (keys t_...); each click reruns the page.
    switches = page.locator("[data-testid=stMain] [class*='st-key-t_']:has(input[role=switch])")
    for index in range(switches.count()):
        switches.nth(index).locator("label").first.click()
        expect(switches.nth(index).locator("input[role=switch]")).to_be_checked()
        wait_idle(page)
    open_every_section(page)
    assert audit(page) == []


@pytest.mark.parametrize("path", ["plan", "cases"])
def test_other_pages_pass_the_audit(new_page, app_server, path: str) -> None:
    page = new_page()
    page.goto(app_server.url + path)
    wait_idle(page)
    assert audit(page) == []
    open_every_section(page)
    assert audit(page) == []


def test_per_case_page_with_its_example_loaded_passes_the_audit(new_page, app_server) -> None:
    page = new_page()
    page.goto(app_server.url + "cases")
    wait_idle(page)
    page.locator(".st-key-cases_example button").click()
    expect(page.locator("[data-testid=stDataFrame]").first).to_be_visible()
    wait_idle(page)
    open_every_section(page)
    assert audit(page) == []


def test_the_audit_finds_what_it_must(new_page, app_server) -> None:
    """The audit is live: an empty header cell and an unnamed image added to the page are
    reported (so an empty list above means no violation, not a silent audit)."""
    page = new_page()
    page.goto(app_server.url + "plan")
    wait_idle(page)
    page.evaluate(
        """() => {
      const main = document.querySelector('[data-testid=stMain]');
      main.insertAdjacentHTML('beforeend',
        '<table><tr><th></th><th>x</th></tr><tr><th>y</th><td>1</td></tr></table>'
        + '<svg role="img" width="10" height="10"></svg>');
    }"""
    )
    found = " ".join(audit(page))
    assert "empty-table-header" in found and "svg-img-alt (serious)" in found


def test_tab_reaches_every_calculator_input_in_reading_order(new_page, app_server) -> None:
    page = new_page()
    page.goto(app_server.url)
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    # Number each input by its place in the document, then Tab from the top of the page.
    expected = page.evaluate(
        f"() => ({INPUTS_IN_ORDER})().map((el, i) => {{ el.dataset.order = i; return i; }})"
    )
    assert len(expected) >= 20  # names, framing, four sliders and fields, options, gates, ...
    reached: list[int] = []
    for _ in range(4 * len(expected) + 40):
        page.keyboard.press("Tab")
        order = page.evaluate("() => document.activeElement?.dataset?.order ?? null")
        if order is not None and (not reached or reached[-1] != int(order)):
            reached.append(int(order))
        if reached and reached[-1] == expected[-1]:
            break
    assert reached == expected


def test_arrow_keys_move_a_slider_and_results_are_read_with_their_labels(
    new_page, app_server
) -> None:
    page = new_page()
    page.goto(app_server.url)
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    b_count = page.locator(".st-key-live_panel [data-count=b]")  # drawn by the live panel
    b_slider = b_count.locator("input[type=range]")
    b_field = b_count.locator("input[type=number]")
    expect(b_slider).to_have_accessible_name("b: only A passes")
    expect(b_field).to_have_accessible_name("b: only A passes (exact)")
    b_slider.focus()
    page.keyboard.press("ArrowRight")
    expect(b_field).to_have_value("16")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(b_field).to_have_value("14")
    # b = 14, c = 5: exact McNemar p = scipy.stats.binomtest(5, 19).pvalue = 0.0636.
    expect(page.locator(card_part("exact"))).to_have_text("0.064")
    page.keyboard.press("ArrowRight")
    expect(page.locator(card_part("exact"))).to_have_text("0.041")
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)

    # The accessibility tree: each card reads its label, then its value.
    for key, label, value in (
        ("difference", "Pass-rate difference, A − B", "+10.0 pts"),
        ("exact", "Exact McNemar p", "0.041"),
        ("chi2", "McNemar χ²", "5.00"),
    ):
        tree = page.locator(card_box(key)).aria_snapshot()
        assert tree.index(label) < tree.index(value), tree
    table = page.locator('table[aria-label="Paired 2 by 2 table"]').aria_snapshot()
    assert 'table "Paired 2 by 2 table"' in table
    assert 'rowheader "A passes"' in table and 'columnheader "B fails"' in table
    assert 'cell "b = 15"' in table
    slider_tree = b_count.aria_snapshot()
    assert 'slider "b: only A passes' in slider_tree and '"15"' in slider_tree
    # Each chart is an image whose name says what it shows. (The snapshot is YAML: a line
    # whose name holds ": ", as the axis title "a: tasks both pass" does, comes quoted.)
    chart = page.locator(CHARTS[0]).aria_snapshot()
    assert re.match(r"- '?img ", chart) and "p-value" in chart, chart


def test_phone_first_screen_shows_the_headline_and_an_input(new_page, app_server) -> None:
    width, height = 390, 844
    page = new_page({"width": width, "height": height})
    page.goto(app_server.url)
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    assert page.evaluate("() => window.scrollY") == 0
    headline = page.get_by_text("Pass-rate difference, A − B: +10.0 pts", exact=False).first
    expect(headline).to_contain_text("95% CI +1.2 to +18.4 pts")
    expect(headline).to_contain_text("exact McNemar p = 0.041")
    box = headline.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    # The first input is the a count's slider, drawn by the live panel under the headline (the
    # names and options come below the counts: a count key redraws the panel alone).
    first_input = page.get_by_label("a: both pass", exact=True)
    expect(first_input).to_be_visible()
    assert first_input.evaluate("e => e === document.querySelector('[data-testid=stMain] input')")
    input_box = first_input.bounding_box()
    assert input_box is not None and input_box["y"] + input_box["height"] <= height
