"""``cases FILE --monitor`` (issue 34, step 5): the looks, the stop at the first crossing, the
order by a column, and the refusals by name. The figures are the library monitor's
(tests/core/test_monitor.py), which quotes the anytime-valid test of tests/core/test_anytime.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from calculator.cli import main
from calculator.monitor import monitor_outcomes


@pytest.fixture
def per_case(tmp_path):
    rng = np.random.default_rng(3)
    a = rng.random(400) < 0.8
    b = rng.random(400) < 0.7
    lines = ["id,a,b,t"] + [f"q{i},{int(a[i])},{int(b[i])},{400 - i}" for i in range(400)]
    path = tmp_path / "cases.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, a, b


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    status = main(["cases", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_text_lists_each_look_and_says_where_it_stopped(capsys, per_case):
    path, a, b = per_case
    status, out, _ = run(capsys, str(path), "--a", "a", "--b", "b", "--monitor", "--every", "50")
    expected = monitor_outcomes(a, b, every=50)
    lines = out.splitlines()
    assert status == 0
    assert lines[0].startswith("cases  only A  only B  e-value  anytime p")
    assert len(lines) == 1 + expected.cases.size + 2
    assert f"by case {int(expected.cases[-1]):,}" in lines[-1]
    assert "however often one looks" in lines[-1]


def test_the_json_holds_every_look_and_order_sorts_the_cases_first(capsys, per_case):
    path, a, b = per_case
    status, out, _ = run(
        capsys,
        str(path),
        "--a",
        "a",
        "--b",
        "b",
        "--monitor",
        "--every",
        "100",
        "--order",
        "t",
        "--json",
    )
    data = json.loads(out)
    expected = monitor_outcomes(a[::-1], b[::-1], every=100)  # t counts down: reversed order
    assert status == 0
    assert [look["cases"] for look in data["looks"]] == expected.cases.tolist()
    assert data["looks"][-1]["pvalue"] == pytest.approx(float(expected.pvalue[-1]), rel=1e-12)
    assert data["prior_shape"] == 1.0 and "uniform (Beta(1, 1)) mixture" in data["sentence"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--group", "t"], "--monitor refuses --group (clusters"),
        (["--margin", "0.02"], "--monitor refuses --margin"),
        (["--fail-if-worse"], "--monitor refuses --fail-if-worse"),
        (["--order", "nope"], "`--order` must name a column"),
        (["--anytime-prior", "0"], "--anytime-prior must be a number from"),
    ],
)
def test_refusals_name_the_option(capsys, per_case, extra, message):
    path, _, _ = per_case
    status, _, err = run(capsys, str(path), "--a", "a", "--b", "b", "--monitor", *extra)
    assert status == 2
    assert message in err


def test_repeated_case_ids_are_refused(capsys, tmp_path):
    path = tmp_path / "repeats.csv"
    path.write_text("id,a,b\nq1,1,0\nq1,0,1\nq2,1,1\n", encoding="utf-8")
    status, _, err = run(capsys, str(path), "--id", "id", "--a", "a", "--b", "b", "--monitor")
    assert status == 2
    assert "--monitor refuses repeated case ids" in err


def test_without_monitor_cases_runs_as_before(capsys, per_case):
    path, _, _ = per_case
    status, out, _ = run(capsys, str(path), "--a", "a", "--b", "b", "--json")
    assert status == 0 and "looks" not in json.loads(out)
