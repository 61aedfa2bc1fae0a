"""The calculator page's anytime-valid line (issue 34): beside the fixed-n exact test, its
figures are the library's (:func:`calculator.anytime.anytime_of`, the command line's
``table --json`` "anytime"), and its sentences name the page's systems in the page's framing.
The values themselves are checked against their sources in tests/core/test_anytime.py.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from calculator import analyze
from calculator.anytime import anytime_of
from calculator.report.words import text
from ui.anytime_words import ANYTIME_LABEL, anytime_line

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def page(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    return at.run()


def unescaped(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def test_the_line_and_its_caption_are_the_librarys_in_the_pages_names():
    at = page(a="50", b="35", c="15", d="0", name_a="old", name_b="new")
    assert not at.exception
    expected = anytime_of(analyze(50, 35, 15, 0, names=("old", "new")))
    lines = [unescaped(m.value) for m in at.markdown]
    assert f"**{ANYTIME_LABEL}:** {anytime_line(expected)}" in lines
    assert "0.102 (e-value 9.81)" in anytime_line(expected)
    captions = [unescaped(c.value) for c in at.caption]
    assert text(expected) in captions
    sentence = next(c for c in captions if c.startswith("Anytime-valid test"))
    assert 'against "old and new pass equally often"' in sentence
    assert "where only old passes" in sentence and "difference old − new" in sentence
    assert " A " not in sentence and " B " not in sentence


def test_the_classifier_framing_says_correct_not_passes():
    at = page(a="50", b="35", c="15", d="0", name_a="m1", name_b="m2", framing="correct")
    assert not at.exception
    sentence = next(
        unescaped(c.value) for c in at.caption if unescaped(c.value).startswith("Anytime-valid")
    )
    assert 'against "m1 and m2 are correct equally often"' in sentence
    assert "where only m1 is correct" in sentence and "accuracy difference m1 − m2" in sentence
    assert "pass" not in sentence


def test_the_anytime_line_answers_the_decisions_direction_from_the_url():
    # The line sits above the Decision section: it read the two-sided default before the
    # section's input was drawn, so ?question=worse gave 0.222 where `table --alternative less`
    # gives 0.112 (the review of this change, 3).
    from streamlit.testing.v1 import AppTest

    from calculator import analyze
    from calculator.anytime import anytime_of

    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"a": "50", "b": "12", "c": "3", "d": "35", "question": "worse"})
    at.run()
    assert not at.exception
    expected = anytime_of(analyze(50, 12, 3, 35, alternative="less"))
    assert expected.test.alternative == "less"
    (line,) = [m.value for m in at.markdown if "Anytime-valid p" in m.value]
    assert f"{expected.test.pvalue:.3f}".replace(".", "\\.") in line
