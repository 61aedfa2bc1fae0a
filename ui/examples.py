"""Worked examples from the seed documents (the reference table at the end of METHODS.md).

Classifier examples are given in errors; they map onto the cells as: both correct -> a,
both wrong -> d, only A wrong -> c, only B wrong -> b. Where a seed fixes only b and c, the
concordant cells a and d are chosen here to make n = 100 (or the seed's n); they do not change
McNemar's p-values.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EXAMPLES", "WorkedExample"]


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkedExample:
    """A table to load with one click, and the figure the seed reports for it."""

    key: str
    title: str
    table: tuple[int, int, int, int]
    framing: str = "pass"
    cc: bool = False
    expect: str


EXAMPLES: tuple[WorkedExample, ...] = (
    WorkedExample(
        key="seed_page",
        title="Seed calculator page: 60, 15, 5, 20",
        table=(60, 15, 5, 20),
        expect="+10.0 pts (+1.2 to +18.4); chi-square 5.00, p = 0.025; exact p = 0.041; "
        "unpaired p = 0.123",
    ),
    WorkedExample(
        key="mcnemar_seed",
        title="McNemar seed: 70, 4, 12, 14 (continuity-corrected)",
        table=(70, 4, 12, 14),
        cc=True,
        expect="exact p = 0.077; corrected chi-square 3.06, p = 0.080; unpaired z 1.37, p = 0.172",
    ),
    WorkedExample(
        key="gap_many",
        title="Gap of 8 among 28 disagreements: b = 10, c = 18",
        table=(62, 10, 18, 10),
        expect="exact p = 0.185",
    ),
    WorkedExample(
        key="gap_few",
        title="Gap of 8 among 12 disagreements: b = 2, c = 10",
        table=(78, 2, 10, 10),
        expect="exact p = 0.039",
    ),
    WorkedExample(
        key="errors_12_3",
        title="Classifiers: only A wrong 12, only B wrong 3",
        table=(80, 3, 12, 5),
        framing="correct",
        expect="exact p = 1152/32768 = 0.035",
    ),
    WorkedExample(
        key="errors_100",
        title="Classifiers: 72 both right, 8 both wrong, 14 only A wrong, 6 only B wrong",
        table=(72, 6, 14, 8),
        framing="correct",
        expect="exact p = 0.115; error rates 22.0% vs 14.0%",
    ),
    WorkedExample(
        key="errors_40",
        title="Classifiers, n = 40: only A wrong 8, only B wrong 2",
        table=(26, 2, 8, 4),
        framing="correct",
        expect="exact p = 0.109",
    ),
)
