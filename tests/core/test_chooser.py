"""The one chooser (calculator/chooser.py): for each shape of data and each option asked, the
test chosen or the option refused. This table is the one place the rule is written down; every
surface (``table``, ``cases`` on files and logs, the per-case page's sections) goes through it.

Read a row as: data of this shape, asked this, gets this method (or has this option refused,
for this reason).
"""

from __future__ import annotations

import pytest

from calculator.chooser import Ask, OptionRefused, Shape, choose, reads_lower_is_better

ONE = Shape()  # a per-case file or a table of pass/fail outcomes
GROUPS = Shape(clusters=True)  # ... with a group column
TASKS = Shape(tasks=3)  # logs of three tasks, no repeats
REPEATS = Shape(repeats="equal")  # logs with repeats (epochs), the same in A and B
UNEVEN = Shape(repeats="unequal", uneven_task="t")  # A and B repeat questions unequally
TASKS_REPEATS = Shape(tasks=3, repeats="equal")
SCORES = Shape(outcome="scores", score_range=(0.0, 1.0), score_names=("f1",))
SCORE_GROUPS = Shape(outcome="scores", clusters=True, score_range=(0.0, 1.0))
SCORE_TASKS = Shape(outcome="scores", tasks=3, score_range=(0.0, 1.0))
SCORE_REPEATS = Shape(outcome="scores", repeats="equal", score_range=(0.0, 1.0))
SCORE_UNEVEN = Shape(outcome="scores", repeats="unequal", uneven_task="t", score_range=(0, 1))
WER = Shape(outcome="scores", score_names=("wer",), score_range=(0.0, 1.0))
FLAT = Shape(outcome="scores", score_range=(0.5, 0.5))

# (shape, ask, the method chosen, or (the option refused, the reason))
RULE = [
    # pass/fail: the exact test, the cluster-aware one, by question, by task
    (ONE, Ask(), "exact"),
    (ONE, Ask(alternative="greater"), "exact"),
    (ONE, Ask(alternative="greater", margin=0.02), "exact"),  # better by more than 2 points
    (ONE, Ask(margin=0.02, question="equivalent"), "exact"),
    (ONE, Ask(margin=0.02, gate=True), "exact"),
    (ONE, Ask(alternative="less", gate=True), "exact"),
    (GROUPS, Ask(margin=0.02, gate=True), "cluster"),
    (REPEATS, Ask(alternative="less", gate=True), "by-question"),
    (UNEVEN, Ask(margin=0.02, gate=True), "by-question"),
    (TASKS_REPEATS, Ask(margin=0.02), "stratified-by-question"),
    (TASKS_REPEATS, Ask(margin=0.02, gate=True), "stratified-by-question"),
    (TASKS, Ask(), "stratified"),
    # pass/fail refuses what only scores take
    (ONE, Ask(better="lower"), ("better", "pass-fail")),
    (GROUPS, Ask(better="higher"), ("better", "pass-fail")),
    (TASKS, Ask(resamples=1000), ("resamples", "pass-fail")),
    # the question itself, on any outcome
    (ONE, Ask(question="equivalent"), ("equivalence", "needs-margin")),
    (SCORES, Ask(question="equivalent"), ("equivalence", "needs-margin")),
    (ONE, Ask(question="non-inferior"), ("margin", "needs-margin")),
    (ONE, Ask(alternative="less", margin=0.02), ("margin", "with-less")),
    (SCORES, Ask(alternative="less", margin=0.02), ("margin", "with-less")),
    # the release gate on pass/fail
    (ONE, Ask(margin=0.105, gate=True), ("margin", "too-wide-for-gate")),
    (ONE, Ask(margin=0.105), "exact"),  # no gate: the margin is the question's own
    (ONE, Ask(margin=0.02, question="equivalent", gate=True), ("gate", "equivalence-or-greater")),
    (ONE, Ask(alternative="greater", gate=True), ("gate", "equivalence-or-greater")),
    (ONE, Ask(question="better", gate=True), ("gate", "equivalence-or-greater")),
    # several tasks without repeats: every question is answered over the suite's questions by
    # the task-stratified exact test, the summed table's (these rows were refusals, "answered
    # for one task at a time", until issue #32); the gate's own refusals still hold
    (TASKS, Ask(gate=True), "stratified"),
    (TASKS, Ask(alternative="greater"), "stratified"),
    (TASKS, Ask(question="better"), "stratified"),
    (TASKS, Ask(alternative="less"), "stratified"),
    (TASKS, Ask(margin=0.02), "stratified"),
    (TASKS, Ask(question="non-inferior", margin=0.02), "stratified"),
    (TASKS, Ask(margin=0.02, question="equivalent"), "stratified"),
    (TASKS, Ask(margin=0.02, gate=True), "stratified"),
    (TASKS, Ask(alternative="greater", gate=True), ("gate", "equivalence-or-greater")),
    (TASKS, Ask(margin=0.105, gate=True), ("margin", "too-wide-for-gate")),
    # scores: the mean difference, cluster-resampled, by question, by task
    (SCORES, Ask(), "scores"),
    (SCORES, Ask(margin=0.1, gate=True, resamples=2000), "scores"),
    (SCORES, Ask(alternative="less", better="lower"), "scores"),
    (SCORE_GROUPS, Ask(margin=0.1), "scores-cluster"),
    (SCORE_REPEATS, Ask(gate=True), "scores-by-question"),
    (SCORE_TASKS, Ask(alternative="greater", margin=None), "scores-stratified"),
    (SCORE_TASKS, Ask(margin=0.1, gate=True), "scores-stratified"),
    # scores refuse what their test cannot answer
    (SCORES, Ask(alternative="greater", margin=0.1), ("alternative", "greater-with-margin")),
    (SCORES, Ask(margin=0.1, question="equivalent"), ("equivalence", "scores")),
    (SCORES, Ask(margin=0.1, better="lower"), ("margin", "lower-is-better")),
    (SCORES, Ask(alternative="greater", gate=True), ("alternative", "gate-toward-better")),
    (
        WER,
        Ask(alternative="less", gate=True, better="lower"),
        ("alternative", "gate-toward-better"),
    ),
    (SCORES, Ask(alternative="greater", alpha=0.5), ("alpha", "one-sided-at-half")),
    (SCORES, Ask(alpha=0.5), "scores"),  # two-sided: the interval at 1 - alpha
    (WER, Ask(gate=True), ("better", "unstated-for-gate")),
    (WER, Ask(gate=True, better="higher"), "scores"),
    (WER, Ask(), "scores"),  # no gate: nothing turns on which way is better
    (FLAT, Ask(margin=0.1, gate=True), ("margin", "gate-no-range")),
    (SCORES, Ask(margin=0.6, gate=True), ("margin", "gate-over-half-range")),
    (SCORES, Ask(margin=0.5, gate=True), "scores"),  # half the range: at the limit
    (SCORE_UNEVEN, Ask(gate=True), ("gate", "unequal-repeats")),
    (SCORE_UNEVEN, Ask(), "scores-by-question"),
    # the anytime-valid gate (issue #34): one-sided, no margin, one sequence of independent pairs
    (ONE, Ask(gate=True, anytime=True), "exact"),
    (ONE, Ask(alternative="less", gate=True, anytime=True), "exact"),
    (ONE, Ask(anytime=True), ("anytime", "needs-gate")),
    (ONE, Ask(margin=0.02, gate=True, anytime=True), ("anytime", "with-margin")),
    (ONE, Ask(alternative="greater", gate=True, anytime=True), ("gate", "equivalence-or-greater")),
    (GROUPS, Ask(gate=True, anytime=True), ("anytime", "not-one-sequence")),
    (TASKS, Ask(gate=True, anytime=True), ("anytime", "not-one-sequence")),
    (REPEATS, Ask(gate=True, anytime=True), ("anytime", "not-one-sequence")),
    (SCORES, Ask(gate=True, anytime=True), ("anytime", "scores")),
]


