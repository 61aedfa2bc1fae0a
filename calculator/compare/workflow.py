"""Several systems compared: the one path of ``compare`` for the page and the command line.

Whatever the input (harness logs of several models, a long file's systems, one file of scores
per system), the comparison goes: read, pair the systems' questions, choose (a graded metric
without a threshold is compared by ranks, else pass/fail outcomes), analyse (scores: Friedman,
Nemenyi's CD and every pair's signed-rank test with Holm; pass/fail: Cochran's Q and every
pair's exact McNemar test; with several tasks, each task alone too). The surfaces parse their
input into a :class:`SystemsAsk`, call these functions and render what they return, so the page
and the command line cannot answer one input differently.

An option that the chosen analysis cannot answer is refused here by its code
(:class:`SystemsRefused`); the words of the refusal are in
:mod:`calculator.report.compare_refusals`.

Examples
--------
>>> SystemsAsk().pass_fail_options()
{'alpha': 0.05, 'adjust': 'holm', 'ci_method': 'agresti-min', 'resamples': 9999}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from calculator.chooser import reads_lower_is_better
from calculator.errors import CalculatorError

if TYPE_CHECKING:
    from calculator.cases import CaseFile
    from calculator.cases.multi_scores import SystemScores
    from calculator.cases.systems_result import SystemCases
    from calculator.compare.friedman import FriedmanComparison
    from calculator.compare.friedman_suite import FriedmanSuite
    from calculator.compare.suite import SuiteComparison
    from calculator.compare.systems import SystemComparison
    from calculator.logs import LogTable
    from calculator.logs.select import MetricChoice
    from calculator.logs.systems_scores import LogSystemScores

__all__ = [
    "LogsComparison",
    "SystemsAsk",
    "SystemsRefused",
    "case_scores",
    "compare_case_scores",
    "compare_case_systems",
    "compare_log_systems",
    "compare_system_scores",
    "file_systems",
    "join_score_files",
    "load_case_systems",
    "refuse_log_options",
]

#: The pass/fail comparison's defaults: a value other than these is something asked.
_DEFAULTS = {"adjust": "holm", "ci_method": "agresti-min", "resamples": 9_999}


@dataclass(frozen=True, slots=True, kw_only=True)
class SystemsAsk:
    """Everything asked of several systems: what is compared in logs (metric, filter,
    threshold, exclusions allowed), the level, and the options of one analysis only
    (`adjust`, `ci_method`, `resamples`: pass/fail; `better`: scores by ranks, None when not
    stated)."""

    metric: str | None = None
    filter: str | None = None
    threshold: float | None = None
    allow_exclusions: bool = False
    alpha: float = 0.05
    adjust: str = "holm"
    ci_method: str = "agresti-min"
    resamples: int = 9_999
    better: str | None = None

    def pass_fail_options(self) -> dict[str, object]:
        """The options of :func:`calculator.compare.compare_systems`."""
        return {
            "alpha": self.alpha,
            "adjust": self.adjust,
            "ci_method": self.ci_method,
            "resamples": self.resamples,
        }


class SystemsRefused(CalculatorError):
    """An option the chosen analysis cannot answer: `option` its code ("better" on pass/fail,
    "better_unstated" for a lower-is-better name with no direction stated, "adjust",
    "ci_method", "resamples" on scores; "metric", "filter", "allow_exclusions" on per-case
    files, which are not harness logs), `detail` the value or name concerned (the file, for
    the options of logs)."""

    def __init__(self, option: str, detail: object = None) -> None:
        super().__init__(f"{option} refused ({detail})")
        self.option, self.detail = option, detail


@dataclass(frozen=True, slots=True, kw_only=True)
class LogsComparison:
    """Several systems' logs compared: `ranks` (scores) or `rates` (pass/fail), the suite's
    view when the logs hold several tasks, and what was read (`scores` or `cases`, the filter
    of each task, the readers' notes)."""

    names: tuple[str, ...]
    choice: MetricChoice
    questions: int
    notes: tuple[str, ...] = ()
    ranks: FriedmanComparison | None = None
    ranks_by_task: FriedmanSuite | None = None
    rates: SystemComparison | None = None
    rates_by_task: SuiteComparison | None = None
    tasks: tuple[str, ...] = field(default=())
    scores: LogSystemScores | None = field(default=None, repr=False)
    cases: SystemCases | None = field(default=None, repr=False)
    filters: dict[str, str] = field(default_factory=dict)


def _refuse_pass_fail_options(ask: SystemsAsk) -> None:
    for option, default in _DEFAULTS.items():
        if getattr(ask, option) != default:
            raise SystemsRefused(option, getattr(ask, option))


def refuse_log_options(ask: SystemsAsk, what: str) -> None:
    """Per-case files (`what` names them): the options of harness logs are refused by code.

    >>> refuse_log_options(SystemsAsk(metric="acc"), "s.csv")
    Traceback (most recent call last):
    ...
    calculator.compare.workflow.SystemsRefused: metric refused (s.csv)
    """
    for option in ("metric", "filter", "allow_exclusions"):
        if getattr(ask, option):
            raise SystemsRefused(option, what)


def stated_better(ask: SystemsAsk, names: Sequence[str]) -> str:
    """``ask.better``, or "higher" when no name reads lower-is-better (else refused)."""
    if ask.better is None:
        lower = [name for name in names if reads_lower_is_better(name)]
        if lower:
            raise SystemsRefused("better_unstated", lower[0])
    return ask.better or "higher"


def compare_system_scores(
    scores: np.ndarray, names: Sequence[str], ask: SystemsAsk, *, named: Sequence[str] = ()
) -> FriedmanComparison:
    """Scores of several systems (rows the cases) compared by ranks; `named` the names read
    for a direction (the columns, or the metric), the systems' names when empty.

    Raises :class:`SystemsRefused` for an option of the pass/fail comparison, or a
    lower-is-better name without ``better``."""
    from calculator.compare.friedman import friedman_compare

    _refuse_pass_fail_options(ask)
    better = stated_better(ask, list(named) or list(names))
    return friedman_compare(scores, list(names), alpha=ask.alpha, better=better)


def compare_log_systems(
    logs: Sequence[LogTable], ask: SystemsAsk | None = None, *, what: str = ""
) -> LogsComparison:
    """Several systems' log tables (one per system; a long file's systems alike) compared:
    a graded metric without a threshold by ranks, else pass/fail outcomes; `what` names the
    input in a refusal (the files).

    Raises
    ------
    SystemsRefused
        For an option the chosen analysis cannot answer.
    CalculatorError
        When no question is scored by every system (fewer than 2 for ranks).
    """
    from calculator.logs.systems_scores import load_log_scores

    ask = ask or SystemsAsk()
    notes = attributed_notes(logs)
    if ask.threshold is None:
        scores = load_log_scores(
            logs, metric=ask.metric, filter=ask.filter, allow_exclusions=ask.allow_exclusions
        )
        if scores is not None:
            return _by_ranks(scores, ask, notes, what)
    if ask.better is not None:
        raise SystemsRefused("better", ask.better)
    return _by_pass_fail(logs, ask, notes, what)


def _by_ranks(
    scores: LogSystemScores, ask: SystemsAsk, notes: tuple[str, ...], what: str
) -> LogsComparison:
    from calculator.compare.friedman_suite import friedman_by_task

    if scores.n < 2:
        raise CalculatorError(
            f"{what}: {scores.n:,} question(s) with a score from every one of the "
            f"{len(scores.names)} systems; Friedman's test needs at least 2"
        )
    ranks = compare_system_scores(scores.scores, scores.names, ask, named=[scores.choice.metric])
    tasks = tuple(dict.fromkeys(str(t) for t in scores.tasks.tolist()))
    by_task = (
        friedman_by_task(
            scores.scores, scores.names, scores.tasks, alpha=ask.alpha, better=ranks.better
        )
        if len(tasks) > 1
        else None
    )
    return LogsComparison(
        names=tuple(scores.names),
        choice=scores.choice,
        questions=scores.n,
        notes=notes,
        ranks=ranks,
        ranks_by_task=by_task,
        tasks=tasks,
        scores=scores,
        filters=dict(scores.filters),
    )


def _by_pass_fail(
    logs: Sequence[LogTable], ask: SystemsAsk, notes: tuple[str, ...], what: str
) -> LogsComparison:
    from calculator.compare.suite import compare_suite
    from calculator.logs.systems import load_log_suite

    cases, choice, task_filters, tasks = load_log_suite(
        logs,
        metric=ask.metric,
        filter=ask.filter,
        threshold=ask.threshold,
        allow_exclusions=ask.allow_exclusions,
    )
    if cases.n == 0:
        raise CalculatorError(
            f"{what}: the logs share no question with a usable outcome in every one"
        )
    options = ask.pass_fail_options()
    rates = cases.compare(**options)
    labels = tuple(dict.fromkeys(str(t) for t in np.asarray(tasks).tolist()))
    suite = (
        compare_suite(cases.outcomes, cases.names, tasks, rates, **options)
        if len(labels) > 1
        else None
    )
    return LogsComparison(
        names=tuple(cases.names),
        choice=choice,
        questions=cases.n,
        notes=notes,
        rates=rates,
        rates_by_task=suite,
        tasks=labels,
        cases=cases,
        filters=dict(task_filters),
    )


def load_case_systems(
    sources: str | CaseFile | Sequence[str | CaseFile],
    *,
    id_column: str | None = None,
    systems: Sequence[str] | None = None,
    system_column: str | None = None,
    outcome_column: str | None = None,
    threshold: float | None = None,
    number_rows: bool = False,
) -> SystemCases:
    """Per-case files' pass/fail outcomes of several systems (one wide or long file, or one
    file per system), read by the one reader of several systems with the rule every per-case
    file follows (:func:`calculator.cases.multi.load_systems`, ``by_bulk``); `number_rows`:
    a wide file's cases are its rows, numbered (no id column guessed)."""
    from calculator.cases.multi import load_systems

    return load_systems(
        sources,
        id_column=id_column,
        systems=systems,
        system_column=system_column,
        outcome_column=outcome_column,
        threshold=threshold,
        number_rows=number_rows,
        by_bulk=True,
    )


def compare_case_systems(cases: SystemCases, ask: SystemsAsk, what: str = "") -> SystemComparison:
    """Per-case files' pass/fail outcomes compared: Cochran's Q and every pair's exact McNemar
    test with the options of `ask`; `what` names the files in a refusal.

    Raises :class:`SystemsRefused` for ``better`` (pass/fail outcomes rank by pass rate) and
    for the options of harness logs; a CalculatorError when no case is complete."""
    refuse_log_options(ask, what or " + ".join(cases.files))
    if ask.better is not None:
        raise SystemsRefused("better", ask.better)
    return cases.compare(**ask.pass_fail_options())


def compare_case_scores(
    case_files: Sequence[CaseFile],
    ask: SystemsAsk,
    *,
    id_column: str | None = None,
    systems: Sequence[str] | None = None,
    system_column: str | None = None,
    outcome_column: str | None = None,
    threshold: float | None = None,
    number_rows: bool = False,
) -> FriedmanComparison | None:
    """Per-case files of scores compared by ranks: a wide file's chosen score columns
    (`systems`), a long file's systems' scores (`system_column`), or one file of scores per
    system; None when they are pass/fail, a threshold is set, or fewer than 2 cases hold a
    score for every system (the pass/fail reader then says what is wrong). `number_rows` is
    the pass/fail reader's (rows numbered), taken for one signature with
    :func:`load_case_systems`.

    Raises :class:`SystemsRefused` for ``better`` asked of pass/fail outcomes, or a
    lower-is-better column named without it."""
    from calculator.logs.long_file import LongColumns, read_long_file

    del number_rows  # scores need an id or rows alike: the score reader numbers no rows
    if threshold is not None:  # cut into pass/fail: not scores
        return None
    if system_column and len(case_files) == 1 and not systems:
        columns = LongColumns(system=system_column, id=id_column, outcome=outcome_column)
        return compare_log_systems(read_long_file(case_files[0], columns), ask).ranks
    read = case_scores(
        case_files, id_column=id_column, systems=systems, outcome_column=outcome_column
    )
    scores, named = read or (None, ())
    if scores is not None and scores.n >= 2:
        return compare_system_scores(
            scores.scores, scores.names, ask, named=[*scores.names, *named]
        )
    if ask.better is not None:
        raise SystemsRefused("better", ask.better)
    return None


def case_scores(
    sources: Sequence[CaseFile | str],
    *,
    id_column: str | None = None,
    systems: Sequence[str] | None = None,
    outcome_column: str | None = None,
) -> tuple[SystemScores, tuple[str, ...]] | None:
    """The systems' scores in per-case files, by the one reader of each layout: one file of
    scores per system joined on their id (:func:`join_score_files`), or one wide file's chosen
    columns (`systems`); with each file's score column (a wide file's are the systems). None
    when they read as pass/fail, or no layout of scores is given (the pass/fail reader of
    several systems then says why)."""
    from calculator.cases.multi_scores import load_system_scores

    if len(sources) > 1:
        return join_score_files(sources, id_column=id_column, outcome_column=outcome_column)
    if not systems:
        return None
    scores = load_system_scores(sources[0], systems=list(systems), id_column=id_column)
    return None if scores is None else (scores, ())


def attributed_notes(logs: Sequence[LogTable]) -> tuple[str, ...]:
    """Every log's notes, each saying whose it is: one that opens with its own log's file name
    (``c.json: ...``) as it stands; any other, with several logs, after its system's name,
    since two logs may note the same words of different rows (and a folder read once per
    model notes itself once per model)."""
    return tuple(
        note if len(logs) == 1 or note.split(": ", 1)[0] in log.sources else f"{log.system}: {note}"
        for log in logs
        for note in log.notes
    )


def file_systems(files: Sequence[str]) -> list[str]:
    """Each file's system name: its name without the suffix, else (when two would share it)
    the whole name.

    >>> file_systems(["runs/a.csv", "b.csv"]), file_systems(["a.csv", "a.json"])
    (['a', 'b'], ['a.csv', 'a.json'])
    """
    from pathlib import PurePath

    stems = [PurePath(name).stem for name in files]
    return stems if len(set(stems)) == len(stems) else [PurePath(name).name for name in files]


def join_score_files(
    case_files: Sequence[CaseFile],
    *,
    id_column: str | None = None,
    outcome_column: str | None = None,
) -> tuple[SystemScores, tuple[str, ...]] | None:
    """One file of scores per system (each named by :func:`file_systems`) joined on their
    id column into one table of scores, read by the one score reader; None when they read as
    pass/fail, or their id or score column cannot be told (the per-case reader of several
    systems then says why). An id repeated within a file leaves all its rows of that file out
    (which score counts would be a guess), counted apart. Returned with each file's score
    column, whose name says which scores are better (``wer``: lower)."""
    import dataclasses

    import pandas as pd

    from calculator.cases import CaseFile
    from calculator.cases.columns import guess_outcomes
    from calculator.cases.multi_scores import load_system_scores

    guess = guess_outcomes(case_files[0].frame, id_column=id_column)
    id_column = id_column or guess.id_column
    if id_column is None:
        return None
    names = file_systems([case_file.name for case_file in case_files])
    columns, duplicated, used = [], 0, []
    for case_file, name in zip(case_files, names, strict=True):
        frame = case_file.frame
        outcome = outcome_column
        if outcome is None:
            found = guess_outcomes(frame, id_column=id_column, threshold=0.0).outcome_columns
            if len(found) != 1:
                return None
            outcome = found[0]
        if id_column not in frame.columns or outcome not in frame.columns:
            return None
        twice = frame[id_column].astype(str).duplicated(keep=False)
        duplicated += int(twice.sum())  # every copy left out: which score counts is a guess
        kept = frame.loc[~twice, [id_column, outcome]]
        columns.append(kept.set_index(kept[id_column].astype(str))[outcome].rename(name))
        used.append(str(outcome))
    joined = pd.concat(columns, axis=1, join="outer")
    joined.index.name = id_column
    table = joined.reset_index()
    table.index = pd.RangeIndex(1, len(table) + 1)
    label = " + ".join(case_file.name for case_file in case_files)
    joined_file = CaseFile(name=label, format="csv", frame=table.astype(object))
    scores = load_system_scores(joined_file, systems=names, id_column=id_column)
    if scores is None:
        return None
    # Counted apart: rows, not ids; their ids then lack that file's score (a missing value).
    excluded = {**scores.excluded, "rows_with_a_repeated_id_in_their_file": duplicated}
    return dataclasses.replace(scores, excluded=excluded), tuple(used)
