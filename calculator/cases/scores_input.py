"""Per-case scores from case files: which outcome columns hold scores, and the paired scores.

A numeric outcome column with a value other than 0 and 1 (BLEU, token F1, a judge's 0 to 1 grade)
holds scores: without a threshold the cases are compared by their mean score
(:func:`calculator.compare_scores`) instead of being cut into pass/fail. The rows are read,
validated and paired by :func:`~calculator.cases.load_cases`, so the ids, the exclusions and
their counts are the same as for pass/fail outcomes.

A column whose values are two-element lists (lm-evaluation-harness logs ``[gold, prediction]``
for corpus-level metrics such as corpus BLEU or span F1) is refused: such a metric is computed
over all cases at once and cannot be split into per-case scores.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.bulk import SCORES, bulk_reading, files_reading, require_clear
from calculator.errors import CalculatorError

if TYPE_CHECKING:
    import pandas as pd

    from calculator.cases import CaseFile, PairedCases
    from calculator.scores import ScoresComparison

__all__ = [
    "choose_score_columns",
    "compare_case_scores",
    "corpus_metric_columns",
    "guess_threshold_columns",
    "holds_scores",
    "load_score_cases",
    "paired_scores_of",
    "scores_source",
]

_INSPECTED_ROWS = 1000  # rows looked at to tell scores and [gold, pred] pairs


def holds_scores(values: pd.Series) -> bool:
    """True when the bulk of the column reads as scores (:func:`calculator.cases.bulk.
    bulk_reading`: finite numbers keep more of its rows than pass/fail spellings do).

    Examples
    --------
    >>> import pandas as pd
    >>> holds_scores(pd.Series([0, 0.5, 1])), holds_scores(pd.Series([0, 1, None]))
    (True, False)
    >>> holds_scores(pd.Series(["pass", "fail"])), holds_scores(pd.Series([True, False]))
    (False, False)
    >>> holds_scores(pd.Series(["pass"] * 9 + ["0.5"]))  # the bulk: pass/fail
    False
    """
    if values.head(_INSPECTED_ROWS).map(lambda v: isinstance(v, list | dict | tuple)).any():
        return False
    return bulk_reading([[values]]).kind == SCORES


def corpus_metric_columns(frame: pd.DataFrame) -> list[str]:
    """Columns whose first values are two-element lists: lm-eval's [gold, pred] rows."""
    head = frame.head(_INSPECTED_ROWS)
    found = []
    for column in frame.columns:
        present = head[column].dropna()
        if len(present) and present.map(lambda v: isinstance(v, list) and len(v) == 2).all():
            found.append(column)
    return found


def _refuse_corpus_metric(case_file: CaseFile, column: str | None) -> None:
    if column is None or column not in case_file.frame.columns:
        return  # the loader says what is missing
    if corpus_metric_columns(case_file.frame[[column]]):
        raise CalculatorError(
            f"{case_file.name}: {column!r} holds [gold, prediction] pairs, the rows of a "
            "corpus-level metric (corpus BLEU, span F1) computed over all cases at once; it "
            "cannot be split into per-case scores, so it cannot be compared case by case."
        )


