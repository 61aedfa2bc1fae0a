"""Words of the flips section (the cases where exactly one system passes), on the per-case
page. Pure Python: each wording is tested directly. Names, tasks and ids come from files and
are escaped where Markdown would read them (:func:`calculator.text.escape_markdown`)."""

from __future__ import annotations

from calculator.report.flips import TEXT_STATUS_WORDS, direction_heading, flip_label, outcome_words
from calculator.text import clip, escape_markdown, plural

__all__ = [
    "ALL_TASKS",
    "CSV_LABEL",
    "DIRECTION_LABEL",
    "INTRO",
    "HTML_LABEL",
    "MARKDOWN_LABEL",
    "REPORT_TITLE",
    "SEARCH_LABEL",
    "TASK_LABEL",
    "TEXT_COLUMNS_HELP",
    "TEXT_COLUMNS_LABEL",
    "TITLE",
    "churn_columns",
    "expander_label",
    "list_caption",
    "status_words",
    "texts_not_read",
    "tab_label",
]

TITLE = "Flips: what changed, case by case"
INTRO = (
    "Each flip is a case where exactly one system passes: a regression when only A, the "
    "baseline, passes; an improvement when only B, the new system, passes. Open one to read "
    "its prompt, the reference and both outputs as the files hold them."
)
SCORES_INTRO = (
    "For scores, the flips are the cases whose scores differ most, each way (at most "
    "{kept:,} of each): a regression where A scores better, an improvement where B does, "
    "{better} scores being better."
)
DIRECTION_LABEL = "Flips listed"
TASK_LABEL = "Task"
ALL_TASKS = "All tasks"
SEARCH_LABEL = "Search ids and texts"
TEXT_COLUMNS_LABEL = "Text columns shown beside each flip"
TEXT_COLUMNS_HELP = (
    "Columns holding a text of each case (a prompt, an output). A column in both files that "
    "differs between them is each system's own."
)
CSV_LABEL = "Download every flip with its texts (CSV)"
MARKDOWN_LABEL = "Download the report (Markdown)"
HTML_LABEL = "Download the report as a page (HTML, self-contained)"
REPORT_TITLE = "Report to paste (Markdown, GitHub-renderable)"
PROMPT = "Prompt"
TARGET = "Reference"
EXPLANATION = "explanation"


def tab_label(flips: object, direction: str, count: int) -> str:
    """ "Regressions (only A passes): 23", escaped for a tab's Markdown label."""
    heading = direction_heading(flips, direction)
    return escape_markdown(f"{heading[0].upper()}{heading[1:]}: {count:,}")


def churn_columns(names: tuple[str, str]) -> tuple[str, ...]:
    """The churn table's headers (a dataframe shows them as text)."""
    return ("task", "cases", f"only {names[0]} passes", f"only {names[1]} passes")


def expander_label(flips: object, flip: object) -> str:
    """A flip's expander: its task/id and both outcomes, escaped."""
    return escape_markdown(f"{flip_label(flip)}: {clip(outcome_words(flips, flip), 120)}")


def texts_not_read(why: str) -> str:
    """Why the flips below come without their texts (a limit of this server, say): the
    comparison above is whole."""
    return (
        f"The flips are listed without their texts, which could not be read here: {why} "
        "The comparison above is complete."
    )


def status_words(status: str) -> str:
    """Why a flip shows no texts."""
    return TEXT_STATUS_WORDS[status]


def list_caption(found: int, total: int, page: int, pages: int) -> str:
    """ "23 flips (of 40), page 1 of 1"."""
    shown = plural(found, "flip") + ("" if found == total else f" (of {total:,})")
    return f"{shown}, page {page:,} of {max(pages, 1):,}"


def output_label(name: str, field: str) -> str:
    """ "gpt-4o [filtered_resps [strict-match]]", escaped for a caption."""
    return escape_markdown(f"{clip(name, 60)} [{clip(field, 60)}]")
