"""Which reading of the outcome columns follows their bulk: pass/fail or scores (issue #31).

One rule for every reader that is not told how to read outcomes (no threshold): the two-system
reader, on one file or two (:func:`calculator.cases.scores_input.choose_score_columns`, behind
``cases`` and the page), the k-system reader (:func:`calculator.cases.multi.load_systems`,
behind ``compare``, wide or long) and the long files read as logs
(:mod:`calculator.logs.long_file`).

The outcome columns are read **together** (A's and B's, or the k systems'): one reading serves
the whole comparison, as a pass/fail A is never compared with a scored B. Each row holding some
outcome value (an empty value is missing, counted apart as before) is kept by

- the pass/fail reading when every value it holds is a spelling
  :func:`~calculator.cases.outcomes.parse_outcomes` reads (0 and 1 included);
- the scores reading when every value it holds is a finite number (0 and 1 included).

The reading that keeps more rows is chosen, pass/fail on a tie (a column of 0 and 1 only is
pass/fail). When it keeps at least :data:`MIN_SHARE` of the rows, the other rows are excluded by
the ledger, each with its line ("not read as a pass/fail outcome", "not a number"); when it keeps
fewer, :func:`require_clear` stops with both readings' counts and what to do. Categories
(``--categories``, :mod:`calculator.cases.labels`) are never guessed: any label is a category, so
that reading is taken only when asked for, and it is not counted here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import cell_text
from calculator.cases.outcomes import parse_outcomes
from calculator.errors import CalculatorError
from calculator.text import clip, plural

if TYPE_CHECKING:
    import pandas as pd

    from calculator.cases.reading import CaseFile

__all__ = [
    "MIN_SHARE",
    "PASS_FAIL",
    "SCORES",
    "BulkReading",
    "bulk_reading",
    "files_reading",
    "require_clear",
    "require_pass_fail",
]

PASS_FAIL = "pass_fail"
SCORES = "scores"
#: The share of the rows holding an outcome that the chosen reading must keep.
MIN_SHARE = 0.95


#: Where a row left out by a reading is: the file's index, the row's position, the column's index.
Place = tuple[int, int, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class BulkReading:
    """The rows holding an outcome, how many each reading keeps, and the first row each
    reading leaves out (None: none).

    Examples
    --------
    >>> import pandas as pd
    >>> reading = bulk_reading([[pd.Series(["pass"] * 19 + ["0.5"]), pd.Series([1] * 20)]])
    >>> reading.kind, reading.rows, reading.pass_fail, reading.scores, reading.clear
    ('pass_fail', 20, 19, 1, True)
    >>> reading.first_left_out
    (0, 19, 0)
    """

    rows: int
    pass_fail: int
    scores: int
    first_not_pass_fail: Place | None = None
    first_not_number: Place | None = None

    @property
    def kind(self) -> str:
        """The reading keeping more rows: :data:`SCORES`, or :data:`PASS_FAIL` (on a tie too)."""
        return SCORES if self.scores > self.pass_fail else PASS_FAIL

    @property
    def kept(self) -> int:
        """The rows the chosen reading keeps."""
        return max(self.pass_fail, self.scores)

    @property
    def first_left_out(self) -> Place | None:
        """The first row the chosen reading leaves out."""
        return self.first_not_number if self.kind == SCORES else self.first_not_pass_fail

    @property
    def clear(self) -> bool:
        """Whether the chosen reading keeps at least :data:`MIN_SHARE` of the rows (an empty
        column is clear: nothing is excluded for its reading)."""
        return self.kept >= MIN_SHARE * self.rows


def bulk_reading(files: Sequence[Sequence[pd.Series]]) -> BulkReading:
    """Count the rows each reading keeps; `files` holds, per file, its outcome columns (one
    row per case, or per case and system).

    Examples
    --------
    >>> import pandas as pd
    >>> bulk_reading([[pd.Series([0, 1, 1, None])]]).kind
    'pass_fail'
    >>> reading = bulk_reading([[pd.Series(["0.83", "yes"])], [pd.Series([0.5, ""])]])
    >>> reading.kind, reading.rows, reading.pass_fail, reading.scores, reading.first_left_out
    ('scores', 3, 1, 2, (0, 1, 0))
    """
    rows = pass_fail = scores = 0
    first: list[Place | None] = [None, None]
    for index, columns in enumerate(files):
        if not columns:
            continue
        present = np.zeros(len(columns[0]), dtype=bool)
        out = np.zeros((2, len(columns[0])), dtype=np.int64)  # 1 + the first column failing
        for j, values in enumerate(columns):
            as_words = parse_outcomes(values)
            as_numbers = parse_outcomes(values, threshold=0.0)
            present |= ~as_words.missing
            for reading, parsed in enumerate((as_words, as_numbers)):
                out[reading][(out[reading] == 0) & parsed.unparseable] = j + 1
        rows += int(np.count_nonzero(present))
        pass_fail += int(np.count_nonzero(present & (out[0] == 0)))
        scores += int(np.count_nonzero(present & (out[1] == 0)))
        for reading in (0, 1):
            where = np.flatnonzero(out[reading])
            if first[reading] is None and where.size:
                position = int(where[0])
                first[reading] = (index, position, int(out[reading][position]) - 1)
    return BulkReading(
        rows=rows,
        pass_fail=pass_fail,
        scores=scores,
        first_not_pass_fail=first[0],
        first_not_number=first[1],
    )


def files_reading(files: Sequence[CaseFile], columns: Sequence[Sequence[str]]) -> BulkReading:
    """:func:`bulk_reading` of each file's outcome `columns`."""
    return bulk_reading([[f.frame[c] for c in cs] for f, cs in zip(files, columns, strict=True)])


