"""AppTest checks of the per-case page's section for harness logs (ui/widgets/cases_logs.py).

The expected tables are counted here with json and collections from the same files.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from apptest_pages import open_page
from streamlit.testing.v1 import AppTest

from calculator.logs import pair_logs, read_log_data
from calculator.logs.scores import analyze_log_scores
from calculator.report.words import text

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"
DUMMY = [LOGS / "generated" / "lm-eval" / f"dummy-seed{k}" for k in (1, 2)]
PAGE = "app_pages/cases.py"


def graded_files(folder: Path) -> list[tuple[str, bytes, str]]:
    """The generated lm-eval samples of toy_add and toy_mul with their pass/fail `acc` made a
    graded score: half of it plus a quarter of (doc_id mod 3), so values 0 to 1 in quarters."""
    graded = []
    for path in sorted(folder.glob("samples_toy_[am]*")):
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for record in records:
            record["acc"] = 0.5 * record["acc"] + 0.25 * (record["doc_id"] % 3)
        text = "\n".join(json.dumps(record) for record in records)
        graded.append((path.name, text.encode(), "text/plain"))
    return graded


def files(folder: Path) -> list[tuple[str, bytes, str]]:
    return [(p.name, p.read_bytes(), "text/plain") for p in sorted(folder.glob("samples_*"))]


def open_logs() -> object:
    at = open_page(PAGE)
    at.checkbox(key="logs_show").check().run()
    return at


def test_two_results_folders_give_a_table_per_task():
    at = open_logs()
    at.file_uploader(key="logs_a").set_value(files(DUMMY[0])).run()
    at.file_uploader(key="logs_b").set_value(files(DUMMY[1])).run()
    assert not at.exception, at.exception
    report = "\n".join(t.value for t in at.text)
    assert "metric    acc (the first pass/fail metric in the task's metric list)" in report
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    for task in ("toy_add", "toy_mul"):
        a, b = (
            {
                json.loads(line)["doc_id"]: json.loads(line)["acc"]
                for line in next(d.glob(f"samples_{task}_*")).read_text().splitlines()
            }
            for d in DUMMY
        )
        cells = Counter((a[k] == 1, b[k] == 1) for k in a)
        row = table[table["task"] == task].iloc[0]
        assert (row["both pass"], row["only A"], row["only B"], row["both fail"]) == (
            cells[(True, True)],
            cells[(True, False)],
            cells[(False, True)],
            cells[(False, False)],
        )


def test_a_refusal_is_shown_not_raised():
    at = open_logs()
    at.file_uploader(key="logs_a").set_value(files(DUMMY[0])).run()
    at.file_uploader(key="logs_b").set_value(files(DUMMY[1])).run()
    # Issue #32: toy_gen's two filters no longer stop the analysis (its first is used), so
    # the refusal shown is a filter toy_gen does not log, named in the page's own words.
    at.text_input(key="logs_filter").set_value("toy_gen=maj@5").run()
    assert not at.exception, at.exception
    (error,) = at.error
    assert "toy\\_gen" in error.value and "strict\\-match, flexible\\-extract" in error.value
    # The sentence's colon stays outside the code span of the value (it holds an "@").
    assert error.value.startswith("the lm\\-eval filter box `toy_gen=maj@5`\\: ")
    assert "\\-\\-" not in error.value  # no command-line option named on the page


def graded_logs() -> AppTest:
    mock = LOGS / "generated" / "inspect"
    at = open_logs()
    for key, name in (("logs_a", "mock-a-3epochs.eval"), ("logs_b", "mock-b-3epochs.eval")):
        at.file_uploader(key=key).set_value([(name, (mock / name).read_bytes(), "x")]).run()
    at.text_input(key="logs_metric").set_value("graded").run()
    assert not at.exception, at.exception
    return at


def test_partial_credit_without_a_threshold_is_compared_as_scores_as_on_the_command_line():
    # Inspect's partial credit (P = 0.5) is graded: without a threshold the command line
    # compares its mean scores (calculator.logs.scores); the page refused it before.
    at = graded_logs()
    assert not at.error, [e.value for e in at.error]
    mock = LOGS / "generated" / "inspect"
    logs = [
        read_log_data(((name, (mock / name).read_bytes()),), system=system)
        for name, system in (("mock-a-3epochs.eval", "A"), ("mock-b-3epochs.eval", "B"))
    ]
    expected = analyze_log_scores(pair_logs(*logs, metric="graded", scores=True))
    shown = "\n".join(t.value for t in at.text)
    assert "analysed  as scores (graded holds values other than 0 and 1)" in shown
    assert text(expected.pooled) in shown  # the report the command line's headline opens
    assert "30 cases fall in 10 clusters" in text(expected.pooled)
    table = next(f.value for f in at.dataframe if "mean difference A − B" in f.value.columns)
    [task] = expected.tasks
    row = table.iloc[0]
    assert row["task"] == "mock_qa" and row["cases"] == 30 and row["questions"] == 10
    assert row["mean difference A − B"] == task.comparison.statistic
    assert row["p"] == task.pvalue == 1.0  # exact over the 8 sign patterns, as the CLI says


def test_a_threshold_still_cuts_a_graded_metric_into_pass_fail():
    at = graded_logs()
    at.text_input(key="logs_threshold").set_value("0.5").run()
    assert not at.error and not at.exception
    shown = "\n".join(t.value for t in at.text)
    assert "by question" in shown and "analysed  as pass/fail outcomes" in shown
    assert not any("mean difference A − B" in f.value.columns for f in at.dataframe)
    at.text_input(key="logs_threshold").set_value("inf").run()
    assert [e.value for e in at.error] == ["The threshold must be a finite number, such as 0.5."]


def test_two_graded_tasks_get_a_row_each_with_holm_and_the_pooled_report():
    given = [graded_files(folder) for folder in DUMMY]
    at = open_logs()
    at.file_uploader(key="logs_a").set_value(given[0]).run()
    at.file_uploader(key="logs_b").set_value(given[1]).run()
    at.text_input(key="logs_metric").set_value("acc").run()
    assert not at.exception and not at.error, (at.exception, at.error)
    logs = [
        read_log_data(tuple((name, data) for name, data, _ in side), system=system)
        for side, system in zip(given, ("A", "B"), strict=True)
    ]
    expected = analyze_log_scores(pair_logs(*logs, metric="acc", scores=True))
    table = next(f.value for f in at.dataframe if "mean difference A − B" in f.value.columns)
    assert list(table["task"]) == ["toy_add", "toy_mul"]
    assert list(table["cases"]) == [30, 20]
    assert list(table["Holm-adjusted p"]) == [t.holm_pvalue for t in expected.tasks]
    assert list(table["mean A"]) == [t.comparison.mean_a for t in expected.tasks]
    # Issue #32 (a deliberate change): pooled over every question, the suite's answer, with
    # the task-clustered comparison after it for contrast (it was the pooled one).
    assert expected.pooled.clusters is None and expected.by_task.clusters == 2
    shown = "\n".join(t.value for t in at.text)
    assert text(expected.pooled) in shown
    assert "answer    over all 50 questions of the 2 tasks, each counted once" in shown
    assert "by task   shown for contrast, not the answer" in shown


def test_one_epoch_against_three_uses_every_sample_as_on_the_command_line():
    # Issue 32: B's epochs 2 and 3 were dropped without a word. Expected figures from the
    # files with json alone: A's JSON log read directly, B's .eval through Inspect's own
    # reading of it (reference_scores.json).
    mock = LOGS / "generated" / "inspect"
    a_name, b_name = "mock-b-1epoch.json", "mock-a-3epochs.eval"
    at = open_logs()
    for key, name in (("logs_a", a_name), ("logs_b", b_name)):
        at.file_uploader(key=key).set_value([(name, (mock / name).read_bytes(), "x")]).run()
    at.text_input(key="logs_metric").set_value("graded").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    value = {"C": 1.0, "P": 0.5, "I": 0.0}
    samples = json.loads((mock / a_name).read_text())["samples"]
    a = {s["id"]: value[s["scores"]["graded"]["value"]] for s in samples}
    b: dict[str, list[float]] = {}
    for s in json.loads((mock / "reference_scores.json").read_text())[b_name]:
        b.setdefault(s["id"], []).append(s["as_float"]["graded"])
    assert len(a) == len(b) == 10 and sum(map(len, b.values())) == 30
    mean_b = sum(sum(v) / len(v) for v in b.values()) / len(b)
    shown = "\n".join(t.value for t in at.text)
    assert (
        "task mock_qa: 10 questions, each at its mean score over all 10 of A's and all 30 of "
        "B's samples" in shown
    )
    table = next(f.value for f in at.dataframe if "mean difference A − B" in f.value.columns)
    row = table.iloc[0]
    assert row["cases"] == 10 and row["questions"] == 10
    assert abs(row["mean B"] - mean_b) < 1e-12 and abs(mean_b - 49 / 60) < 1e-12  # not 0.85
    assert abs(row["mean difference A − B"] - (sum(a.values()) / 10 - mean_b)) < 1e-12


# --- issue #32: several HELM runs per side (a zip of run folders), run specs, results files ---

HELM = LOGS / "helm"
HELM_MODELS = ("meta_llama-3-8b-chat", "openai_gpt-4o-2024-05-13")


def helm_zip(model: str) -> bytes:
    """Two runs of `model` as HELM writes them (runs/v4/<run>/{per_instance_stats,run_spec}
    .json): the real BBQ run and, as a second subject, its first 120 stats entries."""
    import io
    import zipfile

    spec = json.loads((HELM / f"bbq_{model}_run_spec.json").read_text())
    stats = json.loads((HELM / f"bbq_{model}_per_instance_stats.json").read_text())
    second = {**spec, "name": spec["name"].replace("subject=all", "subject=age")}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for run, entries in ((spec, stats), (second, stats[:120])):
            archive.writestr(f"runs/v4/{run['name']}/per_instance_stats.json", json.dumps(entries))
            archive.writestr(f"runs/v4/{run['name']}/run_spec.json", json.dumps(run))
    return buffer.getvalue()


def helm_exact_match(entries: list) -> dict[str, float]:
    """Each instance's unperturbed test exact_match, counted with json."""
    values = {}
    for entry in entries:
        for stat in entry["stats"]:
            name = stat["name"]
            if (name["name"], name.get("split"), name.get("perturbation")) == (
                "exact_match",
                "test",
                None,
            ):
                values[entry["instance_id"]] = stat["mean"]
    return values


