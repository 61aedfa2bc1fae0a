"""AppTest: the logs section of the per-case page takes a metric's direction from lm-eval's
results file uploaded beside the samples (hostile review 4, S4 residual), and says so."""

from __future__ import annotations

import sys
from pathlib import Path

from apptest_pages import open_page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
from test_stated_direction_cli import write_run  # noqa: E402

PAGE = "app_pages/cases.py"


def test_uploaded_results_files_say_lower_is_better(tmp_path):
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    for key, model, shift in (("logs_a", "old", 0.0), ("logs_b", "new", 0.08)):
        folder = write_run(tmp_path / model, model, shift, higher=False)
        given = [(p.name, p.read_bytes(), "x") for p in sorted(folder.iterdir())]
        at.file_uploader(key=key).set_value(given).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    shown = "\n".join(t.value for t in at.text)
    assert "better    lower is better, as lm-eval's results file says" in shown


def test_choosing_higher_overrides_the_file_and_says_so(tmp_path):
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    for key, model, shift in (("logs_a", "old", 0.0), ("logs_b", "new", 0.08)):
        folder = write_run(tmp_path / model, model, shift, higher=False)
        given = [(p.name, p.read_bytes(), "x") for p in sorted(folder.iterdir())]
        at.file_uploader(key=key).set_value(given).run()
    at.selectbox(key="logs_better").select("higher").run()
    assert not at.exception, at.exception
    shown = "\n".join(t.value for t in at.text)
    assert (
        "better    higher taken as better, as the “Better scores” choice asks, though lm-eval's "
        "results file says lower is better" in shown
    )
