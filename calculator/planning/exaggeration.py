"""Type M and Type S: how much a significant estimate exaggerates, and how often it has the wrong
sign, for a planned n and cell probabilities (Gelman & Carlin 2014), by exact enumeration.

- :func:`sign_and_magnitude`: power (in either direction and in the true one), the expected
  exaggeration ratio of significant estimates (Type M) and their wrong-sign rate (Type S), as a
  :class:`SignAndMagnitude`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from calculator._lazy_scipy import stats
from calculator._validation import check_count, check_probability
from calculator.planning.inputs import MAX_N, check_cells, check_test
from calculator.planning.power import limits_between, window

__all__ = ["SignAndMagnitude", "sign_and_magnitude"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SignAndMagnitude:
    """What a significant result of a planned comparison looks like, on average.

    Attributes
    ----------
    n : int
        Number of paired cases.
    p10, p01 : float
        Probabilities that only A passes and that only B passes.
    alpha : float
        Level of the two-sided test.
    test : str
        "exact" (the exact McNemar test, doubling convention) or "chi2" (uncorrected).
    power : float
        P(the test rejects), in either direction.
    power_true_direction : float
        P(the test rejects and the estimate has the sign of p10 - p01); with p10 == p01 no
        sign is true and it is `power` itself (the test's size).
    type_s : float or None
        Type S: P(estimate's sign is wrong | significant). None with no difference
        (p10 == p01: no sign is right) or when no table is significant.
    type_m : float or None
        Type M, the expected exaggeration ratio E[|b - c| / (n |p10 - p01|) | significant].
        None with no difference or when no table is significant.
    """

    n: int
    p10: float
    p01: float
    alpha: float
    test: str
    power: float
    power_true_direction: float
    type_s: float | None
    type_m: float | None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def _tails(discordant: np.ndarray, theta: float, limits: np.ndarray) -> tuple[np.ndarray, ...]:
    """For b ~ Bin(D, theta) and each D: P(b >= D - k), E[(2b - D); b >= D - k], P(b <= k) and
    E[(D - 2b); b <= k], with k = k(D) the rejection limit (-1: nothing rejected).

    The partial means come from b C(D, b) theta^b (1 - theta)^(D - b) = D theta x the pmf of
    Bin(D - 1, theta) at b - 1: E[b; b >= t] = D theta P[Bin(D - 1, theta) >= t - 1] and
    E[b; b <= k] = D theta P[Bin(D - 1, theta) <= k - 1].
    """
    d = discordant.astype(np.float64)
    fewer = np.maximum(discordant - 1, 0)  # D - 1, at D = 0 unused (k = -1 there)
    upper_start = discordant - limits  # b >= D - k
    p_up = stats.binom.sf(upper_start - 1, discordant, theta)
    p_low = stats.binom.cdf(limits, discordant, theta)
    b_up = d * theta * stats.binom.sf(upper_start - 2, fewer, theta)
    b_low = d * theta * stats.binom.cdf(limits - 1, fewer, theta)
    none = limits < 0
    p_up, p_low = np.where(none, 0.0, p_up), np.where(none, 0.0, p_low)
    b_up, b_low = np.where(none, 0.0, b_up), np.where(none, 0.0, b_low)
    return p_up, 2 * b_up - d * p_up, p_low, d * p_low - 2 * b_low


def sign_and_magnitude(
    n: int, p10: float, p01: float, *, alpha: float = 0.05, test: str = "exact"
) -> SignAndMagnitude:
    """Power, Type M and Type S of the two-sided McNemar test for n pairs, by exact enumeration.

    Parameters
    ----------
    n : int
        Number of paired cases, from 1 to :data:`~calculator.planning.inputs.MAX_N`.
    p10, p01 : float
        Probabilities that only A passes and that only B passes; p10 + p01 in (0, 1].
    alpha : float
        Significance level of the two-sided test, in (0, 1).
    test : {"exact", "chi2"}
        The exact McNemar test (doubling convention) or the uncorrected chi-square test.

    Returns
    -------
    SignAndMagnitude

    Raises
    ------
    TypeError, ValueError
        For an `n` outside 1..MAX_N (named), a cell outside [0, 1], p10 + p01 outside (0, 1],
        `alpha` outside (0, 1) or an unknown `test`.

    Notes
    -----
    The estimate of delta = p10 - p01 is (b - c)/n. With D = b + c ~ Bin(n, psi), psi = p10 +
    p01, and b | D ~ Bin(D, theta), theta = p10/psi, the test rejects when b <= k(D) or
    b >= D - k(D) (:func:`~calculator.planning.power.rejection_limits`). Summing over the
    trinomial (b, c) as D and b | D:

    - power = sum_D P(D) [P(b >= D - k) + P(b <= k)];
    - Type S = P(significant with the wrong sign) / power: for delta > 0 the lower region
      (b <= k < D/2, so c > b); for delta < 0 the upper one;
    - Type M = sum_D P(D) E[|2b - D|; significant] / (n |delta| power), Gelman & Carlin's
      exaggeration ratio over all significant results, of either sign.

    The sums over b are in closed form (:func:`_tails`), so a call costs one pass over the D
    that hold all but 1e-15 of Bin(n, psi) (O(sqrt(n))), well under a second up to
    n = :data:`~calculator.planning.inputs.MAX_N`, beyond which it is refused.

    References
    ----------
    .. [1] Gelman, A. & Carlin, J. (2014). Beyond power calculations: assessing Type S (sign)
           and Type M (magnitude) errors. Perspectives on Psychological Science 9(6), 641-651.
    .. [2] Card, D., Henderson, P., Khandelwal, U., Jia, R., Mahowald, K. & Jurafsky, D.
           (2020). With little power comes great responsibility. Proceedings of EMNLP 2020,
           9263-9274.

    Examples
    --------
    >>> r = sign_and_magnitude(500, 0.0225, 0.0025)
    >>> round(r.power, 3), round(r.type_m, 3), r.type_s < 1e-4
    (0.798, 1.116, True)
    """
    n = check_count(n, "n", maximum=MAX_N, minimum=1)
    p10, p01 = check_cells(p10, p01)
    alpha = check_probability(alpha, "alpha")
    test = check_test(test)
    psi, delta = p10 + p01, p10 - p01
    low, high = (int(end[0]) for end in window(np.array([n]), psi))
    discordant = np.arange(low, high + 1)
    weights = stats.binom.pmf(discordant, n, psi)
    limits = limits_between(low, high, alpha, test)
    p_up, size_up, p_low, size_low = (weights @ t for t in _tails(discordant, p10 / psi, limits))
    power = min(1.0, float(p_up + p_low))
    right, wrong = (p_up, p_low) if delta >= 0 else (p_low, p_up)
    defined = delta != 0 and power > 0
    return SignAndMagnitude(
        n=n,
        p10=p10,
        p01=p01,
        alpha=alpha,
        test=test,
        power=power,
        power_true_direction=min(1.0, float(right)) if delta != 0 else power,
        type_s=float(wrong) / power if defined else None,
        type_m=float(size_up + size_low) / (n * abs(delta) * power) if defined else None,
    )
