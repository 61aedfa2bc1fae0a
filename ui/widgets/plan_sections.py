"""Sections of the Plan page, each a function the page body calls in reading order.

The effect (as rates or as cells), the test settings and goal, the plan with its chart and
sentence, and the optional-stopping simulation. Words come from :mod:`ui.plan_words`, charts
from :mod:`ui.plan_charts`.
"""

from __future__ import annotations

import streamlit as st

from calculator.planning import (
    MAX_N,
    PLAN_TESTS,
    NonInferiorityPlan,
    PowerCurve,
    PowerPlan,
    cells_from_rates,
    noninferiority_plan,
    plan,
    simulate_optional_stopping,
)
from calculator.planning.peeking import AnytimePrice, anytime_price
from calculator.report.exaggeration import exaggeration_sentence
from calculator.report.formatting import format_percent
from calculator.report.words import text
from ui import plan_words as words
from ui.plan_charts import optional_stopping_chart, power_chart

__all__ = [
    "EXPERIMENTS",
    "effect_inputs",
    "margin_input",
    "noninferiority_result",
    "peeking",
    "plan_result",
    "plan_settings",
    "question",
]

#: Simulated experiments per peeking chart.
EXPERIMENTS = 10_000


def question() -> str:
    """The question the plan is for: a difference either way, or B no worse by a margin."""
    return st.radio("The question", words.QUESTIONS, key="plan_question", horizontal=True)


def margin_input() -> float:
    """The non-inferiority margin as a fraction (the page asks in points)."""
    margin = st.number_input(
        "Margin: largest acceptable loss of B against A (points)",
        min_value=0.0,
        max_value=50.0,
        value=5.0,
        step=0.5,
        key="plan_margin",
        help=words.MARGIN_HELP,
    )
    return margin / 100


def _rates(inputs: list, difference_label: str) -> dict[str, float]:
    pass_rate_a = inputs[0].number_input(
        "Expected pass rate of A (%)",
        min_value=0.0,
        max_value=100.0,
        value=80.0,
        step=1.0,
        key="plan_pass_rate_a",
    )
    difference = inputs[1].number_input(
        difference_label,
        min_value=-100.0,
        max_value=100.0,
        value=3.0,
        step=0.5,
        key="plan_difference",
        help="Negative when B is the one expected to be better.",
    )
    disagreement = inputs[2].number_input(
        "Cases where the systems disagree (%)",
        min_value=0.0,
        max_value=100.0,
        value=10.0,
        step=1.0,
        key="plan_disagreement",
        help="The share of cases exactly one system passes; a past comparison of similar "
        "systems is the best guide.",
    )
    return {
        "pass_rate_a": pass_rate_a / 100,
        "difference": difference / 100,
        "disagreement": disagreement / 100,
    }


def _cells(inputs: list) -> dict[str, float]:
    p10 = inputs[0].number_input(
        "p10: share of cases only A passes",
        min_value=0.0,
        max_value=1.0,
        value=0.065,
        step=0.005,
        format="%.4f",
        key="plan_p10",
    )
    p01 = inputs[1].number_input(
        "p01: share of cases only B passes",
        min_value=0.0,
        max_value=1.0,
        value=0.035,
        step=0.005,
        format="%.4f",
        key="plan_p01",
    )
    return {"p10": p10, "p01": p01}


def effect_inputs(chosen: str = words.DIFFERENT) -> dict[str, float]:
    """The effect to detect (or, for non-inferiority, the one expected): pass rate, difference
    and disagreement, or the two cells."""
    mode = st.radio(
        "Describe the effect by", [words.RATES, words.CELLS], key="plan_mode", horizontal=True
    )
    inputs = st.columns(3)
    if mode == words.CELLS:
        return _cells(inputs)
    label = (
        "Smallest difference A - B worth detecting (points)"
        if chosen == words.DIFFERENT
        else "Expected difference A - B (points)"
    )
    return _rates(inputs, label)


