"""Tables of the "Per-case data" page: findings, exclusions, the 2 x 2 table, and the lists of
changed cases (search, pages, display, download).

Pure Python (pandas, no Streamlit), so each is tested directly.
"""

from __future__ import annotations

import json
import math

import pandas as pd

from calculator.cases import EXCLUSION_REASONS, CaseIssue, PairedCases
from ui.cases_words import reason_text
from ui.export import to_escaped_csv

__all__ = [
    "PAGE_SIZE",
    "count_table",
    "display_frame",
    "escaped_csv",
    "exclusion_table",
    "issue_examples",
    "page_count",
    "page_of",
    "search_cases",
]

#: Rows per page of a discordant list.
PAGE_SIZE = 50


def issue_examples(issue: CaseIssue) -> pd.DataFrame:
    """The first offending rows of a finding as a small table (all text)."""
    return pd.DataFrame(
        {
            issue.row_label: [example.row for example in issue.examples],
            "id": [example.case_id or "" for example in issue.examples],
            "value": [example.value for example in issue.examples],
        }
    )


def exclusion_table(cases: PairedCases) -> pd.DataFrame:
    """Rows read, used and excluded by reason (reasons with no row left out are omitted)."""
    labels = ["rows read", "rows used"]
    counts = [cases.rows_read, cases.rows_used]
    for reason in EXCLUSION_REASONS:
        if cases.excluded[reason]:
            labels.append(f"excluded: {reason_text(reason)}")
            counts.append(cases.excluded[reason])
    # A named index: its header cell says what the row labels are (an empty header cell is
    # announced as a nameless column).
    return pd.DataFrame({"rows": counts}, index=pd.Index(labels, name="rows of the files"))


def count_table(cases: PairedCases) -> pd.DataFrame:
    """The paired 2 x 2 table with the systems' names on its margins."""
    name_a, name_b = cases.names
    a, b, c, d = cases.counts
    return pd.DataFrame(
        {f"{name_b} passes": [a, c], f"{name_b} fails": [b, d]},
        index=pd.Index([f"{name_a} passes", f"{name_a} fails"], name=f"{name_a} \\ {name_b}"),
    )


def search_cases(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """Rows where any cell contains `query` (case-insensitive, literal text); all when blank."""
    query = query.strip()
    if not query:
        return frame
    hit = pd.Series(False, index=frame.index)
    for column in frame.columns:
        text = frame[column].astype("str")
        hit |= text.str.contains(query, case=False, regex=False, na=False)
    return frame[hit]


def page_count(rows: int, page_size: int = PAGE_SIZE) -> int:
    """Pages needed for `rows` rows (at least 1, so the pager always has a page).

    Examples
    --------
    >>> page_count(0), page_count(50), page_count(51)
    (1, 1, 2)
    """
    return max(1, math.ceil(rows / page_size))


def page_of(frame: pd.DataFrame, page: int, page_size: int = PAGE_SIZE) -> pd.DataFrame:
    """Rows of page `page` (from 1), clamped to the last page: never the whole list."""
    page = min(max(1, page), page_count(len(frame), page_size))
    start = (page - 1) * page_size
    return frame.iloc[start : start + page_size]


def _cell_text(value: object) -> str:
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value)


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A page of cases ready for ``st.dataframe``: nested values (lists, dicts) as JSON text."""
    shown = frame.copy()
    for column in shown.columns:
        if shown[column].dtype == object:
            shown[column] = shown[column].map(_cell_text).astype("str")
    return shown


def escaped_csv(frame: pd.DataFrame) -> bytes:
    """The list as UTF-8 CSV, nested values as JSON text and formula-looking cells escaped
    (see :func:`ui.export.to_escaped_csv`)."""
    return to_escaped_csv(display_frame(frame)).encode("utf-8")
