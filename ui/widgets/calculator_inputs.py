"""Input sections of the calculator page: worked examples, the names, framing and test
options, the gates.

Every input here is bound to the URL (``bind="query-params"``, keys as in :mod:`ui.params`), so
a copied link reopens the same state. The four counts are drawn by the live panel
(:mod:`ui.components.live_panel`, held by :mod:`ui.widgets.state`); the number of gates is a
slider for demos paired with an exact number field.
"""

from __future__ import annotations

import streamlit as st

from calculator import CI_METHODS
from calculator.analysis import FRAMINGS, MAX_NAME_LENGTH
from calculator.mcnemar import CONVENTIONS
from ui import words
from ui.examples import EXAMPLES
from ui.params import (
    ALPHA_RANGE,
    DEFAULTS,
    GATES_MAX,
    LEVEL_RANGE,
    RHO_RANGE,
    SLIDER_BASE,
    parse_param,
    slider_max,
)
from ui.widgets import state
from ui.words import Wording, clean_name

__all__ = [
    "before_drawn",
    "gate_inputs",
    "setting_inputs",
    "settings_before_drawn",
    "worked_examples",
]

BIND = "query-params"


def worked_examples() -> None:
    """A folded list of buttons, each loading one worked example."""
    with st.expander(words.EXAMPLES_TITLE):
        st.caption(words.EXAMPLES_CAPTION)
        example_cols = st.columns(2)
        for index, example in enumerate(EXAMPLES):
            with example_cols[index % 2]:
                st.button(
                    example.title,
                    key=f"example_{example.key}",
                    on_click=state.load_example,
                    args=(example,),
                    help=words.example_help(example.source, example.expect, example.note),
                    width="stretch",
                )


def paired_input(key: str, label: str, *, minimum: int, maximum: int) -> int:
    """A slider for demos and an exact number field for real data, kept in step.

    The number field is bound to the URL; the slider's range grows to fit a typed value.
    """
    slider_col, number_col = st.columns([3, 2], vertical_alignment="bottom")
    with number_col:  # created first, so the slider can follow its value this run
        value = st.number_input(
            f"{label} (exact)",
            min_value=minimum,
            max_value=maximum,
            value=DEFAULTS[key],
            step=1,
            key=key,
            bind=BIND,
            label_visibility="collapsed",
        )
    st.session_state[state.slider_key(key)] = value
    with slider_col:
        st.slider(
            label,
            min_value=minimum,
            max_value=slider_max(value, SLIDER_BASE[key], maximum),
            step=1,
            key=state.slider_key(key),
            on_change=state.sync_from_slider,
            args=(key,),
        )
    return value


def _wording() -> Wording:
    name_cols = st.columns(2)
    with name_cols[0]:
        raw_a = st.text_input(
            "Name of system A", value="A", max_chars=MAX_NAME_LENGTH, key="name_a", bind=BIND
        )
    with name_cols[1]:
        raw_b = st.text_input(
            "Name of system B", value="B", max_chars=MAX_NAME_LENGTH, key="name_b", bind=BIND
        )
    framing = st.segmented_control(
        "Framing: pass/fail (systems on tasks) or correct/wrong (classifiers)",
        FRAMINGS,
        default=DEFAULTS["framing"],
        required=True,
        key="framing",
        bind=BIND,
    )
    return Wording(clean_name(raw_a, "A"), clean_name(raw_b, "B"), framing)


def _test_options() -> dict[str, object]:
    with st.expander("Test options", expanded=True):
        return {
            "level": st.number_input(
                "Confidence level of the interval",
                min_value=LEVEL_RANGE[0],
                max_value=LEVEL_RANGE[1],
                value=DEFAULTS["level"],
                step=0.01,
                format="%.3f",
                key="level",
                bind=BIND,
            ),
            "ci_method": st.selectbox(
                "Interval method",
                CI_METHODS,
                key="ci",
                bind=BIND,
                help=words.CI_METHOD_HELP,
            ),
            "convention": st.segmented_control(
                "Binomial test's two-sided p",
                CONVENTIONS,
                default=DEFAULTS["conv"],
                required=True,
                key="conv",
                bind=BIND,
                help="doubling: twice the smaller binomial tail, the exact McNemar p. mid-p: "
                "counts the observed split only half; less conservative, and not an exact p.",
            ),
            "correction": st.toggle(
                "Continuity correction for chi-square",
                key="cc",
                bind=BIND,
                help="Edwards' correction: subtract 1 from |b − c| before squaring.",
            ),
        }


def setting_inputs() -> tuple[Wording, dict[str, object]]:
    """Names and framing, and the test options, as the user set them."""
    with st.container(key="names_framing"):  # hidden when presenting
        wording = _wording()
    return wording, _test_options()


def before_drawn(key: str) -> object:
    """The value a page input will have this run, read before its widget is drawn: its
    session-state value, else the URL's (``state.check_url`` has already removed unusable
    ones), else its default."""
    if key in st.session_state:
        return st.session_state[key]
    raw = st.query_params.get(key)
    if raw is not None:
        try:
            return parse_param(key, raw)
        except ValueError:  # check_url warns of it and drops it
            pass
    return DEFAULTS[key]


def settings_before_drawn() -> tuple[Wording, dict[str, object], dict[str, object]]:
    """The names and framing, the test options and the gates' options as
    :func:`setting_inputs` and :func:`gate_inputs` will read them this run, for the part of
    the page drawn above them (:func:`before_drawn`)."""
    value = before_drawn
    wording = Wording(
        clean_name(str(value("name_a")), "A"),
        clean_name(str(value("name_b")), "B"),
        str(value("framing")),
    )
    options = {
        "level": value("level"),
        "ci_method": value("ci"),
        "convention": value("conv"),
        "correction": bool(value("cc")),
    }
    gate_options = {"gates": value("gates"), "alpha": value("alpha"), "rho": value("rho")}
    return wording, options, gate_options


def gate_inputs() -> dict[str, object]:
    """Number of gates, their level and their correlation."""
    return {
        "gates": paired_input("gates", "m: number of gates", minimum=1, maximum=GATES_MAX),
        "alpha": st.number_input(
            "α: level of each gate",
            min_value=ALPHA_RANGE[0],
            max_value=ALPHA_RANGE[1],
            value=DEFAULTS["alpha"],
            step=0.01,
            format="%.4f",
            key="alpha",
            bind=BIND,
        ),
        "rho": st.slider(
            "ρ: correlation between the gates",
            min_value=RHO_RANGE[0],
            max_value=RHO_RANGE[1],
            value=DEFAULTS["rho"],
            step=0.05,
            key="rho",
            bind=BIND,
            help="0: independent gates. Towards 1, the gates fire together.",
        ),
    }
