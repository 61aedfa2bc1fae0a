"""Paired k x k tables: two systems' graded or multi-class outcomes on the same cases.

- :mod:`calculator.square.table`: the table and its checks (:func:`square_table`,
  :func:`table_from_labels`).
- :mod:`calculator.square.homogeneity`: Bowker's test of symmetry, the Stuart-Maxwell and
  Bhapkar tests of marginal homogeneity, the score test of mean scores for ordered categories.
- :mod:`calculator.square.categories`: each category against the rest, Holm adjusted.
- :mod:`calculator.report.square`: the sentences.

Examples
--------
>>> r = analyze_square([[596, 18, 6, 5], [0, 2, 0, 0], [0, 0, 42, 0], [11, 0, 0, 0]])
>>> round(r.bowker.statistic, 3), r.bowker.df, round(r.stuart_maxwell.pvalue, 6)
(26.25, 6, 8e-06)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from calculator._validation import check_choice, check_probability
from calculator.errors import CalculatorTypeError
from calculator.square.categories import CategoryComparison, compare_categories
from calculator.square.homogeneity import (
    EMPTY_PAIRS,
    ChiSquareTest,
    MeanScoreTest,
    bhapkar,
    bowker,
    mean_score_test,
    stuart_maxwell,
)
from calculator.square.table import MAX_CATEGORIES, SquareTable, square_table, table_from_labels

__all__ = [
    "EMPTY_PAIRS",
    "MAX_CATEGORIES",
    "CategoryComparison",
    "ChiSquareTest",
    "MeanScoreTest",
    "SquareAnalysis",
    "SquareTable",
    "analyze_square",
    "bhapkar",
    "bowker",
    "compare_categories",
    "mean_score_test",
    "square_table",
    "stuart_maxwell",
    "table_from_labels",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class SquareAnalysis:
    """Every result for one paired k x k table (numbers only; the words are in
    :mod:`calculator.report.square`).

    Attributes
    ----------
    table : SquareTable
    empty_pairs : str
        Bowker's convention for the degrees of freedom, "every-pair" or "non-empty".
    bowker, stuart_maxwell, bhapkar : ChiSquareTest
    ordinal : MeanScoreTest or None
        The score test of mean scores, only for ordered categories.
    categories : tuple of CategoryComparison
        Each category against the rest, in the table's order.
    level : float
        Confidence level of the intervals.
    """

    table: SquareTable
    empty_pairs: str
    bowker: ChiSquareTest
    stuart_maxwell: ChiSquareTest
    bhapkar: ChiSquareTest
    ordinal: MeanScoreTest | None
    categories: tuple[CategoryComparison, ...]
    level: float

    def to_dict(self) -> dict[str, object]:
        return {
            "table": self.table.to_dict(),
            "n": self.table.n,
            "empty_pairs": self.empty_pairs,
            "bowker": self.bowker.to_dict(),
            "stuart_maxwell": self.stuart_maxwell.to_dict(),
            "bhapkar": self.bhapkar.to_dict(),
            "ordinal": None if self.ordinal is None else self.ordinal.to_dict(),
            "categories": [category.to_dict() for category in self.categories],
            "level": self.level,
        }


def analyze_square(
    table: object,
    labels: Sequence[str] | None = None,
    *,
    empty_pairs: str = "every-pair",
    ordered: bool = False,
    scores: Sequence[float] | None = None,
    level: float = 0.95,
) -> SquareAnalysis:
    """Analyse a paired k x k table: symmetry, marginal homogeneity, each category.

    Parameters
    ----------
    table : SquareTable or sequence of sequences of int
        Rows for A's category, columns for B's; 2 to :data:`MAX_CATEGORIES` categories.
    labels : sequence of str, optional
        The categories' names when `table` is counts.
    empty_pairs : {"every-pair", "non-empty"}
        Bowker's degrees of freedom: every pair of categories, or only pairs with a
        discordant case (see :func:`calculator.square.homogeneity.bowker`).
    ordered : bool
        The categories are ordered (in the table's order): add the score test of mean scores.
    scores : sequence of float, optional
        Scores for the ordered categories (1, ..., k by default); giving them implies
        `ordered`.
    level : float
        Confidence level of the intervals (0.95).

    Returns
    -------
    SquareAnalysis
    """
    if not isinstance(ordered, bool):
        raise CalculatorTypeError(f"`ordered` must be True or False, but got {ordered!r}.")
    check_choice(empty_pairs, "empty_pairs", EMPTY_PAIRS)
    level = check_probability(level, "level")
    if not isinstance(table, SquareTable) or labels is not None:
        table = square_table(table, labels if labels is not None else _labels_of(table))
    ordinal = None
    if ordered or scores is not None:
        ordinal = mean_score_test(table, scores, level=level)
    return SquareAnalysis(
        table=table,
        empty_pairs=empty_pairs,
        bowker=bowker(table, empty_pairs=empty_pairs),
        stuart_maxwell=stuart_maxwell(table),
        bhapkar=bhapkar(table),
        ordinal=ordinal,
        categories=compare_categories(table, level=level),
        level=level,
    )


def _labels_of(table: object) -> tuple[str, ...] | None:
    return table.labels if isinstance(table, SquareTable) else None
