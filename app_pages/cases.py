"""Per-case data: upload results, see what was left out and why, the table, the changed cases.

Each section is a function in :mod:`ui.widgets.cases_sections`; a section that finds the data
unusable shows why and returns None, and the page goes no further. With three or more systems
the page hands over to :mod:`ui.widgets.compare`.
"""

import streamlit as st

from calculator.release import clusters_of
from ui import cases_words as words
from ui.widgets import cases_logs, cases_long, cases_scores, compare, decision, flips
from ui.widgets import cases_sections as sections
from ui.words import Wording


def two_systems() -> None:
    """A and B: uploads, the file's layout and columns, validation, the paired table,
    clusters, the changed cases; a long file (a row per case and system) as the logs are."""
    stored = sections.uploads()
    if not stored:
        st.info(words.UPLOAD_PROMPT)
        return
    case_files = sections.read_files(stored)
    if case_files is not None and cases_long.long_section(stored, case_files):
        return  # one row per case and system: compared as the command line compares it
    columns = None if case_files is None else sections.choose_columns(case_files)
    if columns is not None and cases_scores.scores_section(case_files, columns):
        return  # score columns without a threshold: compared by their mean score
    cases = None if columns is None else sections.load_cases(stored, columns)
    if cases is None:
        return
    compared = sections.paired_table(cases, decision.asked_question("cases_"))
    sections.cluster_section(compared)
    decision.decision_section(
        Wording(*cases.names),
        compared.analysis,
        key_prefix="cases_",
        in_url=False,
        clusters=clusters_of(cases),
    )
    sections.differing_cases(cases)
    source = repr(([item.digest for item in stored], columns))  # what the cases come from
    flips.cases_flips_section(cases, compared.analysis, source)


st.title(words.TITLE)
st.write(words.INTRO)
cases_logs.logs_section()
# No st.stop() on the way: a run cut short keeps the calculator's URL bindings of earlier runs,
# and opening a table there would then fail.
if compare.several_systems():
    compare.compare_sections()
else:
    two_systems()
