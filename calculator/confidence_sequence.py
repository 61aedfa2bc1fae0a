"""Confidence sequences for the split of the discordant pairs, valid at every number of pairs.

- :func:`mixture_limits`: the limits {theta : mixture likelihood ratio against theta < 1/alpha}
  for success/failure counts, over arrays (the one solver; the others call it).
- :func:`confidence_sequence`: the sequence at the counts seen, for the split's share
  theta = P(only A passes | the systems disagree), and for the pass-rate difference A - B when
  the number of cases is given; beside it the fixed-n (Clopper-Pearson) interval for theta.
- :func:`confidence_sequence_path`: the running intersection over a sequence of discordant pairs.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import asdict, dataclass

import numpy as np
from scipy import special

from calculator._validation import MAX_COUNT, check_count, check_probability, message
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.tails import beta_quantile

__all__ = [
    "ConfidenceSequence",
    "check_prior_shape",
    "confidence_sequence",
    "confidence_sequence_path",
    "mixture_limits",
]

# Bisection halvings of [0, theta_hat] and [theta_hat, 1]: 2^-120 of the bracket, far below
# the doubles' spacing at every limit a count up to 10^12 can give.
_HALVINGS = 120
#: Largest shape k of the Beta(k, k) mixing distribution accepted (and smallest, its inverse).
MAX_PRIOR_SHAPE = 1e6


def check_prior_shape(value: object) -> float:
    """`value` as the k of a Beta(k, k) mixing distribution: a number from 1e-6 to 1e6."""
    allowed = "a number from 1e-06 to 1e+06 (the k of the Beta(k, k) mixture)"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise CalculatorTypeError(message("prior_shape", allowed, value))
    shape = float(value)
    if not 1 / MAX_PRIOR_SHAPE <= shape <= MAX_PRIOR_SHAPE:  # also refuses NaN
        raise CalculatorError(message("prior_shape", allowed, value))
    return shape


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfidenceSequence:
    """A confidence sequence for the split's share theta, and for the pass-rate difference.

    Attributes
    ----------
    low, high : float or None
        Limits for theta = P(only A passes | the systems disagree); None when a running
        intersection is empty (which happens with probability at most 1 - level).
    level : float
        Confidence level, 1 - alpha: the chance that every set of the sequence, at every
        number of pairs, holds theta is at least this.
    prior_shape : float
        k of the Beta(k, k) mixing distribution (1: uniform).
    only_a, only_b : int
        The discordant counts b and c at which the set is stated.
    running : bool
        True: the intersection over the sequence of pairs given; False: the set at the final
        counts alone (valid too, as each set of the sequence is).
    fixed_low, fixed_high : float
        The central Clopper-Pearson interval for theta at the same level, valid at a number of
        pairs fixed in advance only; shown beside the sequence.
    cases : int or None
        n, when given: the number of cases, discordant or not.
    difference_low, difference_high : float or None
        With `cases`: limits for the pass-rate difference A - B = psi (2 theta - 1), valid at
        every n together, from sequences for psi (the share of cases where the systems
        disagree) and for theta at level 1 - alpha/2 each (a union bound); None without.
    """

    low: float | None
    high: float | None
    level: float
    prior_shape: float
    only_a: int
    only_b: int
    running: bool
    fixed_low: float
    fixed_high: float
    cases: int | None = None
    difference_low: float | None = None
    difference_high: float | None = None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def mixture_limits(successes, failures, prior_shape: float, alpha: float):  # noqa: ANN001, ANN201
    """Limits of {t : M / (t^s (1 - t)^f) < 1/alpha}, M = B(s + k, f + k) / B(k, k), over arrays.

    The set is an interval around the maximum-likelihood share s/(s + f) (its log-likelihood
    is concave); each end is found by bisection. Returns arrays (floats for scalar input).

    Notes
    -----
    With t_hat = s/(s + f) and log E(t_hat) = log M - s log t_hat - f log(1 - t_hat) <= 0, the
    set is where s log(t/t_hat) + f log((1 - t)/(1 - t_hat)) > log E(t_hat) - log(1/alpha),
    computed with log1p so that the two terms, each about n |t - t_hat|, cancel without loss.
    No successes puts the lower limit at 0, no failures the upper at 1; no trials give [0, 1].

    Examples
    --------
    >>> [round(v, 4) for v in mixture_limits(35, 15, 1.0, 0.05)]
    [0.4829, 0.8686]
    """
    s = np.asarray(successes, dtype=np.float64)
    f = np.asarray(failures, dtype=np.float64)
    s, f = np.broadcast_arrays(s, f)
    trials = s + f
    with np.errstate(invalid="ignore", divide="ignore"):
        hat = np.where(trials > 0, s / np.maximum(trials, 1), 0.5)
        log_e_hat = (
            special.betaln(s + prior_shape, f + prior_shape)
            - special.betaln(prior_shape, prior_shape)
            - special.xlogy(s, hat)
            - special.xlog1py(f, -hat)
        )
    slack = math.log(1 / alpha) - log_e_hat  # > 0: t_hat is always inside

    def inside(t: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            up = np.where(s > 0, s * np.log1p((t - hat) / np.where(s > 0, hat, 1)), 0.0)
            down = np.where(f > 0, f * np.log1p((hat - t) / np.where(f > 0, 1 - hat, 1)), 0.0)
        return np.nan_to_num(up, nan=-np.inf) + np.nan_to_num(down, nan=-np.inf) + slack > 0

    # Both ends at once: row 0 brackets the lower limit in [0, t_hat] (inside at its top), row
    # 1 the upper in [t_hat, 1] (inside at its bottom). Each halving keeps the end inside.
    lo = np.stack([np.zeros(s.shape), hat])
    hi = np.stack([hat, np.ones(s.shape)])
    lower_row = np.zeros(lo.shape, dtype=bool)
    lower_row[0] = True
    for _ in range(_HALVINGS):
        middle = 0.5 * (lo + hi)
        # Lower limit: inside means the boundary lies below the middle; upper: above it.
        below = inside(middle) == lower_row
        hi = np.where(below, middle, hi)
        lo = np.where(below, lo, middle)
    low = np.where(s > 0, hi[0], 0.0)
    high = np.where(f > 0, lo[1], 1.0)
    if np.ndim(low) == 0:
        return float(low), float(high)
    return low, high


def _clopper_pearson(b: int, c: int, alpha: float) -> tuple[float, float]:
    low = 0.0 if b == 0 else float(beta_quantile(b, c + 1, alpha / 2))
    high = 1.0 if c == 0 else float(beta_quantile(b + 1, c, alpha / 2, upper=True))
    return low, high


def _difference_limits(
    b: int, c: int, n: int, prior_shape: float, alpha: float
) -> tuple[float, float]:
    """psi (2 theta - 1) over the product of the two sequences at level 1 - alpha/2 each."""
    lows, highs = mixture_limits([b + c, b], [n - b - c, c], prior_shape, alpha / 2)
    (psi_low, t_low), (psi_high, t_high) = lows.tolist(), highs.tolist()
    lower, upper = 2 * t_low - 1, 2 * t_high - 1
    # psi (2 t - 1) is increasing in t; in psi it rises when 2 t - 1 > 0 and falls otherwise.
    low = (psi_low if lower >= 0 else psi_high) * lower
    high = (psi_high if upper >= 0 else psi_low) * upper
    return float(low), float(high)


def confidence_sequence(
    b: int,
    c: int,
    *,
    level: float = 0.95,
    prior_shape: float = 1.0,
    n: int | None = None,
) -> ConfidenceSequence:
    """The confidence sequence's set at counts b and c, for theta = b's share of b + c.

    Parameters
    ----------
    b, c : int
        Discordant counts: only A passes, only B passes.
    level : float
        Confidence level, in (0, 1).
    prior_shape : float
        k of the Beta(k, k) mixing distribution over theta; 1 (uniform) by default.
    n : int, optional
        The number of cases (at least b + c): adds limits for the pass-rate difference A - B.

    Returns
    -------
    ConfidenceSequence

    Notes
    -----
    For each theta_0, E_m(theta_0) = B(b + k, c + k) / (B(k, k) theta_0^b (1 - theta_0)^c) is
    the mixture likelihood ratio against theta_0, a nonnegative martingale with mean 1 when
    theta_0 is the true share. By Ville's inequality it ever reaches 1/alpha with probability
    at most alpha, so the sets {theta_0 : E_m(theta_0) < 1/alpha} hold the true theta at every
    m at once with probability at least 1 - alpha, however the number of pairs is chosen.
    With a uniform mixture the set is {theta : B(b + 1, c + 1) / (theta^b (1 - theta)^c) <
    1/alpha}. At m = 0 it is [0, 1].

    The pass-rate difference A - B is psi (2 theta - 1), where psi is the share of cases on
    which the systems disagree: theta alone does not give it. With `n`, a second sequence of
    the same form for psi (b + c disagreements out of n cases) and the sequence for theta, each
    at level 1 - alpha/2, hold together with probability at least 1 - alpha (a union bound),
    and the difference's limits are the extremes of psi (2 theta - 1) over both.

    References
    ----------
    .. [1] Robbins, H. (1970). Statistical methods related to the law of the iterated
           logarithm. Annals of Mathematical Statistics 41(5), 1397-1409.
    .. [2] Howard, S. R., Ramdas, A., McAuliffe, J. & Sekhon, J. (2021). Time-uniform,
           nonparametric, nonasymptotic confidence sequences. Annals of Statistics 49(2),
           1055-1080.

    Examples
    --------
    >>> cs = confidence_sequence(35, 15)
    >>> round(cs.low, 3), round(cs.high, 3), round(cs.fixed_low, 3), round(cs.fixed_high, 3)
    (0.483, 0.869, 0.554, 0.821)
    """
    b = check_count(b, "b")
    c = check_count(c, "c")
    level = check_probability(level, "level")
    prior_shape = check_prior_shape(prior_shape)
    alpha = 1 - level
    low, high = mixture_limits(b, c, prior_shape, alpha)
    difference = (None, None)
    if n is not None:
        n = check_count(n, "n", minimum=b + c, maximum=4 * MAX_COUNT)  # a table's four cells
        difference = _difference_limits(b, c, n, prior_shape, alpha)
    fixed_low, fixed_high = _clopper_pearson(b, c, alpha)
    return ConfidenceSequence(
        low=low,
        high=high,
        level=level,
        prior_shape=prior_shape,
        only_a=b,
        only_b=c,
        running=False,
        fixed_low=fixed_low,
        fixed_high=fixed_high,
        cases=n,
        difference_low=difference[0],
        difference_high=difference[1],
    )


def confidence_sequence_path(
    only_a: object, *, level: float = 0.95, prior_shape: float = 1.0
) -> ConfidenceSequence:
    """The running intersection of the sets over a sequence of discordant pairs.

    Parameters
    ----------
    only_a : sequence of bool or 0/1
        The discordant pairs in the order seen: 1 (True) where only A passes, 0 where only B;
        at most :data:`MAX_SEQUENCE_PATH` of them (the set at each is found by root-finding).
    level, prior_shape
        As in :func:`confidence_sequence`.

    Returns
    -------
    ConfidenceSequence
        Limits the intersection of every set from the first pair to the last; `low` and `high`
        are None when it is empty. `running` is True.

    Examples
    --------
    >>> cs = confidence_sequence_path([1, 1, 0, 1, 0] * 10)
    >>> (cs.only_a, cs.only_b), round(cs.low, 3), round(cs.high, 3)
    ((30, 20), 0.394, 0.792)
    """
    path = check_path(only_a, MAX_SEQUENCE_PATH)
    level = check_probability(level, "level")
    prior_shape = check_prior_shape(prior_shape)
    b_path = np.cumsum(path)
    c_path = np.arange(1, path.size + 1) - b_path
    lows, highs = mixture_limits(b_path, c_path, prior_shape, 1 - level)
    low = float(np.max(lows, initial=0.0))
    high = float(np.min(highs, initial=1.0))
    b, c = int(path.sum()), int(path.size - path.sum())
    fixed_low, fixed_high = _clopper_pearson(b, c, 1 - level)
    empty = low > high
    return ConfidenceSequence(
        low=None if empty else low,
        high=None if empty else high,
        level=level,
        prior_shape=prior_shape,
        only_a=b,
        only_b=c,
        running=True,
        fixed_low=fixed_low,
        fixed_high=fixed_high,
    )


#: Longest sequence of discordant pairs one call reads (the e-value's path, about 5 s).
MAX_PATH = 10_000_000
#: Longest sequence whose confidence sets are all intersected (a root-finding per pair: about
#: 2 s at this length).
MAX_SEQUENCE_PATH = 100_000


def check_path(only_a: object, maximum: int = MAX_PATH) -> np.ndarray:
    """`only_a` as a one-dimensional int64 array of 0s and 1s, at most `maximum` long."""
    allowed = f"a sequence of 0s and 1s (or booleans), at most {maximum:,} long"
    try:
        array = np.asarray(only_a)
    except (TypeError, ValueError):
        raise CalculatorError(message("only_a", allowed, only_a)) from None
    if array.ndim != 1 or array.size > maximum:
        raise CalculatorError(message("only_a", allowed, only_a))
    if array.dtype == bool:
        return array.astype(np.int64)
    if not np.issubdtype(array.dtype, np.number) or not np.isin(array, (0, 1)).all():
        raise CalculatorError(message("only_a", allowed, only_a))
    return array.astype(np.int64)
