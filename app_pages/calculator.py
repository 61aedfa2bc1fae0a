"""The calculator page: a paired 2 x 2 table in, McNemar's tests, the difference and the gates out.

Every input is bound to the URL (keys as in the page contract), so a copied link reopens the
same state. The page lays out widgets and results only; the numbers come from
``calculator.analyze`` and the charts from ``ui.charts``.
"""

from __future__ import annotations

import streamlit as st

from calculator import CI_METHOD_NAMES, CI_METHODS, CONVENTIONS, format_pvalue
from ui import state
from ui.compute import cached_analysis, cached_false_alarm_spec, cached_pvalue_spec
from ui.examples import EXAMPLES
from ui.explain import SECTIONS, Formula
from ui.export import results_csv, results_json
from ui.params import (
    ALPHA_RANGE,
    COUNT_MAX,
    DEFAULTS,
    FRAMINGS,
    GATES_MAX,
    LEVEL_RANGE,
    NAME_MAX_CHARS,
    PARAM_KEYS,
    RHO_RANGE,
    share_query,
)
from ui.text import (
    Wording,
    clean_name,
    escape_markdown,
    format_level,
    format_rate,
    format_statistic,
    p_equals,
    table_html,
)

BIND = "query-params"
# Slider ranges before a typed value widens them: enough for a classroom demo.
SLIDER_BASE = {"a": 100, "b": 100, "c": 100, "d": 100, "gates": 50}
CHART_HEIGHT = 420  # pixels, legend and title included
SMALL_DISCORDANT = 25  # below this, the chi-square approximation is rough


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
            max_value=state.slider_max(value, SLIDER_BASE[key], maximum),
            step=1,
            key=state.slider_key(key),
            on_change=state.sync_from_slider,
            args=(key,),
        )
    return value


def metric_card(label: str, value: str, caption: str, *, key: str) -> None:
    with st.container(border=True, key=key):
        st.metric(label, value)
        st.caption(caption)


url_warnings = state.check_url()

st.title("McNemar test calculator")
st.markdown(
    "Two systems, the same cases, a pass or a fail for each. Are they really different? "
    "Only the cases where they disagree can say, and McNemar's test listens to those alone."
)
for warning in url_warnings:
    st.warning(escape_markdown(warning), icon="⚠️")

with st.expander("Worked examples from the seed documents"):
    st.caption("One click loads the table (classifier examples in the correct/wrong framing).")
    example_cols = st.columns(2)
    for index, example in enumerate(EXAMPLES):
        with example_cols[index % 2]:
            st.button(
                example.title,
                key=f"example_{example.key}",
                on_click=state.load_example,
                args=(example,),
                help=f"The seed reports: {example.expect}",
                width="stretch",
            )

inputs, results = st.columns([2, 3], gap="large")

with inputs:
    st.subheader("Inputs")
    name_cols = st.columns(2)
    with name_cols[0]:
        raw_a = st.text_input(
            "Name of system A", value="A", max_chars=NAME_MAX_CHARS, key="name_a", bind=BIND
        )
    with name_cols[1]:
        raw_b = st.text_input(
            "Name of system B", value="B", max_chars=NAME_MAX_CHARS, key="name_b", bind=BIND
        )
    name_a, name_b = clean_name(raw_a, "A"), clean_name(raw_b, "B")
    framing = st.segmented_control(
        "Framing: pass/fail (systems on tasks) or correct/wrong (classifiers)",
        FRAMINGS,
        default=DEFAULTS["framing"],
        required=True,
        key="framing",
        bind=BIND,
    )
    wording = Wording(name_a, name_b, framing)
    shown = Wording(escape_markdown(name_a), escape_markdown(name_b), framing)

    labels = shown.cell_labels()
    counts = {
        key: paired_input(key, labels[key], minimum=0, maximum=COUNT_MAX)
        for key in state.COUNT_KEYS
    }
    a, b, c, d = (counts[key] for key in state.COUNT_KEYS)

    with st.expander("Test options", expanded=True):
        level = st.number_input(
            "Confidence level of the interval",
            min_value=LEVEL_RANGE[0],
            max_value=LEVEL_RANGE[1],
            value=DEFAULTS["level"],
            step=0.01,
            format="%.3f",
            key="level",
            bind=BIND,
        )
        ci_method = st.selectbox(
            "Interval method",
            CI_METHODS,
            key="ci",
            bind=BIND,
            help="agresti-min (default), wald (for teaching only), bonett-price, newcombe, "
            "tango. The last three are recommended by Fagerland, Lydersen & Laake (2014).",
        )
        convention = st.segmented_control(
            "Exact p convention",
            CONVENTIONS,
            default=DEFAULTS["conv"],
            required=True,
            key="conv",
            bind=BIND,
            help="doubling: twice the smaller binomial tail. mid-p: counts the observed split "
            "only half, which is less conservative.",
        )
        correction = st.toggle(
            "Continuity correction for chi-square",
            key="cc",
            bind=BIND,
            help="Edwards' correction: subtract 1 from |b − c| before squaring.",
        )

