"""Words of the Plan page: choices, the plan in cell terms, the saw-tooth warning, Type M and
Type S, the peeking simulation's caption (the fixed-n test's false alarms beside the anytime-valid
test's) and the anytime-valid test's price in cases.

Pure Python (no Streamlit), so each wording decision is tested directly.
"""

from __future__ import annotations

from calculator.planning import NonInferiorityPlan, OptionalStopping, PowerPlan, exact_power
from calculator.planning.exaggeration import SignAndMagnitude
from calculator.planning.peeking import PRICE_HORIZON, AnytimePrice
from calculator.report.exaggeration import exaggeration_rate
from calculator.report.formatting import format_percent, format_points, format_ratio, points_of
from calculator.report.planning import cells_phrase

__all__ = [
    "CELLS",
    "FIND_N",
    "FIND_POWER",
    "DIFFERENT",
    "INTRO",
    "MARGIN_HELP",
    "NONINFERIORITY_ALPHA_HELP",
    "NONINFERIORITY_SPINNER",
    "NONINFERIORITY_TEST",
    "NOT_WORSE",
    "QUESTIONS",
    "PEEKING_INTRO",
    "PEEKING_TITLE",
    "RATES",
    "TEST_NAMES",
    "TITLE",
    "cell_terms",
    "detectable_difference",
    "noninferiority_cell_terms",
    "noninferiority_error",
    "noninferiority_metrics",
    "noninferiority_size_note",
    "PRICE_HEADING",
    "exaggeration_metrics",
    "peeking_caption",
    "price_metrics",
    "price_sentence",
    "plan_error",
    "saw_tooth_warning",
    "simulation_error",
]

TITLE = "Plan a comparison"
INTRO = (
    "Before running two systems on a set of cases, decide how many cases you need. Only the "
    "cases where the systems disagree carry evidence, so the answer depends on how often they "
    "disagree as much as on the difference you care about. Pick the smallest difference that "
    "would change your decision, then fix the number of cases before you look at any result."
)
#: The two ways to describe the effect, and the two goals.
RATES = "Pass rate, difference and disagreement"
CELLS = "Cell probabilities p10 and p01"
FIND_N = "Find the number of pairs"
FIND_POWER = "Power of a given number of pairs"
TEST_NAMES = {"exact": "Exact McNemar (doubling)", "chi2": "McNemar chi-square (uncorrected)"}
#: The two questions a plan can be made for.
DIFFERENT = "Is B different from A?"
NOT_WORSE = "Is B not worse than A by more than a margin?"
QUESTIONS = (DIFFERENT, NOT_WORSE)
MARGIN_HELP = (
    "The largest loss of pass rate you would still accept, in points, fixed before any "
    "result is seen. B is shown non-inferior when the data rule out a loss this large or larger."
)
NONINFERIORITY_ALPHA_HELP = "One-sided: the risk of calling B non-inferior when it is not."
NONINFERIORITY_TEST = (
    "Test: Tango's score test for paired proportions, one-sided, of H0: pA − pB ≥ margin. "
    "Power is exact, summed over every table the test could see."
)
NONINFERIORITY_SPINNER = "Summing the exact power (a few seconds at most)..."
PEEKING_TITLE = "Why peeking misleads"
PEEKING_INTRO = (
    "Suppose the two systems are in fact equally good, and you run the test after every few "
    "cases, stopping as soon as it is significant. Each look is another chance for noise to "
    "cross the line, so the share of such experiments that end with a 'significant' result "
    "climbs far above α as the looks add up. The simulation below runs experiments with no real "
    "difference and counts how many you would have stopped as a win, with the fixed-n test and, "
    "on the same experiments at the same looks, with the anytime-valid test, built to be looked "
    "at as often as you like."
)
PRICE_HEADING = "**The cure, and its price in cases**"


def plan_error(error: Exception) -> str:
    """Why the plan cannot be computed (the core's message names the input)."""
    return f"This plan cannot be computed: {error}"


def noninferiority_error(error: Exception) -> str:
    """Why the non-inferiority plan cannot be computed. The core speaks in shares and the page
    in points, so a message about the margin says how to read it, and a bad margin what the
    page's field allows."""
    text = f"This plan cannot be computed: {error}"
    if "`margin`" in str(error):
        return text + " On this page: a margin above 0 and below 50 points."
    if "margin" in str(error):
        text += " (Differences and margins here are shares: 0.01 is one point.)"
    return text


