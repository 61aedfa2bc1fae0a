"""Tasks of two logs paired by their samples' content when their names differ.

A task renamed between two runs (``mock_qa`` then ``mock_qa_v2``; an Inspect task given another
name, an lm-eval YAML copied under a new one) holds the same questions under the same ids: where
the log carries each question's content (lm-eval's ``doc_hash``, the digest of an Inspect
sample's input: the "hash" column of :class:`~calculator.logs.table.LogTable`), a task only A
holds is paired with a task only B holds when their (id, content) pairs are the same, one to one.
Nothing is paired on a partial match (some ids or contents differ: another version of the data,
a ``--limit`` run) or an ambiguous one (a task whose content matches two tasks of the other log):
those are left unpaired, with a note saying why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ContentPair", "match_by_content"]

_LISTED = 3  # tasks named in one note


@dataclass(frozen=True, slots=True)
class ContentPair:
    """A's task `a` and B's task `b`, of other names, paired on their `samples` questions."""

    a: str
    b: str
    samples: int

    def to_dict(self) -> dict[str, object]:
        return {"A": self.a, "B": self.b, "samples": self.samples}


def match_by_content(
    frames: list[pd.DataFrame], digest: str
) -> tuple[list[pd.DataFrame], tuple[ContentPair, ...], tuple[str, ...]]:
    """A's and B's long tables with each task of B paired by content renamed as A's, the pairs,
    and the notes of the tasks left unpaired on a partial or ambiguous match; `digest` names
    what the "hash" column holds (in the notes).

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.DataFrame({"task": ["x", "x"], "case": ["1", "2"], "hash": ["h1", "h2"]})
    >>> b = a.assign(task="x_v2")
    >>> frames, pairs, notes = match_by_content([a, b], "a digest")
    >>> pairs, sorted(frames[1]["task"].unique()), len(notes)
    ((ContentPair(a='x', b='x_v2', samples=2),), ['x'], 1)
    """
    tasks = [set(frame["task"].unique()) for frame in frames]
    only = (tasks[0] - tasks[1], tasks[1] - tasks[0])
    if not only[0] or not only[1]:
        return frames, (), ()
    contents = [_contents(frame, side) for frame, side in zip(frames, only, strict=True)]
    matches = {
        task: [other for other, content in contents[1].items() if content == mine]
        for task, mine in contents[0].items()
    }
    claimed: dict[str, list[str]] = {}
    for task, others in matches.items():
        for other in others:
            claimed.setdefault(other, []).append(task)
    pairs, notes = [], []
    for task, others in sorted(matches.items()):
        if len(others) == 1 and len(claimed[others[0]]) == 1:
            pairs.append(ContentPair(a=task, b=others[0], samples=len(contents[0][task])))
        elif others:
            notes.append(_ambiguous(task, others, claimed, digest))
    notes += _partial_notes(contents, {p.a for p in pairs}, {p.b for p in pairs}, matches, digest)
    if not pairs:
        return frames, (), tuple(notes)
    renamed = {pair.b: pair.a for pair in pairs}
    b = frames[1].assign(task=frames[1]["task"].map(lambda t: renamed.get(t, t)))
    notes = [
        f"task {pair.b!r} of B paired with task {pair.a!r} of A by content: the same "
        f"{pair.samples:,} questions under the same ids ({digest}), under another task name "
        "(a task renamed between the runs, or another prompt on the same questions)"
        for pair in pairs
    ] + notes
    return [frames[0], b], tuple(pairs), tuple(notes)


def _contents(frame: pd.DataFrame, tasks: set[str]) -> dict[str, frozenset]:
    """Each of `tasks` with a content digest on every row: its set of (id, digest) pairs."""
    rows = frame[frame["task"].isin(tasks)][["task", "case", "hash"]].drop_duplicates()
    found = {}
    for task, group in rows.groupby("task", sort=True):
        if group["hash"].notna().all():
            found[str(task)] = frozenset(zip(group["case"], group["hash"], strict=True))
    return found


def _ambiguous(task: str, others: list[str], claimed: dict, digest: str) -> str:
    rivals = sorted({t for other in others for t in claimed[other]} - {task})
    same = ", ".join(map(repr, (others + rivals)[:_LISTED]))
    return (
        f"task {task!r} of A is not paired by content: its questions ({digest}) are those of "
        f"several tasks ({same}); name the tasks alike in both runs to compare them"
    )


def _partial_notes(
    contents: list[dict], paired_a: set, paired_b: set, matches: dict, digest: str
) -> list[str]:
    """A note for each task of A left unpaired whose questions partly match one task of B's."""
    holders: dict[tuple, set[str]] = {}
    for task, content in contents[1].items():
        if task not in paired_b:
            for pair in content:
                holders.setdefault(pair, set()).add(task)
    notes = []
    for task, content in sorted(contents[0].items()):
        if task in paired_a or matches.get(task):
            continue
        shared: dict[str, int] = {}
        for pair in content:
            for other in holders.get(pair, ()):
                shared[other] = shared.get(other, 0) + 1
        if shared:
            other, count = max(sorted(shared.items()), key=lambda item: item[1])
            notes.append(
                f"task {task!r} of A is not paired with task {other!r} of B: only {count:,} of "
                f"their questions ({len(content):,} in A's, {len(contents[1][other]):,} in "
                f"B's) have the same id and content ({digest}); a partial match is not paired"
            )
    return notes
