"""The paired comparison of per-case scores (BLEU, F1, graded judges): is B's mean different?

Modules, in reading order:

- :mod:`~calculator.scores.inputs`: the pairs kept, the rows excluded and why, the clusters;
- :mod:`~calculator.scores.ttest`: the paired t test and its interval (cluster-robust);
- :mod:`~calculator.scores.signflip` and :mod:`~calculator.scores.lattice`: the sign-flip
  permutation test (the one for the harness logs' pass shares too), exact by enumeration, exact
  by convolution when the differences lie on a common lattice, or Monte Carlo;
- :mod:`~calculator.scores.signedrank`: the Wilcoxon signed-rank test;
- :mod:`~calculator.scores.resampling` and :mod:`~calculator.scores.bootstrap`: the bound on
  random draws, and the BCa bootstrap interval;
- :mod:`~calculator.scores.margin`: non-inferiority of B at a margin;
- :mod:`~calculator.report.scores`: the report;
- :mod:`~calculator.scores.compare`: :func:`compare_scores`, all of it.

Every difference is A - B, as the pass-rate difference of :func:`calculator.analyze`.
"""

from calculator.scores.bootstrap import BootstrapInterval
from calculator.scores.compare import ScoresComparison, compare_scores
from calculator.scores.inputs import EXCLUSION_REASONS, MAX_SCORES
from calculator.scores.margin import MARGIN_OUTCOMES, MarginDecision
from calculator.scores.resampling import (
    DEFAULT_RESAMPLES,
    MAX_RESAMPLES,
    MAX_WORK,
    MIN_RESAMPLES,
)
from calculator.scores.signedrank import SignedRankTest
from calculator.scores.signflip import EXACT_MAX_UNITS, SignFlipTest
from calculator.scores.ttest import PairedTTest

__all__ = [
    "DEFAULT_RESAMPLES",
    "EXACT_MAX_UNITS",
    "EXCLUSION_REASONS",
    "MARGIN_OUTCOMES",
    "MAX_RESAMPLES",
    "MAX_SCORES",
    "MAX_WORK",
    "MIN_RESAMPLES",
    "BootstrapInterval",
    "MarginDecision",
    "PairedTTest",
    "ScoresComparison",
    "SignFlipTest",
    "SignedRankTest",
    "compare_scores",
]
