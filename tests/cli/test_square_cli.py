"""`python -m calculator square` (k x k tables) and the "unconditional" key of `table --json`.

Reference values: R package contingencytables 3.0.0, tests/testthat/test-ch9.R and test-ch8.R
(checked in full, with their calls, in tests/core/test_square.py and test_unconditional.py):
Peterson et al. (2007)'s 4 x 4 table gives Bowker 26.250 on 6 df, P = 0.000200; Stuart 26.250
on 3 df, P = 0.000008; Bhapkar 27.304, P = 0.000005; the 2 x 2 table (5, 0, 1, 8) gives the
exact unconditional P = 0.542071 on contingencytables' grid (0.542072 refined).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from calculator.cli import main
from calculator.unconditional import MAX_UNCONDITIONAL_N

ROOT = Path(__file__).resolve().parents[2]
PETERSON = "596 18 6 5; 0 2 0 0; 0 0 42 0; 11 0 0 0"


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(list(arguments))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_table_json_reproduces_contingencytables(capsys):
    status, out, err = run(capsys, "square", "--table", PETERSON, "--json")
    assert status == 0 and err == ""
    payload = json.loads(out)
    bowker, stuart, bhapkar = payload["bowker"], payload["stuart_maxwell"], payload["bhapkar"]
    assert (round(bowker["statistic"], 3), bowker["df"], round(bowker["pvalue"], 6)) == (
        26.25,
        6,
        0.0002,
    )
    assert (round(stuart["statistic"], 3), stuart["df"], round(stuart["pvalue"], 6)) == (
        26.25,
        3,
        8e-06,
    )
    assert (round(bhapkar["statistic"], 3), round(bhapkar["pvalue"], 6)) == (27.304, 5e-06)
    assert payload["empty_pairs"] == "every-pair"
    assert payload["report"].splitlines()[0].startswith("A and B put the same 680 cases")


def test_non_empty_pairs_give_three_df(capsys):
    status, out, _ = run(
        capsys, "square", "--table", PETERSON, "--empty-pairs", "non-empty", "--json"
    )
    assert status == 0 and json.loads(out)["bowker"]["df"] == 3


def test_text_report_names_each_test_and_category(capsys):
    status, out, _ = run(capsys, "square", "--table", PETERSON, "--labels", "S,I,R,NA")
    assert status == 0
    assert "chi-square 26.250 on 6 df (all 6 pairs of categories counted" in out
    assert "Stuart-Maxwell chi-square 26.250 on 3 df" in out
    assert "Bhapkar's version chi-square 27.304" in out
    assert "  NA: A 1.6%, B 0.7%, difference +0.9 points (-0.6 to +2.3)" in out


def test_a_per_case_file_with_two_label_columns(capsys, tmp_path):
    path = tmp_path / "cases.csv"
    # B never says "high": the category stays, with B's total 0.
    path.write_text("id,a,b\n1,low,low\n2,mid,low\n3,high,mid\n4,mid,mid\n5,low,mid\n")
    status, out, _ = run(
        capsys,
        "square",
        "--file",
        str(path),
        "--a",
        "a",
        "--b",
        "b",
        "--categories",
        "low,mid,high",
        "--ordered",
        "--json",
    )
    assert status == 0
    payload = json.loads(out)
    assert payload["table"]["labels"] == ["low", "mid", "high"]
    assert payload["table"]["counts"] == [[1, 1, 0], [1, 1, 0], [0, 1, 0]]
    assert payload["ordinal"]["scores"] == [1.0, 2.0, 3.0]


REFUSALS = [
    (["--table", "1 2 3; 4 5 6"], "error: `table` must be a square table of counts with 2 to 10"),
    (["--table", "1 -2; 3 4"], "error: `table row 1, column 2` must be a non-negative integer"),
    (["--table", "1 2.5; 3 4"], "but got 2.5."),
    (["--table", "1 two; 3 4"], "error: `--table` must hold whole-number counts"),
    (["--table", "; ".join(["0 " * 11] * 11)], "with 2 to 10 categories"),
    (["--table", "1 2; 3 4", "--labels", "x,x"], "error: `labels` must be 2 distinct"),
    (["--table", "1 2; 3 4", "--scores", "1,x"], "error: `--scores` must be numbers"),
    (["--table", "1 2; 3 4", "--a", "x"], "error: --a, --b, --id and --categories go with --file"),
]


@pytest.mark.parametrize(("arguments", "words"), REFUSALS)
def test_bad_input_is_one_line_exit_two(capsys, arguments, words):
    status, out, err = run(capsys, "square", *arguments)
    assert status == 2 and out == ""
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_file_refusals_name_the_file_the_column_and_what_is_allowed(capsys, tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text("id,a,b\n1,x,y\n2,,y\n")
    status, _, err = run(capsys, "square", "--file", str(path), "--a", "a", "--b", "c")
    assert status == 2
    assert "cases.csv: no column 'c' for B's labels; the columns are id, a, b." in err
    many = tmp_path / "many.csv"
    many.write_text("a,b\n" + "".join(f"{i},{i}\n" for i in range(11)))
    status, _, err = run(capsys, "square", "--file", str(many), "--a", "a", "--b", "b")
    assert status == 2 and "many.csv: the labels in 'a' and 'b' must form 2 to 10" in err
    assert "but got 11: '0', '1', '10', '2'," in err


def test_the_installed_module_runs_square_without_a_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "square", "--table", "1 2; x 4"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2 and done.stderr.startswith("error: ")
    assert "Traceback" not in done.stderr


# --- table --json: the exact unconditional test, or its refusal said by name.
def test_table_json_has_the_unconditional_test(capsys):
    status, out, _ = run(capsys, "table", "5", "0", "1", "8", "--json")
    assert status == 0
    unconditional = json.loads(out)["unconditional"]
    assert unconditional["pvalue"] == pytest.approx(0.542071, abs=2e-6)
    assert unconditional["gamma"] == 0.0001
    assert unconditional["sentence"].startswith("McNemar's exact unconditional test")


def test_table_json_refuses_the_unconditional_test_by_name_beyond_its_bound(capsys):
    status, out, _ = run(capsys, "table", str(MAX_UNCONDITIONAL_N), "1", "0", "0", "--json")
    assert status == 0
    unconditional = json.loads(out)["unconditional"]
    assert list(unconditional) == ["refused"]
    assert unconditional["refused"].startswith(
        f"`n` must be at most {MAX_UNCONDITIONAL_N:,} cases for the exact unconditional test"
    )


def test_table_text_has_the_unconditional_line_as_the_json_words_it(capsys):
    status, out, _ = run(capsys, "table", "5", "0", "1", "8")
    assert status == 0
    (line,) = [line for line in out.splitlines() if line.startswith("unconditional p")]
    assert line.startswith("unconditional p     0.542 (two-sided, Suissa-Shuster: the largest tail")
    assert "from 0.0004% to 60.5%, with Berger-Boos γ = 0.0001 added)" in line
    status, out, _ = run(capsys, "table", str(MAX_UNCONDITIONAL_N), "1", "0", "0")
    (line,) = [line for line in out.splitlines() if line.startswith("unconditional p")]
    assert line.startswith("unconditional p     not computed: `n` must be at most")


@pytest.mark.parametrize("cells", [(5, 0, 1, 8), (900, 0, 1, 99), (10, 3, 9, 2)])
def test_the_search_range_never_prints_a_nonzero_end_as_zero(capsys, cells):
    status, out, _ = run(capsys, "table", *map(str, cells), "--json")
    unconditional = json.loads(out)["unconditional"]
    sentence = unconditional["sentence"]
    low = sentence.split("interval, from ")[1].split("%")[0]
    assert unconditional["nuisance_low"] > 0 and float(low) > 0
    assert "gamma" not in sentence and "γ = 0.0001" in sentence
