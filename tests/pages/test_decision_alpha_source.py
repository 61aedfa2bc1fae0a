"""The Decision section says where its α comes from (statistics 4, round 3's B2 residual).

Before: the interval followed α (99% at α = 0.01), but no visible text said the Decision's α is
the input labelled "α: level of each gate".
"""

from __future__ import annotations

from test_decision_statements import page_text, run_app

from ui.decision_words import alpha_source


def test_the_calculator_page_names_the_alpha_input_beside_the_decision():
    at = run_app({"alpha": "0.01"})
    assert not at.exception
    assert "The decision is taken at α = 0.01, the level set above as “α: level of each gate”." in (
        page_text(at)
    )


def test_the_per_case_page_says_its_fixed_level():
    assert alpha_source(0.05, in_url=False).startswith("The decision is taken at α = 0.05")
