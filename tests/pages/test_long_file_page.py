"""AppTest checks of the per-case page's long files (one row per case x system, x repeat, x
task; ``ui/widgets/cases_long.py``): the page gives the command line's numbers and decision
on the same file (``cases FILE --system --outcome --id [--repeat --task] --a --b``), A and B
as chosen, and its refusals in the page's words.

The reference is the command line itself, run here on the file the page reads; the cells of
each task are also recounted from the rows written below, with the standard library alone.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from apptest_pages import open_page

from calculator.cli import main

PAGE = "app_pages/cases.py"


def long_rows(seed: int = 7, questions: int = 30) -> list[tuple[str, str, int, str, int]]:
    """(question, model, epoch, task, correct): two tasks, three epochs, models alpha and beta."""
    rng = random.Random(seed)
    rows = []
    for task in ("gpqa", "mmlu"):
        for q in range(questions):
            share = rng.random()
            for epoch in (1, 2, 3):
                rows.append((f"{task}-q{q}", "alpha", epoch, task, int(rng.random() < share + 0.1)))
                rows.append((f"{task}-q{q}", "beta", epoch, task, int(rng.random() < share)))
    return rows


def csv_bytes(rows, header: str = "question,model,epoch,task,correct") -> bytes:
    return (header + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows)).encode()


def select(at, base: str):
    found = [w for w in at.selectbox if w.key is not None and w.key.split("__")[0] == base]
    assert len(found) == 1, [w.key for w in at.selectbox]
    return found[0]


def open_long(data: bytes, name: str = "long.csv", **chosen: str):
    at = open_page(PAGE)
    at.file_uploader(key="cases_upload_a").set_value((name, data, "text/csv")).run()
    layout = next(r for r in at.radio if r.key.startswith("cases_layout"))
    layout.set_value(layout.options[1]).run()
    for base, value in chosen.items():
        select(at, base).set_value(value).run()
    assert not at.exception, at.exception
    return at


def page_lines(at) -> list[str]:
    return [line for t in at.text for line in t.value.splitlines() if line.strip()]


def cli_text(tmp_path, data: bytes, *argv: str) -> tuple[int, str]:
    path = tmp_path / "long.csv"
    path.write_bytes(data)
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["cases", str(path), *argv])
    return status, out.getvalue()


COLUMNS = dict(
    long_system="model",
    long_id="question",
    long_outcome="correct",
    long_repeat="epoch",
    long_task="task",
)
FLAGS = ("--system", "model", "--id", "question", "--outcome", "correct", "--repeat", "epoch")


@pytest.mark.parametrize("a, b", [("alpha", "beta"), ("beta", "alpha")])
def test_repeats_and_tasks_give_the_command_lines_numbers_and_decision(tmp_path, a, b):
    data = csv_bytes(long_rows())
    at = open_long(data, **COLUMNS, long_a=a, long_b=b)
    assert not at.error, [e.value for e in at.error]
    status, out = cli_text(tmp_path, data, *FLAGS, "--task", "task", "--a", a, "--b", b)
    assert status == 0
    cli = {line.rstrip() for line in out.splitlines()}
    shown = [line.rstrip() for line in page_lines(at) if not line.startswith("Files in use")]
    # Every line of the page's report is the command line's, word for word: the tables, each
    # p-value, the suite's answer and the decision sentence.
    missing = [line for line in shown if line not in cli]
    assert not missing, missing
    assert any(
        line.strip().startswith(f"These cases show that {a} and {b} differ") for line in shown
    )
    # The cells of each task: A's epoch paired with B's same epoch, counted here.
    rows = long_rows()
    for task in ("gpqa", "mmlu"):
        side = {(m, q, e): ok for q, m, e, t, ok in rows if t == task}
        count = Counter(
            (side[a, q, e], side[b, q, e]) for q, m, e, t, _ in rows if t == task and m == a
        )
        cells = (
            f"both pass {count[1, 1]}, only {a} {count[1, 0]}, only {b} {count[0, 1]}, "
            f"both fail {count[0, 0]};"
        )
        assert any(line.startswith(f"task {task}: {cells}") for line in shown), cells
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    assert list(table["task"]) == ["gpqa", "mmlu"]


def test_one_repeat_pass_fail_gives_the_command_lines_report(tmp_path):
    rng = random.Random(3)
    rows = []
    for i in range(120):
        rows += [(f"c{i}", "A", int(rng.random() < 0.7)), (f"c{i}", "B", int(rng.random() < 0.55))]
    data = csv_bytes(rows, "id,system,ok")
    at = open_long(data, long_system="system", long_id="id", long_outcome="ok")
    status, out = cli_text(
        tmp_path,
        data,
        "--system",
        "system",
        "--id",
        "id",
        "--outcome",
        "ok",
        "--a",
        "A",
        "--b",
        "B",
    )
    assert status == 0
    shown = [line for line in page_lines(at) if not line.startswith("Files in use")]
    cli = set(out.splitlines())
    assert shown and all(line in cli for line in shown)
    wide = Counter((rows[k][2], rows[k + 1][2]) for k in range(0, len(rows), 2))
    assert any(
        f"both pass {wide[1, 1]}, only A {wide[1, 0]}, only B {wide[0, 1]}, both fail {wide[0, 0]}"
        in line
        for line in shown
    )


def test_three_systems_pick_two_and_say_the_others_are_left_out():
    rows = [
        (f"q{i}", m, int((i * 7 + len(m)) % 3 == 0)) for i in range(40) for m in ("x", "y", "z")
    ]
    at = open_long(
        csv_bytes(rows, "id,model,ok"),
        long_system="model",
        long_id="id",
        long_outcome="ok",
        long_a="z",
        long_b="x",
    )
    assert any("1 other system are left out" in c.value for c in at.caption)
    report = "\n".join(page_lines(at))
    assert "input     long logs: z = long.csv; x = long.csv" in report


def test_the_same_system_twice_is_refused():
    rows = [(f"q{i}", m, i % 2) for i in range(10) for m in ("x", "y")]
    at = open_long(
        csv_bytes(rows, "id,model,ok"),
        long_system="model",
        long_id="id",
        long_outcome="ok",
        long_b="x",
    )
    assert [e.value for e in at.error] == [
        "A and B are the same system: choose two different ones."
    ]


def test_repeated_rows_without_a_repeat_column_are_refused_in_the_pages_words():
    data = csv_bytes(long_rows(questions=4))
    at = open_long(
        data,
        long_system="model",
        long_id="question",
        long_outcome="correct",
        long_repeat="(none)",
        long_task="task",
    )
    (error,) = [e.value for e in at.error]
    assert "rows repeat a system, task and case" in error
    assert "the Repeat column box" in error and "--repeat" not in error


def test_a_wide_file_keeps_the_wide_layout_by_default():
    at = open_page(PAGE)
    data = b"id,old,new\nq1,1,0\nq2,0,1\nq3,1,1\n"
    at.file_uploader(key="cases_upload_a").set_value(("wide.csv", data, "text/csv")).run()
    layout = next(r for r in at.radio if r.key.startswith("cases_layout"))
    assert layout.value == layout.options[0]
    assert not [w for w in at.selectbox if w.key and w.key.startswith("long_system")]


def test_inspect_samples_df_names_choose_the_long_layout_and_columns(tmp_path):
    rows = [
        (m, f"s{i}", 1, "arith", "C" if (i + len(m)) % 3 else "I")
        for i in range(12)
        for m in ("mockllm/a", "mockllm/b")
    ]
    data = csv_bytes(rows, "model,id,epoch,task_name,score_match")
    at = open_page(PAGE)
    at.file_uploader(key="cases_upload_a").set_value(("long.csv", data, "text/csv")).run()
    layout = next(r for r in at.radio if r.key.startswith("cases_layout"))
    assert layout.value == layout.options[1]
    assert [select(at, b).value for b in ("long_system", "long_id", "long_outcome")] == [
        "model",
        "id",
        "score_match",
    ]
    status, out = cli_text(
        tmp_path,
        data,
        "--system",
        "model",
        "--outcome",
        "score_match",
        "--repeat",
        "epoch",
        "--task",
        "task_name",
        "--id",
        "id",
        "--a",
        "mockllm/a",
        "--b",
        "mockllm/b",
    )
    assert status == 0
    assert all(line in set(out.splitlines()) for line in page_lines(at)[1:])


@pytest.mark.parametrize("question, flag", [("worse", "less"), ("better", "greater")])
def test_a_one_sided_question_gives_the_command_lines_answer(tmp_path, question, flag):
    rng = random.Random(5)
    rows = []
    for i in range(150):
        rows += [(f"c{i}", "A", int(rng.random() < 0.7)), (f"c{i}", "B", int(rng.random() < 0.6))]
    data = csv_bytes(rows, "id,system,ok")
    at = open_long(data, long_system="system", long_id="id", long_outcome="ok")
    at.selectbox(key="long_question").set_value(question).run()
    status, out = cli_text(
        tmp_path,
        data,
        "--system",
        "system",
        "--id",
        "id",
        "--outcome",
        "ok",
        "--a",
        "A",
        "--b",
        "B",
        "--alternative",
        flag,
    )
    assert status == 0
    shown = [line for line in page_lines(at) if not line.startswith("Files in use")]
    assert all(line in set(out.splitlines()) for line in shown)
    answer = [line for line in shown if line.startswith(f"Question: {question}: ")]
    assert len(answer) == 1, shown


def test_graded_outcomes_are_compared_by_their_mean_as_on_the_command_line(tmp_path):
    rng = random.Random(9)
    rows = []
    for i in range(60):
        base = rng.random()
        for epoch in (1, 2):
            rows += [
                (f"c{i}", "A", epoch, round(min(1.0, base + 0.1 * rng.random()), 3)),
                (f"c{i}", "B", epoch, round(base * rng.random(), 3)),
            ]
    data = csv_bytes(rows, "id,system,epoch,score")
    at = open_long(
        data, long_system="system", long_id="id", long_outcome="score", long_repeat="epoch"
    )
    assert not at.error, [e.value for e in at.error]
    status, out = cli_text(
        tmp_path,
        data,
        "--system",
        "system",
        "--id",
        "id",
        "--outcome",
        "score",
        "--repeat",
        "epoch",
        "--a",
        "A",
        "--b",
        "B",
        "--json",
    )
    assert status == 0
    (task,) = json.loads(out)["tasks"]
    shown = [line for line in page_lines(at) if not line.startswith("Files in use")]
    assert any(line.startswith("analysed  as scores") for line in shown)
    row = next(f.value for f in at.dataframe if "mean A" in f.value.columns).iloc[0]
    assert row["mean difference A − B"] == pytest.approx(task["scores"]["mean_difference"])
    assert row["p"] == pytest.approx(task["pvalue"])
    # The means recounted from the rows written above (every repeat counted).
    for side in "AB":
        values = [v for _, s, _, v in rows if s == side]
        assert row[f"mean {side}"] == pytest.approx(sum(values) / len(values))
