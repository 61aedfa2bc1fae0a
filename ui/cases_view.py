"""Support for the "Per-case data" page: remembered uploads, cached loading, lists and texts.

Pure helpers except the few marked as session-state callbacks; the page only lays out widgets.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from calculator.cases import (
    EXCLUSION_REASONS,
    CaseFile,
    CaseIssue,
    PairedCases,
    load_cases,
    read_case_file,
    to_escaped_csv,
)

__all__ = [
    "UPLOAD_KEYS",
    "PAGE_SIZE",
    "StoredFile",
    "remember_upload",
    "stored_files",
    "load_example",
    "clear_files",
    "read_stored",
    "upload_limit",
    "load_stored",
    "issue_examples",
    "exclusion_table",
    "count_table",
    "search_cases",
    "page_count",
    "page_of",
    "display_frame",
    "escaped_csv",
    "example_sample_logs",
    "md_escape",
    "reason_text",
    "issue_title",
]

#: Uploader widget keys, for file A (or the only file) and file B.
UPLOAD_KEYS = ("cases_upload_a", "cases_upload_b")
#: Rows per page of a discordant list.
PAGE_SIZE = 50
_STORE_KEY = "_cases_files"
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=])")
_REASON_TEXT = {
    "malformed_line": "line not readable as a row",
    "missing_value": "missing or blank value",
    "unparseable_outcome": "outcome not understood",
    "duplicate_id": "id occurs more than once",
    "id_in_one_file_only": "id in one file only",
    "partner_excluded": "partner row excluded",
}


@dataclass(frozen=True, slots=True)
class StoredFile:
    """An uploaded file kept in session state, so it survives a visit to another page."""

    name: str
    data: bytes
    digest: str


def remember_upload(slot: int) -> None:
    """Callback of uploader `slot` (0: file A, 1: file B): keep the new file, or forget it."""
    upload = st.session_state.get(UPLOAD_KEYS[slot])
    store = dict(st.session_state.get(_STORE_KEY, {}))
    if upload is None:
        store.pop(slot, None)
    else:
        data = upload.getvalue()
        store[slot] = StoredFile(upload.name, data, hashlib.sha256(data).hexdigest())
    st.session_state[_STORE_KEY] = store


def stored_files() -> list[StoredFile]:
    """The remembered files, file A first; [] when none."""
    store = st.session_state.get(_STORE_KEY, {})
    return [store[slot] for slot in (0, 1) if slot in store]


def load_example() -> None:
    """Button callback: two small evaluation-harness sample logs as files A and B."""
    first, second = example_sample_logs()
    st.session_state[_STORE_KEY] = {
        0: StoredFile("samples_model_a.jsonl", first, hashlib.sha256(first).hexdigest()),
        1: StoredFile("samples_model_b.jsonl", second, hashlib.sha256(second).hexdigest()),
    }


def clear_files() -> None:
    """Button callback: forget every remembered file."""
    st.session_state[_STORE_KEY] = {}


@st.cache_resource(show_spinner="Reading the file...", max_entries=4)
def _read_cached(digest: str, name: str, max_bytes: int, _data: bytes) -> CaseFile:
    return read_case_file(_data, name=name, max_bytes=max_bytes)


def upload_limit() -> int:
    """The largest file accepted, in bytes: the server's upload limit (server.maxUploadSize)."""
    return int(st.get_option("server.maxUploadSize")) * 1024 * 1024


def read_stored(stored: StoredFile) -> CaseFile:
    """The file read once per content (cached); raises CaseFileError like read_case_file."""
    return _read_cached(stored.digest, stored.name, upload_limit(), stored.data)


@st.cache_resource(show_spinner="Pairing the cases...", max_entries=4)
def _load_cached(
    digests: tuple[str, ...],
    _files: tuple[CaseFile, ...],
    id_column: str | None,
    a_column: str,
    b_column: str,
    group_column: str | None,
    threshold: float | None,
    names: tuple[str, str],
) -> PairedCases:
    return load_cases(
        _files[0],
        _files[1] if len(_files) > 1 else None,
        id_column=id_column,
        a_column=a_column,
        b_column=b_column,
        group_column=group_column,
        threshold=threshold,
        names=names,
    )


