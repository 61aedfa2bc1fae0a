"""Three or more systems: ties in the ranking, pairs that can never be separated, and the one
p <= alpha rule for adjusted p-values (issue 24, items 4 and 12).

Reference: Holm (1979) step-down, adjusted p_(j) = max over i <= j of min(1, (K - i) p_(i));
Bonferroni min(1, K p); the exact McNemar p of m to 0 is 2^(1 - m) (two-sided, doubling).
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.compare import adjust_pvalues, compare_systems
from calculator.mcnemar import mcnemar_exact
from calculator.report.compare import describe_pairs, describe_ties, never_separable
from calculator.significance import adjusted_exact_tests_reject
from ui.compare_words import ranking_caption


def test_tied_systems_share_their_rank_on_every_surface():
    result = compare_systems([[1, 0, 0], [0, 1, 0], [1, 1, 0]], ["x", "y", "z"])
    assert [result.rank(name) for name in result.ranking] == [1, 1, 3]
    assert "x and y pass equally often (2 of the 3 cases each): they are tied, not ranked." in (
        ranking_caption(result)
    )
    assert [row["rank"] for row in result.to_dict()["ranking"]] == [1, 1, 3]
    assert describe_ties(compare_systems([[1, 0, 0], [1, 1, 0]], ["x", "y", "z"])) is None


def test_bonferroni_pair_with_six_discordant_cases_can_never_be_separated_among_three():
    # 6 to 0 gives p = 2^-5 = 0.03125; Bonferroni over 3 pairs makes it 0.09375 > 0.05, while
    # Holm's last step could still separate it (0.03125 <= 0.05).
    rows = [[1, 0, 1]] * 6 + [[1, 1, 1]] * 4
    bonferroni = compare_systems(rows, ["x", "y", "z"], adjust="bonferroni")
    holm = compare_systems(rows, ["x", "y", "z"], adjust="holm")
    assert never_separable(bonferroni.pair("x", "y"), bonferroni)
    assert not never_separable(holm.pair("x", "y"), holm)
    assert "x and y (6 cases separate them)" in describe_pairs(bonferroni)
    assert "x and y (6" not in describe_pairs(holm)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=2, max_size=6),
    st.sampled_from(["holm", "bonferroni"]),
    st.sampled_from([0.01, 0.05, 0.1]),
)
def test_adjusted_rule_agrees_with_the_adjusted_p_values_away_from_ties(splits, method, alpha):
    tests = [mcnemar_exact(b, c) for b, c in splits]
    adjusted = adjust_pvalues([t.pvalue for t in tests], method=method)
    decided = adjusted_exact_tests_reject(splits, [t.log10_pvalue for t in tests], alpha, method)
    for p_adj, reject in zip(adjusted, decided, strict=True):
        if not math.isclose(p_adj, alpha, rel_tol=1e-9):  # decimal alphas never tie exactly
            assert reject == (p_adj <= alpha)
