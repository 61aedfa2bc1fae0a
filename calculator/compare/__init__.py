"""Three or more systems on the same cases (pass/fail; scores in :mod:`.friedman`).

- :mod:`calculator.compare.cochran`: Cochran's Q with its chi-square and permutation p-values.
- :mod:`calculator.compare.multiplicity`: Holm and Bonferroni adjustments of a family of p-values.
- :mod:`calculator.compare.systems`: :func:`compare_systems`, every pair, pass rates, a ranking.
- :mod:`calculator.compare.letters`: the compact letter display of the systems not separated.
- :mod:`calculator.compare.friedman`: scores: Friedman, Iman-Davenport, Nemenyi, pairs by Holm.
- :mod:`calculator.compare.conjunction`: on how many tasks one system does better.
- :mod:`calculator.report.compare`: the sentences the command line and the page print.

Per-case files of several systems are read by :func:`calculator.cases.multi.load_systems`.

Examples
--------
>>> from calculator.compare import compare_systems
>>> r = compare_systems([[1, 0, 0], [1, 1, 0], [0, 1, 0]], ["A", "B", "C"])
>>> r.family_size, r.ranking
(3, ('A', 'B', 'C'))
"""

from calculator.compare.cochran import CochranQResult, cochran_q
from calculator.compare.letters import LetterDisplay, letter_groups
from calculator.compare.multiplicity import ADJUSTMENTS, adjust_log10_pvalues, adjust_pvalues
from calculator.compare.systems import (
    MAX_SYSTEMS,
    PairComparison,
    SystemComparison,
    SystemRate,
    compare_systems,
    wilson_interval,
)

__all__ = [
    "ADJUSTMENTS",
    "MAX_SYSTEMS",
    "CochranQResult",
    "LetterDisplay",
    "PairComparison",
    "SystemComparison",
    "SystemRate",
    "adjust_log10_pvalues",
    "adjust_pvalues",
    "cochran_q",
    "compare_systems",
    "letter_groups",
    "wilson_interval",
]
