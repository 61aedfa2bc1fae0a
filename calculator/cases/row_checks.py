"""The row checks every reader makes, worded once: ids (missing, repeated), outcomes (missing,
unreadable) and groups (missing), each excluding rows through a
:class:`~calculator.cases.ledger.RecordLedger` with one finding per problem and file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import cell_text
from calculator.cases.outcomes import ParsedOutcomes, parse_outcomes
from calculator.text import plural

if TYPE_CHECKING:
    import pandas as pd

    from calculator.cases.ledger import RecordLedger

__all__ = [
    "exclude_bad_ids",
    "exclude_missing_ids",
    "exclude_bad_outcomes",
    "exclude_missing_groups",
]


def exclude_missing_ids(ledger: RecordLedger, codes: np.ndarray, column: str) -> None:
    """Exclude the rows without an id (code -1; `codes` cover every row of the ledger)."""
    ledger.exclude(
        codes < 0,
        "missing_value",
        column,
        lambda _, count: f"{plural(count, 'row')} without an id in {column!r}",
    )


def exclude_bad_ids(ledger: RecordLedger, codes: np.ndarray, column: str) -> None:
    """A ledger of one file: exclude the rows without an id, and every copy of a repeated id
    (which row counts would be a guess)."""
    exclude_missing_ids(ledger, codes, column)
    valid = codes >= 0
    occurrences = np.bincount(codes[valid], minlength=1)
    duplicated = valid & (occurrences[np.maximum(codes, 0)] > 1)
    if duplicated.any():
        distinct = int(np.count_nonzero(occurrences > 1))
        ledger.exclude(
            duplicated,
            "duplicate_id",
            column,
            lambda _, count: f"{plural(distinct, 'id')} repeated over {plural(count, 'row')}",
            "every copy left out, as the pairing is ambiguous",
        )


def exclude_bad_outcomes(
    ledger: RecordLedger, index: int, column: str, threshold: float | None
) -> ParsedOutcomes:
    """Read `column` of the ledger's file `index` as outcomes; exclude the rows without one or
    with one that cannot be read. Returns the file's outcomes as read."""
    case_file = ledger.files[index]
    values = case_file.frame[column]
    parsed = parse_outcomes(values, threshold=threshold)
    missing, unreadable = _in_ledger(ledger, index, parsed.missing, parsed.unparseable)
    ledger.exclude(
        missing,
        "missing_value",
        column,
        lambda _, count: f"{plural(count, 'row')} without a value in {column!r}",
    )
    count = int(np.count_nonzero(parsed.unparseable))
    if not count:
        return parsed
    if threshold is None:
        what = "not read as a pass/fail outcome"
        allowed = "1/0, true/false, pass/fail, yes/no or correct/wrong; for scores set a threshold"
    else:
        what = "not a number"
        allowed = f"numbers (scores at or above {threshold:g} pass)"
    seen = _first_values(values, parsed.unparseable)
    every = " (every value)" if count == len(values) - int(parsed.missing.sum()) else ""
    ledger.exclude(
        unreadable,
        "unparseable_outcome",
        column,
        f"{plural(count, 'value')}{every} in {column!r} {what}",
        f"seen: {seen}; allowed: {allowed}",
    )
    return parsed


def exclude_missing_groups(ledger: RecordLedger, index: int, column: str) -> None:
    """Exclude the rows of the ledger's file `index` without a group label in `column`."""
    values = ledger.files[index].frame[column]
    missing = values.isna().to_numpy(dtype=bool) | (
        values.astype("str").str.strip() == ""
    ).to_numpy(dtype=bool, na_value=False)
    (missing,) = _in_ledger(ledger, index, missing)
    ledger.exclude(
        missing,
        "missing_value",
        column,
        lambda _, count: f"{plural(count, 'row')} without a group in {column!r}",
    )


def _in_ledger(ledger: RecordLedger, index: int, *masks: np.ndarray) -> tuple[np.ndarray, ...]:
    """Masks over one file's rows as masks over every row of the ledger."""
    if len(ledger.files) == 1:
        return masks
    start, stop = int(ledger.offsets[index]), int(ledger.offsets[index + 1])
    placed = []
    for mask in masks:
        whole = np.zeros(int(ledger.offsets[-1]), dtype=bool)
        whole[start:stop] = mask
        placed.append(whole)
    return tuple(placed)


def _first_values(values: pd.Series, mask: np.ndarray, limit: int = 3) -> str:
    """The first few distinct values where `mask` is set, quoted, for a message."""
    shown: list[str] = []
    for value in values.iloc[np.flatnonzero(mask)[:200]]:
        text = repr(cell_text(value))
        if text not in shown:
            shown.append(text)
        if len(shown) == limit:
            break
    return ", ".join(shown)
