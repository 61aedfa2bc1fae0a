"""The flips section of the per-case page: the cases where exactly one system passes, apart by
direction, filtered by task and a search, a page of expandable flips at a time, each with its
prompt, reference and both outputs shown as text (``st.code``); the CSV of every flip and the
Markdown report to paste.

The flips of two logs are found and their texts read in a child of their own, under the
upload limits (:func:`ui.isolation.isolated`; a long file's, whose rows hold no texts, in the
child that analyses it), and kept in ``st.cache_resource`` (they are frozen, so the object is
shared, never copied): a rerun of a comparison of 10^5 cases neither unpickles tens of
thousands of texts nor searches them unless a search is typed; a page shows
:data:`PAGE_SIZE` flips.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import streamlit as st

from calculator.errors import CalculatorError
from calculator.flips import oriented
from calculator.flips.table import flips_csv
from calculator.report.flips import repeats_note
from calculator.report.markdown import is_scores, markdown_report
from calculator.report.scores import alpha_of
from calculator.report.suite import chart_caption
from calculator.text import clip
from ui import flips_words as words
from ui.words import escape_markdown

if TYPE_CHECKING:
    from calculator.analysis import Analysis
    from calculator.cases import PairedCases
    from calculator.flips import Flip, Flips
    from calculator.logs import LogAnalysis
    from calculator.logs.pairing import PairedLogs
    from calculator.logs.scores import LogScores
    from calculator.scores import ScoresComparison

__all__ = [
    "PAGE_SIZE",
    "cases_flips_section",
    "flips_view",
    "log_flips_or_refusal",
    "result_flips_section",
]

#: Flips shown per page.
PAGE_SIZE = 50


def log_flips_or_refusal(paired: PairedLogs, sources: tuple[object, object]) -> Flips | str:
    """The flips of two paired logs (or a long file's two systems) with their texts, read
    again from A's and B's `sources` for the flipped ids only; run in a child of its own
    (:func:`ui.widgets.cases_logs._read_flips`). A refusal while reading the texts is returned
    as its words, so that the comparison above still shows."""
    from calculator.flips.attach import read_log_flips

    try:
        return read_log_flips(paired, sources)
    except CalculatorError as error:
        return str(error)


def result_flips_section(result: LogAnalysis | LogScores, flips: Flips | str, key: str) -> None:
    """The flips of the logs (or the long file) compared above, with their texts
    (:func:`log_flips_or_refusal`), or the words of why their texts could not be read (the
    flips are then listed from `result` without them); `result` gives the suite's chart
    (pass/fail over several tasks) and the reports. `key` prefixes the section's keys."""
    scores = is_scores(result)
    if not scores and len(result.tasks) > 1:  # a suite: each task's difference, drawn
        from ui.suite_chart import suite_chart

        st.altair_chart(suite_chart(result, result.pooled.names), key=f"{key}_suite_chart")
        st.caption(escape_markdown(chart_caption(result)))  # the HTML report's words
    if isinstance(flips, str):  # the texts could not be read: the flips without them, and why
        from calculator.flips.model import log_flips

        st.warning(escape_markdown(words.texts_not_read(flips)))
        flips = log_flips(result.paired)
    if scores:  # regressions and improvements in the comparison's better direction
        flips = oriented(flips, result.pooled.better)
    alpha = alpha_of(result.pooled) if scores else result.pooled.decision.alpha
    # gate=None: the page asks no release gate, so its report says nothing about one.
    report = lambda: markdown_report(result, flips, alpha=alpha, gate=None)  # noqa: E731
    page = None
    if not scores:  # the page draws differences in pass rate
        from calculator.report.html_report import html_report

        page = lambda: html_report(result, flips, alpha=alpha, gate=None)  # noqa: E731
    flips_view(flips, key=f"{key}_flips", report=report, html=page)


def text_column_options(cases: PairedCases) -> list[str]:
    """The columns of the paired cases that can hold texts: every column but the id, the
    outcomes and the group; a column that differs between two files ("out (A)", "out (B)")
    once, under its own name."""
    skip = {cases.id_column, *cases.outcome_columns, cases.group_column}
    present = set(map(str, cases.cases.columns))
    names = []
    for column in list(map(str, cases.cases.columns))[1:]:
        base = column
        for suffix in (" (A)", " (B)"):
            if column.endswith(suffix) and {f"{column[:-4]} (A)", f"{column[:-4]} (B)"} <= present:
                base = column[:-4]
        if column not in skip and base not in skip:
            names.append(base)
    return list(dict.fromkeys(names))


@st.cache_resource(max_entries=4, show_spinner=False)
def _case_flips(source: str, _cases: PairedCases, columns: tuple[str, ...], scores: bool) -> Flips:
    from calculator.flips import cases_flips, with_texts
    from calculator.flips.case_texts import case_file_texts

    flips = cases_flips(_cases, scores=scores)
    wanted = {flip.case for flip in flips.flips}
    return with_texts(flips, *case_file_texts(_cases, columns, wanted))


def cases_flips_section(
    cases: PairedCases, result: Analysis | ScoresComparison, source: str
) -> None:
    """The flips of two per-case files (or one), with the text columns chosen here; `source`
    names what the cases were read from (the files' digests and the columns chosen), so that
    a rerun finds them without hashing 10^5 rows. A `result` of scores (a
    :class:`~calculator.scores.ScoresComparison`) lists the largest differences both ways."""
    options = text_column_options(cases)
    columns: tuple[str, ...] = ()
    if options:
        columns = tuple(
            st.multiselect(
                words.TEXT_COLUMNS_LABEL,
                options,
                help=words.TEXT_COLUMNS_HELP,
                key="cases_flip_texts",
            )
        )
    scores = is_scores(result)  # a ScoresComparison: the largest differences both ways
    flips = _case_flips(source, cases, columns, scores)
    if scores:  # regressions and improvements in the comparison's better direction
        flips = oriented(flips, result.better)
    alpha = alpha_of(result) if scores else result.decision.alpha
    page = None
    if not scores:  # the page draws differences in pass rate
        from calculator.report.html_report import html_report

        page = lambda: html_report(result, flips, alpha=alpha, gate=None)  # noqa: E731

    def report() -> str:
        return markdown_report(result, flips, alpha=alpha, gate=None)

    flips_view(flips, key="cases_flips", report=report, html=page)


@st.cache_resource(max_entries=8, show_spinner=False)
def _index(key: str, _flips: Flips) -> dict[str, object]:
    """Each direction's flips, and each flip's text searched (lower case), computed once."""
    by_direction: dict[str, list[int]] = {"regression": [], "improvement": []}
    for position, flip in enumerate(_flips.flips):
        by_direction[flip.direction].append(position)
    return {"by_direction": by_direction, "haystack": None}


def _haystack(index: dict[str, object], flips: Flips) -> list[str]:
    """Each flip's id, task and texts in lower case, built the first time a search is typed."""
    if index["haystack"] is None:
        index["haystack"] = [_searchable(flip) for flip in flips.flips]
    return index["haystack"]  # type: ignore[return-value]


def _searchable(flip: Flip) -> str:
    parts = [flip.case, flip.task or "", flip.prompt or "", flip.target or ""]
    for texts in (flip.texts_a, flip.texts_b):
        if texts is not None:
            parts += [value for _, value in texts.outputs]
            parts.append(texts.explanation or "")
    return "\n".join(parts).lower()


def flips_view(
    flips: Flips,
    *,
    key: str,
    report: Callable[[], str] | None,
    html: Callable[[], str] | None = None,
) -> None:
    """The section: the churn by task, the flips of the direction chosen, the downloads and
    the report."""
    st.subheader(words.TITLE)
    st.caption(words.INTRO)
    if flips.kind == "scores":
        st.caption(words.SCORES_INTRO.format(kept=flips.kept, better=flips.better))
    note = repeats_note(flips)
    if note is not None:  # epoch k of A beside epoch k of B: an arbitrary pairing
        st.caption(escape_markdown(note))
    if len(flips.churn) > 1:
        st.dataframe(_churn_frame(flips), hide_index=True, key=f"{key}_churn")
    # The flips are cached objects (never copied): their identity, size and ends name them.
    ends = (flips.flips[0].key, flips.flips[-1].key) if flips.flips else ()
    index = _index(f"{key}:{id(flips)}:{len(flips.flips)}:{ends}", flips)
    by_direction = index["by_direction"]
    # One direction's list at a time: a rerun draws one page of closed expanders, not two.
    direction = st.radio(
        words.DIRECTION_LABEL,
        ("regression", "improvement"),
        format_func=lambda d: words.tab_label(flips, d, len(by_direction[d])),
        horizontal=True,
        key=f"{key}_direction",
    )
    _flip_list(flips, index, direction, f"{key}_{direction}")
    st.download_button(
        words.CSV_LABEL,
        data=lambda: flips_csv(flips),
        file_name="flips.csv",
        mime="text/csv",
        key=f"{key}_csv",
        on_click="ignore",
    )
    if report is not None:  # made when downloaded or opened, not at every rerun
        st.download_button(
            words.MARKDOWN_LABEL,
            data=report,
            file_name="comparison.md",
            mime="text/markdown",
            key=f"{key}_markdown",
            on_click="ignore",
        )
        if html is not None:  # the same report as one page, its chart drawn in it
            st.download_button(
                words.HTML_LABEL,
                data=html,
                file_name="comparison.html",
                mime="text/html",
                key=f"{key}_html",
                on_click="ignore",
            )
        box = st.expander(words.REPORT_TITLE, key=f"{key}_report", on_change="rerun")
        if box.open:
            with box:  # plain text: a Markdown highlighter's colours fail the contrast audit
                st.code(report(), language=None, wrap_lines=True)


def _churn_frame(flips: Flips):  # noqa: ANN202 - a pandas DataFrame, imported lazily
    import pandas as pd

    from calculator.text import printable

    rows = [
        (printable(clip(str(c.task), 120)), c.n, c.regressions, c.improvements) for c in flips.churn
    ]
    return pd.DataFrame(rows, columns=list(words.churn_columns(flips.names)))


def _flip_list(flips: Flips, index: dict, direction: str, key: str) -> None:
    positions: list[int] = index["by_direction"][direction]
    total = len(positions)
    if not total:
        st.caption(words.list_caption(0, 0, 1, 1))
        return
    filters = st.columns(2)
    tasks = flips.tasks
    if len(tasks) > 1:
        chosen = filters[0].selectbox(
            words.TASK_LABEL, [words.ALL_TASKS, *tasks], key=f"{key}_task"
        )
        if chosen != words.ALL_TASKS:
            positions = [p for p in positions if flips.flips[p].task == chosen]
    query = filters[1].text_input(words.SEARCH_LABEL, key=f"{key}_search").strip().lower()
    if query:
        haystack = _haystack(index, flips)
        positions = [p for p in positions if query in haystack[p]]
    pages = max(1, -(-len(positions) // PAGE_SIZE))
    page = st.pagination(pages, key=f"{key}_page") if pages > 1 else 1
    page = min(page, pages)
    st.caption(words.list_caption(len(positions), total, page, pages))
    for position in positions[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]:
        flip = flips.flips[position]
        # An expander that tracks its state draws its texts only while open: a rerun draws 50
        # closed expanders, not 50 flips' texts.
        box = st.expander(
            words.expander_label(flips, flip), key=f"{key}_open_{position}", on_change="rerun"
        )
        if box.open:
            with box:
                _flip_texts(flips, flip)


def _flip_texts(flips: Flips, flip: Flip) -> None:
    """A flip's texts, each as text (``st.code``: nothing in it is read as Markdown or HTML)."""
    if flip.texts != "read":
        st.caption(escape_markdown(words.status_words(flip.texts)))
        return
    for label, value in ((words.PROMPT, flip.prompt), (words.TARGET, flip.target)):
        if value is not None:
            st.caption(label)
            st.code(value, language=None, wrap_lines=True)
    sides = st.columns(2)
    for side, name, texts in zip(sides, flips.names, (flip.texts_a, flip.texts_b), strict=True):
        with side:
            if texts is None:
                st.caption(escape_markdown(f"{clip(name, 60)}: {words.status_words('not_found')}"))
                continue
            for field, value in texts.outputs:
                st.caption(words.output_label(name, field))
                st.code(value, language=None, wrap_lines=True)
            if texts.explanation:
                st.caption(words.output_label(name, words.EXPLANATION))
                st.code(texts.explanation, language=None, wrap_lines=True)
