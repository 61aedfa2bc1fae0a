"""Texts of a per-case file's flips: the columns named with ``--text COL`` (the page's box).

A per-case file is read whole by :func:`calculator.cases.load_cases`, its other columns kept
beside the outcomes; a column of the same name in two files is kept once when the files agree
on every case ("prompt") and as "prompt (A)" and "prompt (B)" when they differ. A text column
both systems share becomes the case's prompt; one of each system's becomes its output.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.errors import CalculatorError
from calculator.flips.model import CaseTexts
from calculator.text import clip, printable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from calculator.cases import PairedCases

__all__ = ["CaseFileTexts", "case_file_texts"]


class CaseFileTexts:
    """The texts of one system (`side` 0 for A, 1 for B) from the paired cases' text columns,
    found by case id. Built for the flipped ids only."""

    def __init__(self, by_id: dict[str, CaseTexts], holds_texts: bool) -> None:
        self.by_id = by_id
        self.holds_texts = holds_texts

    def find(self, task: str | None, case: str, repeat: int | None) -> CaseTexts | None:
        return self.by_id.get(case)


def case_file_texts(
    cases: PairedCases, columns: Sequence[str], wanted: set[str]
) -> tuple[CaseFileTexts, CaseFileTexts]:
    """A's and B's texts of the `wanted` case ids from the text `columns`.

    Raises
    ------
    CalculatorError
        When a column is not in the file(s), naming the columns there are.
    """
    if not columns:  # no text column chosen: the flips are ids and outcomes alone
        return CaseFileTexts({}, False), CaseFileTexts({}, False)
    frame = cases.cases
    ids = frame.iloc[:, 0].astype("str")
    rows = frame[ids.isin(wanted).to_numpy()]
    row_ids = ids[ids.isin(wanted)].tolist()
    shared, own = [], []
    for column in dict.fromkeys(columns):
        if column in frame.columns:
            shared.append(column)
        elif f"{column} (A)" in frame.columns and f"{column} (B)" in frame.columns:
            own.append(column)
        else:
            names = ", ".join(repr(printable(clip(str(c), 40))) for c in frame.columns[:20])
            raise CalculatorError(
                f"{' + '.join(cases.files)}: no text column {printable(clip(column, 80))!r}; "
                f"the columns are {names}."
            )
    sides: tuple[dict[str, CaseTexts], dict[str, CaseTexts]] = ({}, {})
    # Each column read once as a list (a row at a time through pandas takes 100 us a row).
    shared_values = [_cells(rows[c]) for c in shared]
    own_values = [[_cells(rows[f"{c} ({label})"]) for c in own] for label in "AB"]
    for position, case in enumerate(row_ids):
        if len(shared) == 1:
            prompt = shared_values[0][position]
        elif shared:
            prompt = "\n".join(
                f"{c}: {v[position]}" for c, v in zip(shared, shared_values, strict=True)
            )
        else:
            prompt = None
        if not own:  # the case's texts are the same for both systems: one object
            sides[0][case] = sides[1][case] = CaseTexts(prompt=prompt)
            continue
        for side in (0, 1):
            outputs = tuple(
                (column, values[position])
                for column, values in zip(own, own_values[side], strict=True)
            )
            sides[side][case] = CaseTexts(prompt=prompt, outputs=outputs)
    return CaseFileTexts(sides[0], True), CaseFileTexts(sides[1], True)


def _cells(column: object) -> list[str]:
    """A column's cells as text ("" for a missing one)."""
    return column.astype("str").where(column.notna(), "").tolist()
