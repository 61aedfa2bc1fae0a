"""Sections of the "Per-case data" page, each a function the page body calls in reading order.

Uploads, the choice of columns, the validation report, the paired table, the clustered test and
the lists of cases where the systems differ. Words come from :mod:`ui.cases_words`, tables from
:mod:`ui.cases_tables`.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from calculator.analysis import MAX_NAME_LENGTH
from calculator.cases import CaseFile, CaseFileError, PairedCases, guess_columns
from calculator.paired_data import of_cases
from calculator.report.clusters import describe_cluster_change
from calculator.report.words import text
from calculator.workflow import Comparison, Question, compare
from ui import cases_tables as tables
from ui import cases_words as words
from ui.widgets import cases_files as files
from ui.widgets.state import open_table_in_calculator
from ui.words import escape_markdown

__all__ = [
    "Columns",
    "choose_columns",
    "cluster_section",
    "differing_cases",
    "load_cases",
    "paired_table",
    "read_files",
    "uploads",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Columns:
    """The user's choice of columns, threshold and names for :func:`load_cases`."""

    id_column: str | None
    a_column: str
    b_column: str
    group_column: str | None
    threshold: float | None
    names: tuple[str, str]


def uploads() -> list[files.StoredFile]:
    """The two uploaders and the example and forget buttons; the files now remembered."""
    left, right = st.columns(2)
    for column, slot, label in (
        (left, 0, "Results of A (or of both systems)"),
        (right, 1, "Results of B (optional, paired by id)"),
    ):
        column.file_uploader(
            label,
            type=list(words.FILE_TYPES),
            key=files.upload_key(slot),
            on_change=files.remember_upload,
            args=(slot,),
        )
    buttons = st.columns(2)
    buttons[0].button(
        "Try an example (two harness logs)", key="cases_example", on_click=files.load_example
    )
    buttons[1].button("Forget the files", key="cases_clear", on_click=files.clear_files)
    return files.stored_files()


def read_files(stored: list[files.StoredFile]) -> list[CaseFile] | None:
    """The remembered files read; None (with the problem shown) when one cannot be used."""
    st.text(words.files_in_use([item.name for item in stored]))
    if files.only_b_given():
        st.info(words.ONLY_B_GIVEN)
    try:
        return [files.read_stored(item) for item in stored]
    except CaseFileError as error:
        st.error(escape_markdown(str(error)))
        if error.issue.examples:
            st.dataframe(
                tables.issue_examples(error.issue), hide_index=True, key="cases_fatal_rows"
            )
        return None


def _index(options: list[str], guess: str | None, fallback: int = 0) -> int:
    return options.index(guess) if guess in options else min(fallback, len(options) - 1)


def _two_file_columns(case_files: list[CaseFile], pick: list) -> tuple | None:
    columns_a = list(case_files[0].frame.columns)
    columns_b = list(case_files[1].frame.columns)
    guesses = [guess_columns(case_file.frame) for case_file in case_files]
    shared = [column for column in columns_a if column in columns_b]
    if not shared:
        st.error(words.NO_SHARED_COLUMN)
        return None
    id_column = pick[0].selectbox(
        "Case id (in both files)",
        shared,
        index=_index(shared, guesses[0].id_column),
        key=files.choice_key("cases_id"),
    )
    outcomes = []
    for slot, (system, columns, key) in enumerate(
        (("A", columns_a, "cases_a"), ("B", columns_b, "cases_b"))
    ):
        outcomes.append(
            pick[slot + 1].selectbox(
                f"{system}'s outcome ({escape_markdown(case_files[slot].name)})",
                columns,
                index=_index(
                    columns,
                    (guesses[slot].outcome_columns or guesses[slot].score_columns or (None,))[0],
                ),
                key=files.choice_key(key),
            )
        )
    groups = [words.NO_GROUP, *columns_a, *(c for c in columns_b if c not in columns_a)]
    return id_column, outcomes[0], outcomes[1], groups


