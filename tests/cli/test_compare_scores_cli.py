"""``python -m calculator compare FILE --systems ...`` on score columns without ``--threshold``:
Friedman's test by ranks, in text and JSON.

Expected figures are those of :func:`calculator.compare.friedman.friedman_compare` on the
scores written in the test (tested against references in tests/core/test_friedman.py), and
counts made by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calculator.cli import main
from calculator.compare.friedman import friedman_compare

# Four systems on six cases (x, y, z, w); the last row is left out (a gap).
SCORES = [
    (0.9, 0.5, 0.1, 0.3),
    (0.8, 0.6, 0.2, 0.2),
    (0.7, 0.4, 0.3, 0.1),
    (0.6, 0.7, 0.1, 0.0),
    (0.9, 0.8, 0.5, 0.4),
    (0.5, 0.3, 0.3, 0.2),
]


def scores_file(tmp_path: Path) -> str:
    rows = [f"c{i},{','.join(map(str, row))}" for i, row in enumerate(SCORES)]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(["id,x,y,z,w", *rows, "c6,0.4,,0.2,0.1"]))
    return str(path)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["compare", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_score_columns_without_threshold_give_friedman_in_json(tmp_path, capsys):
    status, out, err = run_cli(
        capsys, scores_file(tmp_path), "--id", "id", "--systems", "x,y,z,w", "--json"
    )
    assert status == 0 and err == ""
    payload = json.loads(out)
    expected = friedman_compare(np.array(SCORES), ["x", "y", "z", "w"]).to_dict()
    assert payload["analysed_as"] == "scores"
    assert {key: payload[key] for key in expected} == json.loads(json.dumps(expected))
    assert payload["input"]["rows_read"] == 7 and payload["input"]["rows_used"] == 6
    assert payload["input"]["excluded"]["missing_value"] == 1


def test_a_word_among_scores_follows_the_one_bulk_rule(tmp_path, capsys):
    # Scores are read by the rule every per-case file follows (calculator.cases.bulk): a word
    # in 40 rows of scores is excluded and counted; in 7 rows it is over 5%, and stops the run.
    rows = [f"c{i},0.{i % 9 + 1},0.{i % 7 + 1},0.{i % 5 + 1}" for i in range(39)]
    path = tmp_path / "s.csv"
    path.write_text("\n".join(["id,x,y,z", *rows, "c39,0.4,abc,0.2"]))
    status, out, err = run_cli(capsys, str(path), "--id", "id", "--systems", "x,y,z", "--json")
    assert status == 0, err
    summary = json.loads(out)["input"]
    assert summary["rows_used"] == 39 and summary["excluded"]["not_a_number"] == 1
    rows = [f"c{i},{','.join(map(str, row[:3]))}" for i, row in enumerate(SCORES)]
    path.write_text("\n".join(["id,x,y,z", *rows, "c6,0.4,abc,0.2"]))
    status, _, err = run_cli(capsys, str(path), "--id", "id", "--systems", "x,y,z")
    assert status == 2 and "no one reading keeps 95% of the rows" in err


def test_score_columns_text_names_the_tests(tmp_path, capsys):
    status, out, _ = run_cli(capsys, scores_file(tmp_path), "--id", "id", "--systems", "x,y,z,w")
    result = friedman_compare(np.array(SCORES), ["x", "y", "z", "w"])
    assert status == 0
    assert "Friedman's test of the systems' ranks within each case" in out
    assert f"Nemenyi's critical difference at α = 0.05: {result.critical_difference:.2f}" in out
    assert "Holm-adjusted signed-rank tests" in out
    ranked = [line.split()[1] for line in out.splitlines() if ", mean score " in line]
    assert ranked == list(result.ranking)


def test_a_threshold_still_compares_pass_fail(tmp_path, capsys):
    status, out, _ = run_cli(
        capsys,
        scores_file(tmp_path),
        "--id",
        "id",
        "--systems",
        "x,y,z,w",
        "--threshold",
        "0.5",
        "--json",
    )
    assert status == 0
    assert "cochran" in json.loads(out)


def test_lower_is_better_scores_are_ranked_lowest_first_and_named_error_rates_need_it(
    capsys, tmp_path
):
    # compare ranked the highest score first whatever the scores were: three systems' word
    # error rates put the worst first and called it better (review of this change, 1).
    rows = [f"c{i},{','.join(map(str, row[:3]))}" for i, row in enumerate(SCORES)]
    path = tmp_path / "wer.csv"
    path.write_text("\n".join(["id,wer_x,wer_y,wer_z", *rows]))
    systems = ("--id", "id", "--systems", "wer_x,wer_y,wer_z")
    status, out, err = run_cli(capsys, str(path), *systems)
    assert status == 2 and out == ""
    assert "'wer_x' reads as a score where lower is better" in err and "--better lower" in err
    status, out, err = run_cli(capsys, str(path), *systems, "--better", "lower", "--json")
    assert status == 0, err
    payload = json.loads(out)
    lowest = friedman_compare(-np.array([row[:3] for row in SCORES]), ["wer_x", "wer_y", "wer_z"])
    assert payload["better"] == "lower"
    assert tuple(payload["ranking"]) == lowest.ranking == ("wer_z", "wer_y", "wer_x")
    assert payload["average_ranks"] == list(lowest.average_ranks)


def test_better_is_refused_where_the_outcomes_are_pass_fail(capsys, tmp_path):
    path = tmp_path / "pf.csv"
    path.write_text("id,x,y,z\n" + "".join(f"c{i},{i % 2},{i % 3 > 0},1\n" for i in range(9)))
    status, _, err = run_cli(capsys, str(path), "--systems", "x,y,z", "--better", "lower")
    assert status == 2 and "--better says which scores are better" in err


def test_each_pair_reads_a_minus_b_in_its_header_rows_and_json(tmp_path, capsys):
    # The review's case: a system ranked worst on every case (average rank 4) against the
    # others. Its pair rows read "m1 − m2", so the gap is m1's average rank minus m2's: positive.
    rows = [f"c{i},0.{i % 3 + 1},0.{i % 3 + 4},0.{i % 3 + 5}{i % 2},0.9{i % 5}" for i in range(8)]
    path = tmp_path / "s4.csv"
    path.write_text("\n".join(["id,m1,m2,m3,m4", *rows]))
    status, out, _ = run_cli(capsys, str(path), "--id", "id", "--systems", "m1,m2,m3,m4")
    assert status == 0
    assert "Each pair A − B: A's average rank minus B's" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("m1 − m2:"))
    result = friedman_compare(
        np.array([[float(v) for v in r.split(",")[1:]] for r in rows]), ["m1", "m2", "m3", "m4"]
    )
    gap = result.average_ranks[0] - result.average_ranks[1]
    assert result.average_ranks[0] == 4.0 and gap > 0
    assert f"average rank gap {gap:+.2f}" in row
    status, out, _ = run_cli(capsys, str(path), "--id", "id", "--systems", "m1,m2,m3,m4", "--json")
    first = json.loads(out)["pairs"][0]
    assert (first["a"], first["b"]) == ("m1", "m2") and first["rank_gap"] == pytest.approx(gap)
