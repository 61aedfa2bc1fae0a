"""`python -m calculator plan`: JSON shapes, text, and one-line errors with exit status 2.

Reference values come from calculator.planning, itself checked in tests/test_planning.py
(Connor 1987's example: p10 = 0.05, p01 = 0.45 -> Connor n = 23, exact n = 25).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from calculator.cli import main
from calculator.planning import exact_power

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["plan", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_power_mode_json_has_n_achieved_power_connor_and_flag(capsys) -> None:
    status, out, err = run(capsys, "--p10", "0.05", "--p01", "0.45", "--power", "0.8", "--json")
    assert (status, err) == (0, "")
    shape = json.loads(out)
    assert shape["n"] == 25 and shape["connor_n"] == 23 and shape["non_monotone"] is False
    assert shape["achieved_power"] == pytest.approx(exact_power(25, 0.05, 0.45))
    assert (shape["p10"], shape["p01"], shape["alpha"], shape["target_power"]) == (
        0.05,
        0.45,
        0.05,
        0.8,
    )


def test_default_target_is_80_percent_and_the_saw_tooth_is_flagged(capsys) -> None:
    status, out, _ = run(capsys, "--p10", "0.2", "--p01", "0.8", "--json")
    shape = json.loads(out)
    assert status == 0 and shape["target_power"] == 0.8
    assert (shape["n"], shape["non_monotone"], shape["stable_n"]) == (20, True, 23)


def test_n_mode_json_reports_the_power(capsys) -> None:
    status, out, _ = run(capsys, "--p10", "0.05", "--p01", "0.45", "--n", "20", "--json")
    shape = json.loads(out)
    assert status == 0 and shape["n"] == 20
    assert shape["power"] == pytest.approx(exact_power(20, 0.05, 0.45), abs=1e-12)


def test_rates_and_chi_square_options(capsys) -> None:
    status, out, _ = run(
        capsys,
        "--pass-rate-a", "0.8", "--difference", "0.03", "--disagreement", "0.1",
        "--test", "chi2", "--alpha", "0.01", "--json",
    )  # fmt: skip
    shape = json.loads(out)
    assert status == 0 and shape["test"] == "chi2" and shape["alpha"] == 0.01
    assert (shape["p10"], shape["p01"]) == pytest.approx((0.065, 0.035))
    assert shape["pass_rate_b"] == pytest.approx(0.77)


def test_text_output_gives_the_sentence_and_the_numbers(capsys) -> None:
    status, out, _ = run(capsys, "--p10", "0.2", "--p01", "0.8")
    assert status == 0
    assert "With 20 paired cases" in out
    assert "from 23 on it holds" in out
    assert "Connor (1987) n     20" in out


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        (["--p10", "0.7", "--p01", "0.5"], "`p10` + `p01` must be at most 1"),
        (["--p10", "-0.1", "--p01", "0.5"], "`p10` must be a number from 0 to 1"),
        (["--p10", "0.1", "--p01", "0.3", "--power", "1.5"], "`power` must be a number"),
        (["--p10", "0.1", "--p01", "0.3", "--alpha", "0"], "`alpha` must be a number"),
        (["--p10", "0.1", "--p01", "0.3", "--n", "0"], "`n` must be at least 1"),
        (["--p10", "0.1"], "`p01` is missing"),
        (["--p10", "x", "--p01", "0.3"], "invalid float value: 'x'"),
        (["--p10", "0.1", "--p01", "0.3", "--n", "10", "--power", "0.8"], "not allowed with"),
        (["--p10", "0.1", "--p01", "0.3", "--test", "wald"], "invalid choice: 'wald'"),
        (
            ["--pass-rate-a", "0.8", "--difference", "0.2", "--disagreement", "0.1"],
            "`difference` must be at most the share of disagreement",
        ),
        (["--p10", "0.2", "--p01", "0.2"], "`p10` and `p01` must differ"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, arguments: list[str], needle: str) -> None:
    status, out, err = run(capsys, *arguments)
    assert status == 2 and out == ""
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_module_entry_point() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "calculator", "plan", "--p10", "0.05", "--p01", "0.45", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert completed.returncode == 0 and json.loads(completed.stdout)["n"] == 25
    failed = subprocess.run(
        [sys.executable, "-m", "calculator", "plan", "--p10", "0.9", "--p01", "0.9"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert failed.returncode == 2 and len(failed.stderr.strip().splitlines()) == 1
