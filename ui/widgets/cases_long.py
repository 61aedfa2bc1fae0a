"""The per-case page's long files: one row per case and system (x repeat, x task), the shape
pandas exports and Inspect's ``samples_df`` gives.

The columns of each role and which two systems are A and B are chosen here; the file then goes
the command line's way (``cases FILE --system COL --outcome COL --id COL [--repeat COL]
[--task COL] --a NAME --b NAME``): :func:`calculator.logs.long_file.read_long_file` makes a
log table of each system, and :func:`calculator.workflow.pair_two_logs` and
:func:`calculator.workflow.compare` pair and analyse them, so the page and the command
line give the same numbers and decision. Reading and analysing run in a child process under
the upload limits (:func:`ui.isolation.isolated`); the report is the logs section's
(:func:`ui.widgets.cases_logs.show_log_result`).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from calculator.cases import CaseFile
from calculator.chooser import OptionRefused
from calculator.errors import CalculatorError
from calculator.logs import LogError
from calculator.logs.long_file import INSPECT_COLUMNS, LongColumns, long_systems, read_long_file
from calculator.paired_data import of_logs
from calculator.text import printable
from calculator.workflow import LogChoice, compare, pair_two_logs
from ui import cases_words as words
from ui import logs_words
from ui.isolation import isolated
from ui.widgets import cases_files as files
from ui.widgets.cases_logs import show_log_result, threshold_value
from ui.widgets.flips import log_flips_or_refusal, result_flips_section
from ui.widgets.question import Asked, question_inputs, show_refusal
from ui.words import escape_markdown

__all__ = ["LongChoice", "long_compared", "long_section"]


@dataclass(frozen=True, slots=True, kw_only=True)
class LongChoice:
    """What is compared in a long file: its columns, A and B (values of the system column),
    the threshold (None: the outcomes read as they are) and whether rows may be left out."""

    columns: LongColumns
    a: str
    b: str
    threshold: float | None
    allow_exclusions: bool


def long_compared(case_file: CaseFile, choice: LongChoice, asked: Asked):  # noqa: ANN201
    """The comparison of a long file's systems `choice.a` and `choice.b`, as ``cases FILE
    --system ... --a A --b B`` makes it (a LogAnalysis, or LogScores for graded outcomes),
    and its flips (:func:`ui.widgets.flips.log_flips_or_refusal`), found in the same child."""
    tables = {
        table.system: table
        for table in read_long_file(case_file, choice.columns, threshold=choice.threshold)
    }
    for side in (choice.a, choice.b):  # chosen among the column's values: a stale choice
        if side not in tables:
            raise LogError(
                f"no system {side!r} in column {choice.columns.system!r}; choose A and B again."
            )
    log_choice = LogChoice(
        metric=choice.columns.outcome,  # the outcome column, named: the metric asked for
        threshold=choice.threshold,
        allow_exclusions=choice.allow_exclusions,
    )
    paired = pair_two_logs(tables[choice.a], tables[choice.b], log_choice)
    result = compare(of_logs(paired), asked.ask(scores=paired.scores)).report
    # A long file's rows hold ids and outcomes, no texts: its flips are ids and outcomes.
    return result, log_flips_or_refusal(paired, (None, None))


@st.cache_resource(show_spinner="Comparing the systems...", max_entries=4)
def _compared(digest: str, _case_file: CaseFile, choice: LongChoice, asked: Asked):  # noqa: ANN202
    # Read, paired and analysed in a child under the upload limits.
    return isolated(long_compared, _case_file, choice, asked)


@st.cache_resource(show_spinner="Reading the systems...", max_entries=8)
def _systems(digest: str, _case_file: CaseFile, column: str) -> list[str]:
    return isolated(long_systems, _case_file, column)


def _looks_long(columns: list[str]) -> bool:
    """Whether a file has Inspect's ``samples_df`` names for the system and the case."""
    return INSPECT_COLUMNS["system"] in columns and INSPECT_COLUMNS["id"] in columns


def _pick(column, label: str, options: list[str], guess: str | None, key: str) -> str:  # noqa: ANN001
    index = options.index(guess) if guess in options else 0
    return column.selectbox(label, options, index=index, key=files.choice_key(key))


