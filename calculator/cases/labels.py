"""Categorical outcomes from a per-case file: each case's two labels, read as ``cases`` reads
pass/fail outcomes.

:func:`read_labels` reads the file with :func:`~calculator.cases.reading.read_case_file` (CSV,
TSV, JSON Lines or Parquet; its encodings, malformed lines and size checks), and leaves rows out
through the one :class:`~calculator.cases.ledger.RecordLedger`: rows without an id or with a
repeated id, rows without a label, and (when the categories are listed) rows with a label not
listed. Labels are compared as ids are (:func:`~calculator.cases.ids.case_ids`): exactly as
written after trimming spaces, and as integers when every label is one ("1", "01" and "1.0"
are one label). The k x k table itself is :func:`calculator.square.table_from_labels`'s.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import fatal
from calculator.cases.ids import case_ids
from calculator.cases.ledger import RecordLedger
from calculator.cases.reading import CaseFile, read_case_file
from calculator.errors import CalculatorError
from calculator.square import MAX_CATEGORIES, SquareTable, table_from_labels
from calculator.text import clip, plural

if TYPE_CHECKING:
    from calculator.cases.findings import CaseIssue

__all__ = ["LabelledCases", "read_labels"]


@dataclass(frozen=True, slots=True, kw_only=True)
class LabelledCases:
    """The cases of a per-case file with two categorical outcomes, and every row left out.

    Attributes
    ----------
    file : str
        The file's name.
    id_column : str or None
        The column of case ids; None when the rows are numbered.
    columns : tuple of str
        A's and B's label columns.
    a, b : tuple of str
        A's and B's label for each case used, in file order.
    rows_read : int
        Rows in the file, lines that could not be read included; ``rows_read == len(a) +
        sum(excluded.values())``.
    excluded : dict
        Rows left out by reason (:data:`~calculator.cases.findings.EXCLUSION_REASONS`), each
        under its first problem.
    issues : tuple of CaseIssue
        Every finding, with its count, its first line and its first offending rows.
    table : SquareTable
        The k x k table of the cases used.
    """

    file: str
    id_column: str | None
    columns: tuple[str, str]
    a: tuple[str, ...] = field(repr=False)
    b: tuple[str, ...] = field(repr=False)
    rows_read: int
    excluded: dict[str, int]
    issues: tuple[CaseIssue, ...]
    table: SquareTable

    @property
    def rows_used(self) -> int:
        """Rows analysed, one per case."""
        return len(self.a)

    def input_summary(self) -> dict[str, object]:
        """Rows read, used and excluded by reason, with every finding, as plain JSON types."""
        return {
            "files": [self.file],
            "columns": {"id": self.id_column, "A": self.columns[0], "B": self.columns[1]},
            "rows_read": self.rows_read,
            "rows_used": self.rows_used,
            "cases_used": self.rows_used,
            "excluded": dict(self.excluded),
            "issues": [issue.to_dict() for issue in self.issues],
        }


def read_labels(
    source: str | os.PathLike[str] | bytes | CaseFile,
    a_column: str,
    b_column: str,
    *,
    id_column: str | None = None,
    categories: Sequence[str] | None = None,
    name: str | None = None,
) -> LabelledCases:
    """Read each case's label from A and from B, leave out the rows that cannot be used, and
    count the k x k table.

    Parameters
    ----------
    source : path, bytes or CaseFile
        The per-case file (bytes: an upload, named by `name`).
    a_column, b_column : str
        The columns of A's and B's labels.
    id_column : str, optional
        The column of case ids: rows without one, and every copy of a repeated id, are left
        out. Without it the rows are numbered.
    categories : sequence of str, optional
        Every category in its order; a row with a label not listed is left out, and its label
        shown. Without it the categories are the labels seen, sorted.

    Raises
    ------
    CalculatorError
        If a column is missing or chosen twice, no row is usable, or the labels form fewer
        than 2 or more than :data:`~calculator.square.MAX_CATEGORIES` categories.

    Examples
    --------
    >>> data = b"id,a,b\\n1,low,low\\n2,mid,low\\n2,mid,mid\\n3,high,\\n4,01,high\\n"
    >>> r = read_labels(data, "a", "b", id_column="id", name="g.csv")
    >>> r.rows_read, r.rows_used, r.excluded["duplicate_id"], r.excluded["missing_value"]
    (5, 2, 2, 1)
    >>> r.table.labels, r.table.counts
    (('01', 'high', 'low'), ((0, 1, 0), (0, 0, 0), (0, 0, 1)))
    >>> print(r.issues[0].message)
    g.csv: 1 id repeated over 2 rows (the first on line 3); every copy left out, as the \
