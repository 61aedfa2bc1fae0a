"""The release gate's margin on score columns, in the scores' own units.

Issue 23's second round found that `cases --fail-if-worse --margin M` on score columns took any
margin below 1, so `--margin 0.5` passed B with a mean score up to half the scale worse than A;
the fix bounded it as the pass/fail gate's, at 10 points (0.10). But a margin on scores is in
the scores' units, not a share of pass rate: on BLEU (0-100) `--margin 2` was refused and
`--margin 2pt` silently meant 0.02 BLEU. Now a score margin is a plain number in the scores'
units, a unit (pt, %, points) is refused, and the gate's margin is at most half the range the
scores span (a margin of the whole range asks nothing of B: B's mean cannot fall further below
A's). The scores here: A's and B's scores on 40 cases from 0 to 0.9, B about 0.08 lower.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculator.cli import main
from calculator.report.words import payload as json_of

A = [0.1 * (k % 10) for k in range(40)]
B = [max(0.0, a - 0.08 * (k % 3)) for k, a in enumerate(A)]


def scores_file(tmp_path: Path, scale: float = 1.0, name: str = "scores.csv") -> Path:
    path = tmp_path / name
    rows = [
        f"{k},{scale * a:.2f},{scale * b:.2f}" for k, (a, b) in enumerate(zip(A, B, strict=True))
    ]
    path.write_text("id,a,b\n" + "\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("margin", ["0.5", "0.46", "1", "2"])
def test_a_gate_margin_above_half_the_range_of_the_scores_is_refused(
    margin: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The scores span 0 to 0.9: half the range is 0.45.
    status = main(["cases", str(scores_file(tmp_path)), "--fail-if-worse", "--margin", margin])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert "more than half the range the scores span (0 to 0.9, so at most 0.45)" in err


@pytest.mark.parametrize("margin", ["0.05", "0.11", "0.45"])
def test_a_gate_margin_within_half_the_range_is_taken(
    margin: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["cases", str(scores_file(tmp_path)), "--fail-if-worse", "--margin", margin])
    out = capsys.readouterr().out
    assert status in (0, 1) and "gate      " in out and "non-inferior" in out


@pytest.mark.parametrize("margin", ["2pt", "50pt", "5%", "2 points", "1pp"])
@pytest.mark.parametrize("gate", [[], ["--fail-if-worse"]])
def test_a_margin_with_a_pass_rate_unit_is_refused_on_scores(
    margin: str, gate: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before, "2pt" was read as 0.02 in the scores' units, whatever their scale.
    status = main(["cases", str(scores_file(tmp_path, 100)), *gate, "--margin", margin])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "on scores the margin is a plain number in the scores' own units" in err


def test_a_bleu_margin_above_one_is_taken_in_the_scores_units(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # BLEU-like scores from 0 to 90: a 2-BLEU margin was refused as "not below 1" before.
    path = scores_file(tmp_path, 100)
    status = main(["cases", str(path), "--margin", "2", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert status == 0 and payload["analysed_as"] == "scores"
    assert payload["scores"]["margin"]["margin"] == 2.0  # in the scores' units, as given
    status = main(["cases", str(path), "--fail-if-worse", "--margin", "2"])
    out = capsys.readouterr().out
    assert status in (0, 1) and "at a margin of 2 " in out


def test_a_margin_on_scores_equals_the_librarys_at_that_margin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from calculator import compare_scores

    path = scores_file(tmp_path, 100)
    main(["cases", str(path), "--margin", "12.5", "--json"])
    payload = json.loads(capsys.readouterr().out)
    a = [round(100 * x, 2) for x in A]
    b = [round(100 * x, 2) for x in B]
    # --alpha 0.05 with a margin: the t interval at 1 - 2 alpha, as the command's help says.
    expected = compare_scores(a, b, margin=12.5, level=0.90, names=("a", "b"))
    assert payload["scores"]["margin"] == json.loads(json.dumps(json_of(expected.margin)))


@pytest.mark.parametrize("margin", ["0", "-1", "nan", "inf", "1e400", "two"])
def test_a_margin_on_scores_that_is_no_positive_number_is_refused(
    margin: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["cases", str(scores_file(tmp_path, 100)), f"--margin={margin}"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "--margin must be a positive finite number in the scores' own units" in err


def test_a_gate_margin_on_scores_that_are_all_equal_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "equal.csv"
    path.write_text("id,a,b\n" + "".join(f"{k},0.5,0.5\n" for k in range(10)) + "2x,,\n")
    status = main(["cases", str(path), "--a", "a", "--b", "b", "--fail-if-worse", "--margin", "1"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "every score is 0.5" in err


def test_pass_fail_margins_are_read_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same option on pass/fail outcomes: a share, or points with their unit; "2" refused
    # in argparse's own words.
    path = tmp_path / "pf.csv"
    path.write_text("id,a,b\n" + "".join(f"{k},{k % 2},{(k // 2) % 2}\n" for k in range(60)))
    status = main(["cases", str(path), "--margin", "2"])
    err = capsys.readouterr().err
    assert status == 2
    assert err == (
        "python -m calculator cases: argument --margin: --margin must be a number strictly "
        "between 0 and 1, but got '2'\n"
    )
    main(["cases", str(path), "--margin", "2pt", "--json"])
    points = json.loads(capsys.readouterr().out)
    main(["cases", str(path), "--margin", "0.02", "--json"])
    share = json.loads(capsys.readouterr().out)
    assert points["decision"] == share["decision"] and share["decision"]["margin"] == 0.02


def test_a_margin_with_a_unit_on_a_graded_log_metric_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Graded harness-log metrics are compared as scores too: "2pt" meant 0.02 there as well.
    mock = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "inspect"
    logs = [str(mock / name) for name in ("mock-a-3epochs.eval", "mock-b-3epochs.eval")]
    status = main(["cases", *logs, "--metric", "graded", "--margin", "2pt"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "on scores the margin is a plain number in the scores' own units" in err
    status = main(["cases", *logs, "--metric", "graded", "--margin", "0.05", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert status == 0 and payload["scores"]["margin"]["margin"] == 0.05
