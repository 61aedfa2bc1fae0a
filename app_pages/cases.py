"""Per-case data: upload results, see what was left out and why, the table, the changed cases."""

import streamlit as st

from calculator import analyze
from calculator.cases import CaseFileError, guess_columns
from calculator.release import describe_cluster_change
from calculator.clustered import clustered_mcnemar
from ui import cases_view as view
from ui.state import open_table_in_calculator

NO_ID = "(number the rows)"
NO_GROUP = "(none)"
FILE_TYPES = ["csv", "tsv", "tab", "txt", "jsonl", "ndjson", "json", "parquet", "pq"]

st.title("Per-case data")
st.write(
    "Upload the per-case results of two systems: one file with a row per case and a pass/fail "
    "column for each system, or one file per system, paired by a shared id column. "
    "Evaluation logs in JSON Lines, such as lm-evaluation-harness sample files, work as they are."
)

left, right = st.columns(2)
left.file_uploader(
    "Results of A (or of both systems)",
    type=FILE_TYPES,
    key=view.UPLOAD_KEYS[0],
    on_change=view.remember_upload,
    args=(0,),
)
right.file_uploader(
    "Results of B (optional, paired by id)",
    type=FILE_TYPES,
    key=view.UPLOAD_KEYS[1],
    on_change=view.remember_upload,
    args=(1,),
)
buttons = st.columns(2)
buttons[0].button(
    "Try an example (two harness logs)", key="cases_example", on_click=view.load_example
)
buttons[1].button("Forget the files", key="cases_clear", on_click=view.clear_files)

stored = view.stored_files()
if not stored:
    st.info("Upload a file (CSV, TSV, JSON Lines or Parquet), or try the example.")
    st.stop()
st.text("Files in use: " + ", ".join(item.name for item in stored))

try:
    files = [view.read_stored(item) for item in stored]
except CaseFileError as error:
    st.error(view.md_escape(str(error)))
    if error.issue.examples:
        st.dataframe(view.issue_examples(error.issue), hide_index=True, key="cases_fatal_rows")
    st.stop()

two_files = len(files) == 2
guesses = [guess_columns(case_file.frame) for case_file in files]
columns_a = list(files[0].frame.columns)
columns_b = list(files[-1].frame.columns)


def _index(options: list[str], guess: str | None, fallback: int = 0) -> int:
    return options.index(guess) if guess in options else min(fallback, len(options) - 1)


st.subheader("Columns")
pick = st.columns(3)
if two_files:
    shared = [column for column in columns_a if column in columns_b]
    if not shared:
        st.error("The two files share no column name, so their rows cannot be paired by id.")
        st.stop()
    id_column = pick[0].selectbox(
        "Case id (in both files)",
        shared,
        index=_index(shared, guesses[0].id_column),
        key="cases_id",
    )
    a_column = pick[1].selectbox(
        f"A's outcome ({view.md_escape(files[0].name)})",
        columns_a,
        index=_index(columns_a, (guesses[0].outcome_columns or (None,))[0]),
        key="cases_a",
    )
    b_column = pick[2].selectbox(
        f"B's outcome ({view.md_escape(files[1].name)})",
        columns_b,
        index=_index(columns_b, (guesses[1].outcome_columns or (None,))[0]),
        key="cases_b",
    )
    group_options = [NO_GROUP, *columns_a, *(c for c in columns_b if c not in columns_a)]
else:
    id_options = [NO_ID, *columns_a]
    outcomes = list(guesses[0].outcome_columns)
    id_choice = pick[0].selectbox(
        "Case id", id_options, index=_index(id_options, guesses[0].id_column), key="cases_id"
    )
    id_column = None if id_choice == NO_ID else id_choice
    a_column = pick[1].selectbox(
        "A's outcome",
        columns_a,
        index=_index(columns_a, outcomes[0] if outcomes else None),
        key="cases_a",
    )
    b_column = pick[2].selectbox(
        "B's outcome",
        columns_a,
        index=_index(columns_a, outcomes[1] if len(outcomes) > 1 else None, fallback=1),
        key="cases_b",
    )
    group_options = [NO_GROUP, *columns_a]

