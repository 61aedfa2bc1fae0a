"""Numbers formatted for reading: p-values, percentage points, rates, levels and counts.

Shared by the report, the command line and the page, so that every surface prints a number the
same way. Three promises hold for every function here:

- a number that is not zero never prints as zero, and a negative one keeps its minus sign
  (precision grows until the first significant digit shows);
- a rate prints as 100% or 0% only when it is exactly 1 or 0, and a p-value prints as 1 only
  when it is exactly 1;
- given the significance level, a p-value never prints on the wrong side of it, and within a
  factor of 1.2 of it the p-value gets three significant figures.

None of them prints NaN or inf; they raise CalculatorError (a ValueError) on such input instead.
"""

from __future__ import annotations

import math
from decimal import ROUND_FLOOR, Decimal
from typing import TYPE_CHECKING

from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.text import format_count, plural

if TYPE_CHECKING:
    from calculator.posterior import BetterProbability

__all__ = [
    "format_confidence",
    "TINY_PVALUE",
    "format_count",
    "format_level",
    "format_p_equals",
    "format_percent",
    "format_probability",
    "format_size",
    "format_points",
    "format_pvalue",
    "format_pvalue_figures",
    "format_ratio",
    "limit_points",
    "margin_number",
    "method_words",
    "plural",
    "points_of",
]

#: Below this a p-value is written as "< 1e-300" with its log10.
TINY_PVALUE = 1e-300
#: A p-value within this factor of alpha gets three significant figures.
NEAR_ALPHA_FACTOR = 1.2
_MAX_DECIMALS = 20
#: A p-value this close to alpha (relative) is alpha computed with rounding error, and reads as it.
_SAME_AS_ALPHA = 1e-12
#: Beyond this many decimals a value too small to show in fixed notation is written "-6e-12".
_MAX_FIXED_DECIMALS = 9


