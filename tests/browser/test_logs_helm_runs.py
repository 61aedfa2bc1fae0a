"""The per-case page's harness-log section in a real browser (issue #32): several HELM runs per
side, each side a zip of its run folders (runs/v4/<run>/per_instance_stats.json and
run_spec.json), give a row per run in the per-task table and the models' names from the logs.

The runs are the real BBQ runs of tests/data/evallogs/helm and, as a second subject, the first
120 stats entries of each (built here); the expected rows are counted here with json.
Every wait is for a condition on the page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from browser_setup import IDLE, expect, skip_module_unless_runnable

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)
HELM = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "helm"
MODELS = ("meta_llama-3-8b-chat", "openai_gpt-4o-2024-05-13")


def runs_zip(model: str) -> bytes:
    spec = json.loads((HELM / f"bbq_{model}_run_spec.json").read_text())
    stats = json.loads((HELM / f"bbq_{model}_per_instance_stats.json").read_text())
    second = {**spec, "name": spec["name"].replace("subject=all", "subject=age")}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for run, entries in ((spec, stats), (second, stats[:120])):
            archive.writestr(f"runs/v4/{run['name']}/per_instance_stats.json", json.dumps(entries))
            archive.writestr(f"runs/v4/{run['name']}/run_spec.json", json.dumps(run))
    return buffer.getvalue()


def discordant_only_a(model_a: str, model_b: str, cut: int | None) -> int:
    """Instances where A's exact_match (unperturbed, test) is 1 and B's 0, counted with json."""
    values = []
    for model in (model_a, model_b):
        found = {}
        entries = json.loads((HELM / f"bbq_{model}_per_instance_stats.json").read_text())[:cut]
        for entry in entries:
            for stat in entry["stats"]:
                name = stat["name"]
                key = (name["name"], name.get("split"), name.get("perturbation"))
                if key == ("exact_match", "test", None):
                    found[entry["instance_id"]] = stat["mean"]
        values.append(found)
    return sum(values[0][i] == 1.0 and values[1][i] == 0.0 for i in values[0].keys() & values[1])


def test_helm_run_folders_zipped_per_side_give_a_row_per_run_and_the_models(new_page, app_server):
    page = new_page()
    page.goto(app_server.url + "cases")
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.locator(".st-key-logs_show").get_by_text("Compare evaluation-harness logs").click()
    for key, model in zip(("logs_a", "logs_b"), MODELS, strict=True):
        field = page.locator(f".st-key-{key} input[type=file]")
        expect(field).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
        name = f"{key}.zip"  # short: the uploader's chip shortens a long name
        field.set_input_files(
            {"name": name, "mimeType": "application/zip", "buffer": runs_zip(model)}
        )
        expect(page.locator(f".st-key-{key}").get_by_text(name)).to_have_count(1)
    shown = page.locator("[data-testid=stMain] [data-testid=stText]")
    expect(shown.or_(page.locator("[data-testid=stAlertContentError]")).first).to_be_visible(
        timeout=FIRST_RENDER_TIMEOUT_MS
    )
    errors = page.locator("[data-testid=stAlertContentError]").all_inner_texts()
    assert not errors, errors
    expect(shown.filter(has_text="meta/llama-3-8b-chat = ")).to_have_count(
        1, timeout=FIRST_RENDER_TIMEOUT_MS
    )
    report = shown.first.inner_text()
    assert "openai/gpt-4o-2024-05-13 = " in report
    for subject, cut in (("subject=age", 120), ("subject=all", None)):
        only_a = discordant_only_a(*MODELS, cut)
        line = next(x for x in report.splitlines() if x.startswith(f"task bbq:{subject}"))
        assert f"only meta/llama-3-8b-chat {only_a}," in line
    # Two tables: the tasks' and, in the flips section below it, the flips by task (churn).
    table = page.locator("[data-testid=stMain] [data-testid=stDataFrame]")
    expect(table).to_have_count(2)
    expect(page.locator("[data-testid=stAlertContentError]")).to_have_count(0)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
