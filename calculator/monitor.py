"""Monitoring a paired comparison case by case: the anytime-valid test after every batch, stopping
at the first look where the e-value has reached 1/alpha.

- :func:`monitor_outcomes`: pass/fail outcomes of A and B in the order they arrived, looked at
  every `every` cases, as a :class:`Monitor`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calculator._validation import check_bounded_count, check_choice, check_probability, message
from calculator.anytime import log_mixture_evalue
from calculator.confidence_sequence import check_prior_shape, mixture_limits
from calculator.errors import CalculatorError
from calculator.mcnemar import ALTERNATIVES

__all__ = ["MAX_LOOKS", "MAX_MONITORED", "Monitor", "monitor_outcomes"]

#: Most cases one monitor reads (the e-value and the sequence are computed at every case).
MAX_MONITORED = 2_000_000
#: Most looks one monitor takes: each is a line of its report, and its e-value and its set of
#: the sequence are computed exactly (far against a one-sided alternative, a series per look),
#: which bounds a call to a few seconds.
MAX_LOOKS = 2_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Monitor:
    """The looks of a monitored comparison, up to the first that crossed 1/alpha.

    Attributes
    ----------
    cases : numpy.ndarray of int
        Cases seen at each look (every `every` cases, and the last case read).
    only_a, only_b : numpy.ndarray of int
        b and c at each look.
    log10_evalue : numpy.ndarray of float
        log10 of the mixture e-value at each look.
    pvalue, log10_pvalue : numpy.ndarray of float
        The anytime-valid p at each look, min(1, 1 / the largest E over every case so far).
    low, high : numpy.ndarray of float
        The running intersection of the confidence sequence for theta (the share of
        disagreements where only A passes) over the looks so far; NaN where it is empty.
    crossed_at : int or None
        Index of the first look where the anytime p is at most alpha (the monitor stops there),
        or None if no look crossed.
    cases_read : int
        Cases in the input; the looks stop early at a crossing.
    every, alpha, level, alternative, prior_shape
        The settings; `level` = 1 - alpha for the sequence.
    """

    cases: np.ndarray
    only_a: np.ndarray
    only_b: np.ndarray
    log10_evalue: np.ndarray
    pvalue: np.ndarray
    log10_pvalue: np.ndarray
    low: np.ndarray
    high: np.ndarray
    crossed_at: int | None
    cases_read: int
    every: int
    alpha: float
    alternative: str
    prior_shape: float

    @property
    def level(self) -> float:
        return 1 - self.alpha

    def to_dict(self) -> dict[str, object]:
        looks = [
            {
                "cases": int(self.cases[i]),
                "only_A": int(self.only_a[i]),
                "only_B": int(self.only_b[i]),
                "log10_evalue": float(self.log10_evalue[i]),
                "pvalue": float(self.pvalue[i]),
                "log10_pvalue": float(self.log10_pvalue[i]),
                "sequence_low": None if math.isnan(self.low[i]) else float(self.low[i]),
                "sequence_high": None if math.isnan(self.high[i]) else float(self.high[i]),
            }
            for i in range(self.cases.size)
        ]
        return {
            "looks": looks,
            "crossed_at_case": None if self.crossed_at is None else looks[self.crossed_at]["cases"],
            "cases_read": self.cases_read,
            "every": self.every,
            "alpha": self.alpha,
            "level": self.level,
            "alternative": self.alternative,
            "prior_shape": self.prior_shape,
        }


def _outcomes(values: object, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 1 or array.dtype != bool:
        raise CalculatorError(message(name, "a one-dimensional array of booleans", values))
    return array


def monitor_outcomes(
    a_pass: object,
    b_pass: object,
    *,
    every: int | None = None,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    prior_shape: float = 1.0,
) -> Monitor:
    """The anytime-valid test after every `every` cases, stopping at the first crossing.

    Parameters
    ----------
    a_pass, b_pass : array of bool
        Whether A (B) passed each case, in the order the cases arrived.
    every : int, optional
        Cases between looks, at least 1, and large enough for at most :data:`MAX_LOOKS` looks;
        by default 1 up to MAX_LOOKS cases, and the smallest that keeps to MAX_LOOKS beyond.
    alpha : float
        The monitor stops at the first look where the anytime-valid p is at most alpha (the
        e-value has reached 1/alpha at some case so far); the sequence has level 1 - alpha.
    alternative, prior_shape
        As in :func:`calculator.anytime.anytime_test`.

    Returns
    -------
    Monitor

    Notes
    -----
    The e-value is computed at every case (concordant cases leave it as it was), and the p at a
    look is min(1, 1 / the largest E at any case so far), valid at any stopping time
    (:func:`calculator.anytime.anytime_test_path`). The confidence sequence at a look is the
    intersection of its sets at the looks so far (each set holds theta at every time at once,
    so any intersection of them does): with ``every=1``, of every set so far.

    Stopping at the first look with p <= alpha keeps the chance of a false alarm at alpha
    whatever `every` is, when the cases' splits are independent with a constant share, as in
    any order fixed before the outcomes
    are seen.

    Examples
    --------
    >>> a = [True] * 30 + [False] * 10
    >>> b = [False] * 30 + [True] * 10
    >>> m = monitor_outcomes(a, b, every=5)
    >>> int(m.cases[m.crossed_at]), round(float(m.pvalue[m.crossed_at]), 4)
    (10, 0.0107)
    """
    a, b = _outcomes(a_pass, "a_pass"), _outcomes(b_pass, "b_pass")
    if a.size != b.size:
        raise CalculatorError(
            f"`a_pass` and `b_pass` must have the same length, but got {a.size:,} and {b.size:,}."
        )
    if a.size == 0 or a.size > MAX_MONITORED:
        raise CalculatorError(message("a_pass", f"1 to {MAX_MONITORED:,} cases", a.size))
    if every is None:
        every = math.ceil(a.size / MAX_LOOKS)
    every = check_bounded_count(every, "every", 1, MAX_MONITORED)
    if math.ceil(a.size / every) > MAX_LOOKS:
        allowed = f"at least {math.ceil(a.size / MAX_LOOKS):,} for {a.size:,} cases"
        raise CalculatorError(message("every", f"{allowed} (at most {MAX_LOOKS:,} looks)", every))
    alpha = check_probability(alpha, "alpha")
    check_choice(alternative, "alternative", ALTERNATIVES)
    k = check_prior_shape(prior_shape)
    b_path = np.cumsum(a & ~b)
    c_path = np.cumsum(~a & b)
    running_log_e = np.maximum.accumulate(
        np.maximum(log_mixture_evalue(b_path, c_path, k, alternative, for_maximum=True), 0.0)
    )
    looks = np.arange(every, a.size + 1, every) - 1
    if looks.size == 0 or looks[-1] != a.size - 1:
        looks = np.append(looks, a.size - 1)
    log10_p = -running_log_e[looks] / math.log(10)
    crossed = np.flatnonzero(log10_p <= math.log10(alpha))
    end = looks.size if crossed.size == 0 else int(crossed[0]) + 1
    looks, log10_p = looks[:end], log10_p[:end]
    lows, highs = mixture_limits(b_path[looks], c_path[looks], k, alpha)
    lows, highs = np.maximum.accumulate(lows), np.minimum.accumulate(highs)
    empty = lows > highs
    return Monitor(
        cases=looks + 1,
        only_a=b_path[looks],
        only_b=c_path[looks],
        log10_evalue=log_mixture_evalue(b_path[looks], c_path[looks], k, alternative)
        / math.log(10),
        pvalue=10.0**log10_p,
        log10_pvalue=log10_p,
        low=np.where(empty, np.nan, lows),
        high=np.where(empty, np.nan, highs),
        crossed_at=None if crossed.size == 0 else int(crossed[0]),
        cases_read=a.size,
        every=every,
        alpha=alpha,
        alternative=alternative,
        prior_shape=k,
    )
