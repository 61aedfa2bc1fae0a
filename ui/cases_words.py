"""Words of the "Per-case data" page: exclusion reasons, findings, summaries and labels.

Pure Python (no Streamlit), so each wording decision is tested directly. Text that comes from a
file (names, columns) is escaped for Markdown by the page, not here.
"""

from __future__ import annotations

from calculator.text import printable

__all__ = [
    "CUT_SCORES_HELP",
    "CUT_SCORES_HELP_SYSTEMS",
    "CUT_SCORES_LABEL",
    "FILE_TYPES",
    "INTRO",
    "NO_CASES_LEFT",
    "THRESHOLD_NEEDED",
    "THRESHOLD_PLACEHOLDER",
    "one_sided_cut",
    "NO_GROUP",
    "NO_ID",
    "NO_SHARED_COLUMN",
    "ONLY_B_GIVEN",
    "TITLE",
    "UPLOAD_PROMPT",
    "cluster_explanation",
    "columns_used",
    "few_clusters_warning",
    "files_in_use",
    "issue_title",
    "list_caption",
    "only_passes_label",
    "reason_text",
    "validation_summary",
    "LAYOUTS",
    "LAYOUT_HELP",
    "LAYOUT_LABEL",
    "LONG_HEADER",
    "NO_COLUMN",
    "SYSTEM_COLUMN",
    "ID_COLUMN",
    "OUTCOME_COLUMN",
    "REPEAT_COLUMN",
    "TASK_COLUMN",
    "SAME_SYSTEM",
    "others_left_out",
    "system_label",
    "too_few_systems",
]

TITLE = "Per-case data"
INTRO = (
    "Upload the per-case results of two systems: one file with a row per case and a pass/fail "
    "column for each system, or one file per system, paired by a shared id column. "
    "Evaluation logs in JSON Lines, such as lm-evaluation-harness sample files, work as they are."
)
UPLOAD_PROMPT = "Upload a file (CSV, TSV, JSON Lines or Parquet), or try the example."
NO_SHARED_COLUMN = "The two files share no column name, so their rows cannot be paired by id."
ONLY_B_GIVEN = (
    "Only B's uploader holds a file, so it is read as a file with both systems' outcomes; "
    "to pair two files, upload A's results as well."
)
NO_CASES_LEFT = "No case is left to analyse; fix the problems above or choose other columns."
#: Choice meaning "no id column" (one file) and "no group column".
NO_ID = "(number the rows)"
#: The control that cuts score columns into pass/fail (what ``cases --threshold`` does).
CUT_SCORES_LABEL = "Cut scores into pass/fail at a threshold"
CUT_SCORES_HELP = (
    "Unticked, columns holding scores (numbers other than 0 and 1) are compared by their mean "
    "score. Ticked, a case passes when its score is at least the threshold, and McNemar's tests "
    "compare the pass rates. Choose the threshold on the scores' own scale (50 on a 0-100 "
    "scale), before looking at the results."
)
#: The same control on the page comparing three or more systems, which compares pass rates only.
CUT_SCORES_HELP_SYSTEMS = (
    "A case passes when its score is at least the threshold; choose it on the scores' own scale "
    "(50 on a 0-100 scale), before looking at the results."
)
THRESHOLD_PLACEHOLDER = "on the scores' scale"
THRESHOLD_NEEDED = (
    "Enter the threshold that cuts the scores into pass/fail: a case passes when its score is "
    "at least the threshold."
)
NO_GROUP = "(none)"
#: A file's two layouts: a column per system, or a row per case and system (a long file).
LAYOUT_LABEL = "Layout of the file"
LAYOUTS = ("a row per case, a column per system", "a row per case and system (long)")
LAYOUT_HELP = (
    "Long: each row holds one system's outcome on one case (and repeat, and task), with a "
    "column naming the system, as pandas exports a tidy table and Inspect's samples_df gives "
    "it. Repeats (epochs) are compared by question, several tasks task by task."
)
LONG_HEADER = "Columns of the long file"
#: The long file's column boxes (page_message in ui.logs_words names them so).
SYSTEM_COLUMN = "System column"
ID_COLUMN = "Case id"
OUTCOME_COLUMN = "Outcome column"
REPEAT_COLUMN = "Repeat column (epoch), optional"
TASK_COLUMN = "Task column, optional"
#: A role without a column (no repeats, one task).
NO_COLUMN = "(none)"
SAME_SYSTEM = "A and B are the same system: choose two different ones."


def system_label(side: str, count: int) -> str:
    """The label of the choice of `side` among the `count` systems of a long file.

    >>> system_label("B", 2)
    'System B (of 2 in the file)'
    """
    return f"System {side} (of {count:,} in the file)"


def too_few_systems(column: str, systems: list[str]) -> str:
    """A long file's system column naming fewer than two systems (names already printable).

    >>> print(too_few_systems("model", ["m1"]))  # doctest: +NORMALIZE_WHITESPACE
    The System column 'model' names one system (m1); a long file holds two or more, a row
    per case and system.
    """
    count = "one system" if systems else "no system"
    return (
        f"The System column '{column}' names {count} ({', '.join(systems)}); a long file holds "
        "two or more, a row per case and system."
    )


