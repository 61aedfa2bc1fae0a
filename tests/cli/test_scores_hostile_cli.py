"""The release gate on score columns (issue 23, second round: traps in the release gate).

`cases --fail-if-worse --margin M` on pass/fail outcomes refuses a margin above 10 points (a gate
that lets B ship 30 points worse gates nothing); on score columns the same command took any
margin below 1, so `--margin 0.5` or `--margin 50pt` passed B with a mean score up to half the
scale worse than A. The scores here: A's and B's scores on 40 cases, B about 0.08 lower.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from calculator.cli import main

A = [0.1 * (k % 10) for k in range(40)]
B = [max(0.0, a - 0.08 * (k % 3)) for k, a in enumerate(A)]


def scores_file(tmp_path: Path) -> Path:
    path = tmp_path / "scores.csv"
    rows = [f"{k},{a:.2f},{b:.2f}" for k, (a, b) in enumerate(zip(A, B, strict=True))]
    path.write_text("id,a,b\n" + "\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("margin", ["0.5", "50pt", "0.11", "11pt"])
def test_a_gate_margin_above_ten_points_on_scores_is_refused(
    margin: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["cases", str(scores_file(tmp_path)), "--fail-if-worse", "--margin", margin])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "more than the 10 points a release gate takes" in err


@pytest.mark.parametrize("margin", ["0.05", "5pt", "10pt"])
def test_a_gate_margin_within_ten_points_on_scores_is_taken(
    margin: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["cases", str(scores_file(tmp_path)), "--fail-if-worse", "--margin", margin])
    out = capsys.readouterr().out
    assert status in (0, 1) and "gate      " in out and "non-inferior" in out
