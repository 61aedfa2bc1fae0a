"""Checks of the core's inputs, all worded with one template.

Every check returns the value in its normal form or raises, TypeError for a value of the wrong type
and ValueError for a value out of range, with the message

    "`name` must be <what is allowed>, but got <the value>."

as scipy words its own ("`b` must be a non-negative integer, but got -3."). A value too long to
print (an integer of thousands of digits, a long string) is shown shortened, so the message itself
never fails or floods a terminal.

Contents:

- :data:`MAX_COUNT`: the largest count of cases accepted in a cell of a table.
- :func:`message`: the template.
- :func:`check_count`, :func:`check_bounded_count`: whole numbers, bounded.
- :func:`check_probability`: numbers in (0, 1) or [0, 1].
- :func:`check_choice`: one of a few strings.
"""

from __future__ import annotations

import math
import numbers

from calculator.errors import CalculatorError, CalculatorTypeError

__all__ = [
    "MAX_COUNT",
    "check_bounded_count",
    "check_choice",
    "check_count",
    "check_probability",
    "message",
    "shown",
]

#: Largest count accepted in any cell of a paired table (and for b and c by the tests). Every
#: figure of the core is exact to double precision below it (a table of four such cells has
#: n = 4 x 10^12 < 2^53, so every sum of counts is an exact float) and takes milliseconds; the
#: calculator page's own limit, 10^9 per cell, is well inside it.
MAX_COUNT = 10**12

# Integers with more digits than this, and longer strings, are shown shortened in messages.
_SHOWN_DIGITS = 20
_SHOWN_CHARACTERS = 60


def shown(value: object) -> str:
    """The value as a message shows it: its repr, shortened when long.

    Examples
    --------
    >>> shown(-3), shown("3")
    ('-3', "'3'")
    >>> shown(10**400)
    'an integer of 401 digits'
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        number = int(value)
        sign = "a negative integer" if number < 0 else "an integer"
        if number.bit_length() > 4000:  # str() refuses integers of over 4,300 digits
            digits = math.floor(number.bit_length() * math.log10(2))
            return f"{sign} of about {digits:,} digits"
        digits = len(str(abs(number)))
        if digits > _SHOWN_DIGITS:
            return f"{sign} of {digits:,} digits"
    text = repr(value)
    if len(text) > _SHOWN_CHARACTERS:
        text = f"{text[: _SHOWN_CHARACTERS - 5]}... ({len(text):,} characters)"
    return text


def message(name: str, allowed: str, value: object) -> str:
    """The one template: "`name` must be <allowed>, but got <value>."

    Examples
    --------
    >>> message("b", "a non-negative integer", -3)
    '`b` must be a non-negative integer, but got -3.'
    """
    return f"`{name}` must be {allowed}, but got {shown(value)}."


def check_count(
    value: object, name: str, *, maximum: int | None = MAX_COUNT, minimum: int = 0
) -> int:
    """Return `value` as an int if it is a whole number from `minimum` to `maximum`, else raise.

    Python and numpy integers and integral floats (``3.0``) are accepted; ``bool``, fractions,
    negatives, NaN, infinities and strings are not.

    Parameters
    ----------
    value : object
        The candidate count.
    name : str
        The argument's name, as the message shows it.
    maximum : int or None
        Largest count accepted, by default :data:`MAX_COUNT`; None for no bound (for a seed).
    minimum : int
        Smallest count accepted, 0 by default; below a positive minimum the message says
        "at least <minimum>".

    Raises
    ------
    TypeError
        If `value` is not a real number (strings, ``None``, ``bool``).
    ValueError
        If `value` is fractional, not finite, below `minimum` or above `maximum`.

    Examples
    --------
    >>> check_count(3.0, "a")
    3
    >>> check_count(-3, "b")
    Traceback (most recent call last):
    ...
    calculator.errors.CalculatorError: `b` must be a non-negative integer, but got -3.
    >>> check_count(10**400, "d")
    Traceback (most recent call last):
    ...
    calculator.errors.CalculatorError: `d` must be a non-negative integer of at most \
