"""The teaching sections' pure helpers: wording (ui/teaching_words.py) and charts
(ui/teaching_charts.py, checked through ``chart.to_dict()``).

Reference values: the null distribution of m = 5 (smallest two-sided p 2/2^5 = 0.0625, from the
binomial distribution) and m = 20 (size 2 * 21700 / 2^20); the original page's table 60, 15, 5, 20;
the question answers' numbers from calculator.mcnemar_exact (12 vs 2: p = 0.01294; 110 vs 100:
p = 0.5347) and 1 - 0.95^6 = 0.2649.
"""

from __future__ import annotations

import re

from calculator import mcnemar_exact
from calculator.teaching import margin_sweep, null_distribution, operating_characteristics
from ui import teaching_words as words
from ui.teaching_charts import (
    PAIRING_SERIES,
    TAIL_LABELS,
    coverage_chart,
    null_distribution_chart,
    pairing_chart,
    pairing_series,
)
from ui.words import Wording


def _rows(spec: dict, layer: int) -> list[dict]:
    name = spec["layer"][layer]["data"]["name"]
    return spec["datasets"][name]


# --- words ----------------------------------------------------------------------------------


def test_explanations_are_two_to_four_sentences() -> None:
    for text in (words.NULL_EXPLAIN, words.OC_EXPLAIN, words.PAIR_EXPLAIN):
        assert 2 <= len(re.findall(r"[.!?](?:\s|$)", text)) <= 4


def test_unreachable_alpha_is_said_in_plain_words() -> None:
    sentences = words.null_summary(null_distribution(5, 0))
    assert "p = 0.0625" in sentences[0]
    assert "no result can reach α = 0.05" in sentences[1]


def test_size_sentence_compares_with_alpha() -> None:
    sentences = words.null_summary(null_distribution(20, 15))
    assert "4.1%" in sentences[1] and "below the nominal α = 0.05" in sentences[1]


def test_no_discordant_pairs_sentence() -> None:
    assert "m = 0" in words.null_summary(null_distribution(0, 0))[0]


def test_smallest_p_below_the_double_range_is_a_power_of_ten_not_zero() -> None:
    sentence = words.null_summary(null_distribution(5000, 0))[0]
    assert "10^-1504.8" in sentence


def test_questions_cover_the_five_topics_and_their_numbers_hold() -> None:
    keys = {q.key for q in words.QUESTIONS}
    assert {"both_pass", "discordance", "pairing", "gates", "peeking"} <= keys
    assert 4 <= len(words.QUESTIONS) <= 6
    assert round(mcnemar_exact(12, 2).pvalue, 3) == 0.013
    assert round(mcnemar_exact(110, 100).pvalue, 2) == 0.53
    assert round(1 - 0.95**6, 3) == 0.265
    assert null_distribution(5, 0).smallest_pvalue == 0.0625


def test_pairing_sentence_names_the_table_and_both_pvalues() -> None:
    sweep = margin_sweep(60, 15, 5, 20)
    text = words.pairing_selected(sweep, sweep.entered_index, 0.05, Wording("A", "B", "pass"))
    assert "Both pass 60; only A passes 15; only B passes 5; both fail 20" in text
    assert "exact p = 0.041" in text and "unpaired p = 0.123" in text


def test_classifier_framing_and_names_relabel_the_cells_not_the_numbers() -> None:
    sweep = margin_sweep(60, 15, 5, 20)
    wording = Wording("old", "new", "correct")
    text = words.pairing_selected(sweep, sweep.entered_index, 0.05, wording)
    assert "Both correct 60; only old correct 15; only new correct 5; both wrong 20" in text
    assert "exact p = 0.041" in text
    assert (
        words.null_axis_title(wording, 20) == "b: cases only old correct, of the m = 20 that differ"
    )
    assert "both correct or both wrong" in words.agreement_axis_title(wording)


# --- charts ---------------------------------------------------------------------------------


def test_null_chart_shades_the_tails_and_marks_the_observed_b() -> None:
    spec = null_distribution_chart(null_distribution(10, 2)).to_dict()
    bars = _rows(spec, 0)
    assert [row["b"] for row in bars] == list(range(11))
    shaded = [row["b"] for row in bars if row["tail"] == TAIL_LABELS[1.0]]
    assert shaded == [0, 1, 2, 8, 9, 10]
    assert _rows(spec, 1)[0]["b"] == 2 and spec["layer"][1]["mark"]["type"] == "rule"
    assert "Binomial(10, 1/2)" in spec["title"]["text"]


