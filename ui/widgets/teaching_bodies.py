"""The bodies of the calculator page's teaching sections (:mod:`ui.widgets.teaching` draws their
toggles): the null distribution of the split, the tests' real error rates, what pairing buys,
and questions for a class. Imported only once a section is opened.
"""

from __future__ import annotations

import streamlit as st

from calculator.report.formatting import format_p_equals, format_percent
from calculator.teaching import (
    MAX_N,
    MarginSweep,
    NullDistribution,
    OperatingCharacteristics,
    margin_sweep,
    null_distribution,
    operating_characteristics,
)
from ui import teaching_charts as charts
from ui import teaching_words as words
from ui.widgets.teaching import BIND
from ui.words import Wording

__all__ = ["AGREEMENT_KEY", "null_section", "operating_section", "pairing_section", "questions"]

#: URL key of the agreement slider (the both-pass count of the table it points at).
AGREEMENT_KEY = "agree"
# Tables in the pairing sweep: every feasible table up to this many, else evenly spaced ones.
_SWEEP_POINTS = 1_001


@st.cache_data(max_entries=64, show_spinner=False)
def _null(m: int, b: int, convention: str, alternative: str, alpha: float) -> NullDistribution:
    return null_distribution(m, b, convention=convention, alternative=alternative, alpha=alpha)


@st.cache_data(max_entries=32, show_spinner=False)
def _operating(
    a: int, b: int, c: int, d: int, alpha: float, level: float
) -> OperatingCharacteristics:
    n = a + b + c + d
    return operating_characteristics(n, b / n, c / n, p11=a / n, alpha=alpha, level=level)


@st.cache_data(max_entries=64, show_spinner=False)
def _sweep(a: int, b: int, c: int, d: int, convention: str) -> MarginSweep:
    return margin_sweep(a, b, c, d, _SWEEP_POINTS, convention=convention)


def _explain(text: str, large: bool) -> None:
    if not large:
        st.caption(text)


def null_section(
    wording: Wording,
    counts: tuple[int, int, int, int],
    options: dict[str, object],
    alpha: float,
    large: bool,
) -> None:
    """The null distribution of the split b of m = b + c under no difference, the observed
    split on it, its p-value and the test's real size at this m."""
    _, b, c, _ = counts
    null = _null(
        b + c,
        b,
        str(options.get("convention", "doubling")),
        str(options.get("alternative", "two-sided")),
        alpha,
    )
    _explain(words.NULL_EXPLAIN, large)
    columns = st.columns(3)
    columns[0].metric(
        "Observed split",
        f"{b:,} of {b + c:,}",
        help=f"b, the cases {words.cell_phrases(wording.escaped())[1]}, of the m that differ",
    )
    columns[1].metric(
        words.null_test_label(null.convention, null.alternative),
        format_p_equals(null.pvalue, null.log10_pvalue, alpha=alpha),
    )
    size = words.percent_beside(null.size, alpha) if null.size else "0"  # never on the mark
    columns[2].metric("Actual size at this m", size)
    for sentence in words.null_summary(null):
        st.markdown(sentence)
    if null.discordant > 0:
        with st.container(key="teaching_null_chart"):
            axis = words.null_axis_title(wording, null.discordant)
            st.altair_chart(charts.null_distribution_chart(null, axis_title=axis, large=large))


def operating_section(
    counts: tuple[int, int, int, int], options: dict[str, object], alpha: float, large: bool
) -> None:
    """The tests' real size and power and the intervals' coverage at this n and these rates,
    computed exactly (or a note when n is too large to enumerate)."""
    n = sum(counts)
    if n > MAX_N:
        st.markdown(words.oc_too_large(n, MAX_N))
        return
    level = float(options.get("level", 0.95))
    oc = _operating(*counts, alpha, level)
    _explain(words.OC_EXPLAIN, large)
    tests_col, intervals_col = st.columns(2)
    with tests_col:
        st.table(
            {
                "Test": [t.name for t in oc.tests],
                f"Size (α = {alpha:g})": [words.percent_beside(t.size, alpha) for t in oc.tests],
                "Power": [format_percent(t.power) for t in oc.tests],
            }
        )
    with intervals_col:
        st.table(
            {
                "Interval": [i.name for i in oc.intervals],
                f"Coverage ({format_percent(level)})": [
                    "not computed"
                    if i.coverage is None
                    else words.percent_beside(i.coverage, level)
                    for i in oc.intervals
                ],
                "Mean width": [
                    "—" if i.mean_width is None else f"{i.mean_width:.3f}" for i in oc.intervals
                ],
            }
        )
    for interval in oc.intervals:
        if interval.note and not large:
            st.caption(f"{interval.name}: {interval.note}")
    with st.container(key="teaching_coverage_chart"):
        st.altair_chart(charts.coverage_chart(oc, large=large))


def pairing_section(
    wording: Wording,
    counts: tuple[int, int, int, int],
    options: dict[str, object],
    alpha: float,
    large: bool,
) -> None:
    """What pairing buys: the p-value across the tables that keep both pass rates, with a
    slider over their both-pass count."""
    a, b, c, d = counts
    n = a + b + c + d
    if n == 0:
        return
    convention = str(options.get("convention", "doubling"))
    sweep = _sweep(a, b, c, d, convention)
    _explain(words.PAIR_EXPLAIN, large)
    lowest, highest = sweep.a[0], sweep.a[-1]
    label = words.cell_phrases(wording.escaped())[0].capitalize()
    chosen = _agreement_slider(label, lowest, highest, a)
    pass_a, pass_b = a + b, a + c
    chosen_table = (chosen, pass_a - chosen, pass_b - chosen, n - pass_a - pass_b + chosen)
    here = _sweep(*chosen_table, convention)
    st.markdown(words.pairing_selected(here, here.entered_index, alpha, wording.escaped()))
    nearest = min(range(len(sweep.a)), key=lambda i: abs(sweep.a[i] - chosen))
    rate_a, rate_b = pass_a / n, pass_b / n
    independent = rate_a * rate_b + (1 - rate_a) * (1 - rate_b)
    with st.container(key="teaching_pairing_chart"):
        st.altair_chart(
            charts.pairing_chart(
                sweep,
                nearest,
                alpha=alpha,
                independent_agreement=independent,
                axis_title=words.agreement_axis_title(wording),
                large=large,
            )
        )


def _agreement_slider(label: str, lowest: int, highest: int, entered: int) -> int:
    """A slider over the both-pass count of the tables that keep both pass rates.

    A value left from another table (in the session or the URL) outside today's range is
    replaced by the entered table's before the slider is drawn.
    """
    if lowest == highest:
        st.markdown(words.ONE_TABLE)  # a fact about this table, shown when presenting too
        return lowest
    raw = st.session_state.get(AGREEMENT_KEY, st.query_params.get(AGREEMENT_KEY))
    try:
        inside = raw is not None and lowest <= int(raw) <= highest
    except (TypeError, ValueError):
        inside = False
    if not inside:
        if AGREEMENT_KEY in st.query_params:
            del st.query_params[AGREEMENT_KEY]
        st.session_state[AGREEMENT_KEY] = entered
    return st.slider(
        f"{label} (more agreement to the right; both systems' rates stay as entered)",
        min_value=lowest,
        max_value=highest,
        step=1,
        key=AGREEMENT_KEY,
        bind=BIND,
    )


def questions() -> None:
    """Questions for a class, each answer behind its own toggle."""
    for question in words.QUESTIONS:
        st.markdown(f"**{question.question}**")
        if st.toggle("Show the answer", key=f"answer_{question.key}"):
            st.markdown(question.answer)
