"""A Monte Carlo sign-flip p at its floor is a bound and decides nothing below it (review 4, A2).

Reference: with R random sign patterns and k as extreme as the data, the Monte Carlo p is
(k + 1)/(R + 1) (Phipson & Smyth 2010, Stat Appl Genet Mol Biol 9:39;
``scipy.stats.permutation_test`` computes the same). With k = 0 all it shows is
p <= 1/(R + 1): at alpha = 1e-5 and R = 10,000 the gate cannot be decided (1/10,001 > 1e-5);
R = 99,999 puts the floor at 1/100,000 = 1e-5, which can. The data: 100 continuous paired
scores, B lower by about 0.045 with a spread of 0.02, so scipy.stats.ttest_rel gives t > 15 and
no random sign pattern comes near the observed sum.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calculator import compare_scores
from calculator.cli import main
from calculator.errors import CalculatorError
from calculator.release import scores_gate_fails, scores_gate_undecided
from calculator.report.words import text


def strong_scores() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(20261204)
    a = rng.uniform(0.3, 0.9, 100)
    b = a - 0.045 + rng.normal(0.0, 0.02, 100)
    return a, b


def strong_file(tmp_path: Path) -> str:
    a, b = strong_scores()
    path = tmp_path / "strong.csv"
    rows = [f"c{i},{float(x)!r},{float(y)!r}" for i, (x, y) in enumerate(zip(a, b, strict=True))]
    path.write_text("id,A,B\n" + "\n".join(rows) + "\n")
    return str(path)


def test_a_p_at_its_floor_is_a_bound_and_undecided_below_it():
    result = compare_scores(*strong_scores())
    test = result.permutation
    assert test.method == "monte-carlo" and test.at_floor
    assert test.pvalue == 1 / 10_001
    assert test.rejects(0.05) is True
    assert test.rejects(1 / 10_001) is True
    assert test.rejects(1e-5) is None  # below the floor: the patterns cannot tell
    # The words give the bound, with no standard error (it means nothing at the floor).
    assert "sign-flip permutation test p ≤ 1/10,001" in text(result)
    assert "none of 10,000 random sign patterns" in text(result)
    assert "p = 1.0e-04" not in text(result) and "standard error" not in text(result)


def test_the_gate_refuses_to_decide_below_the_floor():
    result = compare_scores(*strong_scores())
    assert scores_gate_undecided(result, 1e-5)
    with pytest.raises(CalculatorError, match="at least 99,999 resamples can decide it"):
        scores_gate_fails(result, 1e-5)
    assert not scores_gate_undecided(result, 0.05)
    assert scores_gate_fails(result, 0.05)


def test_a_p_not_at_its_floor_keeps_its_value_and_standard_error():
    a, b = strong_scores()
    rng = np.random.default_rng(7)
    noisy_b = a + rng.normal(0.0, 0.02, 100)  # no real difference: many patterns as extreme
    test = compare_scores(a, noisy_b).permutation
    assert test.method == "monte-carlo" and not test.at_floor
    assert test.rejects(1e-5) is False


def test_cli_gate_below_the_floor_exits_2_and_says_why(tmp_path, capsys):
    status = main(["cases", strong_file(tmp_path), "--fail-if-worse", "--alpha", "0.00001"])
    out, err = capsys.readouterr()
    assert status == 2  # neither "pass" (0) nor "FAIL" (1): the gate is not decided
    assert "p ≤ 1/10,001" in out and "p = 1.0e-04" not in out
    gate = next(line for line in out.splitlines() if line.startswith("gate"))
    assert gate.startswith("gate      undecided:")
    assert "more resamples are needed to decide" in gate
    assert "at least 99,999 resamples" in err


def test_cli_resamples_lets_the_gate_decide(tmp_path, capsys):
    argv = ["cases", strong_file(tmp_path), "--fail-if-worse", "--alpha", "0.00001"]
    status = main([*argv, "--resamples", "99999"])
    out, _ = capsys.readouterr()
    assert status == 1
    assert "FAIL: B is worse than A at α = 1e-05" in out
    assert "p ≤ 1/100,000" in out
    assert "(99,999 resamples of the 100 cases" in out  # the bootstrap takes them too


def test_cli_resamples_is_refused_by_name_for_pass_fail(tmp_path, capsys):
    path = tmp_path / "pf.csv"
    path.write_text("id,A,B\n" + "\n".join(f"c{i},{i % 2},{i % 3 == 0:d}" for i in range(20)))
    status = main(["cases", str(path), "--resamples", "5000"])
    _, err = capsys.readouterr()
    assert status == 2
    assert err.startswith("error: --resamples") and "pass/fail outcomes are tested exactly" in err


def test_the_logs_task_line_gives_the_bound_too(tmp_path, capsys):
    import json

    a, b = strong_scores()
    folders = []
    for model, values in (("old", a), ("new", b)):
        folder = tmp_path / model
        folder.mkdir()
        stamp = "2024-05-01T10-00-00.000000" if model == "old" else "2024-05-02T10-00-00.000000"
        rows = [
            {
                "doc_id": i,
                "doc": {"q": i},
                "target": "x",
                "arguments": {},
                "resps": [["x"]],
                "filtered_resps": ["x"],
                "filter": "none",
                "metrics": ["f1"],
                "f1": float(v),
            }
            for i, v in enumerate(values)
        ]
        text = "\n".join(json.dumps(row) for row in rows) + "\n"
        (folder / f"samples_qa_{stamp}.jsonl").write_text(text)
        results = {"results": {"qa": {"f1,none": 0.0}}, "model_name": f"org/{model}"}
        (folder / f"results_{stamp}.json").write_text(json.dumps(results))
        folders.append(str(folder))
    assert main(["cases", *folders]) == 0
    out = capsys.readouterr().out
    task = next(line for line in out.splitlines() if line.startswith("task qa"))
    assert task.endswith("sign-flip permutation test p ≤ 1/10,001"), task
