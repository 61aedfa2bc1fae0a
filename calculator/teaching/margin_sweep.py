"""What pairing buys: the same two pass rates with more or less agreement between the systems.

Holding A's and B's pass counts fixed, the both-pass count a can move between its smallest and
largest possible values; b, c and d follow. McNemar's test sees only the discordant pairs, which
shrink as agreement grows, while the unpaired test sees only the two pass rates, which do not move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calculator._validation import check_bounded_count, check_choice
from calculator.errors import CalculatorError
from calculator.mcnemar import CONVENTIONS, mcnemar_exact, unpaired_z_test
from calculator.table import PairedTable

__all__ = ["MAX_SWEEP_POINTS", "MarginSweep", "margin_sweep"]

#: Most tables a sweep returns.
MAX_SWEEP_POINTS = 1_001


@dataclass(frozen=True, slots=True, kw_only=True)
class MarginSweep:
    """Tables with A's and B's pass counts fixed, from least to most agreement.

    Attributes
    ----------
    a, b, c, d : tuple of int
        The cells of each table; a + b and a + c are the same in every one.
    agreement : tuple of float
        (a + d) / n for each table, ascending.
    exact_pvalue, exact_log10 : tuple of float
        McNemar's exact p-value (and its log10) for each table.
    unpaired_pvalue, unpaired_log10 : tuple of float
        The unpaired two-proportion z-test's p-value (and its log10): the same in every table,
        since it sees only the two pass rates.
    entered_index : int
        Position of the entered table in the sweep (always included).
    convention : str
        The exact test's convention.
    """

    a: tuple[int, ...]
    b: tuple[int, ...]
    c: tuple[int, ...]
    d: tuple[int, ...]
    agreement: tuple[float, ...]
    exact_pvalue: tuple[float, ...]
    exact_log10: tuple[float, ...]
    unpaired_pvalue: tuple[float, ...]
    unpaired_log10: tuple[float, ...]
    entered_index: int
    convention: str

    def to_dict(self) -> dict[str, object]:
        """Every field, JSON-ready (tuples become lists)."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name in self.__slots__
            for value in (getattr(self, name),)
        }


def margin_sweep(
    a: int, b: int, c: int, d: int, points: int = 101, *, convention: str = "doubling"
) -> MarginSweep:
    """The tables that keep both pass rates of (a, b, c, d), with both tests' p-values.

    Parameters
    ----------
    a, b, c, d : int
        The entered table (both pass, only A, only B, both fail), n >= 1.
    points : int
        Most tables to return, 2 to `MAX_SWEEP_POINTS`: every feasible table when there are
        that few, else evenly spaced ones, always with both ends and the entered table.
    convention : {"doubling", "mid-p"}
        Of the exact test.

    Returns
    -------
    MarginSweep

    Raises
    ------
    TypeError, ValueError
        For an invalid count, an empty table, `points` outside 2..MAX_SWEEP_POINTS, or an
        unknown convention.

    Notes
    -----
    With A passing r_A = a + b cases and B passing r_B = a + c of n, the feasible tables are
    a' = max(0, r_A + r_B - n), ..., min(r_A, r_B) with b' = r_A - a', c' = r_B - a' and
    d' = n - r_A - r_B + a'. Agreement (a' + d')/n rises by 2/n with each step of a', and the
    discordant count falls by 2: b' - c' = r_A - r_B stays fixed while b' + c' shrinks, so the
    doubled exact p-value never rises as agreement rises, and falls towards 2^(1 - |b - c|) as the
    smaller discordant cell is emptied. At equal pass rates (b' = c') it stays at 1; the mid-p
    value there is below 1 and returns to 1 when no pair disagrees. The unpaired test's p-value
    depends on the two rates only.

    Examples
    --------
    A passes 75 of 100 cases and B 65, so at least 40 and at most 65 cases pass both:

    >>> sweep = margin_sweep(60, 15, 5, 20, points=5)
    >>> sweep.a, sweep.entered_index
    ((40, 46, 52, 59, 60, 65), 4)
    >>> [round(p, 3) for p in sweep.exact_pvalue], round(sweep.unpaired_pvalue[0], 3)
    ([0.245, 0.193, 0.132, 0.052, 0.041, 0.002], 0.123)
    """
    table = PairedTable(a, b, c, d)
    if table.n == 0:
        raise CalculatorError("The table is empty (a + b + c + d = 0): a sweep needs a case.")
    points = check_bounded_count(points, "points", 2, MAX_SWEEP_POINTS)
    check_choice(convention, "convention", CONVENTIONS)
    n, pass_a, pass_b = table.n, table.a + table.b, table.a + table.c
    lowest, highest = max(0, pass_a + pass_b - n), min(pass_a, pass_b)
    if highest - lowest + 1 <= points:
        both = np.arange(lowest, highest + 1, dtype=np.int64)
    else:
        both = np.unique(np.linspace(lowest, highest, points).round().astype(np.int64))
    both = np.union1d(both, [table.a])
    unpaired = unpaired_z_test(table.a, table.b, table.c, table.d)
    exact = [mcnemar_exact(pass_a - int(x), pass_b - int(x), convention=convention) for x in both]
    return MarginSweep(
        a=tuple(int(x) for x in both),
        b=tuple(int(pass_a - x) for x in both),
        c=tuple(int(pass_b - x) for x in both),
        d=tuple(int(n - pass_a - pass_b + x) for x in both),
        agreement=tuple(float(n - pass_a - pass_b + 2 * x) / n for x in both),
        exact_pvalue=tuple(result.pvalue for result in exact),
        exact_log10=tuple(result.log10_pvalue for result in exact),
        unpaired_pvalue=(unpaired.pvalue,) * len(both),
        unpaired_log10=(unpaired.log10_pvalue,) * len(both),
        entered_index=int(np.searchsorted(both, table.a)),
        convention=convention,
    )
