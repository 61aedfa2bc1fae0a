"""Plan: how many paired cases a comparison needs, and why stopping at p < alpha misleads."""

import streamlit as st

from calculator.planning import PLAN_TESTS, plan, simulate_optional_stopping
from ui.plan_charts import optional_stopping_chart, power_chart

RATES = "Pass rate, difference and disagreement"
CELLS = "Cell probabilities p10 and p01"
FIND_N = "Find the number of pairs"
FIND_POWER = "Power of a given number of pairs"
TEST_NAMES = {"exact": "Exact McNemar (doubling)", "chi2": "McNemar chi-square (uncorrected)"}
EXPERIMENTS = 10_000

st.title("Plan a comparison")
st.write(
    "Before running two systems on a set of cases, decide how many cases you need. Only the "
    "cases where the systems disagree carry evidence, so the answer depends on how often they "
    "disagree as much as on the difference you care about. Pick the smallest difference that "
    "would change your decision, then fix the number of cases before you look at any result."
)

mode = st.radio("Describe the effect by", [RATES, CELLS], key="plan_mode", horizontal=True)
inputs = st.columns(3)
if mode == RATES:
    pass_rate_a = inputs[0].number_input(
        "Expected pass rate of A (%)",
        min_value=0.0,
        max_value=100.0,
        value=80.0,
        step=1.0,
        key="plan_pass_rate_a",
    )
    difference = inputs[1].number_input(
        "Smallest difference A - B worth detecting (points)",
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
    effect = {
        "pass_rate_a": pass_rate_a / 100,
        "difference": difference / 100,
        "disagreement": disagreement / 100,
    }
else:
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
    effect = {"p10": p10, "p01": p01}

settings = st.columns(3)
alpha = settings[0].number_input(
    "Significance level α",
    min_value=0.0001,
    max_value=0.5,
    value=0.05,
    step=0.01,
    format="%.4f",
    key="plan_alpha",
)
test = settings[1].selectbox(
    "Test", PLAN_TESTS, format_func=TEST_NAMES.get, key="plan_test", help="Power is two-sided."
)
goal = settings[2].radio("Goal", [FIND_N, FIND_POWER], key="plan_goal")
targets = st.columns(3)
power = targets[0].number_input(
    "Target power",
    min_value=0.01,
    max_value=0.99,
    value=0.80,
    step=0.05,
    key="plan_power",
)
n = None
if goal == FIND_POWER:
    n = targets[1].number_input(
        "Number of paired cases", min_value=1, max_value=10_000_000, value=500, key="plan_n"
    )

try:
    result = plan(**effect, alpha=alpha, power=power, n=n, test=test)
except (ValueError, TypeError) as error:
    result = None
    st.error(f"This plan cannot be computed: {error}")

if result is not None:
    st.caption(
        f"In cell terms: only A passes p10 = {result.p10:.4g}, only B passes p01 = "
        f"{result.p01:.4g}; the systems disagree on {result.disagreement:.2%} of cases and the "
        f"pass rates differ by {result.difference * 100:+.2f} points."
        + (
            f" Pass rates: A {result.pass_rate_a:.1%}, B {result.pass_rate_b:.1%}."
            if result.pass_rate_a is not None
            else ""
        )
    )
    metrics = st.columns(3)
    if result.solved_for == "n":
        metrics[0].metric("Required paired cases", f"{result.n:,}")
        metrics[1].metric("Exact power at that n", f"{result.power:.1%}")
        metrics[2].metric("Connor's approximation", f"{result.connor_n:,}")
        if result.non_monotone:
            st.warning(
                f"Power zig-zags: some sizes above {result.n:,} fall below "
                f"{result.target_power:.0%} again. From {result.stable_n:,} cases on, it stays "
                "above. Choose a size on the safe side if the exact count may shift."
            )
    else:
        metrics[0].metric("Power", f"{result.power:.1%}")
        detectable = result.minimum_detectable_difference
        metrics[1].metric(
            f"Smallest difference detected with {result.target_power:.0%} power",
            "none" if detectable is None else f"{detectable * 100:.2f} points",
            help="At the same share of disagreement.",
        )
        if result.connor_n is not None:
            metrics[2].metric("Connor's n for the target power", f"{result.connor_n:,}")
    st.altair_chart(power_chart(result.power_curve()), key="plan_power_chart")
    st.write("A sentence to paste into your plan:")
    st.code(result.sentence(), language=None, wrap_lines=True)

st.header("Why peeking misleads")
st.write(
    "Suppose the two systems are in fact equally good, and you run the test after every few "
    "cases, stopping as soon as it is significant. Each look is another chance for noise to "
    "cross the line, so the share of such experiments that end with a 'significant' result "
    "climbs far above α as the looks add up. The simulation below runs experiments with no real "
    "difference and counts how many you would have stopped as a win."
)
peek = st.columns(3)
look_every = peek[0].number_input(
    "Cases between looks", min_value=1, max_value=10_000, value=20, key="plan_look_every"
)
looks = peek[1].slider("Largest number of looks", 1, 100, 25, key="plan_looks")
seed = peek[2].number_input(
    "Random seed", min_value=0, max_value=2**32 - 1, value=2024, key="plan_seed"
)
peek_disagreement = 0.2 if result is None else result.disagreement
try:
    peeking = simulate_optional_stopping(
        look_every=look_every,
        looks=looks,
        disagreement=peek_disagreement,
        alpha=alpha,
        experiments=EXPERIMENTS,
        seed=seed,
        test=test,
    )
except (ValueError, TypeError) as error:
    st.error(f"The simulation cannot run: {error}")
else:
    st.altair_chart(optional_stopping_chart(peeking), key="plan_peeking_chart")
    st.caption(
        f"{EXPERIMENTS:,} experiments, disagreement on {peek_disagreement:.0%} of cases, "
        f"α = {alpha:g}. After {looks:,} looks, {peeking.false_positive_rate[-1]:.1%} of them "
        "were declared significant. One test at a size fixed in advance keeps that share "
        f"near α (with one look: {peeking.false_positive_rate[0]:.1%})."
    )
