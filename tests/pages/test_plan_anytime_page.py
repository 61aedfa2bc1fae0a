"""The Plan page's Type M and Type S, and its cure for peeking (issue 34): the figures shown are
the library's (:func:`calculator.planning.plan`'s ``sign_magnitude``,
:func:`calculator.planning.simulate_optional_stopping`'s anytime-valid rate,
:func:`calculator.planning.peeking.anytime_price`), checked in tests/core.
"""

from __future__ import annotations

from apptest_pages import open_page
from streamlit.testing.v1 import AppTest

from calculator.planning import plan, simulate_optional_stopping
from calculator.planning.peeking import anytime_price
from calculator.report.exaggeration import exaggeration_sentence
from calculator.report.formatting import format_percent
from ui import plan_words

PAGE = "app_pages/plan.py"
# The page's defaults: pass rate of A 80%, difference 3 points, disagreement 10%.
DEFAULT = {"pass_rate_a": 0.8, "difference": 0.03, "disagreement": 0.1}


def metrics(at: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def test_the_plan_shows_power_in_the_true_direction_type_m_and_type_s():
    at = open_page(PAGE)
    errors = plan(**DEFAULT).sign_magnitude
    shown = metrics(at)
    for label, value in plan_words.exaggeration_metrics(errors):
        assert shown[label] == value
    assert shown["Power in the true direction"] == format_percent(errors.power_true_direction)
    assert exaggeration_sentence(errors) in [caption.value for caption in at.caption]


def test_peeking_shows_the_anytime_rate_beside_the_fixed_n_rate_and_the_price():
    at = open_page(PAGE)
    expected = plan(**DEFAULT)
    peeking = simulate_optional_stopping(
        look_every=20, looks=25, disagreement=0.1, alpha=0.05, experiments=10_000, seed=2024
    )
    caption = at.caption[-1].value
    assert f"{format_percent(peeking.false_positive_rate[-1])} of them" in caption
    anytime = format_percent(peeking.anytime_false_positive_rate[-1])
    assert f"declared {anytime} of the same experiments significant" in caption
    price = anytime_price(
        p10=expected.p10, p01=expected.p01, fixed_n=expected.n, power=expected.power, seed=2024
    )
    shown = metrics(at)
    for label, value in plan_words.price_metrics(price):
        assert shown[label] == value
    assert price.n_for_power is not None and price.n_for_power > expected.n
    assert plan_words.price_sentence(price) in [m.value for m in at.markdown]


def test_the_noninferiority_question_shows_no_price():
    at = open_page(PAGE)
    at.radio(key="plan_question").set_value(plan_words.NOT_WORSE).run()
    assert not at.exception
    assert not any(label.startswith("Anytime-valid test") for label in metrics(at))
