"""The per-case page's section for evaluation-harness logs: two uploaders taking several files
each, the comparison's report (the core's lines, as text) and the per-task table.

A graded metric (values other than 0 and 1) without a threshold is compared as scores, as on the
command line (:func:`calculator.logs.scores.analyze_log_scores`): the per-task table then holds
each task's mean scores, and the report is the pooled comparison's
(:func:`calculator.report.words.text`)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from calculator.chooser import OptionRefused
from calculator.errors import CalculatorError
from calculator.flips import Flips
from calculator.logs import LogAnalysis, PairedLogs, read_log_data
from calculator.logs.scores import LogScores
from calculator.logs.sources import MAX_LOG_BYTES
from calculator.logs.task_choice import Asked
from calculator.logs.uploads import upload_models
from calculator.paired_data import of_logs
from calculator.report.decision_lines import log_comparison_lines
from calculator.report.logs import (
    direction_line,
    input_lines,
    question_means_note,
    task_test_words,
)
from calculator.report.suite import scores_suite_lines
from calculator.report.words import text
from calculator.text import printable
from calculator.workflow import (
    LogChoice,
    compare,
    pair_two_logs,
)
from ui import logs_words as words
from ui.isolation import isolated
from ui.widgets.flips import log_flips_or_refusal, result_flips_section
from ui.widgets.question import Asked as Question
from ui.widgets.question import question_inputs, show_refusal
from ui.words import escape_markdown

__all__ = [
    "log_choice",
    "logs_section",
    "score_task_frame",
    "show_log_result",
    "task_frame",
    "threshold_value",
]

Files = tuple[tuple[str, bytes], ...]


@st.cache_data(max_entries=8, show_spinner=False)
def _models(files: Files) -> tuple[str, ...]:
    # The models the logs name, read in a child (an Inspect log's header, a HELM run's spec).
    return isolated(upload_models, list(files), MAX_LOG_BYTES)


# Resources, not data: the result and the flips (tens of thousands of texts, for 10^5 cases)
# are frozen and shared, never unpickled again at a rerun.
@st.cache_resource(max_entries=4, show_spinner=False)
def _compare(
    a: Files,
    b: Files,
    models: tuple[str | None, str | None],
    metric: str | None,
    chosen_filter: str | None,
    threshold: float | None,
    allow: bool,
    asked: Question,
) -> LogAnalysis | LogScores:
    # Read and analysed in a child under the upload limits, never in the server's interpreter.
    return isolated(_analysed, a, b, models, metric, chosen_filter, threshold, allow, asked)


def _analysed(
    a: Files,
    b: Files,
    models: tuple[str | None, str | None],
    metric: str | None,
    chosen_filter: str | None,
    threshold: float | None,
    allow: bool,
    asked: Question,
) -> LogAnalysis | LogScores:
    """The comparison, in a child."""
    paired = _paired(a, b, models, log_choice(metric, chosen_filter, threshold, allow))
    # A graded metric without a threshold is compared as scores, as on the command line; the
    # question's margin is then in the scores' units.
    return compare(of_logs(paired), asked.ask(scores=paired.scores)).report


@st.cache_resource(max_entries=4, show_spinner=False)
def _flips(
    a: Files, b: Files, models: tuple[str | None, str | None], choice: LogChoice
) -> Flips | str:
    # A child of its own, under the same limits as the comparison's: reading the texts of
    # large logs may reach a limit that the comparison alone stays within, and then only the
    # flips are missing (their section says why), never the comparison.
    try:
        return isolated(_read_flips, a, b, models, choice)
    except CalculatorError as error:
        return str(error)


def _read_flips(
    a: Files, b: Files, models: tuple[str | None, str | None], choice: LogChoice
) -> Flips | str:
    """The flips with their texts, read again from the files for the flipped ids only."""
    return log_flips_or_refusal(_paired(a, b, models, choice), (list(a), list(b)))


def _paired(
    a: Files, b: Files, models: tuple[str | None, str | None], choice: LogChoice
) -> PairedLogs:
    logs = (
        read_log_data(a, system="A", model=models[0]),
        read_log_data(b, system="B", model=models[1]),
    )
    return pair_two_logs(*logs, choice)


def log_choice(
    metric: str | None, chosen_filter: str | None, threshold: float | None, allow: bool
) -> LogChoice:
    """What is compared, from the boxes: the metric and filter (TASK=NAME forms too)."""
    metrics, filters = _asked(metric), _asked(chosen_filter)
    return LogChoice(
        metric=metrics.every,
        filter=filters.every,
        threshold=threshold,
        allow_exclusions=allow,
        metric_by_task=tuple(metrics.by_task.items()),
        filter_by_task=tuple(filters.by_task.items()),
    )


def _asked(text: str | None) -> Asked:
    """The names typed in a box: one for every task, TASK=NAME forms, separated by ';'."""
    asked = Asked()
    for part in (text or "").split(words.NAME_SEPARATOR):
        if part.strip():
            asked = asked.add(part)
    return asked


def threshold_value(text: str) -> float | None | bool:
    """The threshold typed: None when empty, False when not a finite number."""
    import math

    if not text.strip():
        return None
    try:
        value = float(text)
    except ValueError:
        return False
    return value if math.isfinite(value) else False


def _holm_cells(result: LogAnalysis | LogScores) -> list[float | str]:
    """The Holm-adjusted p of each task; with one task there is nothing to adjust, and the
    column is :data:`ui.logs_words.MISSING` throughout (a mixed column would not keep its
    numbers as numbers); with several every task has one."""
    holm = [task.holm_pvalue for task in result.tasks]
    return [words.MISSING] * len(holm) if None in holm else holm


def _empty_cells_caption(frame: pd.DataFrame) -> None:
    """Say why a cell of the per-task table shows :data:`ui.logs_words.MISSING`."""
    notes = [
        note
        for column, note in (
            ("Holm-adjusted p", words.HOLM_EMPTY),
            ("questions", words.QUESTIONS_EMPTY),
        )
        if column in frame and (frame[column] == words.MISSING).any()
    ]
    if notes:
        st.caption(" ".join(notes))


def task_frame(result: LogAnalysis) -> pd.DataFrame:
    """One row per task: its table, its test, its p-value and Holm-adjusted p-value (with one
    task, :data:`ui.logs_words.MISSING`)."""
    rows = []
    for task, holm in zip(result.tasks, _holm_cells(result), strict=True):
        t = task.analysis.table
        name = printable(task.task)  # a task name from a log: its hidden characters shown
        test = task_test_words(task.test)
        rows.append((name, t.a, t.b, t.c, t.d, test, task.pvalue, holm))
    return pd.DataFrame(rows, columns=list(words.TABLE_COLUMNS))


def score_task_frame(result: LogScores) -> pd.DataFrame:
    """One row per task compared as scores: its cases (and questions, with repeats), each
    system's mean score, the mean difference, its p-value and the Holm-adjusted p-value."""
    rows = []
    # With different repeats in A and B the cases are the questions (at their means).
    clusters = [
        task.comparison.n if task.by_question is not None else task.comparison.clusters
        for task in result.tasks
    ]
    if None in clusters:  # a mixed column: every cell as text, the figures with separators
        clusters = [words.MISSING if n is None else f"{n:,}" for n in clusters]
    for task, questions, holm in zip(result.tasks, clusters, _holm_cells(result), strict=True):
        c = task.comparison
        name = printable(task.task)
        rows.append((name, c.n, questions, c.mean_a, c.mean_b, c.statistic, task.pvalue, holm))
    return pd.DataFrame(rows, columns=list(words.SCORE_TABLE_COLUMNS))


