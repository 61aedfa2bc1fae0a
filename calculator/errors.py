"""The one exception type of the library.

Every refusal the library makes on purpose (a value out of range, a file it cannot read, a
computation it will not start because it would not finish) raises :class:`CalculatorError` or
a subclass. It derives from :class:`ValueError`, so ``except ValueError`` keeps working. The
command line turns exactly these into its one-line message with exit status 2; any other
exception is a bug and is reported as one.

Examples
--------
>>> issubclass(CalculatorError, ValueError)
True
"""

from __future__ import annotations

__all__ = ["CalculatorError"]


class CalculatorError(ValueError):
    """A refusal: the input is outside what the library accepts, and the message says why."""
