"""The per-case page in a real browser on a long file (one row per case x system x epoch x
task, with Inspect's samples_df column names, so the long layout and its columns are chosen
by the page): A and B are picked (the file's order reversed), and the decision the page reads
is the command line's, word for word, on the same file with ``--a`` and ``--b``.
Every wait is for a condition on the page; nothing sleeps a fixed time.
"""

from __future__ import annotations

import contextlib
import io
import random

import pytest
from browser_setup import IDLE, expect, skip_module_unless_runnable

from calculator.cli import main

skip_module_unless_runnable()

pytestmark = pytest.mark.browser

FIRST_RENDER_TIMEOUT_MS = 90_000
if expect is not None:
    expect.set_options(timeout=30_000)


def long_file() -> bytes:
    """Two tasks of 30 questions, three epochs, models alpha and beta (alpha a little better)."""
    rng = random.Random(11)
    lines = ["model,id,epoch,task_name,score_match"]
    for task in ("gpqa", "mmlu"):
        for q in range(30):
            share = rng.random()
            for epoch in (1, 2, 3):
                for model, lift in (("alpha", 0.15), ("beta", 0.0)):
                    grade = "C" if rng.random() < share + lift else "I"
                    lines.append(f"{model},{task}-{q},{epoch},{task},{grade}")
    return ("\n".join(lines) + "\n").encode()


def cli_decision(tmp_path, data: bytes) -> str:
    path = tmp_path / "samples.csv"
    path.write_bytes(data)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(
            [
                "cases",
                str(path),
                "--system",
                "model",
                "--outcome",
                "score_match",
                "--id",
                "id",
                "--repeat",
                "epoch",
                "--task",
                "task_name",
                "--a",
                "beta",
                "--b",
                "alpha",
            ]
        )
    assert status == 0
    (line,) = [x.strip() for x in out.getvalue().splitlines() if "These cases show" in x]
    return line


def pick(page, base: str, option: str) -> None:
    page.locator(f'[class*="st-key-{base}__"]').get_by_role("combobox").click()
    page.get_by_role("option", name=option, exact=True).click()


def test_a_long_file_with_a_and_b_picked_reads_the_command_lines_decision(
    new_page, app_server, tmp_path
):
    data = long_file()
    expected = cli_decision(tmp_path, data)
    assert expected.startswith("These cases show that beta and alpha differ")
    page = new_page()
    page.goto(app_server.url + "cases")
    page.wait_for_function(IDLE, timeout=FIRST_RENDER_TIMEOUT_MS)
    field = page.locator(".st-key-cases_upload_a input[type=file]")
    field.set_input_files({"name": "samples.csv", "mimeType": "text/csv", "buffer": data})
    shown = page.locator("[data-testid=stMain] [data-testid=stText]")
    report = shown.filter(has_text="input     long logs: alpha = samples.csv")
    expect(report).to_have_count(1, timeout=FIRST_RENDER_TIMEOUT_MS)
    pick(page, "long_a", "beta")
    expect(page.locator("[data-testid=stAlertContentError]")).to_contain_text(
        "A and B are the same system"
    )
    pick(page, "long_b", "alpha")
    swapped = shown.filter(has_text="input     long logs: beta = samples.csv; alpha = samples.csv")
    expect(swapped).to_have_count(1)
    expect(swapped).to_contain_text(expected)
    expect(page.locator("[data-testid=stAlertContentError]")).to_have_count(0)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
