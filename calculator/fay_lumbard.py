"""The paired-difference interval compatible with the exact McNemar test (Fay & Lumbard 2021).

The difference in pass rates A - B is delta = tau (2 beta - 1), where tau is the probability that
a case is discordant and beta the probability that a discordant case is one only A passes. The
interval melds two exact one-sample confidence distributions (Fay, Proschan & Brittain 2015): a
Clopper-Pearson one for tau from the m = b + c discordant cases out of n, and one for beta from
the b out of m. Its upper limit is the delta at which

    P_U(delta) = P[T (2 B - 1) >= delta] = (1 - level) / 2,

with B ~ Beta(b + 1, c) (the upper confidence distribution of beta) and T ~ Beta(m + 1, n - m)
for delta > 0 or T ~ Beta(m, n - m + 1) for delta < 0 (whichever gives the larger probability).
At delta = 0, P_U(0) = P[B >= 1/2] = P[Binomial(m, 1/2) <= b], the one-sided exact McNemar
p-value: so the interval excludes 0 exactly when the doubled exact p-value is below 1 - level.
The lower limit is minus the upper limit with b and c swapped.

Everything here works on arrays of tables at once (the teaching section's coverage sums and the
comparison of many systems need thousands of intervals); a single table is the one-row case.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import special

from calculator.tails import beta_quantile

__all__ = ["exact_compatible_arrays", "exact_compatible_limits", "upper_tail_probability"]


def _tanh_sinh_rule(step: float, reach: float = 3.3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tanh-sinh nodes on (-1, 1) as their distances 1 + x and 1 - x (each to full relative
    precision near its end), and the weights. Step 1/32 reaches 1e-15 for these integrands."""
    k = np.arange(-round(reach / step), round(reach / step) + 1) * step
    y = 0.5 * math.pi * np.sinh(k)
    weights = step * 0.5 * math.pi * np.cosh(k) / np.cosh(y) ** 2
    return np.exp(y) / np.cosh(y), np.exp(-y) / np.cosh(y), weights


_FROM_LOW, _FROM_HIGH, _WEIGHTS = _tanh_sinh_rule(1.0 / 32.0)
# Rows of the quadrature evaluated together (each row holds len(_WEIGHTS) = 211 nodes).
_CHUNK_ROWS = 2048
# The limit is found to this relative precision (the tests ask for 1e-10 against mpmath).
_RTOL = 1e-13
_MAX_STEPS = 100
_NEWTON_SETTLED = 1e-8


def _as_rows(*values):  # noqa: ANN002, ANN202
    arrays = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in values))
    return [a.reshape(-1).copy() for a in arrays]


