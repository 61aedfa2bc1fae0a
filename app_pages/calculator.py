"""The calculator page: a paired 2 x 2 table in, McNemar's tests, the difference and the gates out.

Every input is bound to the URL (keys as in :mod:`ui.params`), so a copied link reopens the same
state. Each section is a function in ``ui/widgets/``. The live part (everything an input can
change) is two fragments: :func:`live_table` (the headline and the live panel, which draws the
four counts' inputs itself), which a count key reruns alone, and :func:`following` (every
section below it), which reruns as soon as the panel has drawn the new counts, or when one of
its own inputs moves. To add a section, write it as a function in
``ui/widgets/<feature>.py`` and call it below: inside :func:`following` if it follows the
inputs, in the body if it does not.
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


#: What the live fragment drew with: the settings it read before their inputs were drawn, and
#: the counts.
_LIVE_SETTINGS = "_calculator_live_settings"
#: Set by the page's body just before it calls the live fragment: this is a run of the whole
#: page, whose sections below the panel are drawn by this same run.
_WHOLE_PAGE = "_calculator_whole_page_run"


def _analysis(
    counts: tuple[int, int, int, int],
    options: dict[str, object],
    gate_options: dict[str, object],
    wording: Wording,
) -> Analysis:
    return cached_analysis(
        *counts,
        **options,
        **gate_options,
        names=(wording.name_a, wording.name_b),
        framing=wording.framing,
    )


@st.fragment
def live_table() -> None:
    """The headline and the live panel (the four counts' inputs, the table, its cards and the
    p-value chart): all that a count key redraws first.

    A fragment of its own, so that a count key (the panel's own state) reruns these alone, a
    few elements; :func:`following` follows once the panel is drawn. The names, framing, test
    options and gates' options are drawn further down (:func:`following`) and read here from
    the session or the URL; a change of one this part shows reruns the whole page.
    """
    whole_page = bool(st.session_state.pop(_WHOLE_PAGE, False))
    present = teaching.presenting()
    wording, options, gate_options = inputs.settings_before_drawn()
    counts = state.current_counts()
    st.session_state[_LIVE_SETTINGS] = (wording, options, gate_options["alpha"], counts)
    state.counts_to_url(counts)
    headline = st.container()  # the headline result, above the inputs: a phone's first screen
    st.header("Inputs")
    try:
        analysis = _analysis(counts, options, gate_options, wording)
    except (TypeError, ValueError) as error:
        analysis = None
        results.show_error(error)
    if analysis is not None:
        with headline:
            results.headline(wording, analysis)
    # The counts, the table, its cards and the p-value chart: one element, drawn in the browser.
    # In a run of the whole page the sections below are drawn by this run: the panel does not
    # ask them to follow (a request made while this run is under way would carry the inputs as
    # the browser holds them, older than the ones a callback of this run has set).
    results.live_results(
        wording,
        counts,
        options,
        gate_options["alpha"],
        analysis,
        present=present,
        announce=not whole_page,
    )


@st.fragment
def following() -> None:
    """Everything below the live panel: the names, framing and test options, the odds ratio,
    the gates, the Decision, the teaching sections, the report and the share link.

    A fragment that reruns after :func:`live_table` has drawn other counts (the follower
    element raises it), or when one of its own inputs moves; one of those that the live table
    shows (a name, the framing, a test option, alpha) reruns the whole page instead.
    """
    present = teaching.presenting()
    wording, options, gate_options = inputs.settings_before_drawn()
    counts = state.current_counts()
    drawn = (wording, options, gate_options["alpha"], counts)
    if st.session_state.get(_LIVE_SETTINGS) != drawn:
        # The live table above shows them: draw it again as well. Counts differ only when a
        # count key reached this fragment's run and not the table's (keys close together).
        st.rerun(scope="app")
    state.counts_to_url(counts)  # again: this run began with the address bar of its asking
    results.follow_live_results(counts)
    settings_col, more_col = st.columns([2, 3], gap="large")
    with settings_col:
        wording, options = inputs.setting_inputs()

    st.divider()
    st.header("Many gates")
    if not present:
        st.markdown(words.GATES_INTRO)
    gate_cards = st.container()  # above the gate inputs, filled once the analysis is done
    gate_inputs_col, gate_chart_col = st.columns([2, 3], gap="large")
    with gate_inputs_col, st.container(key="gate_options"):  # hidden when presenting
        gate_options = inputs.gate_inputs()

    try:
        analysis = _analysis(counts, options, gate_options, wording)
    except (TypeError, ValueError):
        analysis = None  # the live table above says why
    if analysis is not None:
        with more_col:
            odds_ratio_section(wording, analysis)
            # Beside the fixed-n exact test, what peeking costs, for the Decision's direction.
            anytime_section(analysis, decision.asked_question(""))
            results.unconditional_test(counts)
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
state.init_counts()
st.session_state[_WHOLE_PAGE] = True
live_table()
following()
if not present:
    st.divider()
    square_section()  # the k x k table: its own fragment, computed only while its toggle is on
    results.explanations()
