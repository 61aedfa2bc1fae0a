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

import unicodedata

__all__ = [
    "FORMULA_START",
    "clip",
    "escape_markdown",
    "escape_spreadsheet_cell",
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


#: ASCII punctuation that Markdown (CommonMark, GitHub's) may read as syntax: each is written
#: with a backslash, which CommonMark defines as the literal character.
_MARKDOWN_PUNCTUATION = frozenset("\\`*_{}[]()#+-.!|~:$")


def escape_markdown(text: object) -> str:
    """`text` as Markdown that renders as exactly this text, on one line: no link, image,
    emphasis, heading, table cell break or HTML can come from it.

    :func:`printable` first (a newline becomes ``\\n``, so a value never ends a table row or
    starts a block); then ``&``, ``<`` and ``>`` as HTML entities (no tag, no entity of the
    text's own) and every other ASCII punctuation character that Markdown reads as syntax
    backslash-escaped, as CommonMark allows for any ASCII punctuation.

    Examples
    --------
    >>> print(escape_markdown("[x](http://evil)"))
    \\[x\\]\\(http\\://evil\\)
    >>> print(escape_markdown("<img src=x> & a|b"))
    &lt;img src=x&gt; &amp; a\\|b
    """
    out = []
    for character in printable(text):
        if character == "&":
            out.append("&amp;")
        elif character == "<":
            out.append("&lt;")
        elif character == ">":
            out.append("&gt;")
        elif character in _MARKDOWN_PUNCTUATION:
            out.append("\\" + character)
        else:
            out.append(character)
    return "".join(out)
