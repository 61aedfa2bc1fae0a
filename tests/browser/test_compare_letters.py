"""The compare page (three or more systems) in a real browser (issue #35): several models'
real lm-eval logs uploaded, the groups' letters read from the page and matched with the
command line's on the same files; a long file of scores shows Friedman's letters and the
critical-difference diagram.

Every wait is for a condition on the page (Playwright's `expect` retries until it holds);
nothing sleeps a fixed time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from browser_setup import IDLE, Page, expect, skip_module_unless_runnable
from shape_writers import compare_json as cli_json

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
WINOGRANDE = sorted(
    (ROOT / "tests" / "data" / "evallogs" / "lm-eval").glob("output__*__samples_winogrande_*.jsonl")
)
# Each run's stats with its run spec (paired by their shared prefix: systems named by model).
HELM = sorted((ROOT / "tests" / "data" / "evallogs" / "helm").glob("bbq_*.json"))
# Three models' Inspect logs, made by Inspect (docs/evallog-recipes/make_inspect_models.py).
INSPECT = sorted(
    (ROOT / "tests" / "data" / "evallogs" / "generated" / "inspect" / "models").glob("*.eval")
)
FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)


def open_compare(page: Page, url: str) -> None:
    page.goto(url + "cases")
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    page.get_by_text("Three or more systems").click()
    expect(page.locator(".st-key-compare_upload input[type=file]")).to_have_count(
        1, timeout=FIRST_RENDER_TIMEOUT_MS
    )


def upload(page: Page, files: list[tuple[str, bytes]]) -> None:
    page.locator(".st-key-compare_upload input[type=file]").set_input_files(
        [{"name": name, "mimeType": "text/plain", "buffer": data} for name, data in files]
    )


def letters_on_page(page: Page, columns: int) -> dict[str, str]:
    """The letters table's rows: system -> letters (the place is the row's header)."""
    rows = page.locator(".st-key-compare_letters table tbody tr")
    expect(rows).to_have_count(columns, timeout=FIRST_RENDER_TIMEOUT_MS)
    found = {}
    for row in rows.all():
        cells = row.locator("td").all_inner_texts()
        found[cells[0].strip()] = cells[1].strip()
    return found


@pytest.mark.parametrize(
    ("paths", "letters"),
    [(WINOGRANDE, ["a", "ab", "b"]), (HELM, ["a", "b"]), (INSPECT, ["a", "b", "c"])],
    ids=["lm-eval winogrande, 3 models", "HELM BBQ, 2 models", "Inspect, 3 mock models"],
)
def test_letters_of_real_logs_are_read_from_the_page(new_page, app_server, paths, letters):
    page = new_page()
    open_compare(page, app_server.url)
    upload(page, [(path.name, path.read_bytes()) for path in paths])
    logs = [path for path in paths if not path.name.endswith("_run_spec.json")]
    expected = cli_json(*logs)["groups"]["letters"]
    assert letters_on_page(page, len(logs)) == expected
    assert sorted(expected.values()) == letters  # the groups the recount finds (tests/cli)
    expect(page.locator(".st-key-compare_ranking canvas, .st-key-compare_ranking svg").first)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)


def test_scores_show_letters_and_the_cd_diagram(new_page, app_server, tmp_path) -> None:
    rng = np.random.default_rng(35)
    table = np.round(rng.normal(size=(30, 4)) + [0.0, 0.2, 0.9, 1.0], 2)
    names = ["m1", "m2", "m3", "m4"]
    lines = ["question,model,score"]
    for q, row in enumerate(table):
        lines += [f"q{q},{name},{value}" for name, value in zip(names, row, strict=True)]
    path = tmp_path / "long_scores.csv"
    path.write_text("\n".join(lines) + "\n")
    expected = cli_json(path, "--system", "model", "--outcome", "score", "--id", "question")
    page = new_page()
    open_compare(page, app_server.url)
    upload(page, [(path.name, path.read_bytes())])
    page.get_by_text("One row per case and system (long)").click()
    assert letters_on_page(page, 4) == expected["groups"]["letters"]
    cd = page.locator(".st-key-compare_cd_diagram")
    expect(cd).to_have_count(1)
    expect(cd.locator("canvas, svg").first).to_be_visible()
    expect(page.get_by_text("Critical-difference groups", exact=False).first).to_be_visible()
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
