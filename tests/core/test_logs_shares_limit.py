"""The per-question pass-share test on a grid too fine to convolve (hostile review 4, H3).

Inspect logs of 20 epochs where a few samples errored give questions 16 to 20 scored repeats:
the shares then lie on a grid of 1/lcm(16..20) = 1/232,560, and the exact convolution of 550
questions took 86 s and 4.8 GB (work about 1.2e10 against the bound MAX_WORK = 2e8 that the
non-integer lattices already had); 800 questions were refused with "the differences sum to
27,675,643 steps", naming no file or task and refusing the whole comparison although the task's
test (the clustered McNemar test by question) was computable. Now an integer lattice over
either bound raises LatticeTooWide before any convolution, and the logs' analysis leaves the
shares test out with a line saying why. The tests use the bound and a spy on the convolution,
never the time (benchmarks/bench_limits.py times it).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from calculator.logs import analyze_logs, pair_logs, read_log_data
from calculator.logs.pairing import share_numerators
from calculator.report.logs import report_lines
from calculator.scores import lattice
from calculator.scores.signflip import lattice_sign_flip


def inspect_log(model: str, seed: int, questions: int, epochs: int, p: float) -> bytes:
    """An Inspect JSON log in which about one question in ten lost one or two epochs to errors
    (no score), as the review's generator writes them."""
    rng = np.random.default_rng(seed)
    samples = []
    for q in range(questions):
        lost = set(rng.choice(epochs, size=int(rng.integers(1, 3)), replace=False) + 1)
        errored = lost if rng.random() < 0.1 else set()
        for e in range(1, epochs + 1):
            s: dict = {"id": f"q{q}", "epoch": e}
            if e not in errored:
                s["scores"] = {"match": {"value": "C" if rng.random() < p else "I"}}
            samples.append(s)
    log = {"eval": {"task": "qa", "model": model, "scorers": [{"name": "match"}]}}
    return json.dumps({**log, "samples": samples}).encode()


@pytest.fixture
def convolutions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The support of every distribution convolved."""
    calls: list[int] = []
    distribution = lattice._distribution

    def spy(sizes):
        calls.append(int(sizes.sum()))
        return distribution(sizes)

    monkeypatch.setattr(lattice, "_distribution", spy)
    return calls


def test_an_integer_lattice_over_the_work_bound_is_refused_before_convolving(
    convolutions: list[int],
) -> None:
    # The review's case: pass shares over 16 to 20 scored repeats, 550 questions.
    rng = np.random.default_rng(3)
    k_a, k_b = rng.integers(16, 21, size=550), rng.integers(16, 21, size=550)
    numerators, step = share_numerators(rng.binomial(k_a, 0.6), k_a, rng.binomial(k_b, 0.5), k_b)
    assert round(1 / step) == 232_560
    sizes = np.abs(numerators[numerators != 0])
    assert lattice._work(sizes // np.gcd.reduce(sizes)) > 10 * lattice.MAX_WORK
    with pytest.raises(lattice.LatticeTooWide, match="over the limit"):
        lattice_sign_flip(numerators, step=step)
    assert convolutions == []


def test_the_logs_leave_the_shares_test_out_and_say_why(monkeypatch: pytest.MonkeyPatch) -> None:
    # Equal repeats take the sign flip of the shares on their lattice; where that lattice is
    # too costly (made so here: the bound refuses every share lattice) the test is left out,
    # never 86 s or a refusal of the comparison, and the report says why.
    from calculator.logs import analysis

    files = [
        [("a.json", inspect_log("m/a", 1, 40, 5, 0.7))],
        [("b.json", inspect_log("m/b", 2, 40, 5, 0.4))],
    ]
    paired = pair_logs(*(read_log_data(f) for f in files), allow_exclusions=True)
    assert analyze_logs(paired).tasks[0].shares is not None  # within the bound: computed

    def too_wide(*_: object, **__: object) -> None:
        raise lattice.LatticeTooWide("over the bound")

    monkeypatch.setattr(analysis, "lattice_sign_flip", too_wide)
    monkeypatch.setattr(analysis, "label_permutation_test", too_wide)
    result = analyze_logs(paired)
    task = result.tasks[0]
    assert task.shares is None and task.shares_grid is not None
    # The task's test is still given: the clustered McNemar test by question (held at the exact
    # sign flip of the leans where that p is larger).
    assert task.test in ("clustered", "clustered-held") and 0.0 < task.pvalue <= 1.0
    assert task.to_dict()["pass_share_sign_flip_left_out"] == {
        "reason": "grid too fine",
        "grid_steps": task.shares_grid,
    }
    text = "\n".join(report_lines(result, alpha=0.05))
    assert "its exact test is left out" in text and f"a grid of 1/{task.shares_grid}" in text


def test_a_p_below_the_ffts_resolution_is_given_as_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # U3: "distribution by FFT convolution: p-values below about 1e-12 are not resolved ...
    # p = 6.3e-16". Sixty questions all leaning to A by one step: exactly p = 2 / 2^60 = 1.7e-18,
    # computed here by FFT (the direct sums' budget lowered), which resolves nothing below 1e-12.
    from calculator.report.scores import permutation_p

    assert lattice_sign_flip([1] * 60).pvalue == pytest.approx(2 / 2**60)  # direct sums: exact
    monkeypatch.setattr(lattice, "_DIRECT_COST", 1)
    test = lattice_sign_flip([1] * 60)
    assert test.pvalue_bound and test.pvalue == lattice.FFT_RESOLUTION
    assert test.note == lattice.FFT_BOUND_NOTE
    assert permutation_p(test, 0.05) == "p < 1.0e-12"
    monkeypatch.setattr(lattice, "_DIRECT_COST", 50_000_000)
    assert not lattice_sign_flip([1] * 60).pvalue_bound
