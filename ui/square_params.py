"""URL keys of the calculator page's k x k section: defaults, checks and the share link's part.

The counts travel as one text, a row per ";" ("35 5 0; 15 20 5; 10 5 5"), as the command
line's ``square --table`` takes them; the category names as one text, comma-separated. A value
that is no table at all (other characters, or too long) is dropped with a warning by
:func:`ui.params.check_query`; a table of the wrong shape or with a bad count reaches the
section, which shows the library's refusal in words.

Plain Python: no Streamlit import.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from urllib.parse import urlencode

from calculator.square import MAX_CATEGORIES
from calculator.text import has_control

__all__ = [
    "MAX_COUNTS_CHARS",
    "MAX_NAMES_CHARS",
    "SQUARE_DEFAULTS",
    "SQUARE_PARSERS",
    "counts_text",
    "resized",
    "square_query",
]

#: Defaults: the section closed, a 3 x 3 table, its categories numbered, not ordered.
SQUARE_DEFAULTS: dict[str, object] = {
    "sq": False,
    "sq_counts": "35 5 0; 15 20 5; 10 5 5",
    "sq_names": "",
    "sq_ord": False,
}
#: Longest counts text accepted in the URL: 100 counts of up to 13 digits with separators.
MAX_COUNTS_CHARS = 1_500
#: Longest names text accepted in the URL: 10 names of up to 60 characters, with commas.
MAX_NAMES_CHARS = 620
_COUNTS = re.compile(r"[0-9 ,;.+\-eE]*")


def _counts(raw: str) -> str:
    if len(raw) > MAX_COUNTS_CHARS or not _COUNTS.fullmatch(raw) or not raw.strip():
        raise ValueError(
            f"counts in rows separated by ';' (at most {MAX_CATEGORIES} rows of "
            f"{MAX_CATEGORIES} counts)"
        )
    return raw


def _names(raw: str) -> str:
    if len(raw) > MAX_NAMES_CHARS or has_control(raw):
        raise ValueError(
            f"category names separated by commas, at most {MAX_NAMES_CHARS} characters"
        )
    return raw


def _flag(raw: str) -> bool:
    if raw.lower() not in ("true", "false"):
        raise ValueError("true or false")
    return raw.lower() == "true"


SQUARE_PARSERS: dict[str, Callable[[str], object]] = {
    "sq": _flag,
    "sq_counts": _counts,
    "sq_names": _names,
    "sq_ord": _flag,
}


def counts_text(rows: Sequence[Sequence[int]]) -> str:
    """Counts as the URL and the text field hold them.

    Examples
    --------
    >>> counts_text([[5, 1], [2, 7]])
    '5 1; 2 7'
    """
    return "; ".join(" ".join(str(count) for count in row) for row in rows)


def resized(rows: Sequence[Sequence[int]], k: int) -> list[list[int]]:
    """`rows` cut or padded with zeros to k x k.

    Examples
    --------
    >>> resized([[5, 1], [2, 7]], 3)
    [[5, 1, 0], [2, 7, 0], [0, 0, 0]]
    >>> resized([[5, 1, 0], [2, 7, 0], [0, 0, 9]], 2)
    [[5, 1], [2, 7]]
    """
    grown = [list(row[:k]) + [0] * (k - len(row[:k])) for row in rows[:k]]
    return grown + [[0] * k for _ in range(k - len(grown))]


def square_query(values: Mapping[str, object]) -> str:
    """The k x k section's part of a shareable link: nothing while it is closed, else its keys
    that differ from their defaults (the section's toggle first).

    Examples
    --------
    >>> square_query({"sq": True, "sq_counts": "1 2; 3 4", "sq_names": ""})
    'sq=true&sq_counts=1+2%3B+3+4'
    >>> square_query({"sq": False, "sq_counts": "1 2; 3 4"})
    ''
    """
    if values.get("sq") is not True:
        return ""
    changed = {
        key: "true" if value is True else ("false" if value is False else value)
        for key, value in ((key, values.get(key)) for key in SQUARE_DEFAULTS)
        if value is not None and value != SQUARE_DEFAULTS[key]
    }
    return urlencode(changed)
