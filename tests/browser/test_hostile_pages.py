"""A shared link or an uploaded file cannot make a visitor's browser call another host, and what a
user typed or named is shown as typed (issue 23, items 6 and 8), in Chromium.

Every request each page makes is recorded from the first one (``context.on("request")``); only
the app's own host may be asked for anything (``data:`` and ``blob:`` URLs stay in the browser).
Hostile names come through the URL (the calculator) and through file names (three systems):
a Markdown image (a tracking beacon), a link, GFM autolinks (www., http://, e-mail), a colour
directive, LaTeX, an icon shortcode and a bidirectional override or zero-width character; each
test has the issue's strings and a held-out variant.

The downloads (items 5 and 7) are fetched as a visitor fetches them. Every wait is for a
condition on the page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import quote, urlsplit

import pytest
from browser_setup import (
    APP_RENDERED,
    DECISION_CHART,
    IDLE,
    Page,
    card_part,
    expect,
    skip_module_unless_runnable,
)

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)
# What a hostile name could have become: a link or an image to the outside host, LaTeX, a
# coloured span. (An icon shortcode would show as an icon, not its text: the label checks.)
INJECTED = """host => [
    ...Array.from(document.querySelectorAll('a[href], img[src]')).filter(e => {
      const url = new URL(e.getAttribute('href') || e.getAttribute('src'), document.baseURI);
      return url.hostname.endsWith(host) || url.protocol === 'mailto:';
    }),
    ...document.querySelectorAll(
      '[data-testid=stMain] .katex, [data-testid=stMain] span[style*=color]'),
  ].map(e => e.outerHTML.slice(0, 120))"""
HOST = "evil.example"


def plain_text(text: str) -> str:
    """What the page shows for `text`: each hidden character the tests use (zero-width space,
    right-to-left override, left-to-right isolate and its end) as its escape."""
    for hidden in ("\u200b", "\u202e", "\u2066", "\u2069"):
        text = text.replace(hidden, hidden.encode("unicode_escape").decode())
    return text


def _watch(new_page) -> tuple[Page, list[str]]:  # noqa: ANN001
    page = new_page()
    requests: list[str] = []
    page.context.on("request", lambda request: requests.append(request.url))
    return page, requests


def _outside(requests: list[str], app_url: str) -> list[str]:
    own = urlsplit(app_url).netloc
    return [
        url
        for url in requests
        if urlsplit(url).scheme not in ("data", "blob", "about") and urlsplit(url).netloc != own
    ]


@pytest.mark.parametrize("path", ["", "cases", "plan"])
def test_a_page_asks_no_other_host_for_anything(new_page, app_server, path) -> None:
    """Item 8: the page icon (and anything else) comes from the app itself."""
    page, requests = _watch(new_page)
    page.goto(app_server.url + path)
    if path == "":
        page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    else:
        page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    icon = page.locator("link[rel='shortcut icon']").get_attribute("href") or ""
    assert not urlsplit(icon).netloc or urlsplit(icon).netloc == urlsplit(app_server.url).netloc
    assert not _outside(requests, app_server.url)


# (name of A, name of B): the strings, then held-out ones. Each at most 60 characters
# once its hidden characters are written out.
URL_NAMES = [
    ("[click](https://evil.example/a) :red[alarm] $x^2$", "![x](https://evil.example/p.png)"),
    ("www.evil.example/track :material/balance:", "ops@evil.example base\u200bline \u202egnp.exe"),
]


@pytest.mark.parametrize(("name_a", "name_b"), URL_NAMES)
def test_names_from_a_link_are_shown_as_typed(new_page, app_server, name_a, name_b) -> None:
    """Item 6: the names reach the cards, the Decision's probability label and the odds-ratio
    line as text: no image or link to the link author's host, no LaTeX, no colour."""
    page, requests = _watch(new_page)
    query = f"?name_a={quote(name_a)}&name_b={quote(name_b)}"
    page.goto(app_server.url + query)
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    shown_a, shown_b = plain_text(name_a), plain_text(name_b)
    labels = page.locator("[data-testid=stMetricLabel]")
    expect(labels.filter(has_text="better | data")).to_have_text(f"P({shown_b} better | data)")
    expect(page.locator(card_part("difference", "label"))).to_have_text(
        f"Pass-rate difference, {shown_a} − {shown_b}"
    )
    expect(page.locator(card_part("unpaired", "caption"))).to_contain_text(
        f"Treats {shown_a} and {shown_b} as independent samples"
    )
    # The chart (SVG text, its description) and the answer's radio captions carry them too.
    chart = page.locator(DECISION_CHART + " svg").first
    expect(chart).to_contain_text(f"Pass-rate difference {shown_a} − {shown_b}")
    captions = page.locator(".st-key-question [data-testid=stCaptionContainer]")
    expect(captions.filter(has_text=f"Is {shown_b} better than {shown_a}?")).to_have_count(1)
    assert page.evaluate(INJECTED, HOST) == []
    assert not _outside(requests, app_server.url)


