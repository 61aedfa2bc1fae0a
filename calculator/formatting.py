"""Numbers formatted for reading: p-values, percentage points and rates.

Shared by the report, the command line and the page, so that every surface prints a number the
same way, and none prints NaN, inf or a bare 0 for an underflowed p-value.
"""

from __future__ import annotations

import math

__all__ = ["format_pvalue", "format_p_equals", "format_points", "format_percent", "TINY_PVALUE"]

#: Below this a p-value is written as "< 1e-300" with its log10.
TINY_PVALUE = 1e-300


def format_pvalue(pvalue: float, log10_pvalue: float | None = None) -> str:
    """A p-value for reading: three decimals, scientific below 0.001, "< 1e-300" with its log10.

    Examples
    --------
    >>> format_pvalue(0.04139)
    '0.041'
    >>> format_pvalue(3.2e-07)
    '3.2e-07'
    >>> format_pvalue(0.0, -1504.8459)
    '< 1e-300 (log10 p = -1504.85)'
    >>> format_pvalue(1.0)
    '1'
    """
    if not 0.0 <= pvalue <= 1.0:  # NaN fails this too
        raise ValueError(f"`pvalue` must lie in [0, 1], but got {pvalue!r}.")
    if log10_pvalue is None:
        log10_pvalue = math.log10(pvalue) if pvalue > 0 else -math.inf
    if log10_pvalue < math.log10(TINY_PVALUE):
        if math.isfinite(log10_pvalue):
            return f"< 1e-300 (log10 p = {log10_pvalue:.2f})"
        return "< 1e-300"
    if pvalue == 1.0:
        return "1"
    if pvalue >= 0.001:
        return f"{pvalue:.3f}"
    return f"{pvalue:.1e}"


def format_p_equals(pvalue: float, log10_pvalue: float | None = None) -> str:
    """ "p = 0.041" for a sentence, or "p < 1e-300 (log10 p = ...)" when too small for a double.

    Examples
    --------
    >>> format_p_equals(0.0253)
    'p = 0.025'
    >>> format_p_equals(0.0, -601.759)
    'p < 1e-300 (log10 p = -601.76)'
    """
    text = format_pvalue(pvalue, log10_pvalue)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def format_points(fraction: float) -> str:
    """A signed difference of rates in percentage points, one decimal.

    Examples
    --------
    >>> format_points(0.1)
    '+10.0'
    >>> format_points(-0.00001)
    '+0.0'
    """
    points = round(100.0 * fraction, 1) + 0.0  # + 0.0 turns -0.0 into 0.0
    return f"{points:+.1f}"


def format_percent(fraction: float, decimals: int = 1) -> str:
    """A rate as a percentage with `decimals` decimals; a rate too small for them keeps two
    significant digits rather than printing as zero.

    Examples
    --------
    >>> format_percent(0.265), format_percent(0.8, decimals=0), format_percent(0.00012)
    ('26.5%', '80%', '0.012%')
    """
    if 0 < fraction < 10.0 ** -(decimals + 2):
        return f"{100.0 * fraction:.2g}%"
    return f"{100.0 * fraction:.{decimals}f}%"
