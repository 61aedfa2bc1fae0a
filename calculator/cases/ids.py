"""Case ids and group labels: their normalised text, and integer codes for matching them.

Ids are compared exactly as written, after trimming spaces: never through floating point, so
9007199254740993 and 9007199254740992 stay two ids. When every id (in both files) is an integer
("7", "007", "+7", "7.0"), they are compared as integers, of any size, so those four are one id.
Matching works on integer codes given by one hash of every file's ids (factorised), not on text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calculator.cases.findings import is_missing_cell

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

    from calculator.cases.reading import CaseFile

__all__ = ["CaseIds", "case_ids", "id_text", "group_codes"]

_INTEGER = r"^[+-]?[0-9]+(\.0*)?$"
_EXACT = 2**53  # floats below it in magnitude are exact integers


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseIds:
    """The ids of one file's rows: normalised text, where missing, and a code per id.

    ``codes`` are -1 where the id is missing; two rows share a code exactly when they share an
    id, also across the files whose ids were coded together.
    """

    text: pd.Series
    missing: np.ndarray
    codes: np.ndarray


def case_ids(*columns: tuple[CaseFile, str]) -> tuple[CaseIds, ...]:
    """The ids of each (file, column), normalised and coded together.

    Examples
    --------
    >>> from calculator.cases.reading import read_case_file
    >>> first = read_case_file(b"id,a\\n007,1\\n9007199254740993,0\\n,1\\n", name="a.csv")
    >>> second = read_case_file(b"id,b\\n7.0,1\\n9007199254740992,0\\n", name="b.csv")
    >>> ids_a, ids_b = case_ids((first, "id"), (second, "id"))
    >>> ids_a.text.tolist()[:2], ids_b.text.tolist()
    (['7', '9007199254740993'], ['7', '9007199254740992'])
    >>> ids_a.codes.tolist(), ids_b.codes.tolist()
    ([0, 1, -1], [0, 2])
    """
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc

    texts = _normalised(
        [_trimmed_text(file.written_text(name), file.frame[name]) for file, name in columns]
    )
    every = pa.concat_arrays([text.cast(pa.large_string()) for text in texts])
    all_codes = pc.fill_null(pc.dictionary_encode(every).indices.cast(pa.int64()), -1)
    all_codes = np.asarray(all_codes.to_numpy(zero_copy_only=False), dtype=np.int64)
    found, start = [], 0
    for text in texts:
        codes = all_codes[start : start + len(text)]
        start += len(text)
        found.append(
            CaseIds(
                text=pd.Series(text, dtype="str"),
                missing=codes < 0,
                codes=np.asarray(codes, dtype=np.int64),
            )
        )
    return tuple(found)


def id_text(series: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """One column's ids as normalised text (positional index), and where they are missing.

    Examples
    --------
    >>> import pandas as pd
    >>> text, missing = id_text(pd.Series([7.0, None, 8.0], index=[5, 6, 7]))
    >>> text.tolist()[::2], missing.tolist()
    (['7', '8'], [False, True, False])
    """
    import pandas as pd
    import pyarrow.compute as pc

    (text,) = _normalised([_trimmed_text(None, series)])
    return pd.Series(text, dtype="str"), pc.is_null(text).to_numpy(zero_copy_only=False)


def _normalised(texts: list[pa.Array]) -> list[pa.Array]:
    """Missing for blank, and integers written one way when every id in `texts` is one."""
    import pyarrow.compute as pc

    present = [pc.and_(pc.is_valid(text), pc.not_equal(text, "")) for text in texts]
    integers = all(
        pc.all(pc.match_substring_regex(pc.filter(text, keep), _INTEGER)).as_py() is not False
        for text, keep in zip(texts, present, strict=True)
    )
    if integers:
        texts = [_canonical_integers(text) for text in texts]
    return [pc.if_else(keep, text, None) for text, keep in zip(texts, present, strict=True)]


def _trimmed_text(written: pd.Series | None, values: pd.Series) -> pa.Array:
    """The column as exact text: as `written` when given (its numbers read as decimals)."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc

    if written is not None:
        values = written
    kind = values.dtype
    if pd.api.types.is_float_dtype(kind):
        numbers = values.to_numpy(dtype=np.float64, na_value=np.nan)
        shown = numbers[~np.isnan(numbers)]
        if np.all(np.isfinite(shown) & (shown == np.round(shown)) & (np.abs(shown) < _EXACT)):
            values = values.astype("Int64")
    if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
        array = pa.array(values, from_pandas=True).cast(pa.large_string())
    elif values.dtype == object:  # mixed Python values (JSON): each as its text
        cells = [None if is_missing_cell(value) else str(value) for value in values]
        array = pa.array(cells, type=pa.large_string())
    else:
        array = pa.array(values, from_pandas=True).cast(pa.large_string())
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    return pc.utf8_trim_whitespace(array)


def _canonical_integers(text: pa.Array) -> pa.Array:
    """ "+007", "7.00" and "7" as "7"; "-0" as "0"; the sign kept on the others."""
    import pyarrow as pa
    import pyarrow.compute as pc

    bare = pc.replace_substring_regex(text, r"\.0*$", "")
    negative = pc.starts_with(bare, "-")
    digits = pc.utf8_ltrim(pc.replace_substring_regex(bare, r"^[+-]", ""), characters="0")
    digits = pc.if_else(pc.equal(digits, ""), "0", digits)
    signed = pc.binary_join_element_wise(
        pa.scalar("-", pa.large_string()), digits, pa.scalar("", pa.large_string())
    )
    return pc.if_else(pc.and_(negative, pc.not_equal(digits, "0")), signed, digits)


def group_codes(values: pd.Series) -> np.ndarray:
    """A code 0..k-1 per value by hashing: quick and small when the values repeat (clusters).

    Examples
    --------
    >>> import pandas as pd
    >>> group_codes(pd.Series(["d2", "d1", "d2"])).tolist()
    [0, 1, 0]
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    array = pa.array(values.to_numpy(dtype=object) if values.dtype == object else values)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    return pc.dictionary_encode(array).indices.to_numpy(zero_copy_only=False).astype(np.int64)