def plan_settings(chosen: str = words.DIFFERENT) -> dict[str, object]:
    """Significance level, test, target power and, to find the power, the number of pairs.

    For non-inferiority the level is one-sided and the test is Tango's score test (said in a
    caption); the McNemar test choice still sets the peeking simulation's test.
    """
    settings = st.columns(3)
    one_sided = chosen == words.NOT_WORSE
    alpha = settings[0].number_input(
        "Significance level α",
        min_value=0.0001,
        max_value=0.5,
        value=0.05,
        step=0.01,
        format="%.4f",
        key="plan_alpha",
        help=words.NONINFERIORITY_ALPHA_HELP if one_sided else None,
    )
    if one_sided:
        test = PLAN_TESTS[0]
        settings[1].caption(words.NONINFERIORITY_TEST)
    else:
        test = settings[1].selectbox(
            "Test",
            PLAN_TESTS,
            format_func=words.TEST_NAMES.get,
            key="plan_test",
            help="Power is two-sided.",
        )
    goal = settings[2].radio("Goal", [words.FIND_N, words.FIND_POWER], key="plan_goal")
    targets = st.columns(3)
    power = targets[0].number_input(
        "Target power", min_value=0.01, max_value=0.99, value=0.80, step=0.05, key="plan_power"
    )
    n = None
    if goal == words.FIND_POWER:
        n = targets[1].number_input(
            "Number of paired cases", min_value=1, max_value=MAX_N, value=500, key="plan_n"
        )
    return {"alpha": alpha, "power": power, "n": n, "test": test}


def _metrics(result: PowerPlan) -> None:
    metrics = st.columns(3)
    if result.solved_for == "n":
        metrics[0].metric("Required paired cases", f"{result.n:,}")
        metrics[1].metric("Exact power at that n", format_percent(result.power))
        metrics[2].metric("Connor's approximation", f"{result.connor_n:,}")
        warning = words.saw_tooth_warning(result)
        if warning is not None:
            st.warning(warning)
        return
    metrics[0].metric("Power", format_percent(result.power))
    label, value = words.detectable_difference(result)
    metrics[1].metric(label, value, help="At the same share of disagreement.")
    if result.connor_n is not None:
        metrics[2].metric("Connor's n for the target power", f"{result.connor_n:,}")


def _exaggeration(result: PowerPlan) -> None:
    """Power in the true direction, Type M and Type S at the plan's n, and their sentence."""
    errors = result.sign_magnitude
    if errors is None:
        return
    for column, (label, value) in zip(
        st.columns(3), words.exaggeration_metrics(errors), strict=True
    ):
        column.metric(label, value)
    st.caption(exaggeration_sentence(errors))


@st.cache_data(max_entries=64, show_spinner=False)
def _plan_and_curve(
    effect: dict[str, float], settings: dict[str, object]
) -> tuple[PowerPlan, PowerCurve]:
    # Near MAX_N the plan and its curve take several seconds (the curve about 5 s at n = 10^6):
    # a rerun for the peeking section below should not pay that again.
    result = plan(**effect, **settings)
    return result, result.power_curve()


def plan_result(effect: dict[str, float], settings: dict[str, object]) -> PowerPlan | None:
    """The plan in cell terms, its figures, the power chart and the sentence to paste; None
    (with the reason shown) when the plan cannot be computed."""
    try:
        result, curve = _plan_and_curve(effect, settings)
    except (ValueError, TypeError) as error:
        st.error(words.plan_error(error))
        return None
    st.caption(words.cell_terms(result))
    _metrics(result)
    _exaggeration(result)
    st.altair_chart(power_chart(curve), key="plan_power_chart")
    st.write("A sentence to paste into your plan:")
    st.code(text(result), language=None, wrap_lines=True)
    return result


