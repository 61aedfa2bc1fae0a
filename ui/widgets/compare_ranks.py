"""The compare page's sections for scores compared by ranks (Friedman, Nemenyi's critical
difference, the signed-rank pairs) and for several systems' harness logs (each upload one
system's log, or one folder's files uploaded together or zipped, each model one system; compared
as ``python -m calculator compare`` does, with the suite's view when the logs hold several
tasks).

Words come from :mod:`calculator.report` (as on the command line) and :mod:`ui.compare_words`,
charts from :mod:`ui.compare_rank_charts` and :mod:`ui.compare_charts`; the reading and the
numbers run in a child (:func:`ui.isolation.isolated`).
"""

from __future__ import annotations

from collections.abc import Callable
from hashlib import sha256

import pandas as pd
import streamlit as st

from calculator.cases import CaseFile
from calculator.compare.friedman import FriedmanComparison
from calculator.compare.friedman_suite import FriedmanSuite
from calculator.compare.suite import SuiteComparison
from calculator.compare.systems import SystemComparison
from calculator.compare.workflow import SystemsAsk, SystemsRefused, compare_case_scores
from calculator.errors import CalculatorError
from calculator.report.compare_refusals import refusal_text
from calculator.report.compare_suite import suite_lines
from calculator.report.formatting import format_p_equals
from calculator.report.friedman import (
    describe_cliques,
    describe_friedman,
    describe_nemenyi,
    describe_rank_gap,
    describe_rank_groups,
    describe_rank_pairs,
    friedman_task_lines,
)
from calculator.text import printable
from ui import compare_rank_charts as rank_charts
from ui import compare_words as words
from ui.compare_logs import (
    LogsComparison,
    LogUploads,
    compare_folder_uploads,
    compare_log_uploads,
    default_systems,
    log_uploads,
)
from ui.isolation import isolated
from ui.widgets import cases_files as files
from ui.words import escape_markdown

__all__ = ["letters_table", "logs_view", "ranks_sections", "scores_view", "uploads_are_logs"]


@st.cache_data(max_entries=8, show_spinner=False)
def _log_uploads(identity: tuple, _files: tuple[tuple[str, bytes], ...]) -> LogUploads | None:
    return isolated(log_uploads, _files)


def uploads_are_logs(stored: list[files.StoredFile]) -> LogUploads | None:
    """The uploads as harness logs (each its system, or one folder's: each model one system);
    None for per-case files.

    Raises
    ------
    CalculatorError
        For a near miss of a log, or logs that cannot be read as given (the page shows it:
        read as per-case files they would only be refused again, in other words).
    """
    given = tuple((item.name, item.data) for item in stored)
    return _log_uploads(tuple((item.name, item.digest) for item in stored), given)


def _systems_of(stored: list[files.StoredFile], named: tuple[str, ...]) -> tuple[str, ...]:
    """Which system each log is of: the visitor's names, first the logs' own (a model's logs
    of several tasks go together as one system)."""
    defaults = default_systems([item.name for item in stored], named)
    chosen = []
    with st.expander(words.LOG_SYSTEMS):
        for number, (item, default) in enumerate(zip(stored, defaults, strict=True)):
            typed = st.text_input(  # a label is Markdown: the file's name shown as typed
                escape_markdown(item.name),
                value=default,
                key=f"compare_log_system_{number}_{item.digest[:8]}",
            )
            chosen.append(printable(typed.strip()) or default)
    return tuple(chosen)


def _models_named(models: tuple[str, ...]) -> tuple[str, ...]:
    """One folder's uploads: each model one system, named as the visitor says (the model's
    own name until then)."""
    chosen = []
    with st.expander(words.FOLDER_SYSTEMS):
        for number, model in enumerate(models):
            typed = st.text_input(  # a label is Markdown: the model's name shown as logged
                escape_markdown(model),
                value=model,
                key=f"compare_folder_system_{number}_{sha256(model.encode()).hexdigest()[:8]}",
            )
            chosen.append(printable(typed.strip()) or model)
    return tuple(chosen)


