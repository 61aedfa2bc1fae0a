"""Words and number formats of the calculator page, in the user's names and framing.

The framing switch only changes words: "pass"/"fail" for systems scored on tasks, or
"correct"/"wrong" for classifiers. The cells keep their meaning (a = both pass = both correct,
b = only A passes = only B wrong, c = only B passes = only A wrong, d = both fail = both wrong),
so no number changes with it.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass

from calculator import format_percent, format_points, format_pvalue

__all__ = [
    "Wording",
    "clean_name",
    "escape_markdown",
    "format_level",
    "format_rate",
    "format_statistic",
    "p_equals",
    "points_interval",
    "table_html",
]

# Characters that Streamlit's Markdown would interpret inside a line (emphasis, code, links,
# HTML, tables, $ for LaTeX, : for emoji shortcodes and colour directives); a backslash before
# each makes a user's text print as typed. Names never start a line, so list markers are safe.
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>#|$~:])")


def escape_markdown(text: str) -> str:
    """Escape `text` so that Streamlit's Markdown prints it literally.

    Examples
    --------
    >>> escape_markdown("GPT-4 *new* $x$")
    'GPT-4 \\\\*new\\\\* \\\\$x\\\\$'
    """
    return _MARKDOWN_SPECIALS.sub(r"\\\1", text)


def clean_name(name: object, default: str) -> str:
    """A system's name on one line with single spaces, or `default` if nothing is left.

    Examples
    --------
    >>> clean_name("  model\\n v2 ", "A"), clean_name("   ", "B")
    ('model v2', 'B')
    """
    cleaned = " ".join(str(name).split()) if isinstance(name, str) else ""
    return cleaned or default


def format_statistic(value: float | None) -> str:
    """A test statistic for reading: two decimals, or three significant digits when huge.

    Examples
    --------
    >>> format_statistic(5.0), format_statistic(1.234e9), format_statistic(None)
    ('5.00', '1.23e+09', 'undefined')
    """
    if value is None or not math.isfinite(value):
        return "undefined"
    return f"{value:.2f}" if abs(value) < 1e6 else f"{value:.3g}"


def format_level(value: float) -> str:
    """A significance level for reading: two significant digits.

    Examples
    --------
    >>> format_level(0.05 / 6), format_level(0.0085124), format_level(0.3)
    ('0.0083', '0.0085', '0.3')
    """
    return f"{value:.2g}"


def format_rate(fraction: float) -> str:
    """A rate in percent, one decimal; small rates keep two significant digits.

    Examples
    --------
    >>> format_rate(0.2649), format_rate(0.0001), format_rate(0.0)
    ('26.5%', '0.01%', '0.0%')
    """
    if 0 < fraction < 0.001:
        return f"{100 * fraction:.2g}%"
    return format_percent(fraction)


def p_equals(pvalue: float, log10_pvalue: float) -> str:
    """ "p = 0.041", or "p < 1e-300 (log10 p = -601.76)" when p underflows.

    Examples
    --------
    >>> p_equals(0.0253, -1.596), p_equals(0.0, -601.759)
    ('p = 0.025', 'p < 1e-300 (log10 p = -601.76)')
    """
    text = format_pvalue(pvalue, log10_pvalue)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def points_interval(low: float, high: float) -> str:
    """An interval of a rate difference in percentage points: "+1.2 to +18.4 pts"."""
    return f"{format_points(low)} to {format_points(high)} pts"


@dataclass(frozen=True, slots=True)
class Wording:
    """Every framed phrase of the page for systems named `name_a` and `name_b`.

    Names are used as given (plain text); escape them with :func:`escape_markdown` where the
    text goes through Markdown.
    """

    name_a: str = "A"
    name_b: str = "B"
    framing: str = "pass"

    @property
    def classifier(self) -> bool:
        return self.framing == "correct"

    def escaped(self) -> Wording:
        """The same wording with the names escaped for Markdown."""
        return Wording(escape_markdown(self.name_a), escape_markdown(self.name_b), self.framing)

    @property
    def good(self) -> str:
        """Adjective for a good outcome: "passes" or "correct"."""
        return "correct" if self.classifier else "passes"

    @property
    def bad(self) -> str:
        return "wrong" if self.classifier else "fails"

    @property
    def unit(self) -> str:
        return "cases" if self.classifier else "tasks"

    def cell_labels(self) -> dict[str, str]:
        """Label of each count's input field."""
        a, b = self.name_a, self.name_b
        if self.classifier:
            return {
                "a": "a: both correct",
                "b": f"b: only {a} correct ({b} wrong)",
                "c": f"c: only {b} correct ({a} wrong)",
                "d": "d: both wrong",
            }
        return {
            "a": "a: both pass",
            "b": f"b: only {a} passes",
            "c": f"c: only {b} passes",
            "d": "d: both fail",
        }

    def headers(self) -> tuple[str, str, str, str]:
        """Column heads (B good, B bad) and row heads (A good, A bad) of the 2 x 2 table."""
        a, b = self.name_a, self.name_b
        return (f"{b} {self.good}", f"{b} {self.bad}", f"{a} {self.good}", f"{a} {self.bad}")

    def rates_sentence(self, passes_a: int, passes_b: int, n: int) -> str:
        """ "A passes 75 of 100 tasks, B passes 65." (or "A is correct on ...")."""
        a, b = self.name_a, self.name_b
        if self.classifier:
            return (
                f"{a} is correct on {passes_a:,} of {n:,} cases, {b} on {passes_b:,} "
                f"(errors: {a} {n - passes_a:,}, {b} {n - passes_b:,})."
            )
        return f"{a} passes {passes_a:,} of {n:,} tasks, {b} passes {passes_b:,}."

    def difference_title(self) -> str:
        rate = "Error-rate" if self.classifier else "Pass-rate"
        return f"{rate} difference, {self.name_a} − {self.name_b}"

    def difference_value(self, estimate: float, low: float, high: float) -> tuple[str, str]:
        """The difference in points and its interval, as shown under :meth:`difference_title`.

        In the classifier framing the error-rate difference is minus the pass-rate difference,
        and its interval's ends swap.
        """
        if self.classifier:
            estimate, low, high = -estimate, -high, -low
        return f"{format_points(estimate)} pts", points_interval(low, high)

    def discordant_sentence(self, b: int, c: int) -> str:
        a_name, b_name = self.name_a, self.name_b
        if self.classifier:
            split = f"{c:,} only {a_name} gets wrong and {b:,} only {b_name} gets wrong"
        else:
            split = f"{b:,} only {a_name} passes and {c:,} only {b_name} passes"
        return (
            f"Only the {b + c:,} highlighted discordant {self.unit} ({split}) enter McNemar's test."
        )

    def sweep_axis(self) -> str:
        both = "both correct" if self.classifier else "both pass"
        return f"a: {self.unit} {both}"

    def sweep_title(self) -> str:
        both = "both-correct" if self.classifier else "both-pass"
        return f"p-value as the {both} count a changes"