def noninferiority_cell_terms(result: NonInferiorityPlan) -> str:
    """The assumed effect of a non-inferiority plan in cell probabilities, with the margin.

    Examples
    --------
    >>> from calculator.planning import noninferiority_plan
    >>> plan = noninferiority_plan(p10=0.065, p01=0.035, margin=0.05, n=100)
    >>> print(noninferiority_cell_terms(plan))  # doctest: +NORMALIZE_WHITESPACE
    In cell terms: only A passes 6.5% of cases (p10 = 0.065), only B passes 3.5% (p01 = 0.035);
    the systems disagree on 10.0% of cases and A − B = +3.0 points, against a margin of 5 points.
    """
    return (
        f"In cell terms: {cells_phrase(result.p10, result.p01)}; the systems disagree on "
        f"{format_percent(result.p10 + result.p01)} "
        f"of cases and A − B = {format_points(result.difference)} points, against a margin of "
        f"{points_of(result.margin)}."
    )


def simulation_error(error: Exception) -> str:
    """Why the peeking simulation cannot run."""
    return f"The simulation cannot run: {error}"


def cell_terms(result: PowerPlan) -> str:
    """The plan's effect in cell probabilities, disagreement and difference (and the pass
    rates, when the effect was given by them).

    Examples
    --------
    >>> from calculator.planning import plan
    >>> print(cell_terms(plan(p10=0.065, p01=0.035)))  # doctest: +NORMALIZE_WHITESPACE
    In cell terms: only A passes 6.5% of cases (p10 = 0.065), only B passes 3.5% (p01 = 0.035);
    the systems disagree on 10.0% of cases and A − B = +3.0 points.
    """
    text = (
        f"In cell terms: {cells_phrase(result.p10, result.p01)}; the systems disagree on "
        f"{format_percent(result.disagreement)} of cases and A − B = "
        f"{format_points(result.difference)} points."
    )
    if result.pass_rate_a is not None:
        text += (
            f" Pass rates: A {format_percent(result.pass_rate_a)}, "
            f"B {format_percent(result.pass_rate_b)}."
        )
    return text


def noninferiority_size_note(result: NonInferiorityPlan) -> str:
    """The score test's exact size where B never beats A, at the plan's n.

    Examples
    --------
    >>> from calculator.planning import noninferiority_plan
    >>> print(noninferiority_size_note(noninferiority_plan(p10=0.1, p01=0.1, margin=0.05)))
    ... # doctest: +NORMALIZE_WHITESPACE
    Tango's score test is a large-sample test: where B never beats A and is worse by exactly
    the margin, it rejects 5.5% of the time at 501 cases, above the one-sided α = 0.05.
    """
    size = result.size_when_b_never_wins
    way = "above" if size > result.alpha else "within"
    cases = "1 case" if result.n == 1 else f"{result.n:,} cases"
    return (
        "Tango's score test is a large-sample test: where B never beats A and is worse by "
        f"exactly the margin, it rejects {format_percent(size)} of the time at {cases}, "
        f"{way} the one-sided α = {result.alpha:g}."
    )


def noninferiority_metrics(result: NonInferiorityPlan) -> list[tuple[str, str]]:
    """Label and value of each figure of a non-inferiority plan, in the order shown."""
    approximate = "none" if result.approximate_n is None else f"{result.approximate_n:,}"
    if result.solved_for == "n":
        return [
            ("Required paired cases", f"{result.n:,}"),
            ("Exact power at that n", format_percent(result.power)),
            ("Nam's approximation", approximate),
        ]
    return [
        ("Power", format_percent(result.power)),
        (f"Nam's n for {format_percent(result.target_power)} power", approximate),
    ]


def saw_tooth_warning(result: PowerPlan | NonInferiorityPlan) -> str | None:
    """When a size above the plan's n falls below the target again: from which size on power
    stays above it. None when power does not dip."""
    if not result.non_monotone:
        return None
    return (
        f"Power zig-zags: some sizes above {result.n:,} fall below "
        f"{format_percent(result.target_power)} again. From {result.stable_n:,} cases on, it "
        "stays above. Choose a size on the safe side if the exact count may shift."
    )


def detectable_difference(result: PowerPlan) -> tuple[str, str]:
    """Label and value of the smallest difference the plan's n detects with the target power.

    "none" when no difference the disagreement allows reaches it.
    """
    detectable = result.minimum_detectable_difference
    label = f"Smallest difference detected with {format_percent(result.target_power)} power"
    return label, "none" if detectable is None else f"{detectable * 100:.2f} points"