def _one_file_columns(case_file: CaseFile, pick: list) -> tuple:
    columns = list(case_file.frame.columns)
    guess = guess_columns(case_file.frame)
    id_options = [words.NO_ID, *columns]
    outcomes = [*guess.outcome_columns, *guess.score_columns]  # scores: compared by their mean
    id_choice = pick[0].selectbox(
        "Case id",
        id_options,
        index=_index(id_options, guess.id_column),
        key=files.choice_key("cases_id"),
    )
    a_column = pick[1].selectbox(
        "A's outcome",
        columns,
        index=_index(columns, outcomes[0] if outcomes else None),
        key=files.choice_key("cases_a"),
    )
    b_column = pick[2].selectbox(
        "B's outcome",
        columns,
        index=_index(columns, outcomes[1] if len(outcomes) > 1 else None, fallback=1),
        key=files.choice_key("cases_b"),
    )
    id_column = None if id_choice == words.NO_ID else id_choice
    return id_column, a_column, b_column, [words.NO_GROUP, *columns]


def choose_columns(case_files: list[CaseFile]) -> Columns | None:
    """The id, outcome and group columns, the score threshold and the names; None (with the
    reason shown) when the files cannot be paired."""
    st.header("Columns")
    pick = st.columns(3)
    two_files = len(case_files) == 2
    chosen = (
        _two_file_columns(case_files, pick) if two_files else _one_file_columns(case_files[0], pick)
    )
    if chosen is None:
        return None
    id_column, a_column, b_column, group_options = chosen
    more = st.columns(3)
    group_choice = more[0].selectbox(
        "Group (cluster) column, optional",
        group_options,
        key=files.choice_key("cases_group"),
        help="Cases from one document, user or prompt template are not independent; choose the "
        "column naming that unit to get the cluster-adjusted test.",
    )
    is_score = more[1].checkbox(
        words.CUT_SCORES_LABEL,
        key=files.choice_key("cases_is_score"),
        help=words.CUT_SCORES_HELP,
    )
    # Empty until the user types one: a default such as 0.5 made every case of 0-100 scores pass.
    threshold = more[1].number_input(
        "Threshold (pass at or above)",
        value=None,
        placeholder=words.THRESHOLD_PLACEHOLDER,
        key=files.choice_key("cases_threshold"),
        disabled=not is_score,
    )
    if is_score and threshold is None:
        st.info(words.THRESHOLD_NEEDED)
        return None
    if is_score:
        _warn_one_sided_cut(case_files, (a_column, b_column), threshold)
    defaults = ("A", "B") if two_files else (a_column, b_column)
    names = []
    for system, default in zip("AB", defaults, strict=True):
        name = more[2].text_input(
            f"Name of {system}",
            value=default[:MAX_NAME_LENGTH],
            max_chars=MAX_NAME_LENGTH,
            key=files.choice_key(f"cases_name_{system.lower()}"),
        )
        names.append(name.strip() or system)
    return Columns(
        id_column=id_column,
        a_column=a_column,
        b_column=b_column,
        group_column=None if group_choice == words.NO_GROUP else group_choice,
        threshold=threshold if is_score else None,
        names=(names[0], names[1]),
    )


def _warn_one_sided_cut(
    case_files: list[CaseFile], columns: tuple[str, str], threshold: float
) -> None:
    """Warn when the threshold lies outside the range of the chosen scores, so the cut makes
    every case pass (or fail) for both systems and the comparison says nothing."""
    import pandas as pd

    values = []
    for number, column in enumerate(columns):
        frame = case_files[min(number, len(case_files) - 1)].frame
        if column in frame.columns:
            values.append(pd.to_numeric(frame[column], errors="coerce").dropna())
    scores = pd.concat(values) if values else pd.Series(dtype=float)
    if scores.empty:
        return
    low, high = float(scores.min()), float(scores.max())
    if threshold <= low or threshold > high:
        st.warning(words.one_sided_cut(threshold, low, high))


