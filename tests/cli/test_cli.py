"""`python -m calculator table`: output, JSON, and one-line errors with exit status 2."""

import json
import subprocess
import sys

import pytest

from calculator.cli import main


def test_table_prints_the_report(capsys):
    assert main(["table", "60", "15", "5", "20", "--gates", "6"]) == 0
    out = capsys.readouterr().out
    assert "A passes 75 of 100 cases" in out
    assert "exact McNemar p     0.041" in out
    assert "26.5%" in out


def test_table_json_is_the_analyze_shape(capsys):
    assert main(["table", "0", "0", "0", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(c))
    assert data["mcnemar_chi2"]["statistic"] is None
    assert data["table"]["n"] == 7


def test_options_reach_analyze(capsys):
    args = [
        "table",
        "59",
        "6",
        "16",
        "80",
        "--level",
        "0.9",
        "--ci-method",
        "tango",
        "--correction",
        "--convention",
        "mid-p",
        "--gates",
        "3",
        "--alpha",
        "0.01",
        "--rho",
        "0.2",
        "--json",
    ]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["difference"]["method"] == "tango" and data["difference"]["level"] == 0.9
    assert data["mcnemar_chi2"]["continuity_correction"] is True
    assert data["mcnemar_exact"]["convention"] == "mid-p"
    assert data["gates"] == pytest.approx({**data["gates"], "count": 3, "alpha": 0.01, "rho": 0.2})


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["table", "60", "-15", "5", "20"], "`b` must be a non-negative integer, but got -15"),
        (["table", "60", "1.5", "5", "20"], "b must be a non-negative integer, but got '1.5'"),
        (["table", "60", "15", "5"], "required: D"),
        (["table", "1", "2", "3", "4", "--ci-method", "exact"], "invalid choice: 'exact'"),
        (["table", "1", "2", "3", "4", "--level", "1.2"], "`level` must be a number strictly"),
        (["table", "1", "2", "3", "4", "--level", "nan"], "`level`"),
        (["table", "1", "2", "3", "4", "--gates", "0"], "`gates`"),
        (["table", "0", "0", "0", "0"], "empty"),
        (["tables"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, args, fragment):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert fragment in captured.err
    assert captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


def test_module_entry_point_exit_status_and_streams():
    ok = subprocess.run(
        [sys.executable, "-m", "calculator", "table", "70", "4", "12", "14", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and ok.stderr == ""
    assert round(json.loads(ok.stdout)["mcnemar_exact"]["pvalue"], 3) == 0.077
    bad = subprocess.run(
        [sys.executable, "-m", "calculator", "table", "a", "4", "12", "14"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().count("\n") == 0 and "a must be a non-negative integer" in bad.stderr


def test_import_calculator_pulls_in_no_user_interface_or_pandas():
    code = (
        "import sys, calculator; "
        "print(sorted(m for m in ('streamlit', 'altair', 'pandas') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