def _quadrature(delta, b, c, n, slope: bool):  # noqa: ANN001, ANN202
    """P_U(delta) (and its derivative in delta when `slope`) for rows with c >= 1, delta != 0
    and not (delta > 0 and m = n): the integral over T's quantile u of P[B >= 1/2 + delta/2t].

    T's upper confidence distribution Beta(m + 1, n - m) serves delta > 0, its lower one
    Beta(m, n - m + 1) delta < 0. Below the quantile `start` of |delta|, B would have to exceed
    1 (delta > 0: probability 0) or lie below 0 (delta < 0: probability 1).
    """
    m = b + c
    positive = delta > 0
    shape_a = np.where(positive, m + 1, m)
    shape_b = np.where(positive, n - m, n - m + 1)
    size = np.abs(delta)
    start = special.betainc(shape_a, shape_b, size)
    rest = special.betaincc(shape_a, shape_b, size)  # 1 - start, to full precision
    value = np.where(positive, 0.0, start)
    derivative = np.zeros_like(value)
    rows = np.flatnonzero(rest > 0)
    # Sums along each row (not a matrix product, whose order of addition may depend on how
    # many rows there are): a table's limits do not depend on which tables share the call.
    for first in range(0, rows.size, _CHUNK_ROWS):
        r = rows[first : first + _CHUNK_ROWS]
        half = 0.5 * rest[r][:, None]
        u = start[r][:, None] + half * _FROM_LOW
        sa = np.broadcast_to(shape_a[r][:, None], u.shape)
        sb = np.broadcast_to(shape_b[r][:, None], u.shape)
        low_side = u < 0.5
        t = np.empty(u.shape)
        t[low_side] = beta_quantile(sa[low_side], sb[low_side], u[low_side])
        high_side = ~low_side
        tail_u = (half * _FROM_HIGH)[high_side]
        t[high_side] = beta_quantile(sa[high_side], sb[high_side], tail_u, upper=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            threshold = 0.5 + delta[r][:, None] / (2.0 * t)
        threshold = np.clip(np.nan_to_num(threshold, posinf=1.0, neginf=0.0), 0.0, 1.0)
        bb = (b[r] + 1)[:, None]
        cc = c[r][:, None]
        value[r] += half[:, 0] * (special.betaincc(bb, cc, threshold) * _WEIGHTS).sum(axis=1)
        if slope:  # d/d delta of P[B >= 1/2 + delta/2t] is -f_B(threshold) / 2t
            with np.errstate(divide="ignore", invalid="ignore"):
                log_density = (
                    special.xlogy(bb - 1, threshold)
                    + special.xlog1py(cc - 1, -threshold)
                    - special.betaln(bb, cc)
                )
                inside = (threshold > 0) & (threshold < 1)
                rate = np.where(inside, np.exp(log_density) / (2.0 * t), 0.0)
            derivative[r] = -half[:, 0] * (np.nan_to_num(rate) * _WEIGHTS).sum(axis=1)
    return np.clip(value, 0.0, 1.0), derivative


def _tail_rows(delta, b, c, n, slope: bool = False):  # noqa: ANN001, ANN202
    """P_U(delta) and (when `slope`) its derivative for 1-D float arrays of equal length."""
    m = b + c
    value = np.empty(delta.shape)
    derivative = np.zeros(delta.shape)
    sure = c == 0  # B = 1: P_U(delta) = P[T >= delta] with T ~ Beta(m + 1, n - m)
    with np.errstate(invalid="ignore"):
        beyond = special.betaincc(m + 1, n - m, delta)
    value[sure] = np.where((delta <= 0) | (m == n), 1.0, beyond)[sure]
    at_zero = ~sure & (delta == 0) & (not slope)  # with a slope: by the quadrature
    value[at_zero] = special.betaincc(b + 1, c, 0.5)[at_zero]
    # T = 1 (every case discordant) for delta > 0: P_U(delta) = P[B >= (1 + delta)/2]
    certain = ~sure & (delta > 0) & (m == n)
    value[certain] = special.betaincc(b + 1, c, 0.5 + delta / 2)[certain]
    if slope:
        with np.errstate(divide="ignore", invalid="ignore"):
            s = 0.5 + delta / 2
            density = np.exp(
                special.xlogy(b, s) + special.xlog1py(c - 1, -s) - special.betaln(b + 1, c)
            )
        derivative[certain] = -0.5 * density[certain]
        t_density = np.exp(
            special.xlogy(m, np.abs(delta))
            + special.xlog1py(n - m - 1, -np.abs(delta))
            - special.betaln(m + 1, np.maximum(n - m, 1))
        )
        derivative[sure] = np.where((delta > 0) & (m < n), -t_density, 0.0)[sure]
    general = ~(sure | at_zero | certain)
    if general.any():
        rows = np.flatnonzero(general)
        got, got_slope = _quadrature(delta[rows], b[rows], c[rows], n[rows], slope)
        value[rows], derivative[rows] = got, got_slope
    return np.clip(value, 0.0, 1.0), derivative


def upper_tail_probability(delta, b, c, n):  # noqa: ANN001, ANN201
    """P_U(delta) = P[T (2 B - 1) >= delta] for -1 <= delta <= 1 (see the module docstring).

    Computed as an integral over the quantile u of T, so that the integrand is bounded, and
    analytic inside the range however concentrated T is (n up to 10^12): P = integral over u in
    (0, 1) of P[B >= 1/2 + delta / (2 t(u))] du with t(u) the u-quantile of T (each one
    verified, see :func:`calculator.tails.beta_quantile`), by tanh-sinh quadrature, which is
    not troubled by the quantile's singular ends. Vectorised over its arguments (a float for
    scalar ones).

    Examples
    --------
    >>> round(upper_tail_probability(0.0, 4, 12, 100), 6)  # P[Binomial(16, 1/2) <= 4]
    0.038406
    """
    scalar = all(np.ndim(v) == 0 for v in (delta, b, c, n))
    shape = np.broadcast_shapes(*(np.shape(v) for v in (delta, b, c, n)))
    value, _ = _tail_rows(*_as_rows(delta, b, c, n))
    return float(value[0]) if scalar else value.reshape(shape)


def _solve(b, c, n, tail, low, high, guess):  # noqa: ANN001, ANN202
    """The delta in [low, high] with P_U(delta) = tail, P_U falling from above tail at `low` to
    below it at `high`: Newton's method on log P_U, kept inside the bracket (bisection when a
    step would leave it), which each evaluation narrows."""
    x = guess.copy()
    log_tail = np.log(tail)
    last = np.full(x.size, np.inf)  # log P_U - log tail at the last point evaluated
    active = np.arange(x.size)
    for _ in range(_MAX_STEPS):
        if active.size == 0:
            break
        xa = x[active]
        value, slope = _tail_rows(xa, b[active], c[active], n[active], slope=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            excess = np.log(value) - log_tail[active]
            step = excess * value / slope  # (log P - log tail) / (d log P / d delta)
        last[active] = excess
        above = excess > 0  # the root lies above x
        low[active] = np.where(above, xa, low[active])
        high[active] = np.where(above, high[active], xa)
        newton = xa - step
        lo, hi = low[active], high[active]
        ok = np.isfinite(newton) & (newton > lo) & (newton < hi)
        x[active] = np.where(ok, newton, 0.5 * (lo + hi))
        moved = np.abs(x[active] - xa)
        scale = np.maximum(np.abs(x[active]), 1e-300)
        done = (
            (np.abs(excess) <= 1e-15)
            # Newton converges quadratically: after a step this small relative to x, the one
            # just taken leaves an error of order its square, below _RTOL.
            | (ok & (moved <= _NEWTON_SETTLED * scale))
            | (hi - lo <= _RTOL * scale)
        )
        x[active[excess == 0]] = xa[excess == 0]
        active = active[~done]
    return x, last


def _solve_checked(b, c, n, tail, low, high, whole):  # noqa: ANN001, ANN202
    """:func:`_solve` from the given bracket, verified: where the tail equation does not hold at
    the root's last step (|log P_U - log tail| above 1e-6, which only a bracket that missed the
    root would leave), solved again over the `whole` side, [-1, 0] or [0, 1]."""
    root, last = _solve(
        b, c, n, tail, low.copy(), high.copy(), _first_guess(b, c, n, tail, low, high)
    )
    bad = np.flatnonzero(~(np.abs(last) <= 1e-6))
    if bad.size:
        wide_low, wide_high = (np.full(bad.size, v) for v in whole)
        args = b[bad], c[bad], n[bad], tail[bad]
        guess = _first_guess(*args, wide_low, wide_high)
        root[bad], _ = _solve(*args, wide_low, wide_high, guess)
    return root


def _first_guess(b, c, n, tail, low, high):  # noqa: ANN001, ANN202
    """A start for Newton's method: the Agresti-Min upper limit (Wald on the table with 1/2
    added to each cell) at the same tail, moved inside the bracket if it falls outside."""
    z = -special.ndtri(tail)
    n_adj, b_adj, c_adj = n + 2.0, b + 0.5, c + 0.5
    centre = (b_adj - c_adj) / n_adj
    guess = (
        centre
        + z * np.sqrt(np.maximum(0.0, (b_adj + c_adj) - (b_adj - c_adj) ** 2 / n_adj)) / n_adj
    )
    inside = (guess > low) & (guess < high)
    return np.where(inside, guess, 0.5 * (low + high))


def _upper_limits(b, c, n, tail):  # noqa: ANN001, ANN202
    """The delta with P_U(delta) = tail for each row; its sign is that of P_U(0) - tail."""
    m = b + c
    out = np.empty(b.shape)
    sure = c == 0
    out[sure] = np.where(m == n, 1.0, beta_quantile(m + 1, np.maximum(n - m, 1), tail, upper=True))[
        sure
    ]
    at_zero, _ = _tail_rows(np.zeros(b.shape), b, c, n)
    # The doubled exact p equals 1 - level, so the test rejects (p <= alpha) and the inverted
    # interval is open at 0: its end is the largest double below 0.
    tie = ~sure & (at_zero == tail)
    out[tie] = -5e-324
    rising = ~sure & ~tie & (at_zero > tail)  # positive limit
    falling = ~sure & ~tie & (at_zero < tail)  # negative limit
    # Every case discordant and a positive limit: T = 1, P_U(delta) = P[B >= (1 + delta)/2].
    # (A negative limit uses T's lower distribution Beta(n, 1), not T = 1: no shortcut there.)
    certain = rising & (m == n)
    out[certain] = 2.0 * beta_quantile(b + 1, c, tail, upper=True)[certain] - 1.0
    rising &= ~certain
    # Brackets from 2B - 1 lying in [-1, 1]: P_U(delta) <= P[T_U >= delta], so a positive
    # limit is at most T_U's upper tail quantile; P_U(delta) >= P[T_L <= -delta] for delta < 0,
    # so a negative limit is at least minus T_L's lower tail quantile.
    rows = np.flatnonzero(rising)
    if rows.size:
        top = np.minimum(1.0, beta_quantile(m[rows] + 1, n[rows] - m[rows], tail[rows], upper=True))
        args = b[rows], c[rows], n[rows], tail[rows]
        root = _solve_checked(*args, np.zeros(rows.size), top, (0.0, 1.0))
        out[rows] = np.maximum(root, 5e-324)
    rows = np.flatnonzero(falling)
    if rows.size:
        bottom = np.maximum(-1.0, -beta_quantile(m[rows], n[rows] - m[rows] + 1, tail[rows]))
        args = b[rows], c[rows], n[rows], tail[rows]
        root = _solve_checked(*args, bottom, np.zeros(rows.size), (-1.0, 0.0))
        out[rows] = np.minimum(root, -5e-324)  # P_U(0) < tail: the limit is below 0
    return out


def exact_compatible_arrays(b, c, n, level):  # noqa: ANN001, ANN201
    """:func:`exact_compatible_limits` for arrays of tables: (low, high) arrays of their shape."""
    shape = np.broadcast_shapes(*(np.shape(v) for v in (b, c, n, level)))
    b, c, n, level = _as_rows(b, c, n, level)
    tail = (1.0 - level) / 2.0
    # The lower limit of (b, c) is minus the upper limit of (c, b): solve each distinct
    # (b, c, n, tail) once, however many tables and sides share it.
    rows = np.stack(
        [np.concatenate([c, b]), np.concatenate([b, c]), np.tile(n, 2), np.tile(tail, 2)]
    )
    distinct, back = np.unique(rows, axis=1, return_inverse=True)
    both = _upper_limits(*distinct)[back.reshape(-1)]
    low, high = -both[: b.size], both[b.size :]
    return low.reshape(shape), high.reshape(shape)


@functools.lru_cache(maxsize=4096)  # tables that differ only in a and d share their limits
def exact_compatible_limits(b: int, c: int, n: int, level: float) -> tuple[float, float]:
    """Fay & Lumbard's (2021) limits for the pass-rate difference A - B = (b - c)/n.

    Parameters
    ----------
    b, c : int
        Discordant counts: only A passes, only B passes.
    n : int
        All cases, n >= b + c and n >= 1.
    level : float
        Confidence level in (0, 1); each tail gets (1 - level)/2.

    Returns
    -------
    (low, high) : tuple of float
        The central interval. It excludes 0 exactly when the doubled exact McNemar p-value is
        below 1 - level; at m = 0 it is +/- the Clopper-Pearson upper limit for 0 discordant
        cases out of n. Every table follows the defining equation: when every case is
        discordant (m = n) only a limit on the side of the observed difference uses T = 1; the
        other one uses T's lower confidence distribution Beta(n, 1), as the method defines.

    References
    ----------
    .. [1] Fay, M. P. & Lumbard, K. (2021). Confidence intervals for difference in proportions
           for matched pairs compatible with exact McNemar's or sign tests. Statistics in
           Medicine 40(5), 1147-1159.
    .. [2] Fay, M. P., Proschan, M. A. & Brittain, E. (2015). Combining one-sample confidence
           procedures for inference in the two-sample case. Biometrics 71(1), 146-156.

    Examples
    --------
    >>> low, high = exact_compatible_limits(4, 12, 100, 0.95)
    >>> round(low, 4), round(high, 4)
    (-0.17, 0.0077)
    """
    low, high = exact_compatible_arrays(b, c, n, level)
    return float(low), float(high)
