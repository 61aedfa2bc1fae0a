"""The Decision section's caches (:mod:`ui.widgets.cache`): the cached answer is the answer of
:func:`calculator.decide`, and the chart spec put together from a cached layout, its x domain
computed from its data, is the spec Altair builds for that decision (``chart.to_dict()``), for
every question, framing and size. (The expression is checked as Vega evaluates it in
tests/browser/test_decision_live.py.)

The reference is the uncached path itself (``decide`` and
:func:`ui.decision_chart.decision_chart`), whose figures and drawing are checked in
tests/core/test_decision.py and tests/pages/test_decision_page.py.
"""

import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import analyze, decide
from ui.decision_chart import decision_chart
from ui.widgets import cache
from ui.words import Wording

QUESTIONS = [
    ("different", None),
    ("better", None),
    ("worse", None),
    ("non-inferior", 0.05),
    ("non-inferior", 0.30),
    ("equivalent", 0.02),
    ("equivalent", 0.10),
]
WORDINGS = [Wording("A", "B", "pass"), Wording("Old model", "New [model]", "correct")]
tables = st.tuples(*(st.integers(0, 400) for _ in range(4))).filter(lambda t: sum(t) > 0)


def answer(table: tuple[int, int, int, int], question: str, margin: float | None, *, cached: bool):
    analysis = analyze(*table)
    call = cache.cached_decision if cached else decide
    return call(
        analysis.table,
        analysis.difference,
        question=question,
        margin=margin,
        alpha=0.05,
        convention=analysis.exact.convention,
        names=analysis.names,
        framing=analysis.framing,
    )


def canonical(spec: dict[str, object]) -> dict[str, object]:
    """The spec with its dataset names replaced by their order of content (names are hashes of
    the rows, and Streamlit renames the datasets anyway)."""
    datasets = spec["datasets"]
    order = sorted(datasets, key=lambda name: json.dumps(datasets[name], sort_keys=True))
    text = json.dumps(spec, sort_keys=True)
    for index, name in enumerate(order):
        text = text.replace(name, f"dataset{index}")
    return json.loads(text)


def evaluate(expression: str, datasets: dict[str, list[dict[str, object]]]) -> float:
    """A Vega expression of the form the page writes (data, extent, pluck, abs, max), which is
    also Python, evaluated on the datasets the way Vega's functions define them."""
    rows = {name: [SimpleNamespace(**row) for row in values] for name, values in datasets.items()}
    functions = {
        "data": rows.__getitem__,
        "pluck": lambda array, field: [getattr(row, field) for row in array],
        "extent": lambda values: [min(values), max(values)],
        "abs": abs,
        "max": max,
    }
    return eval(expression, {"__builtins__": {}}, functions)  # noqa: S307 (our own strings)


def with_numbers(node: object, datasets: dict[str, list[dict[str, object]]]) -> object:
    """The spec with each expression domain (domainMin, domainMax) replaced by the numbers."""
    if isinstance(node, dict):
        if "domainMin" in node:
            low, high = (evaluate(node[k]["expr"], datasets) for k in ("domainMin", "domainMax"))
            rest = {k: v for k, v in node.items() if k not in ("domainMin", "domainMax")}
            node = {**rest, "domain": [low, high]}
        return {key: with_numbers(value, datasets) for key, value in node.items()}
    if isinstance(node, list):
        return [with_numbers(value, datasets) for value in node]
    return node


def altair_spec(decision, wording: Wording, large: bool) -> dict[str, object]:
    spec = decision_chart(decision, wording, large=large).to_dict(validate=False)
    spec.pop("config", None)  # as every spec the page sends (see ui.widgets.cache)
    return spec


def layout(spec: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in spec.items() if key != "datasets"}


@pytest.mark.parametrize(("question", "margin"), QUESTIONS)
def test_cached_decision_is_the_decision(question: str, margin: float | None) -> None:
    for table in [(60, 15, 5, 20), (5, 3, 9, 1), (100, 40, 2, 3), (10, 0, 0, 10)]:
        assert answer(table, question, margin, cached=True) == answer(
            table, question, margin, cached=False
        )


def test_cached_decision_raises_what_decide_raises() -> None:
    with pytest.raises(ValueError, match="question"):
        answer((60, 15, 5, 20), "superior", None, cached=True)


@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize("wording", WORDINGS, ids=["pass", "classifier"])
@pytest.mark.parametrize(("question", "margin"), QUESTIONS)
def test_spec_is_altairs_with_its_domain_computed_from_the_data(
    question, margin, wording, large
) -> None:
    # The first table of each kind builds the layout; the others reuse it with their own data.
    specs = []
    for table in [(60, 15, 5, 20), (0, 1, 0, 0), (5, 3, 9, 1), (100, 40, 2, 3), (0, 50, 49, 0)]:
        decision = answer(table, question, margin, cached=True)
        spec = cache.decision_spec(decision, wording, large)
        drawn = with_numbers(spec, spec["datasets"])
        assert canonical(drawn) == canonical(altair_spec(decision, wording, large)), table
        specs.append(spec)
    # One layout for the kind: a key press sends new rows, and the browser keeps the chart.
    assert all(layout(spec) == layout(specs[0]) for spec in specs)
    x_scales = [layer["encoding"]["x"]["scale"] for layer in specs[0]["layer"]]
    assert x_scales and all("domain" not in scale and "domainMin" in scale for scale in x_scales)


@settings(max_examples=25)  # two Altair charts per example
@given(first=tables, second=tables, question=st.sampled_from(QUESTIONS))
def test_any_two_tables_of_a_kind_share_a_layout(first, second, question) -> None:
    """Whatever table built the layout, another table's spec draws Altair's chart for it."""
    cache._DECISION_LAYOUTS.clear()
    wording = WORDINGS[0]
    built = cache.decision_spec.__wrapped__(answer(first, *question, cached=True), wording, False)
    decision = answer(second, *question, cached=True)
    spec = cache.decision_spec.__wrapped__(decision, wording, False)
    assert layout(spec) == layout(built)
    drawn = with_numbers(spec, spec["datasets"])
    assert canonical(drawn) == canonical(altair_spec(decision, wording, False))
