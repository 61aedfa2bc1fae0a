"""What the release decision adds to `analyze`, beside `analyze`'s own time in the same run (the
machine is shared, so the ratio travels better than seconds).

    python benchmarks/bench_decision.py

Target (issue 12): the decision, with P(B better), adds at most 1 ms to `analyze` for every
question. "Added" is the time of `decide` plus `probability_b_better` for the same table, the
two calls `analyze` makes for it; the rest of `analyze` is timed as `analyze` minus that.
"""

from __future__ import annotations

import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calculator import PairedTable, analyze, decide, difference_interval  # noqa: E402
from calculator.posterior import probability_b_better  # noqa: E402

TARGET_SECONDS = 1e-3


def median_seconds(function: Callable[[], object], repeat: int = 15) -> float:
    """Median over `repeat` rounds of the per-call time, each round long enough to time well."""
    number = max(1, int(0.02 / max(timeit.timeit(function, number=1), 1e-7)))
    return statistics.median(
        t / number for t in timeit.repeat(function, number=number, repeat=repeat)
    )


def main() -> None:
    questions = [
        ("different (default)", {}),
        ("better, one-sided exact", {"alternative": "greater"}),
        ("non-inferior, margin 1 point", {"margin": 0.01}),
        ("equivalent, margin 1 point", {"question": "equivalent", "margin": 0.01}),
        ("better by 1 point", {"question": "better", "margin": 0.01}),
    ]
    tables = [("60, 15, 5, 20", (60, 15, 5, 20)), ("n = 4e9", (10**9, 10**9 - 10**5, 10**9, 10**9))]
    print(f"{'table':14} {'question':30} {'analyze':>10} {'decision':>10} {'share':>7}  ok")
    for table_label, counts in tables:
        table = PairedTable(*counts)
        interval = difference_interval(*counts)
        for label, arguments in questions:
            whole = median_seconds(lambda c=counts, k=arguments: analyze(*c, **k))
            added = median_seconds(
                lambda t=table, i=interval, k=arguments: (
                    decide(t, i, **k),
                    probability_b_better(t.b, t.c),
                )
            )
            verdict = "yes" if added <= TARGET_SECONDS else "NO"
            print(
                f"{table_label:14} {label:30} {whole * 1e3:7.3f} ms {added * 1e3:7.3f} ms "
                f"{added / whole:6.0%}  {verdict}"
            )
    print(f"\ntarget: the decision adds at most {TARGET_SECONDS * 1e3:g} ms to analyze")


if __name__ == "__main__":
    main()
