"""How likely B is better than A, given the table: a posterior probability with a Jeffreys prior.

Only the discordant pairs carry information about which system is better. With beta the chance
that a discordant case is one only A passes, B is better (pB > pA) exactly when beta < 1/2, and
with the Jeffreys prior Beta(1/2, 1/2) on beta the posterior is Beta(b + 1/2, c + 1/2).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from calculator._validation import check_count
from calculator.mcnemar import LN10
from calculator.tails import log_incomplete_beta_half

__all__ = ["PRIOR", "BetterProbability", "probability_b_better"]

#: The prior, as reports name it.
PRIOR = "Jeffreys Beta(1/2, 1/2)"


@dataclass(frozen=True, slots=True, kw_only=True)
class BetterProbability:
    """Posterior probabilities that B is better than A and that A is better than B.

    The two add up to 1 (a tie has posterior probability 0). Each comes with its base-10
    logarithm, finite however small the probability is.
    """

    probability_B_better: float
    probability_A_better: float
    log10_probability_B_better: float
    log10_probability_A_better: float
    prior: str = PRIOR

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def probability_b_better(b: int, c: int) -> BetterProbability:
    """P(pB > pA | data) with a Jeffreys prior on the share of discordant pairs A wins.

    Parameters
    ----------
    b, c : int
        Discordant counts: only A passes, only B passes.

    Returns
    -------
    BetterProbability

    Raises
    ------
    TypeError, ValueError
        If `b` or `c` is not a non-negative integer.

    Notes
    -----
    Given m = b + c discordant pairs, b ~ Binomial(m, beta) with beta = p10 / (p10 + p01), and
    pB - pA = p01 - p10 is positive exactly when beta < 1/2. With the Jeffreys prior
    Beta(1/2, 1/2) the posterior of beta is Beta(b + 1/2, c + 1/2), so

        P(B better | data) = I_{1/2}(b + 1/2, c + 1/2),
        P(A better | data) = I_{1/2}(c + 1/2, b + 1/2) = 1 - P(B better | data),

    with I the regularised incomplete beta function. The same holds with a Dirichlet(1/2, 1/2,
    1/2, 1/2) prior on the four cells. Each probability is computed directly (never as 1 minus
    the other), with scipy's ``betainc``; below 1e-250 a log-domain series takes over, so that a
    probability of 2^-5000 is reported by its log10 instead of as 0. With no discordant pairs
    the posterior is the prior, symmetric about 1/2: both probabilities are 1/2, as whenever b = c.

    This answers a different question from a p-value: it is the probability of the direction
    given the data (and the prior), whereas a p-value is the probability of data at least this
    extreme if the two systems passed equally often.

    References
    ----------
    .. [1] Jeffreys, H. (1946). An invariant form for the prior probability in estimation
           problems. Proceedings of the Royal Society A 186, 453-461.

    Examples
    --------
    >>> r = probability_b_better(5, 15)
    >>> round(r.probability_B_better, 4), round(r.probability_A_better, 4)
    (0.9886, 0.0114)
    >>> probability_b_better(0, 0).probability_B_better
    0.5
    >>> round(probability_b_better(5000, 0).log10_probability_B_better, 2)
    -1507.25
    """
    b = check_count(b, "b")
    c = check_count(c, "c")
    if b == c:  # the posterior is symmetric about 1/2
        log_b_better = log_a_better = -math.log(2.0)
    else:
        log_b_better = log_incomplete_beta_half(b + 0.5, c + 0.5)
        log_a_better = log_incomplete_beta_half(c + 0.5, b + 0.5)
    return BetterProbability(
        probability_B_better=math.exp(log_b_better),
        probability_A_better=math.exp(log_a_better),
        log10_probability_B_better=log_b_better / LN10,
        log10_probability_A_better=log_a_better / LN10,
    )
