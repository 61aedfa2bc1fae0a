"""The flipped cases of a paired comparison: which cases changed between A and B, by task.

A *flip* is a case where exactly one system passes: a *regression* when only A passes (B lost
it), an *improvement* when only B passes (cells b and c of the paired table). For scores
(nothing passes or fails) the flips are the cases whose scores differ most, both ways: those
where A scores better (a regression of B) and those where B scores better (an improvement),
largest difference first, at most :data:`MAX_SCORE_FLIPS` of each; which way is better is the
comparison's (higher unless lower is asked or stated: :func:`oriented`). Churn is the count of
each kind per task. "Regression" and "improvement" take A as the baseline and B as the new
system.

This module holds numbers and ids only; the texts (the prompt, the reference, each system's
output) are read later, for the flipped ids alone (:mod:`calculator.flips.log_texts`,
:mod:`calculator.flips.case_texts`), so that a comparison of 10^5 cases never holds 10^5 texts.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.errors import CalculatorError

if TYPE_CHECKING:
    from calculator.cases import PairedCases
    from calculator.logs.pairing import PairedLogs

__all__ = [
    "DIRECTIONS",
    "MAX_SCORE_FLIPS",
    "TEXT_STATUSES",
    "CaseTexts",
    "Flip",
    "Flips",
    "TaskChurn",
    "case_flips",
    "log_flips",
    "oriented",
]

#: The two directions: only A passes (a regression of B), only B passes (an improvement).
DIRECTIONS = ("regression", "improvement")
#: Most score flips kept per direction: the largest differences (every one is kept for
#: pass/fail, where a flip is a discordant case, counted exactly by the table).
MAX_SCORE_FLIPS = 1_000
#: What is known of a flip's texts: "read" (found in the source); "none_in_source" (the source
#: holds no text: HELM stats without the run's scenario_state.json or display files, a per-case
#: file without --text); "not_found" (the source holds texts, but none under this id);
#: "not_read" (texts not asked for).
TEXT_STATUSES = ("read", "none_in_source", "not_found", "not_read")


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseTexts:
    """What a source holds of one case for one system: the prompt (or question), the
    reference answer, the outputs as (field, text) pairs in the source's own field names
    (lm-eval's ``filtered_resps [filter]`` and ``resps``, Inspect's ``completion``, HELM's
    ``predicted_text``, a per-case file's column), and a scorer's explanation."""

    prompt: str | None = None
    target: str | None = None
    outputs: tuple[tuple[str, str], ...] = ()
    explanation: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "prompt": self.prompt,
            "target": self.target,
            "outputs": dict(self.outputs),
            "explanation": self.explanation,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Flip:
    """One flipped case: its task (None for a per-case file), id (the question's, as the source
    writes it), repeat (an epoch or train trial; None without repeats), direction
    (:data:`DIRECTIONS`), both outcomes (1/0 for pass/fail, the values read for scores and for
    scores cut at a threshold) and, once read, each system's texts."""

    task: str | None
    case: str
    repeat: int | None
    direction: str
    outcome_a: float
    outcome_b: float
    texts_a: CaseTexts | None = None
    texts_b: CaseTexts | None = None
    texts: str = "not_read"

    @property
    def key(self) -> tuple[str | None, str, int | None]:
        """(task, case, repeat): what the texts are looked up by."""
        return self.task, self.case, self.repeat

    @property
    def prompt(self) -> str | None:
        """The prompt as A's source holds it, else B's."""
        return _first(self, "prompt")

    @property
    def target(self) -> str | None:
        """The reference answer as A's source holds it, else B's."""
        return _first(self, "target")

    def to_dict(self) -> dict[str, object]:
        """As plain JSON types, with the full texts."""
        return {
            "task": self.task,
            "id": self.case,
            "repeat": self.repeat,
            "direction": self.direction,
            "A": _number(self.outcome_a),
            "B": _number(self.outcome_b),
            "texts": self.texts,
            "prompt": self.prompt,
            "target": self.target,
            "A_texts": None if self.texts_a is None else self.texts_a.to_dict(),
            "B_texts": None if self.texts_b is None else self.texts_b.to_dict(),
        }


def _first(flip: Flip, name: str) -> str | None:
    for texts in (flip.texts_a, flip.texts_b):
        value = None if texts is None else getattr(texts, name)
        if value is not None:
            return value
    return None


def _number(value: float) -> float | int | None:
    """An outcome for JSON: a whole number as an integer, NaN as None."""
    if not np.isfinite(value):
        return None
    return int(value) if float(value).is_integer() else float(value)


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskChurn:
    """One task's flips: cases compared, regressions (only A passes) and improvements (only B
    passes); for scores, cases A scores better and cases B scores better."""

    task: str | None
    n: int
    regressions: int
    improvements: int

    def to_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Flips:
    """Every flip of a comparison, regressions then improvements, each task's in its order, with
    the churn by task. `kind` is "pass/fail" or "scores"; `kept` is, for scores, the most flips
    kept per direction (:data:`MAX_SCORE_FLIPS`), None when every flip is kept; `better` is,
    for scores, which scores are better ("higher" or "lower"), None for pass/fail."""

    names: tuple[str, str]
    kind: str
    flips: tuple[Flip, ...] = field(repr=False)
    churn: tuple[TaskChurn, ...]
    kept: int | None = None
    better: str | None = None

    @property
    def regressions(self) -> tuple[Flip, ...]:
        """Only A passes (A's score better, for scores)."""
        return tuple(f for f in self.flips if f.direction == "regression")

    @property
    def improvements(self) -> tuple[Flip, ...]:
        """Only B passes (B's score better, for scores)."""
        return tuple(f for f in self.flips if f.direction == "improvement")

    @property
    def tasks(self) -> tuple[str, ...]:
        return tuple(c.task for c in self.churn if c.task is not None)

    def with_texts(self, flips: tuple[Flip, ...]) -> Flips:
        return dataclasses.replace(self, flips=flips)

    def to_dict(self) -> dict[str, object]:
        """As plain JSON types: the churn by task and every flip with its full texts."""
        return {
            "kind": self.kind,
            "names": {"A": self.names[0], "B": self.names[1]},
            "baseline": "A",  # a regression: only A passes (A scores better); B is the new one
            "kept_per_direction": self.kept,
            "better": self.better,
            "churn": [c.to_dict() for c in self.churn],
            "regressions": sum(c.regressions for c in self.churn),
            "improvements": sum(c.improvements for c in self.churn),
            "flips": [f.to_dict() for f in self.flips],
        }


def case_flips(
    cases: PairedCases, *, task: str | None = None, scores: bool = False, log: bool = False
) -> tuple[list[Flip], TaskChurn]:
    """The flips of one set of paired cases (a per-case file, or one task of two logs), in the
    order of the cases, and its churn. With `scores`, the largest differences both ways.

    A log's cases (`log`) carry the question id in "question" and, with repeats, "id#repeat" in
    "case" (a task of question means has the question in "case", without repeats); a per-case
    file's id is its first column (the row number when it has no id column), whatever its
    other columns are called.
    """
    frame = cases.cases
    by_question = log and "question" in frame.columns
    ids = (frame["question"] if by_question else frame.iloc[:, 0]).astype("str")
    repeats = _repeats(frame, ids) if by_question else None
    if scores:
        return _score_flips(cases, task, ids.to_numpy(), repeats)
    a_pass, b_pass = np.asarray(cases.a_pass, bool), np.asarray(cases.b_pass, bool)
    values = [_outcome_values(cases, side, passes) for side, passes in ((0, a_pass), (1, b_pass))]
    flips: list[Flip] = []
    id_values = ids.to_numpy(dtype=object)
    for direction, mask in (("regression", a_pass & ~b_pass), ("improvement", b_pass & ~a_pass)):
        rows = np.flatnonzero(mask)
        kept = id_values[rows].tolist()
        outcome_a, outcome_b = values[0][rows].tolist(), values[1][rows].tolist()
        numbers = [None] * len(rows) if repeats is None else repeats[rows].tolist()
        flips.extend(
            Flip(
                task=task,
                case=str(case),
                repeat=repeat,
                direction=direction,
                outcome_a=x,
                outcome_b=y,
            )
            for case, repeat, x, y in zip(kept, numbers, outcome_a, outcome_b, strict=True)
        )
    churn = TaskChurn(task=task, n=cases.n, regressions=cases.b, improvements=cases.c)
    return flips, churn


def _repeats(frame: object, ids: object) -> np.ndarray | None:
    """Each case's repeat number where the cases are repeats ("id#repeat" in "case"), else None."""
    case = frame["case"].astype("str")
    if bool((case == ids).all()):
        return None
    return case.str.rsplit("#", n=1).str[-1].astype("int64").to_numpy()


def _outcome_values(cases: PairedCases, side: int, passes: np.ndarray) -> np.ndarray:
    """The outcome as read where it is a number (a score cut at a threshold), else 1/0."""
    if cases.threshold is None:
        return passes.astype(np.float64)
    import pandas as pd

    frame = cases.cases
    column = frame.columns[1 + side]
    return pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=np.float64)