def test_several_helm_runs_per_side_as_zips_give_a_row_per_run_and_the_models_names():
    at = open_logs()
    for key, model in zip(("logs_a", "logs_b"), HELM_MODELS, strict=True):
        at.file_uploader(key=key).set_value([(f"{model}.zip", helm_zip(model), "x")]).run()
    assert not at.exception, at.exception
    assert not at.error, at.error
    report = "\n".join(t.value for t in at.text)
    assert "meta/llama-3-8b-chat = " in report and "openai/gpt-4o-2024-05-13 = " in report
    table = next(f.value for f in at.dataframe if "task" in f.value.columns)
    stats = [
        json.loads((HELM / f"bbq_{m}_per_instance_stats.json").read_text()) for m in HELM_MODELS
    ]
    for task, cut in (("subject=all", None), ("subject=age", 120)):
        a, b = (helm_exact_match(s[:cut]) for s in stats)
        counts = Counter((a[i] == 1.0, b[i] == 1.0) for i in set(a) & set(b))
        row = table[table["task"].str.contains(task, regex=False)].iloc[0]
        shown = (row["both pass"], row["only A"], row["only B"], row["both fail"])
        expected = tuple(counts[k] for k in ((True, True), (True, False), (False, True)))
        assert shown == (*expected, counts[(False, False)])


