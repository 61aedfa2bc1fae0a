"""Guessing the id column and the outcome columns of a file when they are obvious.

:func:`guess_outcomes` is the one guess every reading uses (two systems or several, the command
line and the page): the id, then the outcome columns not taken by another role, and the columns
left over, which say whether a guess of the systems would be a guess at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from calculator.cases.bulk import PASS_FAIL, bulk_reading

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ColumnGuess", "OutcomeGuess", "guess_columns", "guess_outcomes", "is_bookkeeping"]

_ID_NAMES = (
    "doc_id",
    "id",
    "case_id",
    "sample_id",
    "example_id",
    "item_id",
    "question_id",
    "task_id",
    "instance_id",
    "uid",
    "idx",
)
_OUTCOME_NAMES = (
    "exact_match",
    "acc",
    "accuracy",
    "correct",
    "is_correct",
    "pass",
    "passed",
    "em",
    "outcome",
    "result",
    "score",
)
_GUESS_ROWS = 1000  # rows inspected when guessing columns
# A column holding one value in every one of at least this many rows is not an outcome on its
# own (a log's max_prob = 1, a repeat number); over fewer rows a real outcome is often constant.
_CONSTANT_ROWS = 10
# Bookkeeping fields of evaluation logs (repeat numbers, positions, ids, counts, sizes, timings,
# costs): never an outcome, even when they hold only 0 and 1.
_BOOKKEEPING = re.compile(
    r"(^|[._\s])(epochs?|index|idx|ids?|uuid|hash|seed|trials?|retries|attempts?|counts?|num|n|"
    r"sizes?|length|len|bytes|tokens?|time|times|seconds|secs?|ms|duration|latency|runtime|"
    r"timestamp|created|started|completed|cost|co2|energy|truncated|finish_reason)([._\s]|$)"
    r"|^(n|num|total)_|_(index|idx|id|count|size|tokens|time|seconds|ms|bytes|cost)$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ColumnGuess:
    """Columns that look like an id, pass/fail outcomes, or numeric scores (best first)."""

    id_column: str | None
    outcome_columns: tuple[str, ...]
    score_columns: tuple[str, ...]


def guess_columns(frame: pd.DataFrame) -> ColumnGuess:
    """Guess the id column and the outcome columns of a file when they are obvious.

    An id column has a usual id name (``doc_id``, ``id``, ``case_id``...) or ends in "_id".
    The bulk of an outcome column's first rows reads as pass/fail without a threshold
    (:func:`~calculator.cases.bulk.bulk_reading`, at least 95% of them); columns with
    usual metric names (``exact_match``, ``acc``, ``correct``...) come first. Score columns are
    numeric columns that are not outcomes (they need a threshold). A bookkeeping field
    (:func:`is_bookkeeping`: an epoch, an index, an id, a count, a size, a timing) is never
    proposed, nor a column holding one value in every row (of ten rows or more) on its own: such
    a column is an outcome only beside one that varies (a system that passes every case), and
    never a score.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"doc_id": [1, 2], "f1": [0.3, 0.9], "acc": [1.0, 0.0],
    ...                       "new": ["pass", "fail"]})
    >>> guess_columns(frame)
    ColumnGuess(id_column='doc_id', outcome_columns=('acc', 'new'), score_columns=('f1',))
    """
    import pandas as pd

    head = frame.head(_GUESS_ROWS)
    lowered = {column.lower(): column for column in frame.columns}
    id_column = next((lowered[name] for name in _ID_NAMES if name in lowered), None)
    if id_column is None:
        id_column = next((c for c in frame.columns if _looks_like_id(c)), None)
    outcomes, scores, constant = [], [], []
    for column in frame.columns:
        if column == id_column or is_bookkeeping(column):
            continue
        values = head[column]
        if values.map(lambda v: isinstance(v, list | dict)).any():
            continue
        fixed = len(frame) >= _CONSTANT_ROWS and _constant(frame[column])
        reading = bulk_reading([[values]])  # the bulk of the first rows decides
        if reading.rows and reading.kind == PASS_FAIL and reading.clear:
            outcomes.append(column)
            if fixed:
                constant.append(column)
        elif fixed:
            continue  # one value in every row: not a score to set a threshold on
        elif pd.api.types.is_numeric_dtype(values.dtype) and reading.rows:
            scores.append(column)
    if len(constant) == len(outcomes):  # only a system passing (or failing) every case beside
        outcomes = []  # one that does not: never constant columns on their own
    outcomes.sort(key=_rank)  # stable: file order among equals
    return ColumnGuess(
        id_column=id_column, outcome_columns=tuple(outcomes), score_columns=tuple(scores)
    )


def _constant(values: pd.Series) -> bool:
    try:
        return values.nunique(dropna=True) <= 1
    except TypeError:  # unhashable cells further down (lists): not a plain outcome either
        return True


def is_bookkeeping(column: str) -> bool:
    """Whether a column or metric name is a log's bookkeeping field, never an outcome.

    Examples
    --------
    >>> [is_bookkeeping(c) for c in ("epoch", "train_trial_index", "num_output_tokens",
    ...                              "inference_runtime", "sample_id", "acc", "exact_match@5")]
    [True, True, True, True, True, False, False]
    """
    return bool(_BOOKKEEPING.search(str(column).strip()))


def _rank(column: str) -> int:
    name = column.lower().split(".")[-1]
    return _OUTCOME_NAMES.index(name) if name in _OUTCOME_NAMES else len(_OUTCOME_NAMES)


def _looks_like_id(column: str) -> bool:
    name = column.strip().lower()
    return name in _ID_NAMES or name.endswith("_id")


@dataclass(frozen=True, slots=True, kw_only=True)
class OutcomeGuess:
    """The columns of one file, sorted by the role they may play.

    Attributes
    ----------
    id_column : str or None
        The id column given, else the one guessed (None: none, or rows numbered).
    outcome_columns : tuple of str
        Columns free for outcomes, best first: those that read as pass/fail, then, with a
        threshold, the numeric score columns.
    score_columns : tuple of str
        The numeric columns among `outcome_columns` that read as pass/fail only with a threshold.
    other_columns : tuple of str
        The remaining columns: neither an id (the one used, or one named like an id), nor
        taken, nor outcomes.
    """

    id_column: str | None
    outcome_columns: tuple[str, ...]
    score_columns: tuple[str, ...]
    other_columns: tuple[str, ...]

    @property
    def only_outcomes(self) -> bool:
        """True when every column besides the id and those taken reads as pass/fail: taking
        them all as systems then guesses nothing (no feature, score or note beside them)."""
        return not self.other_columns and not self.score_columns


def guess_outcomes(
    frame: pd.DataFrame,
    *,
    id_column: str | None = None,
    taken: tuple[str | None, ...] = (),
    threshold: float | None = None,
    guess_id: bool = True,
) -> OutcomeGuess:
    """The id and the outcome columns of `frame`, as every reader and the page guess them.

    Parameters
    ----------
    frame : pandas.DataFrame
        The file's rows.
    id_column : str, optional
        The id column when chosen; else guessed (:func:`guess_columns`) unless `guess_id` is
        False (rows numbered).
    taken : tuple of str
        Columns with another role (a group, a system column, outcomes already chosen).
    threshold : float, optional
        With a threshold, numeric score columns are outcome columns too (after the pass/fail
        ones).
    guess_id : bool
        Whether to guess the id when `id_column` is None.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"doc_id": [1, 2], "hard": [0, 1], "a": ["pass", "fail"],
    ...                       "f1": [0.3, 0.9], "note": ["x", "y"]})
    >>> guess = guess_outcomes(frame)
    >>> guess.id_column, guess.outcome_columns, guess.other_columns, guess.only_outcomes
    ('doc_id', ('hard', 'a'), ('f1', 'note'), False)
    >>> guess_outcomes(frame, taken=("note",), threshold=0.5).outcome_columns
    ('hard', 'a', 'f1')
    """
    guess = guess_columns(frame)
    if id_column is None and guess_id and guess.id_column not in taken:
        id_column = guess.id_column
    skip = {column for column in (id_column, *taken) if column is not None}
    outcomes = tuple(c for c in guess.outcome_columns if c not in skip)
    scores = tuple(c for c in guess.score_columns if c not in skip) if threshold is not None else ()
    known = set(outcomes) | set(scores) | {guess.id_column}  # an id-like column is no feature
    return OutcomeGuess(
        id_column=id_column,
        outcome_columns=outcomes + scores,
        score_columns=scores,
        other_columns=tuple(c for c in frame.columns if c not in skip and c not in known),
    )
