"""The exact test of per-question pass shares when A and B have different numbers of repeats.

With k_A repeats of a question for A and k_B for B, the share difference x/k_A - y/k_B is not
symmetric about 0 under the null hypothesis when k_A != k_B (at pass probability 0.9, 3 repeats
against 1: P(-1/3) = 0.219, P(+1/3) = 0.003), so flipping its sign is not a permutation of the
data and the sign-flip test is not exact (statistics review 4, B1). The k_A + k_B samples of a
question are exchangeable under H0 (A and B pass it equally often, samples independent given
the question), so the exact test permutes the labels A and B among them: given the t passes of
a question, A's count x is hypergeometric, and the sum over questions of x/k_A - (t - x)/k_B
has the exact distribution of the convolution of the questions' laws. It does not use the
arbitrary pairing of A's repeat j with B's repeat j.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from calculator._lazy_scipy import stats
from calculator.errors import CalculatorError

__all__ = [
    "MAX_SUPPORT",
    "LabelPermutationTest",
    "label_permutation_test",
    "score_label_permutation",
    "unequal_repeats",
]

#: Largest span of the sum (in grid steps) the exact distribution is computed over; a wider
#: one (tens of thousands of questions) takes the distribution's normal approximation.
MAX_SUPPORT = 4_000_000
#: Most arrangements of the labels the scores' test enumerates (over the questions whose
#: scores differ); beyond it, the normal approximation of their distribution.
MAX_ENUMERATED = 1_000_000
_DIRECT_WORK = 50_000_000  # products of direct convolution before an FFT is used instead
_FFT_NOTE = "distribution by FFT convolution: p-values below about 1e-12 are not resolved"
#: The note of a normal approximation's p given as its bound (:attr:`pvalue_bound`).
NORMAL_BOUND_NOTE = "its normal tail is not resolved below about 1e-12: p is below it"


def _bounded(pvalue: float, note: str | None) -> dict[str, object]:
    """`pvalue` and `note`, or below :data:`FFT_RESOLUTION` the bound itself, flagged (an FFT
    convolution's rounding, or a normal approximation's tail, is not a p down there)."""
    from calculator.scores.lattice import FFT_BOUND_NOTE, FFT_RESOLUTION

    if pvalue >= FFT_RESOLUTION:
        return {"pvalue": pvalue, "note": note}
    bound_note = NORMAL_BOUND_NOTE if note is None else FFT_BOUND_NOTE
    return {"pvalue": FFT_RESOLUTION, "note": bound_note, "pvalue_bound": True}


@dataclass(frozen=True, slots=True, kw_only=True)
class LabelPermutationTest:
    """The exact permutation test of the A and B labels within each question.

    Attributes
    ----------
    statistic : float
        The mean over questions of A's pass share minus B's.
    pvalue : float
        The probability, over the label permutations within every question, of a sum at least
        as extreme as the observed one (two-sided: |sum| at least |observed|; the sum has mean
        0 under H0).
    alternative : str
        "two-sided", "greater" (B's shares higher) or "less".
    method : str
        "exact-label-permutation", or "normal-label-permutation" where the sum spans more than
        :data:`MAX_SUPPORT` steps (the permutation distribution's normal approximation).
    unit : str
        "question".
    units, nonzero_units : int
        Questions, and those whose labels can move the sum (passed by some but not all of their
        samples).
    note : str or None
        A limit of the computation (an FFT convolution, or the normal approximation's tail),
        None when there is none.
    pvalue_bound : bool
        Whether `pvalue` is only an upper bound: the p lies below what its computation
        resolves (:data:`~calculator.scores.lattice.FFT_RESOLUTION`, 1e-12, for an FFT
        convolution and for the normal approximation, whose relative error that far out is
        unknown), and `pvalue` is that bound: written "p < 1e-12", never decided below it.
    """

    statistic: float
    pvalue: float
    alternative: str
    method: str
    unit: str
    units: int
    nonzero_units: int
    note: str | None = None
    pvalue_bound: bool = False

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types."""
        return asdict(self)


def unequal_repeats(repeats_a: np.ndarray, repeats_b: np.ndarray) -> bool:
    """Whether A and B have a different number of repeats of some question."""
    return bool(np.any(np.asarray(repeats_a) != np.asarray(repeats_b)))


def label_permutation_test(
    passes_a: np.ndarray,
    repeats_a: np.ndarray,
    passes_b: np.ndarray,
    repeats_b: np.ndarray,
    *,
    alternative: str = "two-sided",
) -> LabelPermutationTest:
    """The exact test of A's pass share minus B's, permuting A and B within each question.

    Parameters
    ----------
    passes_a, repeats_a, passes_b, repeats_b : array of int
        Per question: A's passes and repeats, B's passes and repeats (repeats at least 1).
    alternative : {"two-sided", "greater", "less"}
        "greater": B's pass shares higher than A's.

    Raises
    ------
    calculator.errors.CalculatorError
        On no question.

    Examples
    --------
    One question, A passing 3 of 3 and B 0 of 1: of the 4 ways to give 3 passes to 4 samples,
    only the one with B's sample failing is as extreme (share difference 1), and the other
    three give 2/3 - 1 = -1/3, so p = 1/4.

    >>> label_permutation_test([3], [3], [0], [1]).pvalue
    0.25
    """
    xa, ka, xb, kb = (
        np.asarray(v, dtype=np.int64) for v in (passes_a, repeats_a, passes_b, repeats_b)
    )
    if xa.size == 0:
        raise CalculatorError("the permutation test needs at least one question, but got none.")
    lcm = math.lcm(*(int(k) for k in np.unique(np.concatenate([ka, kb]))))
    total = xa + xb
    observed = int(np.sum(xa * (lcm // ka) - xb * (lcm // kb)))
    laws = {}  # (k_A, k_B, t) -> count of such questions
    for key in zip(ka.tolist(), kb.tolist(), total.tolist(), strict=True):
        laws[key] = laws.get(key, 0) + 1
    # Every sum is the offset plus a multiple of the steps' common divisor: computed in it.
    grid = math.gcd(*(lcm // a + lcm // b for a, b, _ in laws))
    common = {
        "statistic": float(np.mean(xa / ka - xb / kb)),
        "alternative": alternative,
        "unit": "question",
        "units": int(xa.size),
        "nonzero_units": int(np.count_nonzero((total > 0) & (total < ka + kb))),
    }
    if _span(laws, lcm, grid) > MAX_SUPPORT:
        pvalue = _normal_pvalue(laws, lcm, observed, alternative)
        return LabelPermutationTest(
            **common, **_bounded(pvalue, None), method="normal-label-permutation"
        )
    offset, pmf, by_fft = _distribution(laws, lcm, grid)
    values = offset + grid * np.arange(pmf.size)
    extreme = {
        "two-sided": np.abs(values) >= abs(observed),
        "greater": values <= observed,
        "less": values >= observed,
    }[alternative]
    pvalue = min(1.0, float(pmf[extreme].sum()))
    return LabelPermutationTest(
        **common,
        **(_bounded(pvalue, _FFT_NOTE) if by_fft else {"pvalue": pvalue}),
        method="exact-label-permutation",
    )


def score_label_permutation(
    sums: tuple[np.ndarray, np.ndarray],
    repeats: tuple[np.ndarray, np.ndarray],
    squares: tuple[np.ndarray, np.ndarray],
    *,
    alternative: str = "two-sided",
    pools: Sequence[tuple[Sequence[float], Sequence[float]]] | None = None,
) -> LabelPermutationTest:
    """The permutation test of the A and B labels within each question for graded scores:
    exact by enumeration when `pools` (each question's scores, A's then B's) are given and the
    arrangements of the questions whose scores differ number at most :data:`MAX_ENUMERATED`,
    else by the normal approximation of its distribution.

    Per question, the k_A + k_B scores are exchangeable under H0 (as the pass/fail samples of
    :func:`label_permutation_test`); over the permutations of the labels, d = mean_A - mean_B
    has mean 0 and variance s^2 (1/k_A + 1/k_B), s^2 the sample variance of the pooled scores
    (sampling k_A of M = k_A + k_B without replacement: Var(sum) = k_A sigma^2 (M - k_A) /
    (M - 1), sigma^2 = s^2 (M - 1) / M). The sum of the d over questions is referred to the
    normal law with the summed variance, which the central limit theorem over questions
    justifies; the sign flip of d is not exact when k_A != k_B (d is not symmetric under H0).

    Parameters
    ----------
    sums, repeats, squares : (array, array)
        Per question, A's then B's: the sum of its scores, their number (at least 1), the sum
        of their squares.

    Examples
    --------
    One question, A's scores 1 and 0.5, B's 0: d = 0.75, s^2 = 0.25 (pooled 1, 0.5, 0), the
    variance 0.25 (1/2 + 1) = 0.375, z = 0.75 / 0.612 = 1.22, p = 0.221.

    >>> t = score_label_permutation(([1.5], [0.0]), ([2], [1]), ([1.25], [0.0]))
    >>> round(t.statistic, 2), round(t.pvalue, 3), t.method
    (0.75, 0.221, 'normal-label-permutation-scores')
    """
    from calculator.tails import log_normal_pvalue

    sa, sb = (np.asarray(v, dtype=np.float64) for v in sums)
    ka, kb = (np.asarray(v, dtype=np.float64) for v in repeats)
    qa, qb = (np.asarray(v, dtype=np.float64) for v in squares)
    if sa.size == 0:
        raise CalculatorError("the permutation test needs at least one question, but got none.")
    total, size = sa + sb, ka + kb
    # The pooled scores' sample variance, from their sums (centred to limit cancellation).
    spread = np.clip((qa + qb - total**2 / size) / (size - 1), 0.0, None)
    differences = sa / ka - sb / kb
    variance = float(np.sum(spread * (1.0 / ka + 1.0 / kb)))
    observed = float(np.sum(differences))
    pvalue, method = 1.0, "normal-label-permutation-scores"
    exact = None if pools is None else _enumerated(pools, spread > 0.0, observed, alternative)
    if exact is not None:
        pvalue, method = exact, "exact-label-permutation"
    elif variance > 0.0:
        z = -observed / math.sqrt(variance)  # positive when B's scores are higher
        pvalue = min(1.0, math.exp(log_normal_pvalue(z, alternative)))
    bounded = _bounded(pvalue, None) if method.startswith("normal") else {"pvalue": pvalue}
    return LabelPermutationTest(
        **bounded,
        statistic=float(np.mean(differences)),
        alternative=alternative,
        method=method,
        unit="question",
        units=int(sa.size),
        nonzero_units=int(np.count_nonzero(spread > 0.0)),
    )


def _enumerated(
    pools: Sequence[tuple[Sequence[float], Sequence[float]]],
    moving: np.ndarray,
    observed: float,
    alternative: str,
) -> float | None:
    """The exact p over every arrangement of the labels within the questions whose scores
    differ (the others add the same to every sum), None beyond :data:`MAX_ENUMERATED`."""
    from itertools import combinations

    sums, constant, scale = np.zeros(1), 0.0, 0.0
    for (a, b), moves in zip(pools, moving, strict=True):
        values = np.asarray([*a, *b], dtype=np.float64)
        ka, kb, total = len(a), len(b), float(values.sum())
        if not moves:
            constant += total / ka - total / kb  # every arrangement: the same mean difference
            continue
        scale += float(np.abs(values).max()) * 2.0  # the most one question moves the sum
        if sums.size * math.comb(ka + kb, ka) > MAX_ENUMERATED:
            return None
        x = np.asarray([values[list(c)].sum() for c in combinations(range(ka + kb), ka)])
        sums = (sums[:, None] + (x / ka - (total - x) / kb)[None, :]).ravel()
    sums += constant
    gap = 1e-9 * max(scale, 1.0)  # float noise: sums equal to the observed one count as it
    extreme = {
        "two-sided": np.abs(sums) >= abs(observed) - gap,
        "greater": sums <= observed + gap,
        "less": sums >= observed - gap,
    }[alternative]
    return float(np.mean(extreme))


def _span(laws: dict, lcm: int, grid: int) -> int:
    """Grid steps spanned by the sum over questions."""
    return sum(
        (min(ka, t) - max(0, t - kb)) * ((lcm // ka + lcm // kb) // grid) * count
        for (ka, kb, t), count in laws.items()
    )


def _normal_pvalue(laws: dict, lcm: int, observed: int, alternative: str) -> float:
    """The permutation distribution's normal approximation (mean 0, the hypergeometric
    variances summed), for sums too wide to compute exactly: thousands of questions, where the
    central limit theorem holds it closely."""
    from calculator.tails import log_normal_pvalue

    # Var(x) of Hypergeometric(M = k_A + k_B samples, t passes, k_A drawn):
    # k_A t (M - t) (M - k_A) / (M^2 (M - 1)), with M >= 2.
    variance = sum(
        count
        * (lcm // ka + lcm // kb) ** 2
        * ka
        * t
        * (ka + kb - t)
        * kb
        / ((ka + kb) ** 2 * (ka + kb - 1))
        for (ka, kb, t), count in laws.items()
    )
    if variance == 0.0:
        return 1.0
    z = -observed / math.sqrt(variance)  # positive when B's shares are higher
    return min(1.0, math.exp(log_normal_pvalue(z, alternative)))


def _law(ka: int, kb: int, t: int, lcm: int, grid: int) -> tuple[int, np.ndarray]:
    """One question's sum x L/k_A - (t - x) L/k_B over x ~ Hypergeometric(k_A + k_B, t, k_A),
    as (lowest value, probabilities of it and of every `grid` steps above it)."""
    x = np.arange(max(0, t - kb), min(ka, t) + 1)
    step = (lcm // ka + lcm // kb) // grid
    low = int(x[0]) * (lcm // ka + lcm // kb) - t * (lcm // kb)
    law = np.zeros((int(x[-1]) - int(x[0])) * step + 1)
    law[(x - x[0]) * step] = stats.hypergeom.pmf(x, ka + kb, t, ka)
    return low, law


def _distribution(laws: dict, lcm: int, grid: int) -> tuple[int, np.ndarray, bool]:
    """The law of the sum over questions: its lowest value, the probabilities of it and of
    every `grid` steps above it, and whether an FFT was used."""
    parts = [(_law(ka, kb, t, lcm, grid), count) for (ka, kb, t), count in laws.items()]
    span = sum((law.size - 1) * count for (_, law), count in parts)
    offset = sum(low * count for (low, _), count in parts)
    questions = sum(count for _, count in parts)
    if questions * (span + 1) <= _DIRECT_WORK:
        pmf = np.ones(1)
        for (_, law), count in parts:
            for _ in range(count):
                pmf = np.convolve(pmf, law)
        return offset, pmf, False
    size = 1 << int(span).bit_length()
    spectrum = np.ones(size // 2 + 1, dtype=complex)
    for (_, law), count in parts:
        spectrum *= np.fft.rfft(law, size) ** count
    pmf = np.clip(np.fft.irfft(spectrum, size)[: span + 1], 0.0, None)
    return offset, pmf / pmf.sum(), True
