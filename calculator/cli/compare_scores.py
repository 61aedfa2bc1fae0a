"""``compare FILE --systems A,B,C`` when the columns hold scores and no ``--threshold`` is given:
Friedman's test on the ranks, Nemenyi's critical difference, and every pair's Wilcoxon
signed-rank test adjusted by Holm (:func:`calculator.compare.friedman.friedman_compare`),
beside Cochran's Q for pass/fail. Text words and JSON keys live here; the figures come from
the core."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from calculator.cli.arguments import UsageError
from calculator.cli.output import print_json, print_lines
from calculator.compare.workflow import SystemsAsk
from calculator.errors import CalculatorError
from calculator.report.formatting import format_p_equals, plural

if TYPE_CHECKING:
    from calculator.cases.multi_scores import SystemScores
    from calculator.compare.friedman import FriedmanComparison
    from calculator.compare.workflow import LogsComparison
    from calculator.logs import LogTable
    from calculator.logs.systems_scores import LogSystemScores

__all__ = [
    "friedman_lines",
    "run_log_scores",
    "refused_as_usage",
    "run_scores",
    "scores_given",
    "scores_lines",
    "systems_ask",
]


def scores_given(args: argparse.Namespace) -> tuple[SystemScores, tuple[str, ...]] | None:
    """Per-case files of scores, no ``--threshold``: one file per system joined on their id,
    or one wide file's ``--systems`` columns, read by the workflow's one reader of scores
    (:func:`calculator.compare.workflow.case_scores`, the page's too), with each file's score
    column; None when they read as pass/fail, or the files cannot be read as scores (the
    per-case reader of several systems then says why)."""
    from calculator.cases import read_case_file
    from calculator.compare.workflow import case_scores

    if args.threshold is not None or args.system_column is not None:
        return None
    sources: list = list(args.files)
    if len(sources) > 1:
        try:
            sources = [read_case_file(path) for path in sources]
        except (CalculatorError, OSError):
            return None
    systems = None
    if args.systems is not None:
        systems = [name.strip() for name in args.systems.split(",") if name.strip()]
    return case_scores(
        sources, id_column=args.id_column, systems=systems, outcome_column=args.outcome_column
    )


def run_scores(args: argparse.Namespace, scores: SystemScores, columns: Sequence[str] = ()) -> int:
    """Compare the systems' scores (`columns`: the files' score columns, read with the
    systems' names for which scores are better); print text or JSON; return the status."""
    from calculator.compare.workflow import compare_system_scores

    if scores.n < 2:
        raise CalculatorError(
            f"{scores.file}: {plural(scores.n, 'case')} with a score for every one of the "
            f"{len(scores.names)} systems ({plural(scores.rows_read, 'row')} read); Friedman's "
            "test needs at least 2"
        )
    with refused_as_usage():
        result = compare_system_scores(
            scores.scores, scores.names, systems_ask(args), named=[*scores.names, *columns]
        )
    if args.json:
        summary = scores.input_summary()
        if len(args.files) > 1:  # one file per system, joined on the id: rows are ids here
            summary.update(
                files=[Path(path).name for path in args.files],
                layout="files",
                ids_joined=summary.pop("rows_read"),
                ids_used=summary.pop("rows_used"),
            )
        print_json({"analysed_as": "scores", **result.to_dict(), "input": summary})
    else:
        print_lines(scores_lines(scores, result))
    return 0


@contextlib.contextmanager
def refused_as_usage() -> Iterator[None]:
    """An option refused by the workflow, as the command line's usage error."""
    from calculator.compare.workflow import SystemsRefused
    from calculator.report.compare_refusals import refusal_text

    try:
        yield
    except SystemsRefused as error:
        raise UsageError(refusal_text(error)) from None


def systems_ask(args: argparse.Namespace) -> SystemsAsk:
    """The options of ``compare`` as the workflow of several systems takes them."""
    return SystemsAsk(
        metric=getattr(args, "metric", None),
        filter=getattr(args, "filter", None),
        threshold=args.threshold,
        allow_exclusions=bool(getattr(args, "allow_exclusions", False)),
        alpha=args.alpha,
        adjust=args.adjust,
        ci_method=args.ci_method,
        resamples=args.resamples,
        better=args.better,
    )


def scores_lines(scores: SystemScores, result: FriedmanComparison) -> list[str]:
    """The text report: input, Friedman, the ranking with letters, Nemenyi, the pairs."""
    id_words = f"id = {scores.id_column!r}; " if scores.id_column else ""
    layout = "files, joined on the id" if " + " in scores.file else "wide"
    lines = [
        f"input     {scores.file} (layout {layout}; {id_words}scores = "
        + ", ".join(repr(name) for name in scores.names)
        + "; no --threshold: compared as scores, by ranks)",
        (
            f"rows      {scores.rows_read:,} read, {scores.rows_used:,} used, "
            if layout == "wide"
            else f"ids       {scores.rows_read:,} in the files joined, {scores.rows_used:,} used, "
        )
        + f"{scores.rows_read - scores.rows_used:,} excluded; {plural(scores.n, 'case')} analysed",
    ]
    for reason, count in scores.excluded.items():
        if count:
            lines.append(f"          excluded, {reason.replace('_', ' ')}: {count:,}")
    return lines + ["", *friedman_lines(result)]


def friedman_lines(result: FriedmanComparison) -> list[str]:
    """Friedman, the ranking with letters, Nemenyi's CD with its groups, the pairs."""
    from calculator.report.friedman import (
        describe_cliques,
        describe_friedman,
        describe_nemenyi,
        describe_rank_gap,
        describe_rank_groups,
        describe_rank_pairs,
    )

    lines = [describe_friedman(result), ""]
    lines.append(
        f"ranked by average rank (1 = the {'highest' if result.better == 'higher' else 'lowest'} "
        "score on a case, midranks for ties; letters: "
        "groups not shown different by the Holm-adjusted signed-rank tests), mean score"
    )
    letters = result.letter_display().letters
    width = max(len(name) for name in result.names)
    lettered = max(len(value) for value in letters.values())
    for place, name in enumerate(result.ranking, 1):
        j = result.names.index(name)
        lines.append(
            f"  {place:>2}. {name:<{width}}  {letters[name]:<{lettered}}  average rank "
            f"{result.average_ranks[j]:.2f}, mean score {result.mean_scores[j]:#.4g}"
        )
    lines += [describe_rank_groups(result), describe_nemenyi(result), describe_cliques(result)]
    lines += ["", describe_rank_pairs(result), describe_rank_gap(result)]
    for pair in result.pairs:
        where = "beyond" if pair.beyond_cd else "within"
        lines.append(
            f"  {pair.a} − {pair.b}: average rank gap {pair.rank_gap:+.2f} ({where} the CD); "
            f"signed-rank {format_p_equals(pair.pvalue)} ({pair.method}), adjusted "
            f"{format_p_equals(pair.adjusted_pvalue, alpha=result.alpha)}; "
            + ("differ" if pair.reject else "not separated")
        )
    return lines


def run_log_scores(args: argparse.Namespace, compared: LogsComparison, logs: list[LogTable]) -> int:
    """Several systems' logs (or a long file's systems) on a graded metric, as compared by
    :func:`calculator.compare.workflow.compare_log_systems`: Friedman over every question, and,
    with several tasks, each task's own with Holm across them."""
    from calculator.report.friedman import friedman_task_lines
    from calculator.report.logs import filter_lines

    scores, result, suite = compared.scores, compared.ranks, compared.ranks_by_task
    assert scores is not None and result is not None
    notes = list(compared.notes)
    if args.json:
        payload = {"analysed_as": "scores", **result.to_dict(), "input": scores.input_summary()}
        payload["input"].update({"format": logs[0].format, "files": list(map(str, args.files))})
        payload["input"]["notes"] = notes
        if suite is not None:
            payload["suite"] = suite.to_dict()
        print_json(payload)
        return 0
    choice = scores.choice
    others = f"; also logged: {', '.join(choice.others[:8])}" if choice.others else ""
    lines = [f"metric    {choice.metric} ({choice.reason}){others}"]
    lines += filter_lines(scores.filters, args.filter)
    lines += [f"  ! {note}" for note in notes]
    lines += _log_input_lines(scores)
    if suite is not None:
        lines += [
            "",
            *friedman_task_lines(suite),
            "",
            _POOLED_WORDS.format(
                n=plural(scores.n, "question"), tasks=plural(len(suite.tasks), "task")
            ),
        ]
    print_lines([*lines, "", *friedman_lines(result)])
    return 0


#: Why Friedman's test over every question is the suite's, by task.
_POOLED_WORDS = (
    "pooled    all {n} of the {tasks}, each question its own block: the suite's answer, below "
    "(the ranks are permuted within each question, a stratum finer than its task, so pooling "
    "the questions over tasks keeps the test valid whatever the tasks' difficulties). The rows "
    "by task answer each task alone, Friedman's p Holm-adjusted across tasks"
)


def _log_input_lines(scores: LogSystemScores) -> list[str]:
    """What was read and used, per system, and how repeats were used."""
    lines = [
        f"systems   {', '.join(scores.names)}",
        f"questions {scores.n:,} scored by every system; compared as scores, by ranks (no "
        "--threshold)",
    ]
    for name in scores.names:
        lines.append(
            f"          {name}: {scores.rows_read[name]:,} rows read, "
            f"{scores.rows_missing[name]:,} without a value, "
            f"{plural(scores.questions_left_out[name], 'question')} not scored by every other "
            "system (left out)"
        )
    if scores.most_repeats > 1:
        lines.append(
            f"repeats   up to {scores.most_repeats} per question: a question's score is the mean "
            "of its repeats, so every repeat counts and the question is the unit"
        )
    return lines
