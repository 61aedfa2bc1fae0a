"""What the decision says on the command line and in its JSON: the sentence follows the interval,
the interval has the decision's level, one rule decides p <= alpha, and with clusters every
decision is the cluster-aware one.

Expected sentences come from :func:`calculator.analyze` (whose figures are checked against
references in tests/core/test_decision.py and tests/core/test_noninferiority.py); these tests check
that the command line prints and exports the same words.
"""

from __future__ import annotations

import json

import pytest

from calculator.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ---------------------------------------------------------------------------------------------
# A failed non-inferiority test is worded by where the interval lies
# ---------------------------------------------------------------------------------------------
def test_table_margin_that_b_misses_by_far_says_b_is_worse_by_more(capsys):
    # 60, 15, 5, 20: the 90% Tango interval for A - B is +2.8 to +17.6 points, all above +1
    # (issue 30); a one-sided result at alpha, said as one (issue 31a).
    says = "lies entirely above +1 point, so at one-sided α = 0.05 B is worse than A by more than"
    status, out, _ = run(capsys, "table", "60", "15", "5", "20", "--margin", "0.01")
    assert status == 0
    assert "the 90% Tango interval for the pass-rate difference A − B, +2.8 to +17.6" in out
    assert says in out
    assert "does not show that B is worse" not in out
    status, out, _ = run(capsys, "table", "60", "15", "5", "20", "--margin", "0.01", "--json")
    sentence = json.loads(out)["decision"]["sentence"]
    assert says in sentence
    assert "does not show that B is worse" not in sentence


def cases_file(tmp_path, *, both: int, only_a: int, only_b: int, name: str = "runs.csv") -> str:
    rows = [f"q{i},1,1" for i in range(both)]
    rows += [f"a{i},1,0" for i in range(only_a)]
    rows += [f"b{i},0,1" for i in range(only_b)]
    path = tmp_path / name
    path.write_text("\n".join(["id,old,new", *rows]) + "\n")
    return str(path)


# ---------------------------------------------------------------------------------------------
# One rule for p <= alpha: an exact tail equal to alpha rejects in the gate and the JSON alike
# ---------------------------------------------------------------------------------------------
def test_six_only_a_cases_at_alpha_one_in_32_fail_the_gate_and_the_json_agrees(tmp_path, capsys):
    # p = 2 * (1/2)^6 = 0.03125 exactly; in floating point 0.031250000000000014.
    path = cases_file(tmp_path, both=3, only_a=6, only_b=0)
    status, out, _ = run(capsys, "cases", path, "--fail-if-worse", "--alpha", "0.03125", "--json")
    assert status == 1
    assert json.loads(out)["decision"]["reject"] is True


# ---------------------------------------------------------------------------------------------
# With a group column every decision, and so the gate, counts clusters
# ---------------------------------------------------------------------------------------------
def documents_file(tmp_path, *, lose: int, win: int, per: int = 25, lead: int = 8) -> str:
    """`lose` documents where only old passes `lead` of `per` cases, `win` where only new does."""
    rows, k = ["id,doc,old,new"], 0
    for doc in range(lose + win):
        for j in range(per):
            if j < lead:
                old, new = (1, 0) if doc < lose else (0, 1)
            else:
                old, new = 1, 1
            rows.append(f"c{k},d{doc},{old},{new}")
            k += 1
    path = tmp_path / "docs.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_gate_with_a_margin_counts_clusters(tmp_path, capsys):
    # 40 documents, in half new loses 8 cases, in the other half it wins 8: the plain 90% Tango
    # interval (about +-2.9 points) clears -5 points, the cluster-robust one (+-8.6) does not.
    path = documents_file(tmp_path, lose=20, win=20)
    argv = ("cases", path, "--group", "doc", "--fail-if-worse", "--margin", "0.05")
    status, out, _ = run(capsys, *argv)
    assert status == 1
    assert "gate      FAIL: new is not shown non-inferior" in out
    assert "cluster-robust interval for the pass-rate difference old − new, -8.6 to +8.6" in out
    status, out, _ = run(capsys, *argv, "--json")
    assert status == 1
    decision = json.loads(out)["decision"]
    assert decision["reject"] is False and decision["test"] == "cluster-robust score test"
    assert decision["interval"]["method"] == "cluster-robust"


