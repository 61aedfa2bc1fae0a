"""Speed of the statistics core, each figure beside one scipy.stats.binomtest call timed in the
same run (the machine is shared, so ratios travel better than seconds).

    python benchmarks/bench_core.py

Targets (issue 2): analyze with defaults < 1 ms; sweep of 1,000 a-values < 20 ms; exact p at
m = 2e9 < 1 ms; every interval method < 5 ms (the exact-compatible one, a root-finder over a
numerical integral, < 100 ms). Issue 25: the teaching section's exact coverage of every method at
the exact-compatible interval's bound (n = 100 at p10 = 0.15, p01 = 0.05: 1,203 tables) < 10 s.
Issue 23: the exact-compatible interval at n = 10^12 (each Beta quantile verified) < 5 s.
Issue 34: monitoring 10^6 cases in batches of 1,000 (the e-value at every case, the p and the
confidence sequence at each of the 1,000 looks; equal systems, so it never stops early) < 5 s,
beside one ``analyze`` call per batch on the counts so far (the fixed-n report re-run 1,000 times).
"""

from __future__ import annotations

import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calculator import CI_METHODS, analyze, both_pass_sweep, difference_interval, mcnemar_exact  # noqa: E402
from calculator.fay_lumbard import exact_compatible_limits  # noqa: E402
from calculator.monitor import monitor_outcomes  # noqa: E402
from calculator.teaching.operating import operating_characteristics  # noqa: E402


def uncached(method: str, a: int, b: int, c: int, d: int) -> object:
    """difference_interval with the exact-compatible limits' cache emptied first (a table that
    differs only in a and d would otherwise be a cache hit)."""
    exact_compatible_limits.cache_clear()
    return difference_interval(a, b, c, d, method=method)


def median_seconds(function: Callable[[], object], repeat: int = 15) -> float:
    """Median over `repeat` rounds of the per-call time, each round long enough to time well."""
    number = max(1, int(0.02 / max(timeit.timeit(function, number=1), 1e-7)))
    return statistics.median(
        t / number for t in timeit.repeat(function, number=number, repeat=repeat)
    )


def main() -> None:
    reference = median_seconds(lambda: stats.binomtest(15, 20, 0.5))
    a_values = np.arange(0, 1000)
    cases = [
        ("analyze(60, 15, 5, 20), defaults", lambda: analyze(60, 15, 5, 20), 1e-3),
        ("both_pass_sweep, 1,000 a-values", lambda: both_pass_sweep(a_values, 15, 5, 20), 20e-3),
        ("mcnemar_exact at m = 2e9", lambda: mcnemar_exact(10**9, 10**9 + 10**5), 1e-3),
        ("mcnemar_exact, b = 0, c = 5000 (log tail)", lambda: mcnemar_exact(0, 5000), 1e-3),
        (
            "mcnemar_exact at m = 2e9, p < 1e-300",
            lambda: mcnemar_exact(10**9 - 2 * 10**6, 10**9 + 2 * 10**6),
            1e-3,
        ),
    ]
    cases += [
        (
            f"difference_interval, {method}",
            lambda m=method: uncached(m, 59, 6, 16, 80),
            100e-3 if method == "exact-compatible" else 5e-3,
        )
        for method in CI_METHODS
    ]
    slow = [
        (
            "teaching coverage, n = 100, p10 = 0.15, p01 = 0.05",
            lambda: operating_characteristics(100, 0.15, 0.05),
            10.0,
        ),
        (
            "exact-compatible at n = 10^12 (249, 751)",
            lambda: uncached("exact-compatible", 10**12 - 1000, 249, 751, 0),
            5.0,
        ),
    ]
    slow += _monitor_rows()
    print(f"reference: one scipy.stats.binomtest(15, 20) call = {reference * 1e3:.3f} ms\n")
    print(f"{'what':48} {'median':>10} {'x binomtest':>12} {'target':>9}  ok")
    for label, function, target in cases + slow:
        seconds = median_seconds(function, repeat=3 if target >= 1.0 else 15)
        verdict = "yes" if seconds <= target else "NO"
        print(
            f"{label:48} {seconds * 1e3:8.3f} ms {seconds / reference:11.1f}x "
            f"{target * 1e3:6.0f} ms  {verdict}"
        )


def _monitor_rows() -> list[tuple[str, Callable[[], object], float]]:
    """Issue 34: the monitor over 10^6 equal-system cases in batches of 1,000, and one analyze
    call per batch on the cumulative table (what re-running the fixed-n report costs)."""
    rng = np.random.default_rng(34)
    a_pass, b_pass = rng.random(10**6) < 0.8, rng.random(10**6) < 0.8
    batches = np.arange(1, 1001) * 1000
    cells = np.stack([a_pass & b_pass, a_pass & ~b_pass, ~a_pass & b_pass, ~a_pass & ~b_pass])
    counts = np.cumsum(cells, axis=1)[:, batches - 1].T.tolist()

    def each_batch() -> None:
        for a, b, c, d in counts:
            analyze(a, b, c, d)

    return [
        (
            "monitor 10^6 cases, every 1,000 (no stop)",
            lambda: monitor_outcomes(a_pass, b_pass, every=1000),
            5.0,
        ),
        ("analyze once per batch, 1,000 batches", each_batch, 5.0),
    ]


if __name__ == "__main__":
    main()
