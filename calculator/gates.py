"""Several release gates at once: the chance of a false alarm and per-gate corrections.

A release passes m gates (checks), each a two-sided test at level alpha, on a change that does
nothing. The gates' z-statistics are equicorrelated with correlation rho >= 0.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import asdict, dataclass

import numpy as np
from scipy import special

from calculator.table import check_probability

__all__ = ["GateRates", "gate_rates", "false_alarm_rate", "MAX_GATES"]

#: Upper bound on the number of gates accepted (the rates are flat long before it).
MAX_GATES = 1_000_000

# Gauss-Hermite nodes for E[f(W)], W ~ N(0, 1), used where the integrand is smooth.
_HERMITE_NODES, _HERMITE_WEIGHTS = np.polynomial.hermite_e.hermegauss(96)
_HERMITE_WEIGHTS = _HERMITE_WEIGHTS / math.sqrt(2 * math.pi)
# Fine grid on w for strongly correlated gates, where the integrand turns into a steep step.
_GRID = np.linspace(-9.0, 9.0, 6001)
_GRID_WEIGHTS = np.exp(-0.5 * _GRID**2) / math.sqrt(2 * math.pi) * (_GRID[1] - _GRID[0])
_GRID_WEIGHTS[[0, -1]] /= 2  # trapezoid ends


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
    count = _check_gate_count(count)
    alpha = check_probability(alpha, "alpha")
    rho = check_probability(rho, "rho", open_interval=False)
    return GateRates(
        count=count,
        alpha=alpha,
        rho=rho,
        false_alarm=float(false_alarm_rate(count, alpha, rho)),
        bonferroni_alpha=alpha / count,
        sidak_alpha=-math.expm1(math.log1p(-alpha) / count),
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
    The expectation over W uses Gauss-Hermite quadrature for rho <= 0.5 and a fine trapezoid
    grid above, where the integrand steepens into a step.

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
        nodes, weights = (
            (_HERMITE_NODES, _HERMITE_WEIGHTS) if rho <= 0.5 else (_GRID, _GRID_WEIGHTS)
        )
        critical = special.ndtri(1.0 - alphas / 2.0)[..., None]
        shift = math.sqrt(rho) * nodes
        scale = math.sqrt(1.0 - rho)
        inside = special.ndtr((critical - shift) / scale) - special.ndtr(
            (-critical - shift) / scale
        )
        # inside^m through logs: m can be large and inside close to 1.
        with np.errstate(divide="ignore"):
            log_inside = np.log(np.clip(inside, 0.0, 1.0))
        no_alarm = np.exp(counts[..., None] * log_inside) @ weights
        rate = np.clip(1.0 - no_alarm, 0.0, 1.0)
    if np.ndim(rate) == 0:
        return float(rate)
    return rate


def _check_gate_count(count: object) -> int:
    if isinstance(count, bool) or not isinstance(count, numbers.Real):
        raise TypeError(
            f"`gates` must be a whole number from 1 to {MAX_GATES:,}, but got {count!r}."
        )
    value = float(count)
    if not (math.isfinite(value) and value.is_integer() and 1 <= value <= MAX_GATES):
        raise ValueError(
            f"`gates` must be a whole number from 1 to {MAX_GATES:,}, but got {count!r}."
        )
    return int(value)
