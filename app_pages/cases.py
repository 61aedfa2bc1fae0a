"""Per-case data: upload results, see what was left out and why, the table, the changed cases.

Each section is a function in :mod:`ui.widgets.cases_sections`; a section that finds the data
unusable shows why and returns None, and the page stops there.
"""

import streamlit as st

from ui import cases_words as words
from ui.widgets import cases_sections as sections

st.title(words.TITLE)
st.write(words.INTRO)
stored = sections.uploads()
if not stored:
    st.info(words.UPLOAD_PROMPT)
    st.stop()
case_files = sections.read_files(stored)
columns = None if case_files is None else sections.choose_columns(case_files)
cases = None if columns is None else sections.load_cases(stored, columns)
if cases is None:
    st.stop()
analysis = sections.paired_table(cases)
sections.cluster_section(cases, analysis)
sections.differing_cases(cases)