def peeking_caption(peeking: OptionalStopping, disagreement: float) -> str:
    """What the simulation shows: the share declared significant after every look, against the
    fair baseline, one test at the final number of cases (its size computed exactly)."""
    rates = peeking.false_positive_rate
    final_n = int(peeking.cases[-1])
    half = disagreement / 2
    size = exact_power(final_n, half, half, alpha=peeking.alpha, test=peeking.test)
    bound = "at or below α" if size <= peeking.alpha else "close to α"
    return (
        f"{peeking.experiments:,} experiments, disagreement on {format_percent(disagreement)} "
        f"of cases, α = {peeking.alpha:g}. After {int(peeking.looks[-1]):,} looks, "
        f"{format_percent(rates[-1])} of them were declared significant. One test of all "
        f"{final_n:,} cases, its size fixed in advance, would be significant in "
        f"{format_percent(size)} of such experiments ({bound}; computed exactly, not simulated)."
        f"{_anytime_rates(peeking)}"
    )


def _anytime_rates(peeking: OptionalStopping) -> str:
    """The anytime-valid test's false alarms on the same experiments, with their Monte Carlo
    error, and why they stay at α."""
    rate = float(peeking.anytime_false_positive_rate[-1])
    error = float(peeking.anytime_standard_error[-1])
    return (
        f" The anytime-valid test (the uniform mixture's e-value reaching 1/α), peeked at in the "
        f"same way, declared {format_percent(rate)} of the same experiments significant "
        f"(Monte Carlo standard error {format_percent(error)}): at most α however many looks "
        "are taken (Ville's inequality), for looks whose timing does not depend on cases not "
        "yet seen."
    )


def exaggeration_metrics(errors: SignAndMagnitude) -> list[tuple[str, str]]:
    """Power in the true direction, Type M and Type S at the plan's n, as three metrics."""
    type_m = "undefined" if errors.type_m is None else f"{format_ratio(errors.type_m)} x"
    type_s = "undefined" if errors.type_s is None else exaggeration_rate(errors.type_s)
    return [
        ("Power in the true direction", format_percent(errors.power_true_direction)),
        ("Type M if significant (exaggeration)", type_m),
        ("Type S if significant (wrong sign)", type_s),
    ]


def price_metrics(price: AnytimePrice) -> list[tuple[str, str]]:
    """The fixed-n test's n, the anytime-valid test's n for the same power, and the cases the
    anytime-valid test uses on average, as three metrics."""
    power = format_percent(price.power)
    reached = price.n_for_power is not None
    return [
        (f"Fixed-n test: cases for {power} power", f"{price.fixed_n:,}"),
        (
            f"Anytime-valid test: cases for {power} power",
            f"{price.n_for_power:,}" if reached else f"over {PRICE_HORIZON * price.fixed_n:,}",
        ),
        (
            "Anytime-valid test: cases used on average",
            f"{price.expected_cases:,.0f}" if price.expected_cases is not None else "n/a",
        ),
    ]


def price_sentence(price: AnytimePrice) -> str:
    """How the price was measured, with its Monte Carlo error.

    Examples
    --------
    >>> from calculator.planning.peeking import anytime_price
    >>> price = anytime_price(p10=0.15, p01=0.05, fixed_n=168, power=0.8, seed=1)
    >>> "1.56 times the fixed-n test's 168" in price_sentence(price)
    True
    """
    setting = (
        f"{price.experiments:,} simulated experiments with p10 = {price.p10:g} and "
        f"p01 = {price.p01:g} (random seed {price.seed}), the anytime-valid test looked at "
        f"after every {price.look_every:,} cases and stopped at its first rejection at "
        f"α = {price.alpha:g}"
    )
    if price.n_for_power is None:
        return (
            f"{setting}: it did not reach the fixed-n test's {format_percent(price.power)} power "
            f"within {PRICE_HORIZON * price.fixed_n:,} cases, {PRICE_HORIZON} times the fixed-n "
            f"test's {price.fixed_n:,}."
        )
    ratio = price.n_for_power / price.fixed_n
    return (
        f"{setting}. It reaches the fixed-n test's {format_percent(price.power)} power by "
        f"{price.n_for_power:,} cases ({ratio:.2f} times the fixed-n test's {price.fixed_n:,}; "
        f"Monte Carlo standard error of the power there {format_percent(price.stopped_error)}, "
        f"and the looks place it to within {price.look_every:,} cases). Allowed up to "
        f"{price.n_for_power:,} cases, it stops on average after {price.expected_cases:,.0f} "
        f"(standard error {price.expected_cases_error:,.1f}), since it stops at its first "
        "rejection; looking after every case could only stop it sooner. That is the "
        "price of a false-alarm rate kept at α under any peeking: more cases for the same "
        "power when the experiment runs to its end."
    )
