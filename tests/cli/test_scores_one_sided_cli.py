"""Scores with a one-sided question (review 4, B3 and B4).

B3: a one-sided test at alpha goes with a two-sided 1 - 2 alpha interval (each end a one-sided
1 - alpha bound), the pass/fail decision's rule (calculator.decision.decision_level). Reference:
``scipy.stats.ttest_rel(a, b).confidence_interval(0.90)`` on the data below (scipy 1.17).
B4: ``--alternative greater --margin D`` asks superiority by the margin, which the scores'
margin decision (non-inferiority) does not answer: refused by name, never answered as
non-inferiority.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from calculator import compare_scores
from calculator.cli import main
from calculator.errors import CalculatorError

RNG = np.random.default_rng(4)
A = np.round(RNG.uniform(10, 50, 40), 1)
B = np.round(A - 1.4 + RNG.normal(0, 5, 40), 1)


def scores_file(tmp_path) -> str:
    path = tmp_path / "one.csv"
    rows = [f"c{i},{x},{y}" for i, (x, y) in enumerate(zip(A, B, strict=True))]
    path.write_text("id,A,B\n" + "\n".join(rows) + "\n")
    return str(path)


def test_one_sided_scores_quote_the_1_minus_2_alpha_interval(tmp_path, capsys):
    status = main(["cases", scores_file(tmp_path), "--alternative", "less", "--json"])
    scores = __import__("json").loads(capsys.readouterr().out)["scores"]
    assert status == 0
    assert scores["confidence_level"] == pytest.approx(0.90)
    ci = stats.ttest_rel(A, B).confidence_interval(0.90)
    assert scores["confidence_interval"]["low"] == pytest.approx(ci.low, rel=1e-9)
    assert scores["confidence_interval"]["high"] == pytest.approx(ci.high, rel=1e-9)


def test_the_text_says_why_the_interval_is_at_90_percent(tmp_path, capsys):
    main(["cases", scores_file(tmp_path), "--alternative", "less"])
    out = capsys.readouterr().out
    assert "(90% t interval" in out and "95% t interval" not in out
    assert "The intervals have level 90% (1 − 2α for a one-sided test at α = 0.05)" in out


def test_two_sided_scores_keep_the_1_minus_alpha_interval(tmp_path, capsys):
    main(["cases", scores_file(tmp_path)])
    out = capsys.readouterr().out
    assert "(95% t interval" in out and "The intervals have level" not in out


def test_greater_with_a_margin_is_refused_by_name(tmp_path, capsys):
    argv = ["cases", scores_file(tmp_path), "--margin", "2", "--alternative", "greater"]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith("error: --alternative greater with --margin asks whether B is better")


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_compare_scores_refuses_a_margin_with_a_one_sided_alternative(alternative):
    with pytest.raises(CalculatorError, match="does not go with `alternative`"):
        compare_scores(A, B, margin=2.0, alternative=alternative)
