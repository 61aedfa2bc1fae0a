"""The question asked in the per-case page's logs and scores sections: the question, its margin
and (for scores) which scores are better, read into one :class:`calculator.chooser.Ask`; and a
refusal of the chooser shown in the page's own words (:data:`ui.question_words.PAGE_OPTION_NAMES`).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from calculator.chooser import Ask, OptionRefused
from calculator.report.refusals import refusal_text
from ui import question_words as words
from ui.decision_words import asked, takes_margin
from ui.params import PAGE_QUESTIONS
from ui.words import escape_markdown

__all__ = ["Asked", "question_inputs", "show_refusal"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Asked:
    """What the inputs hold: the question (a key of :data:`ui.params.PAGE_QUESTIONS`, as the
    Decision section asks it), the margin as typed (points of pass rate or the scores' units,
    read once the outcomes are known) and which scores are better."""

    question: str = "different"
    margin: float = 0.0
    better: str | None = None

    def ask(self, *, scores: bool) -> Ask:
        """The :class:`~calculator.chooser.Ask` of these inputs, for pass/fail outcomes (the
        margin in points) or for scores (in their own units).

        Examples
        --------
        >>> Asked(question="non-inferior", margin=2.0).ask(scores=False).margin
        0.02
        >>> Asked(question="better").ask(scores=True).side
        'greater'
        >>> Asked(question="superior", margin=2.0).ask(scores=True).margin
        2.0
        """
        question, margin = asked(self.question, self.margin, per=1.0 if scores else 100.0)
        if margin is not None and margin <= 0:  # no margin typed: the chooser says it needs one
            margin = None
        better = self.better
        if not scores and better == "higher":  # passing is better: what "higher" says
            better = None
        return Ask(question=question, margin=margin, better=better)


def question_inputs(key_prefix: str, *, better: bool, stated: bool = False) -> Asked:
    """The question, the margin and (with `better`) which scores are better, in one row; with
    `stated` the first choice of "better" is the logs' own word (lm-eval's results file), else
    higher."""
    columns = st.columns(3 if better else 2)
    question = columns[0].selectbox(
        words.QUESTION_LABEL,
        PAGE_QUESTIONS,
        key=f"{key_prefix}question",
        format_func=words.QUESTION_NAMES.get,
        help=words.QUESTION_HELP,
    )
    margin = columns[1].number_input(
        words.MARGIN_LABEL,
        min_value=0.0,
        value=0.0,
        key=f"{key_prefix}margin",
        help=words.MARGIN_HELP,
        disabled=not takes_margin(str(question)),  # never a margin typed and left unused
    )
    chosen = None
    if better:
        chosen = columns[2].selectbox(
            words.BETTER_LABEL,
            (words.BETTER_STATED, *words.BETTER_OPTIONS) if stated else words.BETTER_OPTIONS,
            key=f"{key_prefix}better",
            help=words.BETTER_HELP,
        )
        chosen = None if chosen == words.BETTER_STATED else chosen
    return Asked(question=str(question), margin=float(margin), better=chosen)


def show_refusal(refused: OptionRefused) -> None:
    """The chooser's refusal, in the page's words."""
    st.error(escape_markdown(refusal_text(refused, words.PAGE_OPTION_NAMES)))