def choose_score_columns(
    first: CaseFile,
    second: CaseFile | None = None,
    *,
    a_column: str | None = None,
    b_column: str | None = None,
    id_column: str | None = None,
    group_column: str | None = None,
) -> tuple[str, str] | None:
    """A's and B's score columns, or None when the outcomes are to be read as pass/fail.

    The outcomes are scores when a named column holds scores (:func:`holds_scores`); a column
    left unnamed is then guessed among the score columns. With no column named they are scores
    only when pass/fail columns cannot be guessed (as :func:`load_cases` guesses them) and
    score columns can, so that a file the loader reads as pass/fail is read as before.

    Raises
    ------
    CalculatorError
        When a chosen column holds [gold, prediction] pairs (a corpus-level metric), or when
        no column can be guessed and some column holds such pairs.
    """
    files = (first, first if second is None else second)
    named = [a_column, b_column]
    for case_file, column in zip(files, named, strict=True):
        _refuse_corpus_metric(case_file, column)
    present = [c is not None and c in f.frame.columns for f, c in zip(files, named, strict=True)]
    if all(present):  # both named: their rows together follow one reading
        return _by_bulk(files, (a_column, b_column))
    scored = [p and holds_scores(f.frame[c]) for f, c, p in zip(files, named, present, strict=True)]
    if any(c is not None for c in named) and not any(scored):
        return None  # a named pass/fail column (or a missing one, which the loader reports)
    taken = {id_column, group_column}
    if not any(scored):
        guessed = _guess(files, named, taken, "outcomes")
        if guessed is not None:  # the loader's own guess: pass/fail columns, if clear
            return _by_bulk(files, guessed)
    chosen = _guess(files, named, taken, "scores")
    if chosen is None:
        for case_file in files:
            pairs = corpus_metric_columns(case_file.frame)
            if pairs:
                _refuse_corpus_metric(case_file, pairs[0])
        return None
    return _by_bulk(files, chosen)


def _by_bulk(files: tuple[CaseFile, CaseFile], columns: tuple[str, str]) -> tuple[str, str] | None:
    """`columns` when the bulk of their rows reads as scores, None when as pass/fail; stopped
    when no reading keeps 95% of them (:mod:`calculator.cases.bulk`)."""
    if files[0] is files[1]:
        read, columns_read = files[:1], [list(columns)]
    else:
        read, columns_read = files, [[columns[0]], [columns[1]]]
    reading = files_reading(read, columns_read)
    require_clear(reading, read, columns_read)
    return columns if reading.kind == SCORES else None


def guess_threshold_columns(
    first: CaseFile,
    second: CaseFile | None = None,
    *,
    a_column: str | None = None,
    b_column: str | None = None,
    id_column: str | None = None,
    group_column: str | None = None,
) -> tuple[str, str] | None:
    """The columns a threshold cuts when some are not named: the loader's pass/fail guess when
    it succeeds (None: nothing to add), else score columns; None when neither can be guessed."""
    files = (first, first if second is None else second)
    named = [a_column, b_column]
    taken = {id_column, group_column}
    if _guess(files, named, taken, "outcomes") is not None:
        return None
    return _guess(files, named, taken, "scores")


def _guess(
    files: tuple[CaseFile, CaseFile],
    named: list[str | None],
    taken: set[str | None],
    kind: str,
) -> tuple[str, str] | None:
    """The named columns, the others filled with free columns of `kind` ("outcomes": pass/fail,
    "scores"); None when one cannot be filled."""
    from calculator.cases import guess_columns

    chosen = list(named)
    for index, case_file in enumerate(files):
        if chosen[index] is not None:
            continue
        guess = guess_columns(case_file.frame)
        used = {*taken, guess.id_column}
        if files[0] is files[1]:  # one file holds both columns: the other one is taken
            used.update(chosen)
        if kind == "outcomes":
            candidates = list(guess.outcome_columns)
        else:
            head = case_file.frame.head(_INSPECTED_ROWS)
            text_scores = [  # numbers read as text because of a stray word ("n/a", "error")
                c for c in head.columns if c not in guess.score_columns and holds_scores(head[c])
            ]
            candidates = [*guess.score_columns, *text_scores]
        free = [c for c in candidates if c not in used]
        if not free:
            return None
        if kind == "scores":
            _refuse_ambiguous_scores(case_file, free, chosen, index, files[0] is files[1])
        chosen[index] = free[0]
    return chosen[0], chosen[1]