pairing is ambiguous.
    """
    case_file = read_case_file(source, name=name)
    _check_columns(case_file, id_column, a_column, b_column)
    ledger = RecordLedger(case_file)
    if id_column is not None:
        ledger.use_ids(*case_ids((case_file, id_column)), id_column)
    ids_a, ids_b = case_ids((case_file, a_column), (case_file, b_column))
    texts = (ids_a.text, ids_b.text)
    for column, ids in ((a_column, ids_a), (b_column, ids_b)):
        ledger.exclude(
            ids.missing,
            "missing_value",
            column,
            lambda _, count, column=column: f"{plural(count, 'row')} without a label in {column!r}",
        )
    if categories is not None:
        order = list(categories)
        for column, text in zip((a_column, b_column), texts, strict=True):
            _exclude_unlisted(ledger, column, text, order)
    kept = ledger.kept
    a = tuple(texts[0][kept].tolist())
    b = tuple(texts[1][kept].tolist())
    rows_read = len(case_file.frame) + case_file.unread_rows
    excluded = ledger.excluded_counts()
    if not a:
        raise CalculatorError(
            f"{case_file.name}: no usable cases: {rows_read:,} rows read, "
            + ", ".join(f"{n:,} {why.replace('_', ' ')}" for why, n in excluded.items() if n)
            + "; every case needs a label from A and from B."
        )
    return LabelledCases(
        file=case_file.name,
        id_column=id_column,
        columns=(a_column, b_column),
        a=a,
        b=b,
        rows_read=rows_read,
        excluded=excluded,
        issues=ledger.issues,
        table=_table(case_file.name, (a_column, b_column), a, b, categories),
    )


def _check_columns(case_file: CaseFile, id_column: str | None, *outcomes: str) -> None:
    """Each column named exists, and no column has two roles."""
    roles = [(id_column, "the id"), (outcomes[0], "A's labels"), (outcomes[1], "B's labels")]
    named = [column for column, _ in roles if column is not None]
    if len(set(named)) != len(named):
        raise CalculatorError(
            f"{case_file.name}: the id, A's and B's columns must be different columns, but got "
            f"{', '.join(repr(column) for column in named)}."
        )
    for column, role in roles:
        if column is not None and column not in case_file.frame.columns:
            available = ", ".join(map(str, case_file.frame.columns[:12]))
            raise fatal(
                "missing_column",
                case_file.name,
                f"{case_file.name}: no column {clip(column, 60)!r} for {role}; the columns are "
                f"{clip(available, 200)}.",
                column=column,
            )


def _exclude_unlisted(ledger: RecordLedger, column: str, text: object, order: list[str]) -> None:
    """Leave out the rows whose label in `column` is not among the categories listed."""
    values = np.asarray(text.to_numpy(dtype=object, na_value=None), dtype=object)
    unlisted = np.array([value is not None and value not in order for value in values], bool)
    if not unlisted.any():
        return
    seen = ", ".join(repr(v) for v in dict.fromkeys(values[unlisted].tolist()))
    ledger.exclude(
        unlisted,
        "unparseable_outcome",
        column,
        f"{plural(int(unlisted.sum()), 'label')} in {column!r} not among the categories listed",
        f"seen: {clip(seen, 120)}; allowed: {clip(', '.join(order), 200)}",
    )


def _table(
    file: str, columns: tuple[str, str], a: tuple[str, ...], b: tuple[str, ...], categories
) -> SquareTable:
    seen = sorted(set(a) | set(b))
    order = list(categories) if categories is not None else seen
    if not 2 <= len(order) <= MAX_CATEGORIES:
        raise CalculatorError(
            f"{file}: the labels in {columns[0]!r} and {columns[1]!r} must form 2 to "
            f"{MAX_CATEGORIES} categories, but got {len(order)}: "
            f"{clip(', '.join(map(repr, order)), 200)}."
        )
    return table_from_labels(a, b, categories)
