"""Several release gates at once: the chance of a false alarm and per-gate corrections.

A release passes m gates (checks), each a two-sided test at level alpha, on a change that does
nothing. The gates' z-statistics are equicorrelated with correlation rho >= 0.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
from scipy import special

from calculator._validation import check_bounded_count, check_probability

__all__ = ["GateRates", "gate_rates", "false_alarm_rate", "MAX_GATES"]

#: Upper bound on the number of gates accepted (the rates are flat long before it).
MAX_GATES = 1_000_000

# Gauss-Legendre rule used on each piece of the integral over w (see false_alarm_rate).
_LEGENDRE_NODES, _LEGENDRE_WEIGHTS = np.polynomial.legendre.leggauss(16)
# w beyond +/-9 carries under 1e-18 of the normal mass; pieces of width 0.5 in between.
_W_LIMIT = 9.0
_W_CUTS = np.linspace(-_W_LIMIT, _W_LIMIT, 37)
# Extra cuts around each step, in step widths: inside^m falls off where m (1 - inside) ~ 1,
# up to about 5 widths past the edge for 10^6 gates.
_STEP_OFFSETS = np.array([-12.0, -6, -4.5, -3, -2, -1, 0, 1, 2, 3, 4.5, 6, 12])


@dataclass(frozen=True, slots=True, kw_only=True)
class GateRates:
    """False-alarm figures for `count` gates each tested at level `alpha`.

    Attributes
    ----------
    false_alarm : float
        Chance that at least one gate fires on a change that does nothing, with each gate at
        `alpha` and gate correlation `rho`.
    bonferroni_alpha, sidak_alpha : float
        Per-gate levels that hold the overall rate at `alpha`: alpha/m and 1 - (1 - alpha)^(1/m).
    union_bound : float
        min(1, m alpha): a bound on the false-alarm rate under any dependence.
    """

    count: int
    alpha: float
    rho: float
    false_alarm: float
    bonferroni_alpha: float
    sidak_alpha: float
    union_bound: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def gate_rates(count: int, alpha: float, rho: float = 0.0) -> GateRates:
    """False-alarm rate of `count` gates at level `alpha`, and the per-gate corrections.

    Parameters
    ----------
    count : int
        Number of gates m, from 1 to 1,000,000.
    alpha : float
        Level of each gate, strictly between 0 and 1.
    rho : float
        Correlation between the gates' test statistics, from 0 to 1.

    Notes
    -----
    Independent gates (rho = 0): 1 - (1 - alpha)^m. Correlated gates: see
    :func:`false_alarm_rate`. Bonferroni alpha/m; Sidak 1 - (1 - alpha)^(1/m), computed as
    -expm1(log1p(-alpha)/m) so it keeps its digits for large m.

    References
    ----------
    .. [1] Sidak, Z. (1967). Rectangular confidence regions for the means of multivariate
           normal distributions. Journal of the American Statistical Association 62, 626-633.

    Examples
    --------
    >>> g = gate_rates(6, 0.05)
    >>> round(g.false_alarm, 3), round(g.bonferroni_alpha, 4), round(g.sidak_alpha, 4)
    (0.265, 0.0083, 0.0085)
    >>> round(g.union_bound, 2)
    0.3
    """
    count = check_bounded_count(count, "gates", 1, MAX_GATES)
    alpha = check_probability(alpha, "alpha")
    rho = check_probability(rho, "rho", open_interval=False)
    return GateRates(
        count=count,
        alpha=alpha,
        rho=rho,
        false_alarm=float(false_alarm_rate(count, alpha, rho)),
        bonferroni_alpha=alpha / count,
        sidak_alpha=alpha if count == 1 else -math.expm1(math.log1p(-alpha) / count),
        union_bound=min(1.0, count * alpha),
    )


def false_alarm_rate(
    count: int | np.ndarray, per_gate_alpha: float | np.ndarray, rho: float = 0.0
) -> float | np.ndarray:
    """P(at least one of `count` gates fires) when each is a two-sided test at `per_gate_alpha`.

    Vectorised: `count` and `per_gate_alpha` broadcast against each other.

    Notes
    -----
    For equicorrelated standard normal statistics Z_i = sqrt(rho) W + sqrt(1 - rho) E_i and the
    critical value z* = Phi^-1(1 - alpha/2),

        P(no alarm) = E_W[(Phi((z* - sqrt(rho) W)/sqrt(1 - rho))
                           - Phi((-z* - sqrt(rho) W)/sqrt(1 - rho)))^m].

    rho = 0 gives 1 - (1 - alpha)^m exactly; rho = 1 gives alpha (all gates move together).
    As rho nears 1 the integrand turns into a step at w = +/- z*/sqrt(rho) of width about
    sqrt((1 - rho)/rho), so the integral over [-9, 9] is cut into pieces of width 0.5 and,
    around each step, at multiples of its width; each piece gets a 16-point Gauss-Legendre
    rule. Checked against adaptive quadrature to 2e-9 for rho from 1e-6 to 1 - 1e-12, alpha
    from 1e-6 to 0.5 and 1 to 10^6 gates.

    Examples
    --------
    >>> round(float(false_alarm_rate(6, 0.05)), 4)
    0.2649
    >>> float(false_alarm_rate(6, 0.05, rho=1.0))
    0.05
    """
    rho = check_probability(rho, "rho", open_interval=False)
    counts, alphas = np.broadcast_arrays(
        np.asarray(count, dtype=np.float64), np.asarray(per_gate_alpha, dtype=np.float64)
    )
    if rho == 0.0:
        rate = -np.expm1(counts * np.log1p(-alphas))
    elif rho == 1.0:
        rate = alphas.copy()
    else:
        no_alarm = _no_alarm_probability(counts, special.ndtri(1.0 - alphas / 2.0), rho)
        rate = np.clip(1.0 - no_alarm, 0.0, 1.0)
    # One gate fires at its own alpha, exactly: not 1 - (1 - alpha) through logs (float noise).
    rate = np.where(counts == 1.0, alphas, rate)
    if np.ndim(rate) == 0:
        return float(rate)
    return rate


def _no_alarm_probability(counts: np.ndarray, critical: np.ndarray, rho: float) -> np.ndarray:
    """E_W[inside(W)^m] for 0 < rho < 1, elementwise over `counts` and `critical`."""
    shift, scale = math.sqrt(rho), math.sqrt(1.0 - rho)
    edge = critical / shift  # where a gate's acceptance region ends, in units of w
    width = scale / shift  # how wide each step is, in units of w
    offsets = width * _STEP_OFFSETS
    steps = np.concatenate([-edge[..., None] + offsets, edge[..., None] + offsets], axis=-1)
    fixed = np.broadcast_to(_W_CUTS, (*edge.shape, len(_W_CUTS)))
    cuts = np.sort(np.concatenate([fixed, np.clip(steps, -_W_LIMIT, _W_LIMIT)], axis=-1), axis=-1)
    left, right = cuts[..., :-1, None], cuts[..., 1:, None]
    w = (left + right) / 2 + (right - left) / 2 * _LEGENDRE_NODES
    weights = (right - left) / 2 * _LEGENDRE_WEIGHTS * np.exp(-0.5 * w**2) / math.sqrt(2 * math.pi)
    crit = critical[..., None, None]
    inside = special.ndtr((crit - shift * w) / scale) - special.ndtr((-crit - shift * w) / scale)
    # inside^m through logs: m can be large and inside close to 1.
    with np.errstate(divide="ignore"):
        log_inside = np.log(np.clip(inside, 0.0, 1.0))
    powered = np.exp(counts[..., None, None] * log_inside)
    return np.sum(weights * powered, axis=(-2, -1))
