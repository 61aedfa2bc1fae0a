"""The flips section of the per-case page (issue 33) under AppTest: on the real lm-eval logs the
flips shown are the cases one log passes and the other fails (recounted here with ``json``),
each expander holding both outputs as text; hostile texts from a per-case file stay text; a
page holds at most 50 flips; the search and the task filter narrow the list."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from apptest_pages import open_page

from ui.widgets.flips import PAGE_SIZE

PAGE = "app_pages/cases.py"
LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"
GPT4O = next((LOGS / "lm-eval").glob("output__gpt-4o*winogrande*.jsonl"))
SOLAR = next((LOGS / "lm-eval").glob("output__upstage*winogrande*.jsonl"))


def _upload(path: Path) -> list[tuple[str, bytes, str]]:
    return [(path.name, path.read_bytes(), "text/plain")]


def _records(path: Path) -> dict[str, dict]:
    return {str(r["doc_id"]): r for r in map(json.loads, path.read_text().splitlines())}


def _logs_page():
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    at.file_uploader(key="logs_a").set_value(_upload(GPT4O)).run()
    at.file_uploader(key="logs_b").set_value(_upload(SOLAR)).run(timeout=120)
    assert not at.exception, at.exception
    return at


def _open_all(at, prefix: str, count: int) -> None:
    """Open every flip's expander (each draws its texts only while open)."""
    for position in range(count):
        for direction in ("regression", "improvement"):
            at.session_state[f"{prefix}_{direction}_open_{position}"] = True
    at.run(timeout=120)
    assert not at.exception, at.exception


def test_log_flips_are_the_recount_each_with_both_outputs():
    at = _logs_page()
    a, b = _records(GPT4O), _records(SOLAR)
    only_a = sorted(c for c in a if a[c]["exact_match"] == 1 and b[c]["exact_match"] == 0)
    only_b = sorted(c for c in a if a[c]["exact_match"] == 0 and b[c]["exact_match"] == 1)
    directions = at.radio(key="logs_flips_direction")
    assert directions.options == [
        f"Regressions \\(only A, the baseline, passes\\)\\: {len(only_a)}",
        f"Improvements \\(only B, the new system, passes\\)\\: {len(only_b)}",
    ]
    shown: dict[str, object] = {}
    for direction, count in (("improvement", len(only_b)), ("regression", len(only_a))):
        directions.set_value(direction).run(timeout=120)
        listed = [e for e in at.expander if e.label.startswith("winogrande")]
        assert len(listed) == count
        if direction == "improvement":  # none opened yet: a closed flip draws no text
            assert not any(e.code for e in listed)
        _open_all(at, "logs_flips", len(only_a) + len(only_b))
        # Labels are escaped Markdown: "winogrande\\/3\\: A fail, B pass"
        for expander in at.expander:
            if found := re.match(r"winogrande\\/(\w+)\\: ", expander.label):
                shown[found.group(1)] = [c.value for c in expander.code]
    assert sorted(shown) == sorted(only_a + only_b) and shown
    for case, codes in shown.items():
        assert a[case]["resps"][0][0] in codes and b[case]["resps"][0][0] in codes
        assert any(a[case]["doc"]["sentence"] in c for c in codes)
    at.session_state["logs_flips_report"] = True  # open the report to paste
    at.run(timeout=120)
    report = _report(at)
    assert report.startswith("## ") and "<details>" in report
    # The page asks no gate: its report claims nothing about one.
    assert "Gate" not in report and "gate" not in report


def _report(at) -> str:
    """The report to paste: the one code block in the report's expander (plain text, so that
    no Markdown highlighter colours it)."""
    from ui.flips_words import REPORT_TITLE

    (box,) = [e for e in at.expander if e.label == REPORT_TITLE]
    (code,) = box.code
    return code.value


HOSTILE = ["[x](http://evil)", "![i](http://e/p.png)", "<script>alert(1)</script>", "<img src=x>"]


