"""An anytime-valid test of the discordant split: a mixture e-value, valid under any stopping rule.

- :func:`log_mixture_evalue`: log E for counts b and c, over arrays (the one formula).
- :func:`anytime_test`: the e-value and the anytime-valid p at the final counts.
- :func:`anytime_test_path`: the same over a sequence of discordant pairs, with the running
  maximum of E (the smallest p the sequence allows at every look).
- :func:`anytime_analysis`: the test, its confidence sequence and the fixed-n exact test beside
  them, as an :class:`AnytimeAnalysis` (the ``anytime`` key of ``table --json`` and
  ``cases --json``).
- :func:`anytime_of`: that analysis for an :class:`~calculator.Analysis`, in its names, framing,
  level and direction: the one builder of the command line and the page.

theta is the share of the discordant pairs where only A passes; the systems pass equally often
exactly when theta = 1/2. Concordant pairs leave every figure here unchanged.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import special

from calculator._validation import check_choice, check_count, check_probability
from calculator.confidence_sequence import (
    ConfidenceSequence,
    check_path,
    check_prior_shape,
    confidence_sequence,
)
from calculator.mcnemar import ALTERNATIVES, mcnemar_exact
from calculator.significance import rejects
from calculator.tails import log_incomplete_beta_half

if TYPE_CHECKING:
    from calculator.analysis import Analysis

__all__ = [
    "AnytimeAnalysis",
    "AnytimeTest",
    "anytime_analysis",
    "anytime_of",
    "anytime_test",
    "anytime_test_path",
    "log_mixture_evalue",
]

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)
# exp() of a log E above this overflows a double: the e-value is then given by its log alone.
_LOG_MAX = math.log(np.finfo(np.float64).max)


@dataclass(frozen=True, slots=True, kw_only=True)
class AnytimeTest:
    """The mixture e-value for the discordant split and its anytime-valid p-value.

    Attributes
    ----------
    only_a, only_b, discordant : int
        b, c and m = b + c at the last look.
    alternative : str
        "two-sided"; "greater" (B's pass rate higher: c > b expected) or "less" (lower).
    prior_shape : float
        k of the Beta(k, k) mixing distribution over theta (1: uniform); one-sided, restricted
        to the alternative's half and renormalised.
    evalue : float or None
        E at the last look; None when it exceeds the largest double (see `log10_evalue`).
    log10_evalue : float
        log10 of E at the last look, finite for every count.
    max_log10_evalue : float
        log10 of the largest E over the looks (E = 1 before the first pair); from the final
        counts alone, max(0, `log10_evalue`).
    pvalue : float
        The anytime-valid p, min(1, 1 / max E); may underflow to 0, see `log10_pvalue`.
    log10_pvalue : float
        Its log10, finite for every count.
    running : bool
        True: the maximum over the sequence given; False: the final counts alone.
    """

    only_a: int
    only_b: int
    discordant: int
    alternative: str
    prior_shape: float
    evalue: float | None
    log10_evalue: float
    max_log10_evalue: float
    pvalue: float
    log10_pvalue: float
    running: bool

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def _log_half_mass(a: np.ndarray, b: np.ndarray, exact: bool = True) -> np.ndarray:
    """log I_{1/2}(a, b) over arrays: scipy's betainc, or the series far below the doubles
    (one value at a time); without `exact`, -inf there instead."""
    shape = np.shape(a)
    a, b = np.atleast_1d(a), np.atleast_1d(b)
    value = special.betainc(a, b, 0.5)
    with np.errstate(divide="ignore"):
        out = np.log(value)
    for index in np.flatnonzero(value <= 1e-250) if exact else ():
        out.flat[index] = log_incomplete_beta_half(float(a.flat[index]), float(b.flat[index]))
    return out.reshape(shape)


def log_mixture_evalue(  # noqa: ANN201
    b,  # noqa: ANN001
    c,  # noqa: ANN001
    prior_shape: float = 1.0,
    alternative: str = "two-sided",
    *,
    for_maximum: bool = False,
):
    """Natural log of the Beta(k, k) mixture e-value for counts b and c, over arrays.

    Two-sided: log E = m log 2 + log B(b + k, c + k) - log B(k, k). One-sided, the mixture is
    restricted to the alternative's half of [0, 1] and renormalised (each half holds 1/2):
    "greater" (theta < 1/2) adds log 2 + log I_{1/2}(b + k, c + k), "less" (theta > 1/2)
    log 2 + log I_{1/2}(c + k, b + k). A float for scalar input.

    With `for_maximum`, a one-sided value is -inf wherever E <= 1 is certain, so that it cannot
    move a running maximum that starts at E = 1: where twice the two-sided E is at most 1 (the
    restricted mixture is at most twice the whole), and where the half-mass underflows (I_{1/2}
    below 1e-250: the counts lean far against the alternative, and for theta on its side,
    b >= c say, theta^b (1 - theta)^c <= 2^-m). Long sequences use it, as the incomplete beta
    function at large counts costs microseconds a value; their reported values are exact.

    m log 2 and log B(b + k, c + k) nearly cancel, so log E carries an absolute error of about
    m x 1e-16 (1e-10 at m = 10^6, 1e-4 at m = 10^12): far below the digits a p-value shows.

    Examples
    --------
    >>> round(math.exp(log_mixture_evalue(35, 15)), 3)
    9.808
    >>> float(log_mixture_evalue(0, 0))
    0.0
    """
    b_arr = np.asarray(b, dtype=np.float64)
    c_arr = np.asarray(c, dtype=np.float64)
    b_arr, c_arr = np.broadcast_arrays(b_arr, c_arr)
    k = prior_shape
    value = (b_arr + c_arr) * _LN2 + special.betaln(b_arr + k, c_arr + k) - special.betaln(k, k)
    if alternative == "two-sided":
        return float(value) if np.ndim(value) == 0 else value
    toward, away = (b_arr + k, c_arr + k) if alternative == "greater" else (c_arr + k, b_arr + k)
    value = value + _LN2
    if not for_maximum:
        value = value + _log_half_mass(toward, away)
        return float(value) if np.ndim(value) == 0 else value
    # E <= 2 x the two-sided E: where that is at most 1, E cannot move a maximum from 1.
    need = np.atleast_1d(value > 0)
    half = np.full(need.shape, -np.inf)
    half[need] = _log_half_mass(np.atleast_1d(toward)[need], np.atleast_1d(away)[need], False)
    value = value + half.reshape(np.shape(value))
    return float(value) if np.ndim(value) == 0 else value


def _result(
    b: int, c: int, log_e: float, max_log_e: float, alternative: str, k: float, running: bool
) -> AnytimeTest:
    log_p = min(0.0, -max_log_e)
    return AnytimeTest(
        only_a=b,
        only_b=c,
        discordant=b + c,
        alternative=alternative,
        prior_shape=k,
        evalue=math.exp(log_e) if log_e < _LOG_MAX else None,
        log10_evalue=log_e / _LN10,
        max_log10_evalue=max_log_e / _LN10,
        pvalue=math.exp(log_p),
        log10_pvalue=log_p / _LN10,
        running=running,
    )


def anytime_test(
    b: int, c: int, *, alternative: str = "two-sided", prior_shape: float = 1.0
) -> AnytimeTest:
    """The mixture e-value for the split of b + c discordant pairs, and p = min(1, 1/E).

    Parameters
    ----------
    b, c : int
        Discordant counts at the last look: only A passes, only B passes.
    alternative : {"two-sided", "greater", "less"}
        The pass rates differ; B's is higher than A's (c > b expected); B's is lower.
    prior_shape : float
        k of the Beta(k, k) mixing distribution over theta; 1 (uniform) by default.

    Returns
    -------
    AnytimeTest
        With ``running=False``: the p from the final E, valid at any stopping time.

    Notes
    -----
    Under H0 each discordant pair favours A with probability 1/2, whatever came before. For
    each theta the likelihood ratio theta^b (1 - theta)^c / 2^-m is then a nonnegative
    martingale with mean 1, and so is its mixture over theta ~ Beta(k, k):

        E_m = 2^m B(b + k, c + k) / B(k, k),   E_m = 2^m B(b + 1, c + 1) when k = 1.

    By Ville's inequality P(E_m >= 1/alpha for some m) <= alpha, so rejecting when E crosses
    1/alpha keeps the false-alarm rate at alpha under any rule for when to stop or to look,
    and p = min(1, 1 / max over looks of E) is a valid p-value at every look. With only the
    final counts, 1/E_tau is still valid at any stopping time tau (optional stopping gives
    E[E_tau] <= 1): larger than the running version's p, never smaller. m = 0 gives E = 1, p = 1.

    One-sided, the mixing distribution is restricted to the alternative's half (theta < 1/2 for
    "greater", B better) and renormalised: a choice made here, by the construction of [2] and
    [4] (a mixture of likelihood ratios over the alternative). It stays a supermartingale under
    every theta_0 on the null side, not only at 1/2, so it tests the composite one-sided null
    (B no better than A, theta >= 1/2 for "greater"): the expected
    one-step factor 2 (theta theta_0 + (1 - theta)(1 - theta_0)) = 1 + (2 theta - 1)(2 theta_0 - 1)
    is at most 1 when theta and theta_0 lie on opposite sides of 1/2. E is at most 1 when the
    counts lean the other way.

    The price of that freedom is a larger p at a fixed n: b = 35, c = 15 gives E = 9.81 and
    p = 0.102 two-sided, against 0.0066 for the exact McNemar test at a fixed 50 pairs.

    References
    ----------
    .. [1] Ville, J. (1939). Étude critique de la notion de collectif. Gauthier-Villars, Paris.
    .. [2] Shafer, G., Shen, A., Vereshchagin, N. & Vovk, V. (2011). Test martingales, Bayes
           factors and p-values. Statistical Science 26(1), 84-101.
    .. [3] Grünwald, P., de Heide, R. & Koolen, W. (2024). Safe testing. Journal of the Royal
           Statistical Society B 86(5), 1091-1128.
    .. [4] Ramdas, A., Grünwald, P., Vovk, V. & Shafer, G. (2023). Game-theoretic statistics
           and safe anytime-valid inference. Statistical Science 38(4), 576-601.

    Examples
    --------
    >>> r = anytime_test(35, 15)
    >>> round(r.evalue, 2), round(r.pvalue, 3), r.running
    (9.81, 0.102, False)
    >>> anytime_test(0, 0).pvalue
    1.0
    >>> round(anytime_test(15, 35, alternative="greater").pvalue, 4)
    0.0511
    """
    b = check_count(b, "b")
    c = check_count(c, "c")
    check_choice(alternative, "alternative", ALTERNATIVES)
    k = check_prior_shape(prior_shape)
    log_e = log_mixture_evalue(b, c, k, alternative)
    return _result(b, c, log_e, max(0.0, log_e), alternative, k, running=False)


def anytime_test_path(
    only_a: object, *, alternative: str = "two-sided", prior_shape: float = 1.0
) -> AnytimeTest:
    """The e-value over a sequence of discordant pairs: E at the end, p from the maximum.

    Parameters
    ----------
    only_a : sequence of bool or 0/1
        The discordant pairs in the order seen: 1 (True) where only A passes, 0 where only B.
    alternative, prior_shape
        As in :func:`anytime_test`.

    Returns
    -------
    AnytimeTest
        ``running=True``: p = min(1, 1 / max E) over every prefix, E = 1 before the first pair.

    Examples
    --------
    The first 12 pairs favour A, the next 12 B: E rose to 2^12/13 = 315 and fell back
    below 1; the running p keeps 1/315.

    >>> r = anytime_test_path([1] * 12 + [0] * 12)
    >>> round(10 ** r.max_log10_evalue), round(r.evalue, 3), round(r.pvalue, 5)
    (315, 0.248, 0.00317)
    """
    path = check_path(only_a)
    check_choice(alternative, "alternative", ALTERNATIVES)
    k = check_prior_shape(prior_shape)
    b_path = np.cumsum(path)
    c_path = np.arange(1, path.size + 1) - b_path
    logs = log_mixture_evalue(b_path, c_path, k, alternative, for_maximum=True)
    b, c = (int(b_path[-1]), int(c_path[-1])) if path.size else (0, 0)
    log_e = log_mixture_evalue(b, c, k, alternative)
    return _result(b, c, log_e, float(np.max(logs, initial=0.0)), alternative, k, running=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class AnytimeAnalysis:
    """The anytime-valid view of one table: the test, its confidence sequence, and the fixed-n
    exact McNemar p for the same alternative (doubling convention) beside them. `names` and
    `framing` ("pass" or "correct") are the systems' names and the outcome's words, for the
    sentences only (as :class:`calculator.Analysis` holds them)."""

    test: AnytimeTest
    sequence: ConfidenceSequence
    alpha: float
    fixed_n_pvalue: float
    fixed_n_log10_pvalue: float
    names: tuple[str, str] = ("A", "B")
    framing: str = "pass"

    @property
    def rejects(self) -> bool:
        """Whether E has reached 1/alpha (the anytime p is at most alpha)."""
        return rejects(self.test.log10_pvalue, self.alpha)

    def to_dict(self) -> dict[str, object]:
        return {
            **self.test.to_dict(),
            "alpha": self.alpha,
            "rejects": self.rejects,
            "confidence_sequence": self.sequence.to_dict(),
            "fixed_n_pvalue": self.fixed_n_pvalue,
            "fixed_n_log10_pvalue": self.fixed_n_log10_pvalue,
            "names": list(self.names),
            "framing": self.framing,
        }


def anytime_analysis(
    b: int,
    c: int,
    *,
    n: int | None = None,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    prior_shape: float = 1.0,
    names: tuple[str, str] = ("A", "B"),
    framing: str = "pass",
) -> AnytimeAnalysis:
    """The test (:func:`anytime_test`) and the confidence sequence at level 1 - alpha
    (:func:`~calculator.confidence_sequence.confidence_sequence`, with the pass-rate
    difference when `n` is given), beside the exact McNemar test at a fixed n. `names` and
    `framing` word its sentences (:mod:`calculator.report.anytime`) and change no number.

    Examples
    --------
    >>> r = anytime_analysis(35, 15, n=100)
    >>> round(r.test.pvalue, 3), round(r.fixed_n_pvalue, 4), r.rejects
    (0.102, 0.0066, False)
    """
    alpha = check_probability(alpha, "alpha")
    test = anytime_test(b, c, alternative=alternative, prior_shape=prior_shape)
    exact = mcnemar_exact(b, c, alternative=alternative)
    return AnytimeAnalysis(
        test=test,
        sequence=confidence_sequence(b, c, level=1 - alpha, prior_shape=prior_shape, n=n),
        alpha=alpha,
        fixed_n_pvalue=exact.pvalue,
        fixed_n_log10_pvalue=exact.log10_pvalue,
        names=(str(names[0]), str(names[1])),
        framing=check_choice(framing, "framing", ("pass", "correct")),
    )


def anytime_of(
    result: Analysis, prior_shape: float = 1.0, *, alternative: str | None = None
) -> AnytimeAnalysis:
    """The anytime-valid test of an analysed table at its decision's level, in its names and
    framing: for the question's direction when it asks for one without a margin, two-sided
    otherwise (a margin's question has no anytime-valid form here). `alternative` names the
    direction where the question is asked apart from `result` (the page's Decision section).

    Examples
    --------
    >>> from calculator import analyze
    >>> r = anytime_of(analyze(50, 35, 15, 0, alternative="less", names=("old", "new")))
    >>> r.test.alternative, r.names, round(r.test.pvalue, 4)
    ('less', ('old', 'new'), 0.0511)
    """
    decision = result.decision
    one_sided = decision.margin is None and decision.alternative in ("greater", "less")
    if alternative is None:
        alternative = decision.alternative if one_sided else "two-sided"
    return anytime_analysis(
        result.table.b,
        result.table.c,
        n=result.table.n,
        alternative=alternative,
        alpha=decision.alpha,
        prior_shape=prior_shape,
        names=result.names,
        framing=result.framing,
    )