def test_null_chart_legend_names_only_the_shares_that_occur() -> None:
    # Doubling: every split is in the p-value or not. Mid-p at b = 2 of 10: the splits exactly as
    # lopsided as the observed one (b = 2 and b = 8) count half.
    def legend(convention: str) -> dict:
        null = null_distribution(10, 2, convention=convention)
        return null_distribution_chart(null).to_dict()["layer"][0]["encoding"]["color"]["scale"]

    assert legend("doubling") == {
        "domain": [TAIL_LABELS[1.0], TAIL_LABELS[0.0]],
        "range": ["#D55E00", "#BBBBBB"],
    }
    assert legend("mid-p")["domain"] == list(TAIL_LABELS.values())


def test_null_chart_of_many_pairs_is_an_outline() -> None:
    spec = null_distribution_chart(null_distribution(5000, 2400)).to_dict()
    assert spec["layer"][0]["mark"]["type"] == "area"
    assert len(_rows(spec, 0)) <= 401


def test_coverage_chart_has_a_point_per_computed_method_and_the_nominal_rule() -> None:
    oc = operating_characteristics(40, 0.2, 0.1, level=0.9)
    spec = coverage_chart(oc).to_dict()
    computed = [i.name for i in oc.intervals if i.coverage is not None]
    assert [row["method"] for row in _rows(spec, 0)] == computed
    assert _rows(spec, 1)[0]["level"] == 0.9


def test_pairing_chart_title_says_which_line_is_which() -> None:
    sweep = margin_sweep(60, 15, 5, 20)
    spec = pairing_chart(sweep, 0, alpha=0.05, independent_agreement=0.65).to_dict()
    assert "paired" in spec["title"]["text"] and "unpaired" in spec["title"]["text"]
    lines = _rows(spec, 0)
    assert {row["test"] for row in lines} == set(PAIRING_SERIES)
    unpaired = {row["p"] for row in lines if row["test"] == PAIRING_SERIES[1]}
    assert len(unpaired) == 1  # flat: the two pass rates do not move
    marks = {row["which"]: row["agreement"] for row in _rows(spec, 1)}
    assert marks == {"entered table": 0.8, "slider": sweep.agreement[0]}
    assert _rows(spec, 2)[0]["y"] == 0.05 and _rows(spec, 3)[0]["x"] == 0.65


def test_pairing_chart_and_sentence_never_call_the_mid_p_exact() -> None:
    # Fagerland, Lydersen & Laake (2013): the mid-p test is not an exact test.
    sweep = margin_sweep(60, 15, 5, 20, convention="mid-p")
    spec = pairing_chart(sweep, 0, alpha=0.05).to_dict()
    assert "exact" not in spec["title"]["text"] and "mid-p" in spec["title"]["text"]
    assert {row["test"] for row in _rows(spec, 0)} == set(pairing_series("mid-p"))
    assert all("exact" not in name for name in pairing_series("mid-p"))
    text = words.pairing_selected(sweep, sweep.entered_index, 0.05, Wording())
    assert "exact" not in text
    mid_p = mcnemar_exact(15, 5, convention="mid-p").pvalue
    assert f"McNemar's mid-p test: p = {mid_p:.2g}" in text


def test_each_teaching_chart_has_alt_text_with_its_figures() -> None:
    # Issue 15: no chart without alternative text; the figures are the chart's own.
    null = null_distribution_chart(null_distribution(20, 15)).to_dict()["description"]
    assert "20 discordant pairs" in null and "observed b = 15" in null
    oc = operating_characteristics(30, 0.2, 0.1)
    coverage = coverage_chart(oc).to_dict()["description"]
    for interval in oc.intervals:
        if interval.coverage is not None:
            shown = words.percent_beside(interval.coverage, oc.level)  # 95.009%, not 95.0%
            assert f"{interval.name} {shown}" in coverage
    sweep = margin_sweep(60, 15, 5, 20)
    paired = pairing_chart(sweep, 0, alpha=0.05).to_dict()["description"]
    assert "McNemar's exact p" in paired and "α = 0.05." in paired
    independent = pairing_chart(sweep, 0, alpha=0.05, independent_agreement=0.65).to_dict()
    assert independent["description"].endswith("the agreement of independent systems.")


def test_large_charts_are_taller() -> None:
    null = null_distribution(10, 2)
    assert (
        null_distribution_chart(null, large=True).to_dict()["height"]
        > (null_distribution_chart(null).to_dict()["height"])
    )
