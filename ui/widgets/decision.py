"""The "Decision" section: the release question, its margin, the answer, its interval against the
margin, and P(B better) beside the p-value (words in :mod:`ui.decision_words`, chart in
:mod:`ui.decision_chart`, the answer from :func:`calculator.decide`).

On the calculator page the question and the margin are bound to the URL (keys ``question`` and
``margin``, the margin in percentage points); on the per-case page they are not, and the section
also says what the release gate (``cases --fail-if-worse``) would do.
"""

from __future__ import annotations

import streamlit as st

from calculator import Analysis, Decision
from calculator.clustered import Clusters
from calculator.release import gate_fails, gate_question
from calculator.report.decision import posterior_left_out
from calculator.report.words import text
from calculator.workflow import Question
from ui.components.live_panel import page_chart
from ui.decision_words import (
    DECISION_DEFAULTS,
    DECISION_EXPLANATION,
    DECISION_INTRO,
    MARGIN_HELP,
    MARGIN_RANGE,
    PAGE_QUESTIONS,
    QUESTION_HELP,
    alpha_source,
    asked,
    gate_sentence,
    margin_label,
    probability_label,
    probability_text,
    pvalue_label,
    pvalue_text,
    question_label,
    takes_margin,
    two_questions,
)
from ui.live_panel import chart_payload
from ui.params import parse_param
from ui.widgets.cache import cached_decision, decision_spec
from ui.words import Wording, escape_markdown

__all__ = ["asked_question", "decision_section"]

BIND = "query-params"
#: Starts the answer's paragraph, so that it reads as the section's conclusion.
ANSWER_PREFIX = "**Answer:** "


def decision_section(
    wording: Wording,
    analysis: Analysis,
    *,
    key_prefix: str = "",
    in_url: bool = True,
    present: bool = False,
    clusters: Clusters | None = None,
) -> Decision | None:
    """Ask the question, show the answer; return the decision (None when it cannot be asked).

    The answer and its chart are cached on their inputs (:mod:`ui.widgets.cache`), so a rerun
    that leaves the table, the question and the margin as they were recomputes neither.

    Parameters
    ----------
    wording : Wording
        Names and framing of the page.
    analysis : Analysis
        The page's analysis; its alpha (the gate level) and exact-test convention are used.
    key_prefix : str
        Prefix of the widget keys ("" on the calculator page, whose keys are the URL keys).
    in_url : bool
        Bind the question and the margin to the URL.
    present : bool
        The presenting view: the question, the answer, the chart (drawn large) and the two
        figures, without the introduction, the caption and the folded explanation.
    clusters : Clusters, optional
        The cases by cluster (the per-case page's group column): every question and the gate
        then use the cluster-aware test.
    """
    st.subheader("Decision")
    if not present:
        st.markdown(DECISION_INTRO)
    st.caption(escape_markdown(alpha_source(analysis.gates.alpha, in_url=in_url)))
    question, margin = asked(*_question_inputs(wording, key_prefix, in_url))
    try:
        decision = cached_decision(
            analysis.table,
            analysis.difference,
            question=question,
            margin=margin,
            alpha=analysis.gates.alpha,
            convention=analysis.convention,
            names=analysis.names,
            framing=analysis.framing,
            clusters=clusters,
        )
    except ValueError as error:
        st.warning(escape_markdown(str(error)), icon=":material/warning:")
        return None
    with st.container(border=True, key=f"{key_prefix}decision_answer"):
        st.markdown(f"{ANSWER_PREFIX}{escape_markdown(text(decision))}")
    with st.container(key=f"{key_prefix}decision_chart"):  # the key names it in the page
        # Drawn with the live panel's Vega (on the calculator page, the only Vega loaded).
        page_chart(
            f"{key_prefix}chart_decision",
            chart_payload(decision_spec(decision, wording, present), fit_height=True),
        )
    pvalue_col, probability_col = st.columns(2)
    pvalue_col.metric(pvalue_label(decision), pvalue_text(decision))
    # A metric's label is Markdown: the names in it are escaped like every other label's.
    left_out = posterior_left_out(decision)
    probability_col.metric(
        probability_label(wording.escaped()),
        "not shown" if left_out else probability_text(analysis.better),
    )
    if left_out:
        probability_col.caption(escape_markdown(left_out))
    if not present and not left_out:  # the contrast needs the posterior beside the p-value
        st.caption(escape_markdown(two_questions(wording)))
    if not in_url:
        gate = _gate_decision(analysis, decision, clusters)
        verdict = gate_fails(gate)
        st.markdown(escape_markdown(gate_sentence(wording, gate, fails=verdict)))
    if not present:
        _explanation(key_prefix)
    return decision


