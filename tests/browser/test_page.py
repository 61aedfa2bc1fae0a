"""The calculator page in a real browser (Debian's Chromium through Playwright).

Expected figures: the defaults are the original calculator page's (60, 15, 5, 20; 6 gates at
alpha 0.05), with the figures that page prints; the McNemar article's example
(70, 4, 12, 14, continuity-corrected) likewise, as the article prints them. Figures for other
tables come from scipy, as written next to each: `scipy.stats.binomtest(min(b, c), b + c)`
for the exact two-sided McNemar p, and the closed forms (b - c) / n and (b - c)^2 / (b + c).

Every wait is for a condition on the page (Playwright's `expect` retries until it holds);
nothing sleeps a fixed time.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from browser_setup import (
    APP_RENDERED,
    CHARTS,
    Page,
    card_part,
    expect,
    skip_module_unless_runnable,
)
from scipy import stats

from calculator.report.formatting import format_pvalue
from ui.words import EXAMPLES_TITLE

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

#: Screenshots go to the git-ignored artifacts/ folder.
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "e2e"
#: Generous: a first render imports scipy, pandas and altair on a shared 2-core machine.
FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)  # a rerun can take seconds on a busy 2-core machine

TABLE = 'table[aria-label="Paired 2 by 2 table"]'
EXCEPTION_BOX = '[data-testid="stException"]'


def open_page(page: Page, url: str) -> Page:
    page.goto(url)
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    return page


def current_url(page: Page) -> str:
    """The address bar as the page has it: Streamlit updates it with history.replaceState,
    which Playwright's ``page.url`` can show one step late."""
    return page.evaluate("location.href")


def card(page: Page, key: str):
    """The value of a result card: difference, chi2, exact, unpaired, false_alarm, ..."""
    return page.locator(card_part(key))


def card_label(page: Page, key: str):
    return page.locator(card_part(key, "label"))


#: A count's inputs, drawn by the live panel itself (ui/components/live_panel/.../counts.js).
COUNT = ".st-key-live_panel [data-count={key}]"


def number_field(page: Page, key: str):
    if key in "abcd":
        return page.locator(COUNT.format(key=key) + " input[type=number]")
    return page.locator(f".st-key-{key} input[type=number]")


def slider(page: Page, key: str):
    if key in "abcd":
        return page.locator(COUNT.format(key=key) + " input[type=range]")
    # When its range changes the slider is drawn anew; the old one lingers, stale, for a rerun.
    return page.locator(f".st-key-{key}_slider[data-stale=false] input[type=range]")


def slider_label(page: Page, key: str):
    if key in "abcd":
        return page.locator(COUNT.format(key=key) + " label")
    return page.locator(f".st-key-{key}_slider [data-testid=stWidgetLabel]")


def chart(page: Page, index: int):
    """Chart 1 (p against a, in the live panel) or chart 2 (false alarms against gates)."""
    return page.locator(CHARTS[index]).first


def chart_drawing(page: Page, index: int) -> str:
    return chart(page, index).locator("svg").first.inner_html()


def all_cards(page: Page) -> list[str]:
    """Every card on the page: the live panel's four, then each Streamlit metric."""
    panel = page.locator(".lp-card").all_inner_texts()
    return panel + page.locator("[data-testid=stMetric]").all_inner_texts()


def exact_p_text(b: int, c: int) -> str:
    # scipy.stats.binomtest(min(b, c), b + c): two-sided exact binomial test at p = 1/2.
    return format_pvalue(stats.binomtest(min(b, c), b + c).pvalue)


def assert_no_exception_box(page: Page) -> None:
    expect(page.locator(EXCEPTION_BOX)).to_have_count(0)
    assert "Traceback" not in page.locator("[data-testid=stMain]").inner_text()


