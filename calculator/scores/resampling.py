"""How many resamples, and at what cost: the bound shared by the bootstrap and the sign-flip test.

A resample of u independent units costs about ``min(u, 4 k)`` random draws, where k is the
number of distinct values among the units: the sampler either draws every unit (random indices,
random signs) or one multinomial or binomial count per distinct value, which is exact in
distribution and about four times dearer per draw. :func:`plan_resamples` keeps the total under
:data:`MAX_WORK` draws.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator

import numpy as np

from calculator._validation import message
from calculator.errors import CalculatorError, CalculatorTypeError

__all__ = [
    "DEFAULT_RESAMPLES",
    "MAX_RESAMPLES",
    "MAX_WORK",
    "MIN_RESAMPLES",
    "check_resamples",
    "check_seed",
    "chunks",
    "plan_resamples",
    "random_bits",
    "work_width",
]

#: Resamples when none are asked for (fewer when the data are too large, see plan_resamples).
DEFAULT_RESAMPLES = 10_000
#: Fewest resamples accepted: below this a BCa interval's tails rest on a handful of resamples.
MIN_RESAMPLES = 1_000
#: Most resamples accepted.
MAX_RESAMPLES = 1_000_000
#: Most random draws one analysis (the bootstrap, or the Monte Carlo test) may take: about a
#: second on one core.
MAX_WORK = 10**8
#: Elements per chunk of resamples (a chunk's float64 matrix is at most 64 MB).
_CHUNK_ELEMENTS = 2**23


def work_width(units: int, distinct: int) -> int:
    """Draws per resample: every unit, or four per distinct value, whichever is fewer."""
    return max(1, min(units, 4 * distinct))


def check_resamples(resamples: object) -> int | None:
    """None (automatic) or a whole number from MIN_RESAMPLES to MAX_RESAMPLES."""
    if resamples is None:
        return None
    allowed = f"None or an integer from {MIN_RESAMPLES:,} to {MAX_RESAMPLES:,}"
    if isinstance(resamples, bool) or not isinstance(resamples, numbers.Integral):
        if isinstance(resamples, float) and resamples.is_integer():
            resamples = int(resamples)
        else:
            raise CalculatorTypeError(message("resamples", allowed, resamples))
    if not MIN_RESAMPLES <= int(resamples) <= MAX_RESAMPLES:
        raise CalculatorError(message("resamples", allowed, resamples))
    return int(resamples)


def check_seed(seed: object) -> int:
    """A non-negative integer seed of the random generator."""
    allowed = "a non-negative integer"
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise CalculatorTypeError(message("seed", allowed, seed))
    if int(seed) < 0:
        raise CalculatorError(message("seed", allowed, seed))
    return int(seed)


def plan_resamples(requested: int | None, width: int, what: str) -> tuple[int | None, str | None]:
    """Resamples to draw, or None and the reason, within :data:`MAX_WORK` draws.

    Parameters
    ----------
    requested : int or None
        Resamples asked for; None for :data:`DEFAULT_RESAMPLES`, lowered to fit the bound (not
        below :data:`MIN_RESAMPLES`, else skipped with the reason).
    width : int
        Draws per resample (:func:`work_width`).
    what : str
        The computation in words, for the messages ("the bootstrap").

    Raises
    ------
    CalculatorError
        When `requested` resamples would exceed the bound.

    Examples
    --------
    >>> plan_resamples(None, 100, "the bootstrap")
    (10000, None)
    >>> plan_resamples(None, 50_000, "the bootstrap")
    (2000, None)
    """
    fits = MAX_WORK // width
    if requested is not None:
        if requested > fits:
            raise CalculatorError(
                f"{requested:,} resamples for {what} would take {requested * width:,} random "
                f"draws ({width:,} each), more than the bound of {MAX_WORK:,}: give `resamples` "
                f"at most {max(fits, 0):,}"
                + (f" (the least accepted is {MIN_RESAMPLES:,})" if fits < MIN_RESAMPLES else "")
                + "."
            )
        return requested, None
    if fits >= DEFAULT_RESAMPLES:
        return DEFAULT_RESAMPLES, None
    if fits >= MIN_RESAMPLES:
        return int(fits), None
    return None, (
        f"{what} was not run: even {MIN_RESAMPLES:,} resamples would take "
        f"{MIN_RESAMPLES * width:,} random draws, more than the bound of {MAX_WORK:,}; the t "
        "test, whose large-sample approximation improves with the number of units, stands in "
        "for it"
    )


def chunks(total: int, width: int) -> Iterator[int]:
    """Sizes of the chunks of `total` resamples, each at most 2^23 elements wide in all."""
    rows = max(1, _CHUNK_ELEMENTS // max(1, width))
    done = 0
    while done < total:
        size = min(rows, total - done)
        yield size
        done += size


def random_bits(rng: np.random.Generator, rows: int, columns: int) -> np.ndarray:
    """A rows x columns array of independent fair bits (0 or 1, uint8)."""
    per_row = -(-columns // 8)
    raw = np.frombuffer(rng.bytes(rows * per_row), dtype=np.uint8).reshape(rows, per_row)
    return np.unpackbits(raw, axis=1)[:, :columns]
