"""`compare` guesses a wide file's columns as `cases` does, and asks for the systems when the
guess would be a guess (issue 23, item 4).

Each test failed on the reader before this change: a wide file's id column was ignored unless
named, so a case given twice counted twice (`cases` left both copies out); every 0/1 column, and
with a threshold every numeric column, became a "system", changing Holm's adjustment of the real
pairs. Expected counts are worked out by hand from the file written in each test; the p-values
are those of :func:`calculator.compare_systems` on the outcome array written here (tested against
references in tests/core/test_compare.py).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from calculator import compare_systems
from calculator.cases import load_cases
from calculator.cases.columns import guess_outcomes
from calculator.cases.multi import load_systems
from calculator.cases.reading import read_case_file
from calculator.cli import main
from calculator.errors import CalculatorError

# Three systems on six cases, then case q1 given again with other outcomes.
ROWS = ["q0,1,0,0", "q1,1,0,1", "q2,1,0,0", "q3,1,1,0", "q4,0,0,1", "q5,1,0,0", "q1,0,1,1"]


def csv(header: str, rows: list[str]) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode()


def test_a_wide_file_without_id_option_leaves_out_repeated_ids_as_cases_does(tmp_path, capsys):
    # Before: 7 cases (q1 twice); `cases` on two of the columns leaves out both copies of q1.
    path = tmp_path / "wide.csv"
    path.write_bytes(csv("id,x,y,z", ROWS))
    assert main(["compare", str(path), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    summary = payload["input"]
    assert summary["columns"]["id"] == "id"
    assert summary["excluded"]["duplicate_id"] == 2 and summary["cases_used"] == 5
    pairs = load_cases(path.read_bytes(), id_column="id", a_column="x", b_column="y",
                       file_names=("wide.csv", None))  # fmt: skip
    assert pairs.n == summary["cases_used"] and pairs.excluded["duplicate_id"] == 2
    kept = np.array([[int(v) for v in row.split(",")[1:]] for row in ROWS if "q1" not in row])
    expected = compare_systems(kept, ["x", "y", "z"]).to_dict()
    assert payload["pairs"] == expected["pairs"]


def test_rows_are_numbered_only_when_asked():
    # Held-out variant: the library call, an id column named by the usual "_id" ending.
    data = csv("case_id,x,y,z", ROWS)
    guessed = load_systems(data, file_names=["w.csv"])
    numbered = load_systems(data, file_names=["w.csv"], number_rows=True)
    assert guessed.id_column == "case_id" and guessed.n == 5
    assert numbered.id_column is None and numbered.n == 7


def test_a_0_1_feature_beside_the_systems_is_not_compared_as_one(tmp_path, capsys):
    # Before: has_image became a fourth system: six pairs instead of three for Holm.
    path = tmp_path / "wide.csv"
    rows = [f"q{i},question {i},{i % 2},{row[3:]}" for i, row in enumerate(ROWS[:6])]
    path.write_bytes(csv("id,question,has_image,x,y,z", rows))
    assert main(["compare", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "cannot tell which columns are the systems" in err
    assert "'has_image', 'x', 'y', 'z'" in err and "'question'" in err and "--systems" in err
    assert main(["compare", str(path), "--systems", "x,y,z", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["family_size"] == 3 and payload["input"]["systems"] == ["x", "y", "z"]


def test_with_a_threshold_a_numeric_column_is_not_taken_for_a_system():
    # Held-out variant: no other column at all, but a threshold makes 'length' a score like
    # the systems' scores; every column numeric.
    data = csv("id,length,x,y,z", ["1,120,0.9,0.2,0.4", "2,80,0.3,0.6,0.7", "3,95,0.8,0.9,0.1"])
    with pytest.raises(CalculatorError, match="'length'.* are scores read with the threshold"):
        load_systems(data, threshold=0.5, file_names=["s.csv"])
    cases = load_systems(data, threshold=0.5, systems=["x", "y", "z"], file_names=["s.csv"])
    assert cases.outcomes.astype(int).tolist() == [[1, 0, 0], [0, 1, 1], [1, 1, 0]]


def test_a_file_of_ids_and_outcomes_only_is_still_guessed():
    cases = load_systems(csv("id,x,y,z", ROWS[:6]), file_names=["w.csv"])
    assert cases.names == ("x", "y", "z") and cases.id_column == "id" and cases.n == 6


def test_the_long_layout_takes_the_first_guessed_outcome_column():
    # The page preselects what this function returns (it took the last before): the usual
    # metric name first, then file order.
    data = csv("id,system,is_refusal,exact_match", ["1,a,0,1", "1,b,1,0", "2,a,0,0", "2,b,0,1"])
    frame = read_case_file(data, name="l.csv").frame
    guess = guess_outcomes(frame, taken=("system",))
    assert guess.id_column == "id"
    assert guess.outcome_columns == ("exact_match", "is_refusal")
    cases = load_systems(data, system_column="system", file_names=["l.csv"])
    assert cases.outcome_columns == (guess.outcome_columns[0],)
