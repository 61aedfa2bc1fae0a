"""Binomial and Beta tails and their inverses: the one home of each, over arrays.

- :func:`beta_quantile`: the x with I_x(a, b) = p (or 1 - I_x(a, b) = p), verified by the
  forward function and refined by a bracketing root-finder where scipy's inverse misses.
- :func:`log_incomplete_beta_half`: log P[Beta(a, b) < 1/2], far below the double range.
- :func:`log_binom_half_cdf`, :func:`log_binom_half_pmf`, :func:`half_cdf`: the null
  distribution of McNemar's exact test, Binomial(m, 1/2), in the log domain where it matters
  (its tail is the one above: P[Binomial(m, 1/2) <= k] = I_{1/2}(m - k, k + 1)).
- :func:`wilson_limits`: Wilson's score interval for passes out of n.

Every other module takes these from here, so that each tail or interval formula is written once.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

__all__ = [
    "QUANTILE_RTOL",
    "ULP_WINDOW",
    "beta_quantile",
    "half_cdf",
    "log_binom_half_cdf",
    "log_binom_half_pmf",
    "log_incomplete_beta_half",
    "wilson_limits",
]

#: A quantile is accepted when the forward function at it is within this relative distance of
#: the target...
QUANTILE_RTOL = 1e-10
#: ... or when the target lies within the forward function's values at the doubles up to this
#: many steps either side of x: at shapes of 10^10 and more, the forward function itself is
#: precise only to that (its value is not even monotone from one double to the next).
ULP_WINDOW = 4
# Below this the binomial tail from the incomplete beta function loses relative precision to
# underflow, so the log-domain series takes over.
_TAIL_FLOOR = 1e-250
_LN2 = math.log(2.0)
# The refinement searches y = logit(x) in this range: x from 5e-324 to 1 - 1e-17.
_Y_RANGE = (-745.0, 40.0)
_MAX_REFINE_STEPS = 200


def _forward(a: np.ndarray, b: np.ndarray, x: np.ndarray, upper: bool) -> np.ndarray:
    """I_x(a, b), or its complement 1 - I_x(a, b) when `upper`."""
    return special.betaincc(a, b, x) if upper else special.betainc(a, b, x)


def _neighbours(x: np.ndarray) -> list[np.ndarray]:
    """The doubles within ULP_WINDOW of x on either side, x included."""
    out, down, up = [x], x, x
    for _ in range(ULP_WINDOW):
        down, up = np.nextafter(down, -np.inf), np.nextafter(up, np.inf)
        out += [down, up]
    return out


def _accepted(a: np.ndarray, b: np.ndarray, p: np.ndarray, x: np.ndarray, upper: bool):
    """Whether x is a verified quantile: forward(x) = p to QUANTILE_RTOL, or p lies within the
    forward function's values at the doubles within ULP_WINDOW of x."""
    value = _forward(a, b, x, upper)
    close = np.abs(value - p) <= QUANTILE_RTOL * np.minimum(p, 1.0 - p)
    far = np.flatnonzero(~close)
    if far.size:
        a, b, p = a[far], b[far], p[far]
        values = np.array([_forward(a, b, v, upper) for v in _neighbours(x[far])])
        close[far] = (values.min(axis=0) <= p) & (p <= values.max(axis=0))
    return close


def _log_excess(a: np.ndarray, b: np.ndarray, p: np.ndarray, y: np.ndarray, upper: bool):
    """log forward(x) - log p at x = expit(y), signed to increase with y."""
    with np.errstate(divide="ignore"):
        if upper:  # 1 - I_x(a, b) = I_{1-x}(b, a), computed at 1 - x = expit(-y) directly
            return np.log(p) - np.log(special.betainc(b, a, special.expit(-y)))
        return np.log(special.betainc(a, b, special.expit(y))) - np.log(p)