def _score_flips(
    cases: PairedCases, task: str | None, ids: np.ndarray, repeats: np.ndarray | None
) -> tuple[list[Flip], TaskChurn]:
    from calculator.cases.scores_input import paired_scores_of

    a, b, _ = paired_scores_of(cases)
    difference = a - b
    flips: list[Flip] = []
    for direction, sign in (("regression", 1.0), ("improvement", -1.0)):
        rows = np.flatnonzero(sign * difference > 0)
        # Largest difference first; ties in the cases' order (a stable sort).
        rows = rows[np.argsort(-sign * difference[rows], kind="stable")][:MAX_SCORE_FLIPS]
        flips.extend(
            Flip(
                task=task,
                case=str(ids[row]),
                repeat=None if repeats is None else int(repeats[row]),
                direction=direction,
                outcome_a=float(a[row]),
                outcome_b=float(b[row]),
            )
            for row in rows
        )
    churn = TaskChurn(
        task=task,
        n=len(a),
        regressions=int(np.count_nonzero(difference > 0)),
        improvements=int(np.count_nonzero(difference < 0)),
    )
    return flips, churn


def log_flips(paired: PairedLogs) -> Flips:
    """The flips of two paired logs (or a long file's two systems), task by task."""
    flips: list[Flip] = []
    churn: list[TaskChurn] = []
    for task in paired.tasks:
        found, counted = case_flips(task.cases, task=task.task, scores=paired.scores, log=True)
        flips.extend(found)
        churn.append(counted)
    return _ordered(paired.names, "scores" if paired.scores else "pass/fail", flips, churn)


