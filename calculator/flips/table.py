"""Every flip as one row of a table, with its full texts: the CSV the command line writes
(``--flips-csv``) and the page offers, one format for both."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

from calculator.text import escape_spreadsheet_cell

if TYPE_CHECKING:
    from calculator.flips.model import CaseTexts, Flip, Flips

__all__ = ["CSV_COLUMNS", "flip_row", "flips_csv"]

#: The columns of the flips' table, in order.
CSV_COLUMNS = (
    "task",
    "id",
    "repeat",
    "direction",
    "A",
    "B",
    "texts",
    "prompt",
    "target",
    "A_output",
    "B_output",
    "A_explanation",
    "B_explanation",
)


def flip_row(flip: Flip) -> dict[str, object]:
    """One flip as a row (:data:`CSV_COLUMNS`); several outputs of a system (lm-eval's filters
    and raw responses) are joined, each after its field name in brackets."""
    row = flip.to_dict()
    return {
        "task": flip.task,
        "id": flip.case,
        "repeat": flip.repeat,
        "direction": flip.direction,
        "A": row["A"],
        "B": row["B"],
        "texts": flip.texts,
        "prompt": flip.prompt,
        "target": flip.target,
        "A_output": _outputs(flip.texts_a),
        "B_output": _outputs(flip.texts_b),
        "A_explanation": None if flip.texts_a is None else flip.texts_a.explanation,
        "B_explanation": None if flip.texts_b is None else flip.texts_b.explanation,
    }


def _outputs(texts: CaseTexts | None) -> str | None:
    if texts is None or not texts.outputs:
        return None
    if len(texts.outputs) == 1:
        return texts.outputs[0][1]
    return "\n".join(f"[{name}] {text}" for name, text in texts.outputs)


def flips_csv(flips: Flips) -> str:
    """Every flip as CSV, text cells escaped against formula injection (a spreadsheet opening
    the file shows ``=HYPERLINK(...)`` from a log as text), texts whole (newlines quoted)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for flip in flips.flips:
        row = flip_row(flip)
        writer.writerow(
            ""
            if row[c] is None
            else escape_spreadsheet_cell(row[c])
            if isinstance(row[c], str)
            else row[c]
            for c in CSV_COLUMNS
        )
    return buffer.getvalue()
