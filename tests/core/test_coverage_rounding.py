"""A coverage of every table reads 100%, not 99.99999999999997% (statistics 4, round 3's C2).

At n = 3 with p10 = 0, p01 = 1/3, p11 = 2/3 (the page's ?t_oc=true&a=2&b=0&c=1&d=0) the Newcombe
interval covers the true difference -1/3 on every table with non-zero probability, so its
coverage is 1; the floating-point sum of those probabilities was 0.9999999999999997, and the
page printed "Newcombe 99.99999999999997%". A coverage below 1 (Wald's, 2/3 here) is unchanged.
"""

from __future__ import annotations

import pytest

from calculator.teaching import operating_characteristics
from ui.teaching_words import percent_beside


def test_a_coverage_of_every_table_is_exactly_one():
    result = operating_characteristics(3, 0.0, 1 / 3, p11=2 / 3, alpha=0.05, level=0.95)
    coverage = {i.method: i.coverage for i in result.intervals}
    assert coverage["newcombe"] == 1.0
    assert percent_beside(coverage["newcombe"], 0.95) == "100.0%"
    assert coverage["wald"] == pytest.approx(2 / 3, rel=1e-12)