@st.cache_resource(show_spinner="Reading and comparing the logs...", max_entries=4)
def _logs_cached(
    identity: tuple,
    _files: tuple,
    systems: tuple,
    ask: SystemsAsk,
    folder: tuple[str, ...] | None = None,
) -> LogsComparison:
    if folder is not None:  # one folder's files: `folder` its models, `systems` their names
        return isolated(compare_folder_uploads, _files, folder, systems, ask)
    return isolated(compare_log_uploads, _files, systems, ask)


def better_choice(key: str) -> str | None:
    """Which scores are better, as ``--better``: None until the visitor says (then higher,
    unless the metric's name reads lower-is-better, which is refused until stated)."""
    return st.radio(
        words.BETTER_LABEL,
        ("higher", "lower"),
        index=None,
        format_func=words.BETTER_CHOICES.get,
        horizontal=True,
        key=key,
        help=words.BETTER_HELP,
    )


def logs_view(
    stored: list[files.StoredFile],
    named: LogUploads,
    adjust: str,
    overview: Callable[[SystemComparison], None],
) -> LogsComparison | None:
    """Several systems' logs: what was compared, then ranks (scores) or pass rates (drawn by
    `overview`, the sections per-case files get), and the suite's view when the logs hold
    several tasks. One folder's uploads (`named.folder`) are each model one system."""
    metric = (
        st.text_input(
            words.LOG_METRIC,
            key="compare_logs_metric",
        ).strip()
        or None
    )
    threshold = st.number_input(
        words.LOG_THRESHOLD,
        value=None,
        placeholder=words.LOG_THRESHOLD_PLACEHOLDER,
        key="compare_logs_threshold",
    )
    better = better_choice("compare_logs_better") if threshold is None else None
    if named.folder:
        st.caption(escape_markdown(words.folder_line(len(stored), len(named.systems))))
        systems = _models_named(named.systems)
    else:
        systems = _systems_of(stored, named.systems)
    folder = named.systems if named.folder else None
    given = tuple((item.name, item.data) for item in stored)
    identity = (tuple((item.name, item.digest) for item in stored), systems, folder)
    ask = SystemsAsk(metric=metric, threshold=threshold, adjust=adjust, better=better)
    try:
        result = _logs_cached(identity, given, systems, ask, folder)
    except SystemsRefused as error:
        st.error(escape_markdown(refusal_text(error, flags=False)))
        return None
    except CalculatorError as error:
        st.error(escape_markdown(str(error)))
        return None
    st.markdown("**Logs**")
    choice = result.choice
    st.text(
        words.logs_line(
            result.names, result.questions, len(result.tasks), choice.metric, choice.reason
        )
    )
    for note in result.notes:
        st.caption(escape_markdown(note))
    if result.ranks is not None:
        if result.ranks_by_task is not None:
            _ranks_by_task(result.ranks_by_task)
        ranks_sections(result.ranks)
    elif result.rates is not None:
        if result.rates_by_task is not None:
            _rates_by_task(result.rates_by_task)
        overview(result.rates)
    return result


def _rates_by_task(suite: SuiteComparison) -> None:
    """The suite's view (pass/fail): a row per task and the pooled test, as the CLI prints."""
    st.markdown(words.BY_TASK)
    st.dataframe(
        pd.DataFrame(
            {
                "task": list(suite.tasks),
                "questions": [c.n for c in suite.by_task],
                "Cochran's p": [format_p_equals(c.cochran.decision_pvalue) for c in suite.by_task],
                "Holm across tasks": [format_p_equals(p) for p in suite.holm_pvalues],
            }
        ),
        hide_index=True,
        key="compare_suite_tasks",
    )
    st.text("\n".join(suite_lines(suite)))