def test_default_page_shows_the_seed_example(new_page, app_server) -> None:
    page = open_page(new_page(), app_server.url)
    # As the original calculator page prints them for 60, 15, 5, 20 and 6 gates at alpha 0.05.
    expect(card(page, "difference")).to_have_text("+10.0 pts")
    expect(card(page, "chi2")).to_have_text("5.00")
    expect(card(page, "exact")).to_have_text("0.041")
    expect(card(page, "unpaired")).to_have_text("0.123")
    expect(card(page, "false_alarm")).to_have_text("26.5%")
    table = page.locator(TABLE)
    for cell in ("a = 60", "b = 15", "c = 5", "d = 20"):
        expect(table).to_contain_text(cell)
    # The rules for the current a and m and for alpha are drawn (their positions are checked
    # on the spec, in test_charts and test_chart_specs), and the alt text says what they mark.
    expect(chart(page, 0)).to_have_attribute("aria-label", re.compile("rule marks the current a"))
    expect(chart(page, 1)).to_have_attribute("aria-label", re.compile("rule marks the current m"))
    for index in (0, 1):
        expect(chart(page, index).locator(".mark-rule.role-mark line")).to_have_count(2)
    assert_no_exception_box(page)


def test_keyboard_on_a_slider_updates_the_numbers_and_the_charts(new_page, app_server) -> None:
    page = open_page(new_page(), app_server.url)
    before = chart_drawing(page, 0)

    slider(page, "b").focus()
    page.keyboard.press("ArrowRight")  # b: 15 -> 16

    expect(number_field(page, "b")).to_have_value("16")
    expect(page.locator(TABLE)).to_contain_text("b = 16")
    expect(card(page, "exact")).to_have_text(exact_p_text(16, 5))
    # (b - c)^2 / (b + c) = 121 / 21; (b - c) / n = 11 / 101.
    expect(card(page, "chi2")).to_have_text(f"{121 / 21:.2f}")
    expect(card(page, "difference")).to_have_text(f"+{100 * 11 / 101:.1f} pts")
    page.wait_for_function(
        "([selector, before]) => document.querySelector(selector + ' svg').innerHTML !== before",
        arg=[CHARTS[0], before],
    )

    before = chart_drawing(page, 1)
    slider(page, "gates").focus()
    page.keyboard.press("ArrowLeft")  # gates: 6 -> 5
    expect(number_field(page, "gates")).to_have_value("5")
    expect(card(page, "false_alarm")).to_have_text(f"{100 * (1 - 0.95**5):.1f}%")
    page.wait_for_function(
        "([selector, before]) => document.querySelector(selector + ' svg').innerHTML !== before",
        arg=[CHARTS[1], before],
    )
    assert_no_exception_box(page)


def test_typing_a_number_moves_its_slider(new_page, app_server) -> None:
    page = open_page(new_page(), app_server.url)
    field = number_field(page, "c")
    field.fill("40")
    field.press("Enter")
    expect(slider(page, "c")).to_have_value("40")
    expect(page.locator(TABLE)).to_contain_text("c = 40")
    expect(card(page, "exact")).to_have_text(exact_p_text(15, 40))

    # Past the slider's end (100) the slider widens instead of clipping the typed value.
    field.fill("250")
    field.press("Enter")
    expect(slider(page, "c")).to_have_attribute("max", "500")  # the next 1-2-5 step
    expect(slider(page, "c")).to_have_value("250")
    expect(page.locator(TABLE)).to_contain_text("c = 250")

    # What cannot be a count is refused by name beside its field, and the count stands.
    field.fill("1e3")
    field.press("Enter")
    expect(page.locator(COUNT.format(key="c") + " .lp-count-note")).to_have_text(
        '"1e3" was not taken: a count is written in digits only, a whole number from 0 to'
        " 1,000,000,000. The count stays 250."
    )
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_value("250")
    expect(page.locator(TABLE)).to_contain_text("c = 250")
    field.fill("251")
    field.press("Enter")
    expect(page.locator(TABLE)).to_contain_text("c = 251")
    expect(page.locator(COUNT.format(key="c") + " .lp-count-note")).to_have_text("")
    assert_no_exception_box(page)


