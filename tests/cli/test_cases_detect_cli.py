"""``cases FILE --detect POINTS`` (issue 34): for a comparison already run, the n the two-sided
exact test needs to detect a difference the user names with 80% power, at the share of cases
the systems disagree on, and the comparison's n as a ratio of it. The n is the planner's
(:func:`calculator.planning.plan`, checked against published values in
tests/core/test_planning.py); here its use and its refusals.
"""

from __future__ import annotations

import json

import pytest

from calculator.cli import main
from calculator.planning import exact_power, plan
from calculator.planning.detect import detect_check


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    status = main(["cases", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def file_500(tmp_path):
    # 500 cases: 40 only old passes, 20 only new passes (disagreement 12%).
    rows = ["id,old,new"]
    rows += [f"q{i},1,0" for i in range(40)] + [f"r{i},0,1" for i in range(20)]
    rows += [f"s{i},1,1" for i in range(300)] + [f"t{i},0,0" for i in range(140)]
    path = tmp_path / "cases.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_the_json_holds_the_required_n_and_the_ratio(capsys, file_500):
    status, out, _ = run(capsys, str(file_500), "--detect", "3", "--json")
    detect = json.loads(out)["detect"]
    expected = plan(p10=0.075, p01=0.045, alpha=0.05, power=0.8)
    assert status == 0
    assert detect["required_n"] == expected.n == detect_check(500, 60, 0.03).required_n
    assert detect["ratio"] == pytest.approx(500 / expected.n)
    assert detect["power_at_n"] == pytest.approx(exact_power(500, 0.075, 0.045))
    assert exact_power(expected.n - 1, 0.075, 0.045) < 0.8 <= exact_power(expected.n, 0.075, 0.045)
    assert detect["disagreement"] == pytest.approx(0.12) and detect["difference"] == 0.03


def test_the_text_names_the_systems_and_says_why_the_difference_is_asked(capsys, file_500):
    status, out, _ = run(capsys, str(file_500), "--detect", "3")
    line = next(x for x in out.splitlines() if x.startswith("detect"))
    assert status == 0
    assert "between old and new (either way)" in line
    assert f"needs {plan(p10=0.075, p01=0.045).n:,} cases; this comparison has 500" in line
    assert "not the one observed" in line


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (("--detect", "12"), "disagree on more than 12% of cases"),
        (("--detect", "0"), "above 0 and below 100"),
        (("--detect", "3", "--monitor"), "--detect plans for a per-case pass/fail file"),
    ],
)
def test_detect_is_refused_by_name(capsys, file_500, extra, said):
    status, _, err = run(capsys, str(file_500), *extra)
    assert status == 2 and said in err


def test_detect_is_refused_with_clusters_and_scores(capsys, tmp_path):
    rows = ["id,a,b,g"] + [f"q{i},{i % 2},{int(i % 3 == 0)},{i // 5}" for i in range(40)]
    groups = tmp_path / "groups.csv"
    groups.write_text("\n".join(rows) + "\n", encoding="utf-8")
    status, _, err = run(
        capsys, str(groups), "--a", "a", "--b", "b", "--group", "g", "--detect", "3"
    )
    assert status == 2 and "--detect plans for independent pairs" in err
    scores = tmp_path / "scores.csv"
    scores.write_text("id,a,b\nq1,0.5,0.25\nq2,0.75,0.5\nq3,0.2,0.9\n", encoding="utf-8")
    status, _, err = run(capsys, str(scores), "--detect", "3")
    assert status == 2 and "--detect plans for pass/fail outcomes" in err
