"""The flips and the reports, as a reviewer of issue 33 found them wrong: each test fails on the
code before its fix. Inputs copied from the review into tests/data/review (two Inspect logs of
an error rate, gA and gB: 40 questions, lower is better) or built here; every expected count is
recounted from the file with ``json``, never from the product."""

from __future__ import annotations

import json
from pathlib import Path

from calculator.cli import main

DATA = Path(__file__).parents[1] / "data" / "review"


def run(capsys, *argv: object) -> tuple[int, str, str]:
    status = main(["cases", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def _scores(log: Path) -> dict[str, float]:
    samples = json.loads(log.read_text())["samples"]
    return {s["id"]: s["scores"]["error_rate"]["value"] for s in samples}


def test_score_flips_take_regression_from_better_lower(capsys):
    """With --better lower, a case where B's error rate is higher is a regression of B, on the
    text report, the JSON and the CSV's direction column."""
    a, b = _scores(DATA / "gA" / "log.json"), _scores(DATA / "gB" / "log.json")
    worse = {q for q in a if b[q] > a[q]}  # B's error rate higher: B worse
    better = {q for q in a if b[q] < a[q]}
    assert worse and better and len(worse) != len(better)
    argv = (DATA / "gA", DATA / "gB", "--better", "lower")
    status, out, err = run(capsys, *argv, "--flips", "2", "--json")
    assert status == 0, err
    flips = json.loads(out)["flips"]
    assert flips["better"] == "lower"
    assert (flips["regressions"], flips["improvements"]) == (len(worse), len(better))
    by_direction = {"regression": set(), "improvement": set()}
    for flip in flips["flips"]:
        by_direction[flip["direction"]].add(flip["id"])
    assert by_direction == {"regression": worse, "improvement": better}
    status, out, err = run(capsys, *argv, "--flips", "2")
    assert status == 0, err
    assert f"regressions (mA, the baseline, scores better: lower is better): {len(worse)}" in out
    largest = max(worse, key=lambda q: b[q] - a[q])
    listed = out.split("regressions (mA")[2].split("improvements (mB")[0]  # the regressions
    assert f"  t/{largest}: mA {a[largest]:.4g}, mB {b[largest]:.4g}" in listed
    # Without --better (the log states no direction), higher is taken as better.
    status, out, err = run(capsys, DATA / "gA", DATA / "gB", "--flips", "2", "--json")
    flips = json.loads(out)["flips"]
    assert flips["better"] == "higher"
    assert (flips["regressions"], flips["improvements"]) == (len(better), len(worse))


def _pass_fail_file(tmp_path: Path) -> Path:
    path = tmp_path / "cases.csv"
    path.write_text("id,a,b\n" + "".join(f"q{k},{k % 2},{k % 3 == 0:d}\n" for k in range(30)))
    return path


def test_flips_csv_refuses_to_overwrite_an_input(capsys, tmp_path):
    """--flips-csv naming the per-case file read (by another spelling of its path) is refused
    by name, and the file is left as it was."""
    path = _pass_fail_file(tmp_path)
    before = path.read_bytes()
    spelled = tmp_path / "sub" / ".." / "cases.csv"
    (tmp_path / "sub").mkdir()
    status, out, err = run(capsys, path, "--a", "a", "--b", "b", "--flips-csv", spelled)
    assert status == 2 and "--flips-csv" in err and "input" in err and not out
    assert path.read_bytes() == before
    # A log folder: a CSV written inside it would join the files read next time.
    status, out, err = run(capsys, DATA / "gA", DATA / "gB", "--flips-csv", DATA / "gA" / "f.csv")
    assert status == 2 and "--flips-csv" in err and not (DATA / "gA" / "f.csv").exists()


def test_flips_csv_dash_is_refused_by_name(capsys, tmp_path, monkeypatch):
    """``--flips-csv -`` wrote a file named "-"; it is refused, naming the option and the
    value, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    path = _pass_fail_file(tmp_path)
    status, out, err = run(capsys, path, "--a", "a", "--b", "b", "--flips-csv", "-")
    assert status == 2 and "--flips-csv -" in err and "standard output" in err
    assert not (tmp_path / "-").exists()


def test_a_negative_flips_count_is_refused_by_name(capsys, tmp_path):
    """``--flips -1`` was taken as a slice (all but the last flip; "-5 of 11" in Markdown)."""
    path = _pass_fail_file(tmp_path)
    for extra in ((), ("--format", "markdown"), ("--json",)):
        status, out, err = run(capsys, path, "--a", "a", "--b", "b", "--flips", "-1", *extra)
        assert status == 2 and not out
        assert "--flips must be a non-negative integer" in err and "got -1" in err
    status, out, err = run(capsys, path, "--a", "a", "--b", "b", "--flips", "0")
    assert status == 0 and "churn" in out and "0 shown of" in out
