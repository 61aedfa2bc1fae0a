"""The Decision section's caches (:mod:`ui.widgets.cache`): the cached answer is the answer of
:func:`calculator.decide`, and the chart spec put together from a cached layout is the spec
Altair builds for that decision (``chart.to_dict()``), for every question, framing and size.

The reference is the uncached path itself (``decide`` and
:func:`ui.decision_chart.decision_chart`), whose figures and drawing are checked in
tests/core/test_decision.py and tests/pages/test_decision_page.py.
"""

import json

import pytest
from hypothesis import given
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


def altair_spec(decision, wording: Wording, large: bool) -> dict[str, object]:
    spec = decision_chart(decision, wording, large=large).to_dict(validate=False)
    spec.pop("config", None)  # as every spec the page sends (see ui.widgets.cache)
    return spec


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
def test_spec_from_the_cached_layout_is_altairs_spec(question, margin, wording, large) -> None:
    # The first table of each kind builds the layout; the others reuse it with their own data.
    for table in [(60, 15, 5, 20), (0, 1, 0, 0), (5, 3, 9, 1), (100, 40, 2, 3), (0, 50, 49, 0)]:
        decision = answer(table, question, margin, cached=True)
        fast = cache.decision_spec(decision, wording, large)
        assert canonical(fast) == canonical(altair_spec(decision, wording, large)), table


@given(first=tables, second=tables, question=st.sampled_from(QUESTIONS))
def test_any_two_tables_of_a_kind_share_a_layout(first, second, question) -> None:
    """Whatever table built the layout, another table's spec is Altair's spec for it."""
    cache._DECISION_LAYOUTS.clear()
    wording = WORDINGS[0]
    first_decision = answer(first, *question, cached=True)
    cache.decision_spec(first_decision, wording, False)
    decision = answer(second, *question, cached=True)
    spec = cache.decision_spec.__wrapped__(decision, wording, False)
    assert canonical(spec) == canonical(altair_spec(decision, wording, False))