_CELL = "padding:0.4em 0.8em;border:1px solid #999;text-align:center"
_HEAD = _CELL + ";font-weight:600;background:#f2f2f2"
_DISCORDANT = _CELL + ";background:#ffe8a3;border:3px solid #b8860b;font-weight:700"


def table_html(wording: Wording, a: int, b: int, c: int, d: int) -> str:
    """The 2 x 2 table as an HTML table, discordant cells b and c highlighted, names escaped."""
    col_good, col_bad, row_good, row_bad = (html.escape(h) for h in wording.headers())
    return (
        '<table style="border-collapse:collapse;font-size:1.35rem;margin:0.3em 0" '
        'aria-label="Paired 2 by 2 table">'
        f'<tr><th style="{_HEAD}"></th><th style="{_HEAD}">{col_good}</th>'
        f'<th style="{_HEAD}">{col_bad}</th></tr>'
        f'<tr><th style="{_HEAD}">{row_good}</th><td style="{_CELL}">a = {a:,}</td>'
        f'<td style="{_DISCORDANT}">b = {b:,}</td></tr>'
        f'<tr><th style="{_HEAD}">{row_bad}</th><td style="{_DISCORDANT}">c = {c:,}</td>'
        f'<td style="{_CELL}">d = {d:,}</td></tr>'
        "</table>"
    )
