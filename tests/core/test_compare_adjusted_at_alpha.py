"""Adjusted p-values reported on the side of alpha their decisions are on (ties with alpha).

Reference values: the exact two-sided McNemar p of m to 0 is 2^(1 - m) (doubling; binomial
tail P[X = 0] doubled, X ~ Bin(m, 1/2)), so 6 to 0 gives 1/32; Bonferroni over K = 3 pairs
gives 3/32 = 0.09375 exactly (Holm's first step also multiplies by 3). R:
``binom.test(0, 6)$p.value * 3`` prints 0.09375. With alpha = 3/32 that pair is rejected
(adjusted p = alpha), the rule of calculator.significance.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.cli import main
from calculator.compare import compare_systems

ROWS = [[1, 0, 1]] * 6 + [[1, 1, 1]] * 4  # x and z beat y on 6 cases, none the other way


@pytest.mark.parametrize("adjust", ["holm", "bonferroni"])
def test_a_pair_tied_with_alpha_is_reported_at_alpha_and_rejected(adjust):
    result = compare_systems(ROWS, ["x", "y", "z"], alpha=3 / 32, adjust=adjust)
    tied = result.pair("x", "y")
    assert tied.reject
    assert tied.adjusted_pvalue == 0.09375  # not 0.09375000000000004
    assert tied.log10_adjusted_pvalue <= math.log10(3 / 32)


def test_the_cli_json_reports_the_tied_adjusted_p_as_alpha(tmp_path, capsys):
    path = tmp_path / "wide.csv"
    lines = [f"c{i},{x},{y},{z}" for i, (x, y, z) in enumerate(ROWS)]
    path.write_text("id,x,y,z\n" + "\n".join(lines) + "\n")
    status = main(["compare", str(path), "--alpha", "0.09375", "--adjust", "bonferroni", "--json"])
    assert status == 0
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    tied = [p for p in pairs if {p["a"], p["b"]} == {"x", "y"}][0]
    assert tied["reject"] is True
    assert tied["adjusted_pvalue"] == 0.09375


# alpha = K 2^-j ties with K p for p = 2^(1 - m): such levels make ties common in the draws.
LEVELS = sorted(
    {m * 2.0**-j for m in (1, 2, 3, 4, 5, 6) for j in range(2, 9) if m * 2.0**-j < 1}
    | {0.01, 0.05, 0.1}
)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda k: st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=1,
                           max_size=14)
    ),
    st.sampled_from(LEVELS),
    st.sampled_from(["holm", "bonferroni"]),
)  # fmt: skip
def test_every_pair_in_the_json_rejects_exactly_when_its_adjusted_p_is_at_most_alpha(
    rows, alpha, adjust
):
    k = len(rows[0])
    result = compare_systems(np.array(rows), [f"s{i}" for i in range(k)], alpha=alpha,
                             adjust=adjust)  # fmt: skip
    shown = json.loads(json.dumps(result.to_dict()))
    for pair in shown["pairs"]:
        assert pair["reject"] == (pair["adjusted_pvalue"] <= shown["alpha"])
        assert pair["reject"] == (pair["log10_adjusted_pvalue"] <= math.log10(shown["alpha"]))
