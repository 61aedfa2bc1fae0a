"""Per-gate levels cut, never rounded up, and cut visibly (statistics 4, C11).

Before: at alpha = 0.01 and 6 gates the page's card read "0.00166" for 0.01/6 = 0.0016667,
which reads as a slip in the division. Now it reads 0.001666; a level still never prints
above its exact value (the gate would then exceed the overall rate it promises).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import gate_rates
from calculator.report.formatting import format_level
from ui.words import gate_cards


def test_the_page_card_shows_the_cut():
    cards = gate_cards(gate_rates(6, 0.01))
    assert cards[1].value == "0.001666"
    assert "0.00167" in cards[1].caption  # Šidák 1 - 0.99^(1/6) = 0.0016737, cut at 3 figures


@settings(max_examples=500, deadline=None)
@given(st.floats(min_value=1e-12, max_value=0.5, allow_nan=False))
def test_a_level_never_prints_above_its_value(value: float) -> None:
    # Read back as a float (1e-12 prints "1.00e-12", the same double): never above the value.
    assert float(format_level(value)) <= value
    assert Fraction(format_level(value)) <= Fraction(value) * (1 + Fraction(1, 2**52))
