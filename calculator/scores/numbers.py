"""Score differences for reading: signed, never zero when not zero, on the right side of a margin.

Scores come on any scale (BLEU 0-100, F1 0-1, a judge's 1-10), so a difference is shown with three
significant figures rather than as percentage points, and with more digits whenever fewer would
put it on the wrong side of zero or of a margin, or make it equal one it does not equal.
"""

from __future__ import annotations

import math

__all__ = ["format_score"]

_MOST_DIGITS = 17


def format_score(value: float, keep: tuple[float, ...] = (), *, signed: bool = True) -> str:
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

    Examples
    --------
    >>> format_score(0.01234), format_score(-12.345), format_score(0.0)
    ('+0.0123', '-12.3', '0')
    >>> format_score(-0.0500004, keep=(-0.05,))
    '-0.0500004'
    >>> format_score(1234.5, signed=False), format_score(3e-9)
    ('1234', '+3.00e-09')
    """
    if not math.isfinite(value):
        raise ValueError(f"`value` must be a finite number, but got {value!r}.")
    if value == 0:
        return "0"
    bounds = (0.0, *keep)
    for digits in range(3, _MOST_DIGITS + 1):
        text = _significant(value, digits, signed)
        shown = float(text)
        if all(_side(shown, bound) == _side(value, bound) for bound in bounds):
            return text
    return repr(value) if not signed or value < 0 else f"+{value!r}"


def _significant(value: float, digits: int, signed: bool) -> str:
    sign = "+" if signed else ""
    exponent = math.floor(math.log10(abs(value)))
    if exponent < -4 or exponent >= 15:
        return f"{value:{sign}.{digits - 1}e}"
    decimals = max(0, digits - 1 - exponent)
    return f"{value:{sign}.{decimals}f}"


def _side(value: float, bound: float) -> int:
    return (value > bound) - (value < bound)
