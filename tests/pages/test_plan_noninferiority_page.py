"""The Plan page's non-inferiority question (issue 12, Planning) and its bounds (issue 16, item 10).

Provenance: the page must show what calculator.planning.noninferiority_plan computes for the same
inputs; the core's exact power is checked against a brute-force sum over every table in
tests/core/test_planning_noninferiority.py. One plan is also pinned to the core's documented
example (noninferiority_plan's docstring: p10 = p01 = 0.1, margin 5 points, alpha 0.05, power 80%
-> exact n 501 with power 80.02%, Nam's (1997) approximation 507), so a page that called the core
with other arguments (a two-sided alpha, a margin in points) would fail here.
"""

from __future__ import annotations

import pytest
from apptest_pages import open_page as open_app_page
from streamlit.testing.v1 import AppTest

from calculator.planning import MAX_N, cells_from_rates, noninferiority_plan
from calculator.report.words import text
from ui import plan_words as words

PAGE = "app_pages/plan.py"


def open_noninferiority() -> AppTest:
    at = open_app_page(PAGE)
    at.radio(key="plan_question").set_value(words.NOT_WORSE).run()
    assert not at.exception
    return at


def use_cells(at: AppTest, p10: float, p01: float) -> None:
    at.radio(key="plan_mode").set_value(words.CELLS).run()
    at.number_input(key="plan_p10").set_value(p10).run()
    at.number_input(key="plan_p01").set_value(p01).run()


def metrics(at: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def test_default_plan_equals_the_cores_for_the_same_inputs() -> None:
    at = open_noninferiority()
    # Page defaults: A passes 80%, A - B = 3 points, disagreement 10%, margin 5 points.
    p10, p01 = cells_from_rates(pass_rate_a=0.8, difference=0.03, disagreement=0.1)
    expected = noninferiority_plan(p10=p10, p01=p01, margin=0.05)
    shown = metrics(at)
    assert shown == {
        "Required paired cases": f"{expected.n:,}",
        "Exact power at that n": f"{expected.power:.1%}",
        "Nam's approximation": f"{expected.approximate_n:,}",
    }
    assert not at.error
    # The McNemar test choice gives way to a statement of the one-sided score test.
    assert "plan_test" not in [box.key for box in at.selectbox]
    assert any("Tango's score test" in caption.value for caption in at.caption)
    # No power chart (the core gives no cheap curve); the peeking chart remains.
    assert len(at.get("vega_lite_chart")) == 1


def test_the_sentence_names_test_margin_level_cells_and_power() -> None:
    at = open_noninferiority()
    use_cells(at, 0.1, 0.1)
    assert metrics(at)["Required paired cases"] == "501"  # the core's documented example
    assert metrics(at)["Nam's approximation"] == "507"
    sentence = at.code[0].value
    assert sentence == text(noninferiority_plan(p10=0.1, p01=0.1, margin=0.05))
    for part in (
        "same 501 cases",
        "Tango's score test for paired proportions",
        "H0: pA − pB ≥ 5 points at",  # A - B, as every difference (issue 30)
        "one-sided α = 0.05",
        "only A passes 10.0% of cases and only B passes 10.0%",
        "exact power is 80.0%",
    ):
        assert part in sentence


def test_power_of_a_given_number_of_pairs() -> None:
    at = open_noninferiority()
    use_cells(at, 0.065, 0.035)
    at.radio(key="plan_goal").set_value(words.FIND_POWER).run()
    at.number_input(key="plan_n").set_value(1200).run()
    at.number_input(key="plan_alpha").set_value(0.025).run()
    expected = noninferiority_plan(p10=0.065, p01=0.035, margin=0.05, alpha=0.025, n=1200)
    assert not at.exception and not at.error
    assert metrics(at)["Power"] == f"{expected.power:.1%}"
    assert metrics(at)["Nam's n for 80.0% power"] == f"{expected.approximate_n:,}"
    assert "same 1,200 cases" in at.code[0].value and "α = 0.025" in at.code[0].value


@pytest.mark.parametrize("margin", [0.0, 50.0])
def test_a_margin_outside_the_open_range_is_explained(margin: float) -> None:
    at = open_noninferiority()
    at.number_input(key="plan_margin").set_value(margin).run()
    assert not at.exception
    assert len(at.error) == 1
    assert "`margin` must be a number strictly between 0 and 0.5" in at.error[0].value
    assert "above 0 and below 50 points" in at.error[0].value
    assert not at.metric and not at.code  # no figures for a plan that was refused
    assert len(at.get("vega_lite_chart")) == 1  # the peeking simulation still runs


def test_b_worse_than_a_by_the_margin_has_no_plan() -> None:
    at = open_noninferiority()
    at.number_input(key="plan_margin").set_value(2.0).run()  # A - B = 3 points by default
    assert not at.exception
    assert "no number of pairs shows non-inferiority" in at.error[0].value
    assert "0.01 is one point" in at.error[0].value  # the core's figures are shares


def test_a_plan_beyond_the_cores_search_bound_is_refused_with_the_bound() -> None:
    at = open_noninferiority()
    use_cells(at, 0.25, 0.25)
    at.number_input(key="plan_margin").set_value(0.05).run()
    assert not at.exception
    assert "needs more pairs than the" in at.error[0].value
    assert "a non-inferiority search considers" in at.error[0].value


def test_number_of_pairs_is_bounded_by_the_cores_max_n() -> None:
    at = open_noninferiority()
    at.radio(key="plan_goal").set_value(words.FIND_POWER).run()
    field = at.number_input(key="plan_n")
    assert field.max == MAX_N
    field.set_value(MAX_N).run()
    assert not at.exception and not at.error
    expected = noninferiority_plan(p10=0.065, p01=0.035, margin=0.05, n=MAX_N)
    assert metrics(at)["Power"] == f"{expected.power:.1%}"
    assert f"same {MAX_N:,} cases" in at.code[0].value


def test_switching_back_restores_the_two_sided_plan() -> None:
    at = open_noninferiority()
    at.radio(key="plan_question").set_value(words.DIFFERENT).run()
    assert "Connor's approximation" in metrics(at)
    assert "plan_test" in [box.key for box in at.selectbox]
    assert len(at.get("vega_lite_chart")) == 2


# --- words -------------------------------------------------------------------------------------


def test_only_a_margin_message_gets_the_pages_range_in_points() -> None:
    margin = words.noninferiority_error(ValueError("`margin` must be ..."))
    other = words.noninferiority_error(ValueError("`p10` + `p01` must be at most 1"))
    assert margin.endswith("below 50 points.") and "0.01 is one point" not in margin
    assert "point" not in other


def test_metrics_say_none_when_nams_approximation_has_no_n() -> None:
    result = noninferiority_plan(p10=0.1, p01=0.05, margin=0.05, n=100)  # B worse by the margin
    assert result.approximate_n is None
    assert words.noninferiority_metrics(result) == [
        ("Power", f"{result.power:.1%}"),
        ("Nam's n for 80.0% power", "none"),
    ]
