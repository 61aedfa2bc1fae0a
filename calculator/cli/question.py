"""The release question on the command line: ``--alternative``, ``--margin``, ``--equivalence``.

Shared by ``table`` and ``cases``: the options, their translation into :func:`calculator.analyze`
arguments, and the lines that print the answer.
"""

from __future__ import annotations

import argparse
import math

from calculator._validation import shown
from calculator.analysis import Analysis
from calculator.chooser import Ask, OptionRefused
from calculator.cli.arguments import UsageError, finite_number, level
from calculator.mcnemar import ALTERNATIVES
from calculator.report.refusals import refusal_text
from calculator.report.words import text

__all__ = [
    "MarginOption",
    "OPTION_NAMES",
    "PassRateMargin",
    "add_question_arguments",
    "alpha_value",
    "analysis_text",
    "margin_value",
    "question_arguments",
    "refusal_words",
    "score_margin_value",
]


def add_question_arguments(
    parser: argparse.ArgumentParser, *, equivalence: bool = True, scores: bool = False
) -> None:
    """Add ``--alternative``, ``--margin`` and (with `equivalence`) ``--equivalence``.

    With `scores` (``cases``, whose outcomes may be scores) ``--margin`` is read by
    :class:`MarginOption`: as a pass rate's margin, with its text kept for scores.
    """
    parser.add_argument(
        "--alternative",
        choices=ALTERNATIVES,
        default="two-sided",
        help="greater: is B's pass rate higher than A's? less: lower? (two-sided). Fix it "
        "before seeing the data: a one-sided test chosen after seeing which way the data lean "
        "halves the p-value and claims more than the data show",
    )
    margin_help = (
        "non-inferiority margin: a share of pass rate (0.01 = one point) or points with "
        "their unit (1pt, 1%%), at most 50 points: is B no worse than A by more than DELTA? "
        "(Tango's score test, a large-sample test that can reject more often than alpha where "
        "B never beats A; with --alternative greater: is B better by more than DELTA?)"
    )
    if scores:
        parser.add_argument(
            "--margin",
            action=MarginOption,
            default=None,
            metavar="DELTA",
            help=margin_help + ". On scores (compared by their mean) DELTA is a plain positive "
            "number in the scores' own units, without a unit (2 for 2 BLEU on a 0-100 scale); "
            "with --fail-if-worse at most half the range the scores span; it asks "
            "non-inferiority only, and refuses --alternative greater",
        )
    else:
        parser.add_argument(
            "--margin", action=PassRateMargin, default=None, metavar="DELTA", help=margin_help
        )
    parser.set_defaults(margin_text=None, margin_refusal=None)
    if equivalence:
        parser.add_argument(
            "--equivalence",
            action="store_true",
            help="with --margin: are A and B within +/- DELTA of each other? (two one-sided tests)",
        )


#: Largest margin any question takes (50 points), as on the page.
MARGIN_LIMIT = 0.50
_POINT_UNITS = ("points", "point", "pts", "pt", "pp", "%")


def margin_value(text: str) -> float:
    """A margin typed on the command line, as a share of pass rate.

    A bare number is a share, as always (0.01 is one point); a number with a unit ("1pt",
    "1 point", "1pp", "1%") is in points, the page's unit. Refused: anything not in (0, 1) as
    a share, and margins above 50 points.

    Examples
    --------
    >>> margin_value("0.02"), margin_value("2pt"), margin_value("2.5 %")
    (0.02, 0.02, 0.025)
    """
    stripped = text.strip().lower()
    unit = next((u for u in _POINT_UNITS if stripped.endswith(u)), None)
    if unit is not None:
        try:
            value = finite_number("--margin")(stripped[: -len(unit)].strip()) / 100.0
        except argparse.ArgumentTypeError:
            finite_number("--margin")(text)  # refused with the whole text in the message
            raise
        if not 0.0 < value < 1.0:
            raise argparse.ArgumentTypeError(
                f"--margin must be more than 0 and less than 100 points, but got {text!r}"
            )
    else:
        value = level("--margin")(text)
    if value > MARGIN_LIMIT:
        raise argparse.ArgumentTypeError(
            f"--margin {text.strip()} is {_points(value)} points of pass rate, above the largest "
            f"margin of {_points(MARGIN_LIMIT)} points" + _share_hint(text)
        )
    return value


def _points(share: float) -> str:
    """A share in points, with every digit typed (0.1000001 is 10.00001 points, never 10)."""
    return f"{100 * share:.10g}"


def _share_hint(text: str) -> str:
    """For a bare number, how points are written; nothing for a margin typed in points."""
    stripped = text.strip()
    if any(stripped.lower().endswith(unit) for unit in _POINT_UNITS):
        return ""
    return (
        f"; a bare number is a share (0.01 is one point): for {stripped} points write "
        f"--margin {stripped}pt"
    )


