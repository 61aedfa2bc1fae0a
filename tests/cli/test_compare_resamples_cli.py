"""``compare --resamples``: the Monte Carlo resamples of Cochran's permutation p, validated and
bounded; the text writes a p at its floor as a bound.

Expected figures: the 24 x 20 file is a 1.1 kB wide file that once took 55 s; the floor data have
p about 3^-60, so no resample reaches them and the Monte Carlo p is 1/(R + 1) (Phipson & Smyth
2010).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from calculator.cli import main
from calculator.compare.cochran import MAX_RESAMPLES


def wide(tmp_path, rows) -> str:
    k = len(rows[0])
    lines = ["id," + ",".join(f"s{j}" for j in range(k))]
    lines += [f"c{i}," + ",".join(str(int(v)) for v in row) for i, row in enumerate(rows)]
    path = tmp_path / "wide.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def systems(k: int) -> str:
    return ",".join(f"s{j}" for j in range(k))


def test_resamples_reach_the_monte_carlo(tmp_path, capsys):
    rows = np.random.default_rng(1).random((20, 24)) < 0.5
    path = wide(tmp_path, rows.tolist())
    argv = ["compare", path, "--id", "id", "--systems", systems(24), "--json"]
    assert main([*argv, "--resamples", "499"]) == 0
    cochran = json.loads(capsys.readouterr().out)["cochran"]
    assert cochran["method"] == "monte-carlo" and cochran["resamples"] == 499
    assert main(argv) == 0  # the default
    assert json.loads(capsys.readouterr().out)["cochran"]["resamples"] == 9_999
    assert main([*argv, "--resamples", "0"]) == 0  # no Monte Carlo: the chi-square p decides
    assert json.loads(capsys.readouterr().out)["cochran"]["method"] == "none"


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (str(MAX_RESAMPLES + 1), "`resamples` must be a non-negative integer of at most 1,000,000"),
        ("-5", "`resamples` must be a non-negative integer"),
        ("many", "--resamples must be a non-negative integer, but got 'many'"),
        ("9" * 400, "--resamples must be a non-negative integer of at most 1,000,000"),
    ],
)
def test_bad_resamples_are_refused_in_one_line(tmp_path, capsys, value, words):
    path = wide(tmp_path, [[1, 0, 0], [0, 1, 0], [1, 1, 0]])
    status = main(["compare", path, "--id", "id", "--systems", systems(3), "--resamples", value])
    err = capsys.readouterr().err
    assert status == 2 and words in err and err.count("\n") == 1


def test_a_pvalue_at_the_floor_prints_as_a_bound(tmp_path, capsys, monkeypatch):
    from calculator.compare import cochran

    monkeypatch.setattr(cochran, "MAX_EXACT_STEPS", 0)
    path = wide(tmp_path, [[1, 0, 0]] * 60 + [[0, 1, 1]] * 2)
    argv = ["compare", path, "--id", "id", "--systems", systems(3), "--resamples", "99"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "permutation p ≤ 1/100 (Monte Carlo: none of 99 resamples" in out
    assert main([*argv, "--alpha", "0.001"]) == 0
    out = capsys.readouterr().out
    assert "cannot tell whether p ≤ α = 0.001" in out


def test_a_permutation_p_left_out_says_whether_resamples_were_asked_for(tmp_path, capsys):
    # Hostile review 4 (U4): with --resamples 1000000 over the draw budget the text said the
    # sampling "was not asked for or would exceed the limit"; now it says which. 40 systems on
    # 30 cases (the review's mc40.csv) are too many to enumerate.
    rng = np.random.default_rng(3)
    path = wide(tmp_path, rng.random((30, 40)) < 0.5)
    for resamples, words in (
        ("1000000", "drawing 1,000,000 random ones would exceed the limit on the work"),
        ("0", "no random ones were asked for"),
    ):
        assert main(["compare", path, "--id", "id", "--resamples", resamples]) == 0
        out = capsys.readouterr().out
        assert f"its arrangements are too many to enumerate, and {words}" in out
        assert "not asked for or would exceed" not in out
