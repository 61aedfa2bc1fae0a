"""``cases FILE --fail-if-worse --anytime`` and the "anytime" key of ``cases --json`` (issue 34):
a gate that may be re-run on a growing file without inflating its false-alarm rate, worded in
the file's names, and refused by name where it does not hold. The figures are the library's
(:func:`calculator.release.anytime_gate`, :func:`calculator.anytime.anytime_of`), whose values
are checked against their published sources in tests/core/test_anytime.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from calculator import analyze
from calculator.anytime import anytime_of, log_mixture_evalue
from calculator.cli import main
from calculator.release import anytime_gate

ALPHA = 0.05


def write(path, a, b, header=("id", "old", "new")):
    pairs = enumerate(zip(a, b, strict=True))
    rows = [",".join(header)] + [f"q{i},{int(x)},{int(y)}" for i, (x, y) in pairs]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    status = main(["cases", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def worse(tmp_path):
    rng = np.random.default_rng(7)
    a, b = rng.random(300) < 0.8, rng.random(300) < 0.6
    return write(tmp_path / "worse.csv", a, b), a, b


def test_anytime_is_an_option_of_the_gate_and_names_its_test(capsys, worse):
    # Fails on the code before it: argparse rejected --anytime as unknown (exit 2).
    path, a, b = worse
    status, out, err = run(capsys, str(path), "--fail-if-worse", "--anytime", "--json")
    gate = json.loads(out)["gate"]
    expected = anytime_gate(analyze(*_counts(a, b), names=("old", "new")))
    assert err == "" and status == (1 if expected.rejects else 0) == 1
    assert gate["test"] == "one-sided anytime-valid test" and gate["anytime_valid"] is True
    assert gate["pvalue"] == pytest.approx(expected.test.pvalue, rel=1e-12)
    assert gate["verdict"] == "fail" and gate["alpha"] == ALPHA


def test_the_text_gate_names_the_files_systems_and_what_re_runs_may_do(capsys, worse):
    path, _, _ = worse
    status, out, _ = run(capsys, str(path), "--fail-if-worse", "--anytime")
    line = next(x for x in out.splitlines() if x.startswith("gate"))
    assert status == 1
    assert line.startswith("gate      FAIL: new is worse than old at α = 0.05")
    assert "one-sided anytime-valid test" in line and "restricted to old-favouring splits" in line
    assert "order not chosen by their outcomes" in line


def test_the_json_of_a_per_case_file_holds_the_anytime_test_as_the_tables(capsys, worse):
    path, a, b = worse
    status, out, _ = run(capsys, str(path), "--json")
    anytime = json.loads(out)["anytime"]
    expected = anytime_of(analyze(*_counts(a, b), names=("old", "new")))
    assert status == 0
    assert anytime["pvalue"] == pytest.approx(expected.test.pvalue, rel=1e-12)
    assert anytime["alternative"] == "two-sided" and anytime["names"] == ["old", "new"]
    assert anytime["confidence_sequence"]["low"] == pytest.approx(expected.sequence.low)
    assert 'against "old and new pass equally often"' in anytime["sentence"]
    assert "where only old passes" in anytime["sentence"]


def test_with_clusters_anytime_is_left_out_of_the_json_and_refused_as_a_gate(capsys, tmp_path):
    rows = ["id,a,b,g"] + [f"q{i},{i % 2},{i % 3 == 0:d},{i // 5}" for i in range(40)]
    path = tmp_path / "groups.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    status, out, _ = run(capsys, str(path), "--a", "a", "--b", "b", "--group", "g", "--json")
    assert status == 0
    assert "independent pair" in json.loads(out)["anytime"]["refused"]
    arguments = (str(path), "--a", "a", "--b", "b", "--group", "g", "--fail-if-worse", "--anytime")
    status, _, err = run(capsys, *arguments)
    assert status == 2 and "--anytime treats each case as one independent pair" in err
    assert "these cases have clusters" in err


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ((), "it needs --fail-if-worse"),
        (("--fail-if-worse", "--margin", "0.02"), "leave out --margin"),
        (("--fail-if-worse", "--monitor"), "refuses --monitor"),
    ],
)
def test_anytime_is_refused_by_name_where_it_does_not_hold(capsys, worse, extra, named):
    path, _, _ = worse
    status, out, err = run(capsys, str(path), "--anytime", *extra)
    assert status == 2 and out == ""
    assert "--anytime" in err and named in err


def test_anytime_refuses_scores_and_harness_logs_by_name(capsys, tmp_path):
    scores = tmp_path / "scores.csv"
    scores.write_text("id,a,b\nq1,0.5,0.25\nq2,0.75,0.5\nq3,0.2,0.9\n", encoding="utf-8")
    status, _, err = run(capsys, str(scores), "--fail-if-worse", "--anytime")
    assert status == 2 and "--anytime is for pass/fail outcomes" in err
    logs = [f"tests/data/samples_gsm8k_model_{x}.jsonl" for x in "ab"]
    status, _, err = run(capsys, *logs, "--fail-if-worse", "--anytime")
    assert status == 2 and "refuses harness logs" in err


def test_a_growing_file_re_gated_at_every_prefix_gives_the_librarys_verdict(capsys, tmp_path):
    # The command line's verdict at each prefix is the library's gate on that prefix's counts:
    # the simulation below, of the library's rule at every prefix, is then the command line's.
    rng = np.random.default_rng(11)
    a, b = rng.random(40) < 0.7, rng.random(40) < 0.5
    for n in range(1, 41):
        path = write(tmp_path / "grow.csv", a[:n], b[:n])
        status, _, _ = run(capsys, str(path), "--fail-if-worse", "--anytime")
        expected = anytime_gate(analyze(*_counts(a[:n], b[:n])))
        assert status == (1 if expected.rejects else 0)


def test_re_gating_at_every_prefix_fails_equal_systems_at_most_alpha_of_the_time():
    # Seeded simulation: 4,000 files of 400 cases where A and B pass equally often (the
    # discordant pairs split 50:50), the gate re-run after every case. The anytime gate fails
    # some run on at most alpha of the files (Ville's inequality), within 3 Monte Carlo
    # standard errors; the fixed-n one-sided exact test re-run the same way fails far more.
    rng = np.random.default_rng(34)
    files, cases = 4000, 400
    disagree = rng.random((files, cases)) < 0.3
    only_a = disagree & (rng.random((files, cases)) < 0.5)
    b = np.cumsum(only_a, axis=1)
    c = np.cumsum(disagree, axis=1) - b
    log_e = log_mixture_evalue(b, c, 1.0, "less", for_maximum=True)
    anytime_rate = float(np.mean(np.any(log_e >= np.log(1 / ALPHA), axis=1)))
    naive = stats.binom.sf(b - 1, b + c, 0.5) <= ALPHA  # one-sided exact p of B worse
    naive_rate = float(np.mean(np.any(naive & (b + c > 0), axis=1)))
    error = np.sqrt(ALPHA * (1 - ALPHA) / files)
    assert anytime_rate <= ALPHA + 3 * error
    assert naive_rate > 2 * ALPHA


def _counts(a, b) -> tuple[int, int, int, int]:
    a, b = np.asarray(a, bool), np.asarray(b, bool)
    return int(np.sum(a & b)), int(np.sum(a & ~b)), int(np.sum(~a & b)), int(np.sum(~a & ~b))