1,000,000,000,000 (10^12), but got an integer of 401 digits.
    """
    allowed = "a non-negative integer"
    count = _whole_number(value, name, allowed)
    if count < minimum:
        raise CalculatorError(
            message(name, f"at least {minimum:,}" if minimum > 0 else allowed, value)
        )
    if maximum is not None and count > maximum:
        raise CalculatorError(message(name, f"{allowed} of at most {_limit(maximum)}", value))
    return count


def _whole_number(value: object, name: str, allowed: str) -> int:
    """`value` as an int when it is a whole number (an integral float counts), else raise with
    `allowed` in the message. bool is an Integral, but True as a count is almost always a
    mistake, so it is refused."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise CalculatorTypeError(message(name, allowed, value))
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    if not math.isfinite(number) or not number.is_integer():
        raise CalculatorError(message(name, allowed, value))
    return int(number)


def check_bounded_count(value: object, name: str, low: int, high: int) -> int:
    """Return `value` as an int if it is a whole number from `low` to `high`, else raise.

    Examples
    --------
    >>> check_bounded_count(20, "looks", 1, 1_000)
    20
    >>> check_bounded_count(0, "looks", 1, 1_000)
    Traceback (most recent call last):
    ...
    calculator.errors.CalculatorError: `looks` must be an integer from 1 to 1,000, but got 0.
    """
    allowed = f"an integer from {low:,} to {high:,}"
    count = _whole_number(value, name, allowed)
    if not low <= count <= high:
        raise CalculatorError(message(name, allowed, value))
    return count


def check_probability(value: object, name: str, *, open_interval: bool = True) -> float:
    """Return `value` as a float in (0, 1) (or [0, 1] with ``open_interval=False``), else raise.

    Raises
    ------
    TypeError
        If `value` is not a real number (strings, ``None``, ``bool``).
    ValueError
        If `value` is outside the interval, or NaN.

    Examples
    --------
    >>> check_probability(0.95, "level")
    0.95
    >>> check_probability(1, "level")
    Traceback (most recent call last):
    ...
    calculator.errors.CalculatorError: `level` must be a number strictly between 0 and 1, but got 1.
    """
    allowed = "a number strictly between 0 and 1" if open_interval else "a number from 0 to 1"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise CalculatorTypeError(message(name, allowed, value))
    try:
        number = float(value)
    except OverflowError:  # an integer too large for a float is out of range anyway
        raise CalculatorError(message(name, allowed, value)) from None
    inside = 0.0 < number < 1.0 if open_interval else 0.0 <= number <= 1.0
    if not inside:  # also rejects NaN, for which every comparison is false
        raise CalculatorError(message(name, allowed, value))
    return number


def check_choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    """Return `value` if it is one of `choices`, else raise CalculatorError.

    Examples
    --------
    >>> check_choice("exact", "test", ("exact", "chi2"))
    'exact'
    >>> check_choice("wald", "test", ("exact", "chi2"))
    Traceback (most recent call last):
    ...
    calculator.errors.CalculatorError: `test` must be one of "exact", "chi2", but got 'wald'.
    """
    # A list or dict is unhashable, so compare by equality rather than set membership.
    if not isinstance(value, str) or value not in choices:
        allowed = ", ".join(f'"{choice}"' for choice in choices)
        raise CalculatorError(message(name, f"one of {allowed}", value))
    return value


def _limit(maximum: int) -> str:
    """1,000,000,000,000 (10^12) for a power of ten, else the number with separators."""
    power = round(math.log10(maximum)) if maximum > 0 else 0
    if maximum >= 10**6 and 10**power == maximum:
        return f"{maximum:,} (10^{power})"
    return f"{maximum:,}"
