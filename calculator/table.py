"""The paired 2 x 2 table and the validation of its counts.

Two systems A and B are scored pass/fail on the same n cases:

============  ========  ========
              B passes  B fails
============  ========  ========
A passes      a         b
A fails       c         d
============  ========  ========

Only the discordant cells b (only A passes) and c (only B passes) carry evidence about which
system is better. Each cell holds at most :data:`MAX_COUNT` (10^12) cases; :func:`check_count`
and :func:`check_probability`, the core's checks of counts and probabilities, are public here.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from calculator._validation import MAX_COUNT, check_count, check_probability
from calculator.errors import CalculatorError

__all__ = ["MAX_COUNT", "PairedTable", "check_count", "check_probability"]


@dataclass(frozen=True, slots=True)
class PairedTable:
    """A validated paired 2 x 2 table of pass/fail outcomes for systems A and B.

    Parameters
    ----------
    a, b, c, d : int
        Cases both pass, only A passes, only B passes, both fail.

    Examples
    --------
    >>> t = PairedTable(60, 15, 5, 20)
    >>> t.n, t.discordant, t.pass_rate_a, t.pass_rate_b
    (100, 20, 0.75, 0.65)
    >>> PairedTable.from_errors(both_right=72, both_wrong=8, only_a_wrong=14, only_b_wrong=6)
    PairedTable(a=72, b=6, c=14, d=8)
    """

    a: int
    b: int
    c: int
    d: int

    def __post_init__(self) -> None:
        for name in ("a", "b", "c", "d"):
            # frozen: normalise 3.0 -> 3 and numpy integers -> int through object.__setattr__
            object.__setattr__(self, name, check_count(getattr(self, name), name))

    @classmethod
    def from_outcomes(cls, a_pass: Sequence[object], b_pass: Sequence[object]) -> PairedTable:
        """Tabulate two equal-length sequences of per-case pass (True) / fail (False) outcomes.

        Accepts Python or numpy booleans and the integers 0 and 1.

        Examples
        --------
        >>> PairedTable.from_outcomes([True, True, False, False], [True, False, True, False])
        PairedTable(a=1, b=1, c=1, d=1)
        """
        a_flags = _as_flags(a_pass, "a_pass")
        b_flags = _as_flags(b_pass, "b_pass")
        if len(a_flags) != len(b_flags):
            raise CalculatorError(
                "`a_pass` and `b_pass` must have the same length (one outcome per case for each "
                f"system), but got {len(a_flags)} and {len(b_flags)}."
            )
        both = int(np.count_nonzero(a_flags & b_flags))
        only_a = int(np.count_nonzero(a_flags & ~b_flags))
        only_b = int(np.count_nonzero(b_flags & ~a_flags))
        return cls(both, only_a, only_b, len(a_flags) - both - only_a - only_b)

    @classmethod
    def from_correctness(
        cls, a_correct: Sequence[object], b_correct: Sequence[object]
    ) -> PairedTable:
        """Tabulate per-case correct (True) / wrong (False) flags of two classifiers.

        "Correct" plays the role of "pass", so this is :meth:`from_outcomes` under another name.
        """
        return cls.from_outcomes(a_correct, b_correct)

    @classmethod
    def from_errors(
        cls, *, both_right: int, both_wrong: int, only_a_wrong: int, only_b_wrong: int
    ) -> PairedTable:
        """Build the table from the classifier framing's four counts.

        Notes
        -----
        Both right -> a, only B wrong -> b (A is right where B is not), only A wrong -> c,
        both wrong -> d. The error-rate difference R_A - R_B is minus the pass-rate difference.
        """
        return cls(
            check_count(both_right, "both_right"),
            check_count(only_b_wrong, "only_b_wrong"),
            check_count(only_a_wrong, "only_a_wrong"),
            check_count(both_wrong, "both_wrong"),
        )

    @property
    def n(self) -> int:
        """Number of cases, a + b + c + d."""
        return self.a + self.b + self.c + self.d

    @property
    def cells(self) -> tuple[int, int, int, int]:
        """(a, b, c, d), in the order :func:`calculator.analyze` takes them."""
        return self.a, self.b, self.c, self.d

    @property
    def discordant(self) -> int:
        """Number of cases the systems disagree on, b + c."""
        return self.b + self.c

    def to_dict(self) -> dict[str, int]:
        """The cells, n and the discordant count, as every JSON document writes a table.

        >>> PairedTable(60, 15, 5, 20).to_dict()
        {'a': 60, 'b': 15, 'c': 5, 'd': 20, 'n': 100, 'discordant': 20}
        """
        return {
            "a": self.a,
            "b": self.b,
            "c": self.c,
            "d": self.d,
            "n": self.n,
            "discordant": self.discordant,
        }

    @property
    def pass_rate_a(self) -> float:
        """(a + b) / n; raises ValueError for an empty table."""
        return (self.a + self.b) / self._nonzero_n()

    @property
    def pass_rate_b(self) -> float:
        """(a + c) / n; raises ValueError for an empty table."""
        return (self.a + self.c) / self._nonzero_n()

    @property
    def difference(self) -> float:
        """Pass-rate difference A - B = (b - c) / n; positive when A passes more often."""
        return (self.b - self.c) / self._nonzero_n()

    def _nonzero_n(self) -> int:
        if self.n == 0:
            raise CalculatorError(
                "The table is empty (a + b + c + d = 0): rates need at least one case."
            )
        return self.n


def _as_flags(outcomes: Sequence[object], name: str) -> np.ndarray:
    if isinstance(outcomes, np.ndarray) and outcomes.dtype == np.bool_ and outcomes.ndim == 1:
        return outcomes  # flags already: counted without a loop (a million cases from a file)
    flags = []
    for position, value in enumerate(outcomes):
        # numpy.bool_ is not a bool subclass; accept it and the integers 0 and 1, nothing else.
        if isinstance(value, bool | np.bool_ | numbers.Integral) and value in (0, 1):
            flags.append(bool(value))
            continue
        raise CalculatorError(
            f"`{name}` must hold pass/fail booleans (True/False or 1/0), "
            f"but item {position} is {value!r}."
        )
    return np.array(flags, dtype=bool)
