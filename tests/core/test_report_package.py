"""Numbers and words apart: the statistics compute numbers only, and every sentence of a result
is built by the one report package (`calculator.report`), which the page, the command line and
the JSON all quote."""

from __future__ import annotations

import ast
import dataclasses
import json
import pathlib

import pytest

import calculator
from calculator import analyze, decide
from calculator.cli import main
from calculator.planning import noninferiority_plan, plan
from calculator.report import analysis as analysis_words
from calculator.report import decision as decision_words
from calculator.report import planning as planning_words
from calculator.report import scores as scores_words
from calculator.report import words as result_words
from calculator.report.decision import named_test
from calculator.report.words import payload, reconciliation_of, text
from calculator.scores import compare_scores
from calculator.table import PairedTable

REPORT = pathlib.Path(calculator.__file__).parent / "report"
SCORES_A = [0.9, 0.8, 0.75, 1.0, 0.6, 0.7]
SCORES_B = [0.7, 0.8, 0.5, 0.9, 0.4, 0.65]


def _refuse(*_: object, **__: object) -> str:
    raise AssertionError("words were built while computing the numbers")


def test_computing_builds_no_words(monkeypatch: pytest.MonkeyPatch) -> None:
    # The word builders are replaced by a function that fails: computing every result must not
    # call them; only asking calculator.report.words for the words does.
    for module, name in [
        (analysis_words, "analysis_report"),
        (decision_words, "decision_sentence"),
        (scores_words, "scores_report"),
        (scores_words, "margin_sentence"),
        (planning_words, "power_plan_sentence"),
        (planning_words, "noninferiority_plan_sentence"),
        (result_words, "analysis_report"),
        (result_words, "decision_sentence"),
    ]:
        monkeypatch.setattr(module, name, _refuse)
    analysis = analyze(60, 15, 5, 20, margin=0.02, gates=3)
    assert analysis.decision.question == "non-inferior"
    scores = compare_scores(SCORES_A, SCORES_B, margin=0.1)
    assert scores.margin is not None and scores.margin.outcome in ("not-shown", "worse-unsettled")
    assert plan(p10=0.1, p01=0.05).n > 0
    assert noninferiority_plan(p10=0.05, p01=0.05, margin=0.05).n > 0
    json.dumps(analysis.to_dict(), allow_nan=False)  # the numbers' JSON needs no words
    json.dumps(scores.to_dict(), allow_nan=False)
    with pytest.raises(AssertionError, match="words were built"):
        text(analysis)


@pytest.mark.parametrize(
    ("result_type", "words"),
    [
        (calculator.Analysis, {"report", "reconciliation"}),
        (calculator.Decision, {"sentence"}),
        (calculator.scores.ScoresComparison, {"report"}),
        (calculator.scores.MarginDecision, {"sentence"}),
        (calculator.planning.PowerPlan, {"sentence"}),
        (calculator.planning.NonInferiorityPlan, {"sentence"}),
    ],
)
def test_results_hold_no_sentences(result_type: type, words: set[str]) -> None:
    # Neither a field nor a property: the words are reached through calculator.report.words.
    fields = {field.name for field in dataclasses.fields(result_type)}
    assert not fields & words
    for name in words:
        assert not hasattr(result_type, name), name


@pytest.mark.parametrize(
    ("table", "options"),
    [
        ((60, 15, 5, 20), {}),
        ((70, 4, 12, 14), {}),  # the interval and the exact test disagree: a reconciliation
        ((60, 5, 15, 20), {"alternative": "greater"}),
        ((60, 15, 5, 20), {"margin": 0.02}),
        ((0, 3, 1, 0), {"gates": 4, "framing": "correct"}),
    ],
)
def test_the_words_are_the_report_packages(table: tuple[int, ...], options: dict) -> None:
    analysis = analyze(*table, **options)
    assert text(analysis) == analysis_words.analysis_report(analysis)
    assert text(analysis.decision) == decision_words.decision_sentence(analysis.decision)
    data = payload(analysis)
    assert data["report"] == text(analysis)
    assert data["decision"]["sentence"] == text(analysis.decision)
    assert data["reconciliation"] == reconciliation_of(analysis)
    numbers = analysis.to_dict()
    assert not {"report", "reconciliation"} & set(numbers)
    assert "sentence" not in numbers["decision"]
    assert {key: value for key, value in data.items() if key in numbers} | {
        "decision": numbers["decision"]
    } == numbers | {"decision": numbers["decision"]}
    if table == (70, 4, 12, 14):
        assert reconciliation_of(analysis) is not None


def test_the_command_line_prints_the_same_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "60", "15", "5", "20", "--margin", "0.02", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    analysis = analyze(60, 15, 5, 20, margin=0.02)
    assert printed["report"] == analysis_words.analysis_report(analysis)
    assert printed["decision"]["sentence"] == decision_words.decision_sentence(analysis.decision)


