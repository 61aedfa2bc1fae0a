"""Planning speed: required n near 100,000, the power curve, 10,000 peeking experiments, and the
worst cases of bounded planning.

Targets (issue 6): the required n, up to 100,000 pairs, found in under 0.5 s; the power curve the
Plan page draws in under 0.2 s; 10,000 simulated optional-stopping experiments in under 1 s.
Target (issue 12): a non-inferiority plan for n near 10^5 in under 1 s.
Target (issue 16): no planning call over 10 s or 1 GB, whatever the input. The worst cases found
(near the bounds of the search, at the largest given n, the inputs that once hung, ate memory or
overflowed) each run in a fresh process, cold, which prints the call's time and the process's
peak memory (import included; the import alone is printed as the floor).

Each figure is the median of several runs, printed beside a reference measured in the same run
on the same machine: one ``scipy.stats.binomtest`` call (the cost of a single exact test), and
the ratio between them, so that the numbers can be compared across machines. "Cold" runs clear
the cache of rejection limits first (the first plan at a new alpha); "warm" ones reuse it.
Run from the repository root:

    python benchmarks/bench_planning.py [--repeats 5] [--worst-only]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calculator import planning  # noqa: E402
from calculator.planning.power import clear_caches  # noqa: E402

LARGE = {"p10": 0.102, "p01": 0.098}  # exact required n = 98,601 at alpha 0.05, power 0.8
CONNOR = {"p10": 0.05, "p01": 0.45}  # Connor (1987): n = 25 exact, 23 by his approximation
# Issue 12's target: non-inferiority planning for n near 10^5 in under 1 s.
NONINFERIORITY = {"p10": 0.1, "p01": 0.1, "margin": 0.0035}


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


# Each worst case: a label and the call, run cold in a fresh process. "plan" cases also draw the
# power curve the Plan page draws.
WORST_CASES = [
    ("import only (the floor)", "None"),
    ("plan --p10 0.5005 --p01 0.4995 (hung > 400 s): refused", "plan(p10=0.5005, p01=0.4995)"),
    ("plan --n 10^10 (killed at 24 GB): refused", "plan(p10=0.05, p01=0.45, n=10**10)"),
    ("plan --p10 1e-170 --p01 2e-170 (overflowed): refused", "plan(p10=1e-170, p01=2e-170)"),
    ("required n past the search bound, psi = 1: refused", "plan(p10=0.503, p01=0.497)"),
    ("required n = 78,595 inside the search bound, psi = 1", "plan(p10=0.505, p01=0.495)"),
    (
        "required n near the bound, psi = 1, chi2, alpha 0.001, power 0.99",
        "plan(p10=0.508, p01=0.492, alpha=0.001, power=0.99, test='chi2')",
    ),
    ("required n = 986,009 near MAX_N, psi = 0.02", "plan(p10=0.0102, p01=0.0098)"),
    ("power at n = 10^6, psi = 0.5, no difference", "plan(p10=0.25, p01=0.25, n=10**6)"),
    ("power at n = 10^6, psi = 0.5, Connor's example", "plan(p10=0.05, p01=0.45, n=10**6)"),
    ("power at n = 10^6, psi = 1", "plan(p10=0.5005, p01=0.4995, n=10**6)"),
    (
        "non-inferiority n = 148,380 (margin 0.5 points, psi = 0.6)",
        "noninferiority_plan(p10=0.3, p01=0.3, margin=0.005)",
    ),
    (
        "non-inferiority past the search bound (psi = 0.5): refused",
        "noninferiority_plan(p10=0.25, p01=0.25, margin=0.0015)",
    ),
    (
        "non-inferiority power at n = 10^6, psi = 0.5",
        "noninferiority_plan(p10=0.25, p01=0.25, margin=0.002, n=10**6)",
    ),
    (
        "peeking, 2,000,000 draws: 2,000 x 1,000 looks x 1,000,000 cases",
        "simulate_optional_stopping(look_every=10**6, looks=1_000, experiments=2_000)",
    ),
    (
        "peeking, page's largest: 10,000 x 100 looks x 10,000 cases",
        "simulate_optional_stopping(look_every=10_000, looks=100, experiments=10_000)",
    ),
    (
        "peeking, 2,000,000 draws: 1,000,000 x 2 looks x 1,000,000 cases",
        "simulate_optional_stopping(look_every=10**6, looks=2, experiments=10**6)",
    ),
]

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from calculator.planning import noninferiority_plan, plan, simulate_optional_stopping
started = time.perf_counter()
try:
    result = {call}
    if hasattr(result, "power_curve"):
        result.power_curve()
    outcome = "answered"
except ValueError as error:
    outcome = "refused: " + str(error)[:60]
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "peak_mb": peak, "outcome": outcome}}))
"""


def worst_cases() -> bool:
    """Run each worst case in a fresh process; print the table; True if one is over a limit."""
    print(f"\n{'worst case (cold, fresh process)':<68}{'time':>8}{'peak':>9}  verdict")
    failed = False
    for label, call in WORST_CASES:
        code = CHILD.format(root=str(ROOT), call=call)
        completed = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
        )
        if completed.returncode != 0:
            print(f"{label:<68}  failed: {completed.stderr.strip().splitlines()[-1]}")
            failed = True
            continue
        figures = json.loads(completed.stdout.strip().splitlines()[-1])
        over = figures["seconds"] > 10 or figures["peak_mb"] > 1024
        failed |= over
        print(
            f"{label:<68}{figures['seconds']:>7.2f}s{figures['peak_mb']:>6.0f} MB  "
            f"{'OVER' if over else 'ok'} ({figures['outcome']})"
        )
    return failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--worst-only", action="store_true", help="only the worst cases")
    arguments = parser.parse_args()
    repeats = arguments.repeats
    if arguments.worst_only:
        return 1 if worst_cases() else 0

    reference = median_seconds(lambda: stats.binomtest(40, 100), 200, nothing)
    rows = timings(repeats)
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
    failed |= worst_cases()
    return 1 if failed else 0


def timings(repeats: int) -> list[tuple[str, float, float | None]]:
    """(label, median seconds of `repeats` runs, limit in seconds or None) for each measure."""

    def cold() -> None:
        clear_caches()

    large_plan = planning.plan(**LARGE)
    small_plan = planning.plan(**CONNOR)
    ni_plan = planning.noninferiority_plan(**NONINFERIORITY)
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
            f"non-inferiority required n = {ni_plan.n:,} (margin 0.35 points, psi = 0.2)",
            median_seconds(
                lambda: planning.noninferiority_plan(**NONINFERIORITY), repeats, nothing
            ),
            1.0,
        ),
        (
            "exact power at n = 100,000 (window of D, warm)",
            median_seconds(lambda: planning.exact_power(100_000, **LARGE), repeats, nothing),
            None,
        ),
    ]
    return rows


if __name__ == "__main__":
    sys.exit(main())
