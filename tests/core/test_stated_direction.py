"""The chooser takes a metric's direction as the harness states it (lm-eval's results file),
with `better` asked overriding it (hostile review 4, S4 residual)."""

from __future__ import annotations

import pytest

from calculator.chooser import SCORES, Ask, Shape, choose
from calculator.logs.directions import results_directions


@pytest.mark.parametrize(
    ("stated", "asked", "taken"),
    [
        ("lower", None, "lower"),
        ("higher", None, "higher"),
        (None, None, "higher"),
        ("lower", "higher", "higher"),
        ("higher", "lower", "lower"),
    ],
)
def test_the_stated_direction_is_taken_unless_better_is_asked(stated, asked, taken):
    shape = Shape(outcome=SCORES, score_names=("asr_metric",), better=stated)
    assert choose(shape, Ask(gate=True, better=asked)).ask.better == taken


def test_a_stated_direction_answers_the_gate_on_a_lower_sounding_name():
    # Without `better`, a gate on "wer" is refused as unstated; the results file states it.
    shape = Shape(outcome=SCORES, score_names=("wer",), better="lower")
    assert choose(shape, Ask(gate=True)).ask.better == "lower"


def test_only_booleans_of_the_results_file_are_read():
    document = {"higher_is_better": {"t": {"a": False, "b": True, "c": None}, "u": "x"}}
    assert results_directions(document) == (("t", "a", False), ("t", "b", True))
    assert results_directions({"results": {}}) == () and results_directions([]) == ()
