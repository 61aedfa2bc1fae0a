"""Teaching instruments: why McNemar's test works, what it can do at this n, what pairing buys.

- :func:`null_distribution`: Binomial(m, 1/2), the observed split and the tails of its p-value,
  the smallest p any split gives and the test's actual size at this m.
- :func:`operating_characteristics`: each test's exact size and power and each interval's
  coverage and mean width at n pairs, summed over the distribution of the tables.
- :func:`margin_sweep`: the tables that keep both pass rates, from least to most agreement,
  with McNemar's exact p-value and the unpaired test's.
"""

from calculator.teaching.margin_sweep import MAX_SWEEP_POINTS, MarginSweep, margin_sweep
from calculator.teaching.null_distribution import (
    ALTERNATIVES,
    MAX_BARS,
    NullDistribution,
    null_distribution,
)
from calculator.teaching.operating import (
    MAX_N,
    OC_TESTS,
    IntervalCharacteristics,
    OperatingCharacteristics,
    TestCharacteristics,
    operating_characteristics,
)

__all__ = [
    "ALTERNATIVES",
    "MAX_BARS",
    "MAX_N",
    "MAX_SWEEP_POINTS",
    "OC_TESTS",
    "IntervalCharacteristics",
    "MarginSweep",
    "NullDistribution",
    "OperatingCharacteristics",
    "TestCharacteristics",
    "margin_sweep",
    "null_distribution",
    "operating_characteristics",
]
