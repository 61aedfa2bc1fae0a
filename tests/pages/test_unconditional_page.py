"""The calculator page's exact unconditional test: computed only when asked, worded as the
command line's JSON words it, and refused by name beyond its bound.

Reference: R package contingencytables 3.0.0, tests/testthat/test-ch8.R,
McNemar_exact_unconditional_test_paired_2x2(floor(cavo_2012 / 10)) gives P = 0.542071 for the
table (5, 0, 1, 8) on its grid (0.542072 with the library's refined maximum; both print 0.542).
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from calculator.report.square import unconditional_sentence
from calculator.unconditional import MAX_UNCONDITIONAL_N, mcnemar_unconditional

APP = str(Path(__file__).resolve().parents[2] / "app.py")
NAME = "McNemar's exact unconditional test"


def page(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    return at.run()


def shown(at: AppTest) -> str:
    return "\n".join(re.sub(r"\\(.)", r"\1", m.value) for m in at.markdown)


def test_the_test_is_computed_only_when_its_toggle_is_on():
    at = page(a="5", b="0", c="1", d="8")
    assert at.toggle(key="unconditional").value is False
    assert NAME not in shown(at)
    at.toggle(key="unconditional").set_value(True).run()
    assert unconditional_sentence(mcnemar_unconditional(5, 0, 1, 8)) in shown(at)
    assert "p = 0.542" in shown(at)


def test_a_table_beyond_the_bound_is_refused_by_name():
    at = page(a=str(MAX_UNCONDITIONAL_N), b="1", c="0", d="0")
    at.toggle(key="unconditional").set_value(True).run()
    assert f"`n` must be at most {MAX_UNCONDITIONAL_N:,} cases" in shown(at)
