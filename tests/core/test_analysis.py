"""`analyze`: the contract shared by the page, the command line and the tests."""

import json
import math

import pytest

from calculator import Analysis, analyze
from calculator.report.words import payload as json_of
from calculator.report.words import text

EXPECTED_SHAPE = {
    "table": {"a", "b", "c", "d", "n", "discordant"},
    "pass_rate": {"A", "B"},
    "difference": {"estimate", "low", "high", "level", "method"},
    "odds_ratio": {"estimate", "low", "high", "level", "method"},
    "mcnemar_exact": {"pvalue", "log10_pvalue", "convention"},
    "mcnemar_mid_p": {"pvalue", "log10_pvalue"},
    "mcnemar_chi2": {"statistic", "df", "pvalue", "log10_pvalue", "continuity_correction"},
    "unpaired_z": {"statistic", "pvalue", "log10_pvalue"},
    "gates": {
        "count",
        "alpha",
        "rho",
        "false_alarm",
        "bonferroni_alpha",
        "sidak_alpha",
        "union_bound",
    },
    # issue 12: the release question's answer and the posterior probability that B is better
    "decision": {
        "question",
        "alternative",
        "alternative_of",  # review 4: "greater" is of pB - pA, beside the interval's pA - pB
        "claim",  # what a rejection shows, as a code of pA and pB
        "margin",
        "test",
        "method",  # the codes of the test (and of the exact test a cluster p is held at)
        "held_at",
        "statistic",
        "pvalue",
        "log10_pvalue",
        "alpha",
        "reject",
        "estimate",
        "boundary_size",  # issue 31d: Tango's exact size where one system never beats the other
        "zero_test",  # review 4 N1: the one-sided test of no difference beside a margin's interval
        "interval",
        "sentence",
    },
    "posterior": {
        "probability_B_better",
        "probability_A_better",
        "log10_probability_B_better",
        "log10_probability_A_better",
        "prior",
    },
}


def _strict_json(result: Analysis) -> dict:
    def refuse(constant):
        raise ValueError(f"non-standard JSON constant {constant}")

    text = json.dumps(json_of(result), allow_nan=False)
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    "table", [(60, 15, 5, 20), (0, 0, 0, 1), (5, 0, 0, 5), (0, 0, 5000, 0), (10**9,) * 4]
)
def test_to_dict_has_exactly_the_contract_shape_and_parses_strictly(table):
    data = _strict_json(analyze(*table))
    assert set(data) == set(EXPECTED_SHAPE) | {"report", "reconciliation", "probability_B_better"}
    assert set(data["decision"]["interval"]) == {"low", "high", "level", "method", "of"}
    assert 0.0 <= data["probability_B_better"] <= 1.0
    for key, fields in EXPECTED_SHAPE.items():
        assert set(data[key]) == fields, key
    assert isinstance(data["report"], str) and data["report"]


def test_seed_page_figures():
    # calculator-page.txt with its default state: 60, 15, 5, 20; 6 gates at alpha 0.05.
    data = json_of(analyze(60, 15, 5, 20, gates=6, alpha=0.05))
    assert data["table"] == {"a": 60, "b": 15, "c": 5, "d": 20, "n": 100, "discordant": 20}
    assert data["pass_rate"] == {"A": 0.75, "B": 0.65}
    assert round(100 * data["difference"]["estimate"], 1) == 10.0
    assert round(100 * data["difference"]["low"], 1) == 1.2
    assert round(100 * data["difference"]["high"], 1) == 18.4
    assert round(data["mcnemar_chi2"]["statistic"], 2) == 5.00
    assert round(data["mcnemar_chi2"]["pvalue"], 3) == 0.025
    assert round(data["mcnemar_exact"]["pvalue"], 3) == 0.041
    assert round(data["unpaired_z"]["pvalue"], 3) == 0.123
    assert round(100 * data["gates"]["false_alarm"], 1) == 26.5
    assert round(data["gates"]["bonferroni_alpha"], 4) == 0.0083
    assert round(data["gates"]["sidak_alpha"], 4) == 0.0085


