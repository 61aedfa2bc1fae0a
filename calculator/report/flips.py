"""The flips in words: the churn by task and the first flips of each direction, with their
texts cut for reading (the full texts are in the JSON and the CSV).

Every text from a log or a file goes through :func:`calculator.text.printable` (no control
character, newline or direction override reaches a terminal) and :func:`calculator.text.clip`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.formatting import plural
from calculator.text import clip, printable

if TYPE_CHECKING:
    from calculator.flips import Flip, Flips

__all__ = [
    "DIRECTION_WORDS",
    "TEXT_STATUS_WORDS",
    "churn_lines",
    "direction_heading",
    "flip_label",
    "flip_lines",
    "outcome_words",
    "repeats_note",
    "summary_line",
]

#: Characters of a prompt, a reference or an output shown in a text report.
TEXT_WIDTH = 160
#: What each text status (:data:`calculator.flips.model.TEXT_STATUSES`) says beside a flip.
TEXT_STATUS_WORDS = {
    "read": "",
    "none_in_source": "no texts: the source holds ids and outcomes only",
    "not_found": "no texts under this id in the source",
    "not_read": "texts not read",
}
#: Each direction, as (what it is, who passes). "Regression" and "improvement" take A as the
#: baseline and B as the new system: said in the words themselves.
DIRECTION_WORDS = {
    "regression": ("regressions", "only {a}, the baseline, passes"),
    "improvement": ("improvements", "only {b}, the new system, passes"),
}
#: For scores: who scores better, and which scores are better (the comparison's direction).
_SCORE_DIRECTION = {
    "regression": ("regressions", "{a}, the baseline, scores better: {better} is better"),
    "improvement": ("improvements", "{b}, the new system, scores better: {better} is better"),
}


def direction_heading(flips: Flips, direction: str) -> str:
    """ "regressions (only A, the baseline, passes)" for pass/fail, "(A, the baseline, scores
    better: higher is better)" for scores."""
    table = _SCORE_DIRECTION if flips.kind == "scores" else DIRECTION_WORDS
    kind, who = table[direction]
    a, b = (printable(clip(name, 60)) for name in flips.names)
    return f"{kind} ({who.format(a=a, b=b, better=flips.better or 'higher')})"


def summary_line(flips: Flips, top: int) -> str:
    """The flips in one line, for a folded block's summary (Markdown, HTML): how many of each
    direction, A taken as the baseline."""
    a = printable(clip(flips.names[0], 60))
    scores = " (the largest score differences)" if flips.kind == "scores" else ""
    return (
        f"Flips against {a}, the baseline: {plural(len(flips.regressions), 'regression')}, "
        f"{plural(len(flips.improvements), 'improvement')}{scores}; the first {top:,} of each"
    )


def repeats_note(flips: Flips) -> str | None:
    """With repeats (epochs, trials), what the flips rest on: repeat k of A paired with repeat k
    of B, an arbitrary pairing of independent samples, on which the flips and their counts
    depend, while the decision counts questions. None without repeats."""
    if not any(flip.repeat is not None for flip in flips.flips):
        return None
    a, b = (printable(clip(name, 60)) for name in flips.names)
    return (
        f"With repeats, each flip pairs repeat k of {a} with repeat k of {b}: an arbitrary "
        "pairing of independent samples, and another pairing would give other flips and other "
        "counts. The decision does not rest on it: it counts questions, each with its repeats."
    )


def outcome_words(flips: Flips, flip: Flip) -> str:
    """Both outcomes: "A pass, B fail", or both scores."""
    a, b = (printable(clip(name, 60)) for name in flips.names)
    if flips.kind == "scores":
        return f"{a} {flip.outcome_a:.4g}, {b} {flip.outcome_b:.4g}"
    word = {True: "pass", False: "fail"}
    a_pass = flip.direction == "regression"
    return f"{a} {word[a_pass]}, {b} {word[not a_pass]}"


def flip_label(flip: Flip) -> str:
    """task/id (#repeat), escaped."""
    label = flip.case if flip.task is None else f"{flip.task}/{flip.case}"
    if flip.repeat is not None:
        label += f" #{flip.repeat}"
    return printable(clip(label, 120))


def churn_lines(flips: Flips) -> list[str]:
    """The churn: in all, and by task when there are several."""
    regressions = sum(c.regressions for c in flips.churn)
    improvements = sum(c.improvements for c in flips.churn)
    lines = [
        f"churn     {direction_heading(flips, 'regression')}: {regressions:,}; "
        f"{direction_heading(flips, 'improvement')}: {improvements:,}"
    ]
    if len(flips.churn) > 1:
        lines += [
            f"          task {printable(clip(str(c.task), 80))}: {c.regressions:,} regressions, "
            f"{c.improvements:,} improvements, of {plural(c.n, 'case')}"
            for c in flips.churn
        ]
    return lines


def flip_lines(flips: Flips, first: int, width: int = TEXT_WIDTH) -> list[str]:
    """The churn, then the `first` flips of each direction with their texts cut to `width`."""
    lines = churn_lines(flips)
    note = repeats_note(flips)
    if note is not None:
        lines.append(f"          {note}")
    for direction, listed in (
        ("regression", flips.regressions),
        ("improvement", flips.improvements),
    ):
        shown = listed[:first]
        total = len(listed)
        if flips.kind == "scores":
            heading = f"{direction_heading(flips, direction)}, the largest differences"
        else:
            heading = direction_heading(flips, direction)
        lines += ["", f"{heading}: {len(shown):,} shown of {total:,}"]
        for flip in shown:
            lines += _one_flip(flips, flip, width)
    return lines


def _one_flip(flips: Flips, flip: Flip, width: int) -> list[str]:
    lines = [f"  {flip_label(flip)}: {outcome_words(flips, flip)}"]
    if flip.texts != "read":
        return [*lines, f"    ({TEXT_STATUS_WORDS[flip.texts]})"]
    for label, value in (("prompt", flip.prompt), ("target", flip.target)):
        if value is not None:
            lines.append(f"    {label:<9}{_cut(value, width)}")
    for name, texts in zip(flips.names, (flip.texts_a, flip.texts_b), strict=True):
        short = printable(clip(name, 30))
        if texts is None:
            lines.append(f"    {short}: (no texts under this id)")
            continue
        for field, value in texts.outputs:
            lines.append(f"    {short} [{printable(clip(field, 40))}]: {_cut(value, width)}")
        if texts.explanation:
            lines.append(f"    {short} [explanation]: {_cut(texts.explanation, width)}")
    return lines


def _cut(text: str, width: int) -> str:
    """A text on one line, escaped, cut to `width` (the escapes counted)."""
    return clip(printable(text), width)
