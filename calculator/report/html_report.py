"""The comparison as one self-contained HTML file, for attaching to a release: the report of
:mod:`calculator.report.markdown` (answer, table per task, decision and gate, caveats, the top
flips folded) with a chart of each task's difference A − B and its interval, drawn here as
inline SVG. The file requests nothing from any other host: no script, no style sheet, no font,
no image but the SVG it holds.

Every text from a log or a file is HTML-escaped (:func:`html.escape` after
:func:`calculator.text.printable`), so none can make a tag, a link or a script.
"""

from __future__ import annotations

import html
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
from calculator.report.suite import chart_caption, pvalue_note, report_items, suite_gate_clause
from calculator.text import clip, printable

if TYPE_CHECKING:
    from calculator.analysis import Analysis
    from calculator.flips import Flip, Flips
    from calculator.logs import LogAnalysis

__all__ = ["html_report"]

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem}"
    "td.n{text-align:right}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}"
)
_ROW = 26  # pixels per task in the chart
_LEFT, _WIDTH = 220, 420  # the label column and the plot's width


def _e(text: object) -> str:
    """Text from a file or a sentence of the report, escaped for HTML."""
    return html.escape(printable(str(text)))


def html_report(
    result: LogAnalysis | Analysis,
    flips: Flips | None,
    *,
    alpha: float,
    gate: bool | None,
    top: int = 10,
) -> str:
    """A pass/fail comparison (two logs' `result`, or a per-case file's
    :class:`~calculator.analysis.Analysis`) as a self-contained HTML page; `gate` True or False
    says whether a release gate was asked for, None leaves the gate out (the page asks none)."""
    logs = hasattr(result, "pooled")
    pooled = result.pooled if logs else result
    a, b = (_e(clip(name, 80)) for name in pooled.names)
    decision = [f"<li>{_e(item)}</li>" for item in (report_items(result, alpha) if logs else [])]
    if gate is not None:
        decision.append(f"<li>Gate: {_gate(result, alpha) if gate else 'none asked for.'}</li>")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{a} vs {b}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{a} vs {b}</h1>",
        f"<p><strong>Answer.</strong> {_e(words.text(pooled.decision))}</p>",
        _chart(result),
        _table(result, alpha),
    ]
    if decision:
        heading = "Decision" if gate is None else "Decision and gate"
        parts += [f"<h2>{heading}</h2><ul>", *decision, "</ul>"]
    caveats = []
    for label, analysis, _, _ in _entries(result):
        t = analysis.table
        caveat = few_pairs_caveat(t.b + t.c, alpha, analysis.convention)
        if caveat:
            caveats.append(
                caveat if not logs or len(result.tasks) == 1 else f"Task {label}: {caveat}"
            )
    if caveats:
        parts += ["<h2>Caveats</h2><ul>", *(f"<li>{_e(c)}</li>" for c in caveats), "</ul>"]
    if flips is not None:
        parts.append(_flips(flips, top))
    return "\n".join([*parts, "</body></html>"]) + "\n"


def _entries(result: LogAnalysis | Analysis) -> list[tuple[str, Analysis, float, float | None]]:
    """Each row of the table: (task, its analysis, its p, its Holm p); a per-case file's one
    row is "all cases"."""
    if hasattr(result, "pooled"):
        return [(t.task, t.analysis, t.pvalue, t.holm_pvalue) for t in result.tasks]
    return [("all cases", result, result.decision.pvalue, None)]


def _gate(result: LogAnalysis | Analysis, alpha: float) -> str:
    if hasattr(result, "pooled"):
        return _e(gate_verdict(result.pooled, alpha) + suite_gate_clause(result))
    return _e(gate_verdict(result, alpha))


def _table(result: LogAnalysis | Analysis, alpha: float) -> str:
    """A row per task; the Holm column only where there are several tasks to adjust across."""
    pooled = result.pooled if hasattr(result, "pooled") else result
    a, b = (_e(clip(name, 60)) for name in pooled.names)
    several = hasattr(result, "pooled") and len(result.tasks) > 1
    head = (
        f"<tr><th>task</th><th>n</th><th>{a} pass rate</th><th>{b} pass rate</th>"
        f"<th>difference {a} − {b}</th><th>p</th>{'<th>Holm p</th>' if several else ''}</tr>"
    )
    rows = []
    for label, analysis, p, holm_p in _entries(result):
        t = analysis.table
        holm = "" if holm_p is None else format_pvalue(holm_p, alpha=alpha)
        holm = f"<td class=n>{holm}</td>" if several else ""
        rows.append(
            f"<tr><td>{_e(clip(label, 80))}</td><td class=n>{t.n:,}</td>"
            f"<td class=n>{format_percent((t.a + t.b) / t.n)}</td>"
            f"<td class=n>{format_percent((t.a + t.c) / t.n)}</td>"
            f"<td class=n>{format_points((t.b - t.c) / t.n)}</td>"
            f"<td class=n>{format_pvalue(p, alpha=alpha)}</td>{holm}</tr>"
        )
    return f"<table>{head}{''.join(rows)}</table><p><em>{_e(pvalue_note(result))}.</em></p>"


