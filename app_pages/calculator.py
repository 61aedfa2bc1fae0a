"""The calculator page: a paired 2 x 2 table in, McNemar's tests, the difference and the gates out.

Every input is bound to the URL (keys as in the page contract), so a copied link reopens the
same state. The page lays out widgets and results only; the numbers come from
``calculator.analyze`` and the charts from ``ui.charts``.
"""

from __future__ import annotations

import streamlit as st

from calculator import CI_METHOD_NAMES, CI_METHODS, CONVENTIONS, Analysis, format_pvalue
from ui import state
from ui.compute import cached_analysis, false_alarm_spec, pvalue_spec
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


def table_inputs() -> tuple[Wording, dict[str, int], dict[str, object]]:
    """Names, framing, the four cells and the test options, as the user set them."""
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
    framing = st.segmented_control(
        "Framing: pass/fail (systems on tasks) or correct/wrong (classifiers)",
        FRAMINGS,
        default=DEFAULTS["framing"],
        required=True,
        key="framing",
        bind=BIND,
    )
    wording = Wording(clean_name(raw_a, "A"), clean_name(raw_b, "B"), framing)
    labels = wording.escaped().cell_labels()
    counts = {
        key: paired_input(key, labels[key], minimum=0, maximum=COUNT_MAX)
        for key in state.COUNT_KEYS
    }
    with st.expander("Test options", expanded=True):
        options = {
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
                help="agresti-min (default), wald (for teaching only), bonett-price, newcombe, "
                "tango. The last three are recommended by Fagerland, Lydersen & Laake (2014).",
            ),
            "convention": st.segmented_control(
                "Exact p convention",
                CONVENTIONS,
                default=DEFAULTS["conv"],
                required=True,
                key="conv",
                bind=BIND,
                help="doubling: twice the smaller binomial tail. mid-p: counts the observed "
                "split only half, which is less conservative.",
            ),
            "correction": st.toggle(
                "Continuity correction for chi-square",
                key="cc",
                bind=BIND,
                help="Edwards' correction: subtract 1 from |b − c| before squaring.",
            ),
        }
    return wording, counts, options


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


def table_results(wording: Wording, counts: dict[str, int], analysis: Analysis | None) -> None:
    """The 2 x 2 table, the rates in words and the four test cards."""
    shown = wording.escaped()
    a, b, c, d = (counts[key] for key in state.COUNT_KEYS)
    note = state.loaded_note()
    if note is not None:
        st.info(escape_markdown(note[0].upper() + note[1:]), icon="📄")
    st.markdown(table_html(wording, a, b, c, d), unsafe_allow_html=True)
    n = a + b + c + d
    if n:
        st.markdown(
            f"**{shown.rates_sentence(a + b, a + c, n)}** {shown.discordant_sentence(b, c)}"
        )
    if analysis is None:
        return
    diff, chi2, exact, unpaired = (
        analysis.difference,
        analysis.chi2,
        analysis.exact,
        analysis.unpaired,
    )
    m = analysis.table.discordant
    value, interval = wording.difference_value(diff.estimate, diff.low, diff.high)
    chi2_hint = (
        "No discordant pairs: the statistic is undefined and p = 1."
        if m == 0
        else f"Prefer the exact p: only {m:,} discordant pairs."
        if m < SMALL_DISCORDANT
        else "Prefer the exact p when b + c is small."
    )
    corrected = "continuity-corrected, " if chi2.continuity_correction else ""
    exact_what = (
        "No discordant pairs: no case tells the systems apart."
        if m == 0
        else f"Two-sided binomial test on the {m:,} discordant pairs ({exact.convention})."
    )
    cards = st.columns(2) + st.columns(2)
    with cards[0]:
        metric_card(
            shown.difference_title(),
            value,
            f"{'Minus ' if wording.classifier else ''}(b − c)/n. {diff.level * 100:g}% CI "
            f"{interval} ({CI_METHOD_NAMES[diff.method]}).",
            key="card_difference",
        )
    with cards[1]:
        metric_card(
            "McNemar χ²",
            format_statistic(chi2.statistic),
            f"Asymptotic {p_equals(chi2.pvalue, chi2.log10_pvalue)}, {corrected}"
            f"{chi2.df} df. {chi2_hint}",
            key="card_chi2",
        )
    with cards[2]:
        metric_card(
            "Exact McNemar p",
            format_pvalue(exact.pvalue, exact.log10_pvalue),
            exact_what,
            key="card_exact",
        )
    with cards[3]:
        metric_card(
            "Unpaired test p, same data",
            format_pvalue(unpaired.pvalue, unpaired.log10_pvalue),
            f"Treats {shown.name_a} and {shown.name_b} as independent samples, "
            "discarding the pairing.",
            key="card_unpaired",
        )


