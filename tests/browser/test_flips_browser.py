"""The flips section in a real browser (issue 33): two real lm-eval logs uploaded to the
per-case page's logs section, a flip opened, and both systems' outputs read from it.

The flip and its texts are read here from the logs with ``json`` (the case only gpt-4o
passes first in the log's order), not from the product. Every wait is for a condition on the
page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser_setup import IDLE, expect, skip_module_unless_runnable

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)
LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "lm-eval"
A = next(LOGS.glob("output__gpt-4o*winogrande*.jsonl"))
B = next(LOGS.glob("output__LGAI*winogrande*.jsonl"))


def first_regression() -> tuple[str, str, str]:
    """The first case only A passes, and A's and B's raw responses to it."""
    a = [json.loads(line) for line in A.read_text().splitlines()]
    b = {r["doc_id"]: r for r in map(json.loads, B.read_text().splitlines())}
    for record in a:
        other = b[record["doc_id"]]
        if record["exact_match"] == 1 and other["exact_match"] == 0:
            return str(record["doc_id"]), record["resps"][0][0], other["resps"][0][0]
    raise AssertionError("no case only A passes")


def test_a_flip_opens_to_both_outputs(new_page, app_server):
    case, output_a, output_b = first_regression()
    page = new_page()
    page.goto(app_server.url + "cases")
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.locator(".st-key-logs_show").get_by_text("Compare evaluation-harness logs").click()
    for key, path in (("logs_a", A), ("logs_b", B)):
        field = page.locator(f".st-key-{key} input[type=file]")
        expect(field).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
        field.set_input_files(
            {"name": path.name, "mimeType": "text/plain", "buffer": path.read_bytes()}
        )
        # the uploader lists the file with its size (its long name is shortened on screen)
        expect(page.locator(f".st-key-{key}").get_by_text(re.compile(r"^[\d.]+KB$"))).to_have_count(
            1
        )
    header = page.get_by_text("Flips: what changed, case by case")
    expect(header).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
    flip = page.locator("[data-testid=stExpander]").filter(has_text=f"winogrande/{case}:")
    expect(flip).to_have_count(1)
    flip.locator("summary").click()
    codes = flip.locator("[data-testid=stCode]")
    expect(codes.filter(has_text=output_a[:60])).to_have_count(1)
    expect(codes.filter(has_text=output_b[:60])).to_have_count(1)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
