"""One data model and one entry: every reader's product becomes a PairedData, and the
surfaces compare it through :func:`calculator.workflow.compare` alone.

The numbers are the 40 cases of tests/pages/test_one_data_every_shape.py (20 both pass, 12
only A, 3 only B, 5 both fail), written in every shape that carries them; the reference is the
typed table's exact McNemar test, 3 of 15 discordant pairs going B's way: the two-sided p is
2 * P(X <= 3) for X ~ Binomial(15, 1/2) = 2 * (1 + 15 + 105 + 455) / 2**15 = 1152 / 32768
(an exact enumeration).
"""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest
import shape_writers as writers
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.cases import load_cases
from calculator.chooser import Ask, Shape
from calculator.logs import read_log
from calculator.logs.long_file import LongColumns, read_long_file
from calculator.paired_data import PairedData, of_cases, of_logs, of_table
from calculator.workflow import Comparison, LogChoice, compare, pair_two_logs

ROOT = Path(__file__).resolve().parents[2]
CELLS = (20, 12, 3, 5)
OUTCOMES = [(1, 1)] * CELLS[0] + [(1, 0)] * CELLS[1] + [(0, 1)] * CELLS[2] + [(0, 0)] * CELLS[3]
EXACT_P = float(Fraction(2 * (1 + 15 + 105 + 455), 2**15))  # enumeration, module docstring


def _per_case(folder: Path) -> PairedData:
    path = writers.per_case_file(OUTCOMES)(folder)[0]
    return of_cases(load_cases(path, id_column="id", a_column="A", b_column="B"))


def _long(folder: Path) -> PairedData:
    path = writers.long_file(OUTCOMES)(folder)[0]
    columns = LongColumns(system="system", id="id", outcome="outcome")
    tables = {table.system: table for table in read_long_file(path, columns)}
    return of_logs(pair_two_logs(tables["A"], tables["B"], LogChoice(metric="outcome")))


def _logs(harness: str):  # noqa: ANN202
    def read(folder: Path) -> PairedData:
        given = writers.two_logs(writers.log_shapes(OUTCOMES)[harness])(folder)
        return of_logs(pair_two_logs(*(read_log(path) for path in given)))

    return read


READERS = {
    "typed table": lambda folder: of_table(*CELLS),
    "per-case file": _per_case,
    "long file": _long,
    "lm-eval": _logs("lm-eval"),
    "inspect": _logs("inspect"),
    "helm": _logs("helm"),
}


@pytest.mark.parametrize("reader", READERS)
def test_every_reader_gives_the_one_model_and_one_answer(tmp_path, reader):
    data = READERS[reader](tmp_path)
    assert isinstance(data, PairedData)
    assert (data.table.a, data.table.b, data.table.c, data.table.d) == CELLS
    assert data.outcome == "pass/fail" and data.repeats == "none" and data.clusters is None
    assert data.shape == Shape()  # one task, no repeats, no clusters: nothing else to ask
    assert len(data.tasks) == (0 if reader == "typed table" else 1)
    result = compare(data, Ask())
    assert isinstance(result, Comparison) and result.method == "exact"
    assert result.analysis.decision.pvalue == pytest.approx(EXACT_P, rel=1e-12)
    assert (result.logs is None) == (data.ledger != "logs")


@pytest.mark.parametrize("reader", ["per-case file", "lm-eval"])
def test_an_option_the_test_cannot_answer_is_refused_for_every_reader(tmp_path, reader):
    from calculator.chooser import OptionRefused

    data = READERS[reader](tmp_path)
    with pytest.raises(OptionRefused) as refused:
        compare(data, Ask(resamples=1000))
    assert refused.value.option == "resamples"


def test_a_group_column_is_declared_and_chooses_the_cluster_test(tmp_path):
    rows = "".join(f"q{i},g{i % 8},{a},{b}\n" for i, (a, b) in enumerate(OUTCOMES))
    (tmp_path / "g.csv").write_text("id,g,A,B\n" + rows)
    cases = load_cases(
        tmp_path / "g.csv", id_column="id", a_column="A", b_column="B", group_column="g"
    )
    data = of_cases(cases)
    assert data.clusters == "g" and data.shape == Shape(clusters=True)
    result = compare(data, Ask())
    assert result.method == "cluster" and result.cluster is not None
    assert result.cluster.clusters == 8


