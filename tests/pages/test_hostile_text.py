"""Text from a user is shown as text (issue 23, item 6): the one escaping function,
``ui.words.escape_markdown``, and the hidden-character rule it applies first, ``plain_text``.

What Streamlit's Markdown would read in each string (images, links, GFM autolinks, colour
directives, LaTeX, icon shortcodes) is the renderer's behaviour as checked in Chromium by
tests/browser/test_hostile_pages.py; here the invariants are checked on any text.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.text import printable
from ui.params import share_markdown
from ui.words import Wording, clean_name, escape_markdown

SPECIALS = set("\\`*_{}[]()#+-.!|<>~$:=/&@")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def outside_code(markdown: str) -> str:
    return CODE_SPAN.sub(" ", markdown)


def unescaped_specials(markdown: str) -> list[str]:
    """Markdown characters that no backslash escapes, outside code spans."""
    text, found, k = outside_code(markdown), [], 0
    while k < len(text):
        if text[k] == "\\":
            k += 2
            continue
        if text[k] in SPECIALS:
            found.append(text[k])
        k += 1
    return found


@given(st.text())
def test_plain_text_leaves_nothing_hidden(text: str) -> None:
    shown = printable(text)
    assert shown.isprintable()
    if text.isprintable():
        assert shown == text


@given(st.text())
def test_escaped_text_has_no_markdown_and_no_autolink(text: str) -> None:
    markdown = escape_markdown(text)
    assert not unescaped_specials(markdown)
    bare = re.sub(r"\\(.)", r"\1", outside_code(markdown))
    assert not re.search(r"(?i)https?://|www\.|@", bare)
    assert all(c.isprintable() or c in " \t\n\r" for c in markdown)


@given(st.text(st.characters(blacklist_characters=" \t\n\r@"), min_size=1))
def test_a_word_reads_back_as_its_plain_text(word: str) -> None:
    markdown = escape_markdown(word)
    code = CODE_SPAN.fullmatch(markdown)
    read = code[2].strip() if code else re.sub(r"\\(.)", r"\1", markdown)
    assert read == printable(word)


@pytest.mark.parametrize(
    ("text", "markdown"),
    [
        ("![x](https://host/p.png)", "`![x](https://host/p.png)`"),  # the beacon
        ("see www.host.example now", r"see `www.host.example` now"),
        ("ops@host.example", "`ops@host.example`"),
        (":red[alarm] $x^2$", r"\:red\[alarm\] \$x^2\$"),
        (":material/balance:", r"\:material\/balance\:"),  # held out: an icon shortcode
        ("a &amp; b", r"a \&amp; b"),  # held out: a character reference
        ("safe\u202egnp.exe", r"safe\\u202egnp\.exe"),
        ("base\u200bline", r"base\\u200bline"),  # zero width: "baseline" look-alike
        ("`http://x`", "`` `http://x` ``"),
    ],
)
def test_hostile_strings_and_held_out_ones_are_escaped(text: str, markdown: str) -> None:
    assert escape_markdown(text) == markdown


def test_names_are_plain_where_they_enter() -> None:
    """A URL or typed name reaches charts, the HTML table and downloads as well: made plain."""
    assert clean_name("base\u200bline", "A") == "base\\u200bline"
    assert clean_name("\u2066admin\u2069", "B") == "\\u2066admin\\u2069"
    wording = Wording(clean_name("x\u202eA", "A"), "B")
    assert "\u202e" not in wording.difference_title()


def test_the_share_link_is_one_link_to_the_page() -> None:
    link = share_markdown("http://host:8501/", "name_b=ops%40host")
    assert (
        link == r"[http\:\/\/host\:8501\/?name\_b\=ops%40host](http://host:8501/?name_b=ops%40host)"
    )