more = st.columns(3)
group_choice = more[0].selectbox(
    "Group (cluster) column, optional",
    group_options,
    key="cases_group",
    help="Cases from one document, user or prompt template are not independent; choose the "
    "column naming that unit to get the cluster-adjusted test.",
)
group_column = None if group_choice == NO_GROUP else group_choice
is_score = more[1].checkbox(
    "Outcomes are scores",
    key="cases_is_score",
    help="Pass when the score is at least the threshold.",
)
threshold = more[1].number_input(
    "Threshold (pass at or above)", value=0.5, key="cases_threshold", disabled=not is_score
)
default_names = ("A", "B") if two_files else (a_column, b_column)
name_a = more[2].text_input("Name of A", value=default_names[0][:60], key="cases_name_a")
name_b = more[2].text_input("Name of B", value=default_names[1][:60], key="cases_name_b")

try:
    cases = view.load_stored(
        stored,
        id_column=id_column,
        a_column=a_column,
        b_column=b_column,
        group_column=group_column,
        threshold=threshold if is_score else None,
        names=(name_a.strip() or "A", name_b.strip() or "B"),
    )
except (CaseFileError, ValueError, TypeError) as error:
    st.error(view.md_escape(str(error)))
    st.stop()

st.subheader("Validation")
excluded = cases.rows_read - cases.rows_used
summary = f"{cases.rows_read:,} rows read, {cases.rows_used:,} used ({cases.n:,} cases)"
if excluded:
    st.warning(
        f"{summary}; {excluded:,} rows left out. Each is counted once below, under its first "
        "problem; the findings list every problem with its first rows."
    )
else:
    st.success(f"{summary}; no row left out.")
st.dataframe(view.exclusion_table(cases), key="cases_exclusions")
for number, issue in enumerate(cases.issues):
    with st.expander(view.issue_title(issue)):
        st.text(issue.message)
        st.dataframe(view.issue_examples(issue), hide_index=True, key=f"cases_issue_{number}")

if cases.n == 0:
    st.error("No case is left to analyse; fix the problems above or choose other columns.")
    st.stop()

names = cases.names
analysis = analyze(*cases.counts, names=names)
st.subheader("Paired table from the data")
table_col, report_col = st.columns([2, 3])
table_col.dataframe(view.count_table(cases), key="cases_table")
report_col.text(analysis.report)
if st.button("Open this table in the calculator", key="cases_to_calculator", type="primary"):
    open_table_in_calculator(*cases.counts, source=" + ".join(cases.files))

if cases.group_column is not None:
    st.subheader("Clustered cases")
    cluster = clustered_mcnemar(*cases.cluster_counts())
    st.info(
        f"Cases that share a value of {view.md_escape(repr(cases.group_column))} tend to "
        "succeed or fail together, so they are not independent evidence and the plain test's "
        "p-value comes out too small. "
        "The cluster-adjusted test (Durkalski et al. 2003) judges the difference against how "
        "much the groups themselves vary."
    )
    st.metric("Clusters", f"{cluster.clusters:,}")
    st.text(describe_cluster_change(cluster, analysis.chi2))
    if cluster.clusters < 10:
        st.warning(
            f"Only {cluster.clusters} clusters: the cluster-adjusted p-value rests on a "
            "large-sample approximation in the number of clusters; read it as rough."
        )

st.subheader("Cases where the systems differ")
labels = [
    f"Only {view.md_escape(name)} passes ({count:,})"
    for name, count in zip(names, (cases.b, cases.c), strict=True)
]
tabs = st.tabs(labels)
for tab, which, frame in ((tabs[0], "a", cases.only_a()), (tabs[1], "b", cases.only_b())):
    with tab:
        query = st.text_input("Search any column", key=f"cases_search_{which}")
        found = view.search_cases(frame, query)
        pages = view.page_count(len(found))
        page = st.pagination(pages, key=f"cases_page_{which}") if pages > 1 else 1
        st.caption(f"{len(found):,} cases; page {page} of {pages}")
        st.dataframe(
            view.display_frame(view.page_of(found, page)),
            hide_index=True,
            key=f"cases_list_{which}",
        )
        st.download_button(
            "Download these cases (CSV)",
            data=lambda found=found: view.escaped_csv(found),
            file_name=f"only_{which}_passes.csv",
            mime="text/csv",
            key=f"cases_download_{which}",
            on_click="ignore",
        )