@st.cache_data(max_entries=64, show_spinner=False)
def _noninferiority(
    effect: dict[str, float], margin: float, alpha: float, power: float, n: int | None
) -> NonInferiorityPlan:
    # A search costs up to a few seconds near the core's bounds; a rerun for another section
    # (the peeking simulation) should not pay it again.
    if "p10" in effect:
        p10, p01 = effect["p10"], effect["p01"]
    else:
        p10, p01 = cells_from_rates(**effect)
    return noninferiority_plan(p10=p10, p01=p01, margin=margin, alpha=alpha, power=power, n=n)


def noninferiority_result(
    effect: dict[str, float], margin: float, settings: dict[str, object]
) -> NonInferiorityPlan | None:
    """The non-inferiority plan's figures and the sentence a protocol can quote; None (with the
    reason shown) when it cannot be computed. No power chart: the core gives no cheap curve."""
    try:
        with st.spinner(words.NONINFERIORITY_SPINNER):
            result = _noninferiority(
                effect, margin, settings["alpha"], settings["power"], settings["n"]
            )
    except (ValueError, TypeError) as error:
        st.error(words.noninferiority_error(error))
        return None
    st.caption(words.noninferiority_cell_terms(result))
    for column, (label, value) in zip(
        st.columns(3), words.noninferiority_metrics(result), strict=False
    ):
        column.metric(label, value)
    saw_tooth = words.saw_tooth_warning(result) if result.solved_for == "n" else None
    if saw_tooth:
        st.warning(saw_tooth)
    st.caption(words.noninferiority_size_note(result))
    st.write("A sentence to quote in your protocol:")
    st.code(text(result), language=None, wrap_lines=True)
    return result


def peeking(
    disagreement: float, *, alpha: float, test: str, planned: PowerPlan | None = None
) -> None:
    """The optional-stopping simulation at this disagreement, level and test, and its chart,
    the fixed-n test's false alarms beside the anytime-valid test's; with a plan for a
    difference (`planned`), the anytime-valid test's price in cases for the plan's power."""
    st.header(words.PEEKING_TITLE)
    st.write(words.PEEKING_INTRO)
    peek = st.columns(3)
    look_every = peek[0].number_input(
        "Cases between looks", min_value=1, max_value=10_000, value=20, key="plan_look_every"
    )
    looks = peek[1].slider("Largest number of looks", 1, 100, 25, key="plan_looks")
    seed = peek[2].number_input(
        "Random-number stream", min_value=0, max_value=2**32 - 1, value=2024, key="plan_seed"
    )
    try:
        result = simulate_optional_stopping(
            look_every=look_every,
            looks=looks,
            disagreement=disagreement,
            alpha=alpha,
            experiments=EXPERIMENTS,
            seed=seed,
            test=test,
        )
    except (ValueError, TypeError) as error:
        st.error(words.simulation_error(error))
        return
    st.altair_chart(optional_stopping_chart(result), key="plan_peeking_chart")
    st.caption(words.peeking_caption(result, disagreement))
    if planned is not None and planned.p10 != planned.p01:
        _price(planned, seed)


@st.cache_data(max_entries=32, show_spinner=False)
def _anytime_price(
    p10: float, p01: float, n: int, power: float, alpha: float, seed: int
) -> AnytimePrice:
    # At most 2,000 experiments x 500 looks: well under a second, paid once per plan and seed.
    return anytime_price(p10=p10, p01=p01, fixed_n=n, power=power, alpha=alpha, seed=seed)


def _price(planned: PowerPlan, seed: int) -> None:
    """How many cases the anytime-valid test needs for the plan's power, and uses on average."""
    price = _anytime_price(
        planned.p10, planned.p01, planned.n, planned.power, planned.alpha, int(seed)
    )
    st.markdown(words.PRICE_HEADING)
    for column, (label, value) in zip(st.columns(3), words.price_metrics(price), strict=True):
        column.metric(label, value)
    st.markdown(words.price_sentence(price))
