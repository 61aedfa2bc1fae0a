"""``python -m calculator compare``: the three input layouts, JSON shape, one-line errors (exit 2).

Expected figures are those of :func:`calculator.compare_systems` on the outcome array written in
the test (tested against references in tests/core/test_compare.py), and counts made by hand.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from calculator import compare_systems
from calculator.cli import main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

# Three systems on eight cases: rows are (x, y, z).
OUTCOMES = [
    (1, 0, 0), (1, 1, 0), (1, 0, 0), (1, 1, 1), (0, 0, 0), (1, 0, 1), (1, 1, 0), (1, 0, 0),
]  # fmt: skip


def write(tmp_path: Path, name: str, *lines: str) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def wide_file(tmp_path: Path, *extra: str) -> str:
    rows = [f"c{i},{x},{y},{z}" for i, (x, y, z) in enumerate(OUTCOMES)]
    return write(tmp_path, "wide.csv", "id,x,y,z", *rows, *extra)


def long_file(tmp_path: Path, *extra: str) -> str:
    rows = [
        f"c{i},{name},{value}"
        for i, values in enumerate(OUTCOMES)
        for name, value in zip("xyz", values, strict=True)
    ]
    return write(tmp_path, "long.csv", "id,model,ok", *rows, *extra)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["compare", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def expected_payload(**options):
    return compare_systems(np.array(OUTCOMES), ["x", "y", "z"], **options).to_dict()


def test_wide_file_json_is_compare_systems_plus_input(tmp_path, capsys):
    status, out, err = run_cli(capsys, wide_file(tmp_path), "--systems", "x,y,z", "--json")
    assert status == 0 and err == ""
    payload = json.loads(out)
    for key, value in expected_payload().items():
        assert payload[key] == value
    assert payload["input"]["layout"] == "wide"
    assert payload["input"]["rows_read"] == payload["input"]["rows_used"] == 8
    assert set(payload["cochran"]) >= {"statistic", "df", "pvalue", "log10_pvalue",
                                       "exact_pvalue", "method"}  # fmt: skip


def test_long_file_gives_the_same_analysis(tmp_path, capsys):
    path = long_file(tmp_path, "c9,x,1", "c9,y,maybe", "c9,z,0")
    status, out, _ = run_cli(capsys, path, "--id", "id", "--system", "model", "--outcome", "ok",
                             "--json")  # fmt: skip
    assert status == 0
    payload = json.loads(out)
    assert payload["pairs"] == expected_payload()["pairs"]
    summary = payload["input"]
    assert summary["layout"] == "long" and summary["rows_read"] == 27
    assert summary["excluded"]["unparseable_outcome"] == 1
    assert summary["excluded"]["partner_excluded"] == 2
    assert summary["rows_used"] + sum(summary["excluded"].values()) == summary["rows_read"]


def test_one_file_per_system_with_bonferroni(tmp_path, capsys):
    paths = [
        write(
            tmp_path, f"{name}.csv", "id,ok", *(f"c{i},{row[j]}" for i, row in enumerate(OUTCOMES))
        )
        for j, name in enumerate("xyz")
    ]
    status, out, _ = run_cli(capsys, *paths, "--id", "id", "--adjust", "bonferroni", "--json")
    assert status == 0
    payload = json.loads(out)
    assert payload["pairs"] == expected_payload(adjust="bonferroni")["pairs"]
    assert payload["input"]["systems"] == ["x", "y", "z"]


def test_text_report_names_the_test_the_adjustment_and_each_pair(tmp_path, capsys):
    status, out, _ = run_cli(capsys, wide_file(tmp_path), "--systems", "x,y,z", "--alpha", "0.1")
    assert status == 0
    assert "Cochran's Q = " in out and "Holm's adjustment for 3 comparisons" in out
    assert "  x − y: " in out and "  y − z: " in out
    assert "1. x" in out  # x passes most often


def test_names_with_terminal_control_characters_are_escaped(tmp_path, capsys):
    path = write(tmp_path, "w.csv", "id,a\x1b[2J,b,c", "1,1,0,1", "2,0,0,1", "3,1,1,0")
    status, out, _ = run_cli(capsys, path, "--id", "id")
    assert status == 0
    assert "\x1b" not in out and "a\\x1b[2J" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--systems", "x,q"], "no column 'q'"),
        (["--systems", "x"], "needs 2 to 50"),
        (["--adjust", "hochberg"], "invalid choice"),
        (["--alpha", "1.5"], "--alpha must be a number strictly between 0 and 1"),
        (["--system", "nope"], "no column 'nope'"),
    ],
)
def test_unusable_input_exits_2_with_one_line(tmp_path, capsys, argv, message):
    status, out, err = run_cli(capsys, wide_file(tmp_path), *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_several_files_with_a_system_column_is_a_usage_error(tmp_path, capsys):
    path = wide_file(tmp_path)
    status, _, err = run_cli(capsys, path, path, "--system", "model")
    assert status == 2 and "give one file" in err


def test_no_complete_case_exits_2(tmp_path, capsys):
    path = write(tmp_path, "l.csv", "id,model,ok", "1,x,1", "2,y,0", "3,z,1")
    status, _, err = run_cli(capsys, path, "--system", "model")
    assert status == 2 and "no case has a usable outcome for every one" in err


def test_the_module_runs_as_a_program():
    completed = subprocess.run(
        [sys.executable, "-m", "calculator", "compare", str(DATA / "samples_gsm8k_model_a.jsonl"),
         str(DATA / "samples_gsm8k_model_b.jsonl"), "--id", "doc_id", "--outcome",
         "exact_match", "--json"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    payload = json.loads(completed.stdout)
    assert payload["family_size"] == 1 and payload["input"]["layout"] == "files"


def test_long_file_compares_only_the_systems_named(tmp_path, capsys):
    status, out, _ = run_cli(capsys, long_file(tmp_path), "--system", "model", "--systems",
                             "z,x", "--json")  # fmt: skip
    assert status == 0
    payload = json.loads(out)
    assert [s["name"] for s in payload["systems"]] == ["z", "x"]
    assert payload["input"]["excluded"]["other_system"] == 8  # the eight rows of y
    assert payload["family_size"] == 1


def test_one_analysed_case_is_counted_in_the_singular(tmp_path, capsys):
    # Found in review: "1 cases analysed". Case 2 lacks A's outcome (an unreadable "x" in 1 of
    # 4 rows would now stop the run: no reading keeps 95% of them, issue #31).
    path = write(tmp_path, "one.csv", "id,system,ok", "1,A,1", "1,B,0", "2,A,", "2,B,1")
    status, out, _ = run_cli(capsys, path, "--id", "id", "--system", "system", "--outcome", "ok")
    assert status == 0
    assert "; 1 case analysed" in out and "1 cases" not in out


def test_letters_are_in_the_ranking_lines_and_the_json(tmp_path, capsys):
    path = wide_file(tmp_path)
    expected = compare_systems(np.array(OUTCOMES), ["x", "y", "z"]).letter_display()
    status, out, _ = run_cli(capsys, path, "--systems", "x,y,z")
    assert status == 0
    for name in ("x", "y", "z"):
        line = next(line for line in out.splitlines() if line.split()[1:2] == [name])
        assert line.split()[2] == expected.letters[name]
    assert "groups of systems not shown different" in out
    status, out, _ = run_cli(capsys, path, "--systems", "x,y,z", "--json")
    assert json.loads(out)["groups"] == expected.to_dict()


def test_each_pair_in_json_carries_its_discordant_count(tmp_path, capsys):
    # Counted by hand from OUTCOMES: x and y differ on rows 0, 2, 5, 7 (4 cases); x and z on
    # rows 0, 1, 2, 6, 7 (5); y and z on rows 1, 5, 6 (3). Every JSON table carries b + c as
    # "discordant"; the pair's "a" and "b" keep naming its systems (their counts are a_count...).
    status, out, _ = run_cli(capsys, wide_file(tmp_path), "--systems", "x,y,z", "--json")
    assert status == 0
    columns = dict(zip("xyz", np.array(OUTCOMES).T, strict=True))
    for pair in json.loads(out)["pairs"]:
        a, b = columns[pair["a"]], columns[pair["b"]]
        assert pair["discordant"] == int(np.sum(a != b))
        assert pair["discordant"] == pair["b_count"] + pair["c_count"]
    assert [p["discordant"] for p in json.loads(out)["pairs"]] == [4, 5, 3]
