"""Numbers without a scale of their own, to significant figures: scores and score differences
(BLEU 0-100, F1 0-1, a judge's 1-10), shares, and Monte Carlo standard errors.

A number here gets more digits whenever fewer would put it on the wrong side of zero or of a
margin, make it equal one it does not equal, or read 0 (or 1) when it is not. Rates, points,
p-values and levels are in :mod:`calculator.report.formatting`.
"""

from __future__ import annotations

import math
import sys

from calculator.errors import CalculatorError
from calculator.report.formatting import side_of

__all__ = [
    "floor_bound",
    "floor_undecided",
    "format_score",
    "format_share",
    "format_standard_error",
]


#: The most significant figures a score is printed with.
_MOST_DIGITS = 17


def format_score(
    value: float, keep: tuple[float, ...] = (), *, signed: bool = True, snap: bool = False
) -> str:
    """A score or score difference with three significant figures, more when needed.

    Parameters
    ----------
    value : float
        A finite number.
    keep : tuple of float
        Numbers (0 and the margins) that the printed value must stay on the same side of, and
        equal only when it is equal.
    signed : bool
        Write "+" before positive numbers (differences); False for means.
    snap : bool
        A value within 8 units in the last place of a bound in `keep` is printed as that bound
        (0.6 - 0.5 is 0.09999999999999998 in floating point, beside a margin of 0.1). Only for
        a point estimate that decides nothing: an interval's end is compared with the margin
        by the decision, and its digits must show the side it lies on.

    Examples
    --------
    >>> format_score(0.01234), format_score(-12.345), format_score(0.0)
    ('+0.0123', '-12.3', '0')
    >>> format_score(-0.0500004, keep=(-0.05,))
    '-0.0500004'
    >>> format_score(1234.5, signed=False), format_score(3e-9)
    ('1234', '+3.00e-09')
    >>> format_score(0.6 - 0.5, keep=(0.1,)), format_score(0.6 - 0.5, keep=(0.1,), snap=True)
    ('+0.09999999999999998', '+0.100')
    """
    if not math.isfinite(value):
        raise CalculatorError(f"`value` must be a finite number, but got {value!r}.")
    if value == 0:
        return "0"
    bounds = (0.0, *keep)
    if snap:
        ulps = 8.0 * sys.float_info.epsilon
        for bound in keep:
            if bound != 0 and abs(value - bound) <= ulps * max(abs(value), abs(bound)):
                value = bound
    for digits in range(3, _MOST_DIGITS + 1):
        text = _significant(value, digits, signed)
        shown = float(text)
        if all(side_of(shown, bound) == side_of(value, bound) for bound in bounds):
            return text
    return repr(value) if not signed or value < 0 else f"+{value!r}"


def _significant(value: float, digits: int, signed: bool) -> str:
    sign = "+" if signed else ""
    exponent = math.floor(math.log10(abs(value)))
    if exponent < -4 or exponent >= 15:
        return f"{value:{sign}.{digits - 1}e}"
    decimals = max(0, digits - 1 - exponent)
    return f"{value:{sign}.{decimals}f}"


def format_standard_error(value: float) -> str:
    """A Monte Carlo standard error with four decimals, never reading 0 when it is not.

    Examples
    --------
    >>> format_standard_error(0.00218), format_standard_error(3.1e-6), format_standard_error(0.0)
    ('0.0022', '3.1e-06', '0.0000')
    """
    if not math.isfinite(value):
        raise CalculatorError(f"`value` must be a finite number, but got {value!r}.")
    text = f"{value:.4f}"
    if value != 0 and float(text) == 0:
        return f"{value:.1e}"
    return text


def format_share(value: float) -> str:
    """A share with four significant figures, all of them when fewer would read 0 or 1.

    Examples
    --------
    >>> format_share(0.80039), format_share(0.065), format_share(0.0)
    ('0.8004', '0.065', '0')
    >>> format_share(0.999996), format_share(2e-7)
    ('0.999996', '2e-07')
    """
    text = f"{value:.4g}"
    if float(text) in (0.0, 1.0) and value not in (0.0, 1.0):
        return repr(value)
    return text


def floor_bound(resamples: int) -> str:
    """A Monte Carlo p at its floor, as the bound it is: no resample was as extreme as the data.

    Examples
    --------
    >>> floor_bound(10_000)
    '≤ 1/10,001'
    """
    return f"≤ 1/{resamples + 1:,}"


def floor_undecided(resamples: int, alpha: float, what: str = "resamples") -> str:
    """Why a Monte Carlo p at its floor decides nothing at an alpha below the floor (a clause,
    no capital, no full stop).

    Examples
    --------
    >>> floor_undecided(10_000, 1e-5)  # doctest: +NORMALIZE_WHITESPACE
    'the 10,000 resamples cannot tell whether p ≤ α = 1e-05, which lies below their floor
    of 1/10,001: more resamples are needed to decide'
    """
    return (
        f"the {resamples:,} {what} cannot tell whether p ≤ α = {alpha:g}, which lies below "
        f"their floor of 1/{resamples + 1:,}: more resamples are needed to decide"
    )
