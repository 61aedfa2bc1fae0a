"""``table``'s anytime-valid test (issue 34): the "anytime" key of its JSON, its two text lines
and its sentence, which says what the test buys and what it costs.

Figures: b = 35, c = 15 gives E = 2^50 B(36, 16) = 9.808 (exact rationals and mpmath in
tests/core/test_anytime.py), an anytime-valid p of 0.102 against the exact McNemar test's 0.0066.
"""

from __future__ import annotations

import json

import pytest

from calculator import analyze
from calculator.anytime import anytime_analysis
from calculator.cli import main
from calculator.cli.table import anytime_of
from calculator.report.words import payload, text


def run_json(capsys, *arguments: str) -> dict:
    assert main(["table", *arguments, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_json_holds_the_e_value_the_p_the_prior_and_the_sequence(capsys):
    anytime = run_json(capsys, "10", "35", "15", "40")["anytime"]
    assert anytime["evalue"] == pytest.approx(9.808147629499, rel=1e-10)
    assert anytime["log10_evalue"] == pytest.approx(0.991586994102, rel=1e-10)
    assert anytime["pvalue"] == pytest.approx(1 / 9.808147629499, rel=1e-10)
    assert (anytime["prior_shape"], anytime["alternative"], anytime["running"]) == (
        1.0,
        "two-sided",
        False,
    )
    sequence = anytime["confidence_sequence"]
    assert sequence["low"] < sequence["fixed_low"] < 0.7 < sequence["fixed_high"] < sequence["high"]
    assert sequence["difference_low"] < 0.2 < sequence["difference_high"]
    assert anytime["fixed_n_pvalue"] == pytest.approx(0.0066, abs=5e-5)
    assert "stop whenever you like" in anytime["sentence"]
    assert "The price is a larger p at a fixed number of cases" in anytime["sentence"]
    assert "uniform (Beta(1, 1)) mixture" in anytime["sentence"]


def test_the_prior_is_named_and_a_one_sided_question_gets_the_one_sided_mixture(capsys):
    anytime = run_json(
        capsys, "10", "15", "35", "40", "--anytime-prior", "0.5", "--alternative", "greater"
    )["anytime"]
    assert (anytime["prior_shape"], anytime["alternative"]) == (0.5, "greater")
    assert "Beta(0.5, 0.5) mixture restricted to B-favouring splits" in anytime["sentence"]
    expected = anytime_analysis(15, 35, n=100, alternative="greater", prior_shape=0.5)
    assert anytime["pvalue"] == expected.test.pvalue


def test_a_margin_question_keeps_the_two_sided_test_of_no_difference():
    result = analyze(10, 15, 35, 40, margin=0.02)
    assert anytime_of(result).test.alternative == "two-sided"


def test_the_text_lists_the_anytime_p_and_the_sequence(capsys):
    assert main(["table", "10", "35", "15", "40"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == (
        "anytime-valid p     0.102 (e-value 9.81, the uniform (Beta(1, 1)) mixture; valid under "
        "any stopping rule)"
    )
    assert lines[-1] == (
        "confidence sequence 48.3% to 86.9% of disagreements favour A (95%, every n; fixed-n "
        "55.4% to 82.1%)"
    )


def test_a_prior_out_of_range_is_refused_by_name(capsys):
    assert main(["table", "10", "35", "15", "40", "--anytime-prior", "0"]) == 2
    assert "--anytime-prior must be a number from 1e-06 to 1e+06" in capsys.readouterr().err


def test_no_discordant_pairs_say_so():
    result = anytime_analysis(0, 0, n=7)
    assert "no discordant pairs the e-value is 1" in text(result)
    json.dumps(payload(result), allow_nan=False)


def test_an_e_value_beyond_the_doubles_reads_as_a_power_of_ten():
    result = anytime_analysis(0, 10**6, n=10**6)
    assert result.test.evalue is None
    assert "E = 10^301024.00" in text(result)
    json.dumps(payload(result), allow_nan=False)