def _file(passes: list[int]) -> bytes:
    return b"id,correct\n" + b"".join(f"q{i},{v}\n".encode() for i, v in enumerate(passes))


# Three files per case; the systems are named after the files (without the extension).
FILE_NAMES = [
    ("![t](https:evil.example).csv", "[x](https:evil.example).csv", "$y$ :blue[b].csv"),
    ("www.evil.example.csv", "me@evil.example.csv", "base\u200bline\u202e.csv"),
]


@pytest.mark.parametrize("names", FILE_NAMES)
def test_system_names_from_files_are_shown_as_typed(new_page, app_server, names) -> None:
    """Item 6: file names name the systems on the pair buttons and the tabs, as text."""
    page, requests = _watch(new_page)
    page.goto(app_server.url + "cases")
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.get_by_text("Three or more systems", exact=True).click()
    uploader = page.locator(".st-key-compare_upload input[type=file]")
    expect(uploader).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
    contents = [_file([1] * 18 + [0] * 2), _file([0] * 15 + [1] * 5), _file([1] * 12 + [0] * 8)]
    uploader.set_input_files(
        [
            {"name": name, "mimeType": "text/csv", "buffer": data}
            for name, data in zip(names, contents, strict=True)
        ]
    )
    first = page.locator(".st-key-compare_open_0 button")
    expect(first).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    stems = [plain_text(name.removesuffix(".csv")) for name in names]
    expect(first).to_have_text(f"{stems[0]} vs {stems[1]}")
    expect(page.locator(".st-key-compare_open_2 button")).to_have_text(f"{stems[1]} vs {stems[2]}")
    tabs = page.locator("[data-testid=stTab]")
    expect(tabs.first).to_contain_text(f"Only {stems[0]} passes")
    assert page.evaluate(INJECTED, HOST) == []
    assert not _outside(requests, app_server.url)


def test_system_labels_from_a_long_file_are_shown_as_typed(new_page, app_server) -> None:
    """Item 6, held out: the systems are named by a long file's labels, not file names."""
    labels = ["base\u200bline", "[x](https://evil.example/l)", "\u2066admin\u2069"]
    passes = {labels[0]: 18, labels[1]: 5, labels[2]: 12}
    rows = [f"q{i},{name},{int(i < count)}" for name, count in passes.items() for i in range(20)]
    data = ("question,system,correct\n" + "\n".join(rows) + "\n").encode()
    page, requests = _watch(new_page)
    page.goto(app_server.url + "cases")
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.get_by_text("Three or more systems", exact=True).click()
    uploader = page.locator(".st-key-compare_upload input[type=file]")
    expect(uploader).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
    uploader.set_input_files({"name": "long.csv", "mimeType": "text/csv", "buffer": data})
    first = page.locator(".st-key-compare_open_0 button")
    expect(first).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    shown = [plain_text(label) for label in labels]
    pair_texts = page.locator("[class*=st-key-compare_open_] button").all_inner_texts()
    assert f"{shown[0]} vs {shown[1]}" in pair_texts, pair_texts
    charts = page.locator("[data-testid=stVegaLiteChart]")  # the heatmap and the ranking
    # Their labels, as text (a long label is cut with an ellipsis by the chart).
    expect(charts.filter(has_text=shown[0])).to_have_count(2)
    assert page.evaluate(INJECTED, HOST) == []
    assert not _outside(requests, app_server.url)


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ('=HYPERLINK("https://evil.example/x","y")', "question=non-inferior&margin=2"),
        ("@SUM(1+1)*cmd|' /C calc'!A0", "question=equivalent&margin=3.5"),  # held out
    ],
)
def test_the_downloads_escape_formulas_and_carry_the_question(
    new_page, app_server, name, query
) -> None:
    """Items 5 and 7, as a visitor downloads them: the CSV runs no formula from a name, and the
    CSV and the JSON answer the question the link asks."""
    page, requests = _watch(new_page)
    page.goto(f"{app_server.url}?name_a={quote(name)}&{query}")
    page.wait_for_function(APP_RENDERED, timeout=FIRST_RENDER_TIMEOUT_MS)
    question = query.split("&")[0].removeprefix("question=")
    files = {}
    for kind in ("csv", "json"):
        with page.expect_download() as download:
            page.locator(f".st-key-download_{kind} button").click()
        files[kind] = download.value.path().read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(files["csv"])))
    assert not [cell for row in rows for cell in row if cell.startswith(name[0])]
    fields = dict(rows)
    assert fields["report"].startswith("'" + name)
    assert fields["decision.question"] == question
    assert f"Question: {question}, margin " in fields["report"]
    results = json.loads(files["json"])
    assert results["decision"]["question"] == question
    assert results["report"].startswith(name) and f"Question: {question}" in results["report"]
    assert not _outside(requests, app_server.url)