@pytest.mark.parametrize(("shape", "ask", "outcome"), RULE)
def test_the_chooser_chooses_or_refuses_by_the_rule(shape, ask, outcome):
    if isinstance(outcome, str):
        assert choose(shape, ask).method == outcome
        return
    with pytest.raises(OptionRefused) as refused:
        choose(shape, ask)
    assert (refused.value.option, refused.value.reason) == outcome


@pytest.mark.parametrize(("shape", "ask", "outcome"), [r for r in RULE if isinstance(r[2], str)])
def test_a_choice_applies_every_option_asked(shape, ask, outcome):
    choice = choose(shape, ask)
    if outcome.startswith("scores"):
        options = choice.compare_options()
        assert options["margin"] == ask.margin and options["resamples"] == ask.resamples
        assert options["alternative"] == ask.side and options["better"] == (ask.better or "higher")
    else:
        assert choice.analyze_options() == ask.analyze_options()


def test_a_refusal_names_the_option_in_each_surfaces_words():
    from calculator.cli.question import OPTION_NAMES
    from calculator.report.refusals import refusal_text
    from ui.question_words import PAGE_OPTION_NAMES

    with pytest.raises(OptionRefused) as refused:
        choose(TASKS, Ask(question="better", gate=True))
    cli = refusal_text(refused.value, OPTION_NAMES)
    page = refusal_text(refused.value, PAGE_OPTION_NAMES)
    assert cli.startswith("--fail-if-worse gates on B being worse")
    assert cli.endswith("leave out --equivalence and --alternative greater")
    assert page.startswith("The release gate gates on B being worse")
    assert page.endswith("the question “better”")
    assert "--" not in page


@pytest.mark.parametrize(
    ("name", "lower"),
    [("wer", True), ("val_loss", True), ("max_toxicity", True), ("accuracy", False), ("f1", False)],
)
def test_a_score_name_reads_lower_is_better(name, lower):
    assert reads_lower_is_better(name) is lower
