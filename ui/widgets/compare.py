"""The "three or more systems" part of the per-case page, one function per section.

:func:`compare_sections` runs them in reading order: uploads, the choice of layout and columns,
the validation report, Cochran's Q, the heatmap of pairwise differences, the ranking, a button
per pair that opens its table in the calculator, and the cases that separate a chosen pair.
Words come from :mod:`ui.compare_words`, charts from :mod:`ui.compare_charts`.
"""

from __future__ import annotations

import io

import numpy as np
import streamlit as st

from calculator.cases import CaseFile, CaseFileError
from calculator.cases.columns import guess_outcomes
from calculator.cases.systems_result import SystemCases
from calculator.compare import ADJUSTMENTS, SystemComparison
from calculator.compare.workflow import SystemsAsk, compare_case_systems, load_case_systems
from calculator.errors import CalculatorError
from calculator.report.compare import (
    describe_agreement,
    describe_cochran,
    describe_groups,
    describe_pairs,
)
from calculator.report.formatting import format_percent
from calculator.text import printable
from ui import cases_tables as tables
from ui import compare_charts as charts
from ui import compare_words as words
from ui.cases_words import (
    CUT_SCORES_HELP_SYSTEMS,
    CUT_SCORES_LABEL,
    FILE_TYPES,
    THRESHOLD_NEEDED,
    THRESHOLD_PLACEHOLDER,
    issue_title,
)
from ui.isolation import isolated
from ui.logs_words import LOG_TYPES
from ui.widgets import cases_files as files
from ui.widgets import compare_ranks
from ui.widgets.state import open_table_in_calculator
from ui.words import escape_markdown

__all__ = ["compare_sections", "example_data", "overview", "several_systems"]

_STORE_KEY = "_compare_files"
_MAX_PAIR_BUTTONS = 45  # ten systems; beyond, one pair is chosen from a list


def several_systems() -> bool:
    """The page's switch between two systems and three or more; True for three or more."""
    choice = st.radio("Systems", words.MODES, horizontal=True, key="cases_mode")
    return choice == words.MODES[1]


def compare_sections() -> None:
    """Every section of the several-systems comparison, stopping where the data cannot go on."""
    st.subheader(words.HEADING)
    st.write(words.INTRO)
    stored = _uploads()
    if not stored:
        st.info(words.UPLOAD_PROMPT)
        return
    try:
        named = compare_ranks.uploads_are_logs(stored)
    except CalculatorError as error:  # a near miss of a log: said once, not read as a table
        st.error(escape_markdown(str(error)))
        return
    if named is not None:  # harness logs: the model each names, each model one system
        compare_ranks.logs_view(stored, named, _adjustment(), overview)
        return
    try:
        case_files = [files.read_stored(item) for item in stored]
    except CaseFileError as error:
        st.error(escape_markdown(str(error)))
        return
    options = _choose(case_files)
    scores = options is not None and options["threshold"] is None
    if scores and compare_ranks.scores_view(stored, case_files, options):
        return  # scores without a threshold: compared by ranks (Friedman)
    cases = None if options is None else _load(stored, options)
    if cases is None:
        return
    key = (_identity(stored), repr(sorted(options.items())))
    result = _analyse(cases, key)
    overview(result)
    _pair_buttons(result, " + ".join(cases.files))
    _separating_cases(result, cases)


def _uploads() -> list[files.StoredFile]:
    st.file_uploader(
        words.UPLOAD_LABEL,
        type=list(dict.fromkeys((*FILE_TYPES, *LOG_TYPES))),  # per-case files or harness logs
        help=words.UPLOAD_HELP,
        accept_multiple_files=True,
        key="compare_upload",
        on_change=_remember_uploads,
    )
    left, right = st.columns(2)
    left.button(
        "Try an example (four made-up systems)", key="compare_example", on_click=_load_example
    )
    right.button("Forget the files", key="compare_clear", on_click=_forget)
    return list(st.session_state.get(_STORE_KEY, ()))


