"""The flips with their texts: each flip's (task, case, repeat) looked up in what was read of
A's and B's sources (:mod:`calculator.flips.log_texts`, :mod:`calculator.flips.case_texts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from calculator.flips.model import CaseTexts, Flips
    from calculator.logs.pairing import PairedLogs

__all__ = ["TextSource", "read_log_flips", "wanted_ids", "with_texts"]


class TextSource(Protocol):
    """What the texts of one system's source answer: a case's texts, and whether the source
    holds any text at all."""

    holds_texts: bool

    def find(self, task: str | None, case: str, repeat: int | None) -> CaseTexts | None: ...


def wanted_ids(flips: Flips) -> set[tuple[str, int | None]]:
    """The (case, repeat) ids whose texts are read."""
    return {(flip.case, flip.repeat) for flip in flips.flips}


def with_texts(
    flips: Flips,
    a: TextSource,
    b: TextSource,
    task_of_b: dict[str, str] | None = None,
) -> Flips:
    """`flips` with each one's texts from `a` and `b` and its status: "read" when either source
    has the case, "none_in_source" when neither source holds texts, else "not_found".
    `task_of_b` maps a task's name to B's own name for it (a task paired by content)."""
    from calculator.flips.model import Flip

    renamed = task_of_b or {}
    done = []
    for flip in flips.flips:
        texts_a = a.find(flip.task, flip.case, flip.repeat)
        task_b = renamed.get(flip.task, flip.task) if flip.task is not None else None
        texts_b = b.find(task_b, flip.case, flip.repeat)
        if texts_a is not None or texts_b is not None:
            status = "read"
        elif not (a.holds_texts or b.holds_texts):
            status = "none_in_source"
        else:
            status = "not_found"
        done.append(
            Flip(
                task=flip.task,
                case=flip.case,
                repeat=flip.repeat,
                direction=flip.direction,
                outcome_a=flip.outcome_a,
                outcome_b=flip.outcome_b,
                texts_a=texts_a,
                texts_b=texts_b,
                texts=status,
            )
        )
    return flips.with_texts(tuple(done))


def read_log_flips(paired: PairedLogs, sources: tuple[object, object]) -> Flips:
    """The flips of two paired logs with their texts, read again from A's and B's `sources`
    (each a path to a file or folder, or uploads as (name, bytes) pairs) for the flipped ids
    only. A long file (one row per case and system) holds no texts: ids only."""
    from calculator.flips.log_texts import LogTexts, read_log_texts
    from calculator.flips.model import log_flips

    flips = log_flips(paired)
    if not flips.flips:
        return flips
    if paired.format not in ("lm-eval", "inspect", "helm"):
        none = LogTexts(holds_texts=False)
        return with_texts(flips, none, none)
    wanted = wanted_ids(flips)
    scorers = {task: choice.metric for task, choice in paired.task_metrics.items()}
    texts = [read_log_texts(s, paired.format, wanted, scorers=scorers) for s in sources]
    task_of_b = {pair.a: pair.b for pair in paired.content_pairs}
    return with_texts(flips, texts[0], texts[1], task_of_b)
