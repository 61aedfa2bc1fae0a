"""The paired k x k table: two systems' categorical outcomes on the same cases, and its checks.

Row i, column j counts the cases that A puts in category i and B in category j; the diagonal
counts the cases on which they agree.

- :data:`MAX_CATEGORIES`: the most categories accepted.
- :class:`SquareTable`, :func:`square_table` (from counts), :func:`table_from_labels` (from
  each case's two labels), :func:`parse_counts` (counts written as text, as the command line's
  ``--table`` and the page's grid write them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from calculator._validation import check_count, shown
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.text import clip, plural

__all__ = ["MAX_CATEGORIES", "SquareTable", "parse_counts", "square_table", "table_from_labels"]

#: The most categories a table may have: the tests' chi-square approximations need several
#: cases per pair of categories, and a report of 45 pairs is no longer read.
MAX_CATEGORIES = 10
_ALLOWED = f"a square table of counts with 2 to {MAX_CATEGORIES} categories (k rows of k counts)"


@dataclass(frozen=True, slots=True, kw_only=True)
class SquareTable:
    """A paired k x k table: `counts[i][j]` cases that A puts in category i and B in j.

    Attributes
    ----------
    counts : tuple of tuple of int
        The k x k counts, rows for A and columns for B.
    labels : tuple of str
        The categories' names, in the rows' (and columns') order.
    """

    counts: tuple[tuple[int, ...], ...]
    labels: tuple[str, ...]

    @property
    def k(self) -> int:
        """Number of categories."""
        return len(self.counts)

    @property
    def n(self) -> int:
        """Number of cases."""
        return sum(map(sum, self.counts))

    @property
    def rows(self) -> tuple[int, ...]:
        """A's totals: cases A puts in each category."""
        return tuple(map(sum, self.counts))

    @property
    def columns(self) -> tuple[int, ...]:
        """B's totals: cases B puts in each category."""
        return tuple(map(sum, zip(*self.counts, strict=True)))

    def to_dict(self) -> dict[str, object]:
        return {"counts": [list(row) for row in self.counts], "labels": list(self.labels)}


def square_table(counts: object, labels: Sequence[str] | None = None) -> SquareTable:
    """A checked :class:`SquareTable` from nested counts (rows for A, columns for B).

    Parameters
    ----------
    counts : sequence of sequences of int
        k rows of k non-negative whole numbers, k from 2 to :data:`MAX_CATEGORIES`.
    labels : sequence of str, optional
        k distinct, non-blank names; "1" to "k" when not given.

    Raises
    ------
    CalculatorError
        If the table is not square, has fewer than 2 or more than :data:`MAX_CATEGORIES`
        categories, holds a count that is not a non-negative integer, or the labels do not
        match it.

    Examples
    --------
    >>> t = square_table([[5, 1], [3, 7]], ["pass", "fail"])
    >>> t.k, t.n, t.rows, t.columns
    (2, 16, (6, 10), (8, 8))
    >>> square_table([[1, 2, 3], [4, 5, 6]])
    Traceback (most recent call last):
    ...
    calculator.errors.CalculatorError: `table` must be a square table of counts with 2 to 10 \
categories (k rows of k counts), but got 2 rows of 3 counts.
    """
    if isinstance(counts, SquareTable):
        counts = counts.counts
    rows = _rows(counts)
    k = len(rows)
    if k > MAX_CATEGORIES or k < 2 or any(len(row) != k for row in rows):
        raise CalculatorError(f"`table` must be {_ALLOWED}, but got {_shape(rows)}.")
    checked = tuple(
        tuple(
            check_count(value, f"table row {i + 1}, column {j + 1}") for j, value in enumerate(row)
        )
        for i, row in enumerate(rows)
    )
    return SquareTable(counts=checked, labels=_labels(labels, k))


def parse_counts(text: str, name: str = "table") -> list[list[object]]:
    """Counts written as text: rows split at ";" or line breaks, counts at spaces or commas.

    A count is returned as an int, or as a float when it is a decimal number (for
    :func:`square_table` to refuse by name); any other word is refused here, `name` naming
    the input.

    Examples
    --------
    >>> parse_counts("5 1; 2,7")
    [[5, 1], [2, 7]]
    >>> parse_counts("5 x; 2 7", "--table")
    Traceback (most recent call last):
    ...
    calculator.errors.CalculatorError: `--table` must hold whole-number counts, rows separated \
by ';', but got 'x'.
    """
    rows = [row for row in text.replace("\n", ";").split(";") if row.strip()]
    return [[_cell(cell, name) for cell in row.replace(",", " ").split()] for row in rows]


def _cell(cell: str, name: str) -> object:
    try:
        return int(cell)
    except ValueError:
        pass
    try:
        return float(cell)
    except ValueError:
        raise CalculatorError(
            f"`{name}` must hold whole-number counts, rows separated by ';', but got "
            f"{clip(cell, 40)!r}."
        ) from None


def _shape(rows: list[list[object]]) -> str:
    """ "3 rows of 2 counts", or "2 rows of 3, 2 counts" when the rows differ."""
    if not rows:
        return "no rows"
    sizes = {len(row) for row in rows}
    if len(sizes) == 1:
        size = sizes.pop()
        return f"{plural(len(rows), 'row')} of {plural(size, 'count')}"
    lengths = ", ".join(str(len(row)) for row in rows[:12]) + (", ..." if len(rows) > 12 else "")
    return f"{plural(len(rows), 'row')} of {lengths} counts"


def _rows(counts: object) -> list[list[object]]:
    """The rows of `counts` as lists, or a refusal naming what was given."""
    if isinstance(counts, str | bytes) or not isinstance(counts, Sequence):
        try:
            counts = list(counts)  # a numpy array or another iterable of rows
        except TypeError:
            raise CalculatorTypeError(
                f"`table` must be {_ALLOWED}, but got {shown(counts)}."
            ) from None
    rows = []
    for row in counts:
        if isinstance(row, str | bytes):
            raise CalculatorTypeError(f"`table` must be {_ALLOWED}, but got a row {shown(row)}.")
        try:
            rows.append(list(row))
        except TypeError:
            raise CalculatorTypeError(
                f"`table` must be {_ALLOWED}, but got a row {shown(row)}."
            ) from None
    return rows


def _labels(labels: Sequence[str] | None, k: int) -> tuple[str, ...]:
    if labels is None:
        return tuple(str(i + 1) for i in range(k))
    names = tuple(labels) if not isinstance(labels, str) else (labels,)
    if (
        len(names) != k
        or not all(isinstance(name, str) and name.strip() for name in names)
        or len(set(names)) != k
    ):
        raise CalculatorError(
            f"`labels` must be {k} distinct, non-blank names, one for each category, "
            f"but got {shown(list(names))}."
        )
    return names


def table_from_labels(
    a: Sequence[str], b: Sequence[str], categories: Sequence[str] | None = None
) -> SquareTable:
    """The table of two systems' labels on the same cases (`a[i]` and `b[i]` for case i).

    The categories are `categories` in their order (for ordered outcomes), or else every label
    either system gives, sorted. A label that only one system gives is a category all the
    same, with a zero total for the other system: that system never chose it, which is itself
    a difference between the margins, and dropping its cases would hide it.

    Raises
    ------
    CalculatorError
        If the sequences differ in length, a label is blank, `categories` misses a label or
        repeats one, or there are fewer than 2 or more than :data:`MAX_CATEGORIES` categories.

    Examples
    --------
    >>> t = table_from_labels(["x", "y", "y"], ["x", "x", "z"])
    >>> t.labels, t.counts
    (('x', 'y', 'z'), ((1, 0, 0), (1, 0, 1), (0, 0, 0)))
    """
    if len(a) != len(b):
        raise CalculatorError(
            f"`a` and `b` must hold one label for each case, so the same number, "
            f"but got {len(a):,} and {len(b):,}."
        )
    seen = sorted(set(a) | set(b), key=str)
    blank = [label for label in seen if not isinstance(label, str) or not label.strip()]
    if blank:
        raise CalculatorError(f"every label must be a non-blank text, but got {shown(blank[0])}.")
    order = list(categories) if categories is not None else seen
    missing = [label for label in seen if label not in order]
    if missing:
        raise CalculatorError(
            f"`categories` must list every label the systems give, but got {shown(order)}, "
            f"which leaves out {shown(missing[:5])}."
        )
    if len(order) > MAX_CATEGORIES or len(order) < 2:
        raise CalculatorError(
            f"the labels must form 2 to {MAX_CATEGORIES} categories, but got {len(order)}: "
            f"{shown(order)}."
        )
    index = {label: i for i, label in enumerate(order)}
    counts = [[0] * len(order) for _ in order]
    for first, second in zip(a, b, strict=True):
        counts[index[first]][index[second]] += 1
    return square_table(counts, order)