def test_the_url_follows_the_inputs_and_reopens_the_same_state(new_page, app_server) -> None:
    page = open_page(new_page(), app_server.url)
    slider(page, "b").focus()
    page.keyboard.press("ArrowRight")  # b = 16
    expect(number_field(page, "b")).to_have_value("16")
    name = page.locator(".st-key-name_a input")
    name.fill("Model X")
    name.press("Enter")
    expect(card_label(page, "difference")).to_contain_text("Model X")
    page.locator(".st-key-cc label").click()  # continuity correction on
    expect(page.locator(".st-key-cc input")).to_be_checked()

    page.wait_for_function(
        "() => { const q = new URLSearchParams(location.search);"
        " return q.get('b') === '16' && q.get('name_a') === 'Model X' && q.get('cc') === 'true'; }"
    )
    query = parse_qs(urlsplit(current_url(page)).query)
    assert query["b"] == ["16"] and query["name_a"] == ["Model X"] and query["cc"] == ["true"]
    # Corrected: (|b - c| - 1)^2 / (b + c) = 100 / 21.
    expect(card(page, "chi2")).to_have_text(f"{100 / 21:.2f}")
    shown = all_cards(page)
    table = page.locator(TABLE).inner_text()

    again = open_page(new_page(), current_url(page))
    expect(number_field(again, "b")).to_have_value("16")
    expect(again.locator(".st-key-name_a input")).to_have_value("Model X")
    expect(again.locator(".st-key-cc input")).to_be_checked()
    assert again.locator(TABLE).inner_text() == table
    assert all_cards(again) == shown
    assert_no_exception_box(again)


def test_the_sections_below_follow_a_count_key(new_page, app_server) -> None:
    """After a count key the sections below the live panel (here the odds ratio and the share
    link) show the new table's figures, not the old ones (issue 37: whatever a key reruns, no
    section may keep stale figures). Odds ratio b / c: 15 / 5 = 3.00, then 16 / 5 = 3.20."""
    page = open_page(new_page(), app_server.url)
    odds = page.locator("[data-testid=stMain] p", has_text="Odds ratio A : B on the discordant")
    expect(odds).to_contain_text("3.00")
    slider(page, "b").focus()
    page.keyboard.press("ArrowRight")  # b = 16
    expect(page.locator(TABLE)).to_contain_text("b = 16")
    expect(odds).to_contain_text("3.20")
    share = page.locator("[data-testid=stMain] a[href*='b=16']")
    expect(share).to_have_count(1)
    page.keyboard.press("ArrowLeft")  # b = 15 again: the default, so the link omits it
    expect(odds).to_contain_text("3.00")
    expect(share).to_have_count(0)
    assert_no_exception_box(page)


HOSTILE_QUERY = (
    "?a=-5&b=abc&c=1e999&level=inf&gates=0&rho=nan&ci=%3Cscript%3Ealert(1)%3C/script%3E"
    "&name_a=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&zoom=%27%3B%20DROP%20TABLE"
)
REJECTED = ("a", "b", "c", "level", "gates", "rho", "ci", "zoom")


def test_a_hostile_url_shows_warnings_and_no_traceback(new_page, app_server) -> None:
    page = open_page(new_page(), app_server.url + HOSTILE_QUERY)
    warnings = page.locator('[data-testid="stAlertContentWarning"]')
    expect(warnings).to_have_count(len(REJECTED))
    text = " ".join(warnings.all_inner_texts())
    for key in REJECTED:
        assert f'"{key}"' in text, f"no warning names {key}: {text}"
    # Rejected values fall back to the defaults: the original page's numbers.
    expect(card(page, "exact")).to_have_text("0.041")
    expect(card(page, "false_alarm")).to_have_text("26.5%")
    # The name is allowed, but shown as text: no element is made from it.
    expect(card_label(page, "difference")).to_contain_text("<img src=x onerror=alert(1)>")
    expect(page.locator(TABLE)).to_contain_text("<img src=x onerror=alert(1)> passes")
    expect(page.locator("img[src=x]")).to_have_count(0)
    assert "zoom" not in urlsplit(current_url(page)).query
    assert_no_exception_box(page)


def test_a_worked_example_button_loads_its_values(new_page, app_server) -> None:
    page = open_page(new_page(), app_server.url)
    page.get_by_text(EXAMPLES_TITLE).click()
    page.locator(".st-key-example_mcnemar_seed button:visible").click()
    for key, value in zip("abcd", ("70", "4", "12", "14"), strict=True):
        expect(number_field(page, key)).to_have_value(value)
    expect(page.locator(".st-key-cc input")).to_be_checked()
    # The McNemar seed: exact p = 0.077; corrected chi-square 3.06; unpaired p = 0.172.
    expect(card(page, "exact")).to_have_text("0.077")
    expect(card(page, "chi2")).to_have_text("3.06")
    expect(card(page, "unpaired")).to_have_text("0.172")
    note = page.locator('[data-testid="stAlertContentInfo"]').filter(has_text="Worked example:")
    expect(note).to_contain_text("McNemar article: 70, 4, 12, 14")
    assert_no_exception_box(page)


