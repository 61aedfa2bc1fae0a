"""The report to paste: a comparison as GitHub-renderable Markdown.

One line that answers, a table per task (n, both pass rates, the difference A − B, p, Holm's p
across tasks), the decision and the gate, the caveats, and the top flips in a collapsed
``<details>`` block. Nothing here computes: every number comes from the result.

Text from logs and files never becomes Markdown or HTML: names, tasks and ids go through
:func:`calculator.text.escape_markdown` (no link, image, emphasis, table break or tag can come
from them), and the flips' texts are fenced code blocks whose fence is longer than any run of
backticks in the text, so that a text cannot close its block; the block's summary holds no
text from a file.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from calculator.report import words
from calculator.report.caveats import few_pairs_caveat
from calculator.report.flips import (
    TEXT_STATUS_WORDS,
    direction_heading,
    flip_label,
    outcome_words,
    repeats_note,
    summary_line,
)
from calculator.report.formatting import format_percent, format_points, format_pvalue
from calculator.report.gate import gate_verdict
from calculator.report.suite import (
    pvalue_note,
    report_items,
    scores_pvalue_note,
    suite_gate_clause,
)
from calculator.text import clip, escape_markdown, printable

if TYPE_CHECKING:
    from calculator.analysis import Analysis
    from calculator.flips import Flip, Flips
    from calculator.logs import LogAnalysis
    from calculator.logs.scores import LogScores
    from calculator.scores import ScoresComparison

__all__ = ["TOP_FLIPS", "is_scores", "markdown_report"]

#: Flips of each direction shown in the report's collapsed block.
TOP_FLIPS = 10
#: Characters of each text shown in the block (the CSV and the JSON hold them whole).
TEXT_LIMIT = 600
_BACKTICKS = re.compile(r"`+")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def markdown_report(
    result: LogAnalysis | Analysis,
    flips: Flips | None,
    *,
    alpha: float,
    gate: bool | None,
    top: int = TOP_FLIPS,
) -> str:
    """The report of a comparison (two logs' `result`, pass/fail or scores, or a per-case
    file's :class:`~calculator.analysis.Analysis` or
    :class:`~calculator.scores.ScoresComparison`) as Markdown, with the first `top` flips of
    each direction. `gate` True or False says whether a release gate was asked for (the
    command line's ``--fail-if-worse``); None leaves the gate out (the page asks none, so its
    report claims nothing about one)."""
    if is_scores(result):
        return _scores_report(result, flips, alpha=alpha, gate=gate, top=top)
    pooled = result if not hasattr(result, "pooled") else result.pooled
    names = pooled.names
    lines = [
        f"## {_md(names[0])} vs {_md(names[1])}",
        "",
        f"**Answer.** {_md(words.text(pooled.decision))}",
        "",
        *_table(result, alpha),
    ]
    decision = report_items(result, alpha) if hasattr(result, "pooled") else []
    if gate:
        clause = suite_gate_clause(result) if hasattr(result, "pooled") else ""
        decision.append(f"Gate: {gate_verdict(pooled, alpha) + clause}")
    elif gate is not None:
        decision.append("Gate: none asked for.")
    if decision:
        lines += ["", f"### {_decision_heading(gate)}", "", *(f"- {_md(d)}" for d in decision)]
    caveats = _caveats(result, pooled, alpha)
    if caveats:
        lines += ["", "### Caveats", "", *(f"- {_md(c)}" for c in caveats)]
    if flips is not None:
        lines += ["", *_flips_block(flips, top)]
    return "\n".join(lines) + "\n"


def is_scores(result: object) -> bool:
    """Whether `result` compares scores: a ScoresComparison, or logs' LogScores."""
    from calculator.logs.scores import LogScores
    from calculator.scores import ScoresComparison

    return isinstance(result, ScoresComparison | LogScores)