def test_one_helm_run_with_its_spec_and_lm_eval_results_files_are_taken():
    at = open_logs()
    for key, model in zip(("logs_a", "logs_b"), HELM_MODELS, strict=True):
        given = [
            (name, (HELM / f"bbq_{model}_{name}").read_bytes(), "x")
            for name in ("per_instance_stats.json", "run_spec.json")
        ]
        at.file_uploader(key=key).set_value(given).run()
    assert not at.exception and not at.error, at.error
    assert "openai/gpt-4o-2024-05-13 = " in "\n".join(t.value for t in at.text)
    # lm-eval's results file beside the samples: accepted (the page's help asks for it).
    at = open_logs()
    for key, folder in zip(("logs_a", "logs_b"), DUMMY, strict=True):
        given = [(p.name, p.read_bytes(), "x") for p in sorted(folder.glob("*.json*"))]
        at.file_uploader(key=key).set_value(given).run()
    assert not at.exception and not at.error, at.error
    # A run spec alone is refused as such, not as "not a log".
    at = open_logs()
    spec = (HELM / f"bbq_{HELM_MODELS[0]}_run_spec.json").read_bytes()
    at.file_uploader(key="logs_a").set_value([("run_spec.json", spec, "x")]).run()
    at.file_uploader(key="logs_b").set_value(files(DUMMY[1])).run()
    assert any("run's summary" in e.value for e in at.error), at.error