def require_clear(
    reading: BulkReading, files: Sequence[CaseFile], columns: Sequence[Sequence[str]]
) -> None:
    """Stop when neither reading keeps :data:`MIN_SHARE` of the rows, naming the files, the
    columns and the first line the chosen reading leaves out (`files` and `columns` as read by
    :func:`bulk_reading`).

    Examples
    --------
    >>> import pandas as pd
    >>> from calculator.cases.reading import read_case_file
    >>> case_file = read_case_file(b"a\\npass\\n0.4\\nfail\\n0.2\\n", name="r.csv")
    >>> reading = bulk_reading([[case_file.frame["a"]]])
    >>> require_clear(reading, [case_file], [["a"]])
    ... # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    calculator.errors.CalculatorError: r.csv ('a'): no one reading keeps 95% of the rows: 2 of 4
    rows read as pass/fail, 2 as numbers (scores); the first row not read as pass/fail: line 3,
    'a' = '0.4'; clean the column(s) to one kind, or set a threshold ...
    """
    if reading.clear:
        return
    raise CalculatorError(
        f"{where(files, columns)}: no one reading keeps {MIN_SHARE:.0%} of the rows: "
        f"{reading.pass_fail:,} of {plural(reading.rows, 'row')} read as pass/fail, "
        f"{reading.scores:,} as numbers (scores){_first(reading, files, columns)}; clean the "
        "column(s) to one kind, or set a threshold (--threshold X on the command line) to read "
        "the numbers as scores that pass at X or above"
    )


def require_pass_fail(
    reading: BulkReading, files: Sequence[CaseFile], columns: Sequence[Sequence[str]]
) -> None:
    """For a reader that compares pass/fail only (k systems): stop when the bulk is scores,
    saying to set a threshold, or when no reading is clear (:func:`require_clear`)."""
    require_clear(reading, files, columns)
    if reading.kind == SCORES:
        raise CalculatorError(
            f"{where(files, columns)}: the outcomes are scores ({reading.scores:,} of "
            f"{plural(reading.rows, 'row')} are numbers, {reading.pass_fail:,} read as "
            "pass/fail); several systems are compared on pass/fail outcomes: set a threshold "
            "(--threshold X on the command line) to count a score at X or above as a pass"
        )


def where(files: Sequence[CaseFile], columns: Sequence[Sequence[str]]) -> str:
    """ "a.csv ('x' and 'y')": the files and the outcome columns read (the first four files)."""
    named = [
        f"{case_file.name} ({', '.join(repr(c) for c in cs[:12])}{', ...' if len(cs) > 12 else ''})"
        for case_file, cs in zip(files[:4], columns, strict=False)
    ]
    return " + ".join(named) + (" + ..." if len(files) > 4 else "")


def _first(
    reading: BulkReading, files: Sequence[CaseFile], columns: Sequence[Sequence[str]]
) -> str:
    """ "; the first row not read as pass/fail: line 3, 'a' = '0.4'" (empty when none)."""
    place = reading.first_left_out
    if place is None:
        return ""
    index, position, j = place
    case_file, column = files[index], columns[index][j]
    line = case_file.line_of(position)
    at = f"line {line}" if line is not None else f"row {case_file.frame.index[position]}"
    value = clip(repr(cell_text(case_file.frame[column].iloc[position])), 40)
    what = "a number" if reading.kind == SCORES else "read as pass/fail"
    return f"; the first row not {what}: {at}, {column!r} = {value}"