def _explanation(key_prefix: str) -> None:
    """The folded explanation, sent only once opened (the expander reruns the page when it
    opens), so a key press does not send and draw its text again while it is closed."""
    why = st.expander(
        "Why “not significant” is not “no worse”, and how to choose a margin",
        key=f"{key_prefix}decision_why",
        on_change="rerun",
    )
    with why:
        if why.open:
            st.markdown(DECISION_EXPLANATION)


def asked_question(key_prefix: str) -> Question:
    """The question the Decision section asks this run (the one its inputs hold, or the
    default before they are drawn), for an analysis above it that answers the same question,
    as the command line's report does."""
    question = str(_asked_value(key_prefix, "question"))
    points = float(_asked_value(key_prefix, "margin"))
    question, margin = asked(question, points)
    return Question(question=question, margin=margin)


def _asked_value(key_prefix: str, name: str) -> object:
    """A Decision input's value before its widget is drawn this run: the widget's state, else
    (on the calculator page, whose inputs are bound to the URL: no key prefix) the URL's valid
    value, else the default."""
    key = f"{key_prefix}{name}"
    if key in st.session_state:
        return st.session_state[key]
    raw = None if key_prefix else st.query_params.get(name)
    if raw is not None:
        try:
            return parse_param(name, raw)
        except ValueError:  # the section itself warns of a bad value as it draws its inputs
            pass
    return DECISION_DEFAULTS[name]


def _question_inputs(wording: Wording, key_prefix: str, in_url: bool) -> tuple[str, float]:
    """The question (a radio with the questions in plain words) and the margin in points."""
    shown = wording.escaped()
    margin_key = f"{key_prefix}margin"
    margin_now = float(st.session_state.get(margin_key, DECISION_DEFAULTS["margin"]))
    bind = BIND if in_url else None
    question_col, margin_col = st.columns([3, 2], gap="large")
    with question_col:
        question = st.radio(
            "Question",
            PAGE_QUESTIONS,
            key=f"{key_prefix}question",
            captions=[question_label(shown, key, margin_now) for key in PAGE_QUESTIONS],
            bind=bind,
            help=QUESTION_HELP,
        )
    with margin_col:
        margin = st.number_input(
            margin_label(wording),
            min_value=MARGIN_RANGE[0],
            max_value=MARGIN_RANGE[1],
            value=DECISION_DEFAULTS["margin"],
            step=0.5,
            format="%.2f",
            key=margin_key,
            bind=bind,
            disabled=not takes_margin(question),
            help=MARGIN_HELP,
        )
    return question, float(margin)


def _gate_decision(analysis: Analysis, decision: Decision, clusters: Clusters | None) -> Decision:
    """The decision of the release gate's own question (:func:`calculator.release.gate_question`):
    the page's when the gate asks it, else the two-sided one, as the command line's gate."""
    question, margin = gate_question(decision.question, decision.margin)
    if question == decision.question:
        return decision
    return cached_decision(
        analysis.table,
        analysis.difference,
        question=question,
        margin=margin,
        alpha=decision.alpha,
        convention=analysis.convention,
        names=analysis.names,
        framing=analysis.framing,
        clusters=clusters,
    )
