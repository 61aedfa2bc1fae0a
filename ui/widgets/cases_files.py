"""Session state of the "Per-case data" page: remembered uploads, and cached reading and pairing.

An uploaded file is kept in session state (not only in its uploader), so it survives a visit to
another page; reading and pairing are cached per file content and per choice of columns.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from calculator.cases import CaseFile, PairedCases, load_cases, read_case_file
from calculator.cases.findings import fatal
from calculator.text import printable
from ui.examples import example_sample_logs
from ui.isolation import Refused, isolated

__all__ = [
    "UPLOAD_KEYS",
    "StoredFile",
    "choice_key",
    "clear_files",
    "load_example",
    "load_stored",
    "only_b_given",
    "read_stored",
    "remember_upload",
    "stored_files",
    "upload_key",
    "upload_limit",
]

#: Uploader widget keys, for file A (or the only file) and file B.
UPLOAD_KEYS = ("cases_upload_a", "cases_upload_b")
_STORE_KEY = "_cases_files"
_GENERATION_KEY = "_cases_upload_generation"


@dataclass(frozen=True, slots=True)
class StoredFile:
    """An uploaded file kept in session state, so it survives a visit to another page."""

    name: str
    data: bytes
    digest: str

    @classmethod
    def of(cls, name: str, data: bytes) -> StoredFile:
        return cls(name, data, hashlib.sha256(data).hexdigest())


def upload_key(slot: int) -> str:
    """The key of uploader `slot`: a new one after the files are forgotten or replaced by the
    example, so no uploader still shows a file the page no longer uses."""
    generation = st.session_state.get(_GENERATION_KEY, 0)
    return UPLOAD_KEYS[slot] if generation == 0 else f"{UPLOAD_KEYS[slot]}_{generation}"


def _empty_uploaders() -> None:
    st.session_state[_GENERATION_KEY] = st.session_state.get(_GENERATION_KEY, 0) + 1


def remember_upload(slot: int) -> None:
    """Callback of uploader `slot` (0: file A, 1: file B): keep the new file, or forget it."""
    upload = st.session_state.get(upload_key(slot))
    store = dict(st.session_state.get(_STORE_KEY, {}))
    if upload is None:
        store.pop(slot, None)
    else:
        # The file name is shown (and names the source of a table): nothing hidden in it.
        store[slot] = StoredFile.of(printable(upload.name), upload.getvalue())
    st.session_state[_STORE_KEY] = store


def choice_key(base: str) -> str:
    """The key of a column or name widget for the files now remembered.

    The key changes whenever the set of files (or their slots) changes, so every choice made for
    other files is dropped and guessed anew: a choice kept across files would pair the wrong
    columns without a word (one file's second outcome column read as B's outcome).
    """
    store = st.session_state.get(_STORE_KEY, {})
    signature = ";".join(f"{slot}:{store[slot].digest}" for slot in sorted(store))
    return f"{base}__{hashlib.sha256(signature.encode()).hexdigest()[:12]}"


def only_b_given() -> bool:
    """Whether B's uploader holds the only file (it is then read as the file of both systems)."""
    return set(st.session_state.get(_STORE_KEY, {})) == {1}


def stored_files() -> list[StoredFile]:
    """The remembered files, file A first; [] when none."""
    store = st.session_state.get(_STORE_KEY, {})
    return [store[slot] for slot in (0, 1) if slot in store]


def load_example() -> None:
    """Button callback: two small evaluation-harness sample logs as files A and B."""
    first, second = example_sample_logs()
    st.session_state[_STORE_KEY] = {
        0: StoredFile.of("samples_model_a.jsonl", first),
        1: StoredFile.of("samples_model_b.jsonl", second),
    }
    _empty_uploaders()


def clear_files() -> None:
    """Button callback: forget every remembered file."""
    st.session_state[_STORE_KEY] = {}
    _empty_uploaders()


@st.cache_resource(show_spinner="Reading the file...", max_entries=4)
def _read_cached(digest: str, name: str, max_bytes: int, _data: bytes) -> CaseFile:
    # Read in a child under the upload limits, never in the server's interpreter.
    try:
        return isolated(read_case_file, _data, name=name, max_bytes=max_bytes)
    except Refused as refusal:  # a limit reached: said as the file's own refusal
        raise fatal("over_limits", name, f"{name}: {refusal}", count=0) from None


def upload_limit() -> int:
    """The largest file accepted, in bytes: the server's upload limit (server.maxUploadSize)."""
    return int(st.get_option("server.maxUploadSize")) * 1024 * 1024


def read_stored(stored: StoredFile) -> CaseFile:
    """The file read once per content (cached); raises CaseFileError like read_case_file."""
    return _read_cached(stored.digest, stored.name, upload_limit(), stored.data)


@st.cache_resource(show_spinner="Pairing the cases...", max_entries=4)
def _load_cached(
    digests: tuple[str, ...],
    file_names: tuple[str, ...],
    _files: tuple[CaseFile, ...],
    id_column: str | None,
    a_column: str,
    b_column: str,
    group_column: str | None,
    threshold: float | None,
    names: tuple[str, str],
) -> PairedCases:
    # Paired in a child under the upload limits, never in the server's interpreter.
    return isolated(
        load_cases,
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
    # The names are part of the key: the same bytes under another name must be reported under
    # that name, not the one of the earlier upload.
    return _load_cached(
        tuple(item.digest for item in stored),
        tuple(item.name for item in stored),
        files,
        id_column,
        a_column,
        b_column,
        group_column,
        threshold,
        names,
    )
