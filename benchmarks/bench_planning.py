"""Planning speed: required n near 100,000, the power curve, and 10,000 peeking experiments.

Targets (issue 6): the required n, up to 100,000 pairs, found in under 0.5 s; the power curve the
Plan page draws in under 0.2 s; 10,000 simulated optional-stopping experiments in under 1 s.

Each figure is the median of several runs, printed beside a reference measured in the same run
on the same machine: one ``scipy.stats.binomtest`` call (the cost of a single exact test), and
the ratio between them, so that the numbers can be compared across machines. "Cold" runs clear
the cache of rejection limits first (the first plan at a new alpha); "warm" ones reuse it.
Run from the repository root:

    python benchmarks/bench_planning.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calculator import planning  # noqa: E402
from calculator.planning.power import clear_caches  # noqa: E402

LARGE = {"p10": 0.102, "p01": 0.098}  # exact required n = 98,601 at alpha 0.05, power 0.8
CONNOR = {"p10": 0.05, "p01": 0.45}  # Connor (1987): n = 25 exact, 23 by his approximation


def median_seconds(work: Callable[[], object], repeats: int, before: Callable[[], None]) -> float:
    times = []
    for _ in range(repeats):
        before()
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def nothing() -> None:
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats

    reference = median_seconds(lambda: stats.binomtest(40, 100), 200, nothing)

    def cold() -> None:
        clear_caches()

    large_plan = planning.plan(**LARGE)
    small_plan = planning.plan(**CONNOR)
    rows = [
        # (label, seconds, limit in seconds or None)
        (
            f"required n = {large_plan.n:,} (cold)",
            median_seconds(lambda: planning.plan(**LARGE), repeats, cold),
            0.5,
        ),
        (
            f"required n = {large_plan.n:,} (warm)",
            median_seconds(lambda: planning.plan(**LARGE), repeats, nothing),
            0.5,
        ),
        (
            f"required n = {small_plan.n} (Connor's example, cold)",
            median_seconds(lambda: planning.plan(**CONNOR), repeats, cold),
            0.5,
        ),
        (
            f"power curve, {len(large_plan.power_curve().n)} sizes to n = "
            f"{int(large_plan.power_curve().n[-1]):,}",
            median_seconds(large_plan.power_curve, repeats, nothing),
            0.2,
        ),
        (
            f"power curve, every n to {int(small_plan.power_curve().n[-1])}",
            median_seconds(small_plan.power_curve, repeats, nothing),
            0.2,
        ),
        (
            "10,000 peeking experiments, 20 looks x 20 cases",
            median_seconds(
                lambda: planning.simulate_optional_stopping(look_every=20, looks=20),
                repeats,
                cold,
            ),
            1.0,
        ),
        (
            "10,000 peeking experiments, 100 looks x 20 cases",
            median_seconds(
                lambda: planning.simulate_optional_stopping(look_every=20, looks=100),
                repeats,
                cold,
            ),
            1.0,
        ),
        (
            "exact power at n = 100,000 (full enumeration, warm)",
            median_seconds(lambda: planning.exact_power(100_000, **LARGE), repeats, nothing),
            None,
        ),
    ]
    print(f"reference: one scipy.stats.binomtest(40, 100) call = {reference * 1e6:.0f} µs")
    print(f"{'measurement':<58}{'median':>10}{'limit':>8}{'x binomtest':>13}  verdict")
    failed = False
    for label, seconds, limit in rows:
        verdict = "" if limit is None else ("ok" if seconds < limit else "OVER")
        failed |= verdict == "OVER"
        limit_text = "" if limit is None else f"{limit:g} s"
        print(
            f"{label:<58}{seconds * 1e3:>8.1f}ms{limit_text:>8}{seconds / reference:>13,.0f}  "
            f"{verdict}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
