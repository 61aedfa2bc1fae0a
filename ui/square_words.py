"""Words for the calculator page's k x k section (pure): its toggle, labels and help.

The results themselves are the report's (:func:`calculator.report.square.square_report`), as
the command line's ``square`` prints them.
"""

from __future__ import annotations

from calculator.square import MAX_CATEGORIES

__all__ = [
    "COUNTS_HELP",
    "COUNTS_LABEL",
    "GRID_CAPTION",
    "K_LABEL",
    "NAMES_HELP",
    "NAMES_LABEL",
    "NAMES_PLACEHOLDER",
    "ORDERED_HELP",
    "ORDERED_LABEL",
    "SQUARE_HEADER",
    "SQUARE_INTRO",
    "SQUARE_TOGGLE",
    "cell_label",
]

SQUARE_HEADER = "More than pass/fail: a k × k table"
SQUARE_TOGGLE = "Graded or multi-class outcomes (k × k table)"
SQUARE_INTRO = (
    "When each case gets one of k categories from each system (a grade, a class label), the "
    "paired table has k rows for A's category and k columns for B's; its diagonal counts the "
    "cases on which they agree. Bowker's test asks whether each kind of disagreement is as "
    "common as its reverse; the Stuart-Maxwell and Bhapkar tests, whether A uses each "
    "category as often as B; and each category is then compared with the rest. Computed only "
    "while this is on."
)
K_LABEL = f"Number of categories (2 to {MAX_CATEGORIES})"
NAMES_LABEL = "Category names, in order (comma-separated)"
NAMES_HELP = "Left empty, the categories are numbered 1 to k."
NAMES_PLACEHOLDER = "low, mid, high"
ORDERED_LABEL = "The categories are ordered (add the score test of mean scores)"
ORDERED_HELP = (
    "For grades: scores 1 to k in the order of the names, and the test of whether A's mean "
    "score equals B's."
)
GRID_CAPTION = "Rows: A's category. Columns: B's category. Each cell counts the cases."
COUNTS_LABEL = "The counts as text (a row per ';')"
COUNTS_HELP = (
    "The same table as the grid, for pasting: k rows of k whole numbers, rows separated by "
    "';' and counts by spaces, as the command line's `square --table` takes it."
)


def cell_label(name_a: str, name_b: str) -> str:
    """The accessible label of one cell of the grid (names already escaped).

    Examples
    --------
    >>> cell_label("low", "mid")
    'Cases A puts in low and B in mid'
    """
    return f"Cases A puts in {name_a} and B in {name_b}"