def load_cases(stored: list[files.StoredFile], columns: Columns) -> PairedCases | None:
    """The paired cases and the validation report; None (with the error shown) when the
    choice cannot be used or no case is left."""
    try:
        cases = files.load_stored(
            stored,
            id_column=columns.id_column,
            a_column=columns.a_column,
            b_column=columns.b_column,
            group_column=columns.group_column,
            threshold=columns.threshold,
            names=columns.names,
        )
    except (CaseFileError, ValueError, TypeError) as error:
        st.error(escape_markdown(str(error)))
        return None
    st.header("Validation")
    left_out, summary = words.validation_summary(cases.rows_read, cases.rows_used, cases.n)
    (st.warning if left_out else st.success)(summary)
    st.dataframe(tables.exclusion_table(cases), key="cases_exclusions")
    for number, issue in enumerate(cases.issues):
        with st.expander(words.issue_title(issue.kind, issue.count)):
            st.text(issue.message)
            st.dataframe(tables.issue_examples(issue), hide_index=True, key=f"cases_issue_{number}")
    if cases.n == 0:
        st.error(words.NO_CASES_LEFT)
        return None
    return cases


def paired_table(cases: PairedCases, question: Question | None = None) -> Comparison:
    """The 2 x 2 table, the report, and the button that opens the table in the calculator.

    The comparison is the command line's (:func:`calculator.workflow.compare`): with a
    group column its decision and report count clusters, and its report answers `question`
    (the Decision section's), as ``cases`` with that question prints it."""
    compared = compare(of_cases(cases), question)
    analysis = compared.analysis
    st.header("Paired table from the data")
    table_col, report_col = st.columns([2, 3])
    table_col.dataframe(tables.count_table(cases), key="cases_table")
    table_col.text(
        words.columns_used(cases.names, cases.files, cases.outcome_columns, cases.id_column)
    )
    report_col.text(text(analysis))
    if st.button("Open this table in the calculator", key="cases_to_calculator", type="primary"):
        open_table_in_calculator(*cases.counts, names=cases.names, source=" + ".join(cases.files))
    return compared


def cluster_section(compared: Comparison) -> None:
    """The cluster-adjusted test beside the plain one, when a group column is chosen."""
    cases, analysis, cluster = compared.data.cases, compared.analysis, compared.cluster
    if cluster is None:
        return
    st.header("Clustered cases")
    st.info(words.cluster_explanation(escape_markdown(repr(cases.group_column))))
    st.metric("Clusters", f"{cluster.clusters:,}")
    st.text(describe_cluster_change(cluster, analysis.chi2))
    warning = words.few_clusters_warning(cluster.clusters)
    if warning is not None:
        st.warning(warning)


def differing_cases(cases: PairedCases) -> None:
    """The cases only A passes and only B passes: searchable, a page at a time, downloadable."""
    st.header("Cases where the systems differ")
    _, b, c, _ = cases.counts
    labels = [
        words.only_passes_label(escape_markdown(name), count)
        for name, count in zip(cases.names, (b, c), strict=True)
    ]
    tabs = st.tabs(labels)
    for tab, which, frame in ((tabs[0], "a", cases.only_a()), (tabs[1], "b", cases.only_b())):
        with tab:
            query = st.text_input(
                "Search any column", key=files.choice_key(f"cases_search_{which}")
            )
            found = tables.search_cases(frame, query)
            pages = tables.page_count(len(found))
            page = (
                st.pagination(pages, key=files.choice_key(f"cases_page_{which}"))
                if pages > 1
                else 1
            )
            st.caption(words.list_caption(len(found), page, pages))
            st.dataframe(
                tables.display_frame(tables.page_of(found, page)),
                hide_index=True,
                key=f"cases_list_{which}",
            )
            st.download_button(
                "Download these cases (CSV)",
                data=lambda found=found: tables.escaped_csv(found),
                file_name=f"only_{which}_passes.csv",
                mime="text/csv",
                key=f"cases_download_{which}",
                on_click="ignore",
            )
