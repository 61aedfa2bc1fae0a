"""The statistician's review of every printed sentence (issue 24, second done-when line): each
test reads the sentence from the command line's text and, where it is exported, its JSON, and
fails on the wording the review found.

The figures are the library's own (checked against references elsewhere: the exact McNemar p
in tests/core/test_mcnemar.py, Holm and Bonferroni in tests/core/test_compare.py); here only the
words and the decision rule around them are checked.
"""

from __future__ import annotations

import json

from calculator.cli import main


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def systems_file(tmp_path, rows: list[str], header: str = "x,y,z") -> str:
    path = tmp_path / "systems.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return str(path)


def test_interval_method_is_lower_case_mid_sentence_without_nested_parentheses(capsys):
    argv = ("table", "60", "15", "5", "20", "--ci-method", "exact-compatible")
    out = run(capsys, *argv, "--alternative", "greater")
    sentence = json.loads(run(capsys, *argv, "--alternative", "greater", "--json"))["report"]
    for text in (out, sentence):
        assert "Exact-compatible" not in text
        assert "(Fay-Lumbard))" not in text
        assert "the 90% exact-compatible (Fay-Lumbard) interval" in text
        assert "95% CI +0.3 to +19.7, exact-compatible, Fay-Lumbard)" in text


def test_whole_margin_in_the_plan_reads_1_point_not_1_0_points(capsys):
    out = run(capsys, "plan", "--margin", "0.01", "--p10", "0.05", "--p01", "0.05", "--n", "100")
    assert "by more than 1 point with" in out
    assert "1.0 points" not in out
    assert "margin              1 point (A − B < +1 point to be shown)" in out
    assert "true A − B 0.0 points" in out  # was "+0", a share where the sentence has points
    assert "size if B never wins 0 at" in out  # an exact zero, not "0.0000"


def test_systems_with_equal_passes_are_tied_not_ranked(capsys, tmp_path):
    path = systems_file(tmp_path, ["1,0,0", "0,1,0", "1,1,0", "1,1,1", "0,0,1", "1,0,1"])
    out = run(capsys, "compare", path)
    assert "2= y" in out and "2= z" in out and "3. z" not in out
    assert "y and z pass equally often (3 of the 6 cases each): they are tied, not ranked." in out
    ranking = json.loads(run(capsys, "compare", path, "--json"))["ranking"]
    assert [(row["name"], row["rank"]) for row in ranking] == [("x", 1), ("y", 2), ("z", 2)]


def test_pairs_with_too_few_discordant_cases_are_said_never_separable(capsys, tmp_path):
    # Every pair has 3 or 4 discordant cases: even 4 to 0 gives p = 2^(1 - 4) = 0.125 > 0.05.
    path = systems_file(tmp_path, ["1,0,0", "0,1,0", "1,1,0", "1,1,1", "0,0,1", "1,0,1"])
    out = run(capsys, "compare", path)
    assert "These pairs can never be separated at α = 0.05" in out
    assert "y and z (4 cases separate them)" in out
    assert "not separated (too few discordant cases ever to be)" in out


def test_adjusted_p_equal_to_alpha_separates_the_pair(capsys, tmp_path):
    # x passes alone on 6 cases: x - y and x - z are 6 to 0, exact p = 2/2^6 = 1/32, and
    # Bonferroni's adjusted p is 3/32 exactly = alpha; in floating point it was 0.0937500...04
    # and the pair was reported "not separated".
    path = systems_file(tmp_path, ["1,0,0"] * 6 + ["1,1,1"] * 4)
    argv = ("compare", path, "--alpha", "0.09375", "--adjust", "bonferroni")
    pairs = json.loads(run(capsys, *argv, "--json"))["pairs"]
    assert [pair["reject"] for pair in pairs] == [True, True, False]
    assert "2 of the 3 pairs differ at α = 0.09375" in run(capsys, *argv)


def test_teach_prints_p_and_size_at_a_tie_as_equal_to_alpha(capsys):
    # 6 to 0: exact p = 2/2^6 = 1/32 = alpha; the test rejects, the size is alpha itself.
    out = run(capsys, "teach", "--table", "10", "6", "0", "10", "--alpha", "0.03125")
    assert "observed b = 6, p = 0.03125 (doubling" in out
    assert "smallest p          0.03125 (" in out
    assert "actual size         0.03125 at α = 0.03125" in out
    assert "no split of 6 discordant pairs can reach" not in out
    null = json.loads(
        run(capsys, "teach", "--table", "10", "6", "0", "10", "--alpha", "0.03125", "--json")
    )["null_distribution"]
    assert null["reachable"] is True and null["size"] == 0.03125


