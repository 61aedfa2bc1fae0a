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
    for position, case in enumerate(row_ids):
        row = rows.iloc[position]
        prompt = "\n".join(f"{c}: {_cell(row[c])}" for c in shared) if len(shared) > 1 else None
        if len(shared) == 1:
            prompt = _cell(row[shared[0]])
        for side, label in enumerate("AB"):
            outputs = tuple((column, _cell(row[f"{column} ({label})"])) for column in own)
            sides[side][case] = CaseTexts(prompt=prompt, outputs=outputs)
    holds = bool(columns)
    return CaseFileTexts(sides[0], holds), CaseFileTexts(sides[1], holds)


def _cell(value: object) -> str:
    """A cell as text ("" for a missing one)."""
    import pandas as pd

    return "" if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value)