st.divider()
st.subheader("Many gates")
st.markdown(
    "A release often has to clear several checks, each a test at level α. Even when the change "
    "does nothing, every extra gate is another chance for a false alarm."
)
gate_cards = st.container()
gate_inputs, gate_results = st.columns([2, 3], gap="large")
with gate_inputs:
    gates = paired_input("gates", "m: number of gates", minimum=1, maximum=GATES_MAX)
    alpha = st.number_input(
        "α: level of each gate",
        min_value=ALPHA_RANGE[0],
        max_value=ALPHA_RANGE[1],
        value=DEFAULTS["alpha"],
        step=0.01,
        format="%.4f",
        key="alpha",
        bind=BIND,
    )
    rho = st.slider(
        "ρ: correlation between the gates",
        min_value=RHO_RANGE[0],
        max_value=RHO_RANGE[1],
        value=DEFAULTS["rho"],
        step=0.05,
        key="rho",
        bind=BIND,
        help="0: independent gates. Towards 1, the gates fire together.",
    )
try:
    analysis = cached_analysis(
        a,
        b,
        c,
        d,
        level=level,
        ci_method=ci_method,
        correction=correction,
        convention=convention,
        gates=gates,
        alpha=alpha,
        rho=rho,
        names=(name_a, name_b),
        framing=framing,
    )
    error_message = None
except (TypeError, ValueError) as error:
    analysis, error_message = None, str(error)