def test_table_report_prints_an_exact_p_equal_to_alpha_as_alpha(capsys):
    out = run(capsys, "table", "10", "6", "0", "10", "--alpha", "0.03125")
    assert "gives p = 0.03125," in out
    assert "0.0313" not in out


def test_one_case_is_singular_and_a_gate_that_cannot_fail_says_so(capsys, tmp_path):
    # One case, only A passes: m = 1, the smallest exact p is 2^(1 - 1) = 1 > 0.05, so the gate
    # passes whatever the data; the line says so instead of reading as reassurance.
    path = tmp_path / "one.csv"
    path.write_text("id,a,b\n1,1,0\n", encoding="utf-8")
    out = run(capsys, "cases", str(path), "--a", "a", "--b", "b", "--fail-if-worse")
    assert "1 case analysed" in out and "1 cases" not in out
    assert "only b passes (0): none" in out
    assert "p = 1); with 1 discordant pair no split could fail it" in out


def test_scores_with_one_case_say_case_in_the_singular(capsys, tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("id,a,b\n1,0.5,0.7\n", encoding="utf-8")
    out = run(capsys, "cases", str(path), "--a", "a", "--b", "b")
    assert "1 case analysed" in out and "1 cases" not in out


def test_log_report_counts_tasks_in_words_and_shares_in_points(capsys):
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "inspect"
    out = run(capsys, "cases", str(root / "mock-a-3epochs.eval"), str(root / "mock-b-3epochs.eval"))
    assert "pooled    1 task: both pass" in out and "task(s)" not in out
    # The per-question shares differ by 1/30 on average: +3.3 points, as every difference reads.
    assert "mean +3.3 points over 10 questions" in out


def test_a_long_system_name_keeps_a_space_before_its_probability(capsys, tmp_path):
    long = "x" * 30  # the column is the system's name
    path = tmp_path / "long.csv"
    path.write_text(f"id,a,{long}\n" + "".join(f"{i},1,0\n" for i in range(3)), encoding="utf-8")
    out = run(capsys, "cases", str(path), "--a", "a", "--b", long)
    assert f"P({long} better) " in out


def test_an_interval_that_contradicts_the_test_is_said_to(capsys):
    # 0, 3, 0, 0 asked "worse": the one-sided exact p is 2^-3 = 0.125 (not shown), while the 90%
    # Agresti-Min interval for A - B is +11.2 to +100.0 points, entirely above 0.
    argv = ("table", "0", "3", "0", "0", "--alternative", "less")
    out = run(capsys, *argv)
    sentence = json.loads(run(capsys, *argv, "--json"))["decision"]["sentence"]
    for text in (out, sentence):
        assert "B is not shown to be worse than A" in text
        assert "The interval lies entirely above 0 although the test does not reject" in text


def test_scores_margin_gate_states_its_p(capsys, tmp_path):
    # Differences B - A: +0.25, 0, +0.25, +0.25, -0.25; the one-sided t test of a 0.1 drop gives
    # p = 0.0581 (above alpha = 0.05), and the gate line says so rather than only the verdict.
    path = tmp_path / "scores.csv"
    path.write_text("id,a,b\n1,0.5,0.75\n2,1,1\n3,0.25,0.5\n4,0,0.25\n5,1,0.75\n", encoding="utf-8")
    status = main(
        ["cases", str(path), "--a", "a", "--b", "b", "--margin", "0.1", "--fail-if-worse"]
    )
    out = capsys.readouterr().out
    assert status != 0
    assert "(one-sided paired t test, p = 0.0581, α = 0.05)" in out


def test_the_decisions_level_is_written_exactly_not_rounded(capsys):
    # One-sided at alpha = 1/32: the interval's level is 1 - 2 alpha = 93.75%, not "93.8%".
    argv = ("table", "10", "0", "6", "10", "--alternative", "greater", "--alpha", "0.03125")
    out = run(capsys, *argv)
    sentence = json.loads(run(capsys, *argv, "--json"))["decision"]["sentence"]
    for text in (out, sentence):
        assert "the 93.75% Agresti-Min interval" in text and "93.8%" not in text


def test_teach_keeps_exact_tails_in_full_and_says_the_sweep_is_two_sided(capsys):
    # m = 7, one-sided "greater": the smallest mid-p value is 2^-8 = 0.00390625 ("0.00391", not
    # "0.004"); the sweep's p-values are two-sided while the null line above is one-sided.
    argv = ("teach", "--table", "10", "1", "6", "10", "--alternative", "greater")
    out = run(capsys, *argv, "--convention", "mid-p")
    assert "smallest p          0.00391 (" in out
    assert "unpaired p (both two-sided)" in out


def test_plain_figures_beside_clusters_are_said_to_count_cases_as_independent(capsys, tmp_path):
    # 40 documents of 10 cases: in 20 only A passes 8, in 20 only B passes 8, plus 30 wins for A
    # spread over the documents. The report's Agresti-Min interval and exact p treat the 430
    # cases as independent; the answer after them counts the documents. (The page shows only
    # the cluster-aware answer, so the note is needed on the command line and in the JSON.)
    rows = ["id,doc,old,new"]
    for doc in range(40):
        for j in range(10):
            old, new = ((1, 0) if doc < 20 else (0, 1)) if j < 8 else (1, 1)
            rows.append(f"c{doc}-{j},d{doc},{old},{new}")
    rows += [f"x{j},d{j % 40},1,0" for j in range(30)]
    path = tmp_path / "docs.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    note = "The interval and the tests so far count every case as independent; the answer that "
    note += "follows counts the 40 clusters"
    argv = ("cases", str(path), "--a", "old", "--b", "new", "--group", "doc")
    assert note in run(capsys, *argv)
    assert note in json.loads(run(capsys, *argv, "--json"))["report"]


def test_scores_counts_agree_in_number_and_the_task_line_writes_a_minus_sign(capsys, tmp_path):
    # Statistics 4, C1: "clusters  1 groups in 'g'", "pooled    1 task(s)" and the per-task
    # score line's ASCII "A - B" (every other sentence writes "A − B").
    path = tmp_path / "one_cluster.csv"
    rows = [f"c{i},{0.1 * (i % 7)},{0.1 * ((i + 3) % 7)},g0" for i in range(12)]
    path.write_text("id,A,B,g\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = run(capsys, "cases", str(path), "--id", "id", "--a", "A", "--b", "B", "--group", "g")
    assert "clusters  1 group in 'g'" in out and "1 groups" not in out

    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "inspect"
    a, b = str(root / "mock-a-3epochs.eval"), str(root / "mock-b-3epochs.eval")
    out = run(capsys, "cases", a, b, "--metric", "graded")
    assert "pooled    1 task\n" in out and "task(s)" not in out
    assert "task mock_qa: 30 cases (10 questions), mean difference A − B +0.0167" in out
    assert " A - B " not in out


def test_pass_fail_clusters_count_one_group_in_the_singular(capsys, tmp_path):
    path = tmp_path / "one_group.csv"
    rows = [f"c{i},{int(i % 3 != 0)},{int(i % 4 != 0)},g0" for i in range(40)]
    path.write_text("id,A,B,g\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = run(capsys, "cases", str(path), "--id", "id", "--a", "A", "--b", "B", "--group", "g")
    assert "clusters  1 group in 'g':" in out and "1 groups" not in out


def test_a_question_is_answered_once_and_no_escaped_newline_is_printed(capsys, tmp_path):
    # The paste-ready report ends "\n\nQuestion: ...: <answer>"; printed through the escaper it
    # read as a literal "\n\n" and the answer then came again from the decision lines.
    out = run(capsys, "table", "60", "15", "5", "20", "--margin", "0.02")
    assert "\\n" not in out and "\nQuestion: non-inferior, margin 2 points: " in out
    assert out.count("B is not shown to be non-inferior to A at a margin of 2 points") == 1
    rows = [(1, 1)] * 60 + [(1, 0)] * 15 + [(0, 1)] * 5 + [(0, 0)] * 20
    path = tmp_path / "t60.csv"
    path.write_text("id,A,B\n" + "".join(f"c{i},{a},{b}\n" for i, (a, b) in enumerate(rows)))
    out = run(capsys, "cases", str(path), "--id", "id", "--a", "A", "--b", "B", "--margin", "2pt")
    assert "\\n" not in out and "\nQuestion: non-inferior, margin 2 points: " in out
    assert out.count("B is not shown to be non-inferior to A at a margin of 2 points") == 1