def test_per_case_texts_stay_text_and_a_page_holds_fifty(tmp_path):
    rows = ["id,a,b,prompt"]
    for k in range(130):  # 65 only A, 65 only B
        text = HOSTILE[k % 4].replace('"', '""')
        rows.append(f'q{k},{k % 2},{1 - k % 2},"{text} {k}"')
    at = open_page(PAGE)
    upload = ("cases.csv", ("\n".join(rows) + "\n").encode(), "text/csv")
    at.file_uploader(key=next(f.key for f in at.file_uploader if "cases" in f.key)).set_value(
        [upload]
    ).run()
    assert not at.exception, at.exception
    at.multiselect(key="cases_flip_texts").set_value(["prompt"]).run()
    assert not at.exception, at.exception
    _open_all(at, "cases_flips", 130)
    flips = [e for e in at.expander if e.label.startswith("q")]
    assert len(flips) == PAGE_SIZE  # a page of the first direction: only A passes (k odd)
    codes = [c.value for e in flips for c in e.code]
    assert "![i](http://e/p.png) 1" in codes and "<img src=x> 3" in codes
    assert "65 flips, page 1 of 2" in " ".join(c.value for c in at.caption)
    search = next(t for t in at.text_input if t.key.endswith("regression_search"))
    search.set_value("img").run()  # k = 3, 7, ..., 127
    assert not at.exception, at.exception
    assert "32 flips (of 65), page 1 of 1" in " ".join(c.value for c in at.caption)
    at.radio(key="cases_flips_direction").set_value("improvement").run()
    _open_all(at, "cases_flips", 130)
    codes = [c.value for e in at.expander if e.label.startswith("q") for c in e.code]
    # k even: only B passes (hostile texts 0 and 2), shown as written
    assert "[x](http://evil) 0" in codes and "<script>alert(1)</script> 2" in codes
    search = next(t for t in at.text_input if t.key.endswith("improvement_search"))
    search.set_value("Q12").run()  # ids q12, q120, ..., q128 (even: only B passes); any case
    assert "6 flips (of 65)" in " ".join(c.value for c in at.caption)


def test_suite_chart_rows_are_each_tasks_difference_and_the_suite_last():
    from calculator.logs import pair_logs, read_log
    from calculator.logs.analysis import analyze_logs
    from ui.suite_chart import SUITE, suite_chart, suite_frame

    folder = LOGS / "generated" / "lm-eval"
    result = analyze_logs(pair_logs(read_log(folder / "toylm-a"), read_log(folder / "toylm-b")))
    frame = suite_frame(result)
    assert list(frame["task"]) == [t.task for t in result.tasks] + [SUITE]
    for row, task in zip(frame.itertuples(), result.tasks, strict=False):
        t = task.analysis.table
        assert row.points == pytest.approx(100.0 * (t.b - t.c) / t.n)  # A − B of the table
        assert row.low <= row.points <= row.high
        holm = task.holm_pvalue
        assert row.filled == (holm <= 0.05)
        mark = f"task: two-sided p, Holm-adjusted {'≤' if holm <= 0.05 else '>'} 0.05"
        assert row.mark == mark
    pooled = result.pooled.table
    assert frame["points"].iloc[-1] == pytest.approx(100.0 * (pooled.b - pooled.c) / pooled.n)
    spec = suite_chart(result, ("A", "B")).to_dict()
    assert "http" not in json.dumps(spec.get("data", {}))  # inline data, nothing fetched


def _score_rows() -> list[tuple[str, int, int, str]]:
    """40 cases of scores (0-100) whose differences tie often, a hostile prompt beside each."""
    values = [10, 20, 35, 50, 70, 90]
    return [
        (f"s{k}", values[(k * 5) % 6], values[(k * 7 + 2) % 6], f"{HOSTILE[k % 4]} {k}")
        for k in range(40)
    ]


