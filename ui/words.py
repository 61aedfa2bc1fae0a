"""Words of the calculator page: every sentence, label and number format, in the user's
names and framing. Pure Python (no Streamlit), so each wording decision is tested directly.

The framing switch only changes words: "pass"/"fail" for systems scored on tasks, or
"correct"/"wrong" for classifiers. The cells keep their meaning (a = both pass = both correct,
b = only A passes = only B wrong, c = only B passes = only A wrong, d = both fail = both wrong),
so no number changes with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from calculator import CI_METHODS, Analysis, GateRates
from calculator.rejection import chi2_conditional_size
from calculator.report.formatting import (
    format_confidence,
    format_level,
    format_p_equals,
    format_percent,
    format_points,
    format_pvalue,
    method_words,
    plural,
)
from calculator.text import escape_markdown, printable  # the one escaper, shared

__all__ = [
    "CI_METHOD_HELP",
    "EXAMPLES_CAPTION",
    "EXAMPLES_TITLE",
    "GATES_INTRO",
    "INTRO",
    "SMALL_DISCORDANT",
    "TITLE",
    "Card",
    "Wording",
    "example_help",
    "example_note",
    "from_data_note",
    "gate_cards",
    "headline",
    "result_cards",
    "clean_name",
    "escape_markdown",
    "format_level",
    "format_statistic",
    "points_interval",
    "TableCell",
    "TableText",
    "table_text",
]


def clean_name(name: object, default: str) -> str:
    """A system's name on one line with single spaces and no hidden character
    (:func:`calculator.text.printable`), or `default` if nothing is left.

    Examples
    --------
    >>> clean_name("  model\\n v2 ", "A"), clean_name("   ", "B")
    ('model v2', 'B')
    """
    cleaned = " ".join(str(name).split()) if isinstance(name, str) else ""
    return printable(cleaned) or default


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
                f"{a} is correct on {passes_a:,} of {plural(n, 'case')}, {b} on {passes_b:,} "
                f"(errors: {a} {n - passes_a:,}, {b} {n - passes_b:,})."
            )
        return f"{a} passes {passes_a:,} of {plural(n, 'task')}, {b} passes {passes_b:,}."

    def summary(self, a: int, b: int, c: int, d: int) -> str:
        """The rates in bold, then which cases enter the test (Markdown); "" for an empty table."""
        n = a + b + c + d
        if not n:
            return ""
        return f"**{self.rates_sentence(a + b, a + c, n)}** {self.discordant_sentence(b, c)}"

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
            f"Only the {plural(b + c, 'highlighted discordant ' + self.unit[:-1])} ({split}) "
            f"{'enters' if b + c == 1 else 'enter'} McNemar's test."
        )

    def sweep_axis(self) -> str:
        both = "both correct" if self.classifier else "both pass"
        return f"a: {self.unit} {both}"

    def sweep_title(self) -> str:
        both = "both-correct" if self.classifier else "both-pass"
        return f"p-value as the {both} count a changes"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableCell:
    """One count of the 2 x 2 table as shown ("b = 15"), and whether it is a discordant cell
    (b or c: the cells the test uses, which the page marks)."""

    text: str
    discordant: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TableText:
    """The 2 x 2 table in words: its accessible name, column and row heads (plain text, the
    names as given) and its cells row by row."""

    label: str
    columns: tuple[str, str]
    rows: tuple[str, str]
    cells: tuple[tuple[TableCell, TableCell], tuple[TableCell, TableCell]]


def table_text(wording: Wording, a: int, b: int, c: int, d: int) -> TableText:
    """The 2 x 2 table's heads and cells, discordant cells b and c marked; names as given
    (plain text: the page sets them as text, never as markup).

    Examples
    --------
    >>> table = table_text(Wording(), 60, 15, 5, 20)
    >>> [[cell.text for cell in row] for row in table.cells]
    [['a = 60', 'b = 15'], ['c = 5', 'd = 20']]
    >>> [cell.text for row in table.cells for cell in row if cell.discordant]
    ['b = 15', 'c = 5']
    """
    col_good, col_bad, row_good, row_bad = wording.headers()
    return TableText(
        label="Paired 2 by 2 table",
        columns=(col_good, col_bad),
        rows=(row_good, row_bad),
        cells=(
            (_cell("a", a, discordant=False), _cell("b", b, discordant=True)),
            (_cell("c", c, discordant=True), _cell("d", d, discordant=False)),
        ),
    )


def _cell(name: str, count: int, *, discordant: bool) -> TableCell:
    return TableCell(text=f"{name} = {count:,}", discordant=discordant)


# -- Page text and the result cards. -----------------------------------------------------------

TITLE = "McNemar test calculator"
INTRO = (
    "Two systems, the same cases, a pass or a fail for each. Are they really different? "
    "Only the cases where they disagree can say, and McNemar's test listens to those alone."
)
EXAMPLES_TITLE = (
    "Worked examples from the McNemar test article, the original calculator page and the "
    "classifier-comparison tutorial"
)
EXAMPLES_CAPTION = "One click loads the table (classifier examples in the correct/wrong framing)."
GATES_INTRO = (
    "A release often has to clear several checks, each a test at level α. Even when the "
    "change does nothing, every extra gate is another chance for a false alarm."
)
CI_METHOD_HELP = (
    f"{', '.join(CI_METHODS)}. Agresti-Min is the default; Wald is for teaching only; "
    "Bonett-Price, Newcombe and Tango are recommended by Fagerland, Lydersen & Laake (2014); "
    "exact-compatible (Fay & Lumbard 2021) excludes 0 exactly when the exact McNemar test "
    "rejects at the same level."
)
#: Below this many discordant pairs the chi-square approximation is rough.
SMALL_DISCORDANT = 25


def from_data_note(source: str) -> str:
    """The note above a table loaded from per-case data."""
    return f"From data: {source}"


def example_note(title: str, source: str = "", note: str = "") -> str:
    """The note above a loaded worked example: its title and source, and what the table adds
    to the source (a and d filled in, b and c mirrored) when it does.

    Examples
    --------
    >>> example_note("Gap of 8", "The McNemar test article", "a and d were filled in.")
    'Worked example: Gap of 8 (The McNemar test article). a and d were filled in.'
    """
    text = f"Worked example: {title}" + (f" ({source})" if source else "")
    return f"{text}. {note}" if note else text


def example_help(source: str, expect: str, note: str = "") -> str:
    """The help text of a worked example's button: what its source reports, and the note.

    Examples
    --------
    >>> example_help("The McNemar test article", "exact p = 0.185")
    'The McNemar test article reports: exact p = 0.185.'
    """
    text = f"{source} reports: {expect}."
    return f"{text} {note}" if note else text


@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    """One result card: a label (Markdown), the value, a caption (Markdown) and a widget key."""

    key: str
    label: str
    value: str
    caption: str


_ZERO_WIDTH = (
    " Zero width: Wald's standard error is 0 for this table, a flaw of the method, not "
    "certainty; choose another interval."
)


def _chi2_hint(discordant: int, alpha: float, correction: bool) -> str:
    if discordant == 0:
        return "No discordant pairs: the statistic is undefined and p = 1."
    if discordant < SMALL_DISCORDANT:
        size = chi2_conditional_size(discordant, alpha, correction=correction)
        way = "more often than" if size > alpha else "no more often than"
        return (
            f"A large-sample approximation: given {plural(discordant, 'discordant pair')} it "
            f"rejects a true null hypothesis {format_percent(size)} of the time at "
            f"α = {alpha:g}, {way} α (the exact test: at most α). Published sizes average "
            "over the number of discordant pairs and so look closer to α."
        )
    return "A large-sample approximation to the exact test, close to it at this size."


def result_cards(
    wording: Wording, analysis: Analysis, *, markdown: bool = True
) -> tuple[Card, Card, Card, Card]:
    """The difference, chi-square, exact and unpaired cards, in reading order.

    `wording` is the page's wording with plain names; the cards escape them for Markdown, or
    keep them as given with `markdown=False` (for a surface that sets them as plain text).

    Examples
    --------
    >>> from calculator import analyze
    >>> cards = result_cards(Wording(), analyze(60, 15, 5, 20))
    >>> [(card.label, card.value) for card in cards]  # doctest: +NORMALIZE_WHITESPACE
    [('Pass-rate difference, A − B', '+10.0 pts'), ('McNemar χ²', '5.00'),
     ('Exact McNemar p', '0.041'), ('Unpaired test p, same data', '0.123')]
    """
    shown = wording.escaped() if markdown else wording
    diff, chi2, exact, unpaired = (
        analysis.difference,
        analysis.chi2,
        analysis.binomial,
        analysis.unpaired,
    )
    m = analysis.table.discordant
    value, interval = wording.difference_value(diff.estimate, diff.low, diff.high)
    corrected = "continuity-corrected, " if chi2.continuity_correction else ""
    alpha = analysis.gates.alpha
    if m == 0:
        exact_what = "No discordant pairs: no case tells the systems apart."
    elif exact.convention == "doubling":
        exact_what = (
            f"Two-sided binomial test given the {plural(m, 'discordant pair')} (twice the "
            "smaller tail)."
        )
    else:
        exact_what = (
            f"Binomial test given the {plural(m, 'discordant pair')}, the observed split "
            "counted half (mid-p, two-sided)."
        )
    return (
        Card(
            key="card_difference",
            label=shown.difference_title(),
            value=value,
            caption=f"{'Minus ' if wording.classifier else ''}(b − c)/n. "
            f"{format_confidence(diff.level)} CI {interval} "
            f"({method_words(diff.method, in_parentheses=True)})."
            + (_ZERO_WIDTH if diff.method == "wald" and diff.low == diff.high else ""),
        ),
        Card(
            key="card_chi2",
            label="McNemar χ²",
            value=format_statistic(chi2.statistic),
            caption=f"Asymptotic {format_p_equals(chi2.pvalue, chi2.log10_pvalue, alpha=alpha)}, "
            f"{corrected}{chi2.df} df. {_chi2_hint(m, alpha, chi2.continuity_correction)}",
        ),
        Card(
            key="card_exact",
            label="Exact McNemar p" if exact.convention == "doubling" else "McNemar mid-p",
            value=format_pvalue(exact.pvalue, exact.log10_pvalue, alpha=alpha),
            caption=exact_what,
        ),
        Card(
            key="card_unpaired",
            label="Unpaired test p, same data",
            value=format_pvalue(unpaired.pvalue, unpaired.log10_pvalue, alpha=alpha),
            caption=f"Treats {shown.name_a} and {shown.name_b} as independent samples, "
            "discarding the pairing.",
        ),
    )


def count_refusals(maximum: int) -> dict[str, str]:
    """Said beside a count's exact field when what was typed there is not taken: "typed" names
    it (``{value}``), "empty" is for a field the browser could not read as a number; both say
    the count that stays (``{count}``). The live panel puts the two values in, as text.

    >>> said = count_refusals(10**9)["typed"].format(value="1e3", count=250)
    >>> said.split(": ")[0]
    '"1e3" was not taken'
    >>> said.endswith("a whole number from 0 to 1,000,000,000. The count stays 250.")
    True
    """
    rule = f"a count is written in digits only, a whole number from 0 to {maximum:,}"
    return {
        "typed": f'"{{value}}" was not taken: {rule}. The count stays {{count}}.',
        "empty": f"The field held no number: {rule}. The count stays {{count}}.",
    }


def headline(wording: Wording, analysis: Analysis) -> str:
    """One Markdown line with the result that matters most: the difference, its interval and
    the exact (or mid-) p. Shown above the inputs, so that a phone's first screen holds it.

    `wording` is the page's wording with plain names; the line escapes them for Markdown.

    Examples
    --------
    >>> from calculator import analyze
    >>> headline(Wording(), analyze(60, 15, 5, 20))
    'Pass-rate difference, A − B: **+10.0 pts** (95% CI +1.2 to +18.4 pts); exact McNemar p = 0.041'
    """
    diff, exact = analysis.difference, analysis.binomial
    value, interval = wording.difference_value(diff.estimate, diff.low, diff.high)
    p_text = format_p_equals(exact.pvalue, exact.log10_pvalue, alpha=analysis.gates.alpha)
    # format_p_equals writes "p = ..." or "p < ...": the test's name goes before it.
    test = "exact McNemar " if exact.convention == "doubling" else "McNemar mid-"
    return (
        f"{wording.escaped().difference_title()}: **{value}** "
        f"({format_confidence(diff.level)} CI {interval}); {test}{p_text}"
    )


def gate_cards(rates: GateRates) -> tuple[Card, Card, Card]:
    """The false-alarm rate, the per-gate levels that hold it at alpha, and the union bound.

    Examples
    --------
    >>> from calculator import gate_rates
    >>> [card.value for card in gate_cards(gate_rates(6, 0.05))]
    ['26.5%', '0.00833', '30.0%']
    """
    formula = "1 − (1 − α)^m" if rates.rho == 0 else f"correlated at ρ = {rates.rho:g}"
    return (
        Card(
            key="card_false_alarm",
            label="At least one false alarm",
            value=format_percent(rates.false_alarm),
            caption=f"{rates.count:,} gates at α = {rates.alpha:g}: {formula}.",
        ),
        Card(
            key="card_per_gate",
            label=f"Per-gate α for {rates.alpha:g} overall",
            value=format_level(rates.bonferroni_alpha),
            caption="Bonferroni α/m. Šidák 1 − (1 − α)^(1/m) gives "
            f"{format_level(rates.sidak_alpha)}.",
        ),
        Card(
            key="card_union",
            label="Union bound",
            value=format_percent(rates.union_bound),
            caption="m·α: the false-alarm rate can be no higher, whatever the dependence.",
        ),
    )
