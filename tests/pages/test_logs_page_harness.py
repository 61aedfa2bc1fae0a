"""AppTest checks of the page's harness-log section on logs the harnesses wrote
(``docs/evallog-recipes/make_lmeval.py``, ``make_inspect_evalset.py``): each task's row
recounted here with json (its first metric and filter, as the command line chooses), and a
task renamed between runs paired by content with its note."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from apptest_pages import open_page

GENERATED = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated"
TOY = [GENERATED / "lm-eval" / f"toylm-{side}" for side in "ab"]
INSPECT = GENERATED / "inspect"
FIRST = {
    "toy_add": ("acc", "none"),
    "toy_sub": ("acc_norm", "none"),
    "toy_gen": ("exact_match", "strict-match"),
    "toy_maj": ("exact_match", "maj@3"),
}


def files(folder: Path) -> list[tuple[str, bytes, str]]:
    return [(p.name, p.read_bytes(), "text/plain") for p in sorted(folder.glob("samples_*"))]


def cells(task: str) -> tuple[int, int, int, int]:
    metric, filter_name = FIRST[task]
    a, b = (
        {
            record["doc_id"]: record[metric] == 1
            for record in map(
                json.loads, next(d.glob(f"samples_{task}_*")).read_text().splitlines()
            )
            if record["filter"] == filter_name
        }
        for d in TOY
    )
    count = Counter((a[k], b[k]) for k in a)
    return count[True, True], count[True, False], count[False, True], count[False, False]


def open_logs(given: list[list[tuple[str, bytes, str]]]) -> object:
    at = open_page("app_pages/cases.py")
    at.checkbox(key="logs_show").check().run()
    for key, chosen in zip(("logs_a", "logs_b"), given, strict=True):
        at.file_uploader(key=key).set_value(chosen).run()
    assert not at.exception, at.exception
    return at


def test_each_task_row_is_the_recount_on_its_first_metric_and_filter():
    at = open_logs([files(folder) for folder in TOY])
    report = "\n".join(t.value for t in at.text)
    assert "acc_norm (toy_sub:" in report and "maj@3 (toy_maj)" in report
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    assert sorted(table["task"]) == sorted(FIRST)
    for task in FIRST:
        row = table[table["task"] == task].iloc[0]
        shown = (row["both pass"], row["only A"], row["only B"], row["both fail"])
        assert shown == cells(task), task


def test_a_renamed_inspect_task_pairs_by_content_with_its_note():
    arith = next((INSPECT / "evalset-a").glob("*_arith_*.eval"))
    renamed = INSPECT / "arith-v2-renamed.eval"
    at = open_logs([[(p.name, p.read_bytes(), "x")] for p in (arith, renamed)])
    report = "\n".join(t.value for t in at.text)
    assert "task 'arith_v2' of B paired with task 'arith' of A by content" in report
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    assert list(table["task"]) == ["arith"]