def test_a_scores_file_lists_the_largest_differences_each_way(tmp_path):
    rows = _score_rows()
    # Recounted without the product: the largest A − B first, ties in the file's order.
    up = sorted((r for r in rows if r[1] > r[2]), key=lambda r: -(r[1] - r[2]))
    down = sorted((r for r in rows if r[2] > r[1]), key=lambda r: -(r[2] - r[1]))
    body = "".join(f'{i},{x},{y},"{p}"\n' for i, x, y, p in rows)
    upload = ("scores.csv", ("id,x,y,prompt\n" + body).encode(), "text/csv")
    at = open_page(PAGE)
    at.file_uploader(key=next(f.key for f in at.file_uploader if "cases" in f.key)).set_value(
        [upload]
    ).run()
    assert not at.exception, at.exception
    assert any("Mean scores" in h.value for h in at.header)  # compared as scores
    at.multiselect(key="cases_flip_texts").set_value(["prompt"]).run()
    directions = at.radio(key="cases_flips_direction")
    assert directions.options == [
        f"Regressions \\(x, the baseline, scores better\\: higher is better\\)\\: {len(up)}",
        f"Improvements \\(y, the new system, scores better\\: higher is better\\)\\: {len(down)}",
    ]
    for direction, expected in (("regression", up), ("improvement", down)):
        directions.set_value(direction).run()
        _open_all(at, "cases_flips", len(rows))
        listed = [e for e in at.expander if e.label.startswith("s")]
        labels = [e.label for e in listed]
        assert labels == [f"{i}\\: x {x}, y {y}" for i, x, y, _ in expected]
        codes = [[c.value for c in e.code] for e in listed]
        assert codes == [[p] for *_, p in expected]  # each prompt beside its id, as text
    at.session_state["cases_flips_report"] = True  # the report to paste covers scores too
    at.run()
    assert not at.exception, at.exception
    report = _report(at)
    assert "| task | n | x mean | y mean | difference x − y | p |" in report
    assert "Gate" not in report and "gate" not in report  # the page asks none
    summary = f"<summary>Flips against x, the baseline\\: {len(up)} regressions, {len(down)} "
    assert summary + "improvements" in report
    downloads = [b.proto.label for b in at.get("download_button")]
    assert "Download the report (Markdown)" in downloads  # the HTML page draws pass rates only
    assert not any("HTML" in label for label in downloads)


def test_a_long_files_flips_are_its_ids_and_outcomes():
    """A long file (a row per case, system and epoch) lists its flips on the page: each
    (task, question, epoch) where one system passes, recounted here from the rows."""
    import random

    draw = random.Random(3)
    rows = []  # (question, model, epoch, task, correct)
    for task in ("gpqa", "mmlu"):
        for q in range(25):
            for epoch in (1, 2):
                for model in ("alpha", "beta"):
                    rows.append((f"{task}-q{q}", model, epoch, task, int(draw.random() < 0.6)))
    data = "question,model,epoch,task,correct\n" + "".join(
        ",".join(map(str, r)) + "\n" for r in rows
    )
    outcome = {(q, m, e, t): ok for q, m, e, t, ok in rows}
    only = {"regression": [], "improvement": []}
    for q, m, e, t, ok in rows:
        if m == "alpha" and ok != outcome[q, "beta", e, t]:
            only["regression" if ok else "improvement"].append(f"{t}/{q} #{e}")
    at = open_page(PAGE)
    at.file_uploader(key="cases_upload_a").set_value(("long.csv", data.encode(), "text/csv"))
    at.run()
    layout = next(r for r in at.radio if r.key.startswith("cases_layout"))
    layout.set_value(layout.options[1]).run()
    chosen = dict(
        long_system="model", long_id="question", long_outcome="correct", long_repeat="epoch"
    )
    chosen["long_task"] = "task"
    for base, value in chosen.items():
        next(w for w in at.selectbox if (w.key or "").split("__")[0] == base).set_value(value).run()
    assert not at.exception, at.exception
    directions = at.radio(key="long_flips_direction")
    assert directions.options == [
        f"Regressions \\(only alpha, the baseline, passes\\)\\: {len(only['regression'])}",
        f"Improvements \\(only beta, the new system, passes\\)\\: {len(only['improvement'])}",
    ]
    for direction in ("regression", "improvement"):
        directions.set_value(direction).run()
        _open_all(at, "long_flips", len(rows))
        listed = [e for e in at.expander if e.label.startswith(("gpqa", "mmlu"))]
        labels = [e.label.split("\\:")[0].replace("\\", "") for e in listed]
        assert sorted(labels) == sorted(only[direction][:PAGE_SIZE])
        said = " ".join(c.value for e in listed for c in e.caption)
        assert said.count("no texts") == len(listed)  # ids and outcomes: the file holds no texts


