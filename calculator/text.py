"""Text from users made safe to show, and counts in words: the one home of each.

Ids, names, file and column names, URL values and log fields come from users. Shown raw, an
ANSI escape could clear a terminal, and a carriage return, a newline or a bidirectional
override could make a line say what it does not ("abc\\u202etxt.exe" showing as "abcexe.txt").
:func:`printable` writes every character that would not show as itself as a visible escape,
the same way on the command line, the page and in the files they write; :func:`has_hidden`
says whether it would change anything; :func:`clip` cuts a long value for a message.
:func:`plural` words a count ("1 case", "2 cases"), the one helper a number module may word a
reason with; it formats, it computes nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

__all__ = [
    "FORMULA_START",
    "clip",
    "escape_markdown",
    "escape_spreadsheet_cell",
    "first_of",
    "format_count",
    "has_control",
    "has_hidden",
    "plural",
    "printable",
]

#: A cell starting with one of these is run as a formula by a spreadsheet (tab and carriage
#: return because some spreadsheets skip them before a formula).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def has_hidden(text: str) -> bool:
    """Whether `text` holds a character that would not show as itself (:func:`printable`).

    Examples
    --------
    >>> has_hidden("model v2"), has_hidden("a\\u202eb"), has_hidden("no\\u00a0break")
    (False, True, True)
    """
    return not text.isprintable()


def has_control(text: str) -> bool:
    """Whether `text` holds a control character (C0, DEL or C1: a line break, a tab, an escape),
    which no name holds; format characters (zero-width, direction marks) are not controls.

    Examples
    --------
    >>> has_control("a\\nb"), has_control("a\\x85b"), has_control("a\\u200bb")
    (True, True, False)
    """
    return any(unicodedata.category(character) == "Cc" for character in text)


def printable(text: object) -> str:
    """`text` with every character that would not show as itself written as a backslash escape.

    Control characters (C0, DEL, C1: ANSI escapes, carriage return, newline, tab), format
    characters (bidirectional overrides and isolates, zero-width characters), line and paragraph
    separators, lone surrogates and spaces other than the ASCII space become ``\\n``,
    ``\\x1b``, ``\\u202e`` and the like; everything else, non-ASCII letters included, is kept.
    A backslash already in `text` is kept as it is.

    Examples
    --------
    >>> printable("case 7"), printable("Größe, 問題")
    ('case 7', 'Größe, 問題')
    >>> print(printable("ok\\x1b[2J\\rFAIL\\u202eevil\\ncase"))
    ok\\x1b[2J\\rFAIL\\u202eevil\\ncase
    >>> print(printable("safe\\u202egnp.exe"), printable("base\\u200bline"), printable(7))
    safe\\u202egnp.exe base\\u200bline 7
    """
    text = str(text)
    if text.isprintable():  # the usual case, checked at C speed
        return text
    return "".join(_escape(character) for character in text)


def _escape(character: str) -> str:
    if character.isprintable():
        return character
    if character in _ESCAPES:
        return _ESCAPES[character]
    code = ord(character)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def clip(text: str, limit: int = 80) -> str:
    """`text` cut to `limit` characters, an ellipsis marking the cut.

    Examples
    --------
    >>> clip("abcdef", 4), clip("abc", 4)
    ('abc…', 'abc')
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def first_of(items: Sequence[str], limit: int, *, separator: str = ", ") -> str:
    """The first `limit` of `items` joined, then how many more there are.

    Examples
    --------
    >>> first_of(["a", "b", "c"], 3), first_of(["a", "b", "c", "d", "e"], 2)
    ('a, b, c', 'a, b and 3 more')
    """
    shown = separator.join(items[:limit])
    return shown + (f" and {len(items) - limit:,} more" if len(items) > limit else "")


def format_count(count: int) -> str:
    """A count with thousands separators: "1,000,003"."""
    return f"{count:,}"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """A count and its noun, agreeing in number: "1 case", "2 cases", "1,000 discordant pairs".

    Examples
    --------
    >>> plural(1, "case"), plural(0, "case"), plural(1_000, "discordant pair")
    ('1 case', '0 cases', '1,000 discordant pairs')
    >>> plural(2, "child", "children")
    '2 children'
    """
    noun = singular if count == 1 else (plural_form or f"{singular}s")
    return f"{format_count(count)} {noun}"


def escape_spreadsheet_cell(value: str) -> str:
    """Prefix a cell that a spreadsheet would run as a formula with a single quote.

    Cells starting with =, +, - or @ (and tab or carriage return, which some spreadsheets skip
    before a formula) are shown as text by Excel, LibreOffice and Google Sheets once prefixed.

    References
    ----------
    OWASP, "CSV Injection," https://owasp.org/www-community/attacks/CSV_Injection.

    Examples
    --------
    >>> escape_spreadsheet_cell('=HYPERLINK("http://x","y")')
    '\\'=HYPERLINK("http://x","y")'
    >>> escape_spreadsheet_cell("plain text"), escape_spreadsheet_cell("-1")
    ('plain text', "'-1")
    """
    if not isinstance(value, str):
        from calculator.errors import CalculatorTypeError

        raise CalculatorTypeError(f"`value` must be a string, but got {type(value).__name__}.")
    return "'" + value if value.startswith(FORMULA_START) else value


# Characters that Streamlit's Markdown would interpret (emphasis, code, links and images,
# HTML and character references, tables, headings and list markers, $ for LaTeX, : for emoji
# shortcodes and colour directives, / for ":material/" icons, braces); a backslash before each
# makes text from a user or a file print as typed.
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=/&@])")
# What GitHub-flavoured Markdown turns into a link even when every character is escaped (it
# finds them in the text after unescaping): http:// and https:// addresses, www. and e-mail.
_AUTOLINK = re.compile(r"(?i)https?://|www\.|@")
# Line breaks and tabs stay white space (a soft break in Markdown); every other character
# that does not show as itself is made visible.
_WORDS = re.compile(r"([ \t\n\r]+)")