def test_chi2_is_null_without_discordant_pairs():
    data = _strict_json(analyze(5, 0, 0, 5))
    assert data["mcnemar_chi2"]["statistic"] is None
    assert data["mcnemar_chi2"]["pvalue"] == 1.0
    assert data["mcnemar_exact"]["pvalue"] == 1.0
    assert "agree on every case" in data["report"]


def test_tiny_pvalues_keep_their_log10_and_the_report_never_says_zero():
    result = analyze(0, 0, 5000, 0)
    assert round(result.exact.log10_pvalue, 2) == -1504.85
    assert "p < 1e-300 (log10 p = -1504.85)" in text(result)
    assert "p = 0" not in text(result)


def test_report_states_every_convention():
    report = text(
        analyze(60, 15, 5, 20, level=0.9, ci_method="newcombe", correction=True, convention="mid-p")
    )
    for phrase in ("90% CI", "Newcombe", "mid-p", "with continuity correction", "20 cases"):
        assert phrase in report


def test_report_uses_the_names_and_the_framing_without_changing_numbers():
    passing = analyze(72, 6, 14, 8, names=("old model", "new model"))
    correct = analyze(72, 6, 14, 8, names=("old model", "new model"), framing="correct")
    assert "old model passes 78 of 100" in text(passing)
    # Seed tutorial: error rates 0.22 vs 0.14, difference 0.08.
    assert "old model is wrong on 22 of 100 cases (error rate 22.0%)" in text(correct)
    assert "error-rate difference old model − new model of +8.0 points" in text(correct)
    words_only = {"report": ""}
    passing_numbers, correct_numbers = (
        json_of(passing) | words_only,
        json_of(correct) | words_only,
    )
    for numbers in (passing_numbers, correct_numbers):
        numbers["decision"] = numbers["decision"] | {"sentence": ""}
    assert passing_numbers == correct_numbers


def test_gates_sentence_mentions_correlation():
    report = text(analyze(60, 15, 5, 20, gates=6, rho=0.5))
    assert "6 correlated (ρ = 0.5) release gates" in report
    assert "gates" not in text(analyze(60, 15, 5, 20, gates=1))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"level": 0}, ValueError, "`level`"),
        ({"ci_method": "exact"}, ValueError, "`method` must be one of"),
        ({"convention": "central"}, ValueError, "`convention`"),
        ({"gates": 0}, ValueError, "`gates`"),
        ({"alpha": 2}, ValueError, "`alpha`"),
        ({"rho": 1.5}, ValueError, "`rho`"),
        ({"framing": "errors"}, ValueError, "`framing`"),
        ({"names": ("A",)}, TypeError, "`names` must be a pair"),
        ({"names": ("A", "")}, ValueError, "name of system B"),
        ({"names": ("A", 3)}, TypeError, "name of system B"),
    ],
)
def test_analyze_validates_every_option(kwargs, error, match):
    with pytest.raises(error, match=match):
        analyze(60, 15, 5, 20, **kwargs)


def test_analyze_refuses_an_empty_table():
    with pytest.raises(ValueError, match="empty"):
        analyze(0, 0, 0, 0)


@pytest.mark.parametrize(
    "table", [(0, 0, 0, 1), (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (10**9,) * 4, (3, 7, 7, 3)]
)
@pytest.mark.parametrize("level", [0.5, 0.999])
def test_extremes_give_finite_results(table, level):
    data = json_of(analyze(*table, level=level, gates=10_000))
    numbers = [
        v
        for section in data.values()
        if isinstance(section, dict)
        for v in section.values()
        if isinstance(v, float)
    ]
    assert all(math.isfinite(v) for v in numbers)


def test_repr_is_readable():
    text = repr(analyze(60, 15, 5, 20))
    assert text.startswith("Analysis(a=60, b=15, c=5, d=20;")
    assert "exact p=0.04139" in text


def test_result_is_frozen():
    result = analyze(60, 15, 5, 20)
    with pytest.raises(AttributeError):
        result.convention = "changed"  # type: ignore[misc]