def _columns(case_file: CaseFile) -> LongColumns:
    """The column of each role, Inspect's samples_df names chosen first where the file has
    them (the outcome: its only score_* column)."""
    names = [str(c) for c in case_file.frame.columns]
    scores = [c for c in names if c.startswith("score_")]
    optional = [words.NO_COLUMN, *names]
    top, bottom = st.columns(3), st.columns(3)
    system = _pick(top[0], words.SYSTEM_COLUMN, names, INSPECT_COLUMNS["system"], "long_system")
    case = _pick(top[1], words.ID_COLUMN, names, INSPECT_COLUMNS["id"], "long_id")
    outcome = _pick(
        top[2],
        words.OUTCOME_COLUMN,
        names,
        scores[0] if len(scores) == 1 else (names[-1] if names else None),
        "long_outcome",
    )
    repeat = _pick(
        bottom[0], words.REPEAT_COLUMN, optional, INSPECT_COLUMNS["repeat"], "long_repeat"
    )
    task = _pick(bottom[1], words.TASK_COLUMN, optional, INSPECT_COLUMNS["task"], "long_task")
    return LongColumns(
        system=system,
        id=case,
        outcome=outcome,
        repeat=None if repeat == words.NO_COLUMN else repeat,
        task=None if task == words.NO_COLUMN else task,
        guess=False,  # every role chosen here: "(none)" means no such column
    )


def _roles(stored: files.StoredFile, case_file: CaseFile, column: str) -> tuple[str, str] | None:
    """The systems chosen as A and B among those of `column`; None (said why) when the file
    holds fewer than two or the same one is chosen twice."""
    try:
        systems = _systems(stored.digest, case_file, column)
    except CalculatorError as error:
        st.error(escape_markdown(logs_words.page_message(str(error))))
        return None
    if len(systems) < 2:
        st.error(words.too_few_systems(printable(column), [printable(s) for s in systems]))
        return None
    pick = st.columns(3)
    chosen = [
        pick[slot].selectbox(
            words.system_label(side, len(systems)),
            systems,
            index=slot,
            format_func=printable,  # a system's name from the file: its hidden characters shown
            key=files.choice_key(f"long_{side.lower()}"),
        )
        for slot, side in enumerate("AB")
    ]
    if chosen[0] == chosen[1]:
        st.error(words.SAME_SYSTEM)
        return None
    if len(systems) > 2:
        st.caption(words.others_left_out(len(systems) - 2))
    return chosen[0], chosen[1]


def long_section(stored: list[files.StoredFile], case_files: list[CaseFile]) -> bool:
    """With one file, the choice of its layout; for a long file, its columns, A and B, the
    options and the comparison. True when the file is read as a long file (the page's
    sections for a column per system are then skipped)."""
    if len(case_files) != 1:
        return False
    case_file = case_files[0]
    layout = st.radio(
        words.LAYOUT_LABEL,
        words.LAYOUTS,
        index=int(_looks_long([str(c) for c in case_file.frame.columns])),
        horizontal=True,
        help=words.LAYOUT_HELP,
        key=files.choice_key("cases_layout"),
    )
    if layout != words.LAYOUTS[1]:
        return False
    st.header(words.LONG_HEADER)
    columns = _columns(case_file)
    roles = _roles(stored[0], case_file, columns.system)
    if roles is None:
        return True
    more = st.columns(2)
    cut = more[0].text_input(
        logs_words.THRESHOLD_LABEL,
        help=logs_words.THRESHOLD_HELP,
        key=files.choice_key("long_threshold"),
    )
    allow = more[1].checkbox(
        logs_words.ALLOW_LABEL,
        help=logs_words.ALLOW_HELP,
        key=files.choice_key("long_allow"),
    )
    asked = question_inputs("long_", better=True)
    threshold = threshold_value(cut)
    if threshold is False:
        st.error(logs_words.BAD_THRESHOLD)
        return True
    choice = LongChoice(
        columns=columns, a=roles[0], b=roles[1], threshold=threshold, allow_exclusions=allow
    )
    try:
        result, flips = _compared(stored[0].digest, case_file, choice, asked)
    except OptionRefused as error:  # an option the test cannot answer: named as here
        show_refusal(error)
        return True
    except CalculatorError as error:  # the file's refusals, in the page's words
        st.error(escape_markdown(logs_words.page_message(str(error))))
        return True
    show_log_result(result, "long")
    result_flips_section(result, flips, "long")  # ids and outcomes: the file holds no texts
    return True
