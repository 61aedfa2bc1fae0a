"""The "Mean scores" section of the per-case page: when the chosen outcome columns hold scores
and no threshold is set, the cases are compared by their mean score (issue 22)."""

from __future__ import annotations

import hashlib

import streamlit as st

from calculator.cases import CaseFile, CaseFileError, PairedCases
from calculator.cases.scores_input import choose_score_columns, load_score_cases
from calculator.chooser import OptionRefused
from calculator.errors import CalculatorError
from calculator.paired_data import of_cases
from calculator.report.figures import floor_bound, format_score
from calculator.report.formatting import format_confidence, format_pvalue
from calculator.report.scores import margin_sentence, scores_sentences
from calculator.scores import ScoresComparison
from calculator.workflow import compare
from ui import cases_tables as tables
from ui import cases_words as words
from ui import scores_words
from ui.widgets import flips
from ui.widgets.cases_sections import Columns
from ui.widgets.question import question_inputs, show_refusal
from ui.words import escape_markdown

__all__ = ["scores_section"]


def scores_section(case_files: list[CaseFile], columns: Columns) -> bool:
    """Show the comparison of mean scores when the outcomes are scores and no threshold is set;
    True when it was shown (the pass/fail sections are then skipped)."""
    if columns.threshold is not None:
        return False
    second = case_files[1] if len(case_files) > 1 else None
    try:
        chosen = choose_score_columns(
            case_files[0], second, a_column=columns.a_column, b_column=columns.b_column
        )
        if chosen is None:
            return False
        cases = load_score_cases(
            case_files[0],
            second,
            chosen,
            id_column=columns.id_column,
            group_column=columns.group_column,
            names=columns.names,
        )
    except (CaseFileError, ValueError, TypeError) as error:
        st.error(escape_markdown(str(error)))
        return True
    _validation(cases)
    if cases.n == 0:
        st.error(words.NO_CASES_LEFT)
        return True
    asked = question_inputs("scores_", better=True)
    try:
        result = compare(of_cases(cases, scores=True), asked.ask(scores=True)).scores
    except OptionRefused as error:  # an option the test cannot answer: named as here
        show_refusal(error)
        return True
    except CalculatorError as error:  # it names the file and the columns
        st.error(escape_markdown(str(error)))
        return True
    _show(result)
    # The cases whose scores differ most, each way (ui/widgets/flips.py); the files' digests
    # and the columns name them, so that a rerun finds them without hashing the rows.
    digests = [hashlib.sha256(case_file.data).hexdigest() for case_file in case_files]
    flips.cases_flips_section(cases, result, repr((digests, chosen, columns)))
    return True


def _validation(cases: PairedCases) -> None:
    st.header("Validation")
    left_out, summary = words.validation_summary(cases.rows_read, cases.rows_used, cases.n)
    (st.warning if left_out else st.success)(summary)
    st.dataframe(tables.exclusion_table(cases), key="scores_exclusions")
    for issue in cases.issues:
        st.text(issue.message)


def _show(result: ScoresComparison) -> None:
    st.header(scores_words.SCORES_HEADER)
    st.info(scores_words.SCORES_INTRO)
    difference, interval, permutation = st.columns(3)
    names = (escape_markdown(result.names[0]), escape_markdown(result.names[1]))
    labels = scores_words.metric_labels(names)  # a metric's label is read as Markdown
    difference.metric(labels[0], format_score(result.statistic))
    if result.confidence_interval is not None:
        low, high = result.confidence_interval
        interval.metric(
            f"{format_confidence(result.confidence_level)} {labels[1]}",
            f"{format_score(low)} to {format_score(high)}",
        )
    if result.permutation is not None:
        test = result.permutation  # at its floor a Monte Carlo p is a bound: "≤ 1/10,001"
        shown = floor_bound(test.patterns) if test.at_floor else format_pvalue(test.pvalue)
        permutation.metric(labels[2], shown)
    lead, rest = scores_sentences(result)  # the command line's and the JSON report's words
    for sentence in lead:
        st.text(sentence)
    answer = None if result.margin is None else margin_sentence(result.margin)
    if answer is not None:  # the margin's answer, as the command line prints it
        st.text(answer)
    with st.expander(scores_words.OTHER_TESTS):
        for sentence in rest:
            if sentence != answer:
                st.text(sentence)
