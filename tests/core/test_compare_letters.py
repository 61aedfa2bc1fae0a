"""The compact letter display (Piepho 2004) of the systems not separated from each other.

References used below, each with its provenance:
- An independent computation: the maximal cliques of the "not separated" graph, found here by
  enumerating every subset of the k systems (k <= 7) and keeping the maximal ones with no
  separated pair inside. The letters must equal them as sets.
- Written by hand: small displays whose maximal groups can be read off directly (a chain in
  which each system is separated only from those two or more places away gives a, ab, bc, cd,
  d). Piepho's (2004) own examples were not at hand, so none is reproduced here.
"""

import itertools
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.compare import compare_systems, letter_groups
from calculator.compare.letters import MAX_GROUPS, letter_name


def maximal_cliques(k: int, separated: set[frozenset[int]]) -> set[frozenset[int]]:
    """Every maximal subset of range(k) holding no separated pair, by brute force."""
    cliques = [
        frozenset(subset)
        for size in range(1, k + 1)
        for subset in itertools.combinations(range(k), size)
        if not any(frozenset(pair) in separated for pair in itertools.combinations(subset, 2))
    ]
    return {c for c in cliques if not any(c < other for other in cliques)}


@st.composite
def separations(draw, max_k=7):
    k = draw(st.integers(1, max_k))
    pairs = list(itertools.combinations(range(k), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    return k, {frozenset(pair) for pair in chosen}


def display(k, separated):
    names = [f"s{i}" for i in range(k)]
    return names, letter_groups(names, [(names[i], names[j]) for i, j in map(sorted, separated)])


@given(separations())
def test_letters_are_the_maximal_cliques_of_the_not_separated_graph(case):
    k, separated = case
    names, shown = display(k, separated)
    assert shown.complete
    as_sets = {frozenset(names.index(name) for name in group) for group in shown.groups}
    assert as_sets == maximal_cliques(k, separated)
    assert len(as_sets) == len(shown.groups)  # no group twice


@given(separations())
def test_two_systems_share_a_letter_iff_not_separated(case):
    k, separated = case
    names, shown = display(k, separated)
    assert all(shown.letters[name] for name in names)  # every system has a letter
    for i, j in itertools.combinations(range(k), 2):
        share = bool(set(shown.letters[names[i]]) & set(shown.letters[names[j]]))
        assert share == (frozenset((i, j)) not in separated)


@given(separations())
def test_letters_go_in_rank_order(case):
    k, separated = case
    names, shown = display(k, separated)
    firsts = [names.index(group[0]) for group in shown.groups]
    assert firsts == sorted(firsts)
    assert shown.letters[names[0]].startswith("a")
    for group in shown.groups:
        assert [names.index(name) for name in group] == sorted(names.index(n) for n in group)


# Hand-written: neighbours never separated, anything two places apart separated (a chain).
CHAIN = [("A", "C"), ("A", "D"), ("A", "E"), ("B", "D"), ("B", "E"), ("C", "E")]


@pytest.mark.parametrize(
    ("ranking", "separated", "letters", "adjacent"),
    [
        ("ABCDE", CHAIN, {"A": "a", "B": "ab", "C": "bc", "D": "cd", "E": "d"}, 0),
        ("ABC", [], {"A": "a", "B": "a", "C": "a"}, 0),
        ("ABC", [("A", "B"), ("B", "C"), ("A", "C")], {"A": "a", "B": "b", "C": "c"}, 2),
        ("ABCD", [("A", "B"), ("A", "C"), ("A", "D")], {"A": "a", "B": "b", "C": "b", "D": "b"}, 1),
        # Not transitive: C is with A and with E, which are separated.
        ("ACE", [("A", "E")], {"A": "a", "C": "ab", "E": "b"}, 0),
    ],
)
def test_letters_written_by_hand(ranking, separated, letters, adjacent):
    shown = letter_groups(list(ranking), separated)
    assert shown.letters == letters
    assert shown.adjacent_separated == adjacent


def test_letter_names_continue_past_z():
    assert [letter_name(i) for i in (0, 25, 26, 51, 52)] == ["a", "z", "aa", "az", "ba"]


def test_too_many_groups_give_no_display_rather_than_a_wrong_one():
    # A perfect matching of 20 separated pairs among 40 systems has 2^20 maximal groups.
    names = [f"s{i}" for i in range(40)]
    shown = letter_groups(names, [(names[2 * i], names[2 * i + 1]) for i in range(20)])
    assert not shown.complete and not shown.groups and MAX_GROUPS < 2**20
    assert shown.adjacent_separated == 20


def test_unknown_system_is_refused():
    with pytest.raises(ValueError, match="No system 'Z'"):
        letter_groups(["A", "B"], [("A", "Z")])


def test_compare_systems_groups_follow_its_adjusted_decisions():
    rng = np.random.default_rng(5)
    outcomes = rng.random((300, 6)) < np.linspace(0.4, 0.8, 6)
    result = compare_systems(outcomes, list("ABCDEF"))
    shown = result.letter_display()
    for pair in result.pairs:
        share = bool(set(shown.letters[pair.a]) & set(shown.letters[pair.b]))
        assert share == (not pair.reject)
    payload = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert payload["groups"]["letters"] == shown.letters
    ranked = result.ranking
    expected = sum(result.pair(x, y).reject for x, y in zip(ranked, ranked[1:], strict=False))
    assert payload["groups"]["adjacent_separated"] == expected
