"""The calculator page's URL query parameters: their defaults, bounds and validation.

Streamlit seeds a widget bound with ``bind="query-params"`` from the URL on the first run, and
silently drops a value it cannot use (or, for ``?a=inf`` on an integer field, raises). The page
therefore checks the query string with :func:`check_query` before any widget exists, removes the
values that fail, and shows one warning per bad value saying what is allowed.

Everything here is plain Python: no Streamlit import, so it is tested directly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from calculator import CI_METHODS
from calculator.analysis import FRAMINGS, MAX_NAME_LENGTH
from calculator.gates import MAX_GATES
from calculator.mcnemar import CONVENTIONS
from calculator.text import clip, has_control, printable
from ui.square_params import SQUARE_DEFAULTS, SQUARE_PARSERS
from ui.words import escape_markdown

__all__ = [
    "ALPHA_RANGE",
    "COUNT_KEYS",
    "COUNT_MAX",
    "DECISION_DEFAULTS",
    "DEFAULTS",
    "GATES_MAX",
    "LEVEL_RANGE",
    "MARGIN_RANGE",
    "PAGE_QUESTIONS",
    "PARAM_KEYS",
    "QueryCheck",
    "RHO_RANGE",
    "SLIDER_BASE",
    "TEACHING_DEFAULTS",
    "check_query",
    "decision_query",
    "parse_param",
    "share_markdown",
    "share_query",
    "teaching_query",
    "slider_max",
]

#: The table's four counts, in the URL and in the session, in this order.
COUNT_KEYS = ("a", "b", "c", "d")
#: Largest count accepted in a cell (the page promises real data up to 10^9).
COUNT_MAX = 10**9
#: Slider ranges before a typed value widens them (:func:`slider_max`): enough for a demo.
SLIDER_BASE = {"a": 100, "b": 100, "c": 100, "d": 100, "gates": 50}
#: Largest number of gates (the statistics core's limit).
GATES_MAX = MAX_GATES
#: Inclusive bounds of the per-gate alpha, the confidence level and the gate correlation.
ALPHA_RANGE = (0.0001, 0.5)
LEVEL_RANGE = (0.5, 0.999)
RHO_RANGE = (0.0, 1.0)

#: Default of every URL key: the seed page's example (60, 15, 5, 20; 6 gates at alpha 0.05).
DEFAULTS: dict[str, object] = {
    "a": 60,
    "b": 15,
    "c": 5,
    "d": 20,
    "gates": 6,
    "alpha": 0.05,
    "rho": 0.0,
    "level": 0.95,
    "ci": "agresti-min",
    "conv": "doubling",
    "cc": False,
    "name_a": "A",
    "name_b": "B",
    "framing": "pass",
    "logp": False,
}
PARAM_KEYS = tuple(DEFAULTS)
#: URL keys of the teaching sections (issue 13), beside the page contract's keys: the section
#: toggles, the agreement slider (a both-pass count; its range depends on the table, so the
#: slider itself replaces a value outside it) and the presenting view.
TEACHING_DEFAULTS: dict[str, object] = {
    "t_null": False,
    "t_oc": False,
    "t_pair": False,
    "t_quiz": False,
    "agree": "(the entered table's both-pass count)",
    "present": False,
}
#: URL keys of the "Decision" section (issue 12): the release question and the margin in
#: percentage points (0.01 to 50). A shared link omits them at their defaults.
#: "superior" is "better" asked against the margin (B better by more than it).
PAGE_QUESTIONS = ("different", "better", "worse", "superior", "non-inferior", "equivalent")
MARGIN_RANGE = (0.01, 50.0)
DECISION_DEFAULTS: dict[str, object] = {"question": "different", "margin": 1.0}

# Longer raw values are rejected before parsing (a number never needs this many characters).
_MAX_RAW_CHARS = 64
_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?")


def _whole(low: int, high: int) -> Callable[[str], int]:
    allowed = f"a whole number from {low:,} to {high:,}"

    def parse(raw: str) -> int:
        if len(raw) > _MAX_RAW_CHARS or not _DIGITS.fullmatch(raw) or not low <= int(raw) <= high:
            raise ValueError(allowed)
        return int(raw)

    return parse


def _decimal(low: float, high: float) -> Callable[[str], float]:
    allowed = f"a number from {low:g} to {high:g}"

    def parse(raw: str) -> float:
        if len(raw) > _MAX_RAW_CHARS or not _DECIMAL.fullmatch(raw):
            raise ValueError(allowed)
        value = float(raw)
        if not (math.isfinite(value) and low <= value <= high):
            raise ValueError(allowed)
        return value

    return parse


def _choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    allowed = "one of " + ", ".join(choices)

    def parse(raw: str) -> str:
        if raw not in choices:
            raise ValueError(allowed)
        return raw

    return parse


def _flag(raw: str) -> bool:
    # Streamlit writes booleans as "true"/"false" and reads them case-insensitively.
    if raw.lower() not in ("true", "false"):
        raise ValueError("true or false")
    return raw.lower() == "true"


def _name(raw: str) -> str:
    # A control character (a line break, an escape) is no part of a name; a format character
    # (a zero-width space, a direction mark) is kept, and shown escaped where the name is.
    if not raw.strip() or len(raw) > MAX_NAME_LENGTH or has_control(raw):
        raise ValueError(f"a name of 1 to {MAX_NAME_LENGTH} printable characters")
    return raw


_PARSERS: dict[str, Callable[[str], object]] = {
    "a": _whole(0, COUNT_MAX),
    "b": _whole(0, COUNT_MAX),
    "c": _whole(0, COUNT_MAX),
    "d": _whole(0, COUNT_MAX),
    "gates": _whole(1, GATES_MAX),
    "alpha": _decimal(*ALPHA_RANGE),
    "rho": _decimal(*RHO_RANGE),
    "level": _decimal(*LEVEL_RANGE),
    "ci": _choice(CI_METHODS),
    "conv": _choice(CONVENTIONS),
    "cc": _flag,
    "name_a": _name,
    "name_b": _name,
    "framing": _choice(FRAMINGS),
    "logp": _flag,
    **dict.fromkeys(("t_null", "t_oc", "t_pair", "t_quiz", "present"), _flag),
    "agree": _whole(0, COUNT_MAX),
    "question": _choice(PAGE_QUESTIONS),
    "margin": _decimal(*MARGIN_RANGE),
    **SQUARE_PARSERS,  # the k x k section (ui/square_params.py)
}


def parse_param(key: str, raw: str) -> object:
    """Parse the raw URL value of `key`, or raise.

    Parameters
    ----------
    key : str
        One of :data:`PARAM_KEYS`.
    raw : str
        The value as it appears in the query string (already URL-decoded).

    Returns
    -------
    object
        The value with the type of ``DEFAULTS[key]``.

    Raises
    ------
    KeyError
        If `key` is not a parameter of the page.
    ValueError
        If `raw` is not allowed; the message says what is (e.g. "a whole number from 0 to
        1,000,000,000").

    Examples
    --------
    >>> parse_param("a", "70"), parse_param("cc", "TRUE"), parse_param("level", "0.9")
    (70, True, 0.9)
    >>> parse_param("a", "-5")
    Traceback (most recent call last):
    ...
    ValueError: a whole number from 0 to 1,000,000,000
    """
    return _PARSERS[key](raw)


@dataclass(frozen=True, slots=True, kw_only=True)
class QueryCheck:
    """Outcome of checking a query string.

    Attributes
    ----------
    values : dict
        The usable value of every page key found in the URL.
    rejected : tuple of str
        Keys to remove from the URL: page keys with an unusable value, and unknown keys.
    warnings : tuple of str
        One plain-text sentence per rejected key, naming it, the value and what is allowed.
    """

    values: dict[str, object] = field(default_factory=dict)
    rejected: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def _shorten(raw: str, limit: int = 30) -> str:
    return clip(printable(raw), limit)


def check_query(params: Mapping[str, str]) -> QueryCheck:
    """Check every URL parameter of the calculator page.

    Parameters
    ----------
    params : mapping of str to str
        The query parameters (for a repeated key, its last value, as Streamlit uses it).

    Returns
    -------
    QueryCheck
        Usable values, the keys to drop and a warning for each dropped key.

    Examples
    --------
    >>> check = check_query({"a": "70", "b": "abc", "zoom": "2"})
    >>> check.values, check.rejected
    ({'a': 70}, ('b', 'zoom'))
    >>> print(check.warnings[1])
    Unknown URL parameter "zoom" was ignored.
    """
    values: dict[str, object] = {}
    rejected: list[str] = []
    warnings: list[str] = []
    for key, raw in params.items():
        if key not in _PARSERS:
            rejected.append(key)
            warnings.append(f'Unknown URL parameter "{_shorten(key)}" was ignored.')
            continue
        try:
            values[key] = parse_param(key, raw)
        except ValueError as error:
            rejected.append(key)
            warnings.append(
                f'URL parameter "{key}" must be {error}, but got "{_shorten(raw)}"; '
                f"using the default {_format_default(key)}."
            )
    return QueryCheck(values=values, rejected=tuple(rejected), warnings=tuple(warnings))


def _format_default(key: str) -> str:
    default = {**DEFAULTS, **TEACHING_DEFAULTS, **DECISION_DEFAULTS, **SQUARE_DEFAULTS}[key]
    if key == "agree":
        return str(default)
    if isinstance(default, bool):
        return str(default).lower()
    if isinstance(default, str):
        return f'"{default}"'
    return f"{default:g}"


def share_query(values: Mapping[str, object]) -> str:
    """The query string of a shareable link: every page value that differs from its default.

    Booleans are written as Streamlit writes them ("true"/"false"), in :data:`PARAM_KEYS` order.

    Examples
    --------
    >>> share_query({**DEFAULTS, "a": 70, "cc": True, "name_a": "GPT 5"})
    'a=70&cc=true&name_a=GPT+5'
    """
    changed = {
        key: str(values[key]).lower() if isinstance(values[key], bool) else values[key]
        for key in PARAM_KEYS
        if key in values and values[key] != DEFAULTS[key]
    }
    return urlencode(changed)


def decision_query(values: Mapping[str, object]) -> str:
    """The Decision section's part of a shareable link: its keys that differ from the default.

    Examples
    --------
    >>> decision_query({"question": "non-inferior", "margin": 1.0})
    'question=non-inferior'
    >>> decision_query({"question": "different", "margin": 2.5})
    'margin=2.5'
    >>> decision_query({"margin": 2.3456789}), decision_query({"margin": 3.0})
    ('margin=2.3456789', 'margin=3')
    """
    changed = {  # a float as its shortest exact text (":g" kept 6 digits: 2.3456789 -> 2.34568)
        key: repr(values[key]).removesuffix(".0") if isinstance(values[key], float) else values[key]
        for key in DECISION_DEFAULTS
        if key in values and values[key] != DECISION_DEFAULTS[key]
    }
    return urlencode(changed)


def teaching_query(values: Mapping[str, object], *, entered_a: int) -> str:
    """The teaching sections' part of a shareable link: the open sections, the presenting
    view, and the agreement when the pairing section is open at a table other than the entered.

    Examples
    --------
    >>> teaching_query({"t_null": True, "t_oc": False, "t_pair": True, "agree": 55}, entered_a=60)
    't_null=true&t_pair=true&agree=55'
    >>> teaching_query({"t_pair": False, "agree": 55}, entered_a=60)
    ''
    """
    changed: dict[str, object] = {
        key: "true"
        for key, default in TEACHING_DEFAULTS.items()
        if isinstance(default, bool) and values.get(key) is True
    }
    agree = values.get("agree")
    if values.get("t_pair") is True and isinstance(agree, int) and agree != entered_a:
        changed["agree"] = agree
    return urlencode(changed)


def slider_max(value: int, base: int, ceiling: int) -> int:
    """Upper end of a slider showing `value`: `base`, or the next 1-2-5 step above `value`.

    A typed value past the slider's range widens the range instead of being clipped.

    Examples
    --------
    >>> slider_max(60, 100, 10**9), slider_max(150, 100, 10**9), slider_max(10**9, 100, 10**9)
    (100, 200, 1000000000)
    """
    if value <= base:
        return base
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= value:
                return min(step * factor, ceiling)
        step *= 10


def share_markdown(page_url: str, query: str) -> str:
    """The share link as a Markdown link whose text is the address itself.

    A link, not a code block: a code block would make the browser download a 1.5 MB syntax
    highlighter. The query is URL-encoded (:func:`share_query` and its kin), so only the
    characters Markdown reads in a link's target need escaping there.

    Examples
    --------
    >>> share_markdown("http://host/", "a=61&nameA=M+%28new%29").endswith(
    ...     "](http://host/?a=61&nameA=M+%28new%29)")
    True
    >>> share_markdown("http://host/(x)", "").endswith("](http://host/%28x%29)")
    True
    """
    url = f"{page_url}?{query}" if query else page_url or "?"
    target = url.replace("(", "%28").replace(")", "%29").replace(" ", "%20")
    return f"[{escape_markdown(url, in_link=True)}]({target})"