with results:
    if error_message is not None:
        st.error(escape_markdown(error_message), icon="🚫")

    note = state.loaded_note()
    if note is not None:
        st.info(escape_markdown(note[0].upper() + note[1:]), icon="📄")
    st.markdown(table_html(wording, a, b, c, d), unsafe_allow_html=True)
    n = a + b + c + d
    if n:
        st.markdown(
            f"**{shown.rates_sentence(a + b, a + c, n)}** {shown.discordant_sentence(b, c)}"
        )

    if analysis is not None:
        diff, chi2, exact, unpaired = (
            analysis.difference,
            analysis.chi2,
            analysis.exact,
            analysis.unpaired,
        )
        m = analysis.table.discordant
        value, interval = wording.difference_value(diff.estimate, diff.low, diff.high)
        row1 = st.columns(2)
        with row1[0]:
            metric_card(
                shown.difference_title(),
                value,
                f"{'Minus ' if wording.classifier else ''}(b − c)/n. {diff.level * 100:g}% CI "
                f"{interval} ({CI_METHOD_NAMES[diff.method]}).",
                key="card_difference",
            )
        with row1[1]:
            hint = (
                "No discordant pairs: the statistic is undefined and p = 1."
                if m == 0
                else f"Prefer the exact p: only {m:,} discordant pairs."
                if m < SMALL_DISCORDANT
                else "Prefer the exact p when b + c is small."
            )
            corrected = "continuity-corrected, " if chi2.continuity_correction else ""
            metric_card(
                "McNemar χ²",
                format_statistic(chi2.statistic),
                f"Asymptotic {p_equals(chi2.pvalue, chi2.log10_pvalue)}, {corrected}"
                f"{chi2.df} df. {hint}",
                key="card_chi2",
            )
        row2 = st.columns(2)
        with row2[0]:
            what = (
                "No discordant pairs: no case tells the systems apart."
                if m == 0
                else f"Two-sided binomial test on the {m:,} discordant pairs ({exact.convention})."
            )
            metric_card(
                "Exact McNemar p",
                format_pvalue(exact.pvalue, exact.log10_pvalue),
                what,
                key="card_exact",
            )
        with row2[1]:
            metric_card(
                "Unpaired test p, same data",
                format_pvalue(unpaired.pvalue, unpaired.log10_pvalue),
                f"Treats {shown.name_a} and {shown.name_b} as independent samples, "
                "discarding the pairing.",
                key="card_unpaired",
            )

        log_axis = st.toggle("Log p axis (log10 p)", key="logp", bind=BIND)
        st.vega_lite_chart(
            cached_pvalue_spec(
                a,
                b,
                c,
                d,
                convention=convention,
                correction=correction,
                alpha=alpha,
                log_axis=log_axis,
                x_title=wording.sweep_axis(),
                title=wording.sweep_title(),
            ),
            width="stretch",
            height=CHART_HEIGHT,
            key="chart_pvalues",
        )

with gate_cards:
    if analysis is not None:
        rates = analysis.gates
        formula = "1 − (1 − α)^m" if rates.rho == 0 else f"correlated at ρ = {rates.rho:g}"
        gate_row = st.columns(3)
        with gate_row[0]:
            metric_card(
                "At least one false alarm",
                format_rate(rates.false_alarm),
                f"{rates.count:,} gates at α = {rates.alpha:g}: {formula}.",
                key="card_false_alarm",
            )
        with gate_row[1]:
            metric_card(
                f"Per-gate α for {rates.alpha:g} overall",
                format_level(rates.bonferroni_alpha),
                f"Bonferroni α/m. Šidák 1 − (1 − α)^(1/m) gives {format_level(rates.sidak_alpha)}.",
                key="card_per_gate",
            )
        with gate_row[2]:
            metric_card(
                "Union bound",
                format_rate(rates.union_bound),
                "m·α: the false-alarm rate can be no higher, whatever the dependence.",
                key="card_union",
            )
with gate_results:
    st.vega_lite_chart(
        cached_false_alarm_spec(gates, alpha, rho),
        width="stretch",
        height=CHART_HEIGHT,
        key="chart_gates",
    )

st.divider()
if analysis is not None:
    st.subheader("Report")
    st.caption("Paste-ready summary (copy button at its top right).")
    st.code(analysis.report, language=None, wrap_lines=True)
    results_dict = analysis.to_dict()
    download_cols = st.columns(3)
    with download_cols[0]:
        st.download_button(
            "Download results (JSON)",
            results_json(results_dict),
            file_name="mcnemar-results.json",
            mime="application/json",
            key="download_json",
            on_click="ignore",
        )
    with download_cols[1]:
        st.download_button(
            "Download results (CSV)",
            results_csv(results_dict),
            file_name="mcnemar-results.csv",
            mime="text/csv",
            key="download_csv",
            on_click="ignore",
        )

st.subheader("Share this state")
query = share_query({key: state.current(key) for key in PARAM_KEYS})
st.code(f"{st.context.url or ''}?{query}" if query else (st.context.url or "?"), language=None)
st.caption("The link holds every input that differs from the defaults; copy it with the button.")

st.subheader("Explanations")
for title, parts in SECTIONS:
    with st.expander(title):
        for part in parts:
            if isinstance(part, Formula):
                st.latex(part.latex)
            else:
                st.markdown(part)
