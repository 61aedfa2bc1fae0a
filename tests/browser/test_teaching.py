"""The calculator page's teaching sections in a real browser (Debian's Chromium, Playwright).

Each section is opened (by its URL key or its toggle), its chart is drawn, and moving a slider
redraws it. Figures: the original page's table 60, 15, 5, 20 (b = 15 of m = 20); the pairing sweep's
last table 65, 10, 0, 25 (hand arithmetic: A passes 75, B 65, so at most 65 cases pass both).

Every wait is for a condition on the page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import pytest
from browser_setup import CHARTS, Page, expect, skip_module_unless_runnable

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

FIRST_RENDER_TIMEOUT_MS = 150_000  # the first render of a session, on a shared 2-core machine
if expect is not None:
    expect.set_options(timeout=30_000)


# The page has rendered: the script is idle and the calculator's own charts have drawn their
# lines (the teaching sections add metrics and charts, so counts of either would not do).
RENDERED = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('table[aria-label="Paired 2 by 2 table"]') !== null
    && CHARTS.every(selector => document.querySelector(selector + ' svg .mark-line path') !== null);
}""".replace("CHARTS", repr(list(CHARTS)))


def open_page(page: Page, url: str) -> Page:
    page.goto(url)
    page.wait_for_function(RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    return page


#: A chart in the element with this key: Streamlit's (the teaching sections') or one drawn by
#: the live panel's bundle (the Decision section's).
ANY_CHART = ":is([data-testid=stVegaLiteChart], .lp-page-chart)"


def chart(page: Page, key: str):
    return page.locator(f".st-key-{key} {ANY_CHART}")


def drawing(page: Page, key: str) -> str:
    svg = chart(page, key).locator("svg").first
    expect(svg).to_be_visible()
    return svg.inner_html()


def wait_for_redraw(page: Page, key: str, before: str) -> None:
    page.wait_for_function(
        "([key, before]) => { const svg = document.querySelector("
        f"`.st-key-${{key}} {ANY_CHART} svg`);"
        " return svg !== null && svg.innerHTML !== before; }",
        arg=[key, before],
    )


#: A count's slider, drawn by the live panel itself (its "b" or "c").
COUNT_SLIDER = ".st-key-live_panel [data-count={key}] input[type=range]"


def press_on_slider(page: Page, key: str, presses: int, direction: str = "ArrowRight") -> None:
    """`presses` keys on the slider `key`: a count's ("b") or a Streamlit slider's key."""
    if key in ("a", "b", "c", "d"):
        handle = page.locator(COUNT_SLIDER.format(key=key))
    else:
        handle = page.locator(f".st-key-{key}[data-stale=false] input[type=range]").first
    handle.focus()
    for _ in range(presses):
        page.keyboard.press(direction)


def test_null_section_opens_by_toggle_and_follows_the_b_slider(new_page, app_server) -> None:
    page = open_page(new_page(), app_server.url)
    expect(chart(page, "teaching_null_chart")).to_have_count(0)  # folded: no chart sent
    page.locator(".st-key-t_null label").first.click()
    expect(chart(page, "teaching_null_chart")).to_have_count(1)
    expect(page.locator(".st-key-teaching_null_chart")).to_contain_text("Binomial(20, 1/2)")
    page.wait_for_function("() => location.search.includes('t_null=true')")
    before = drawing(page, "teaching_null_chart")
    press_on_slider(page, "b", 1)  # b: 15 -> 16, m = 21
    expect(page.locator(".st-key-teaching_null_chart")).to_contain_text("Binomial(21, 1/2)")
    wait_for_redraw(page, "teaching_null_chart", before)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)


def test_coverage_chart_follows_the_c_slider(new_page, app_server) -> None:
    page = open_page(new_page(), f"{app_server.url}?t_oc=true")
    before = drawing(page, "teaching_coverage_chart")
    press_on_slider(page, "c", 3)  # c: 5 -> 8
    wait_for_redraw(page, "teaching_coverage_chart", before)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)


def test_pairing_chart_follows_the_agreement_slider(new_page, app_server) -> None:
    page = open_page(new_page(), f"{app_server.url}?t_pair=true")
    before = drawing(page, "teaching_pairing_chart")
    main = page.locator("[data-testid=stMain]")
    expect(main).to_contain_text("Both pass 60; only A passes 15; only B passes 5; both fail 20")
    press_on_slider(page, "agree", 5)  # both pass: 60 -> 65, the largest possible
    expect(main).to_contain_text("Both pass 65; only A passes 10; only B passes 0; both fail 25")
    wait_for_redraw(page, "teaching_pairing_chart", before)
    page.wait_for_function("() => location.search.includes('agree=65')")


def test_presenting_view_keeps_the_sections_live(new_page, app_server) -> None:
    page = open_page(new_page(), f"{app_server.url}?present=true&t_null=true")
    expanders = page.locator("[data-testid=stExpander]")
    expect(expanders.filter(has_text="Worked examples")).to_have_count(0)
    expect(expanders.filter(has_text="Test options")).to_be_hidden()  # the options panel
    for options in ("names_framing", "gate_options"):  # names, framing and the gates' inputs
        expect(page.locator(f".st-key-{options}")).to_be_hidden()
    expect(page.locator("[data-testid=stSidebar]")).to_be_hidden()
    expect(page.locator(COUNT_SLIDER.format(key="c"))).to_be_visible()  # counts stay adjustable
    before = drawing(page, "teaching_null_chart")
    press_on_slider(page, "c", 1)
    wait_for_redraw(page, "teaching_null_chart", before)


# The rendered height of the first axis label of a chart (after the page's zoom, so what a
# viewer sees), in CSS pixels.
AXIS_LABEL_HEIGHT = f"""key => document.querySelector(
  `.st-key-${{key}} {ANY_CHART} svg .role-axis-label text`
).getBoundingClientRect().height"""


def test_presenting_view_draws_the_decision_chart_with_larger_axis_labels(
    new_page, app_server
) -> None:
    heights = {}
    for query in ("", "?present=true"):
        page = open_page(new_page(), f"{app_server.url}{query}")
        label = chart(page, "decision_chart").locator("svg .role-axis-label text").first
        expect(label).to_be_attached()
        heights[query] = page.evaluate(AXIS_LABEL_HEIGHT, "decision_chart")
    # 20 px against the theme's 12 px; a rendered label is a little taller than its font size.
    assert heights["?present=true"] > 1.4 * heights[""] > 0