def load_stored(
    stored: list[StoredFile],
    *,
    id_column: str | None,
    a_column: str,
    b_column: str,
    group_column: str | None,
    threshold: float | None,
    names: tuple[str, str],
) -> PairedCases:
    """:func:`calculator.cases.load_cases` on the remembered files, cached per choice."""
    files = tuple(read_stored(item) for item in stored)
    return _load_cached(
        tuple(item.digest for item in stored),
        files,
        id_column,
        a_column,
        b_column,
        group_column,
        threshold,
        names,
    )


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
            labels.append(f"excluded: {_REASON_TEXT[reason]}")
            counts.append(cases.excluded[reason])
    return pd.DataFrame({"rows": counts}, index=labels)


def count_table(cases: PairedCases) -> pd.DataFrame:
    """The paired 2 x 2 table with the systems' names on its margins."""
    name_a, name_b = cases.names
    return pd.DataFrame(
        {f"{name_b} passes": [cases.a, cases.c], f"{name_b} fails": [cases.b, cases.d]},
        index=[f"{name_a} passes", f"{name_a} fails"],
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
    """Pages needed for `rows` rows (at least 1, so the pager always has a page)."""
    return max(1, math.ceil(rows / page_size))


def page_of(frame: pd.DataFrame, page: int, page_size: int = PAGE_SIZE) -> pd.DataFrame:
    """Rows of page `page` (from 1), clamped to the last page: never the whole list."""
    page = min(max(1, page), page_count(len(frame), page_size))
    start = (page - 1) * page_size
    return frame.iloc[start : start + page_size]


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A page of cases ready for ``st.dataframe``: nested values (lists, dicts) as JSON text."""
    shown = frame.copy()
    for column in shown.columns:
        if shown[column].dtype == object:
            shown[column] = shown[column].map(_cell_text).astype("str")
    return shown


def escaped_csv(frame: pd.DataFrame) -> bytes:
    """The list as UTF-8 CSV, formula-looking cells escaped (see ``to_escaped_csv``)."""
    return to_escaped_csv(display_frame(frame)).encode("utf-8")


def _cell_text(value: object) -> str:
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value)


def example_sample_logs(cases: int = 240, seed: int = 7) -> tuple[bytes, bytes]:
    """Two made-up per-sample logs in the shape lm-evaluation-harness writes (JSON Lines).

    Each line has ``doc_id``, the ``doc`` (question, subject), ``target``, ``resps`` and the 0/1
    metric ``acc``. Model B is a little better overall; subjects act as clusters. B's log misses
    the last three documents, and one of A's lines is truncated, so the page shows what it
    excludes.
    """
    rng = random.Random(seed)
    subjects = [f"subject_{k:02d}" for k in range(24)]
    first, second = [], []
    for doc_id in range(cases):
        subject = subjects[doc_id % len(subjects)]
        doc = {"question": f"Question {doc_id} about {subject}?", "subject": subject}
        skill = rng.random()
        acc_a = float(skill < 0.62)
        acc_b = float(skill < 0.62 if rng.random() < 0.8 else rng.random() < 0.85)
        for log, acc in ((first, acc_a), (second, acc_b)):
            log.append(
                {
                    "doc_id": doc_id,
                    "doc": doc,
                    "target": "A",
                    "resps": [["A" if acc else "B"]],
                    "acc": acc,
                }
            )
    second = second[:-3]
    lines_a = [json.dumps(record) for record in first]
    lines_a[17] = lines_a[17][:25]  # a line cut short, as by an interrupted run
    return ("\n".join(lines_a) + "\n").encode(), (
        "\n".join(json.dumps(record) for record in second) + "\n"
    ).encode()


def md_escape(text: str) -> str:
    r"""Backslash-escape Markdown, for file-derived text shown in labels and alerts.

    >>> print(md_escape("*bold* [x](y)"))
    \*bold\* \[x\]\(y\)
    """
    return _MARKDOWN.sub(r"\\\1", text)


def reason_text(reason: str) -> str:
    """Plain words for an exclusion reason."""
    return _REASON_TEXT[reason]


def issue_title(issue: CaseIssue) -> str:
    """A short heading for a finding: its kind in words and its count."""
    words = _REASON_TEXT.get(issue.kind, issue.kind.replace("_", " "))
    return f"{words} ({issue.count:,})"