def cases_flips(cases: PairedCases, *, scores: bool = False) -> Flips:
    """The flips of a per-case file (or two joined on an id)."""
    found, counted = case_flips(cases, scores=scores)
    return _ordered(cases.names, "scores" if scores else "pass/fail", found, [counted])


def _ordered(names: tuple[str, str], kind: str, flips: list[Flip], churn: list[TaskChurn]) -> Flips:
    """Regressions first, then improvements, each in task order (a stable sort)."""
    rank = {direction: k for k, direction in enumerate(DIRECTIONS)}
    flips.sort(key=lambda f: rank[f.direction])
    return Flips(
        names=names,
        kind=kind,
        flips=tuple(flips),
        churn=tuple(churn),
        kept=MAX_SCORE_FLIPS if kind == "scores" else None,
        better="higher" if kind == "scores" else None,
    )


def oriented(flips: Flips, better: str | None) -> Flips:
    """The flips of scores with "regression" and "improvement" taken from `better` ("higher"
    or "lower", the comparison's: ``--better``, the page's choice, a log's stated direction):
    where lower scores are better, a case where B scores higher is a regression. Pass/fail
    flips, and `better` None or already the flips', come back as they are.

    The flips are found with higher taken as better (:func:`case_flips`); turning them swaps
    the two directions whole, each still largest difference first, as finding them with lower
    taken as better would.
    """
    if flips.kind != "scores" or better is None or better == flips.better:
        return flips
    if better not in ("higher", "lower"):
        raise CalculatorError(f"`better` must be 'higher' or 'lower', but got {better!r}")
    turn = {"regression": "improvement", "improvement": "regression"}
    turned = [dataclasses.replace(f, direction=turn[f.direction]) for f in flips.flips]
    rank = {direction: k for k, direction in enumerate(DIRECTIONS)}
    turned.sort(key=lambda f: rank[f.direction])
    churn = tuple(
        dataclasses.replace(c, regressions=c.improvements, improvements=c.regressions)
        for c in flips.churn
    )
    return dataclasses.replace(flips, flips=tuple(turned), churn=churn, better=better)