def _chart(result: LogAnalysis | Analysis) -> str:
    """Each task's difference A − B (points) with its interval; a filled dot where the task's
    two-sided p (Holm-adjusted across several tasks) is at most alpha; the suite's difference
    at the bottom, filled where its test of the question asked gives p at most alpha."""
    if not hasattr(result, "pooled"):  # a per-case file: its one difference
        entries = [("all cases", result.difference, result.decision.reject)]
    else:
        entries = [(task.task, task.analysis.difference, task.rejects()) for task in result.tasks]
        entries.append(
            ("suite (every task)", result.pooled.difference, result.pooled.decision.reject)
        )
    height = _ROW * (len(entries) + 1)

    def x(value: float) -> float:  # -1 .. 1 to the plot's pixels
        return _LEFT + (value + 1) / 2 * _WIDTH

    marks = [
        f'<line x1="{x(0):.1f}" y1="0" x2="{x(0):.1f}" y2="{height - _ROW}" stroke="#888"/>',
        f'<text x="{x(-1):.1f}" y="{height - 6}" font-size="11">−100</text>',
        f'<text x="{x(0) - 4:.1f}" y="{height - 6}" font-size="11">0</text>',
        f'<text x="{x(1) - 24:.1f}" y="{height - 6}" font-size="11">+100</text>',
    ]
    for row, (label, difference, shown) in enumerate(entries):
        y = _ROW * row + _ROW / 2
        low, high = max(difference.low, -1.0), min(difference.high, 1.0)
        fill = "#1f5fa8" if shown else "white"
        marks += [
            f'<text x="4" y="{y + 4:.1f}" font-size="12">{_e(clip(label, 32))}</text>',
            f'<line x1="{x(low):.1f}" y1="{y:.1f}" x2="{x(high):.1f}" y2="{y:.1f}" '
            'stroke="#1f5fa8" stroke-width="2"/>',
            f'<circle cx="{x(difference.estimate):.1f}" cy="{y:.1f}" r="5" fill="{fill}" '
            'stroke="#1f5fa8" stroke-width="2"/>',
        ]
    caption = (
        chart_caption(result)
        if hasattr(result, "pooled")
        else "Difference in pass rate A − B (points) with its interval; a filled dot: the "
        "test that decides gives p at most alpha."
    )
    return (
        f'<figure><svg xmlns="http://www.w3.org/2000/svg" width="{_LEFT + _WIDTH + 20}" '
        f'height="{height}" role="img" aria-label="{_e(caption)}">{"".join(marks)}</svg>'
        f"<figcaption>{_e(caption)}</figcaption></figure>"
    )


def _flips(flips: Flips, top: int) -> str:
    parts = [f"<details><summary>{_e(summary_line(flips, top))}</summary>"]
    note = repeats_note(flips)
    if note is not None:
        parts.append(f"<p>{_e(note)}</p>")
    for direction, listed in (
        ("regression", flips.regressions),
        ("improvement", flips.improvements),
    ):
        parts.append(
            f"<h3>{_e(direction_heading(flips, direction))}: "
            f"{min(top, len(listed)):,} of {len(listed):,}</h3>"
        )
        parts += [_flip(flips, flip) for flip in listed[:top]]
    return "\n".join([*parts, "</details>"])


def _flip(flips: Flips, flip: Flip) -> str:
    head = f"<p><strong>{_e(flip_label(flip))}</strong>: {_e(outcome_words(flips, flip))}</p>"
    if flip.texts != "read":
        return head + f"<p><em>{_e(TEXT_STATUS_WORDS[flip.texts])}</em></p>"
    blocks = [("prompt", flip.prompt), ("target", flip.target)]
    for name, texts in zip(flips.names, (flip.texts_a, flip.texts_b), strict=True):
        if texts is not None:
            blocks += [(f"{name} [{field}]", value) for field, value in texts.outputs]
            if texts.explanation:
                blocks.append((f"{name} [explanation]", texts.explanation))
    body = "".join(
        f"<p>{_e(clip(label, 80))}:</p><pre>{html.escape(_lines(value))}</pre>"
        for label, value in blocks
        if value is not None
    )
    return head + body


def _lines(text: str) -> str:
    """A text cut for the page, its lines kept, each made printable."""
    return "\n".join(printable(line) for line in clip(text, 600).split("\n"))
