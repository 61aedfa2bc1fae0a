"""URL-parameter parsing of the calculator page (ui.params) and the page's small helpers."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import CI_METHODS
from calculator.analysis import MAX_NAME_LENGTH
from calculator.gates import MAX_GATES
from calculator.mcnemar import CONVENTIONS
from calculator.report.formatting import format_percent
from ui.export import results_csv, results_json
from ui.params import (
    COUNT_MAX,
    DEFAULTS,
    PARAM_KEYS,
    TEACHING_DEFAULTS,
    QueryCheck,
    check_query,
    parse_param,
    share_query,
    slider_max,
    teaching_query,
)
from ui.words import Wording, clean_name, escape_markdown

# The keys of the page contract (common.md, "Page contracts"), in its order.
CONTRACT_KEYS = (
    "a", "b", "c", "d", "gates", "alpha", "rho", "level", "ci", "conv", "cc", "name_a", "name_b",
    "framing", "logp",
)  # fmt: skip


# The teaching sections' URL keys (issue 13), beside the contract: a shared link carries them too.
TEACHING_KEYS = ("t_null", "t_oc", "t_pair", "t_quiz", "agree", "present")


NAME_RULE = f"a name of 1 to {MAX_NAME_LENGTH} printable characters"


def test_keys_are_exactly_the_contract() -> None:
    assert PARAM_KEYS == CONTRACT_KEYS
    assert tuple(TEACHING_DEFAULTS) == TEACHING_KEYS
    assert not set(TEACHING_KEYS) & set(CONTRACT_KEYS)


def test_default_state_is_the_seed_page() -> None:
    assert [DEFAULTS[k] for k in ("a", "b", "c", "d", "gates", "alpha")] == [60, 15, 5, 20, 6, 0.05]


@pytest.mark.parametrize(
    ("key", "raw", "value"),
    [
        ("a", "0", 0),
        ("b", "1000000000", COUNT_MAX),
        ("c", "007", 7),
        ("gates", "1", 1),
        ("gates", str(MAX_GATES), MAX_GATES),
        ("alpha", "0.01", 0.01),
        ("alpha", "5e-3", 0.005),
        ("rho", "0", 0.0),
        ("rho", "1", 1.0),
        ("level", ".9", 0.9),
        *(("ci", method, method) for method in CI_METHODS),
        *(("conv", convention, convention) for convention in CONVENTIONS),
        ("cc", "true", True),
        ("cc", "False", False),
        ("logp", "TRUE", True),
        ("name_a", "GPT-4 (new)", "GPT-4 (new)"),
        ("name_b", "x" * 40, "x" * 40),
        ("framing", "correct", "correct"),
    ],
)
def test_valid_values_parse(key: str, raw: str, value: object) -> None:
    assert parse_param(key, raw) == value


@pytest.mark.parametrize(
    ("key", "raw", "allowed"),
    [
        ("a", "-5", "a whole number from 0 to 1,000,000,000"),
        ("b", "abc", "a whole number from 0 to 1,000,000,000"),
        ("c", "1e99", "a whole number from 0 to 1,000,000,000"),
        ("c", "1e3", "a whole number from 0 to 1,000,000,000"),
        ("d", "5.0", "a whole number from 0 to 1,000,000,000"),
        ("d", "1000000001", "a whole number from 0 to 1,000,000,000"),
        ("a", " 7", "a whole number from 0 to 1,000,000,000"),
        ("a", "٣", "a whole number from 0 to 1,000,000,000"),  # a non-ASCII digit
        ("a", "9" * 100, "a whole number from 0 to 1,000,000,000"),
        ("gates", "0", "a whole number from 1 to 1,000,000"),
        ("gates", "1000001", "a whole number from 1 to 1,000,000"),
        ("alpha", "0", "a number from 0.0001 to 0.5"),
        ("alpha", "nan", "a number from 0.0001 to 0.5"),
        ("alpha", "inf", "a number from 0.0001 to 0.5"),
        ("alpha", "1e-400", "a number from 0.0001 to 0.5"),
        ("rho", "-0.1", "a number from 0 to 1"),
        ("level", "2", "a number from 0.5 to 0.999"),
        ("level", "0.95%", "a number from 0.5 to 0.999"),
        # The lists come from the core, so a new method or convention is allowed here too.
        ("ci", "Wald", "one of " + ", ".join(CI_METHODS)),
        ("conv", "mid_p", "one of " + ", ".join(CONVENTIONS)),
        ("cc", "1", "true or false"),
        ("name_a", "", NAME_RULE),
        ("name_a", "   ", NAME_RULE),
        ("name_b", "x" * (MAX_NAME_LENGTH + 1), NAME_RULE),
        ("name_b", "a\nb", NAME_RULE),
        ("framing", "errors", "one of pass, correct"),
    ],
)
def test_invalid_values_say_what_is_allowed(key: str, raw: str, allowed: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(allowed)}$"):
        parse_param(key, raw)


def test_defaults_round_trip_through_their_url_form() -> None:
    for key, default in DEFAULTS.items():
        raw = str(default).lower() if isinstance(default, bool) else str(default)
        assert parse_param(key, raw) == default


def test_check_query_keeps_good_values_and_names_each_bad_one() -> None:
    check = check_query({"a": "70", "b": "-5", "level": "2", "zoom": "x", "name_a": "Ann"})
    assert check.values == {"a": 70, "name_a": "Ann"}
    assert check.rejected == ("b", "level", "zoom")
    assert check.warnings == (
        'URL parameter "b" must be a whole number from 0 to 1,000,000,000, but got "-5"; '
        "using the default 15.",
        'URL parameter "level" must be a number from 0.5 to 0.999, but got "2"; '
        "using the default 0.95.",
        'Unknown URL parameter "zoom" was ignored.',
    )


def test_warnings_shorten_long_values_and_hide_control_characters() -> None:
    (warning,) = check_query({"name_a": "\x1b[31m" + "y" * 5000}).warnings
    assert len(warning) < 200
    assert "\x1b" not in warning and "…" in warning


@given(st.dictionaries(st.text(max_size=20), st.text(max_size=100), max_size=8))
def test_check_query_never_raises_and_accounts_for_every_key(params: dict[str, str]) -> None:
    check = check_query(params)
    assert isinstance(check, QueryCheck)
    assert set(check.values) | set(check.rejected) == set(params)
    assert not set(check.values) & set(check.rejected)
    assert len(check.warnings) == len(check.rejected)


@given(st.integers(0, COUNT_MAX))
def test_counts_round_trip(count: int) -> None:
    assert parse_param("a", str(count)) == count


@given(st.integers(0, COUNT_MAX), st.sampled_from([50, 100]))
def test_slider_range_always_holds_the_value(value: int, base: int) -> None:
    top = slider_max(value, base, COUNT_MAX)
    assert value <= top <= COUNT_MAX
    assert top == base or top <= 5 * value  # widened to a nearby round number, not far beyond


def test_markdown_escaping_prints_names_literally() -> None:
    assert escape_markdown("*a* _b_ `c` $d$ [e](f) :red[g] <h>") == (
        r"\*a\* \_b\_ \`c\` \$d\$ \[e\]\(f\) \:red\[g\] \<h\>"
    )
    assert clean_name(" two\n lines ", "A") == "two lines"
    assert clean_name("\t", "B") == "B"


def test_framing_changes_words_not_cells() -> None:
    passing, correct = Wording("P", "Q", "pass"), Wording("P", "Q", "correct")
    assert passing.cell_labels()["b"] == "b: only P passes"
    assert correct.cell_labels()["b"] == "b: only P correct (Q wrong)"
    assert correct.cell_labels()["c"] == "c: only Q correct (P wrong)"
    assert passing.rates_sentence(75, 65, 100) == "P passes 75 of 100 tasks, Q passes 65."
    # Error-rate difference = -(pass-rate difference), interval ends swapped.
    assert passing.difference_value(0.1, 0.012, 0.184) == ("+10.0 pts", "+1.2 to +18.4 pts")
    assert correct.difference_value(0.1, 0.012, 0.184) == ("-10.0 pts", "-18.4 to -1.2 pts")


def test_small_rates_keep_their_digits() -> None:
    # The page prints rates with the core's format_percent: a small rate keeps at least its
    # first significant digit instead of reading 0.0%.
    assert format_percent(0.2649) == "26.5%"
    small = float(format_percent(0.00012).removesuffix("%")) / 100
    assert small > 0 and abs(small - 0.00012) < 0.00005


def test_downloads_are_strict_json_and_flat_csv() -> None:
    results = {"table": {"a": 1}, "mcnemar_chi2": {"statistic": None}, "report": "x, y"}
    assert results_json(results).startswith("{")
    assert results_csv(results).splitlines() == [
        "field,value", "table.a,1", "mcnemar_chi2.statistic,", 'report,"x, y"'
    ]  # fmt: skip
    with pytest.raises(ValueError):
        results_json({"p": float("nan")})


def test_share_query_round_trips_through_check_query() -> None:
    values = {**DEFAULTS, "a": 0, "gates": 12, "rho": 0.35, "logp": True, "name_b": "v2 & co"}
    query = share_query(values)
    parsed = check_query(dict(parse_qsl(query)))
    assert parsed.values == {"a": 0, "gates": 12, "rho": 0.35, "logp": True, "name_b": "v2 & co"}
    assert share_query(DEFAULTS) == ""


def test_teaching_query_round_trips_and_omits_defaults() -> None:
    opened = {"t_null": True, "t_oc": True, "t_pair": True, "t_quiz": True, "present": True}
    query = teaching_query({**opened, "agree": 42}, entered_a=60)
    parsed = check_query(dict(parse_qsl(query)))
    assert parsed.values == {**opened, "agree": 42}  # every teaching key, none rejected
    assert set(parsed.values) == set(TEACHING_KEYS)
    closed = dict.fromkeys(opened, False)
    assert teaching_query({**closed, "agree": 42}, entered_a=60) == ""  # folded: no agreement
    assert teaching_query({"t_pair": True, "agree": 60}, entered_a=60) == "t_pair=true"


def test_table_text_keeps_the_names_as_given_for_the_panel_to_set_as_text():
    # The 2 x 2 table is no longer raw HTML: it reaches the browser as data, which the live
    # panel sets as text (textContent), so user-chosen names stay as typed here and can never
    # become markup there (tests/browser/test_page.py shows such a name as typed).
    from ui.words import table_text

    hostile = '<img src=x onerror="alert(1)">'
    for framing in ("pass", "correct"):
        table = table_text(Wording(name_a=hostile, name_b="</table>", framing=framing), 1, 2, 3, 4)
        assert table.rows[0].startswith(hostile) and table.rows[1].startswith(hostile)
        assert table.columns[0].startswith("</table>") and table.columns[1].startswith("</table>")
        cells = [cell for row in table.cells for cell in row]
        assert [cell.text for cell in cells] == ["a = 1", "b = 2", "c = 3", "d = 4"]
        assert [cell.discordant for cell in cells] == [False, True, True, False]
