"""The scores' margin sentence reads in A − B, as the headline beside it (statistics 4, C13).

The headline gave "a mean difference A − B of +1.94 (90% t interval -0.549 to +4.44)" and the
margin sentence the same interval the other way round ("for B's mean score minus A's, -4.44 to
+0.549"): a skim read the sign wrong. Both now quote the one interval, in A − B, and since issue
30 the margin block's numbers and its JSON are in A − B too ("of": "mean(A - B)").
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from calculator import compare_scores
from calculator.report.words import text

RNG = np.random.default_rng(11)
BASE = RNG.uniform(20, 40, 50)


@pytest.mark.parametrize(
    ("shift", "spread", "outcome", "where"),
    [
        (0.0, 0.5, "non-inferior", "lies below +2"),
        (5.0, 0.5, "worse-beyond-margin", "lies entirely above +2"),
        (2.0, 1.0, "worse-unsettled", "lies above 0 but reaches across +2"),
        (1.0, 6.0, "not-shown", "reaches above +2 and down to 0 or below"),
    ],
)
def test_the_margin_sentence_quotes_the_headline_interval(shift, spread, outcome, where):
    b = BASE - shift + RNG.normal(0, spread, BASE.size)
    result = compare_scores(BASE, b, level=0.9, margin=2.0)
    assert result.margin.outcome == outcome
    headline = re.search(r"\(90% t interval (\S+) to (\S+)\)", text(result))
    assert headline is not None
    quoted = f"the 90% t interval for A − B, {headline[1]} to {headline[2]}, {where}"
    assert quoted in text(result.margin), text(result.margin)
    low, high = result.margin.low, result.margin.high
    assert (low, high) == tuple(result.confidence_interval)
    assert result.margin.estimate == result.statistic  # the headline's mean(A - B)
    assert result.margin.to_dict()["of"] == "mean(A - B)"
