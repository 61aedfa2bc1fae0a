"""Scores with too few non-zero differences say the sign-flip test cannot reach alpha
(review 4, C5 on scores).

``cases gA gB --metric acc`` (statistics-4's logs: 2 tasks as clusters) printed "sign-flip
permutation test p = 0.500 (… the 2 non-zero clusters)" with no word that 2 clusters cannot give
less: the exact two-sided sign-flip test of m non-zero units has its smallest p at 2^(1 − m),
when every one leans the same way (one-sided 2^(−m)). Pass/fail by question says it in
:func:`calculator.report.caveats.few_clusters_caveat`; the scores reuse that sentence.
"""

from __future__ import annotations

import pytest

from calculator.cli import main


def _scores(tmp_path, differences):
    rows = ["id,A,B"] + [f"c{i},{0.5 + d:.3f},0.500" for i, d in enumerate(differences + [0.0] * 7)]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(rows) + "\n")
    return ["cases", str(path), "--id", "id", "--a", "A", "--b", "B"]


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        ([], "cannot go below 2^(1 − 3) = 0.25 (when every one leans the same way)."),
        (["--alternative", "less"], "cannot go below 2^(−3) = 0.125 (when every one leans"),
    ],
)
def test_three_non_zero_cases_cannot_reach_alpha(tmp_path, capsys, flags, says):
    assert main([*_scores(tmp_path, [0.1, 0.2, 0.3]), *flags]) == 0
    out = capsys.readouterr().out
    assert "With only 3 cases leaning either way no result can give p ≤ 0.05" in out
    assert says in out and "held at it" not in out


def test_enough_non_zero_cases_say_nothing(tmp_path, capsys):
    assert main(_scores(tmp_path, [0.1, 0.2, 0.3, 0.15, 0.25, 0.35])) == 0
    assert "no result can give" not in capsys.readouterr().out