@pytest.mark.parametrize(
    "options",
    [
        ["--margin", "0.02"],
        ["--alternative", "greater"],
        ["--margin", "0.05", "--equivalence", "yes"],
        [],
    ],
)
def test_the_pages_download_reports_what_the_command_line_does(
    options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # One report for one analysis: the page's download (ui.export) wrote a report naming the
    # question where the command line's JSON wrote another without it (before the words moved
    # to calculator.report.words).
    from ui.export import export_dict, report_text

    flags = [option for option in options if option != "yes"]
    assert main(["table", "60", "15", "5", "20", *flags, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    asked = dict(zip(options[::2], options[1::2], strict=True))
    analysis = analyze(
        60,
        15,
        5,
        20,
        margin=float(asked["--margin"]) if "--margin" in asked else None,
        alternative=asked.get("--alternative", "two-sided"),
        question="equivalent" if "--equivalence" in asked else None,
    )
    assert report_text(analysis) == printed["report"]
    assert export_dict(analysis)["report"] == printed["report"]
    assert export_dict(analysis)["decision"] == printed["decision"]


def test_decide_words_its_own_context() -> None:
    # decide() alone, without analyze(): the sentence takes the names and framing it was given.
    table = PairedTable(60, 15, 5, 20)
    difference = calculator.difference_interval(60, 15, 5, 20)
    decision = decide(table, difference, margin=0.02, names=("old", "new"), framing="correct")
    assert decision.names == ("old", "new") and decision.table == table
    assert text(decision).startswith("new is not shown to be non-inferior to old")
    assert "the error-rate difference old − new" in text(decision)
    assert "sentence" in payload(decision) and "sentence" not in decision.to_dict()
    assert "names" not in payload(decision)


def test_scores_json_keys_are_unchanged() -> None:
    margin = compare_scores(SCORES_A, SCORES_B, margin=0.1).margin
    assert margin is not None
    assert list(payload(margin)) == [
        "margin",
        "outcome",
        "non_inferior",
        "estimate",
        "low",
        "high",
        "confidence_level",
        "pvalue",
        "alpha",
        "of",
        "sentence",
    ]


def _imports(path: pathlib.Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


@pytest.mark.parametrize("path", sorted(REPORT.glob("*.py")), ids=lambda p: p.name)
def test_the_report_package_computes_no_statistic(path: pathlib.Path) -> None:
    # Words only: no numerical library, no command line, no page; a sentence that needs a
    # statistic takes it from the result it words.
    for module in _imports(path):
        top = module.split(".")[0]
        assert top not in {"numpy", "scipy", "pandas", "streamlit", "altair", "ui"}, module
        assert not module.startswith("calculator.cli"), module


def test_a_cluster_decision_held_at_the_mid_p_says_mid_p() -> None:
    # 4 cases only A passes and 1 only B, in 2 clusters: the cluster-robust p falls below the
    # binomial test's, so the decision is held at the binomial p, and names the one it is.
    from calculator.clustered import Clusters

    a_pass, b_pass = [1] * 4 + [0] + [1] * 4, [0] * 4 + [1] + [1] * 4
    clusters = Clusters.from_outcomes(a_pass, b_pass, [f"d{i % 2}" for i in range(9)])
    decision = analyze(4, 4, 1, 0, convention="mid-p", clusters=clusters).decision
    assert named_test(decision) == "cluster-robust score test, held at the McNemar mid-p test's p"
    binomial = calculator.mcnemar_exact(4, 1, convention="mid-p")
    assert decision.pvalue == pytest.approx(binomial.pvalue, rel=1e-12)
    # With the exact convention the larger exact p is the sign-flip test's of the clusters'
    # leans (1 and 2: both signs alike in 2 of the 4 patterns, p = 1/2), above the exact
    # McNemar test's 0.375 (statistics review 4, A1: held at the exact test it approximates).
    decision = analyze(4, 4, 1, 0, clusters=clusters).decision
    assert named_test(decision) == "cluster-robust score test, held at the exact sign-flip test's p"
    assert decision.pvalue == pytest.approx(0.5, rel=1e-12)
    assert calculator.mcnemar_exact(4, 1).pvalue == pytest.approx(0.375)


def test_a_decision_holds_codes_and_the_words_name_its_test() -> None:
    # The page and the gate parsed the English name ("mid-p" in decision.test, .replace(",
    # doubled tail", "")); the decision now holds codes and report.decision.named_test words them.
    exact, mid_p = analyze(70, 4, 12, 14).decision, analyze(70, 4, 12, 14, convention="mid-p")
    assert (exact.method, exact.held_at) == ("exact", None)
    assert mid_p.decision.method == "mid-p" and "test" not in mid_p.decision.to_dict()
    assert payload(mid_p)["decision"]["test"] == "two-sided McNemar mid-p test"
    margin = analyze(60, 5, 15, 20, margin=0.02).decision
    equivalent = analyze(60, 5, 15, 20, margin=0.05, question="equivalent").decision
    assert (margin.method, equivalent.method) == ("tango", "tost")
    assert named_test(equivalent) == "two one-sided Tango score tests"
    assert set(calculator.decision.METHODS) >= {exact.method, margin.method, equivalent.method}
