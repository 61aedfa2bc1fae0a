"""Outcome spellings and :func:`parse_outcomes`: pass/fail words, 0/1, or a score and a cut."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calculator._validation import message
from calculator.errors import CalculatorError, CalculatorTypeError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "PASS_WORDS",
    "FAIL_WORDS",
    "ParsedOutcomes",
    "parse_outcomes",
    "check_threshold",
    "text_codes",
]

#: Spellings read as a pass / a fail, compared after trimming spaces and lower-casing.
#: Numbers equal to 1 or 0 ("1", "0", "1.0", 1, 0.0) count as well.
PASS_WORDS = ("true", "pass", "passed", "yes", "correct", "right")
FAIL_WORDS = ("false", "fail", "failed", "no", "wrong", "incorrect")
_PASS_TEXT = (*PASS_WORDS, "1", "1.0")
_FAIL_TEXT = (*FAIL_WORDS, "0", "0.0")
_BY_VALUE = 10_000  # longer text columns are read once per distinct value


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedOutcomes:
    """Outcomes read from one column: three boolean arrays of the column's length.

    ``passed`` is meaningful only where neither ``missing`` nor ``unparseable`` is set.
    """

    passed: np.ndarray
    missing: np.ndarray
    unparseable: np.ndarray


def parse_outcomes(values: object, *, threshold: float | None = None) -> ParsedOutcomes:
    """Read pass/fail outcomes from a column of words, 0/1 values or scores.

    Parameters
    ----------
    values : pandas.Series or sequence
        One outcome per case.
    threshold : float, optional
        When given, every value must be a finite number and a case passes when its score is at
        least the threshold. When omitted, values must be 1/0 (as numbers or text) or one of
        :data:`PASS_WORDS` / :data:`FAIL_WORDS`, in any case, with surrounding spaces ignored.

    Returns
    -------
    ParsedOutcomes
        ``passed``, ``missing`` (empty, blank, null) and ``unparseable`` arrays.

    Raises
    ------
    TypeError, ValueError
        If `threshold` is not a finite number.

    Examples
    --------
    >>> parsed = parse_outcomes(["Pass", " no ", "1", "0.0", "maybe", None, True])
    >>> parsed.passed.tolist()
    [True, False, True, False, False, False, True]
    >>> parsed.missing.tolist(), parsed.unparseable.tolist()[4]
    ([False, False, False, False, False, True, False], True)
    >>> parse_outcomes([0.91, 0.42, 0.5], threshold=0.5).passed.tolist()
    [True, False, True]
    """
    import pandas as pd

    cut = check_threshold(threshold)
    series = values if isinstance(values, pd.Series) else pd.Series(list(values), dtype=object)
    if len(series) > _BY_VALUE and series.dtype == "str":
        # Text: each distinct value is read once (a long column repeats a few spellings).
        codes, uniques = text_codes(series)
        once = _parse_each(uniques, cut)
        return ParsedOutcomes(  # code -1 (a missing value) takes the appended last entry
            passed=np.append(once.passed, False)[codes],
            missing=np.append(once.missing, True)[codes],
            unparseable=np.append(once.unparseable, False)[codes],
        )
    return _parse_each(series, cut)


def text_codes(series: pd.Series) -> tuple[np.ndarray, pd.Series]:
    """A text column's distinct values (in order of appearance) and each row's index into them
    (int32; -1 where missing), by one hash of the column in Arrow, where the text lives.

    Examples
    --------
    >>> import pandas as pd
    >>> codes, values = text_codes(pd.Series(["b", None, "a", "b"], dtype="str"))
    >>> codes.tolist(), values.tolist()
    ([0, -1, 1, 0], ['b', 'a'])
    """
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(pa.array(series.array))
    if isinstance(encoded, pa.ChunkedArray):  # one dictionary for the whole column
        encoded = encoded.combine_chunks()
    codes = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False)
    return codes, pd.Series(encoded.dictionary.to_pylist(), dtype="str")


def _parse_each(series: pd.Series, cut: float | None) -> ParsedOutcomes:
    """:func:`parse_outcomes` value by value (vectorised)."""
    import pandas as pd

    missing = series.isna().to_numpy(dtype=bool)
    if pd.api.types.is_numeric_dtype(series.dtype):  # bool columns included: True is 1
        scores = series.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        text = series.astype("str").str.strip().str.lower()
        missing = missing | (text == "").to_numpy(dtype=bool, na_value=False)
        scores = np.full(len(series), np.nan)
        if cut is None:
            scores[text.isin(_PASS_TEXT).to_numpy(dtype=bool)] = 1.0
            scores[text.isin(_FAIL_TEXT).to_numpy(dtype=bool)] = 0.0
        rest = np.isnan(scores) & ~missing
        if rest.any():  # only the values that are not a usual spelling go through to_numeric
            scores[rest] = pd.to_numeric(text[rest], errors="coerce").to_numpy(
                dtype=np.float64, na_value=np.nan
            )
    with np.errstate(invalid="ignore"):
        if cut is None:
            valid = (scores == 0.0) | (scores == 1.0)
            passed = scores == 1.0
        else:
            valid = np.isfinite(scores)  # an infinite score says the scorer failed
            passed = scores >= cut
    unparseable = ~missing & ~valid
    return ParsedOutcomes(
        passed=passed & ~missing & ~unparseable, missing=missing, unparseable=unparseable
    )


def check_threshold(threshold: object) -> float | None:
    """`threshold` as a float, None left as None; TypeError or ValueError when not finite.

    Examples
    --------
    >>> check_threshold(1), check_threshold(None)
    (1.0, None)
    """
    if threshold is None:
        return None
    allowed = "a finite number"
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real):
        raise CalculatorTypeError(message("threshold", allowed, threshold))
    try:
        cut = float(threshold)
    except OverflowError:  # an integer too large for a float
        raise CalculatorError(message("threshold", allowed, threshold)) from None
    if not math.isfinite(cut):
        raise CalculatorError(message("threshold", allowed, threshold))
    return cut
