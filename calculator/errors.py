"""The one exception type of the library.

Every refusal the library makes on purpose (a value out of range, a file it cannot read, a
computation it will not start because it would not finish) raises :class:`CalculatorError` or
a subclass. It derives from :class:`ValueError`, so ``except ValueError`` keeps working. The
command line turns exactly these into its one-line message with exit status 2; any other
exception is a bug and is reported as one.

Subclasses let a caller tell refusals apart:

- :class:`CalculatorTypeError`: a value of the wrong type (also a :class:`TypeError`, so
  ``except TypeError`` keeps working);
- :class:`calculator.cases.CaseFileError`: a per-case file that cannot be analysed at all, with
  the finding (kind, file, column, offending rows) in its ``issue``.

Examples
--------
>>> issubclass(CalculatorError, ValueError)
True
>>> issubclass(CalculatorTypeError, CalculatorError) and issubclass(CalculatorTypeError, TypeError)
True
"""

from __future__ import annotations

__all__ = ["CalculatorError", "CalculatorTypeError"]


class CalculatorError(ValueError):
    """A refusal: the input is outside what the library accepts, and the message says why."""


class CalculatorTypeError(CalculatorError, TypeError):
    """A refusal of a value of the wrong type (a string where a count belongs, say)."""