def logs_section() -> None:
    """A switch that opens the uploaders, the options and, with both logs, the report."""
    if not st.checkbox(words.TITLE, key="logs_show"):
        return
    with st.container(border=True):
        st.write(words.INTRO)
        left, right = st.columns(2)
        given = []
        for column, label, key in (
            (left, words.A_LABEL, "logs_a"),
            (right, words.B_LABEL, "logs_b"),
        ):
            uploads = column.file_uploader(
                label, type=list(words.LOG_TYPES), accept_multiple_files=True, key=key
            )
            given.append(tuple((item.name, item.getvalue()) for item in uploads or ()))
        options = st.columns(4)
        metric = options[0].text_input(
            words.METRIC_LABEL, help=words.METRIC_HELP, key="logs_metric"
        )
        chosen = options[1].text_input(
            words.FILTER_LABEL, help=words.FILTER_HELP, key="logs_filter"
        )
        cut = options[2].text_input(
            words.THRESHOLD_LABEL, help=words.THRESHOLD_HELP, key="logs_threshold"
        )
        allow = options[3].checkbox(words.ALLOW_LABEL, help=words.ALLOW_HELP, key="logs_allow")
        asked = question_inputs("logs_", better=True, stated=True)
        threshold = threshold_value(cut)
        if threshold is False:
            st.error(words.BAD_THRESHOLD)
            return
        sides = _sides(given[0], given[1])
        if sides is None:
            return
        metric, chosen = metric.strip() or None, chosen.strip() or None
        try:
            result = _compare(*sides, metric, chosen, threshold, allow, asked)
        except OptionRefused as error:  # an option the test cannot answer: named as here
            show_refusal(error)
            return
        except CalculatorError as error:  # the logs' refusals, and those of their scores
            st.error(escape_markdown(words.page_message(str(error))))
            return
        show_log_result(result, "logs")
        flips = _flips(*sides, log_choice(metric, chosen, threshold, allow))
        result_flips_section(result, flips, "logs")  # ui/widgets/flips.py


