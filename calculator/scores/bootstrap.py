"""The BCa bootstrap interval of the mean difference A - B (resampling clusters with clusters).

The percentile interval of the resampled means, with its ends moved by the bias correction z0
and the acceleration a (Efron 1987), as ``scipy.stats.bootstrap(method="BCa")`` computes it.
Two things make 10,000 resamples of 10^6 pairs cheap without changing the distribution of the
resampled mean:

- resampling n units with replacement is drawing counts ~ Multinomial(n, w) over the k distinct
  units (distinct differences, or distinct (sum, size) pairs of clusters) with w their shares,
  so data with few distinct values (graded scores) cost k draws per resample, not n;
- the jackknife behind the acceleration has a closed form for a mean (below).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy import special

from calculator.intervals import ConfidenceInterval
from calculator.scores.resampling import chunks, work_width

__all__ = [
    "FEW_TAIL_RESAMPLES",
    "BootstrapInterval",
    "Distinct",
    "bca_interval",
    "distinct_units",
    "share_below",
]

#: Fewest resamples expected beyond each end for the ends to be read as percentiles rather than
#: as the extreme resamples (Efron & Tibshirani 1993, ch. 19, ask for about 1,000 resamples at
#: 90-95%, i.e. 25 to 50 beyond each end).
FEW_TAIL_RESAMPLES = 10


@dataclass(frozen=True, slots=True, kw_only=True)
class BootstrapInterval:
    """The BCa bootstrap interval of the mean difference A - B. Build it with
    :func:`bca_interval`.

    Attributes
    ----------
    confidence_interval : ConfidenceInterval or None
        None when undefined (see `undefined`).
    confidence_level : float
    method : str
        "BCa".
    resamples : int or None
        Resamples drawn; None when none were.
    unit : str
        "case" or "cluster": what a resample draws.
    units : int
    bias_correction, acceleration : float or None
        z0 and a of the BCa interval.
    standard_error : float or None
        Standard deviation of the resampled means.
    seed : int
        The random seed.
    undefined : str or None
        Why there is no interval, else None.
    tail_resamples : float or None
        The expected number of resamples beyond the nearer end: resamples times the smaller
        BCa tail share. Below :data:`FEW_TAIL_RESAMPLES` the ends are little more than the
        most extreme resamples (99.999% from 10,000 resamples: 0.05 beyond each end).
    """

    confidence_interval: ConfidenceInterval | None
    confidence_level: float
    method: str
    resamples: int | None
    unit: str
    units: int
    bias_correction: float | None
    acceleration: float | None
    standard_error: float | None
    seed: int
    undefined: str | None
    tail_resamples: float | None = None

    @property
    def few_tail_resamples(self) -> bool:
        """True when fewer than :data:`FEW_TAIL_RESAMPLES` resamples lie beyond an end."""
        return self.tail_resamples is not None and self.tail_resamples < FEW_TAIL_RESAMPLES

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types; undefined figures are None."""
        ci = self.confidence_interval
        return {
            "confidence_interval": None if ci is None else {"low": ci.low, "high": ci.high},
            "confidence_level": self.confidence_level,
            "method": self.method,
            "resamples": self.resamples,
            "unit": self.unit,
            "units": self.units,
            "bias_correction": self.bias_correction,
            "acceleration": self.acceleration,
            "standard_error": self.standard_error,
            "seed": self.seed,
            "undefined": self.undefined,
            "tail_resamples": self.tail_resamples,
        }


class Distinct(NamedTuple):
    """The distinct units: their sums, their sizes, and how many units share each."""

    sums: np.ndarray
    sizes: np.ndarray
    counts: np.ndarray

    def width(self, units: int) -> int:
        """Random draws per resample of the `units` units."""
        return work_width(units, int(self.counts.size))


def distinct_units(sums: np.ndarray, sizes: np.ndarray) -> Distinct:
    """The distinct (sum, size) pairs of the units, with their counts (one sort)."""
    if np.all(sizes == 1):
        values, counts = np.unique(sums, return_counts=True)
        return Distinct(values, np.ones(values.size), counts)
    keys, counts = np.unique(sums + 1j * sizes, return_counts=True)  # sorted by sum, then size
    return Distinct(keys.real.copy(), keys.imag.copy(), counts)


def undefined_interval(
    reason: str, *, level: float, unit: str, units: int, seed: int
) -> BootstrapInterval:
    """A :class:`BootstrapInterval` without an interval, saying why."""
    return BootstrapInterval(
        confidence_interval=None,
        confidence_level=level,
        method="BCa",
        resamples=None,
        unit=unit,
        units=units,
        bias_correction=None,
        acceleration=None,
        standard_error=None,
        seed=seed,
        undefined=reason,
    )