def _refuse_ambiguous_scores(
    case_file: CaseFile, free: list[str], chosen: list[str | None], index: int, one_file: bool
) -> None:
    """Refuse to guess among more score columns than there are columns to fill: the first one
    was taken, so a word count was compared as "the score" beside the BLEU column."""
    needed = chosen[index:].count(None) if one_file else 1
    if len(free) <= needed:
        return
    listed = ", ".join(repr(c) for c in free[:12]) + (", ..." if len(free) > 12 else "")
    if one_file and needed == 2:
        what, option = "columns hold A's and B's scores", "name them (--a and --b"
    else:
        role = "AB"[index]
        what, option = f"column holds {role}'s scores", f"name it (--{role.lower()}"
    raise CalculatorError(
        f"{case_file.name}: cannot tell which {what}: {len(free)} columns hold numbers "
        f"({listed}); {option} on the command line)."
    )


def load_score_cases(
    first: CaseFile,
    second: CaseFile | None,
    columns: tuple[str, str],
    *,
    id_column: str | None = None,
    group_column: str | None = None,
    names: tuple[str, str] | None = None,
) -> PairedCases:
    """The cases with finite scores in both columns, paired and validated by load_cases.

    Every finite number is a usable score; missing ones are excluded as missing values, text
    and infinite ones as unparseable outcomes, each counted. The result's ``threshold`` is
    None and its pass/fail table means nothing: read the scores with :func:`paired_scores_of`.
    """
    from calculator.cases import load_cases

    cases = load_cases(
        first,
        second,
        id_column=id_column,
        a_column=columns[0],
        b_column=columns[1],
        group_column=group_column,
        names=names,
        threshold=0.0,  # any finite cut: it only makes every finite number a valid outcome
    )
    # The loader words its findings for the cut it was given; here no cut is made.
    cut = "numbers (scores at or above 0 pass)"
    issues = tuple(
        dataclasses.replace(issue, message=issue.message.replace(cut, "finite numbers (scores)"))
        for issue in cases.issues
    )
    return dataclasses.replace(cases, threshold=None, issues=issues)


def paired_scores_of(cases: PairedCases) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """A's scores, B's scores and the cluster labels (None without) of the cases used.

    The cases' frame holds the id, then A's and B's outcome columns as read.
    """

    frame = cases.cases
    a, b = (_numbers(frame.iloc[:, position]) for position in (1, 2))
    clusters = None
    if cases.group_column is not None:
        clusters = frame[cases.group_column].astype("str").to_numpy(dtype=object)
    return a, b, clusters


def scores_source(cases: PairedCases) -> str:
    """The file(s) and the columns compared, as the report's input line and the refusals name
    them: ``a.csv (A = 'old', B = 'new', id = 'id')``."""
    columns = f"A = {cases.outcome_columns[0]!r}, B = {cases.outcome_columns[1]!r}"
    if cases.id_column:
        columns += f", id = {cases.id_column!r}"
    return f"{' + '.join(cases.files)} ({columns})"


def compare_case_scores(
    cases: PairedCases,
    scores: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None,
    **options: object,
) -> ScoresComparison:
    """:func:`calculator.compare_scores` of the cases' scores (`scores`, when already read
    with :func:`paired_scores_of`), with the systems' names; `options` are its own.

    Raises
    ------
    CalculatorError
        Its refusals (scores too large to compute with, say), led by the file(s) and the
        columns (:func:`scores_source`), as the loader's refusals name them.
    """
    from calculator.scores import compare_scores

    a, b, clusters = paired_scores_of(cases) if scores is None else scores
    try:
        return compare_scores(a, b, clusters=clusters, names=cases.names, **options)
    except CalculatorError as error:  # a refusal of these scores: say whose
        raise CalculatorError(f"{scores_source(cases)}: {error}") from None


def _numbers(values: pd.Series) -> np.ndarray:
    """A column's values as floats, text trimmed first (as the loader reads it)."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(values.dtype):  # bool included: True is 1
        return values.to_numpy(dtype=np.float64, na_value=np.nan)
    text = values.astype("str").str.strip()
    return pd.to_numeric(text, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