def _scores_report(
    result: LogScores | ScoresComparison,
    flips: Flips | None,
    *,
    alpha: float,
    gate: bool | None,
    top: int,
) -> str:
    """The report of scores: the headline (means, the mean difference A − B, its interval,
    the permutation p) as the answer, a row per task (mean A, mean B, the difference, p,
    Holm's p), the decision (which comparison answers, the margin's answer, the gate), the
    caveats and the flips (the largest differences each way)."""
    from calculator.report.gate import scores_gate_verdict
    from calculator.report.scores import (
        alpha_of,
        few_flips_caveat,
        headline,
        margin_sentence,
        scores_sentences,
    )
    from calculator.report.suite import scores_gate_clause

    logs = hasattr(result, "pooled")
    pooled = result.pooled if logs else result
    lead, _ = scores_sentences(pooled)
    decision = report_items(result, alpha) if logs else []
    few = few_flips_caveat(pooled, alpha_of(pooled))  # said among the caveats
    decision += [line for line in lead[1:] if line != few]
    if pooled.margin is not None:
        decision.append(margin_sentence(pooled.margin))
    if gate:
        clause = scores_gate_clause(result) if logs else ""
        decision.append(f"Gate: {scores_gate_verdict(pooled, alpha)}{clause}")
    elif gate is not None:
        decision.append("Gate: none asked for.")
    lines = [
        f"## {_md(pooled.names[0])} vs {_md(pooled.names[1])}",
        "",
        f"**Answer.** {_md(headline(pooled))}",
        "",
        *_scores_table(result, alpha),
    ]
    if decision:
        lines += ["", f"### {_decision_heading(gate)}", "", *(f"- {_md(d)}" for d in decision)]
    caveats = _score_caveats(result, alpha)
    if caveats:
        lines += ["", "### Caveats", "", *(f"- {_md(c)}" for c in caveats)]
    if flips is not None:
        lines += ["", *_flips_block(flips, top)]
    return "\n".join(lines) + "\n"


def _decision_heading(gate: bool | None) -> str:
    """ "Decision and gate" where a gate can be asked for (the command line), else
    "Decision" (the page asks no gate)."""
    return "Decision" if gate is None else "Decision and gate"


def _scores_table(result: LogScores | ScoresComparison, alpha: float) -> list[str]:
    from calculator.report.figures import floor_bound, format_score

    logs = hasattr(result, "pooled")
    pooled = result.pooled if logs else result
    a, b = (_md(name) for name in pooled.names)
    several = logs and len(result.tasks) > 1
    head = f"| task | n | {a} mean | {b} mean | difference {a} − {b} | p |"
    rule = "| --- | ---: | ---: | ---: | ---: | ---: |"
    if several:
        head, rule = head + " Holm p |", rule + " ---: |"

    def p_of(comparison: ScoresComparison, p: float) -> str:
        test = comparison.permutation
        if test is not None and test.at_floor:  # a Monte Carlo p at its floor: a bound
            return floor_bound(test.patterns)
        return format_pvalue(p, alpha=alpha)

    def row(task: str, c: ScoresComparison, p: str, holm: float | None) -> str:
        cells = (
            f"| {task} | {c.n:,} | {format_score(c.mean_a, signed=False)} | "
            f"{format_score(c.mean_b, signed=False)} | {format_score(c.statistic, snap=True)} "
            f"| {p} |"
        )
        if several:
            cells += f" {'' if holm is None else format_pvalue(holm, alpha=alpha)} |"
        return cells

    rows = [head, rule]
    if logs:
        for t in result.tasks:
            p = (
                format_pvalue(t.pvalue, alpha=alpha)
                if t.by_question
                else p_of(t.comparison, t.pvalue)
            )
            rows.append(row(_md(clip(str(t.task), 80)), t.comparison, p, t.holm_pvalue))
    from calculator.logs.scores import headline_pvalue

    if several or not logs:
        label = "**suite**" if several else "all cases"
        rows.append(row(label, pooled, p_of(pooled, headline_pvalue(pooled)), None))
    return [*rows, "", f"_{_md(scores_pvalue_note(result))}._"]


def _score_caveats(result: LogScores | ScoresComparison, alpha: float) -> list[str]:
    """Too few non-zero differences for the exact sign flip to reach alpha, and repeats."""
    from calculator.report.scores import few_flips_caveat

    logs = hasattr(result, "pooled")
    entries = [(t.task, t.comparison) for t in result.tasks] if logs else [(None, result)]
    caveats = []
    for task, comparison in entries:
        caveat = few_flips_caveat(comparison, alpha)
        if caveat:
            caveats.append(caveat if len(entries) == 1 else f"Task {clip(task, 80)}: {caveat}")
    if logs and len(entries) > 1:
        caveat = few_flips_caveat(result.pooled, alpha)
        if caveat:
            caveats.append(f"Suite: {caveat}")
    if logs and result.repeats:
        caveats.append("Repeated samples of each question: the tests count questions, not samples.")
    return caveats


def _md(text: str) -> str:
    """Text of the report (whose names, tasks and ids come from files) as Markdown that shows
    it as written on one line, in a table cell too: newlines made visible
    (:func:`calculator.text.printable`), then :func:`calculator.text.escape_markdown`, then a
    pipe inside a code span (an address shown as code) escaped for the table."""
    return _UNESCAPED_PIPE.sub(r"\\|", escape_markdown(printable(text)))


