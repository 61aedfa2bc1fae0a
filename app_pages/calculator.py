"""The calculator page: a paired 2 x 2 table in, McNemar's tests, the difference and the gates out.

Every input is bound to the URL (keys as in :mod:`ui.params`), so a copied link reopens the same
state. Each section is a function in ``ui/widgets/``; the live part (everything an input can
change) is one fragment, so that moving a slider reruns it alone. To add a section, write it as
a function in ``ui/widgets/<feature>.py`` and call it below: inside :func:`live_calculator` if
it follows the inputs, in the body if it does not.
"""

from __future__ import annotations

import streamlit as st

from calculator import Analysis, Decision
from ui import words
from ui.widgets import calculator_inputs as inputs
from ui.widgets import calculator_results as results
from ui.widgets import decision, state, teaching
from ui.widgets.anytime import anytime_section
from ui.widgets.cache import cached_analysis
from ui.widgets.odds_ratio import odds_ratio_section
from ui.widgets.square import square_section
from ui.words import Wording


def answered(
    analysis: Analysis,
    counts: tuple[int, int, int, int],
    options: dict[str, object],
    gate_options: dict[str, object],
    wording: Wording,
    asked: Decision | None,
) -> Analysis:
    """The analysis answering the Decision section's question (`asked`), computed as the page's
    own (:func:`~ui.widgets.cache.cached_analysis`), or `analysis` when none could be asked."""
    if asked is None:
        return analysis
    return cached_analysis(
        *counts,
        **options,
        **gate_options,
        names=(wording.name_a, wording.name_b),
        framing=wording.framing,
        question=asked.question,
        margin=asked.margin,
    )


@st.fragment
def live_calculator() -> None:
    """Inputs, results, charts, report and share link: everything a slider can change.

    A fragment, so that moving a slider reruns this part alone and leaves the title, the
    worked examples and the explanations (a third of the page's elements) as they are.
    """
    present = teaching.presenting()
    headline = st.container()  # the headline result, above the inputs: a phone's first screen
    inputs_col, results_col = st.columns([2, 3], gap="large")
    with inputs_col:
        wording, counts, options = inputs.table_inputs()

    st.divider()
    st.header("Many gates")
    if not present:
        st.markdown(words.GATES_INTRO)
    gate_cards = st.container()  # above the gate inputs, filled once the analysis is done
    gate_inputs_col, gate_chart_col = st.columns([2, 3], gap="large")
    with gate_inputs_col, st.container(key="gate_options"):  # hidden when presenting
        gate_options = inputs.gate_inputs()

    try:
        analysis = cached_analysis(
            *counts,
            **options,
            **gate_options,
            names=(wording.name_a, wording.name_b),
            framing=wording.framing,
        )
    except (TypeError, ValueError) as error:
        analysis = None
        with results_col:
            results.show_error(error)

    if analysis is not None:
        with headline:
            results.headline(wording, analysis)
    with results_col:
        # The table, its cards and the p-value chart: one element, redrawn in the browser.
        results.live_results(
            wording, counts, options, gate_options["alpha"], analysis, present=present
        )
        if analysis is not None:
            odds_ratio_section(wording, analysis)
            # Beside the fixed-n exact test, what peeking costs, for the Decision's direction.
            anytime_section(analysis, decision.asked_question(""))
            results.unconditional_test(counts)
    if analysis is not None:
        with gate_cards:
            results.gate_results(analysis)
    with gate_chart_col:
        results.gate_chart(gate_options, large=present)

    st.divider()
    asked = None  # the Decision section's answer, which the report and downloads carry
    if analysis is not None:
        asked = decision.decision_section(wording, analysis, present=present)
        st.divider()
    if analysis is not None:
        teaching.teaching_sections(wording, counts, options, gate_options["alpha"], asked)
        st.divider()
        if not present:
            # The report and the downloads answer the Decision section's question (the same
            # decide() call as its answer), the page's default question when none could be asked.
            results.report(answered(analysis, counts, options, gate_options, wording, asked))
    if not present:
        results.share_link()


url_warnings = state.check_url()
present = teaching.presenting()  # ?present=true: for projecting, no explanations, bigger type
teaching.presentation_style(present)
st.title(words.TITLE)
if not present:
    st.markdown(words.INTRO)
for warning in url_warnings:
    st.warning(words.escape_markdown(warning), icon=":material/warning:")
if not present:
    inputs.worked_examples()
live_calculator()
if not present:
    st.divider()
    square_section()  # the k x k table: its own fragment, computed only while its toggle is on
    results.explanations()