def test_gate_without_a_margin_uses_the_cluster_adjusted_p(tmp_path, capsys):
    # 23 documents where new loses 8, 17 where it wins 8: plain exact p = 0.009, cluster-adjusted
    # (Durkalski) p = 0.343, held at the exact sign-flip test of the 40 leans it approximates,
    # scipy.stats.binomtest(23, 40).pvalue = 0.4296 (statistics review 4, A1).
    path = documents_file(tmp_path, lose=23, win=17)
    status, out, _ = run(capsys, "cases", path, "--group", "doc", "--fail-if-worse")
    assert status == 0
    assert "gate      pass: new is not shown worse than old" in out
    assert "cluster-robust score test, held at the exact sign-flip test's p, p = 0.430" in out
    status, out, _ = run(capsys, "cases", path, "--group", "doc", "--fail-if-worse", "--json")
    assert status == 0
    assert json.loads(out)["decision"]["pvalue"] == pytest.approx(0.42959, abs=1e-5)


# ---------------------------------------------------------------------------------------------
# The interval quoted with a decision has the decision's level
# ---------------------------------------------------------------------------------------------
def test_one_sided_decision_quotes_a_90_percent_interval(capsys):
    # 60, 10, 20, 20 with --alternative greater: one-sided exact p = 0.049; the 95% interval
    # reached across 0 beside "B is better"; the 90% one for A - B lies below it.
    status, out, _ = run(capsys, "table", "60", "10", "20", "20", "--alternative", "greater")
    assert status == 0
    assert "the 90% Agresti-Min interval for the pass-rate difference A − B, -17.0 to -0.9" in out
    assert "1 − 2α for a one-sided test" in out
    status, out, _ = run(
        capsys, "table", "60", "10", "20", "20", "--alternative", "greater", "--json"
    )
    assert json.loads(out)["decision"]["interval"]["level"] == pytest.approx(0.90)


def test_alpha_one_percent_quotes_a_99_percent_interval(capsys):
    # 60, 15, 5, 20 at alpha = 0.01: p = 0.041, not significant; the 95% interval excludes 0,
    # the decision's 99% one does not.
    status, out, _ = run(capsys, "table", "60", "15", "5", "20", "--alpha", "0.01", "--json")
    decision = json.loads(out)["decision"]
    assert decision["reject"] is False
    assert decision["interval"]["level"] == pytest.approx(0.99)
    assert decision["interval"]["low"] < 0 < decision["interval"]["high"]
    assert "99% Agresti-Min interval" in decision["sentence"]


# ---------------------------------------------------------------------------------------------
# Caveats and labels follow the question; one unit for margins; greater with a margin
# ---------------------------------------------------------------------------------------------
def test_a_significant_one_sided_result_is_not_printed_beside_no_split_can_reach_alpha(capsys):
    # 0, 0, 5, 0: two-sided exact p = 2/32 = 0.0625 > 0.05, one-sided p = 1/32 = 0.031.
    status, out, _ = run(capsys, "table", "0", "0", "5", "0", "--alternative", "greater")
    assert "These cases show that B is better than A" in out
    assert "no split can give" not in out
    status, out, _ = run(capsys, "table", "0", "0", "5", "0", "--alternative", "greater", "--json")
    assert "no split can give" not in json.loads(out)["report"]
    status, out, _ = run(capsys, "table", "0", "0", "5", "0")  # two-sided: still said
    assert "no split can give p ≤ 0.05" in out