class MarginOption(argparse.Action):
    """``--margin`` of ``cases``, whose outcomes may turn out to be scores once read.

    Read as a pass rate's margin (:func:`margin_value`) as for ``table``; its text is kept in
    ``margin_text`` for scores (:func:`score_margin_value`, in the scores' own units), and a
    refusal as a pass rate's margin is kept in ``margin_refusal``, word for word what argparse
    would have said, for :func:`question_arguments` to raise when the outcomes are pass/fail.
    """

    hold = True  # a refusal waits until the outcomes are known to be pass/fail

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        text = str(values)
        namespace.margin_text = text
        try:
            namespace.margin = margin_value(text)
            namespace.margin_refusal = None
        except argparse.ArgumentTypeError as error:
            if not self.hold:
                raise argparse.ArgumentError(self, str(error)) from None
            namespace.margin = None
            name = "/".join(self.option_strings)
            namespace.margin_refusal = f"{parser.prog}: argument {name}: {error}"


class PassRateMargin(MarginOption):
    """``--margin`` of ``table``: always a pass rate's, so refused at once, its text kept."""

    hold = False


def score_margin_value(text: str) -> float:
    """A margin on scores typed on the command line: a plain positive number in the scores'
    own units (2 is 2 BLEU on a 0-100 scale, 0.02 is 0.02 of an F1).

    Points and percent (1pt, 1%) are a pass rate's units and mean nothing for scores: a margin
    with one is refused rather than read as a share of 1.

    Examples
    --------
    >>> score_margin_value("2"), score_margin_value("0.05")
    (2.0, 0.05)
    >>> score_margin_value("2pt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    calculator.cli.arguments.UsageError: --margin '2pt' has a unit, but on scores the margin ...
    """
    stripped = text.strip().lower()
    if any(stripped.endswith(unit) for unit in _POINT_UNITS):
        raise UsageError(
            f"--margin {shown(text)} has a unit, but on scores the margin is a plain number in "
            "the scores' own units (--margin 2 for 2 BLEU on a 0-100 scale); pt, %, points are "
            "for pass rates"
        )
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise UsageError(
            "--margin must be a positive finite number in the scores' own units, but got "
            f"{shown(text)}"
        )
    return value


def alpha_value(text: str) -> float:
    """A significance level from the command line: a number above 0 and below 0.5 (a test at
    0.5 or more rejects at least as often as it does not when nothing differs).

    Examples
    --------
    >>> alpha_value("0.05")
    0.05
    """
    value = finite_number("--alpha")(text)
    if not 0.0 < value < 0.5:
        raise argparse.ArgumentTypeError(
            f"--alpha must be a number strictly between 0 and 0.5, but got {text!r}"
        )
    return value


def question_arguments(args: argparse.Namespace) -> Ask:
    """Everything asked of pass/fail outcomes (:class:`calculator.chooser.Ask`): ``--alpha``,
    ``--alternative``, ``--margin``, ``--equivalence``, ``--fail-if-worse`` and, refused for
    pass/fail by the chooser, ``--better`` and ``--resamples``.

    Raises the refusal :class:`MarginOption` held back for a ``--margin`` that is no pass
    rate's margin. An option the test cannot answer is refused by
    :func:`calculator.chooser.choose`, in the words of :func:`refusal_words`.
    """
    refusal = getattr(args, "margin_refusal", None)
    if refusal is not None:
        raise UsageError(refusal)
    return Ask(
        alpha=args.alpha,
        alternative=args.alternative,
        margin=args.margin,
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


#: The command line's names for the options the chooser refuses
#: (:func:`calculator.report.refusals.refusal_text`).
OPTION_NAMES = {
    "alternative": "--alternative",
    "alternative greater": "--alternative greater",
    "alternative less": "--alternative less",
    "margin": "--margin",
    "margin DELTA": "--margin DELTA (0.01 is one percentage point)",
    "DELTA": "DELTA",
    "equivalence": "--equivalence",
    "gate": "--fail-if-worse",
    "better": "--better",
    "better lower": "--better lower",
    "better higher": "--better higher",
    "resamples": "--resamples",
    "alpha": "--alpha",
    "anytime": "--anytime",
}


def refusal_words(refused: OptionRefused, args: argparse.Namespace) -> str:
    """A refused option in the command line's words, a margin quoted as typed.

    Examples
    --------
    >>> from calculator.chooser import Ask, Shape, choose
    >>> args = argparse.Namespace(margin_text="10.5pt")
    >>> try:
    ...     choose(Shape(), Ask(margin=0.105, gate=True))
    ... except OptionRefused as error:
    ...     print(refusal_words(error, args))  # doctest: +NORMALIZE_WHITESPACE
    --margin 10.5pt lets the gate pass B up to 10.5 points worse than A, more than the 10
    points a release gate takes
    """
    names = dict(OPTION_NAMES)
    if refused.reason == "too-wide-for-gate":
        typed = getattr(args, "margin_text", None)
        typed = typed.strip() if typed else f"{refused.ask.margin:.10g}"
        names["margin typed"] = f"--margin {typed}"
        names["margin hint"] = _share_hint(typed)
    return refusal_text(refused, names)


def analysis_text(analysis: Analysis) -> list[str]:
    """The paste-ready report for the text output, a line per paragraph (each escaped on its
    own, so a paragraph break never prints as a literal "\\n\\n");
    :func:`calculator.report.decision_lines.decision_lines` follows it and leaves out the
    answer this report already ends with.

    Examples
    --------
    >>> from calculator import analyze
    >>> analysis_text(analyze(60, 15, 5, 20, margin=0.02))[2][:40]
    'Question: non-inferior, margin 2 points:'
    """
    return text(analysis).split("\n")