def gate_results(analysis: Analysis) -> None:
    """The false-alarm rate and the per-gate levels that hold it at alpha."""
    rates = analysis.gates
    formula = "1 − (1 − α)^m" if rates.rho == 0 else f"correlated at ρ = {rates.rho:g}"
    sidak = format_level(rates.sidak_alpha)
    cards = st.columns(3)
    with cards[0]:
        metric_card(
            "At least one false alarm",
            format_rate(rates.false_alarm),
            f"{rates.count:,} gates at α = {rates.alpha:g}: {formula}.",
            key="card_false_alarm",
        )
    with cards[1]:
        metric_card(
            f"Per-gate α for {rates.alpha:g} overall",
            format_level(rates.bonferroni_alpha),
            f"Bonferroni α/m. Šidák 1 − (1 − α)^(1/m) gives {sidak}.",
            key="card_per_gate",
        )
    with cards[2]:
        metric_card(
            "Union bound",
            format_rate(rates.union_bound),
            "m·α: the false-alarm rate can be no higher, whatever the dependence.",
            key="card_union",
        )


def report(analysis: Analysis) -> None:
    """The paste-ready report and the downloads."""
    st.subheader("Report")
    st.caption("Paste-ready summary (copy button at its top right).")
    st.code(analysis.report, language=None, wrap_lines=True)
    results_dict = analysis.to_dict()
    with st.container(horizontal=True):
        st.download_button(
            "Download results (JSON)",
            results_json(results_dict),
            file_name="mcnemar-results.json",
            mime="application/json",
            key="download_json",
            on_click="ignore",
        )
        st.download_button(
            "Download results (CSV)",
            results_csv(results_dict),
            file_name="mcnemar-results.csv",
            mime="text/csv",
            key="download_csv",
            on_click="ignore",
        )


def share_link() -> None:
    st.subheader("Share this state")
    query = share_query({key: state.current(key) for key in PARAM_KEYS})
    st.code(f"{st.context.url or ''}?{query}" if query else (st.context.url or "?"), language=None)
    st.caption(
        "The link holds every input that differs from the defaults; copy it with the button."
    )


@st.fragment
def live_calculator() -> None:
    """Inputs, results, charts, report and share link: everything a slider can change.

    A fragment, so that moving a slider reruns this part alone and leaves the title, the
    worked examples and the explanations (a third of the page's elements) as they are.
    """
    inputs_col, results_col = st.columns([2, 3], gap="large")
    with inputs_col:
        wording, counts, options = table_inputs()

    st.divider()
    st.subheader("Many gates")
    st.markdown(
        "A release often has to clear several checks, each a test at level α. Even when the "
        "change does nothing, every extra gate is another chance for a false alarm."
    )
    gate_cards = st.container()  # above the gate inputs, filled once the analysis is done
    gate_inputs_col, gate_chart_col = st.columns([2, 3], gap="large")
    with gate_inputs_col:
        gate_options = gate_inputs()

    try:
        analysis = cached_analysis(
            *(counts[key] for key in state.COUNT_KEYS),
            **options,
            **gate_options,
            names=(wording.name_a, wording.name_b),
            framing=wording.framing,
        )
    except (TypeError, ValueError) as error:
        analysis = None
        with results_col:
            st.error(escape_markdown(str(error)), icon="🚫")

    with results_col:
        table_results(wording, counts, analysis)
        if analysis is not None:
            log_axis = st.toggle("Log p axis (log10 p)", key="logp", bind=BIND)
            st.vega_lite_chart(
                pvalue_spec(
                    *(counts[key] for key in state.COUNT_KEYS),
                    convention=options["convention"],
                    correction=options["correction"],
                    alpha=gate_options["alpha"],
                    log_axis=log_axis,
                    x_title=wording.sweep_axis(),
                    title=wording.sweep_title(),
                ),
                width="stretch",
                height=CHART_HEIGHT,
                key="chart_pvalues",
            )
    if analysis is not None:
        with gate_cards:
            gate_results(analysis)
    with gate_chart_col:
        st.vega_lite_chart(
            false_alarm_spec(**gate_options),
            width="stretch",
            height=CHART_HEIGHT,
            key="chart_gates",
        )

    st.divider()
    if analysis is not None:
        report(analysis)
    share_link()


live_calculator()

st.subheader("Explanations")
for title, parts in SECTIONS:
    with st.expander(title):
        for part in parts:
            if isinstance(part, Formula):
                st.latex(part.latex)
            else:
                st.markdown(part)
