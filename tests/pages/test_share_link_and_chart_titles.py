"""The page's report drawn on request, its share link, the presenting view with large charts,
and chart titles that are true of what they show (the pairing chart under the mid-p, sizes and
coverages beside their targets).

References: the mid-p at b = c is 1 - P[Bin(2k, 1/2) = k] / 2 and p = 1 at m = 0 discordant
pairs (Fagerland, Lydersen & Laake 2013, BMC Med Res Methodol 13:91, as in R
contingencytables): b = c = 1 gives 1 - 0.5 / 2 = 0.75, so a sweep at
equal pass rates ends 0.75, then 1. The page's state and its URL keys are those of
``ui.params`` (DEFAULTS, DECISION_DEFAULTS, TEACHING_DEFAULTS). The chi-square test's size at
n = 30 (a, b, c, d = 6, 8, 9, 7) and the Newcombe coverage at n = 30, p10 = 0.2, p01 = 0.1 are the
core's exact sums (``calculator.teaching.operating_characteristics``, whose tests carry their
provenance: tests/core/test_operating_characteristics.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from apptest_pages import chart_specs, panel_metrics, set_counts, share_link
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from calculator.report.formatting import format_percent
from calculator.teaching import margin_sweep, operating_characteristics
from ui.params import DECISION_DEFAULTS, DEFAULTS, MARGIN_RANGE, TEACHING_DEFAULTS, decision_query
from ui.teaching_charts import coverage_chart, pairing_chart
from ui.teaching_words import percent_beside
from ui.widgets.calculator_results import REPORT_KEY

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 90
SECTIONS = ("t_null", "t_oc", "t_pair", "t_quiz")

# Every URL key of the page away from its default (the page contract, the Decision section and
# the teaching sections; `present` is the presenting view, which shows no share link).
EVERY_KEY = {
    "a": "50",
    "b": "12",
    "c": "3",
    "d": "35",
    "gates": "4",
    "alpha": "0.01",
    "rho": "0.3",
    "level": "0.9",
    "ci": "newcombe",
    "conv": "mid-p",
    "cc": "true",
    "name_a": "Old (v1)",
    "name_b": "New_2*",
    "framing": "correct",
    "logp": "true",
    "question": "non-inferior",
    "margin": "2.5",
    **dict.fromkeys(SECTIONS, "true"),
    "agree": "45",
}


def run_app(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query or {})
    return at.run()


def title_of(spec: dict) -> str:
    title = spec["title"]
    return title["text"] if isinstance(title, dict) else title


# -- The pairing chart's title says what its blue line does ------------------------------------


def test_mid_p_at_equal_pass_rates_rises_to_one_at_full_agreement_and_the_title_says_so() -> None:
    sweep = margin_sweep(60, 5, 5, 30, convention="mid-p")
    assert (sweep.b[-2], sweep.c[-2], sweep.b[-1], sweep.c[-1]) == (1, 1, 0, 0)
    assert sweep.exact_pvalue[-2:] == (0.75, 1.0)  # one each way, then none: p rises
    title = title_of(pairing_chart(sweep, 0, alpha=0.05).to_dict())
    assert "never rises" not in title
    assert "1 where no pair disagrees" in title


@given(
    rates=st.tuples(st.integers(0, 40), st.integers(0, 40), st.integers(1, 40)),
    convention=st.sampled_from(["doubling", "mid-p"]),
)
def test_the_pairing_title_is_true_of_the_line_it_describes(rates, convention) -> None:
    # A table from the two pass counts and n (a both-pass count inside the feasible range).
    pass_a, pass_b, extra = rates
    n = max(pass_a, pass_b) + extra
    a = max(0, pass_a + pass_b - n)
    sweep = margin_sweep(a, pass_a - a, pass_b - a, n - pass_a - pass_b + a, convention=convention)
    title = title_of(pairing_chart(sweep, 0, alpha=0.05).to_dict())
    p = sweep.exact_pvalue
    steps = list(zip(p, p[1:], strict=False))
    if "never rises with agreement" in title:
        assert all(later <= earlier * (1 + 1e-12) for earlier, later in steps), (p, title)
    else:
        assert "falls with agreement, then is 1 where no pair disagrees" in title
        assert all(later < earlier for earlier, later in steps[:-1]), p
        assert p[-1] == 1.0 and sweep.b[-1] == sweep.c[-1] == 0


# -- Sizes and coverages never read as on the mark when they are not -------------------------


@given(
    value=st.floats(0.0, 1.0, allow_nan=False),
    reference=st.sampled_from([0.05, 0.01, 0.1, 0.95, 0.9, 0.99, 0.001]),
)
def test_percent_beside_never_prints_a_rate_equal_to_its_reference_unless_it_is(
    value: float, reference: float
) -> None:
    text = percent_beside(value, reference)
    printed = float(text.removesuffix("%")) / 100
    if value != reference and abs(value - reference) > 1e-12:
        assert abs(printed - reference) > 1e-15, (value, text)
        assert (printed > reference) == (value > reference), (value, text)
    if text != format_percent(value):  # more decimals only where one would sit on the mark
        assert format_percent(value) == format_percent(reference)


def test_a_size_above_alpha_and_a_coverage_below_nominal_do_not_print_as_on_the_mark() -> None:
    # Chi-square size 0.05037 printed "5.0%" under "Size (α = 0.05)": a liberal test looked exact.
    oc = operating_characteristics(30, 8 / 30, 9 / 30, p11=6 / 30)
    size = {t.name: t.size for t in oc.tests}["Chi-square"]
    assert 0.05 < size < 0.0505 and format_percent(size) == "5.0%"
    assert percent_beside(size, 0.05) == "5.04%"
    covered = operating_characteristics(30, 0.2, 0.1)
    newcombe = {i.name: i.coverage for i in covered.intervals}["Newcombe"]
    assert format_percent(newcombe) == "95.0%" != percent_beside(newcombe, 0.95)
    assert (
        f"Newcombe {percent_beside(newcombe, 0.95)}"
        in coverage_chart(covered).to_dict()["description"]
    )


def test_the_page_shows_the_size_beside_alpha() -> None:
    at = run_app({"a": "6", "b": "8", "c": "9", "d": "7", "t_oc": "true"})
    assert not at.exception
    (sizes, _) = at.table
    shown = sizes.value
    row = list(shown.iloc[:, 0]).index("Chi-square")
    assert shown.iloc[row, 1] == "5.04%"


# -- The page: report, share link, presenting view ---------------------------------------------


def test_share_link_carries_every_key_of_a_fully_changed_state_and_reopens_it() -> None:
    at = run_app(EVERY_KEY)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.warning, [w.value for w in at.warning]
    link = share_link(at)
    carried = dict(parse_qsl(urlsplit(link).query))
    assert set(carried) == set(EVERY_KEY)
    assert set(carried) == (set(DEFAULTS) | set(DECISION_DEFAULTS) | set(TEACHING_DEFAULTS)) - {
        "present"
    }
    assert carried == EVERY_KEY
    reopened = run_app(carried)
    assert not reopened.exception
    assert share_link(reopened) == link


@given(margin=st.floats(*MARGIN_RANGE, allow_nan=False))
def test_the_margin_in_a_share_link_is_the_margin_itself(margin: float) -> None:
    # ":g" wrote six significant digits, so 2.3456789 came back as 2.34568.
    carried = dict(parse_qsl(decision_query({"question": "non-inferior", "margin": margin})))
    assert float(carried.get("margin", DECISION_DEFAULTS["margin"])) == margin


def test_a_margin_typed_with_many_digits_survives_the_share_link() -> None:
    at = run_app({"question": "non-inferior"})
    at.number_input(key="margin").set_value(2.3456789).run()
    carried = dict(parse_qsl(urlsplit(share_link(at)).query))
    assert carried["margin"] == "2.3456789"
    assert run_app(carried).number_input(key="margin").value == 2.3456789


def test_share_link_follows_a_change_made_on_the_page() -> None:
    at = run_app(EVERY_KEY)
    set_counts(at, b=17)
    at.radio(key="question").set_value("equivalent").run()
    carried = dict(parse_qsl(urlsplit(share_link(at)).query))
    assert carried["b"] == "17" and carried["question"] == "equivalent"
    assert {k: v for k, v in carried.items() if k not in ("b", "question")} == {
        k: v for k, v in EVERY_KEY.items() if k not in ("b", "question")
    }


def test_report_stays_reachable_and_follows_the_table_after_a_rerun() -> None:
    at = run_app(EVERY_KEY)
    assert not at.code  # drawn only when asked
    at.toggle(key=REPORT_KEY).set_value(True).run()
    (first,) = at.code
    assert "Old (v1)" in first.value and "New_2*" in first.value
    set_counts(at, c=9)  # a fragment rerun: the toggle stays on
    assert at.toggle(key=REPORT_KEY).value is True
    (second,) = at.code
    assert second.value != first.value
    assert re.search(r"\b9\b", second.value), second.value


def test_presenting_view_with_every_section_open_draws_every_chart_large() -> None:
    query = {key: value for key, value in EVERY_KEY.items() if key != "logp"}
    normal, shown = run_app(query), run_app({**query, "present": "true"})
    for at in (normal, shown):
        assert not at.exception, [e.value for e in at.exception]
    small, large = chart_specs(normal), chart_specs(shown)
    # p-value, gates, decision, null distribution, coverage, pairing: all six in both views.
    assert len(small) == len(large) == 6
    for plain, big in zip(small, large, strict=True):
        assert big["height"] > plain["height"]
        assert big.get("description") == plain.get("description")
    assert [t.key for t in shown.toggle if t.key in SECTIONS] == list(SECTIONS)
    assert not shown.code and not any(t.key == REPORT_KEY for t in shown.toggle)
    # The presenting view stays live: a count moved redraws the figures.
    before = [*panel_metrics(shown).values(), *(m.value for m in shown.metric)]
    set_counts(shown, b=20)
    assert not shown.exception
    assert [*panel_metrics(shown).values(), *(m.value for m in shown.metric)] != before
