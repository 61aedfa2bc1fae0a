"""``python -m calculator cases``: report, JSON shape, exit codes 0/1/2, one-line errors.

Exact p-values quoted in comments are binomial sums: with b only-A and c only-B cases, the
doubled tail is 2 * sum_{k <= min(b, c)} C(b + c, k) / 2^(b + c).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from calculator import analyze
from calculator.cli import main
from calculator.clustered import Clusters
from calculator.report.words import payload as json_of

DATA = Path(__file__).resolve().parents[1] / "data"
HARNESS_A = str(DATA / "samples_gsm8k_model_a.jsonl")
HARNESS_B = str(DATA / "samples_gsm8k_model_b.jsonl")
ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, name: str, *lines: str) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def table_file(
    tmp_path: Path, b: int, c: int, *, both: int = 3, extra: tuple[str, ...] = ()
) -> str:
    """One file: `both` cases both pass, b only old passes, c only new passes."""
    rows = [f"q{i},1,1,d{i % 3}" for i in range(both)]
    rows += [f"b{i},1,0,d{i % 3}" for i in range(b)]
    rows += [f"c{i},0,1,d{i % 3}" for i in range(c)]
    return write(tmp_path, "runs.csv", "id,old,new,doc", *rows, *extra)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cases", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_is_analyze_plus_input_discordant_and_cluster(tmp_path, capsys):
    # A row without old's outcome (a "maybe" in 1 of 9 rows would stop the run: issue #31).
    path = table_file(tmp_path, 4, 1, extra=("x1,,1,d0",))
    status, out, err = run_cli(capsys, path, "--a", "old", "--b", "new", "--group", "doc", "--json")
    assert status == 0 and err == ""
    payload = json.loads(out)
    # With a group column the decision counts clusters: d0 holds q0, b0, b3, c0; d1 q1, b1;
    # d2 q2, b2.
    clusters = Clusters.from_counts([2, 1, 1], [1, 0, 0], [4, 2, 2], column="doc")
    expected = json_of(analyze(3, 4, 1, 0, names=("old", "new"), clusters=clusters))
    for key, value in expected.items():
        assert payload[key] == value
    assert payload["input"]["rows_read"] == 9 and payload["input"]["rows_used"] == 8
    assert payload["input"]["excluded"]["missing_value"] == 1
    assert payload["input"]["columns"] == {"id": "id", "A": "old", "B": "new", "group": "doc"}
    assert payload["discordant_cases"] == {"only_A": ["b0", "b1", "b2", "b3"], "only_B": ["c0"]}
    # Clusters d0: b0, b3 (b_i 2) and c0 (c_i 1); d1: b1; d2: b2. X2 = 9 / (1 + 1 + 1) = 3.
    assert payload["cluster"]["clusters"] == 3
    assert payload["cluster"]["statistic"] == pytest.approx(3.0)
    assert set(payload["cluster"]) >= {"clusters", "statistic", "pvalue"}


def test_text_report_lists_exclusions_and_cases(tmp_path, capsys):
    path = table_file(tmp_path, 2, 1, extra=("x1,,1,d0",))
    status, out, _ = run_cli(capsys, path, "--a", "old", "--b", "new")
    assert status == 0
    assert "7 read, 6 used, 1 excluded" in out
    assert "without a value in 'old'" in out and "row 7 (x1)" in out
    assert "only old passes (2): b0, b1" in out and "only new passes (1): c0" in out


def test_two_harness_logs(capsys):
    # 2 of each log's 8 documents are not in the other (25%): refused as a biased remainder
    # unless allowed (issue 21; tests/cli/test_logs_cli.py tests the refusal).
    status, out, _ = run_cli(capsys, HARNESS_A, HARNESS_B, "--json", "--allow-exclusions")
    assert status == 0
    payload = json.loads(out)
    assert payload["table"] == {"a": 2, "b": 2, "c": 1, "d": 1, "n": 6, "discordant": 3}
    assert payload["discordant_cases"] == {"only_A": ["3", "7"], "only_B": ["4"]}
    assert payload["input"]["excluded"]["id_in_one_file_only"] == 4
    assert "cluster" not in payload


@pytest.mark.parametrize(
    ("b", "c", "status"),
    [
        (10, 0, 1),  # B worse: p = 2 / 2^10 = 0.00195 <= 0.05
        (0, 10, 0),  # B better: significant, but not worse
        (4, 1, 0),  # B worse but p = 2 * 6/32 = 0.375
        (0, 0, 0),  # no discordant cases: p = 1
    ],
)
def test_fail_if_worse_exit_status(tmp_path, capsys, b, c, status):
    path = table_file(tmp_path, b, c)
    assert run_cli(capsys, path, "--a", "old", "--b", "new", "--fail-if-worse")[0] == status
    assert run_cli(capsys, path, "--a", "old", "--b", "new")[0] == 0  # no gate, no failure


def test_alpha_sets_the_gate_level(tmp_path, capsys):
    # b = 6, c = 0: p = 2 / 64 = 0.03125: fails at 0.05, passes at 0.01.
    path = table_file(tmp_path, 6, 0)
    base = [path, "--a", "old", "--b", "new", "--fail-if-worse"]
    assert run_cli(capsys, *base)[0] == 1
    assert run_cli(capsys, *base, "--alpha", "0.01")[0] == 0
    assert run_cli(capsys, *base, "--alpha", "0.03125")[0] == 1  # p <= alpha rejects


def test_threshold_option(tmp_path, capsys):
    path = write(tmp_path, "scores.csv", "id,f1_a,f1_b", "q1,0.9,0.1", "q2,0.8,0.2", "q3,0.2,0.6")
    status, out, _ = run_cli(
        capsys, path, "--a", "f1_a", "--b", "f1_b", "--threshold", "0.5", "--json"
    )
    assert status == 0 and json.loads(out)["table"]["b"] == 2


@pytest.mark.parametrize(
    ("make_args", "message"),
    [
        (lambda p: [str(p / "missing.csv")], "No such file"),
        (lambda p: [write(p, "e.csv", "id,a,b")], "no rows of data"),
        (lambda p: [write(p, "s.csv", "id;a;b", "1;1;0")], "semicolon"),
        (
            lambda p: [write(p, "r.csv", "id,a,b", "1,1,0"), "--a", "zzz", "--b", "b"],
            "no column 'zzz'",
        ),
        (lambda p: [write(p, "r.csv", "id,x,y", "1,maybe,0")], "--a and --b"),
        (
            lambda p: [write(p, "r.csv", "id,a,b", "1,x,y"), "--a", "a", "--b", "b"],
            "no one reading keeps 95% of the rows: 0 of 1 row read as pass/fail",
        ),
        (
            lambda p: [write(p, "r.csv", "id,a,b", "1,,", "2,1,"), "--a", "a", "--b", "b"],
            "no usable cases",
        ),
        (
            lambda p: [write(p, "r.csv", "id,a,b", "1,1,0"), "--alpha", "2"],
            "strictly between 0 and 0.5",  # a level of 0.5 or more is refused too
        ),
        (lambda p: [write(p, "r.csv", "id,a,b", "1,1,0"), "--threshold", "nan"], "finite number"),
        (lambda p: [write(p, "r.csv", "id,a,b", "1,1,0"), "--threshold", "x"], "finite number"),
    ],
)
def test_unusable_input_exits_2_with_one_line(tmp_path, capsys, make_args, message):
    status, out, err = run_cli(capsys, *make_args(tmp_path))
    assert status == 2 and out == ""
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_binary_file_exits_2(tmp_path, capsys):
    path = tmp_path / "garbage.csv"
    path.write_bytes(b"\x00\x01\x02\xff" * 50)
    status, _, err = run_cli(capsys, str(path))
    assert status == 2 and "binary data" in err


def test_module_entry_point(tmp_path):
    # The real command, as a release pipeline runs it: exit status 1 and the report on stdout.
    path = table_file(tmp_path, 10, 0)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "calculator",
            "cases",
            path,
            "--a",
            "old",
            "--b",
            "new",
            "--fail-if-worse",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert "gate      FAIL" in done.stdout
