"""The per-case page's harness-log section in a real browser on lm-eval logs written by lm-eval
itself (``docs/evallog-recipes/make_lmeval.py``: four tasks, one logging only ``acc_norm``, a
strict/flexible generation task and a ``maj@3`` task): each task's line in the report is the
table recounted here with json on the task's first metric and filter.
Every wait is for a condition on the page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from browser_setup import IDLE, expect, skip_module_unless_runnable

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)
TOY = [
    Path(__file__).resolve().parents[1]
    / "data"
    / "evallogs"
    / "generated"
    / "lm-eval"
    / f"toylm-{s}"
    for s in "ab"
]
FIRST = {
    "toy_add": ("acc", "none"),
    "toy_sub": ("acc_norm", "none"),
    "toy_gen": ("exact_match", "strict-match"),
    "toy_maj": ("exact_match", "maj@3"),
}
LINE = re.compile(r"task (\S+): both pass (\d+), only .+? (\d+), only .+? (\d+), both fail (\d+);")


def cells(task: str) -> tuple[int, int, int, int]:
    metric, filter_name = FIRST[task]
    sides = []
    for folder in TOY:
        lines = next(folder.glob(f"samples_{task}_*")).read_text().splitlines()
        records = [json.loads(line) for line in lines]
        sides.append({r["doc_id"]: r[metric] == 1 for r in records if r["filter"] == filter_name})
    a, b = sides
    count = Counter((a[k], b[k]) for k in a)
    return count[True, True], count[True, False], count[False, True], count[False, False]


def test_lm_eval_made_logs_give_each_task_its_recounted_table(new_page, app_server):
    page = new_page()
    page.goto(app_server.url + "cases")
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.locator(".st-key-logs_show").get_by_text("Compare evaluation-harness logs").click()
    for key, folder in zip(("logs_a", "logs_b"), TOY, strict=True):
        field = page.locator(f".st-key-{key} input[type=file]")
        expect(field).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
        field.set_input_files([str(path) for path in sorted(folder.glob("samples_*"))])
    shown = page.locator("[data-testid=stMain] [data-testid=stText]")
    expect(shown.or_(page.locator("[data-testid=stAlertContentError]")).first).to_be_visible(
        timeout=FIRST_RENDER_TIMEOUT_MS
    )
    errors = page.locator("[data-testid=stAlertContentError]").all_inner_texts()
    assert not errors, errors
    expect(shown.filter(has_text="task toy_sub: ")).to_have_count(
        1, timeout=FIRST_RENDER_TIMEOUT_MS
    )
    report = shown.first.inner_text()
    found = {m.group(1): tuple(map(int, m.groups()[1:])) for m in LINE.finditer(report)}
    assert found == {task: cells(task) for task in FIRST}
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