def test_a_first_render_reads_the_result_and_the_flips_in_a_child_each_and_a_rerun_none(
    monkeypatch,
):
    """The comparison and the flips' texts are read in a child each, under the same limits
    (texts of large logs may reach a limit the comparison alone stays within: the flips are
    then missing, never the comparison; tests/browser/test_upload_isolation.py); a rerun
    starts neither again (one more child per upload lists the models it names)."""
    import streamlit as st

    import ui.isolation

    st.cache_resource.clear()
    st.cache_data.clear()
    started: list[str] = []
    run_child = ui.isolation._run_child

    def counted(function, args, kwargs):  # noqa: ANN001, ANN202
        started.append(function.__name__)
        return run_child(function, args, kwargs)

    monkeypatch.setattr(ui.isolation, "_run_child", counted)
    at = _logs_page()
    assert started.count("_analysed") == 1 and started.count("_read_flips") == 1, started
    assert set(started) == {"_analysed", "_read_flips", "upload_models"}, started
    directions = at.radio(key="logs_flips_direction")
    assert directions.options[0].startswith("Regressions")
    first = list(started)
    at.run(timeout=120)  # a rerun starts no child
    assert started == first, started


def test_inspect_flips_on_the_page_are_the_recount_with_both_completions(tmp_path):
    """The real Inspect log (GPQA) against a copy written here with five samples' grades
    turned and their completions rewritten: the page lists exactly those five, each with
    both systems' completions (recounted from the archives with ``zipfile`` and ``json``)."""
    import zipfile

    source = next((LOGS / "inspect").glob("*gpqa-diamond*.eval"))
    target = tmp_path / "gpqa-b.eval"
    turned: dict[str, str] = {}  # id -> A's grade
    completions: dict[str, str] = {}
    with zipfile.ZipFile(source) as a, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as b:
        for info in a.infolist():
            data = a.read(info.filename)
            if info.filename.startswith("samples/") and len(turned) < 5:
                sample = json.loads(data)
                scorer = next(iter(sample["scores"]))
                grade = sample["scores"][scorer]["value"]
                sample["scores"][scorer]["value"] = {"C": "I", "I": "C"}[grade]
                sample["output"]["choices"][0]["message"]["content"] = f"B says {sample['id']}"
                sample["output"]["completion"] = f"B says {sample['id']}"
                turned[str(sample["id"])] = grade
                completions[str(sample["id"])] = json.loads(data)["output"]["completion"]
                data = json.dumps(sample).encode()
            b.writestr(info, data)
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    at.file_uploader(key="logs_a").set_value(
        [(source.name, source.read_bytes(), "application/zip")]
    ).run()
    at.file_uploader(key="logs_b").set_value(
        [(target.name, target.read_bytes(), "application/zip")]
    ).run(timeout=120)
    assert not at.exception, at.exception
    only_a = sorted(c for c, grade in turned.items() if grade == "C")
    only_b = sorted(c for c, grade in turned.items() if grade == "I")
    directions = at.radio(key="logs_flips_direction")
    assert directions.options == [
        f"Regressions \\(only A, the baseline, passes\\)\\: {len(only_a)}",
        f"Improvements \\(only B, the new system, passes\\)\\: {len(only_b)}",
    ]
    seen: dict[str, list[str]] = {}
    for direction in ("regression", "improvement"):
        directions.set_value(direction).run(timeout=120)
        _open_all(at, "logs_flips", 5)
        for expander in at.expander:
            if found := re.match(r".+?\\/(.+?)\\: [AB] ", expander.label):
                seen[found.group(1).replace("\\", "")] = [c.value for c in expander.code]
    assert sorted(seen) == sorted(only_a + only_b)
    for case, codes in seen.items():
        assert f"B says {case}" in codes
        assert completions[case] in codes