def _sides(a: Files, b: Files) -> tuple[Files, Files, tuple[str | None, str | None]] | None:
    """A's and B's files and the model read from each: where an upload holds logs of several
    models (a HELM suite, an eval set), the one chosen here; an upload of several models given
    as A's alone is read for both. None (said why) until both sides are given and differ."""
    if not a and not b:
        st.caption(words.PROMPT)
        return None
    try:
        held = [_models(files) if files else () for files in (a, b)]
    except CalculatorError as error:  # a file that is no log, over a limit: said as the readers say
        st.error(escape_markdown(words.page_message(str(error))))
        return None
    if not b and len(held[0]) > 1:  # one upload of several models: both sides read from it
        b, held[1] = a, held[0]
        st.caption(words.ONE_UPLOAD)
    if not a or not b:
        st.caption(words.PROMPT)
        return None
    models: list[str | None] = [None, None]
    columns = st.columns(2)
    for slot, (column, side) in enumerate(zip(columns, "AB", strict=True)):
        if len(held[slot]) > 1:
            models[slot] = column.selectbox(
                words.model_label(side, len(held[slot])),
                held[slot],
                index=min(slot, len(held[slot]) - 1) if a == b else 0,
                format_func=printable,  # a model's name from a log: its hidden characters shown
                key=f"logs_model_{side.lower()}",
            )
    if a == b and models[0] == models[1]:
        st.error(words.SAME_MODEL)
        return None
    return a, b, (models[0], models[1])


def show_log_result(result: LogAnalysis | LogScores, key: str) -> None:
    """The report of two logs compared (or a long file's two systems), as text, and the table
    of tasks; `key` prefixes the keys of the tables shown."""
    if isinstance(result, LogScores):
        _show_scores(result, key)
        return
    # Names, tasks, metrics and filters come from the logs: st.text shows them as text, and
    # printable makes the characters that would not show as themselves (bidirectional
    # overrides, zero-width, escape sequences) visible, as on every other surface.
    # The command line's text, in the page's names for its controls.
    lines = log_comparison_lines(result, controls=words.CONTROLS)
    st.text("\n".join(printable(words.page_message(line)) for line in lines))
    frame = task_frame(result)
    st.dataframe(frame, hide_index=True, key=f"{key}_tasks")
    _empty_cells_caption(frame)


def _show_scores(result: LogScores, key: str) -> None:
    """What was compared, a row per task, and the pooled comparison's report, as text."""
    lines = input_lines(result.paired, controls=words.CONTROLS)
    better = result.pooled.better
    direction = direction_line(result.paired.stated_better, better, controls=words.CONTROLS)
    lines += [direction] if direction else []
    st.text("\n".join(printable(words.page_message(line)) for line in lines))
    frame = score_task_frame(result)
    st.dataframe(frame, hide_index=True, key=f"{key}_score_tasks")
    _empty_cells_caption(frame)
    notes = [question_means_note(t) for t in result.tasks if t.by_question is not None]
    if notes:  # every repeat counted: the questions at their means, and the test by question
        st.text("\n".join(printable(line) for line in notes))
    st.caption(words.SCORES_POOLED)
    # Several tasks: which comparison answers, and the task-clustered one for contrast.
    answer, contrast = scores_suite_lines(result)
    st.text("\n".join(printable(line) for line in [*answer, text(result.pooled), *contrast]))
