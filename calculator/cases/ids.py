"""Case ids and group labels: their normalised text, and integer codes for matching them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["id_text", "dense_codes", "group_codes"]


def id_text(series: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Ids as trimmed text (integral floats without ".0"), and where they are missing.

    Examples
    --------
    >>> import pandas as pd
    >>> text, missing = id_text(pd.Series([7.0, None, 8.0]))
    >>> text[~missing].tolist(), missing.tolist()
    (['7', '8'], [False, True, False])
    """
    import pandas as pd

    missing = series.isna().to_numpy(dtype=bool)
    if pd.api.types.is_float_dtype(series.dtype):
        values = series.to_numpy(dtype=np.float64, na_value=np.nan)
        present = values[~missing]
        if np.all(np.isfinite(present) & (present == np.round(present))):
            series = series.astype("Int64")
    text = series.astype("str").str.strip()
    missing = missing | (text == "").to_numpy(dtype=bool, na_value=False)
    return text.reset_index(drop=True), missing


def dense_codes(values: pd.Series) -> np.ndarray:
    """A code 0..k-1 per value, equal values sharing one, found by sorting (no missing values).

    Sorting needs about half the memory of a hash table on a million distinct strings.

    Examples
    --------
    >>> import pandas as pd
    >>> dense_codes(pd.Series(["b", "a", "b"])).tolist()
    [1, 0, 1]
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    array = (
        pa.chunked_array([pa.array(values.to_numpy(dtype=object))])
        if (values.dtype == object)
        else pa.chunked_array(pa.array(values))
    )
    order = pc.sort_indices(array).to_numpy()
    ordered = array.take(order)
    starts = np.ones(len(order), dtype=bool)
    if len(order) > 1:
        same = pc.equal(ordered[1:], ordered[:-1]).to_numpy()
        starts[1:] = ~same
    codes = np.empty(len(order), dtype=np.int64)
    codes[order] = np.cumsum(starts) - 1
    return codes


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