def _refine(a: np.ndarray, b: np.ndarray, p: np.ndarray, upper: bool) -> np.ndarray:
    """Quantiles by a bracketing root-finder on y = logit(x): false position with the Illinois
    modification on the log of the forward function, bisection where that is not finite."""
    low = np.full(p.shape, _Y_RANGE[0])
    high = np.full(p.shape, _Y_RANGE[1])
    g_low = _log_excess(a, b, p, low, upper)
    g_high = _log_excess(a, b, p, high, upper)
    # The excess at each end as computed (g_low and g_high are halved by the Illinois rule).
    true_low, true_high = g_low.copy(), g_high.copy()
    active = np.ones(p.shape, dtype=bool)
    side = np.zeros(p.shape, dtype=np.int8)  # which end moved last: -1 low, +1 high
    for _ in range(_MAX_REFINE_STEPS):
        idx = np.flatnonzero(active)
        if idx.size == 0:
            break
        lo, hi, glo, ghi = low[idx], high[idx], g_low[idx], g_high[idx]
        finite = np.isfinite(glo) & np.isfinite(ghi) & (ghi > glo)
        with np.errstate(invalid="ignore", divide="ignore"):
            secant = lo - glo * (hi - lo) / (ghi - glo)
        middle = 0.5 * (lo + hi)
        inside = finite & (secant > lo) & (secant < hi)
        y = np.where(inside, secant, middle)
        g = _log_excess(a[idx], b[idx], p[idx], y, upper)
        up = g < 0  # the root lies above y
        moved = np.where(up, -1, 1).astype(np.int8)
        # Illinois: halve the excess kept at an end that stays put twice in a row.
        repeat = moved == side[idx]
        glo_new = np.where(up, g, np.where(repeat & ~up, glo / 2, glo))
        ghi_new = np.where(~up, g, np.where(repeat & up, ghi / 2, ghi))
        low[idx] = np.where(up, y, lo)
        high[idx] = np.where(up, hi, y)
        g_low[idx], g_high[idx], side[idx] = glo_new, ghi_new, moved
        true_low[idx] = np.where(up, g, true_low[idx])
        true_high[idx] = np.where(up, true_high[idx], g)
        width = high[idx] - low[idx]
        done = (g == 0) | (np.abs(g) <= 0.1 * QUANTILE_RTOL) | (width <= 4e-16 * np.abs(y) + 1e-300)
        active[idx[done]] = False
    y = np.where(np.abs(true_low) <= np.abs(true_high), low, high)
    return _polish(a, b, p, special.expit(y), upper)


