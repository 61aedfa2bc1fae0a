"""Examples the pages load with one click: worked tables from the three sources (the McNemar
test article, the original calculator page and the classifier-comparison tutorial; each example
carries the figure its source prints, which tests/pages/test_app_calculator.py checks) for the
calculator, and two evaluation logs for the per-case page.

Classifier examples are given in errors; they map onto the cells as: both correct -> a,
both wrong -> d, only A wrong -> c, only B wrong -> b. The tutorial's own letters run the other
way (its b counts cases only A gets wrong), so its b and c appear here as c and b; each such
example says so. Where a source fixes only b and c, the concordant cells a and d are chosen here
to make n = 100 (or the source's n); they do not change McNemar's p-values, and the example says
that a and d were filled in.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

__all__ = ["EXAMPLES", "WorkedExample", "example_sample_logs"]


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkedExample:
    """A table to load with one click, its source, the figure the source reports for it, and
    a note on what the table adds to or changes from the source."""

    key: str
    title: str
    table: tuple[int, int, int, int]
    framing: str = "pass"
    cc: bool = False
    source: str
    expect: str
    note: str = ""


ARTICLE = "The McNemar test article"
CALCULATOR_PAGE = "The original calculator page"
TUTORIAL = "The classifier-comparison tutorial"
_FILLED = (
    "{source} gives only the discordant counts: a and d were filled in here to make {n}; they "
    "do not change McNemar's p-values."
)
_MIRRORED = (
    "The tutorial's letters are the mirror of this page's: its b = {b} (only A wrong) is c "
    "here, and its c = {c} (only B wrong) is b."
)

EXAMPLES: tuple[WorkedExample, ...] = (
    WorkedExample(
        key="seed_page",
        title="Calculator page: 60, 15, 5, 20",
        table=(60, 15, 5, 20),
        source=CALCULATOR_PAGE,
        expect="+10.0 pts (+1.2 to +18.4); chi-square 5.00, p = 0.025; exact p = 0.041; "
        "unpaired p = 0.123",
    ),
    WorkedExample(
        key="mcnemar_seed",
        title="McNemar article: 70, 4, 12, 14 (continuity-corrected)",
        table=(70, 4, 12, 14),
        cc=True,
        source=ARTICLE,
        expect="exact p = 0.077; corrected chi-square 3.06, p = 0.080; unpaired z 1.37, p = 0.172",
    ),
    WorkedExample(
        key="gap_many",
        title="Gap of 8 among 28 disagreements: b = 10, c = 18",
        table=(62, 10, 18, 10),
        source=ARTICLE,
        expect="exact p = 0.185",
        note=_FILLED.format(source="The article", n="n = 100"),
    ),
    WorkedExample(
        key="gap_few",
        title="Gap of 8 among 12 disagreements: b = 2, c = 10",
        table=(78, 2, 10, 10),
        source=ARTICLE,
        expect="exact p = 0.039",
        note=_FILLED.format(source="The article", n="n = 100"),
    ),
    WorkedExample(
        key="errors_12_3",
        title="Classifiers: only A wrong 12, only B wrong 3",
        table=(80, 3, 12, 5),
        framing="correct",
        source=TUTORIAL,
        expect="exact p = 1152/32768 = 0.035",
        note=_FILLED.format(source="The tutorial", n="n = 100") + " " + _MIRRORED.format(b=12, c=3),
    ),
    WorkedExample(
        key="errors_100",
        title="Classifiers: 72 both right, 8 both wrong, 14 only A wrong, 6 only B wrong",
        table=(72, 6, 14, 8),
        framing="correct",
        source=TUTORIAL,
        expect="exact p = 0.115; error rates 22.0% vs 14.0%",
        note=_MIRRORED.format(b=14, c=6),
    ),
    WorkedExample(
        key="errors_40",
        title="Classifiers, n = 40: only A wrong 8, only B wrong 2",
        table=(26, 2, 8, 4),
        framing="correct",
        source=TUTORIAL,
        expect="exact p = 0.109",
        note=_FILLED.format(source="The tutorial", n="its n = 40")
        + " "
        + _MIRRORED.format(b=8, c=2),
    ),
)


def example_sample_logs(cases: int = 240, seed: int = 7) -> tuple[bytes, bytes]:
    """Two made-up per-sample logs in the shape lm-evaluation-harness writes (JSON Lines).

    Each line has ``doc_id``, the ``doc`` (question, subject), ``target``, ``resps`` and the 0/1
    metric ``acc``. Model B is a little better overall; subjects act as clusters. B's log misses
    the last three documents, and one of A's lines is truncated, so the page shows what it
    excludes.
    """
    rng = random.Random(seed)
    subjects = [f"subject_{k:02d}" for k in range(24)]
    first, second = [], []
    for doc_id in range(cases):
        subject = subjects[doc_id % len(subjects)]
        doc = {"question": f"Question {doc_id} about {subject}?", "subject": subject}
        skill = rng.random()
        acc_a = float(skill < 0.62)
        acc_b = float(skill < 0.62 if rng.random() < 0.8 else rng.random() < 0.85)
        for log, acc in ((first, acc_a), (second, acc_b)):
            log.append(
                {
                    "doc_id": doc_id,
                    "doc": doc,
                    "target": "A",
                    "resps": [["A" if acc else "B"]],
                    "acc": acc,
                }
            )
    second = second[:-3]
    lines_a = [json.dumps(record) for record in first]
    lines_a[17] = lines_a[17][:25]  # a line cut short, as by an interrupted run
    return ("\n".join(lines_a) + "\n").encode(), (
        "\n".join(json.dumps(record) for record in second) + "\n"
    ).encode()
