"""A suite's answer: the task-stratified exact McNemar test, which is the summed table's.

A suite of tasks (lm-eval's group, an Inspect run of several evals) asks one question of this
suite's questions: does B's pass rate over all of them, each question weighted once (the
micro-average lm-eval reports for a group with ``weight_by_size``), differ from A's? The test
that answers it is stratified by task: within each task a discordant question is, under H0,
as likely to favour either system, whatever the task's difficulty or its number of
discordant questions.

The identity. Condition on each task's discordant count m_t (t = 1..K). Under H0 the count
b_t of questions only A passes is Binomial(m_t, 1/2), independently across tasks (the tasks'
questions are different questions). The probability generating function of b_t is
((1 + s)/2)^m_t; the sum B = b_1 + ... + b_K of independent variables has the product of
their generating functions, ((1 + s)/2)^M with M = m_1 + ... + m_K: the generating function
of Binomial(M, 1/2). So, conditional on every task's m_t, B is Binomial(M, 1/2), a law that
depends on the m_t only through their sum, and every p-value formed from B's tail (doubled,
mid-p, one-sided) is that of the exact McNemar test of the summed table
(b = sum b_t, c = sum c_t). The stratified exact test is the summed table's exact test,
exactly: no approximation, and conditional on each task's discordant count, not only on
their sum. Its interval is the summed table's; a margin (Tango's score test on the summed
table) asks the same of the micro-averaged difference (sum b_t - sum c_t)/sum n_t. That test
is not conditional, and its variance comes from the summed table: with n_t questions in task
t, the pooled variance (psi - delta^2)/n is at least the stratified sum of
n_t (psi_t - delta_t^2)/n^2 (psi and delta the n_t-weighted averages of the tasks' psi_t and
delta_t, and delta^2 <= sum (n_t/n) delta_t^2 by Jensen), so the tasks' strata can only
make it careful.

The null it is exact under is the sharp one: within every task no difference. It is also a
valid test of the weaker null of the micro-average, that the expected leans cancel over the
suite (sum m_t (2 pi_t - 1) = 0, with pi_t the chance that a discordant question of task t
favours A): then B has mean M/2 and variance sum m_t pi_t (1 - pi_t) <= M/4, so the
Binomial(M, 1/2) reference is, in large samples, careful.

It answers for *these* questions. Whether a lead would carry over to other tasks like these
is another question, answered by the tasks as clusters (:mod:`calculator.clustered_exact`),
whose exact sign-flip p cannot go below 2^(1 - K) with K leaning tasks: shown for contrast.

With repeats of each question (Inspect epochs), a question's repeats are not independent
cases: the same stratification holds with the question, not the sample, as the unit, which is
the cluster-robust decision over every task's questions (each question its own cluster,
:func:`calculator.logs.analysis.analyze_logs`).

:func:`stratified_exact_pvalue` computes the stratified p by its definition, the convolution
of the tasks' null laws, to check the identity; the analyses use the summed table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from calculator._lazy_scipy import stats
from calculator._validation import check_choice
from calculator.errors import CalculatorError

__all__ = [
    "MAX_CONVOLVED",
    "SUITE_METHODS",
    "stratified_exact_pvalue",
    "stratified_null",
    "suite_method",
]

#: Most discordant questions over all tasks :func:`stratified_null` convolves.
MAX_CONVOLVED = 20_000

#: The codes of a suite's answer (:func:`suite_method`): one task, no repeats ("exact"); one
#: task of repeats, its questions as clusters ("by-question"); several tasks, the
#: task-stratified exact test of the summed table ("stratified"); several tasks of repeats,
#: stratified by task with questions as clusters ("stratified-by-question").
SUITE_METHODS = ("exact", "by-question", "stratified", "stratified-by-question")


def suite_method(tasks: int, repeats: bool) -> str:
    """The code of the test that answers a suite's question (:data:`SUITE_METHODS`).

    >>> suite_method(3, False), suite_method(3, True), suite_method(1, True)
    ('stratified', 'stratified-by-question', 'by-question')
    """
    if tasks > 1:
        return "stratified-by-question" if repeats else "stratified"
    return "by-question" if repeats else "exact"


def stratified_null(m_counts: Sequence[int] | np.ndarray) -> np.ndarray:
    """The null law of B = sum of b_t, each Binomial(m_t, 1/2) independently: the
    convolution of the tasks' binomials, P[B = 0], ..., P[B = sum m_t].

    >>> [round(float(p), 12) for p in stratified_null([1, 1])]
    [0.25, 0.5, 0.25]
    """
    m = np.asarray(m_counts, dtype=np.int64)
    if m.ndim != 1 or np.any(m < 0):
        raise CalculatorError(f"m_counts must be non-negative counts, one a task; got {m_counts}")
    if int(m.sum()) > MAX_CONVOLVED:
        raise CalculatorError(
            f"{int(m.sum()):,} discordant questions: more than the {MAX_CONVOLVED:,} the "
            "convolution takes; the summed table's exact test is the same test"
        )
    law = np.ones(1)
    for count in m:
        law = np.convolve(law, stats.binom.pmf(np.arange(count + 1), count, 0.5))
    return law


def stratified_exact_pvalue(
    b_counts: Sequence[int] | np.ndarray,
    c_counts: Sequence[int] | np.ndarray,
    *,
    alternative: str = "two-sided",
) -> float:
    """The task-stratified exact McNemar p by its definition: the tail of B = sum b_t in the
    convolution of the tasks' Binomial(m_t, 1/2) laws, doubled when two-sided (capped at 1);
    "greater" (B better) takes P[B <= b], "less" P[B >= b]. It equals the exact McNemar p
    of the summed table (the module's identity).

    >>> from calculator.mcnemar import mcnemar_exact
    >>> p = stratified_exact_pvalue([9, 7], [6, 5])
    >>> round(p, 6), round(mcnemar_exact(16, 11).pvalue, 6)
    (0.442068, 0.442068)
    """
    check_choice(alternative, "alternative", ("two-sided", "greater", "less"))
    b = np.asarray(b_counts, dtype=np.int64)
    c = np.asarray(c_counts, dtype=np.int64)
    if b.shape != c.shape or np.any(b < 0) or np.any(c < 0):
        raise CalculatorError("b_counts and c_counts must be non-negative counts, one a task")
    law = stratified_null(b + c)
    total = int(b.sum())
    lower, upper = float(law[: total + 1].sum()), float(law[total:].sum())
    if alternative == "greater":
        return min(1.0, lower)
    if alternative == "less":
        return min(1.0, upper)
    return min(1.0, 2.0 * min(lower, upper))