# What a sentence puts after a name: a possessive and punctuation, kept out of a code span.
_TRAILING = re.compile(r"(?:['’]s)?[,.;:!?]*\Z")


def _as_code(word: str) -> str:
    """A word GitHub would autolink, as code, with the sentence's possessive and punctuation
    after it ("x's," as `x`'s,) escaped outside the span, unless that leaves no address."""
    tail = _TRAILING.search(word).group(0)
    core = word[: len(word) - len(tail)]
    if not tail or not _AUTOLINK.search(core):
        return _code_span(word)
    return _code_span(core) + _MARKDOWN_SPECIALS.sub(r"\\\1", tail)


def _code_span(word: str) -> str:
    fence = "`" * (max(map(len, re.findall("`+", word)), default=0) + 1)
    pad = " " if word.startswith("`") or word.endswith("`") else ""
    return f"{fence}{pad}{word}{pad}{fence}"


def escape_markdown(text: str, *, in_link: bool = False) -> str:
    r"""Text from a user (a URL, a file, a column or system name) as Markdown that Streamlit
    and GitHub show literally: the one function every Markdown surface (the page's cards,
    labels, buttons, tabs, captions and messages; the Markdown report) passes such text through.

    Hidden characters are made visible (:func:`calculator.text.printable`); a backslash goes
    before each Markdown character; a word that GitHub-flavoured Markdown would turn into a link
    even so (an address, www., an e-mail) is shown as code instead, which no rule reads, except
    `in_link` (the text of a link, where nothing is linked again).

    Examples
    --------
    >>> print(escape_markdown("GPT-4 *new* $x$ [x](y)"))
    GPT\-4 \*new\* \$x\$ \[x\]\(y\)
    >>> print(escape_markdown("![x](https://host/p.png) by a@b.org"))
    `![x](https://host/p.png)` by `a@b.org`
    >>> print(escape_markdown("m(http://x)'s rate, of www.x.org, at a@b.org."))
    `m(http://x)`'s rate, of `www.x.org`, at `a@b.org`\.
    """
    parts = _WORDS.split(text)
    words = [printable(word) for word in parts[::2]]  # the words between the white space
    parts[::2] = [
        _as_code(word)
        if _AUTOLINK.search(word) and not in_link
        else _MARKDOWN_SPECIALS.sub(r"\\\1", word)
        for word in words
    ]
    return "".join(parts)
