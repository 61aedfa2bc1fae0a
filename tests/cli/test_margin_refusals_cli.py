"""Margin refusals quote the margin as typed (hostile review 4, U1).

Before: ``--margin 10.5pt --fail-if-worse`` was refused as "--margin 0.105 lets the gate pass B up
to 10.5 points ...; for 0.105 points write --margin 0.105pt" (the user wrote points, and the
suggestion means something else); ``--margin 0.1000001`` read "up to 10 points worse than A, more
than the 10 points a release gate takes" (:g rounds 10.00001 to 10); ``--margin 60pt`` suggested
"--margin 60ptpt"; and these lines had no "error:" prefix. 0.1000001 as a share is 10.00001 points
(100 x 0.1000001, printed to 10 significant figures).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from calculator.cli import main


def worse(tmp_path: Path) -> str:
    """200 cases: A passes 70%, B 50% (rows i with i mod 10 below 7, below 5)."""
    rows = [f"{i},{int(i % 10 < 7)},{int(i % 10 < 5)}" for i in range(1, 201)]
    path = tmp_path / "worse.csv"
    path.write_text("id,old,new\n" + "\n".join(rows) + "\n")
    return str(path)


@pytest.mark.parametrize(
    ("margin", "expected"),
    [
        (
            "10.5pt",
            "error: --margin 10.5pt lets the gate pass B up to 10.5 points worse than A, more "
            "than the 10 points a release gate takes\n",
        ),
        (
            "10.5%",
            "error: --margin 10.5% lets the gate pass B up to 10.5 points worse than A, more "
            "than the 10 points a release gate takes\n",
        ),
        (
            "0.1000001",
            "error: --margin 0.1000001 lets the gate pass B up to 10.00001 points worse than A, "
            "more than the 10 points a release gate takes; a bare number is a share (0.01 is "
            "one point): for 0.1000001 points write --margin 0.1000001pt\n",
        ),
    ],
)
def test_a_gate_margin_refusal_quotes_the_margin_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], margin: str, expected: str
) -> None:
    argv = ["cases", worse(tmp_path), "--id", "id", "--a", "old", "--b", "new"]
    assert main([*argv, "--fail-if-worse", "--margin", margin]) == 2
    assert capsys.readouterr().err == expected


@pytest.mark.parametrize("command", [["table", "10", "5", "20", "30"], ["cases"]])
def test_a_margin_over_50_points_is_quoted_with_its_digits_and_no_doubled_unit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    if command == ["cases"]:
        command = ["cases", worse(tmp_path), "--id", "id", "--a", "old", "--b", "new"]
    assert main([*command, "--margin", "60pt"]) == 2
    err = capsys.readouterr().err
    assert err.endswith(
        "argument --margin: --margin 60pt is 60 points of pass rate, above the largest margin "
        "of 50 points\n"
    )
    assert main([*command, "--margin", "0.5000001"]) == 2
    assert "is 50.00001 points of pass rate" in capsys.readouterr().err


def test_refusals_made_after_parsing_begin_with_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "10", "5", "20", "30", "--equivalence"]) == 2
    assert capsys.readouterr().err.startswith("error: --equivalence needs --margin")
    assert main(["table", "10", "5", "20"]) == 2  # argparse's own: named by the command
    assert capsys.readouterr().err.startswith("python -m calculator table: ")
