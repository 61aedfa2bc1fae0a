"""Checks shared by the layouts of :mod:`calculator.cases.multi`: ids, system labels, outcomes,
repeated (case, system) pairs and incomplete cases, each excluding rows through a
:class:`~calculator.cases.ledger.RecordLedger` with one finding per problem and file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import fatal, is_missing_cell
from calculator.cases.outcomes import text_codes
from calculator.compare import MAX_SYSTEMS
from calculator.errors import CalculatorError
from calculator.text import clip

if TYPE_CHECKING:
    import pandas as pd

    from calculator.cases.reading import CaseFile

__all__ = [
    "check_names",
    "file_system_names",
    "id_codes",
    "require_column",
    "system_labels",
    "text_series",
]


def id_codes(files: list[CaseFile], column: str) -> tuple[np.ndarray, object, object]:
    """The ids of every file's rows as codes in order of first appearance (-1: missing).

    Ids are coded together across the files, as the two-system reader pairs them
    (:func:`calculator.cases.ids.case_ids`). Returns the codes (files concatenated), a function
    from codes to the ids' text, and one from a row's position to its id's text (or None).
    """
    import pandas as pd

    from calculator.cases.ids import case_ids

    series = [case_file.frame[column] for case_file in files]
    if all(pd.api.types.is_integer_dtype(s.dtype) for s in series):
        # Integers read as integers: the same matching as case_ids' (every id an integer, so
        # compared as one), by one hash of the numbers instead of their text.
        values = series[0] if len(series) == 1 else pd.concat(series, ignore_index=True)
        if not values.hasnans:  # plain int64 hashes faster than pandas' nullable Int64
            values = values.to_numpy(dtype=np.int64)
        codes, uniques = pd.factorize(values, use_na_sentinel=True)
        code_text = pd.Series(np.asarray(uniques), dtype="str")
    else:
        found = case_ids(*((case_file, column) for case_file in files))
        codes = np.concatenate([ids.codes for ids in found])
        text = pd.concat([ids.text for ids in found], ignore_index=True)
        first = np.full(int(codes.max()) + 1 if len(codes) else 0, -1, dtype=np.int64)
        present = np.flatnonzero(codes >= 0)
        first[codes[present[::-1]]] = present[::-1]  # the earliest row of each id
        code_text = text.iloc[first].reset_index(drop=True)
    codes = codes.astype(np.int32 if len(codes) < 2**31 else np.int64)  # -1: missing

    def of_codes(chosen: np.ndarray) -> pd.Series:
        return code_text.iloc[chosen].reset_index(drop=True)

    def of_row(p: int) -> str | None:
        return None if codes[p] < 0 else str(code_text.iloc[codes[p]])

    return codes, of_codes, of_row


def system_labels(series: pd.Series) -> tuple[list[str], np.ndarray]:
    """The distinct system labels (trimmed text, in order of appearance) and each row's index
    into them (-1 where the label is missing or blank)."""
    import pandas as pd

    if series.dtype == "str":
        raw_codes, uniques = text_codes(series)
    else:
        raw_codes, uniques = pd.factorize(series, use_na_sentinel=True)
    index_of: dict[str, int] = {}  # a dict, not list.index: linear in the number of labels
    label_of_unique = np.full(len(uniques) + 1, -1, dtype=np.int32)
    for u, value in enumerate(uniques.tolist()):
        label = _label_text(value)
        if label is not None:
            label_of_unique[u] = index_of.setdefault(label, len(index_of))
    return list(index_of), label_of_unique[raw_codes]


def _label_text(value: object) -> str | None:
    """A system label as trimmed text ("3" for 3.0); None when missing or blank."""
    if is_missing_cell(value):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return text or None


def require_column(case_file: CaseFile, column: str) -> None:
    if column not in case_file.frame.columns:
        available = ", ".join(map(str, case_file.frame.columns[:12]))
        raise fatal(
            "missing_column",
            case_file.name,
            f"{case_file.name}: no column {column!r}; the columns are {available}.",
            column=column,
        )


def check_names(names: tuple[str, ...], what: str) -> None:
    """Refuse fewer than 2 or more than MAX_SYSTEMS systems (listing the first few), a name
    given twice, or an empty one; linear in the number of names."""
    if not 2 <= len(names) <= MAX_SYSTEMS:
        listed = ""
        if len(names) > MAX_SYSTEMS:
            listed = "; the first are " + ", ".join(clip(repr(n), 40) for n in names[:5])
        raise CalculatorError(
            f"{what} give {len(names):,} systems, but a comparison needs 2 to {MAX_SYSTEMS}; "
            f"choose them (--systems, --system on the command line){listed}."
        )
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise CalculatorError(
                f"{what} name the system {clip(repr(name), 80)} twice; give distinct names."
            )
        seen.add(name)
        if not name.strip():
            raise CalculatorError(f"{what} include an empty name; give every system a name.")


def file_system_names(files: list[str]) -> tuple[str, ...]:
    """Each file's name without its extension; the full name where two would clash."""
    stems = [Path(name).stem or name for name in files]
    names = [
        stem if stems.count(stem) == 1 else name for stem, name in zip(stems, files, strict=True)
    ]
    return tuple(
        name if names.count(name) == 1 else f"{name} ({j + 1})" for j, name in enumerate(names)
    )


def text_series(values: list[str]) -> pd.Series:
    import pandas as pd

    return pd.Series(values, dtype="str")
