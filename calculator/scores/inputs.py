"""Paired scores in, checked: the differences A - B, the rows left out and why, the clusters.

:func:`paired_scores` turns two score sequences (and optional cluster labels) into
:class:`PairedScores`: the finite pairs kept, every excluded row counted by reason (never dropped
silently), and the differences scaled by a power of two so that every later sum stays finite and
every comparison of differences stays exact.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from calculator._validation import check_choice, check_probability, message
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.mcnemar import ALTERNATIVES

__all__ = [
    "EXCLUSION_REASONS",
    "MAX_SCORES",
    "PairedScores",
    "check_level",
    "check_alternative",
    "check_margin",
    "paired_scores",
]

#: Why a row can be left out, in the order a report lists them: a score that is NaN (missing)
#: in A or B, a score that is infinite, or, with clusters, a missing cluster label. A row with
#: several faults is counted once, under the first reason that applies.
EXCLUSION_REASONS = ("missing_score", "infinite_score", "missing_cluster")
#: Most pairs accepted (rows before exclusion): 10^8 doubles are 800 MB per system.
MAX_SCORES = 10**8


@dataclass(frozen=True, slots=True, kw_only=True)
class PairedScores:
    """The pairs kept for analysis. Build it with :func:`paired_scores`.

    Attributes
    ----------
    mean_a, mean_b : float
        Mean score of A and of B over the kept pairs.
    differences : numpy.ndarray
        A's score minus B's, one per kept pair, in input order.
    rows : int
        Rows given, before exclusion.
    excluded : dict of str to int
        Rows left out per reason of :data:`EXCLUSION_REASONS` (every reason present, 0 if none).
    constant : bool
        True when the differences have no spread beyond rounding: max - min is at most 4 machine
        epsilons times the largest score (a - b rounds each difference by at most half an
        epsilon of the larger score), so equal true differences count as equal.
    scale : float
        A power of two at least the largest absolute difference (1 when every difference is
        0). The analyses work on ``differences / scale``, which divides exactly, so sums of
        squares and cubes neither overflow nor underflow, and scale their results back.
    rounding : float
        4 machine epsilons times the largest score, divided by `scale`: scaled differences
        closer than this are taken for equal differences written with rounded scores
        (0.1 - 0.3 and 0.7 - 0.9 differ in their last bits); the signed-rank test ranks them
        as ties.
    cluster_index : numpy.ndarray or None
        For each kept pair, its cluster as 0 .. clusters - 1; None without clusters.
    clusters : int or None
        Number of clusters among the kept pairs; None without clusters.
    """

    mean_a: float
    mean_b: float
    differences: np.ndarray
    rows: int
    excluded: dict[str, int]
    constant: bool
    cluster_index: np.ndarray | None
    clusters: int | None
    scale: float
    rounding: float

    @property
    def scaled(self) -> np.ndarray:
        """The differences divided by :attr:`scale`, all within [-1, 1]."""
        return self.differences / self.scale

    @property
    def mean_difference(self) -> float:
        """The mean of the differences A - B (computed from them, not from the two means)."""
        return float(self.scaled.sum()) / self.n * self.scale

    @property
    def n(self) -> int:
        """Number of pairs kept."""
        return int(self.differences.size)

    @property
    def units(self) -> int:
        """Independent units: the clusters, or the pairs without clusters."""
        return self.n if self.clusters is None else self.clusters

    def cluster_totals(self) -> tuple[np.ndarray, np.ndarray]:
        """Per unit: the sum of its differences and its number of pairs (1 each without
        clusters)."""
        if self.cluster_index is None:
            return self.differences, np.ones(self.n)
        sums = np.bincount(self.cluster_index, weights=self.differences, minlength=self.units)
        sizes = np.bincount(self.cluster_index, minlength=self.units).astype(float)
        return sums, sizes


def paired_scores(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    clusters: Sequence[object] | np.ndarray | None = None,
) -> PairedScores:
    """Check two paired score sequences and keep the rows where both scores are finite.

    Parameters
    ----------
    a, b : sequence of float
        A's and B's score on the same cases, in the same order; equal lengths, 1 to
        :data:`MAX_SCORES` rows.
    clusters : sequence or None
        A cluster label per row (a question sampled several times, a task); None or NaN
        labels are missing.

    Returns
    -------
    PairedScores

    Raises
    ------
    TypeError
        If a score is not a number.
    CalculatorError
        For unequal lengths, no row, too many rows, no finite pair left, or differences that
        overflow a double.

    Examples
    --------
    >>> kept = paired_scores([1.0, float("nan"), 0.5], [0.5, 0.2, 0.5])
    >>> kept.n, kept.excluded["missing_score"], kept.differences.tolist()
    (2, 1, [0.5, 0.0])
    """
    a_values, b_values = _as_scores(a, "a"), _as_scores(b, "b")
    if a_values.size != b_values.size:
        raise CalculatorError(
            f"`a` and `b` must hold one score per case each, paired in order, but `a` has "
            f"{a_values.size:,} and `b` has {b_values.size:,}."
        )
    rows = int(a_values.size)
    if rows == 0:
        raise CalculatorError("`a` and `b` hold no score: give at least one pair of scores.")
    missing = np.isnan(a_values) | np.isnan(b_values)
    infinite = ~missing & (np.isinf(a_values) | np.isinf(b_values))
    keep = ~(missing | infinite)
    labels = None
    if clusters is not None:
        labels, missing_label = _cluster_labels(clusters, rows)
        missing_label &= keep
        keep &= ~missing_label
    excluded = {
        "missing_score": int(missing.sum()),
        "infinite_score": int(infinite.sum()),
        "missing_cluster": int(missing_label.sum()) if clusters is not None else 0,
    }
    if not keep.any():
        raise CalculatorError(
            f"No pair of finite scores is left: {rows:,} rows, of which "
            + ", ".join(
                f"{count:,} {reason.replace('_', ' ')}"
                for reason, count in excluded.items()
                if count
            )
            + " were excluded."
        )
    a_kept, b_kept = a_values[keep], b_values[keep]
    with np.errstate(over="ignore", invalid="ignore"):
        differences = a_kept - b_kept
    if not np.isfinite(differences).all():
        raise CalculatorError(
            "A's score minus B's overflows a double on some rows (scores near 1e308): rescale "
            "the scores."
        )
    _refuse_extreme_magnitudes(a_kept, b_kept, differences)
    cluster_index, count = None, None
    if labels is not None:
        cluster_index, count = _factorize(labels[keep])
    scale = _power_of_two_above(float(np.abs(differences).max()))
    top = max(float(np.abs(a_kept).max()), float(np.abs(b_kept).max()))
    spread = float(differences.max() - differences.min())
    return PairedScores(
        mean_a=_mean(a_kept),
        mean_b=_mean(b_kept),
        differences=differences,
        rows=rows,
        excluded=excluded,
        constant=spread <= 4 * np.finfo(float).eps * top,
        cluster_index=cluster_index,
        clusters=count,
        scale=scale,
        rounding=4 * np.finfo(float).eps * top / scale,
    )


def _as_scores(values: object, name: str) -> np.ndarray:
    if isinstance(values, str | bytes) or not hasattr(values, "__len__"):
        raise CalculatorTypeError(message(name, "a sequence of numbers", values))
    if len(values) > MAX_SCORES:
        raise CalculatorError(
            message(name, f"at most {MAX_SCORES:,} scores", f"{len(values):,} scores")
        )
    try:
        array = np.asarray(values)
    except ValueError:  # ragged nested sequences
        array = np.empty(0, dtype=object).reshape(0, 0)
    if array.ndim != 1:
        raise CalculatorError(message(name, "a one-dimensional sequence of numbers", values))
    if array.dtype.kind == "O":
        listed = [math.nan if _is_missing(v) else v for v in array.tolist()]
        for index, value in enumerate(listed):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise CalculatorTypeError(
                    f"`{name}` must hold numbers, but row {index + 1:,} holds {value!r}."
                )
        array = np.array(listed, dtype=float)
    elif array.dtype.kind not in "iuf":
        raise CalculatorTypeError(message(name, "a sequence of numbers", values))
    return array.astype(float, copy=False)


def _is_missing(value: object) -> bool:
    """None and pandas' NA (a nullable column's missing value) are missing scores."""
    return value is None or type(value).__name__ == "NAType"


def _cluster_labels(clusters: object, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """The labels as an array and a mask of the missing ones (None, NaN)."""
    if isinstance(clusters, str | bytes) or not hasattr(clusters, "__len__"):
        raise CalculatorTypeError(
            message("clusters", "a sequence of labels, one per row", clusters)
        )
    labels = np.asarray(clusters)
    if labels.ndim != 1 or labels.size != rows:
        raise CalculatorError(
            f"`clusters` must hold one label per pair of scores ({rows:,}), but got "
            f"{labels.size:,}."
        )
    if labels.dtype.kind == "f":
        return labels, np.isnan(labels)
    if labels.dtype.kind == "O":
        missing = np.array(
            [_is_missing(v) or (isinstance(v, float) and math.isnan(v)) for v in labels.tolist()],
            dtype=bool,
        )
        return labels, missing
    return labels, np.zeros(rows, dtype=bool)


def _factorize(labels: np.ndarray) -> tuple[np.ndarray, int]:
    """Cluster numbers 0 .. k - 1, in order of first appearance."""
    if labels.dtype.kind != "O":
        _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
        order = np.argsort(np.argsort(first))  # renumber by first appearance
        return order[inverse].astype(np.intp), int(first.size)
    seen: dict[object, int] = {}
    index = np.fromiter((seen.setdefault(v, len(seen)) for v in labels.tolist()), np.intp)
    return index, len(seen)


#: Largest score magnitude taken: the means and the scale are computed through the power of two
#: above each score, and 2^1024 is no longer a double.
LARGEST_SCORE = math.ldexp(1.0, 1023)


def _refuse_extreme_magnitudes(a: np.ndarray, b: np.ndarray, differences: np.ndarray) -> None:
    """Refuse scores of 2^1023 (about 9e307) or more in size, and non-zero differences below the
    smallest normal double (2.2e-308): the first overflow the exact scaling of the means, the
    second are rounded to 0 or to their neighbours, so a mean difference of 2.5e-324 would be
    reported as 0 beside a permutation test that counts it as non-zero."""
    top = max(float(np.abs(a).max()), float(np.abs(b).max()))
    if top >= LARGEST_SCORE:
        raise CalculatorError(
            f"A score of {top:.3g} is beyond the largest score taken ({LARGEST_SCORE:.3g}, "
            "2^1023): rescale the scores."
        )
    sizes = np.abs(differences)
    tiny = np.finfo(float).tiny
    if ((sizes > 0) & (sizes < tiny)).any():
        smallest = float(sizes[sizes > 0].min())
        raise CalculatorError(
            f"A's score minus B's is {smallest:.3g} on some rows, below the smallest normal "
            f"double ({tiny:.3g}), where arithmetic loses its precision: rescale the scores."
        )


def _power_of_two_above(value: float) -> float:
    """The smallest power of two at least `value` (1 for 0): dividing by it is exact."""
    if value == 0:
        return 1.0
    return math.ldexp(1.0, math.frexp(value)[1])


def _mean(values: np.ndarray) -> float:
    """The mean, without overflow for scores near the largest double."""
    scale = _power_of_two_above(float(np.abs(values).max()))
    return float(np.mean(values / scale)) * scale


def check_level(level: object) -> float:
    """The confidence level, strictly between 0 and 1."""
    try:
        return check_probability(level, "level")
    except ValueError as error:
        raise CalculatorError(str(error)) from None


def check_alternative(alternative: object) -> str:
    """One of "two-sided", "greater" (B's mean higher than A's) or "less"."""
    try:
        return check_choice(alternative, "alternative", ALTERNATIVES)
    except ValueError as error:
        raise CalculatorError(str(error)) from None


#: Which way a score is better: "higher" (accuracy, BLEU) or "lower" (error rates, losses).
DIRECTIONS = ("higher", "lower")


def check_better(better: object) -> str:
    """ "higher" (higher scores are better) or "lower" (error rates, losses)."""
    try:
        return check_choice(better, "better", DIRECTIONS)
    except ValueError as error:
        raise CalculatorError(str(error)) from None


def check_margin(margin: object) -> float | None:
    """None, or a positive finite margin in the scores' own units."""
    if margin is None:
        return None
    allowed = "None or a positive finite number (in the scores' units)"
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
        raise CalculatorTypeError(message("margin", allowed, margin))
    value = float(margin)
    if not (math.isfinite(value) and value > 0):
        raise CalculatorError(message("margin", allowed, margin))
    return value