def _table(result: LogAnalysis | Analysis, alpha: float) -> list[str]:
    pooled = result if not hasattr(result, "pooled") else result.pooled
    a, b = (_md(name) for name in pooled.names)
    several = hasattr(result, "pooled") and len(result.tasks) > 1
    head = f"| task | n | {a} pass rate | {b} pass rate | difference {a} − {b} | p |"
    rule = "| --- | ---: | ---: | ---: | ---: | ---: |"
    if several:
        head, rule = head + " Holm p |", rule + " ---: |"
    rows = [head, rule]
    entries = (
        [(t.task, t.analysis.table, t.pvalue, t.holm_pvalue) for t in result.tasks]
        if hasattr(result, "pooled")
        else [("all cases", pooled.table, pooled.decision.pvalue, None)]
    )
    for task, table, p, holm in entries:
        row = (
            f"| {_md(clip(str(task), 80))} | {table.n:,} | "
            f"{format_percent((table.a + table.b) / table.n)} | "
            f"{format_percent((table.a + table.c) / table.n)} | "
            f"{format_points((table.b - table.c) / table.n)} | {format_pvalue(p, alpha=alpha)} |"
        )
        if several:
            row += f" {'' if holm is None else format_pvalue(holm, alpha=alpha)} |"
        rows.append(row)
    if several:
        t = pooled.table
        rows.append(
            f"| **suite** | {t.n:,} | {format_percent((t.a + t.b) / t.n)} | "
            f"{format_percent((t.a + t.c) / t.n)} | {format_points((t.b - t.c) / t.n)} | "
            f"{format_pvalue(pooled.decision.pvalue, alpha=alpha)} | |"
        )
    return [*rows, "", f"_{_md(pvalue_note(result))}._"]


def _caveats(result: LogAnalysis | Analysis, pooled: Analysis, alpha: float) -> list[str]:
    """Too few discordant pairs for any split to reach alpha (per task), and repeats."""
    entries = (
        [(t.task, t.analysis) for t in result.tasks]
        if hasattr(result, "pooled")
        else [(None, pooled)]
    )
    caveats = []
    for task, analysis in entries:
        t = analysis.table
        caveat = few_pairs_caveat(t.b + t.c, alpha, analysis.convention)
        if caveat:
            caveats.append(caveat if len(entries) == 1 else f"Task {clip(task, 80)}: {caveat}")
    if hasattr(result, "pooled") and result.repeats:
        caveats.append(
            "Repeated samples of each question: the decision counts questions, not samples."
        )
    return caveats


def _flips_block(flips: Flips, top: int) -> list[str]:
    regressions, improvements = flips.regressions, flips.improvements
    lines = ["<details>", f"<summary>{_md(summary_line(flips, top))}</summary>", ""]
    note = repeats_note(flips)
    if note is not None:
        lines += [_md(note), ""]
    for direction, listed in (("regression", regressions), ("improvement", improvements)):
        heading = _md(direction_heading(flips, direction))
        lines += [f"#### {heading}: {min(top, len(listed)):,} of {len(listed):,}", ""]
        for flip in listed[:top]:
            lines += _flip(flips, flip)
    return [*lines, "</details>"]


def _flip(flips: Flips, flip: Flip) -> list[str]:
    lines = [
        f"**{_md(flip_label(flip))}**: {_md(outcome_words(flips, flip))}",
        "",
    ]
    if flip.texts != "read":
        return [*lines, f"_{_md(TEXT_STATUS_WORDS[flip.texts])}_", ""]
    blocks = [("prompt", flip.prompt), ("target", flip.target)]
    for name, texts in zip(flips.names, (flip.texts_a, flip.texts_b), strict=True):
        if texts is None:
            continue
        blocks += [(f"{name} [{field}]", value) for field, value in texts.outputs]
        if texts.explanation:
            blocks.append((f"{name} [explanation]", texts.explanation))
    for label, value in blocks:
        if value is not None:
            lines += [f"{_md(clip(label, 80))}:", "", *_fenced(value), ""]
    return lines


def _fenced(text: str) -> list[str]:
    """`text` cut and made printable line by line, in a fence no run of its backticks closes."""
    kept = "\n".join(printable(line) for line in clip(text, TEXT_LIMIT).split("\n"))
    longest = max((len(run) for run in _BACKTICKS.findall(kept)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}text", kept, fence]