def _remember_uploads() -> None:
    uploads = st.session_state.get("compare_upload") or []
    # A file name names its system on every surface: no hidden character in it (printable).
    st.session_state[_STORE_KEY] = [
        files.StoredFile.of(printable(u.name), u.getvalue()) for u in uploads
    ]


def _forget() -> None:
    st.session_state[_STORE_KEY] = []


def _load_example() -> None:
    st.session_state[_STORE_KEY] = [files.StoredFile.of("four_systems_long.csv", example_data())]


def example_data() -> bytes:
    """A made-up long file: four systems on 150 questions, seeded so it never changes."""
    rng = np.random.default_rng(14)
    skill = rng.normal(0.0, 1.2, 150)  # some questions are hard for every system
    out = io.StringIO()
    out.write("question,system,correct\n")
    for name, shift in (("base", -0.1), ("tuned", 0.5), ("distilled", -0.2), ("large", 0.9)):
        passed = rng.random(150) < 1.0 / (1.0 + np.exp(-(skill + shift)))
        for question, value in enumerate(passed):
            out.write(f"q{question:03d},{name},{int(value)}\n")
    return out.getvalue().encode()


def _choose(case_files: list[CaseFile]) -> dict | None:
    """The layout, columns and threshold the user picks; None when nothing is chosen yet."""
    st.markdown("**Columns**")
    first = case_files[0]
    columns = list(first.frame.columns)
    guess = guess_outcomes(first.frame)  # the guess the command line makes
    pick = st.columns(3)
    options: dict[str, object] = {"systems": None, "system_column": None, "outcome_column": None}
    if len(case_files) > 1:
        shared = [c for c in columns if all(c in f.frame.columns for f in case_files[1:])]
        if not shared:
            st.error("The files share no column name, so their rows cannot be joined by id.")
            return None
        options["id_column"] = pick[0].selectbox(
            "Case id (in every file)",
            shared,
            index=_index(shared, guess.id_column),
            key="compare_id",
        )
        options["outcome_column"] = pick[1].selectbox(
            "Outcome (in every file)",
            shared,
            index=_index(shared, _first_outcome(first, guess)),
            key="compare_outcome",
        )
    else:
        layout = pick[0].radio(
            "Shape",
            list(words.LAYOUTS),
            format_func=words.LAYOUTS.get,
            index=1 if len(columns) <= 3 else 0,
            key="compare_layout",
        )
        options.update(_one_file(first, layout, pick[1:], guess))
        if options.get("systems") == []:
            st.info(words.CHOOSE_SYSTEMS)
            return None
    # Named for what it does, and empty until typed: a default 0.5 passed every 0-100 score.
    if st.checkbox(CUT_SCORES_LABEL, key="compare_is_score", help=CUT_SCORES_HELP_SYSTEMS):
        options["threshold"] = st.number_input(
            "Threshold (pass at or above)",
            value=None,
            placeholder=THRESHOLD_PLACEHOLDER,
            key="compare_threshold",
        )
        if options["threshold"] is None:
            st.info(THRESHOLD_NEEDED)
            return None
    else:
        options["threshold"] = None
    return options


def _first_outcome(case_file: CaseFile, guess) -> str | None:  # noqa: ANN001
    """The outcome column guessed as the command line guesses it: a pass/fail column, else
    (files of scores, compared by ranks) a numeric one."""
    if guess.outcome_columns:
        return guess.outcome_columns[0]
    scores = guess_outcomes(case_file.frame, id_column=guess.id_column, threshold=0.0)
    return (scores.outcome_columns or (None,))[0]


