"""A margin question's answer says what its 1 − 2α interval shows as what it is (issue 31).

(a) ``table 60 12 4 24 --margin 0.05`` printed "these cases show that B is worse than A, but not
by how much" beside the exact two-sided McNemar p = 0.077 of the same report: the 90% Tango
interval's lower end (+1.5 points for A − B) is a one-sided bound at α = 0.05, a finding the
two-sided test printed above does not make. Such findings are now said as one-sided results at
α, and a question that is not shown never says "these cases show".

(d) Tango's score test is a large-sample test: where B never beats A and trails it by exactly
the margin, its exact size at n = 300 and a 2-point margin is 6.02% at α = 0.05 (the plan's
"size if B never wins", statistics review 4's own sum: 6.02%). The result now carries that size
for its own n (``Decision.boundary_size``) and says it when it exceeds α.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from calculator import analyze
from calculator.cli import main
from calculator.noninferiority import margin_test
from calculator.planning import noninferiority_plan
from calculator.report.words import text


def _out(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("flags", "one_sided"),
    [
        (
            ["--margin", "0.05"],
            "Its lower end lies above 0: at one-sided α = 0.05, B is worse than A, by an amount "
            "these cases do not settle (a one-sided reading of the 90% interval; the two-sided "
            "test of no difference at α need not agree).",
        ),
        (
            ["--equivalence", "--margin", "0.05"],
            "It excludes 0: at one-sided α = 0.05, B's pass rate is lower than A's, by an amount "
            "these cases do not settle (a one-sided reading of the 90% interval;",
        ),
    ],
)
def test_a_one_sided_bound_is_not_worded_as_a_finding_the_two_sided_test_does_not_make(
    capsys, flags, one_sided
):
    out = _out(capsys, "table", "60", "12", "4", "24", *flags)
    assert "the exact two-sided McNemar test" in out and "gives p = 0.077" in out
    assert "these cases show" not in out.lower()
    assert one_sided in out
    sentence = json.loads(_out(capsys, "table", "60", "12", "4", "24", *flags, "--json"))[
        "decision"
    ]["sentence"]
    assert "these cases show" not in sentence.lower() and one_sided in sentence


def test_better_by_a_margin_says_its_one_sided_finding_as_one():
    # 60, 4, 12, 24: the 90% Tango interval for A - B is -15.0 to -1.5 points; two-sided p = 0.077.
    sentence = text(analyze(60, 4, 12, 24, question="better", margin=0.05).decision)
    assert "-15.0 to -1.5 points, lies below 0 but reaches above -5 points" in sentence
    assert "at one-sided α = 0.05, B is better than A, though not shown better by more" in sentence
    assert "these cases show" not in sentence.lower()


@settings(max_examples=200, deadline=None)
@given(
    cells=st.tuples(*[st.integers(0, 80)] * 4).filter(lambda t: sum(t) > 0),
    question=st.sampled_from(["non-inferior", "better", "equivalent"]),
    margin=st.sampled_from([0.01, 0.05, 0.2]),
)
def test_a_question_not_shown_never_says_these_cases_show(cells, question, margin):
    decision = analyze(*cells, question=question, margin=margin).decision
    if not decision.reject:
        assert "these cases show" not in text(decision).lower(), text(decision)


# ---------------------------------------------------------------------------------------------
# (d) the test's exact size at the margin's boundary, for the n observed
# ---------------------------------------------------------------------------------------------
def test_the_result_gives_the_exact_size_where_b_never_beats_a(capsys):
    decision = analyze(270, 6, 0, 24, margin=0.02).decision  # n = 300
    plan = noninferiority_plan(p10=0.02, p01=0.0, margin=0.02, n=300)
    assert decision.boundary_size == pytest.approx(0.0602, abs=5e-5)
    assert decision.boundary_size == plan.size_when_b_never_wins
    words = (
        "Tango's score test is a large-sample test and can reject more often than α: where B "
        "never beats A and trails it by exactly 2 points, it would show non-inferiority in 6.0% "
        "of samples of 300 cases, against the nominal α = 0.05."
    )
    assert words in text(decision)
    out = _out(capsys, "table", "270", "6", "0", "24", "--margin", "0.02")
    assert words in out
    data = json.loads(_out(capsys, "table", "270", "6", "0", "24", "--margin", "0.02", "--json"))
    assert data["decision"]["boundary_size"] == pytest.approx(0.0602, abs=5e-5)


def _size_by_enumeration(n: int, margin: float, hypothesis: str) -> float:
    """P(reject) summed over every table the test can see at the boundary point where one
    system never beats the other."""
    if hypothesis == "non-inferiority":  # p10 = margin, p01 = 0: b ~ Bin(n, margin), c = 0
        tables = ((n - k, k, 0, 0) for k in range(n + 1))
    else:  # p10 = 0, p01 = margin: c ~ Bin(n, margin), b = 0
        tables = ((n - k, 0, k, 0) for k in range(n + 1))
    return sum(
        stats.binom.pmf(k, n, margin)
        for k, table in enumerate(tables)
        if margin_test(*table, margin=margin, hypothesis=hypothesis).reject
    )


@pytest.mark.parametrize(
    ("question", "hypothesis"), [("non-inferior", "non-inferiority"), ("better", "superiority")]
)
@pytest.mark.parametrize(("n", "margin"), [(60, 0.1), (105, 0.05), (300, 0.02)])
def test_the_boundary_size_is_the_enumerated_one(question, hypothesis, n, margin):
    decision = analyze(n, 0, 0, 0, question=question, margin=margin).decision
    assert decision.boundary_size == pytest.approx(
        _size_by_enumeration(n, margin, hypothesis), abs=1e-12
    )


def test_the_size_is_said_only_above_alpha_and_left_out_where_dear_or_not_defined():
    # n = 100 at a 5-point margin: 3.7%, within alpha: not said, still in the numbers.
    decision = analyze(60, 12, 4, 24, margin=0.05).decision
    assert decision.boundary_size == pytest.approx(0.0371, abs=5e-5)
    assert "large-sample test" not in text(decision)
    # A hundred million cases: the sum would span 50,000 counts, past the decision's time budget;
    # left out. A million are summed (a window of about 5,000).
    assert analyze(10**8, 10, 10, 0, margin=0.05).decision.boundary_size is None
    assert analyze(10**6, 10, 10, 0, margin=0.05).decision.boundary_size == pytest.approx(
        0.05, abs=2e-4
    )
    assert analyze(60, 12, 4, 24, margin=0.05, question="equivalent").decision.boundary_size is None
    assert analyze(60, 12, 4, 24).decision.boundary_size is None
