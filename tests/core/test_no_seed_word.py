"""User-facing text never uses the word "seed" (developers' guide): the scores report named
"random seed 0" and compare's Monte Carlo permutation "seed 0"; now "random-number stream 0".
"""

from __future__ import annotations

import math

from calculator.report.words import text
from calculator.scores import compare_scores


def test_scores_report_names_the_random_number_stream_not_a_seed():
    # 40 continuous differences (more than 30 non-zero, on no lattice): Monte Carlo, and BCa.
    a = [0.5 + 0.01 * math.sqrt(i + 2) for i in range(40)]
    b = [0.5 + 0.013 * math.sin(i) for i in range(40)]
    report = text(compare_scores(a, b))
    assert "Monte Carlo" in report and "random-number stream 0" in report
    assert "seed" not in report.lower()