def _one_file(case_file: CaseFile, layout: str, pick: list, guess) -> dict:  # noqa: ANN001
    columns = list(case_file.frame.columns)
    if layout == "wide":
        id_options = ["(number the rows)", *columns]
        id_choice = pick[0].selectbox(
            "Case id", id_options, index=_index(id_options, guess.id_column), key="compare_id"
        )
        numbered = id_choice == id_options[0]
        # As the command line: every pass/fail column when nothing else is beside them, else
        # none preselected (a 0/1 feature would become a system).
        wide = guess_outcomes(
            case_file.frame, id_column=None if numbered else id_choice, guess_id=False
        )
        systems = pick[1].multiselect(
            "Systems (their outcome columns)",
            columns,
            default=list(wide.outcome_columns) if wide.only_outcomes else [],
            key="compare_columns",
        )
        return {
            "id_column": None if numbered else id_choice,
            "systems": systems,
            "number_rows": numbered,
        }
    id_column = pick[0].selectbox(
        "Case id", columns, index=_index(columns, guess.id_column), key="compare_id"
    )
    system_column = pick[1].selectbox(
        "System column",
        columns,
        index=_index(columns, words.guess_system_column(columns), fallback=1),
        key="compare_system",
    )
    scores = st.session_state.get("compare_is_score")  # the choice below, as last made
    long = guess_outcomes(
        case_file.frame,
        id_column=id_column,
        taken=(system_column,),
        threshold=st.session_state.get("compare_threshold", 0.5) if scores else None,
    )
    outcome = st.selectbox(
        "Outcome column",
        columns,
        index=_index(columns, (long.outcome_columns or (None,))[0], fallback=2),
        key="compare_outcome",
    )
    return {"id_column": id_column, "system_column": system_column, "outcome_column": outcome}


def _index(options: list[str], guess: str | None, fallback: int = 0) -> int:
    return options.index(guess) if guess in options else min(fallback, len(options) - 1)


def _identity(stored: list[files.StoredFile]) -> tuple[tuple[str, str], ...]:
    """What the cached results depend on in the uploads: each file's name and content, in order.

    The names are part of it because they name the systems (and the source of an opened pair):
    keyed on the contents alone, the same bytes uploaded under other names, by this visitor or
    another (the caches are shared by every session), were reported under the first names.
    """
    return tuple((item.name, item.digest) for item in stored)


@st.cache_resource(show_spinner="Joining the systems' outcomes...", max_entries=4)
def _load_cached(
    identity: tuple[tuple[str, str], ...], _files: tuple[CaseFile, ...], options: tuple
) -> SystemCases:
    """`identity` (:func:`_identity`) stands for the files, which are not hashed. The systems'
    names (file names, column names, a long file's labels) come from the loader as they show
    on every surface, charts included (escaped by :func:`calculator.text.printable`)."""
    # Joined in a child under the upload limits, never in the server's interpreter.
    return isolated(
        load_case_systems, list(_files) if len(_files) > 1 else _files[0], **dict(options)
    )


def _load(stored: list[files.StoredFile], options: dict) -> SystemCases | None:
    """The validated cases and the validation report; None (with the reason) when unusable."""
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))
    try:
        case_files = tuple(files.read_stored(item) for item in stored)
        cases = _load_cached(_identity(stored), case_files, frozen)
    except (CaseFileError, ValueError, TypeError) as error:
        st.error(escape_markdown(str(error)))
        return None
    st.markdown("**Validation**")
    left_out, line = words.validation_line(cases)
    (st.warning if left_out else st.success)(escape_markdown(line))
    st.dataframe(words.exclusion_table(cases), key="compare_exclusions")
    for number, issue in enumerate(cases.issues):
        with st.expander(issue_title(issue.kind, issue.count)):
            st.text(issue.message)
            st.dataframe(
                tables.issue_examples(issue), hide_index=True, key=f"compare_issue_{number}"
            )
    if cases.n == 0:
        st.error(
            "No case has an outcome for every chosen system; fix the problems above or "
            "choose other columns."
        )
        return None
    return cases


def _adjustment() -> str:
    return st.radio(
        "Adjustment for the number of pairs",
        ADJUSTMENTS,
        horizontal=True,
        format_func=str.capitalize,
        key="compare_adjust",
    )


def _analyse(cases: SystemCases, key: tuple) -> SystemComparison:
    return _compare_cached(key, cases, _adjustment())