def _ranks_by_task(suite: FriedmanSuite) -> None:
    """The suite's view (scores): each task's Friedman p with Holm across tasks."""
    st.markdown(words.BY_TASK)
    st.text("\n".join(friedman_task_lines(suite)))
    st.caption(words.SCORES_SUITE_CAPTION)


def letters_table(rows: list[dict[str, object]], key: str) -> None:
    """The ranking with each system's letters as a plain table (readable as text). A table's
    cells are Markdown: the names (from files and logs) are escaped, so they show as typed."""
    shown = [
        {k: escape_markdown(v) if isinstance(v, str) else v for k, v in row.items()} for row in rows
    ]
    with st.container(key=key):
        st.table(pd.DataFrame(shown).set_index("place"))


def ranks_sections(result: FriedmanComparison) -> None:
    """Friedman's test, the ranking with letters, the CD diagram with its groups, the pairs."""
    st.markdown("**Do the systems rank alike on every case?**")
    st.write(escape_markdown(describe_friedman(result)))
    st.markdown("**Ranking by average rank**")
    st.altair_chart(rank_charts.rank_chart(result), width="content", key="compare_rank_chart")
    frame = rank_charts.rank_frame(result)
    letters_table(
        [
            {
                "place": int(row["place"]),
                "system": row["system"],
                "letters": row["letters"],
                "average rank": f"{row['average rank']:.2f}",
                "mean score": f"{row['mean score']:#.4g}",
            }
            for row in frame.to_dict("records")
        ],
        key="compare_letters",
    )
    st.caption(escape_markdown(describe_rank_groups(result)))
    st.markdown("**Critical-difference diagram**")
    with st.container(key="compare_cd_diagram"):
        st.altair_chart(rank_charts.cd_diagram(result), width="content", key="compare_cd")
    st.caption(escape_markdown(describe_nemenyi(result)))
    st.caption(escape_markdown(describe_cliques(result)))
    st.markdown("**Every pair**")
    st.write(escape_markdown(describe_rank_pairs(result)))
    st.caption(escape_markdown(describe_rank_gap(result)))
    st.dataframe(
        pd.DataFrame(
            {
                "pair (A − B)": [f"{p.a} − {p.b}" for p in result.pairs],
                "average rank gap (A − B)": [f"{p.rank_gap:+.2f}" for p in result.pairs],
                "beyond the CD": ["yes" if p.beyond_cd else "no" for p in result.pairs],
                "signed-rank p": [format_p_equals(p.pvalue) for p in result.pairs],
                "Holm-adjusted": [
                    format_p_equals(p.adjusted_pvalue, alpha=result.alpha) for p in result.pairs
                ],
                "verdict": ["differ" if p.reject else "not separated" for p in result.pairs],
            }
        ),
        hide_index=True,
        key="compare_rank_pairs",
    )


@st.cache_resource(show_spinner="Ranking the systems...", max_entries=4)
def _scores_cached(
    identity: tuple, _files: tuple[CaseFile, ...], options: tuple, ask: SystemsAsk
) -> FriedmanComparison | None:
    return isolated(compare_case_scores, _files, ask, **dict(options))


def scores_view(stored: list[files.StoredFile], case_files: list[CaseFile], options: dict) -> bool:
    """Score columns or files of scores (no threshold): Friedman and the CD diagram; False when
    the outcomes are pass/fail (nothing shown: the pass/fail sections follow). True when an
    option is refused (shown)."""
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))
    ask = SystemsAsk(better=better_choice("compare_better"))
    identity = (tuple((item.name, item.digest) for item in stored), frozen)
    try:
        scored = _scores_cached(identity, tuple(case_files), frozen, ask)
    except SystemsRefused as error:
        st.error(escape_markdown(refusal_text(error, flags=False)))
        return True
    except (ValueError, TypeError, KeyError):  # CalculatorError is a ValueError
        return False  # the pass/fail reader says what is wrong, in its own words
    if scored is None:
        return False
    st.info(words.SCORES_BY_RANKS)
    ranks_sections(scored)
    return True