def _check_finite(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        try:
            value = float(value)  # numpy scalars
        except (TypeError, ValueError):
            raise CalculatorTypeError(
                f"`{name}` must be a real number, but got {value!r}."
            ) from None
    value = float(value)
    if not math.isfinite(value):
        raise CalculatorError(f"`{name}` must be a finite number, but got {value!r}.")
    return value


def _fixed(value: float, decimals: int, *, keep: tuple[float, ...] = ()) -> str:
    """`value` with at least `decimals` decimals and as many more as it takes to keep it off
    zero and off every number in `keep` that it does not equal."""
    if value != 0 and float(f"{value:.{decimals}f}") == 0:
        # Show the first significant digit itself: -0.006, not -0.01.
        decimals = min(_MAX_DECIMALS, -math.floor(math.log10(abs(value))))
    if decimals > _MAX_FIXED_DECIMALS:
        return f"{value:.0e}"
    text = f"{value:.{decimals}f}"
    while decimals < _MAX_DECIMALS and (
        (value != 0 and float(text) == 0) or any(value != k and float(text) == k for k in keep)
    ):
        decimals += 1
        text = f"{value:.{decimals}f}"
    return text


def format_points(fraction: float) -> str:
    """A signed difference of rates in percentage points: one decimal, more if it would hide.

    A non-zero value never prints as 0.0 and never loses its sign: digits are added until the
    first significant one shows. Only an exact zero prints as "0.0" (without a sign), and only
    an exact +/-1 prints as +/-100.0.

    Examples
    --------
    >>> format_points(0.1)
    '+10.0'
    >>> format_points(-0.00006)
    '-0.006'
    >>> format_points(0.0)
    '0.0'
    >>> format_points(0.999996)
    '+99.9996'
    """
    fraction = _check_finite(fraction, "fraction")
    if fraction == 0:
        return "0.0"
    text = _fixed(100.0 * fraction, 1, keep=(100.0, -100.0))
    return text if text.startswith("-") else f"+{text}"


def format_percent(fraction: float) -> str:
    """A rate as a percentage with one decimal, more when one decimal would read 0% or 100%.

    Examples
    --------
    >>> format_percent(0.265)
    '26.5%'
    >>> format_percent(1_000_000 / 1_000_003)
    '99.9997%'
    >>> format_percent(3 / 1_000_003)
    '0.0003%'
    >>> format_percent(1.0), format_percent(0.0)
    ('100.0%', '0.0%')
    """
    fraction = _check_finite(fraction, "fraction")
    return f"{_fixed(100.0 * fraction, 1, keep=(100.0,))}%"


def format_size(size: float, alpha: float) -> str:
    """A test's actual size as a percentage, with digits added until it reads above or below
    `alpha` as it lies (5.02% beside α = 0.05, never "5.0%").

    Examples
    --------
    >>> format_size(0.0601837, 0.05), format_size(0.0502, 0.05), format_size(0.05000001, 0.05)
    ('6.0%', '5.02%', '5.000001%')
    """
    for decimals in range(1, 12):
        shown = round(100.0 * size, decimals)
        if side_of(shown / 100.0, alpha) == side_of(size, alpha) or decimals == 11:
            return f"{shown:.{decimals}f}%"
    return f"{100.0 * size:.1f}%"  # not reached


def format_level(value: float) -> str:
    """A per-gate significance level with three significant figures ("0.000200", "0.00833"),
    never above the value: a level to test at must not print above the one that keeps the
    overall false-alarm rate at alpha (Šidák's 0.016952 for three gates must not read 0.0170,
    at which three independent gates would exceed 0.05).

    Where three figures would round up, the value is cut after four instead: 0.01/6 =
    0.0016667 reads 0.001666, whose trailing 6 shows the cut, where 0.00166 read as a slip in
    the division.

    Examples
    --------
    >>> format_level(0.05 / 6), format_level(0.0002), format_level(0.000201)
    ('0.00833', '0.000200', '0.000201')
    >>> format_level(1 - 0.95 ** (1 / 3)), format_level(0.01 / 6), format_level(2e-9)
    ('0.01695', '0.001666', '2.00e-09')
    """
    value = _check_finite(value, "value")
    text = f"{value:#.3g}"
    if value > 0 and float(text) > value:
        exact = Decimal(repr(value))
        step = Decimal(1).scaleb(exact.adjusted() - 3)
        text = f"{float(exact.quantize(step, rounding=ROUND_FLOOR)):#.4g}"
    return text


def format_confidence(level: float) -> str:
    """A confidence level as a percentage, with as many digits as it takes never to read as
    100% (or 0%) when it is not ("95%", "99.9%", "99.99999999999999%").

    Examples
    --------
    >>> format_confidence(0.95), format_confidence(0.999), format_confidence(0.9999999999999999)
    ('95%', '99.9%', '99.99999999999999%')
    >>> format_confidence(1e-6), format_confidence(1 - 2 * 0.03125)
    ('0.0001%', '93.75%')
    """
    level = _check_finite(level, "level")
    percent = level * 100
    # A level with a short exact form (1 - 2 alpha at alpha = 0.03125 is 93.75%) is written in
    # full: rounded to 93.8% it would not be the level the test uses.
    for digits in range(3, 7):
        text = f"{percent:.{digits}g}"
        if math.isclose(float(text), percent, rel_tol=1e-12) and float(text) not in (0.0, 100.0):
            return f"{Decimal(text):f}%"
    for digits in range(3, 18):
        text = f"{percent:.{digits}g}"
        if float(text) not in (0.0, 100.0) or percent in (0.0, 100.0):
            break
    return f"{Decimal(text):f}%"


def _p_text(pvalue: float, digits: int | None) -> str:
    """`pvalue` with three decimals (`digits` None) or `digits` significant figures; two
    significant figures in scientific notation below 0.001."""
    if pvalue < 0.001:
        return f"{pvalue:.{(digits or 2) - 1}e}"
    if digits is None:
        return f"{pvalue:.3f}"
    return f"{pvalue:.{max(3, digits - 1 - math.floor(math.log10(pvalue)))}f}"


def format_pvalue(
    pvalue: float, log10_pvalue: float | None = None, *, alpha: float | None = None
) -> str:
    """A p-value for reading.

    Three decimals from 0.001 up, two significant figures in scientific notation below, and
    "< 1e-300" with the log10 when the value is too small for a double. With `alpha` given, a
    p-value within a factor of 1.2 of alpha gets three significant figures (0.0498 and 0.0501
    never both read 0.050), and digits are added until the printed number lies on the same side
    of alpha as the p-value. A p-value below 1 never prints as 1: above 0.999 it reads
    "> 0.999".

    Examples
    --------
    >>> format_pvalue(0.04139)
    '0.041'
    >>> format_pvalue(0.0498, alpha=0.05), format_pvalue(0.0501, alpha=0.05)
    ('0.0498', '0.0501')
    >>> format_pvalue(0.050004, alpha=0.05)
    '0.050004'
    >>> format_pvalue(0.031250000000000014, alpha=0.03125)  # the exact p 2/2^6, a few ulps off
    '0.03125'
    >>> format_pvalue(3.2e-07)
    '3.2e-07'
    >>> format_pvalue(0.0, -1504.8459)
    '< 1e-300 (log10 p = -1504.85)'
    >>> format_pvalue(1.0), format_pvalue(0.99996)
    ('1', '> 0.999')
    """
    if not 0.0 <= pvalue <= 1.0:  # NaN fails this too
        raise CalculatorError(f"`pvalue` must lie in [0, 1], but got {pvalue!r}.")
    if log10_pvalue is None:
        log10_pvalue = math.log10(pvalue) if pvalue > 0 else -math.inf
    if log10_pvalue < math.log10(TINY_PVALUE):
        if math.isfinite(log10_pvalue):
            return f"< 1e-300 (log10 p = {log10_pvalue:.2f})"
        return "< 1e-300"
    if pvalue == 1.0:
        return "1"
    digits = None
    if alpha is not None and math.isclose(pvalue, alpha, rel_tol=_SAME_AS_ALPHA):
        # An exact tail equal to alpha computed a few ulps off (2/2^6 as 0.031250000000000014):
        # it is alpha, and the one rule (calculator.significance) decides it as equal.
        pvalue = float(alpha)
    if alpha is not None:
        alpha = _check_finite(alpha, "alpha")
        if alpha / NEAR_ALPHA_FACTOR <= pvalue <= alpha * NEAR_ALPHA_FACTOR:
            digits = 3
    text = _p_text(pvalue, digits)
    while alpha is not None and _misleads(float(text), pvalue, alpha) and (digits or 3) < 17:
        digits = (digits or 3) + 1
        text = _p_text(pvalue, digits)
    if float(text) == 1.0:  # p < 1 here: it is not written as 1
        return "> 0.999"
    return text


def format_pvalue_figures(
    pvalue: float, alpha: float | None = None, *, log10_pvalue: float | None = None
) -> str:
    """A p-value with three significant figures (exact tails read in full: 0.0625, 0.00391),
    as :func:`format_pvalue` writes it whenever that would put it on the wrong side of `alpha`,
    or read as alpha when it is not (or not when it is). A p-value that underflowed to 0 reads
    as the power of ten of `log10_pvalue` ("10^-400.3") when that is given.

    Examples
    --------
    >>> format_pvalue_figures(0.0625, 0.05), format_pvalue_figures(0.00390625)
    ('0.0625', '0.00391')
    >>> format_pvalue_figures(0.031250000000000014, 0.03125), format_pvalue_figures(0.05004, 0.05)
    ('0.03125', '0.05004')
    >>> format_pvalue_figures(0.0, 0.05, log10_pvalue=-400.26)
    '10^-400.3'
    """
    if pvalue == 0 and log10_pvalue is not None:
        return f"10^{log10_pvalue:.1f}"
    text = f"{pvalue:.3g}"
    if alpha is None:
        return text
    equal = math.isclose(pvalue, alpha, rel_tol=_SAME_AS_ALPHA)
    if not equal and not _misleads(float(text), pvalue, alpha):
        return text
    return format_pvalue(pvalue, alpha=alpha)


def _misleads(printed: float, pvalue: float, alpha: float) -> bool:
    """True when the printed p lies on the other side of alpha, reads as alpha itself when it
    is not, or does not read as alpha when it is."""
    return (printed <= alpha) != (pvalue <= alpha) or ((printed == alpha) != (pvalue == alpha))


def format_p_equals(
    pvalue: float, log10_pvalue: float | None = None, *, alpha: float | None = None
) -> str:
    """ "p = 0.041" for a sentence, "p < 1e-300 (log10 p = ...)" or "p > 0.999" at the ends.

    Examples
    --------
    >>> format_p_equals(0.0253)
    'p = 0.025'
    >>> format_p_equals(0.0, -601.759)
    'p < 1e-300 (log10 p = -601.76)'
    """
    text = format_pvalue(pvalue, log10_pvalue, alpha=alpha)
    return f"p {text}" if text[0] in "<>" else f"p = {text}"


def format_ratio(value: float) -> str:
    """A ratio (such as an odds ratio) with three significant figures, kept off 1 and off 0.

    Digits are added until a value other than 1 no longer reads as 1 (so a limit of 0.9996
    reads 0.9996, on its side of "no difference"); infinity reads "∞".

    Examples
    --------
    >>> format_ratio(6.0), format_ratio(55.197091), format_ratio(0.0783555)
    ('6.00', '55.2', '0.0784')
    >>> format_ratio(0.99957), format_ratio(1.0), format_ratio(float("inf"))
    ('0.9996', '1.00', '∞')
    >>> format_ratio(1.2e9), format_ratio(646.2)
    ('1.20e+09', '646')
    """
    if value == math.inf:
        return "∞"
    value = _check_finite(value, "value")
    if value < 0:
        raise CalculatorError(f"`value` must be a non-negative ratio, but got {value!r}.")
    digits = 3
    text = f"{value:#.{digits}g}"
    while value != 1.0 and float(text) == 1.0 and digits < 17:
        digits += 1
        text = f"{value:#.{digits}g}"
    return text.removesuffix(".")  # "646." where the figures end at the point


def method_words(method: str, *, in_parentheses: bool = False) -> str:
    """An interval method's name as it reads inside a sentence.

    The display names (:data:`calculator.intervals.CI_METHOD_NAMES`) are labels that start a
    line; inside a sentence a name that is not a person's is written in lower case, and inside
    parentheses the authors follow a comma rather than a nested pair of parentheses.

    Examples
    --------
    >>> method_words("exact-compatible"), method_words("exact-compatible", in_parentheses=True)
    ('exact-compatible (Fay-Lumbard)', 'exact-compatible, Fay-Lumbard')
    >>> method_words("agresti-min")
    'Agresti-Min'
    """
    from calculator.intervals import CI_METHOD_NAMES

    if method == "exact-compatible":
        authors = ", Fay-Lumbard" if in_parentheses else " (Fay-Lumbard)"
        return f"exact-compatible{authors}"
    return CI_METHOD_NAMES.get(method, method)


def margin_number(margin: float, *, points: bool = True) -> str:
    """A margin as a bare number, in points (else in its own units), with every figure it was
    given: twelve significant figures drop only noise (100 x 0.07 = 7.000000000000001), where
    six could put it across a limit printed beside it, and a tiny one read 0.

    Examples
    --------
    >>> margin_number(0.07), margin_number(0.025), margin_number(0.1234567)
    ('7', '2.5', '12.34567')
    >>> margin_number(1e-13), margin_number(0.1234567, points=False)
    ('1e-11', '0.1234567')
    """
    value = _check_finite(margin, "margin")
    return f"{100.0 * value if points else value:.12g}"


def points_of(margin: float) -> str:
    """A margin in points for a sentence: "1 point", "2.5 points".

    Examples
    --------
    >>> points_of(0.01), points_of(0.025)
    ('1 point', '2.5 points')
    """
    value = margin_number(margin)
    return f"{value} point" if value == "1" else f"{value} points"


def limit_points(value: float, bounds: list[float]) -> str:
    """An interval limit in signed points, with digits added until it reads on the same side of
    zero and of every bound (the margins) as it lies, and equal to one only when it is.

    Examples
    --------
    >>> limit_points(-0.0099996, [-0.01, 0.01])
    '-0.99996'
    >>> limit_points(0.1234, []), limit_points(2e-7, []), limit_points(0.0, [])
    ('+12.3', '+0.00002', '0.0')
    """
    if value == 0:
        return "0.0"
    bounds = [0.0, *bounds]
    first = format_points(value)  # as the report prints it: -0.0007, not -0.001
    if "e" in first:
        return first
    for decimals in range(len(first.partition(".")[2]) or 1, 16):
        text = f"{100.0 * value:+.{decimals}f}"
        shown = float(text) / 100.0
        if all(side_of(shown, bound) == side_of(value, bound) for bound in bounds):
            return text
    return format_points(value)  # never zero for a non-zero value, and keeps the sign


def side_of(value: float, bound: float) -> int:
    """-1, 0 or 1 as `value` lies below, at or above `bound`."""
    return (value > bound) - (value < bound)


def format_probability(better: BetterProbability) -> str:
    """P(B better) as the page and the command line print it: a percentage, never 0% or 100%
    (under the Jeffreys prior neither is ever exact), and never a run of nines.

    Examples
    --------
    >>> from calculator.posterior import probability_b_better
    >>> format_probability(probability_b_better(5, 15))
    '98.9%'
    >>> format_probability(probability_b_better(0, 50))
    '> 99.9999%'
    >>> format_probability(probability_b_better(50, 0))
    '< 0.0001%'
    """
    if better.probability_A_better < 1e-6:
        return "> 99.9999%"
    if better.probability_B_better < 1e-6:
        return "< 0.0001%"
    return format_percent(better.probability_B_better)
