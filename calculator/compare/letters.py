"""The compact letter display: the groups of systems not separated from each other.

:func:`letter_groups` takes the systems in rank order and the pairs that the adjusted pairwise
tests separated, and returns the groups (each a maximal set of systems no two of which are
separated), lettered in rank order, by Piepho's insert-and-absorb algorithm.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from calculator.errors import CalculatorError

__all__ = ["MAX_GROUPS", "LetterDisplay", "letter_groups", "letter_name"]

#: Most groups (letters) shown, and most kept while the algorithm runs: beyond it the display
#: would be unreadable (the number of maximal groups can grow exponentially with the systems).
MAX_GROUPS = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class LetterDisplay:
    """Groups of systems not separated from each other, in rank order.

    Attributes
    ----------
    groups : tuple of tuple of str
        Each group's systems in rank order; the groups ordered by their best-ranked systems.
        The i-th group carries the letter ``letter_name(i)``. Empty when `complete` is False.
    letters : dict of str to str
        Each system's letters, in the order of the groups ("" when `complete` is False).
    complete : bool
        False when more than :data:`MAX_GROUPS` groups would be needed; then no display is given.
    adjacent_separated : int
        How many of the k - 1 pairs of neighbours in rank order were separated.
    """

    groups: tuple[tuple[str, ...], ...]
    letters: dict[str, str]
    complete: bool
    adjacent_separated: int

    def to_dict(self) -> dict[str, object]:
        return {
            "complete": self.complete,
            "groups": [
                {"letter": letter_name(i), "systems": list(group)}
                for i, group in enumerate(self.groups)
            ],
            "letters": dict(self.letters),
            "adjacent_separated": self.adjacent_separated,
        }


def letter_name(index: int) -> str:
    """The index-th letter: a to z, then aa, ab, ... (as spreadsheet columns, in lower case).

    Examples
    --------
    >>> [letter_name(i) for i in (0, 25, 26, 27, 701, 702)]
    ['a', 'z', 'aa', 'ab', 'zz', 'aaa']
    """
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


def letter_groups(ranking: Sequence[str], separated: Iterable[tuple[str, str]]) -> LetterDisplay:
    """The compact letter display of systems in rank order, given the separated pairs.

    Parameters
    ----------
    ranking : sequence of str
        The systems, best first (ties in any fixed order).
    separated : iterable of (str, str)
        The pairs that the (adjusted) pairwise tests separated, in either order.

    Returns
    -------
    LetterDisplay

    Raises
    ------
    ValueError
        On a repeated system or a pair naming a system not in `ranking`.

    Notes
    -----
    Insert and absorb (Piepho 2004): start from one group holding every system; for each
    separated pair (i, j), split every group holding both into a copy without i and a copy
    without j, then drop every group contained in another. After every pair the groups are
    exactly the maximal sets of systems no two of which are separated (the maximal cliques of
    the "not separated" graph), so two systems share a letter if and only if they are not
    separated, and every system has at least one letter. Piepho's optional sweeping step, which
    removes letters not needed for that equivalence, is not applied: each letter is a maximal
    group. Letters go in rank order: the group of the best-ranked system is "a".

    Sharing a letter means the tests did not separate the two systems, not that they are equal;
    not being separated is not transitive, so a system can share letters with two systems that
    are separated from each other.

    References
    ----------
    .. [1] Piepho, H.-P. (2004). An algorithm for a letter-based representation of
           all-pairwise comparisons. Journal of Computational and Graphical Statistics 13(2),
           456-466.

    Examples
    --------
    >>> d = letter_groups(["A", "B", "C", "D"], [("A", "C"), ("A", "D"), ("B", "D")])
    >>> d.groups, d.letters, d.adjacent_separated
    ((('A', 'B'), ('B', 'C'), ('C', 'D')), {'A': 'a', 'B': 'ab', 'C': 'bc', 'D': 'c'}, 0)
    """
    ranking = tuple(ranking)
    position = {name: i for i, name in enumerate(ranking)}
    if len(position) != len(ranking):
        raise CalculatorError(f"`ranking` must name each system once, but got {ranking}.")
    edges = set()
    for first, second in separated:
        for name in (first, second):
            if name not in position:
                raise CalculatorError(f"No system {name!r} in the ranking {ranking}.")
        edges.add(frozenset((position[first], position[second])))
    adjacent = sum(frozenset((i, i + 1)) in edges for i in range(len(ranking) - 1))
    groups = _insert_absorb(len(ranking), edges)
    if groups is None:
        empty = dict.fromkeys(ranking, "")
        return LetterDisplay(groups=(), letters=empty, complete=False, adjacent_separated=adjacent)
    members = sorted(
        (tuple(i for i in range(len(ranking)) if mask >> i & 1) for mask in groups),
    )
    letters = {
        name: "".join(letter_name(g) for g, group in enumerate(members) if i in group)
        for i, name in enumerate(ranking)
    }
    return LetterDisplay(
        groups=tuple(tuple(ranking[i] for i in group) for group in members),
        letters=letters,
        complete=True,
        adjacent_separated=adjacent,
    )


def _insert_absorb(k: int, edges: set[frozenset[int]]) -> list[int] | None:
    """The maximal groups as bit masks over positions, or None past :data:`MAX_GROUPS`."""
    groups = [(1 << k) - 1] if k else []
    # Pairs far apart in rank first: their splits cut the fewest groups in two.
    for edge in sorted(edges, key=lambda e: (-abs(max(e) - min(e)), min(e))):
        i, j = sorted(edge)
        both = (1 << i) | (1 << j)
        kept, split = [], []
        for mask in groups:
            if mask & both == both:
                split += [mask & ~(1 << i), mask & ~(1 << j)]
            else:
                kept.append(mask)
        # Absorb: a split group contained in another group is dropped. Kept groups were
        # maximal and stay so (a split group is smaller than the group it came from).
        candidates = kept + split
        groups = kept + [
            mask
            for n, mask in enumerate(split)
            if not any(
                other != mask and other & mask == mask or (other == mask and m < len(kept) + n)
                for m, other in enumerate(candidates)
            )
        ]
        if len(groups) > MAX_GROUPS:
            return None
    return groups
