"""One cluster carries no cluster-adjusted test (review 4, C6).

With one cluster the Durkalski statistic is X2 = (b - c)^2 / (b - c)^2 = 1 whatever the cases,
so its p = P(chi2_1 >= 1) = 0.317 says nothing. The ``clusters`` line printed "cluster-adjusted
McNemar X2 = 1.000, p = 0.317; plain chi-square p = 4.5e-06, so counting clusters multiplies p by
7e+04" beside a decision that says "one cluster cannot bound the difference".
"""

from __future__ import annotations

from calculator.cli import main
from calculator.clustered import clustered_mcnemar
from calculator.mcnemar import mcnemar_chi2
from calculator.report.clusters import describe_cluster_change


def test_one_cluster_says_it_cannot_carry_a_test():
    words = describe_cluster_change(clustered_mcnemar([109], [10]), mcnemar_chi2(109, 10))
    assert words.startswith("one cluster cannot carry a test")
    assert "p = 0.317" not in words and "multiplies" not in words


def test_two_clusters_still_compare():
    words = describe_cluster_change(clustered_mcnemar([3, 2], [0, 1]), mcnemar_chi2(5, 1))
    assert words.startswith("cluster-adjusted McNemar X2 = ")


def test_the_cases_line_says_so(tmp_path, capsys):
    rows = ["id,g,A,B"] + [f"c{i},g,{int(i < 15)},{int(10 <= i < 20)}" for i in range(30)]
    path = tmp_path / "one.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["cases", str(path), "--id", "id", "--a", "A", "--b", "B", "--group", "g"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("clusters"))
    assert "one cluster cannot carry a test" in line and "p = 0.317" not in line