def test_alternative_greater_with_a_margin_asks_superiority_by_the_margin(capsys):
    argv = ("table", "60", "5", "15", "20", "--alternative", "greater", "--margin", "0.02")
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert "B is better than A by more than 2 points" in out
    assert "non-inferior" not in out
    status, out, _ = run(capsys, *argv, "--json")
    assert json.loads(out)["decision"]["question"] == "better"


def test_a_gate_margin_typed_as_points_is_refused_with_the_unit_to_use(tmp_path, capsys):
    # 0.5 as a share is 50 points: before, the gate passed a release 30 points worse.
    path = cases_file(tmp_path, both=40, only_a=30, only_b=0)
    status, out, err = run(capsys, "cases", path, "--fail-if-worse", "--margin", "0.5")
    assert status == 2 and out == ""
    assert "--margin 0.5pt" in err and err.count("\n") == 1


def test_a_margin_in_points_with_its_unit_is_the_same_as_the_share(tmp_path, capsys):
    path = cases_file(tmp_path, both=900, only_a=10, only_b=30)
    share = run(capsys, "cases", path, "--fail-if-worse", "--margin", "0.01", "--json")
    points = run(capsys, "cases", path, "--fail-if-worse", "--margin", "1pt", "--json")
    assert share[0] == points[0] == 0
    assert json.loads(share[1])["decision"] == json.loads(points[1])["decision"]


def test_table_refuses_margins_above_50_points(capsys):
    status, out, err = run(capsys, "table", "60", "5", "15", "20", "--margin", "0.6")
    assert status == 2 and out == "" and "above the largest margin of 50 points" in err


def test_posterior_line_says_direction_not_size_and_the_question_help_says_fix_it(capsys):
    status, out, _ = run(capsys, "table", "60", "5", "15", "20", "--alternative", "greater")
    assert "a probability of the direction, not of its size, and not a p-value" in out
    with pytest.raises(SystemExit):
        main(["table", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "Fix it before seeing the data" in help_text


def test_plan_margin_states_the_saw_tooth_and_the_size_where_b_never_wins(capsys):
    status, out, _ = run(capsys, "plan", "--margin", "0.02", "--p10", "0.02", "--p01", "0.02")
    assert status == 0
    assert "required n          662" in out
    assert "from 676 on the power stays above it" in out
    assert "size if B never wins" in out


# ---------------------------------------------------------------------------------------------
# The review's wording list
# ---------------------------------------------------------------------------------------------
def test_alpha_of_a_half_or_more_is_refused_by_table(capsys):
    status, out, err = run(capsys, "table", "60", "5", "15", "20", "--alpha", "0.6")
    assert status == 2 and out == "" and "strictly between 0 and 0.5" in err


def test_p_b_better_never_prints_a_run_of_nines_or_100_percent(capsys):
    # b = 2, c = 60: P(A better) is about 1e-16, so P(B better) printed 99.99999999999999%.
    for counts in (("0", "2", "60", "0"), ("0", "0", "50", "0")):
        status, out, _ = run(capsys, "table", *counts, "--alternative", "greater")
        line = next(line for line in out.splitlines() if line.startswith("P(B better)"))
        assert "> 99.9999%" in line and "99.99999" not in line and "100.0%" not in line


def test_fail_if_worse_help_gives_the_bound_of_the_one_sided_gate(capsys):
    with pytest.raises(SystemExit):
        main(["cases", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "with --alternative less it is the one-sided test, at most alpha" in help_text


def test_equivalence_is_labelled_two_one_sided_tests(capsys):
    status, out, _ = run(
        capsys, "table", "60", "5", "15", "20", "--margin", "0.05", "--equivalence"
    )
    line = next(line for line in out.splitlines() if line.startswith("decision p"))
    assert "two one-sided Tango score tests" in line


def test_teach_sweep_column_calls_a_mid_p_value_mid_p(capsys):
    status, out, _ = run(capsys, "teach", "--table", "10", "5", "2", "10", "--convention", "mid-p")
    assert status == 0
    header = next(line for line in out.splitlines() if line.startswith("pass rates fixed"))
    assert "mid-p" in header and "exact" not in header