def others_left_out(count: int) -> str:
    """Said when a long file holds more systems than the two compared.

    >>> others_left_out(1)
    'The rows of the 1 other system are left out: two systems are compared at a time.'
    """
    return (
        f"The rows of the {count:,} other system{'s' * (count != 1)} are left out: two systems "
        "are compared at a time."
    )


#: Extensions the uploaders accept.
FILE_TYPES = ("csv", "tsv", "tab", "txt", "jsonl", "ndjson", "json", "parquet", "pq")
#: Below this many clusters the cluster-adjusted p-value is read as rough.
FEW_CLUSTERS = 10

_REASON_TEXT = {
    "malformed_line": "line not readable as a row",
    "missing_value": "missing or blank value",
    "unparseable_outcome": "outcome not understood",
    "duplicate_id": "id occurs more than once",
    "id_in_one_file_only": "id in one file only",
    "partner_excluded": "partner row excluded",
}


def reason_text(reason: str) -> str:
    """Plain words for an exclusion reason (or a finding's kind).

    Examples
    --------
    >>> reason_text("duplicate_id"), reason_text("some_new_kind")
    ('id occurs more than once', 'some new kind')
    """
    return _REASON_TEXT.get(reason, reason.replace("_", " "))


def issue_title(kind: str, count: int) -> str:
    """A short heading for a finding: its kind in words and its count.

    Examples
    --------
    >>> issue_title("missing_value", 1200)
    'missing or blank value (1,200)'
    """
    return f"{reason_text(kind)} ({count:,})"


def files_in_use(names: list[str]) -> str:
    """The line naming the files the page is working on (plain text)."""
    return "Files in use: " + ", ".join(names)


def columns_used(
    names: tuple[str, str],
    files: tuple[str, ...],
    outcome_columns: tuple[str, str],
    id_column: str | None,
) -> str:
    """Which column of which file each system's outcome is, and how the rows are paired (plain
    text; control and bidirectional characters in file and column names written as escapes).

    Examples
    --------
    >>> print(columns_used(("A", "B"), ("a.jsonl", "b.jsonl"), ("acc", "acc"), "doc_id"))
    A: column 'acc' of a.jsonl
    B: column 'acc' of b.jsonl
    Paired on the id column 'doc_id'.
    >>> print(columns_used(("old", "new"), ("runs.csv",), ("old", "new"), None))
    old: column 'old' of runs.csv
    new: column 'new' of runs.csv
    Paired row by row (no id column).
    """
    lines = [
        f"{printable(name)}: column '{printable(column)}' of {printable(file)}"
        for name, column, file in zip(names, outcome_columns, (files[0], files[-1]), strict=True)
    ]
    if id_column is None:
        lines.append("Paired row by row (no id column).")
    else:
        lines.append(f"Paired on the id column '{printable(id_column)}'.")
    return "\n".join(lines)


def validation_summary(rows_read: int, rows_used: int, cases: int) -> tuple[bool, str]:
    """Whether rows were left out, and the sentence that says how many of them.

    Examples
    --------
    >>> validation_summary(240, 240, 240)
    (False, '240 rows read, 240 used (240 cases); no row left out.')
    """
    summary = f"{rows_read:,} rows read, {rows_used:,} used ({cases:,} cases)"
    excluded = rows_read - rows_used
    if not excluded:
        return False, f"{summary}; no row left out."
    return True, (
        f"{summary}; {excluded:,} rows left out. Each is counted once below, under its first "
        "problem; the findings list every problem with its first rows."
    )


def cluster_explanation(group_column: str) -> str:
    """Why the cluster-adjusted test is shown, for a group column named `group_column`
    (already escaped for Markdown)."""
    return (
        f"Cases that share a value of {group_column} may succeed or fail together, and then "
        "they are not independent evidence: the plain test's p-value may be too small, or, when "
        "cases within a group disagree in opposite directions, too large. "
        "The cluster-adjusted test (Durkalski et al. 2003) judges the difference against how "
        "much the groups themselves vary."
    )


def few_clusters_warning(clusters: int) -> str | None:
    """A caution when there are too few clusters for the large-sample approximation, else None.

    Examples
    --------
    >>> few_clusters_warning(24) is None
    True
    """
    if clusters >= FEW_CLUSTERS:
        return None
    return (
        f"Only {clusters} clusters: the cluster-adjusted p-value rests on a large-sample "
        "approximation in the number of clusters; read it as rough."
    )


def only_passes_label(name: str, count: int) -> str:
    """The tab label of a list of discordant cases (`name` already escaped for Markdown)."""
    return f"Only {name} passes ({count:,})"


def list_caption(found: int, page: int, pages: int) -> str:
    """How many cases a list holds and which page of it is shown."""
    return f"{found:,} cases; page {page} of {pages}"


def one_sided_cut(threshold: float, low: float, high: float) -> str:
    """The warning when a threshold leaves every score on one side of it.

    Examples
    --------
    >>> print(one_sided_cut(0.5, 8.0, 48.0))  # doctest: +NORMALIZE_WHITESPACE
    Every score, from 8 to 48, is at least the threshold 0.5, so every case passes for both
    systems and no case can tell them apart: set a threshold on the scores' scale.
    """
    side = "is at least" if threshold <= low else "is below"
    outcome = "passes" if threshold <= low else "fails"
    return (
        f"Every score, from {low:g} to {high:g}, {side} the threshold {threshold:g}, so every "
        f"case {outcome} for both systems and no case can tell them apart: set a threshold on "
        "the scores' scale."
    )
