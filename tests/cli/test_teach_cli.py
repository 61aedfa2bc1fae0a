"""`python -m calculator teach`: JSON shapes, text, and one-line errors with exit status 2.

Reference values come from the core functions, each checked against independent references in
tests/core/test_null_distribution.py, test_operating_characteristics.py and test_margin_sweep.py
(the exact test's size at m = 20 is 2 * 21700 / 2^20 from the binomial distribution; the seed
table 60, 15, 5, 20 has exact p 0.041 and unpaired p 0.123).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from calculator.cli import main
from calculator.teaching import operating_characteristics

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["teach", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_n_p10_p01_print_the_operating_characteristics_as_json(capsys) -> None:
    status, out, err = run(capsys, "--n", "100", "--p10", "0.15", "--p01", "0.05", "--json")
    assert (status, err) == (0, "")
    shape = json.loads(out)["operating_characteristics"]
    assert shape == json.loads(json.dumps(operating_characteristics(100, 0.15, 0.05).to_dict()))
    assert [t["test"] for t in shape["tests"]] == ["exact", "mid-p", "chi2", "chi2-corrected"]
    assert {"method", "name", "coverage", "mean_width", "note"} <= set(shape["intervals"][0])


def test_table_mode_has_all_three_instruments(capsys) -> None:
    status, out, _ = run(capsys, "--table", "60", "15", "5", "20", "--json")
    shape = json.loads(out)
    assert status == 0
    assert set(shape) == {"table", "null_distribution", "operating_characteristics", "margin_sweep"}
    null = shape["null_distribution"]
    assert (null["discordant"], null["statistic"], round(null["pvalue"], 3)) == (20, 15, 0.041)
    assert null["size"] == pytest.approx(2 * 21700 / 2**20)
    sweep = shape["margin_sweep"]
    assert sweep["a"][sweep["entered_index"]] == 60
    assert round(sweep["unpaired_pvalue"][0], 3) == 0.123
    oc = shape["operating_characteristics"]
    assert (oc["n"], oc["p10"], oc["p01"], oc["p11"]) == (100, 0.15, 0.05, 0.6)


def test_text_names_every_test_and_interval(capsys) -> None:
    status, out, _ = run(capsys, "--table", "60", "15", "5", "20")
    assert status == 0
    words = ("Binomial(20, 1/2)", "Mid-p (not an exact test)", "Chi-square, corrected")
    for word in (*words, "Wald", "<- entered"):
        assert word in out


def test_text_never_prints_an_underflowed_probability_as_zero(capsys) -> None:
    _, out, _ = run(capsys, "--table", "0", "0", "5000", "0")
    line = next(line for line in out.splitlines() if line.startswith("smallest p"))
    assert "10^-1504.8" in line  # log10(2 * 2^-5000) = -1504.85


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["--n", "100"], "missing --p10, --p01"),
        (["--n", "100", "--p10", "0.75", "--p01", "0.5"], "at most 1"),
        (["--n", "100000", "--p10", "0.1", "--p01", "0.1"], "20,000"),
        (["--n", "ten", "--p10", "0.1", "--p01", "0.1"], "--n"),
        (["--n", "10", "--p10", "nan", "--p01", "0.1"], "--p10"),
        (["--table", "1", "2", "3", "4", "--n", "5"], "not both"),
        (["--table", "0", "0", "0", "0"], "empty"),
        (["--table", "1", "2", "3"], "--table"),
        (["--table", "1", "2", "3", "4", "--points", "1"], "points"),
        (["--n", "10", "--p10", "0.1", "--p01", "0.1", "--alpha", "1.5"], "--alpha"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, arguments, fragment) -> None:
    status, out, err = run(capsys, *arguments)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err


def test_module_entry_point() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "calculator",
            "teach",
            "--n",
            "40",
            "--p10",
            "0.2",
            "--p01",
            "0.1",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["operating_characteristics"]["n"] == 40


def test_too_few_pairs_is_said_as_the_page_says_it(capsys) -> None:
    # 3 + 1 discordant pairs: even 4 to 0 gives p = 0.125 > 0.05, on the page and here alike.
    from calculator.report.caveats import unreachable_sentence
    from calculator.teaching import null_distribution
    from ui.teaching_words import null_summary

    status, out, _ = run(capsys, "--table", "40", "3", "1", "20")
    assert status == 0
    sentence = unreachable_sentence(4, 0.05)
    assert sentence in out
    assert sentence in null_summary(null_distribution(4, 3, alpha=0.05))