def test_the_framing_switch_relabels_without_changing_numbers(new_page, app_server) -> None:
    page = open_page(new_page(), app_server.url)
    expect(slider_label(page, "a")).to_have_text("a: both pass")
    expect(card_label(page, "difference")).to_have_text("Pass-rate difference, A − B")

    page.locator(".st-key-framing button", has_text="correct").click()

    expect(slider_label(page, "a")).to_have_text("a: both correct")
    expect(slider_label(page, "d")).to_have_text("d: both wrong")
    expect(card_label(page, "difference")).to_have_text("Error-rate difference, A − B")
    expect(page.locator(TABLE)).to_contain_text("B correct")
    # The error-rate difference is minus the pass-rate difference; p-values do not move.
    expect(card(page, "difference")).to_have_text("-10.0 pts")
    expect(card(page, "exact")).to_have_text("0.041")
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('framing') === 'correct'"
    )
    assert_no_exception_box(page)


def test_the_downloads_are_valid_json_and_csv(new_page, app_server) -> None:
    page = open_page(new_page(), app_server.url)
    # scipy.stats.binomtest(5, 20): the exact McNemar p of the default table.
    exact_p = stats.binomtest(5, 20).pvalue

    with page.expect_download() as download:
        page.locator(".st-key-download_json button").click()
    text = download.value.path().read_text(encoding="utf-8")

    def no_constant(name: str) -> None:
        raise ValueError(f"not strict JSON: {name}")

    results = json.loads(text, parse_constant=no_constant)
    assert results["table"] == {"a": 60, "b": 15, "c": 5, "d": 20, "n": 100, "discordant": 20}
    assert math.isclose(results["mcnemar_exact"]["pvalue"], exact_p, rel_tol=1e-9)
    assert math.isclose(results["mcnemar_chi2"]["statistic"], 5.0, rel_tol=1e-12)

    with page.expect_download() as download:
        page.locator(".st-key-download_csv button").click()
    rows = list(csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8"))))
    assert rows[0] == ["field", "value"]
    fields = dict(rows[1:])
    assert len(fields) == len(rows) - 1, "a field appears twice"
    assert [fields[f"table.{key}"] for key in "abcd"] == ["60", "15", "5", "20"]
    assert math.isclose(float(fields["mcnemar_exact.pvalue"]), exact_p, rel_tol=1e-9)
    assert_no_exception_box(page)


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (390, 844)])
def test_screenshot_without_an_exception_box(new_page, app_server, width, height) -> None:
    page = open_page(new_page({"width": width, "height": height}), app_server.url)
    expect(card(page, "exact")).to_have_text("0.041")
    assert_no_exception_box(page)
    # Nothing sticks out sideways: a phone never needs to scroll the page horizontally.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    path = ARTIFACTS / f"calculator-{width}x{height}.png"
    page.screenshot(path=path)  # the viewport: Streamlit scrolls an inner pane, not the page
    assert path.stat().st_size > 10_000


def test_a_table_from_per_case_data_opens_in_the_calculator_with_its_url(
    new_page, app_server
) -> None:
    page = new_page()
    page.goto(app_server.url + "cases")  # open_page waits for the calculator's cards
    page.locator(".st-key-cases_example button").click(timeout=FIRST_RENDER_TIMEOUT_MS)
    open_button = page.locator(".st-key-cases_to_calculator button")
    expect(open_button).to_be_visible(timeout=60_000)
    open_button.click()
    # The bundled example logs (ui/cases_view.example_sample_logs) pair into 158, 7, 12, 59.
    page.wait_for_function(
        "() => { const q = new URLSearchParams(location.search); return q.get('a') === '158'"
        " && q.get('b') === '7' && q.get('c') === '12' && q.get('d') === '59'; }"
    )
    expect(number_field(page, "b")).to_have_value("7")
    expect(page.get_by_text("From data:")).to_be_visible()
    # The link in the address bar reopens the same table in a fresh page.
    again = open_page(new_page(), current_url(page))
    expect(number_field(again, "a")).to_have_value("158")
    expect(card(again, "exact")).to_have_text(exact_p_text(7, 12))
    assert_no_exception_box(page)
    assert_no_exception_box(again)
