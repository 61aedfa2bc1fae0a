"""Words for the calculator page's exact unconditional test (pure): its toggle and its help.

The sentence itself is the report's (:func:`calculator.report.square.unconditional_sentence`),
as the command line's JSON quotes it.
"""

from __future__ import annotations

from calculator.unconditional import MAX_UNCONDITIONAL_N

__all__ = ["UNCONDITIONAL_HELP", "UNCONDITIONAL_TOGGLE"]

UNCONDITIONAL_TOGGLE = "Exact unconditional test (Suissa-Shuster)"
UNCONDITIONAL_HELP = (
    "Does not fix the number of discordant cases, as the exact McNemar test does: its p is the "
    "largest chance, over the unknown share of discordant cases, of a table at least as far "
    "from equal pass rates as this one. That share is searched within its 99.99% "
    "Clopper-Pearson interval and 0.0001 is added (Berger and Boos), as in Fagerland, "
    f"Lydersen and Laake's R package contingencytables. Computed only while this is on, for "
    f"up to {MAX_UNCONDITIONAL_N:,} cases."
)
