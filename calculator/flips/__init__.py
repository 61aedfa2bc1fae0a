"""The flipped cases of a paired comparison, with the texts their sources hold.

- :mod:`~calculator.flips.model`: :class:`Flips` (every flip, the churn by task), found from
  paired logs (:func:`log_flips`) or paired per-case
  files (:func:`cases_flips`), turned to the comparison's better direction for scores
  (:func:`oriented`): numbers and ids;
- :mod:`~calculator.flips.log_texts`: a log's texts read again for the flipped ids only;
- :mod:`~calculator.flips.case_texts`: a per-case file's text columns (``--text COL``);
- :mod:`~calculator.flips.attach`: the flips with their texts;
- :mod:`~calculator.flips.table`: every flip as one row of a table (the CSV download).
"""

from calculator.flips.attach import with_texts
from calculator.flips.model import (
    CaseTexts,
    Flip,
    Flips,
    TaskChurn,
    cases_flips,
    log_flips,
    oriented,
)

__all__ = [
    "CaseTexts",
    "Flip",
    "Flips",
    "TaskChurn",
    "cases_flips",
    "log_flips",
    "oriented",
    "with_texts",
]
