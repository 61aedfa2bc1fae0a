"""The per-case page's harness-log section in a real browser: a graded metric without a
threshold is compared as scores, as on the command line.

The logs are the generated Inspect logs of tests/data/evallogs/generated/inspect (3 epochs of 10
questions, the `graded` scorer giving partial credit); the expected sentence is the core's
(`text(ScoresComparison)`, via `calculator.logs.scores.analyze_log_scores`), worked out here from
the same files.

Every wait is for a condition on the page (Playwright's `expect` retries until it holds);
nothing sleeps a fixed time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_setup import IDLE, expect, skip_module_unless_runnable

from calculator.report.words import text

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

#: Generous: a first render imports scipy, pandas and altair on a shared 2-core machine.
FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)
MOCK = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "inspect"
NAMES = ("mock-a-3epochs.eval", "mock-b-3epochs.eval")


def expected_headline() -> str:
    """The first sentence of the pooled comparison's report, from the core."""
    from calculator.logs import pair_logs, read_log_data
    from calculator.logs.scores import analyze_log_scores

    logs = [
        read_log_data(((name, (MOCK / name).read_bytes()),), system=system)
        for name, system in zip(NAMES, ("A", "B"), strict=True)
    ]
    result = analyze_log_scores(pair_logs(*logs, metric="graded", scores=True))
    return text(result.pooled).split("; sign-flip")[0]


def test_a_graded_metric_without_a_threshold_shows_the_scores_report(new_page, app_server):
    headline = expected_headline()
    assert headline.startswith("Over 30 cases, A's mean score is")
    page = new_page()
    page.goto(app_server.url + "cases")
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.locator(".st-key-logs_show").get_by_text("Compare evaluation-harness logs").click()
    for key, name in zip(("logs_a", "logs_b"), NAMES, strict=True):
        field = page.locator(f".st-key-{key} input[type=file]")
        expect(field).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
        field.set_input_files(
            {"name": name, "mimeType": "application/zip", "buffer": (MOCK / name).read_bytes()}
        )
        expect(page.locator(f".st-key-{key}").get_by_text(name)).to_have_count(1)
    metric = page.locator(".st-key-logs_metric input")
    metric.fill("graded")
    metric.press("Enter")
    shown = page.locator("[data-testid=stMain] [data-testid=stText]")
    expect(shown.filter(has_text="analysed  as scores (graded holds values")).to_have_count(
        1, timeout=FIRST_RENDER_TIMEOUT_MS
    )
    expect(shown.filter(has_text=headline)).to_have_count(1)
    expect(page.locator("[data-testid=stMain] [data-testid=stDataFrame]")).to_have_count(1)
    expect(page.get_by_text("compared by their mean score", exact=False)).to_have_count(1)
    expect(page.locator("[data-testid=stAlertContentError]")).to_have_count(0)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
