"""Sentences that qualify a result the report would otherwise state too plainly.

- :func:`few_pairs_caveat`: said when no split of the discordant pairs can reach alpha.
- :func:`unreachable_sentence`: the same fact as the teaching section states it.
- :func:`few_clusters_caveat`: said when too few questions lean either way for the exact
  sign-flip test of their leans to reach alpha.
- :func:`zero_width_caveat`: said when the Wald interval collapses to a point.
"""

from __future__ import annotations

from calculator.intervals import DifferenceInterval
from calculator.rejection import smallest_pvalue
from calculator.report.formatting import plural

__all__ = ["few_clusters_caveat", "few_pairs_caveat", "unreachable_sentence", "zero_width_caveat"]


def few_pairs_caveat(discordant: int, alpha: float, convention: str) -> str | None:
    """A sentence when no split of the m discordant pairs gives p <= alpha, else None.

    With m = 0 the report already says that no case tells the systems apart, so this is None.

    Examples
    --------
    >>> print(few_pairs_caveat(4, 0.05, "doubling"))
    With only 4 discordant pairs no split can give p ≤ 0.05: even 4 to 0 gives the exact test \
p = 2^(1 − 4) = 0.125, so a non-significant result here says little about whether the systems \
differ.
    >>> few_pairs_caveat(6, 0.05, "doubling") is None
    True
    """
    smallest = smallest_pvalue(discordant, convention)
    # smallest is an exact power of two, so this float comparison is exact at a tie (the one
    # rule of calculator.significance reduces to it).
    if discordant == 0 or smallest <= alpha:
        return None
    if convention == "doubling":
        test, power = "the exact test", f"2^(1 − {discordant:,})"
    else:
        test, power = "the mid-p test", f"2^(−{discordant:,})"
    value = f"{smallest:.4g}"  # a power of 2: 1, 0.5, 0.25, 0.125, 0.0625, 0.03125, ...
    return (
        f"With only {plural(discordant, 'discordant pair')} no split can give p ≤ {alpha:g}: "
        f"even {discordant:,} to 0 gives {test} p = {power} = {value}, so a non-significant "
        "result here says little about whether the systems differ."
    )


def few_clusters_caveat(
    leaning: int,
    alpha: float,
    unit: str = "question",
    *,
    held: bool = True,
    one_sided: bool = False,
) -> str | None:
    """A sentence when no sign pattern of the m leaning clusters gives the exact two-sided
    sign-flip test p <= alpha (its smallest p is 2^(1 - m), the exact McNemar test's with m
    discordant pairs; 2^(-m) `one_sided`), else None; with m = 0 every test already says p = 1.
    `held`: the clustered test beside it is held at the sign-flip test's p, and the sentence
    says so (pass/fail by question); the scores' sign-flip test is the test itself.

    Examples
    --------
    >>> print(few_clusters_caveat(4, 0.05))  # doctest: +NORMALIZE_WHITESPACE
    With only 4 questions leaning either way no result can give p ≤ 0.05: the exact
    sign-flip test cannot go below 2^(1 − 4) = 0.125 (when every one leans the same way), and
    the clustered test is held at it.
    >>> few_clusters_caveat(6, 0.05) is None
    True
    >>> print(few_clusters_caveat(2, 0.05, "cluster", held=False, one_sided=True))
    ... # doctest: +NORMALIZE_WHITESPACE
    With only 2 clusters leaning either way no result can give p ≤ 0.05: the exact sign-flip
    test cannot go below 2^(−2) = 0.25 (when every one leans the same way).
    """
    smallest = smallest_pvalue(leaning, "mid-p" if one_sided else "doubling")
    if leaning == 0 or smallest <= alpha:  # a power of two: exact at a tie
        return None
    power = f"2^(−{leaning:,})" if one_sided else f"2^(1 − {leaning:,})"
    return (
        f"With only {plural(leaning, unit)} leaning either way no result can give p ≤ "
        f"{alpha:g}: the exact sign-flip test cannot go below {power} = "
        f"{smallest:.4g} (when every one leans the same way)"
        + (", and the clustered test is held at it." if held else ".")
    )


def zero_width_caveat(difference: DifferenceInterval) -> str | None:
    """A sentence when the Wald interval has zero width, else None.

    Wald's standard error is 0 when no case is discordant, or when every case is discordant
    and all in the same direction; the interval is then a single point, which is a failure of
    the method and not certainty about the difference.

    Examples
    --------
    >>> from calculator.intervals import difference_interval
    >>> zero_width_caveat(difference_interval(10, 0, 0, 10, method="wald"))[:39]
    'The Wald interval has zero width here: '
    """
    if difference.method != "wald" or difference.low != difference.high:
        return None
    return (
        "The Wald interval has zero width here: its standard error is 0 when no case is "
        "discordant, or when every case is discordant in the same direction, which is a flaw of "
        "the method and not certainty about the difference; the Newcombe, Tango or "
        "exact-compatible interval gives a usable range."
    )


def unreachable_sentence(discordant: int, alpha: float) -> str:
    """The sentence of the teaching section (page and ``teach``) when no split of the m
    discordant pairs can reach alpha.

    Examples
    --------
    >>> print(unreachable_sentence(4, 0.05))  # doctest: +NORMALIZE_WHITESPACE
    With 4 discordant pairs no result can reach α = 0.05: the test cannot call any split
    significant, whatever the systems' true difference.
    """
    return (
        f"With {plural(discordant, 'discordant pair')} no result can reach α = {alpha:g}: the "
        "test cannot call any split significant, whatever the systems' true difference."
    )