def test_helm_stats_alone_on_the_page_are_the_recount_as_ids():
    """HELM's per-instance stats (no run folder): the page's flips are the instances one model
    passes and the other fails on the metric compared, recounted here, each said to have no
    texts."""
    paths = [
        LOGS / "helm" / f"bbq_{m}_per_instance_stats.json"
        for m in ("openai_gpt-4o-2024-05-13", "meta_llama-3-8b-chat")
    ]
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    for key, path in zip(("logs_a", "logs_b"), paths, strict=True):
        at.file_uploader(key=key).set_value([(path.name, path.read_bytes(), "text/plain")])
        at.run(timeout=120)
    assert not at.exception, at.exception
    report = "\n".join(t.value for t in at.text)
    metric = re.search(r"^metric +([\w-]+) ", report, re.MULTILINE)
    assert metric, report[:400]

    def values(path: Path) -> dict[str, float]:
        found = {}
        for instance in json.loads(path.read_text()):
            for stat in instance["stats"]:
                name = stat["name"]
                if (
                    name["name"] == metric.group(1)
                    and name.get("split") == "test"
                    and "perturbation" not in name
                ):
                    found[instance["instance_id"]] = stat["mean"]
        return found

    a, b = values(paths[0]), values(paths[1])
    only_a = [c for c in a if c in b and a[c] == 1 and b[c] == 0]
    only_b = [c for c in a if c in b and a[c] == 0 and b[c] == 1]
    assert only_a or only_b
    directions = at.radio(key="logs_flips_direction")
    assert [o.rsplit(" ", 1)[-1] for o in directions.options] == [
        str(len(only_a)),
        str(len(only_b)),
    ]
    _open_all(at, "logs_flips", min(PAGE_SIZE, len(only_a)))
    listed = [e for e in at.expander if re.match(r".+\\/id\d+", e.label)]
    assert len(listed) == min(PAGE_SIZE, len(only_a))
    ids = {re.search(r"(id\d+)", e.label).group(1) for e in listed}
    assert ids <= set(only_a)
    said = " ".join(c.value for e in listed for c in e.caption)
    assert said.count("no texts") == len(listed)


def test_flips_of_repeats_on_the_page_say_epochs_are_paired_by_number():
    """Two Inspect logs with three epochs (tests/data/review/rA, rB): the page's flips say
    that epoch k of A is paired with epoch k of B, an arbitrary pairing, and that the decision
    counts questions."""
    review = Path(__file__).parents[1] / "data" / "review"
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    for key, folder in (("logs_a", "rA"), ("logs_b", "rB")):
        files = sorted((review / folder).glob("*.json"))
        at.file_uploader(key=key).set_value(
            [(p.name, p.read_bytes(), "application/json") for p in files]
        ).run(timeout=120)
    assert not at.exception, at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "each flip pairs repeat k of mA with repeat k of mB\\: an arbitrary pairing" in captions
    assert "it counts questions, each with its repeats" in captions


def test_a_scores_file_with_lower_better_turns_the_flips(tmp_path):
    """The page's "Better scores: lower" makes a case where y (B) scores higher a regression,
    as --better lower does on the command line."""
    rows = _score_rows()
    worse = [r for r in rows if r[2] > r[1]]  # B's score higher: worse when lower is better
    better = [r for r in rows if r[1] > r[2]]
    assert len(worse) != len(better)  # so that the labels tell the two directions apart
    body = "".join(f'{i},{x},{y},"{p}"\n' for i, x, y, p in rows)
    upload = ("scores.csv", ("id,x,y,prompt\n" + body).encode(), "text/csv")
    at = open_page(PAGE)
    at.file_uploader(key=next(f.key for f in at.file_uploader if "cases" in f.key)).set_value(
        [upload]
    ).run()
    assert not at.exception, at.exception
    box = next(s for s in at.selectbox if s.label == "Better scores")
    box.set_value("lower").run()
    assert not at.exception, at.exception
    directions = at.radio(key="cases_flips_direction")
    assert directions.options == [
        f"Regressions \\(x, the baseline, scores better\\: lower is better\\)\\: {len(worse)}",
        f"Improvements \\(y, the new system, scores better\\: lower is better\\)\\: {len(better)}",
    ]
