"""With clusters the signed-rank test answers another question than the t and permutation
tests (statistics 4, C15): they weigh each cluster by its cases, it weighs clusters alike, so
with unequal clusters the estimands differ (the review's sc_unequal.csv: t p = 0.351,
sign-flip 0.656, Wilcoxon 0.938). Before, the report named the ranking but not this.
"""

from __future__ import annotations

from calculator.report.words import text
from calculator.scores import compare_scores


def test_the_cluster_sentence_says_the_tests_answer_different_questions():
    # Two clusters of 6 and one of 2 cases: unequal sizes.
    a = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0, 0.5, 0.5, 0.9, 0.1]
    b = [0.5, 0.4, 0.8, 0.2, 0.6, 0.1, 0.3, 0.4, 0.2, 0.1, 0.7, 0.2, 0.1, 0.6]
    groups = ["g1"] * 6 + ["g2"] * 6 + ["g3"] * 2
    report = text(compare_scores(a, b, clusters=groups))
    assert "weigh each cluster by its cases" in report
    assert "with clusters of unequal size they answer different questions" in report


def test_the_command_lines_cluster_line_says_it_too(tmp_path, capsys):
    from calculator.cli import main

    rows = ["id,A,B,g"] + [
        f"c{i},{0.1 * (i % 9)},{0.1 * ((i * 4) % 9)},{'big' if i < 12 else f's{i}'}"
        for i in range(20)
    ]
    path = tmp_path / "unequal.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["cases", str(path), "--id", "id", "--a", "A", "--b", "B", "--group", "g"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("clusters  "))
    assert "they answer different questions" in line
