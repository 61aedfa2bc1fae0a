"""The JSON decision says what its alternative is stated of (review 4).

``"alternative": "greater"`` means B's pass rate higher, A − B below 0, beside ``"of": "pA - pB"``
for the interval: a consumer could read it as A − B greater than 0. The decision now carries
``alternative_of`` ("pB - pA") and ``claim``, what a rejection shows as a code of the two rates;
the command line's flag is unchanged. Scores carry ``alternative_of`` "mean(B - A)".
"""

from __future__ import annotations

import json

import pytest

from calculator import analyze
from calculator.cli import main


@pytest.mark.parametrize(
    ("kwargs", "alternative", "claim"),
    [
        ({}, "two-sided", "pB != pA"),
        ({"alternative": "greater"}, "greater", "pB > pA"),
        ({"alternative": "less"}, "less", "pB < pA"),
        ({"margin": 0.05}, "greater", "pB > pA - margin"),
        ({"question": "better", "margin": 0.05}, "greater", "pB > pA + margin"),
        ({"question": "equivalent", "margin": 0.05}, None, "|pB - pA| < margin"),
    ],
)
def test_the_claim_names_the_direction_in_codes(kwargs, alternative, claim):
    data = analyze(60, 5, 15, 20, **kwargs).to_dict()["decision"]
    assert data["alternative"] == alternative
    assert data["alternative_of"] == "pB - pA" and data["interval"]["of"] == "pA - pB"
    assert data["claim"] == claim


def test_a_rejection_of_greater_has_the_interval_below_zero(capsys):
    # 60, 5, 15, 20: B passes 10 points more; "greater" rejects with A - B below 0.
    assert main(["table", "60", "5", "15", "20", "--alternative", "greater", "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)["decision"]
    assert decision["reject"] and decision["claim"] == "pB > pA"
    assert decision["interval"]["high"] < 0


def test_scores_say_what_their_alternative_is_of(tmp_path, capsys):
    rows = ["id,A,B"] + [f"c{i},{i % 7 / 10},{(i * 3) % 11 / 10}" for i in range(30)]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(rows) + "\n")
    argv = ["cases", str(path), "--id", "id", "--a", "A", "--b", "B", "--alternative", "greater"]
    assert main([*argv, "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)["scores"]
    assert scores["alternative"] == "greater" and scores["alternative_of"] == "mean(B - A)"
