"""Is a comparison already run able to tell the systems apart at all? The ratio of its n to the
n the two-sided test needs to detect a difference the user names, at the disagreement seen.

- :func:`detect_check`: that n, the ratio and the power at the comparison's own n, as a
  :class:`DetectCheck` (``cases --detect POINTS``).

The difference is the user's, never the one observed: power computed at the observed
difference (post-hoc power) is a function of the p-value alone and says nothing the p does not
(Hoenig & Heisey 2001). The share of cases where the systems disagree is a nuisance parameter
of the design, estimated from the cases; it sets how many of them carry information.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from calculator._validation import check_bounded_count, check_count, check_probability
from calculator.errors import CalculatorError
from calculator.planning.design import plan
from calculator.planning.inputs import MAX_N
from calculator.planning.power import exact_power

__all__ = ["DetectCheck", "detect_check"]


@dataclass(frozen=True, slots=True, kw_only=True)
class DetectCheck:
    """The comparison's n against the n that detects `difference` with `power`.

    Attributes
    ----------
    n, discordant : int
        Cases compared, and those where the systems disagree.
    disagreement : float
        discordant / n, the share the plan assumes.
    difference : float
        |p10 - p01| to detect (a share: 0.03 is 3 points), either way.
    alpha, power, test
        The two-sided test's level, the target power and the test ("exact" or "chi2").
    required_n : int or None
        The smallest n whose exact power reaches `power`; None beyond
        :data:`~calculator.planning.inputs.MAX_N` (the search's bound).
    ratio : float or None
        n / required_n.
    power_at_n : float
        The exact power of the test at the comparison's n, for that difference.
    """

    n: int
    discordant: int
    disagreement: float
    difference: float
    alpha: float
    power: float
    test: str
    required_n: int | None
    ratio: float | None
    power_at_n: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def detect_check(
    n: int,
    discordant: int,
    difference: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    test: str = "exact",
) -> DetectCheck:
    """The n that detects `difference` at the disagreement discordant / n, and n's ratio to it.

    Raises CalculatorError, naming the input, when no disagreement was seen (no share to plan
    with) or when `difference` is at least the disagreement (no such cells exist).

    Examples
    --------
    >>> check = detect_check(500, 60, 0.03)
    >>> check.required_n, round(check.ratio, 2), round(check.power_at_n, 3)
    (1096, 0.46, 0.446)
    """
    n = check_bounded_count(n, "n", 1, MAX_N)
    discordant = check_count(discordant, "discordant", maximum=n)
    difference = check_probability(difference, "difference")
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    if discordant == 0:
        raise CalculatorError(
            "no case has the systems disagree, so there is no share of disagreement to plan "
            "with: the n needed to detect a difference cannot be estimated from these cases."
        )
    disagreement = discordant / n
    if difference >= disagreement:
        raise CalculatorError(
            f"a difference of {difference * 100:g} points needs the systems to disagree on more "
            f"than {difference * 100:g}% of cases, but they disagree on "
            f"{disagreement * 100:.3g}% here: ask for a smaller difference."
        )
    p10, p01 = (disagreement + difference) / 2, (disagreement - difference) / 2
    try:
        required = plan(p10=p10, p01=p01, alpha=alpha, power=power, test=test).n
    except CalculatorError:  # more pairs than the search considers (MAX_N)
        required = None
    return DetectCheck(
        n=n,
        discordant=discordant,
        disagreement=disagreement,
        difference=difference,
        alpha=alpha,
        power=power,
        test=test,
        required_n=required,
        ratio=None if required is None else n / required,
        power_at_n=exact_power(n, p10, p01, alpha=alpha, test=test),
    )
