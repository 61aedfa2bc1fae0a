"""Words of the Plan page: choices, the plan in cell terms, the saw-tooth warning, the peeking
simulation's caption.

Pure Python (no Streamlit), so each wording decision is tested directly.
"""

from __future__ import annotations

from calculator.planning import NonInferiorityPlan, OptionalStopping, PowerPlan, exact_power
from calculator.report.formatting import format_percent, format_points, points_of
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
    "peeking_caption",
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
    "Test: Tango's score test for paired proportions, one-sided, of H0: pA - pB >= margin. "
    "Power is exact, summed over every table the test could see."
)
NONINFERIORITY_SPINNER = "Summing the exact power (a few seconds at most)..."
PEEKING_TITLE = "Why peeking misleads"
PEEKING_INTRO = (
    "Suppose the two systems are in fact equally good, and you run the test after every few "
    "cases, stopping as soon as it is significant. Each look is another chance for noise to "
    "cross the line, so the share of such experiments that end with a 'significant' result "
    "climbs far above α as the looks add up. The simulation below runs experiments with no real "
    "difference and counts how many you would have stopped as a win."
)


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
    the systems disagree on 10.0% of cases and A - B = +3.0 points, against a margin of 5 points.
    """
    return (
        f"In cell terms: {cells_phrase(result.p10, result.p01)}; the systems disagree on "
        f"{format_percent(result.p10 + result.p01)} "
        f"of cases and A - B = {format_points(result.difference)} points, against a margin of "
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
    the systems disagree on 10.0% of cases and A - B = +3.0 points.
    """
    text = (
        f"In cell terms: {cells_phrase(result.p10, result.p01)}; the systems disagree on "
        f"{format_percent(result.disagreement)} of cases and A - B = "
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
    )
