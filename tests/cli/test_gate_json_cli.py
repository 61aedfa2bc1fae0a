"""``cases --fail-if-worse --json`` writes the gate's verdict (statistics 4, C4; round 3's C4).

Before: the JSON had no "gate" key, only the exit status, so a stored JSON lost the gate's result
and its test. Now every path that gates (a per-case pass/fail file, scores, harness logs as
pass/fail and as scores) writes one form, built by calculator.report.gate._gate_json:
verdict, fails, test, pvalue, pvalue_is_bound, alpha and the sentence the text prints.

Reference figures: the table 60, 15, 5, 20 has the exact two-sided McNemar p
2 * P(Bin(20, 1/2) <= 5) = 0.041389 (scipy.stats.binomtest(5, 20).pvalue); B lower on six
scores in six gives the exact sign-flip p 2/2^6 = 0.03125 (all 64 patterns enumerated).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from scipy.stats import binomtest

from calculator.cli import main

INSPECT = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "inspect"
KEYS = {"verdict", "fails", "test", "pvalue", "pvalue_is_bound", "alpha", "sentence"}


def table_file(tmp_path: Path) -> str:
    rows = [(1, 1)] * 60 + [(1, 0)] * 15 + [(0, 1)] * 5 + [(0, 0)] * 20
    path = tmp_path / "t60.csv"
    path.write_text("id,A,B\n" + "".join(f"c{i},{a},{b}\n" for i, (a, b) in enumerate(rows)))
    return str(path)


def scores_file(tmp_path: Path) -> str:
    a, b = [0.9, 0.8, 0.75, 1.0, 0.6, 0.7], [0.5, 0.4, 0.35, 0.6, 0.2, 0.3]
    path = tmp_path / "six.csv"
    path.write_text(
        "id,A,B\n" + "".join(f"c{i},{x},{y}\n" for i, (x, y) in enumerate(zip(a, b, strict=True)))
    )
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, json.loads(captured.out), captured.err


def gate_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    main(list(argv))
    [line] = [x for x in capsys.readouterr().out.splitlines() if x.startswith("gate      ")]
    return line.removeprefix("gate      ")


def test_a_pass_fail_file_writes_the_gate_its_test_and_p(tmp_path, capsys):
    argv = ["cases", table_file(tmp_path), "--id", "id", "--a", "A", "--b", "B", "--fail-if-worse"]
    status, document, _ = run(capsys, *argv, "--json")
    gate = document["gate"]
    assert status == 1 and set(gate) == KEYS
    assert gate["verdict"] == "fail" and gate["fails"] is True
    assert gate["test"] == "two-sided exact McNemar test"
    assert gate["pvalue"] == pytest.approx(binomtest(5, 20).pvalue, rel=1e-12)
    assert gate["alpha"] == 0.05 and gate["pvalue_is_bound"] is False
    assert gate["sentence"] == gate_text(capsys, *argv)


def test_a_margin_gate_gives_the_non_inferiority_test_and_its_level(tmp_path, capsys):
    argv = ["cases", table_file(tmp_path), "--id", "id", "--a", "A", "--b", "B"]
    status, document, _ = run(capsys, *argv, "--fail-if-worse", "--margin", "5pt", "--json")
    gate = document["gate"]
    assert status == 1 and gate["verdict"] == "fail"
    assert gate["test"] == "one-sided Tango score test of non-inferiority"
    assert gate["pvalue"] == document["decision"]["pvalue"] and gate["alpha"] == 0.05


def test_no_gate_key_without_the_gate(tmp_path, capsys):
    argv = ["cases", table_file(tmp_path), "--id", "id", "--a", "A", "--b", "B", "--json"]
    assert "gate" not in run(capsys, *argv)[1]


def test_scores_write_the_gate(tmp_path, capsys):
    argv = ["cases", scores_file(tmp_path), "--id", "id", "--a", "A", "--b", "B", "--fail-if-worse"]
    status, document, _ = run(capsys, *argv, "--json")
    gate = document["gate"]
    assert status == 1 and set(gate) == KEYS
    assert gate["verdict"] == "fail" and gate["test"] == "two-sided sign-flip permutation test"
    assert gate["pvalue"] == 2 / 2**6 and gate["alpha"] == 0.05
    assert gate["sentence"] == gate_text(capsys, *argv)


def test_a_monte_carlo_floor_above_alpha_is_written_undecided_with_its_bound(tmp_path, capsys):
    # 40 continuous differences, B lower on every one: Monte Carlo (more than 30 non-zero, off
    # any lattice), no pattern as extreme, so p <= 1/(R + 1) = 1/10,001, above alpha = 1e-5.
    path = tmp_path / "strong.csv"
    rows = [f"c{i},{0.5 + 0.01 * math.sqrt(i + 2):.12f},0.5" for i in range(40)]
    path.write_text("id,A,B\n" + "\n".join(rows) + "\n")
    argv = ["cases", str(path), "--id", "id", "--a", "A", "--b", "B", "--fail-if-worse"]
    status, document, err = run(capsys, *argv, "--alpha", "0.00001", "--json")
    gate = document["gate"]
    assert status == 2 and "not decided" in err
    assert gate["verdict"] == "undecided" and gate["fails"] is None
    assert gate["pvalue_is_bound"] is True and gate["pvalue"] == 1 / 10_001


def test_harness_logs_write_the_gate_as_pass_fail_and_as_scores(capsys):
    a, b = str(INSPECT / "mock-a-3epochs.eval"), str(INSPECT / "mock-b-3epochs.eval")
    status, document, _ = run(capsys, "cases", a, b, "--fail-if-worse", "--json")
    gate = document["gate"]
    assert status == 0 and set(gate) == KEYS and gate["verdict"] == "pass"
    assert gate["test"].startswith("two-sided cluster-robust score test")
    assert gate["sentence"] == gate_text(capsys, "cases", a, b, "--fail-if-worse")
    argv = ["cases", a, b, "--metric", "graded", "--fail-if-worse"]
    status, document, _ = run(capsys, *argv, "--json")
    gate = document["gate"]
    assert status == 0 and set(gate) == KEYS and gate["verdict"] == "pass"
    assert gate["pvalue"] == document["scores"]["permutation"]["pvalue"]
    assert gate["sentence"] == gate_text(capsys, *argv)