def _polish(a: np.ndarray, b: np.ndarray, p: np.ndarray, x: np.ndarray, upper: bool):
    """One Newton step in x itself, kept where it brings the forward function closer to p: the
    search over logit(x) resolves x only to a few of its doubles."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        log_density = special.xlogy(a - 1, x) + special.xlog1py(b - 1, -x) - special.betaln(a, b)
        value = _forward(a, b, x, upper)
        step = (value - p) / np.exp(log_density)
        candidate = np.clip(x + step if upper else x - step, 0.0, 1.0)
        better = np.abs(_forward(a, b, candidate, upper) - p) < np.abs(value - p)
    return np.where(np.isfinite(candidate) & better, candidate, x)


def beta_quantile(a, b, p, *, upper: bool = False):  # noqa: ANN001, ANN201
    """The x in [0, 1] with I_x(a, b) = p, or with 1 - I_x(a, b) = p when `upper`.

    Parameters
    ----------
    a, b : float or array_like
        Shape parameters, positive.
    p : float or array_like
        Target probability in [0, 1].
    upper : bool
        Invert the upper tail 1 - I_x(a, b) (scipy's ``betainccinv``) instead of the lower.

    Returns
    -------
    float or numpy.ndarray
        Broadcast shape of the inputs; a float for scalar inputs.

    Notes
    -----
    scipy's ``betaincinv`` is fast but can be far off for large shape parameters:
    ``betaincinv(1000, 1e9, 0.025)`` returns 1.9e-6 where the quantile is 9.4e-7 (at which
    the forward function gives 1.0). Each returned x is therefore checked: the forward function
    (``betainc`` or ``betaincc``, accurate at these parameters) must equal p to a relative
    :data:`QUANTILE_RTOL`, or p must lie within its values at the doubles within
    :data:`ULP_WINDOW` of x (no double does visibly better).
    Where it does not, x is found again by false position (Illinois) on the logarithm of the
    forward function over logit(x), a bracketing method that cannot leave its bracket.

    Examples
    --------
    >>> float(f"{beta_quantile(1000, 1e9, 0.025):.4g}")
    9.39e-07
    >>> beta_quantile(2, 3, 0.5) == beta_quantile(2, 3, 0.5, upper=True)
    True
    """
    scalar = all(np.ndim(v) == 0 for v in (a, b, p))
    if scalar and 0 < p < 1:  # one value: the check without the arrays' overhead
        x = float((special.betainccinv if upper else special.betaincinv)(a, b, p))
        value = float(_forward(a, b, x, upper))
        if abs(value - p) <= QUANTILE_RTOL * min(p, 1.0 - p):
            return x
    a_arr, b_arr, p_arr = (np.asarray(v, dtype=np.float64) for v in (a, b, p))
    a_arr, b_arr, p_arr = np.broadcast_arrays(a_arr, b_arr, p_arr)
    a_arr, b_arr, p_arr = (v.reshape(-1) for v in (a_arr, b_arr, p_arr))
    inverse = special.betainccinv if upper else special.betaincinv
    x = np.array(inverse(a_arr, b_arr, p_arr), dtype=np.float64)
    interior = (p_arr > 0) & (p_arr < 1)
    if interior.any():
        idx = np.flatnonzero(interior)
        good = _accepted(a_arr[idx], b_arr[idx], p_arr[idx], x[idx], upper)
        bad = idx[~good]
        if bad.size:
            x[bad] = _refine(a_arr[bad], b_arr[bad], p_arr[bad], upper)
    x = x.reshape(np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(p)))
    return float(x) if scalar else x


# --- Binomial(m, 1/2): the exact test's null distribution -----------------------------------


def log_binom_half_pmf(k, m):  # noqa: ANN001, ANN201
    """log P[Binomial(m, 1/2) = k] = -log(m + 1) - log B(m - k + 1, k + 1) - m log 2.

    Vectorised over k and m; a float for scalar inputs. Relative error below 1e-14 for m in the
    thousands, about 1e-6 at m = 2e9: far below the digits that a log10 p or a mid-p value shows.

    Examples
    --------
    >>> np.exp(log_binom_half_pmf(np.array([0, 1, 2]), 2)).round(3).tolist()
    [0.25, 0.5, 0.25]
    """
    k_arr = np.asarray(k, dtype=np.float64)
    m_arr = np.asarray(m, dtype=np.float64)
    value = -np.log(m_arr + 1) - special.betaln(m_arr - k_arr + 1, k_arr + 1) - m_arr * _LN2
    return float(value) if np.ndim(value) == 0 else value


def log_incomplete_beta_half(a: float, b: float) -> float:
    """Natural log of I_{1/2}(a, b) = P[Beta(a, b) < 1/2], accurate far below the double range.

    Examples
    --------
    >>> round(log_incomplete_beta_half(0.5, 0.5), 12) == round(math.log(0.5), 12)
    True
    """
    value = float(special.betainc(a, b, 0.5))
    if value > _TAIL_FLOOR:
        return math.log(value)
    # Tiny only when a > b. Series: I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) * sum_k t_k with
    # t_0 = 1 and t_{k+1} / t_k = x (a + b + k) / (a + 1 + k) (Abramowitz & Stegun 26.5.4
    # via the hypergeometric form). At x = 1/2 the ratios are below r = max(1/2, r_0) < 1 and
    # fall towards 1/2, so after L terms the rest is below r^L / (1 - r) of the first: L with
    # r^L <= e^-45 leaves the sum exact in double precision.
    first = (a + b) / (2.0 * (a + 1.0))
    ratio = max(0.5, first)
    terms = math.ceil(45.0 / -math.log(ratio)) + 16
    k = np.arange(terms, dtype=np.float64)
    log_ratios = np.log((a + b + k) / (a + 1.0 + k)) - _LN2
    relative = np.exp(np.cumsum(log_ratios))
    log_prefactor = -(a + b) * _LN2 - math.log(a) - float(special.betaln(a, b))
    return log_prefactor + math.log1p(float(relative.sum()))


def log_binom_half_cdf(k: int, m: int) -> float:
    """Natural log of P[Binomial(m, 1/2) <= k] = log I_{1/2}(m - k, k + 1), accurate far below
    the double range (:func:`log_incomplete_beta_half`).

    Examples
    --------
    >>> round(log_binom_half_cdf(0, 5000) / math.log(10), 2)
    -1505.15
    >>> log_binom_half_cdf(-1, 4)
    -inf
    """
    if k < 0:
        return -math.inf
    if k >= m:
        return 0.0
    # scipy's betainc (Boost) keeps full precision at m = 2e9, where special.bdtr (Cephes) is
    # off by about 1e-5 relative.
    return log_incomplete_beta_half(m - k, k + 1)


def half_cdf(k: np.ndarray, m: np.ndarray) -> np.ndarray:
    """P[Binomial(m, 1/2) <= k] for arrays, with k < 0 giving 0 and k >= m giving 1."""
    k = np.asarray(k, dtype=np.float64)
    m = np.asarray(m, dtype=np.float64)
    safe_k = np.clip(k, 0, np.maximum(m - 1, 0))
    with np.errstate(invalid="ignore"):
        value = special.betainc(np.maximum(m - safe_k, 1), safe_k + 1, 0.5)
    return np.where(k < 0, 0.0, np.where(k >= m, 1.0, value))


# --- Wilson's score interval -------------------------------------------------------------------


def wilson_limits(successes, n, z):  # noqa: ANN001, ANN201
    """Wilson's score interval for `successes` out of `n` (n > 0) at normal quantile z.

    (p + z^2/2n -/+ z sqrt(p(1 - p)/n + z^2/4n^2)) / (1 + z^2/n), p = successes/n, over arrays
    (floats for scalar inputs); not clipped.

    References
    ----------
    .. [1] Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
           inference. Journal of the American Statistical Association 22(158), 209-212.

    Examples
    --------
    >>> [round(v, 4) for v in wilson_limits(28, 46, 1.959963984540054)]
    [0.4646, 0.7361]
    """
    successes = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    proportion = successes / n
    z2 = z * z
    centre = proportion + z2 / (2 * n)
    spread = z * np.sqrt(np.maximum(0.0, proportion * (1 - proportion) / n + z2 / (4 * n * n)))
    low = (centre - spread) / (1 + z2 / n)
    high = (centre + spread) / (1 + z2 / n)
    if np.ndim(low) == 0:
        return float(low), float(high)
    return low, high


def log_normal_pvalue(z: float, alternative: str) -> float:
    """Natural log of the p-value of a standard-normal statistic `z` for `alternative`.

    "greater": P[Z >= z]; "less": P[Z <= z]; "two-sided": min(1, 2 P[Z >= |z|]). Logs of the
    normal tails (``log_ndtr``) stay finite far below the double range.

    Examples
    --------
    >>> round(math.exp(log_normal_pvalue(1.959963984540054, "two-sided")), 6)
    0.05
    >>> round(math.exp(log_normal_pvalue(-1.6448536269514722, "less")), 6)
    0.05
    """
    if alternative == "greater":
        return float(special.log_ndtr(-z))
    if alternative == "less":
        return float(special.log_ndtr(z))
    return min(0.0, math.log(2.0) + float(special.log_ndtr(-abs(z))))