@st.cache_resource(show_spinner="Comparing the systems...", max_entries=4)
def _compare_cached(key: tuple, _cases: SystemCases, adjust: str) -> SystemComparison:
    """`key` (the files' names and contents, and the options) stands for the cases, which are
    not hashed."""
    return compare_case_systems(_cases, SystemsAsk(adjust=adjust))


def overview(result: SystemComparison) -> None:
    """Cochran's Q, agreement, the heatmap and the ranking, each with its sentence."""
    st.markdown("**Are the pass rates all equal?**")
    st.write(escape_markdown(describe_cochran(result)))
    st.caption(escape_markdown(describe_agreement(result)))
    st.markdown("**Which pairs differ?**")
    st.write(escape_markdown(describe_pairs(result)))
    st.altair_chart(charts.difference_heatmap(result), width="content", key="compare_heatmap")
    st.caption(escape_markdown(words.heatmap_caption(result)))
    st.markdown("**Ranking**")
    st.altair_chart(charts.ranking_chart(result), width="content", key="compare_ranking")
    letters = result.letter_display().letters
    compare_ranks.letters_table(
        [
            {
                "place": result.rank(name),
                "system": name,
                "letters": letters[name],
                "pass rate": format_percent(result.systems[result.names.index(name)].rate),
            }
            for name in result.ranking
        ],
        key="compare_letters",
    )
    st.caption(escape_markdown(words.ranking_caption(result)))
    st.caption(escape_markdown(describe_groups(result)))


def _pair_buttons(result: SystemComparison, source: str) -> None:
    """A button per pair (or a list and one button) opening its table in the calculator."""
    st.markdown("**Open a pair in the two-system calculator**")
    pairs = result.pairs
    if len(pairs) > _MAX_PAIR_BUTTONS:
        labels = [printable(words.pair_label(p.a, p.b)) for p in pairs]
        chosen = st.selectbox(
            "Pair", range(len(pairs)), format_func=labels.__getitem__, key="compare_open_pair"
        )
        pairs = (pairs[chosen],)
    grid = st.columns(min(len(pairs), 4))
    for number, pair in enumerate(pairs):
        # A button's label is Markdown: the names are escaped (a selectbox shows text as text).
        label = words.pair_label(escape_markdown(pair.a), escape_markdown(pair.b))
        if grid[number % len(grid)].button(label, key=f"compare_open_{number}"):
            table = pair.table
            open_table_in_calculator(
                table.a,
                table.b,
                table.c,
                table.d,
                names=(pair.a, pair.b),
                source=f"{source}: {pair.a} vs {pair.b}",
            )


def _separating_cases(result: SystemComparison, cases: SystemCases) -> None:
    """The cases that separate a chosen pair: only one system passes them."""
    st.markdown("**Cases that separate two systems**")
    labels = [printable(words.pair_label(p.a, p.b)) for p in result.pairs]
    chosen = st.selectbox(
        "Pair", range(len(labels)), format_func=labels.__getitem__, key="compare_cases_pair"
    )
    pair = result.pairs[chosen]
    only_first, only_second = result.separating_cases(pair.a, pair.b)
    tabs = st.tabs(
        [
            escape_markdown(words.separating_label(pair.a, pair.b, len(only_first))),
            escape_markdown(words.separating_label(pair.b, pair.a, len(only_second))),
        ]
    )
    for tab, rows, which in ((tabs[0], only_first, "a"), (tabs[1], only_second, "b")):
        with tab:
            frame = cases.case_ids.iloc[rows].to_frame("case id").reset_index(drop=True)
            st.dataframe(
                tables.display_frame(frame.head(1000)),
                hide_index=True,
                key=f"compare_cases_{which}",
            )
            if len(frame) > 1000:
                st.caption(f"The first 1,000 of {len(frame):,}; download them all below.")
            st.download_button(
                "Download these case ids (CSV)",
                data=lambda frame=frame: tables.escaped_csv(frame),
                file_name=f"only_{which}_passes.csv",
                mime="text/csv",
                key=f"compare_download_{which}",
                on_click="ignore",
            )
