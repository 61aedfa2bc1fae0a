"""A permutation test by its normal approximation never prints a far tail as a p (review 4, N4).

The label permutation by question (A and B with different numbers of repeats, hostile-4 H3's
logs: 800 questions x 20 epochs, a few errored) printed "p = 5.1e-67" from its normal
approximation, and graded scores "p = 2.8e-43": that far out a normal tail's relative error is
unknown. As the FFT path is bounded at its resolution (``FFT_RESOLUTION``, 1e-12), such a p is
now given as that bound, flagged ``pvalue_bound``, written "p < 1.0e-12", and never decided
below it (the p held is the bound). An exact label permutation by FFT is bounded the same way.
"""

from __future__ import annotations

import numpy as np

from calculator.logs import share_permutation
from calculator.logs.share_permutation import label_permutation_test, score_label_permutation
from calculator.report.scores import permutation_p
from calculator.scores.lattice import FFT_RESOLUTION
from calculator.significance import rejects


def _far_shares():
    # 2,000 questions, A 3 repeats and B 1, A passing all and B none on a fifth of them: far in
    # the tail (the normal approximation is taken with MAX_SUPPORT lowered, as tens of
    # thousands of questions take it).
    q = 2_000
    lean = np.arange(q) % 5 == 0
    passes_a = np.where(lean, 3, 1)
    passes_b = np.where(lean, 0, 1)
    return passes_a, np.full(q, 3), passes_b, np.ones(q, dtype=int)


def test_a_normal_tail_far_out_is_a_bound(monkeypatch):
    monkeypatch.setattr(share_permutation, "MAX_SUPPORT", 10)
    test = label_permutation_test(*_far_shares())
    assert test.method == "normal-label-permutation"
    assert test.pvalue_bound and test.pvalue == FFT_RESOLUTION
    assert permutation_p(test, 0.05) == "p < 1.0e-12"
    assert test.to_dict()["pvalue_bound"] is True
    # never decided below the bound: at alpha 1e-15 the bound does not reject
    assert not rejects(np.log10(test.pvalue), 1e-15)


def test_graded_scores_far_out_are_a_bound():
    q = 2_000
    rng = np.random.default_rng(0)
    a = rng.uniform(0.6, 1.0, size=(q, 2))
    b = rng.uniform(0.0, 0.4, size=(q, 1))
    test = score_label_permutation(
        (a.sum(1), b.sum(1)), (np.full(q, 2), np.full(q, 1)), ((a**2).sum(1), (b**2).sum(1))
    )
    assert test.method == "normal-label-permutation-scores"
    assert test.pvalue_bound and test.pvalue == FFT_RESOLUTION
    assert "1e-12" in (test.note or "")


def test_a_moderate_normal_p_stays_a_value():
    q = 2_000
    rng = np.random.default_rng(1)
    a = rng.uniform(0.0, 1.0, size=(q, 2))
    b = rng.uniform(0.0, 1.0, size=(q, 1))
    test = score_label_permutation(
        (a.sum(1), b.sum(1)), (np.full(q, 2), np.full(q, 1)), ((a**2).sum(1), (b**2).sum(1))
    )
    assert not test.pvalue_bound and test.pvalue > FFT_RESOLUTION
    assert permutation_p(test, 0.05).startswith("p = ")
