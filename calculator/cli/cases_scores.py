"""``cases`` on per-case scores: the comparison of mean scores when the outcomes are scores.

Without ``--threshold``, outcome columns whose bulk is numbers (:mod:`calculator.cases.bulk`) are
compared by their mean score (:func:`calculator.compare_scores`); with ``--threshold`` they are
cut into pass/fail for McNemar's test as before, and the output says which of the two was done.
The text leads with the mean difference, its interval and the permutation p; the JSON has a
``scores`` section.

With ``--margin DELTA`` B is tested for non-inferiority at one-sided level ``--alpha`` (the t
interval at 1 - 2 alpha, as the pass/fail decision uses Tango's); so is the interval beside a
one-sided ``--alternative``; otherwise the interval's level is 1 - alpha
(:func:`calculator.decision.decision_level`, the pass/fail decision's rule). DELTA is a plain
positive number in the scores' own units (2 is 2 BLEU on a 0-100 scale): a pass rate's units
(pt, %) are refused, as they mean nothing for scores. ``--alternative greater`` with a margin
(superiority by the margin) is refused: the margin answers non-inferiority only.
``--fail-if-worse`` fails the gate when B's mean is significantly lower than A's by the
two-sided sign-flip permutation test at ``--alpha`` (with a margin: unless B is shown
non-inferior); its margin is at most half the range the scores span (B's mean cannot fall
further below A's than that range, so a margin as large asks nothing of B).

A refusal of :func:`calculator.compare_scores` (scores too large to compute with, say) names the
file(s) and the columns, as the other refusals of a per-case file do
(:func:`calculator.cases.scores_input.compare_case_scores`).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from calculator.chooser import LOWER_IS_BETTER_WORDS, Ask
from calculator.cli.cases_flips import (
    add_flips_output,
    flips_of_cases,
    markdown_output,
)
from calculator.cli.output import print_json, print_lines
from calculator.cli.question import score_margin_value
from calculator.cli.shared import ANALYSED_AS_PASS_FAIL, ANALYSED_AS_SCORES, EXIT_WORSE
from calculator.errors import CalculatorError
from calculator.paired_data import of_cases
from calculator.release import scores_gate_fails
from calculator.report.formatting import plural
from calculator.report.gate import scores_gate_payload, scores_gate_verdict
from calculator.report.words import payload
from calculator.workflow import compare

if TYPE_CHECKING:
    from calculator.cases import CaseFile, PairedCases
    from calculator.scores import ScoresComparison

__all__ = [
    "ANALYSED_AS_PASS_FAIL",
    "ANALYSED_AS_SCORES",
    "LOWER_IS_BETTER_WORDS",
    "comparison_lines",
    "scores_gate_line",
    "run_scores",
    "score_options",
    "scores_columns",
    "threshold_columns",
]

#: The value of the JSON key "analysed_as", and the first words of the text report.


def scores_columns(
    args: argparse.Namespace, first: CaseFile, second: CaseFile | None
) -> tuple[str, str] | None:
    """The two score columns to compare as scores, or None: read the outcomes as pass/fail."""
    if args.threshold is not None:
        return None
    from calculator.cases.scores_input import choose_score_columns

    return choose_score_columns(
        first,
        second,
        a_column=args.a_column,
        b_column=args.b_column,
        id_column=args.id_column,
        group_column=args.group_column,
    )


def threshold_columns(
    args: argparse.Namespace, first: CaseFile, second: CaseFile | None
) -> argparse.Namespace:
    """`args` with unnamed outcome columns guessed among the score columns when --threshold
    is given and no pass/fail columns can be guessed (the scores it cuts), else unchanged."""
    if args.threshold is None or (args.a_column is not None and args.b_column is not None):
        return args
    from calculator.cases.scores_input import guess_threshold_columns

    guessed = guess_threshold_columns(
        first,
        second,
        a_column=args.a_column,
        b_column=args.b_column,
        id_column=args.id_column,
        group_column=args.group_column,
    )
    if guessed is None:
        return args
    return argparse.Namespace(**{**vars(args), "a_column": guessed[0], "b_column": guessed[1]})


def run_scores(
    args: argparse.Namespace,
    first: CaseFile,
    second: CaseFile | None,
    columns: tuple[str, str],
) -> int:
    """Compare the score columns; print the report or JSON; return the exit status."""
    from calculator.cases.scores_input import load_score_cases, paired_scores_of

    ask = score_options(args)
    id_column = args.id_column
    if id_column is None and second is None:
        from calculator.cases import guess_columns

        id_column = guess_columns(first.frame).id_column  # numbered rows when there is none
    cases = load_score_cases(
        first, second, columns, id_column=id_column, group_column=args.group_column
    )
    if cases.n == 0:
        raise CalculatorError(
            f"{' + '.join(cases.files)}: no usable cases: {cases.rows_read:,} rows read, none "
            f"with a score in both {columns[0]!r} and {columns[1]!r}"
        )
    # The chooser's refusals, then compare_case_scores' (which name the file)
    data = of_cases(cases, scores=True, read=paired_scores_of(cases))
    result = compare(data, ask).scores
    flips = flips_of_cases(args, cases, scores=True, better=result.better)  # both ways
    if markdown_output(args, result, flips):
        pass
    elif args.json:
        document = {
            "analysed_as": ANALYSED_AS_SCORES,
            "input": cases.input_summary(),
            "scores": payload(result),
        }
        if args.fail_if_worse:
            document["gate"] = scores_gate_payload(result, args.alpha)
        add_flips_output(args, flips, document=document)
        print_json(document)
    else:
        lines = _text(cases, result, args)
        add_flips_output(args, flips, lines=lines)
        print_lines(lines)
    if args.fail_if_worse and scores_gate_fails(result, args.alpha):
        return EXIT_WORSE
    return 0


def score_options(args: argparse.Namespace) -> Ask:
    """Everything asked of scores (:class:`calculator.chooser.Ask`): ``--alpha``,
    ``--alternative``, ``--margin`` read in the scores' own units (:func:`score_margin_value`),
    ``--equivalence``, ``--fail-if-worse``, ``--better`` and ``--resamples``; what scores
    cannot answer is refused by :func:`calculator.chooser.choose`."""
    text = getattr(args, "margin_text", None)
    margin = args.margin if text is None else score_margin_value(text)
    return Ask(
        alpha=args.alpha,
        alternative=args.alternative,
        margin=margin,
        question="equivalent" if getattr(args, "equivalence", False) else None,
        gate=getattr(args, "fail_if_worse", False),
        better=getattr(args, "better", None),
        resamples=getattr(args, "resamples", None),
        anytime=getattr(args, "anytime", False),
        # The mixture is the anytime gate's; printed alone (--json) it is the report's.
        anytime_prior=getattr(args, "anytime_prior", 1.0)
        if getattr(args, "anytime", False)
        else 1.0,
    )


def _text(cases: PairedCases, result: ScoresComparison, args: argparse.Namespace) -> list[str]:
    """Input, then the headline (mean difference, interval, permutation p), then the rest."""
    from calculator.cases.scores_input import scores_source

    lines = [
        f"input     {scores_source(cases)}",
        f"rows      {cases.rows_read:,} read, {cases.rows_used:,} used, "
        f"{cases.rows_read - cases.rows_used:,} excluded; {plural(cases.n, 'case')} analysed",
    ]
    for reason, count in cases.excluded.items():
        if count:
            lines.append(f"          excluded, {reason.replace('_', ' ')}: {count:,}")
    for issue in cases.issues:
        lines.append(f"  ! {issue.message}")
    lines += [
        "",
        "analysed  as scores (most outcome rows hold numbers other than 0 and 1): the mean "
        "difference; --threshold X cuts the scores into pass/fail for McNemar's test instead",
    ]
    clusters = None
    if result.clusters is not None:
        clusters = f"{plural(result.clusters, 'group')} in {cases.group_column!r}"
    lines += comparison_lines(result, clusters)
    if args.fail_if_worse:
        lines.append(scores_gate_line(result, args.alpha))
    return lines


def comparison_lines(result: ScoresComparison, clusters: str | None) -> list[str]:
    """The report's sentences (:func:`calculator.report.scores.scores_sentences`), a blank
    line after the headline's group; `clusters` (what they are, in words) is said on a line of
    its own."""
    from calculator.report.scores import CLUSTER_WEIGHTS, scores_sentences

    if clusters is not None:
        clusters = f"clusters  {clusters}; {CLUSTER_WEIGHTS[0].lower()}{CLUSTER_WEIGHTS[1:]}"
    lead, rest = scores_sentences(result, clusters)
    return [*lead, "", *rest]


def scores_gate_line(result: ScoresComparison, alpha: float) -> str:
    """The release gate's verdict on scores in one line
    (:func:`calculator.report.gate.scores_gate_verdict`)."""
    return f"gate      {scores_gate_verdict(result, alpha)}"