def bca_interval(
    sums: np.ndarray,
    sizes: np.ndarray,
    *,
    distinct: Distinct,
    level: float,
    resamples: int,
    rng: np.random.Generator,
    seed: int,
    scale: float,
    unit: str,
) -> BootstrapInterval:
    """BCa interval of sum(sums) / sum(sizes), resampling the units (cases or clusters).

    Parameters
    ----------
    sums, sizes : numpy.ndarray
        Per unit, the sum of its scaled differences and its number of pairs (all 1 without
        clusters). At least two units, not all with the same mean.
    distinct : Distinct
        :func:`distinct_units` of `sums` and `sizes`.
    level, resamples, rng, seed
        Confidence level, resamples to draw, their generator, and its seed (recorded).
    scale : float
        Multiplies the scaled results back to score units.
    unit : str
        "case" or "cluster".

    Notes
    -----
    theta = sum T / sum N. z0 = Phi^-1(share of resampled theta* below theta, a tie counting
    one half, as scipy does: :func:`share_below`);
    a = sum u^3 / (6 (sum u^2)^(3/2)) with jackknife u_g = theta_(.) - theta_(g),
    theta_(g) = (T - T_g)/(N - N_g). Without clusters u_i is proportional to d_i - mean(d)
    (the closed form: a = sum (d - dbar)^3 / (6 (sum (d - dbar)^2)^(3/2))). The ends are the
    percentiles (linear interpolation) of theta* at Phi(z0 + (z0 + z)/(1 - a (z0 + z))) for
    z = Phi^-1((1 -/+ level)/2), as scipy.stats.bootstrap does.
    """
    units = int(sums.size)
    theta = float(sums.sum() / sizes.sum())
    means = _resampled_means(sums, sizes, distinct, resamples, rng)
    below = share_below(means, theta, _tie_tolerance(sums, sizes))
    z0 = float(special.ndtri(below))
    acceleration = _acceleration(distinct)
    if not math.isfinite(z0):
        share = "none" if below == 0 else "every one"
        return undefined_interval(
            f"the bias correction of the BCa interval is infinite: {share} of the "
            f"{resamples:,} resampled means lies below the observed mean, and none equals it",
            level=level,
            unit=unit,
            units=units,
            seed=seed,
        )
    ends = []
    for z in (special.ndtri((1.0 - level) / 2.0), special.ndtri((1.0 + level) / 2.0)):
        shifted = z0 + z
        ends.append(float(special.ndtr(z0 + shifted / (1.0 - acceleration * shifted))))
    low, high = np.percentile(means, [100.0 * ends[0], 100.0 * ends[1]])
    return BootstrapInterval(
        confidence_interval=ConfidenceInterval(float(low) * scale, float(high) * scale),
        confidence_level=level,
        method="BCa",
        resamples=resamples,
        unit=unit,
        units=units,
        bias_correction=z0,
        acceleration=acceleration,
        standard_error=float(np.std(means, ddof=1)) * scale,
        seed=seed,
        undefined=None,
        tail_resamples=min(ends[0], 1.0 - ends[1]) * resamples,
    )


def share_below(means: np.ndarray, theta: float, tolerance: float = 0.0) -> float:
    """The share of resampled means below `theta`, a tie counting one half: (#< + #<=)/(2B),
    as ``scipy.stats.bootstrap(method="BCa")`` computes z0's argument (its
    ``_percentile_of_score``). Means within `tolerance` of `theta` are ties (the same resample
    summed in another order).

    Examples
    --------
    >>> share_below(np.array([0.0, 0.1, 0.1, 0.3]), 0.1)  # (1 + 3) / 8
    0.5
    """
    below = int(np.count_nonzero(means < theta - tolerance))
    at_or_below = int(np.count_nonzero(means <= theta + tolerance))
    return (below + at_or_below) / (2.0 * means.size)


def _tie_tolerance(sums: np.ndarray, sizes: np.ndarray) -> float:
    """256 machine epsilons of the largest unit mean: more than the rounding of a resampled
    mean (a dot product of counts and sums), far less than any real gap between two of them."""
    return 256.0 * float(np.finfo(float).eps) * float(np.max(np.abs(sums) / sizes))


def _acceleration(distinct: Distinct) -> float:
    """The jackknife acceleration of the ratio sum(sums) / sum(sizes), from the distinct units
    (each leave-one-out value counted as often as its unit occurs)."""
    sums, sizes, counts = distinct
    total, count = float(counts @ sums), float(counts @ sizes)
    if np.all(sizes == 1):
        u = sums - total / count  # proportional to theta_(.) - theta_(i) for a mean
    else:
        leave_out = (total - sums) / (count - sizes)
        u = (counts @ leave_out) / counts.sum() - leave_out
    squares = float(counts @ (u * u))
    if squares == 0:
        return 0.0
    return float(counts @ (u * u * u)) / (6.0 * squares**1.5)


def _resampled_means(
    sums: np.ndarray,
    sizes: np.ndarray,
    distinct: Distinct,
    resamples: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """`resamples` bootstrap values of sum(sums) / sum(sizes), resampling units."""
    units = sums.size
    width = distinct.width(units)
    by_value = width < units
    shares = distinct.counts / units
    ones = bool(np.all(sizes == 1))  # no clusters: every resample has `units` cases
    out = np.empty(resamples)
    done = 0
    for rows in chunks(resamples, width):
        if by_value:
            drawn = rng.multinomial(units, shares, size=rows)
            out[done : done + rows] = (drawn @ distinct.sums) / (drawn @ distinct.sizes)
        else:
            index = rng.integers(0, units, size=(rows, units), dtype=np.int32)
            drawn = sums[index].sum(axis=1)  # np.take is far slower with int32 indices
            out[done : done + rows] = drawn / (units if ones else sizes[index].sum(axis=1))
        done += rows
    return out
