"""Exports safe to open in a spreadsheet: cells that would run as formulas are escaped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.cases.findings import is_missing_cell

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["escape_spreadsheet_cell", "to_escaped_csv"]

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def escape_spreadsheet_cell(value: str) -> str:
    """Prefix a cell that a spreadsheet would run as a formula with a single quote.

    Cells starting with =, +, - or @ (and tab or carriage return, which some spreadsheets skip
    before a formula) are shown as text by Excel, LibreOffice and Google Sheets once prefixed.

    References
    ----------
    OWASP, "CSV Injection," https://owasp.org/www-community/attacks/CSV_Injection.

    Examples
    --------
    >>> escape_spreadsheet_cell('=HYPERLINK("http://x","y")')
    '\\'=HYPERLINK("http://x","y")'
    >>> escape_spreadsheet_cell("plain text"), escape_spreadsheet_cell("-1")
    ('plain text', "'-1")
    """
    if not isinstance(value, str):
        raise TypeError(f"`value` must be a string, but got {type(value).__name__}.")
    return "'" + value if value.startswith(_FORMULA_START) else value


def to_escaped_csv(frame: pd.DataFrame) -> str:
    """The table as CSV text with every text cell and header escaped against formula injection.

    Numeric and boolean columns are written as numbers (a number cannot carry a formula); every
    other cell is written as text and escaped with :func:`escape_spreadsheet_cell`.

    Examples
    --------
    >>> import pandas as pd
    >>> print(to_escaped_csv(pd.DataFrame({"id": ["q1"], "answer": ["=1+1"], "score": [-2]})))
    id,answer,score
    q1,'=1+1,-2
    <BLANKLINE>
    """
    import pandas as pd

    escaped = {}
    for column in frame.columns:
        values = frame[column]
        if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
            escaped[escape_spreadsheet_cell(str(column))] = values
            continue
        if values.dtype == object:  # mixed Python values: one at a time
            text = values.map(lambda v: "" if is_missing_cell(v) else str(v)).astype("str")
        else:  # text columns: vectorised
            text = values.astype("str").fillna("")
        risky = text.str.startswith(_FORMULA_START)
        escaped[escape_spreadsheet_cell(str(column))] = text.where(~risky, "'" + text)
    return pd.DataFrame(escaped, index=frame.index).to_csv(index=False, lineterminator="\n")