def test_scores_of_a_per_case_file_declare_their_names_and_range(tmp_path):
    rows = "".join(f"q{i},{0.1 * i},{0.1 * i + 0.05}\n" for i in range(10))
    (tmp_path / "s.csv").write_text("id,old,new\n" + rows)
    from calculator.cases import read_case_file
    from calculator.cases.scores_input import load_score_cases

    case_file = read_case_file(tmp_path / "s.csv")
    data = of_cases(load_score_cases(case_file, None, ("old", "new"), id_column="id"), scores=True)
    assert data.shape.outcome == "scores" and data.shape.score_names == ("old", "new")
    assert data.shape.score_range == pytest.approx((0.0, 0.95))
    result = compare(data, Ask())
    assert result.method == "scores" and result.report is result.scores
    assert result.scores.statistic == pytest.approx(-0.05)  # A − B: B scores 0.05 higher


# ---------------------------------------------------------------------------------------------
# The rule, read from the source
# ---------------------------------------------------------------------------------------------
#: The workflow's steps: a surface that calls one orchestrates a comparison of its own.
STEPS = {
    "analyze",
    "analyze_logs",
    "analyze_log_scores",
    "compare_case_scores",
    "compare_scores",
    "clustered_mcnemar",
    "anytime_gate",
    "choose",
}
#: The two-system surfaces: the command line's table and cases, the page's typed table and its
#: per-case, scores, logs and long-file sections.
SURFACES = [
    "calculator/cli/table.py",
    "calculator/cli/cases.py",
    "calculator/cli/cases_logs.py",
    "calculator/cli/cases_long.py",
    "calculator/cli/cases_scores.py",
    "ui/widgets/cases_sections.py",
    "ui/widgets/cases_scores.py",
    "ui/widgets/cases_logs.py",
    "ui/widgets/cases_long.py",
    "ui/widgets/cache.py",  # the calculator page's typed table
]


def _called_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
    return names


@pytest.mark.parametrize("surface", SURFACES)
def test_the_surfaces_call_the_workflow_and_none_of_its_steps(surface):
    called = _called_names(ROOT / surface)
    assert not called & STEPS, f"{surface} calls {sorted(called & STEPS)}"


def test_the_chooser_asks_no_object_what_it_is():
    # The shape is declared by the data model; the chooser reads a Shape and nothing else.
    called = _called_names(ROOT / "calculator/chooser.py")
    assert not called & {"hasattr", "getattr", "isinstance"}


def test_test_options_where_they_do_not_apply_are_refused_not_dropped(tmp_path):
    from calculator.errors import CalculatorError
    from calculator.workflow import TestOptions

    data = READERS["lm-eval"](tmp_path)
    assert compare(data, Ask(), TestOptions()).method == "exact"  # the defaults ask nothing
    with pytest.raises(CalculatorError, match="apply to one pass/fail table"):
        compare(data, Ask(), TestOptions(level=0.9))
    table = compare(of_table(*CELLS), Ask(), TestOptions(level=0.9))
    assert table.analysis.difference.level == 0.9


# ---------------------------------------------------------------------------------------------
# The invariant: the model's source never changes the answer
# ---------------------------------------------------------------------------------------------
PAIRS = st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60)
QUESTIONS = st.sampled_from(
    [
        Ask(),
        Ask(alternative="greater"),
        Ask(alternative="less"),
        Ask(margin=0.05),
        Ask(margin=0.1, question="equivalent"),
        Ask(gate=True),
        Ask(gate=True, margin=0.02),
    ]
)


@settings(max_examples=30, deadline=None)
@given(pairs=PAIRS, ask=QUESTIONS)
def test_a_per_case_file_and_its_long_file_answer_as_their_typed_table(pairs, ask):
    # Three paths through compare: the typed table's analysis, the per-case file's (its cells
    # counted by the loader), and the long file's (paired as logs, analysed task by task and
    # pooled by analyze_logs): one answer.
    rows = "".join(f"q{i},{int(a)},{int(b)}\n" for i, (a, b) in enumerate(pairs))
    cases = load_cases(("id,A,B\n" + rows).encode(), id_column="id", a_column="A", b_column="B")
    long_rows = "".join(
        f"q{i},{side},{int(pair[s])}\n"
        for i, pair in enumerate(pairs)
        for s, side in enumerate("AB")
    )
    columns = LongColumns(system="system", id="id", outcome="outcome", guess=False)
    tables = {
        t.system: t
        for t in read_long_file(("id,system,outcome\n" + long_rows).encode(), columns, name="l.csv")
    }
    cells = (
        sum(a and b for a, b in pairs),
        sum(a and not b for a, b in pairs),
        sum(b and not a for a, b in pairs),
        sum(not a and not b for a, b in pairs),
    )
    typed = compare(of_table(*cells), ask)
    paired = pair_two_logs(tables["A"], tables["B"], LogChoice(metric="outcome"))
    for data in (of_cases(cases), of_logs(paired)):
        answer = compare(data, ask)
        assert answer.data.table == typed.data.table
        assert answer.method == typed.method
        assert answer.analysis.decision == typed.analysis.decision
        assert answer.analysis.difference == typed.analysis.difference
