"""calculator.logs on real and generated harness logs: each table checked against a count made
here with json and collections (tests/data/evallogs/SOURCES.md says where each file comes from).
"""

from __future__ import annotations

import itertools
import json
import shutil
import zipfile
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from calculator.clustered import clustered_mcnemar
from calculator.compare.multiplicity import adjust_pvalues
from calculator.logs import LogError, analyze_logs, log_format, pair_logs, read_log

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"
LM = LOGS / "lm-eval"
WINO_GPT4O = LM / "output__gpt-4o__samples_winogrande_2024-12-23T14-29-31.806745.jsonl"
WINO_SOLAR = next(LM.glob("output__upstage__SOLAR-10.7B-Instruct-v1.0__samples_winogrande_*"))
WMDP = LM / "model__gpt-3.5-turbo-0125_wmdp_bio.jsonl"
ASDIV = next(LM.glob("results__asdiv__*samples_asdiv_*.jsonl"))
ASDIV_COT = next(LM.glob("results__asdiv_cot__*samples_asdiv_*.jsonl"))
HELM_GPT = LOGS / "helm" / "bbq_openai_gpt-4o-2024-05-13_per_instance_stats.json"
HELM_LLAMA = LOGS / "helm" / "bbq_meta_llama-3-8b-chat_per_instance_stats.json"
GPQA = next((LOGS / "inspect").glob("*.eval"))
DUMMY1 = LOGS / "generated" / "lm-eval" / "dummy-seed1"
DUMMY2 = LOGS / "generated" / "lm-eval" / "dummy-seed2"
MOCK = LOGS / "generated" / "inspect"
REFERENCE = json.loads((MOCK / "reference_scores.json").read_text())


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def count_table(a: dict, b: dict) -> dict[str, int]:
    """Both pass, only A, only B, both fail over the keys both hold (values 0/1)."""
    cells = Counter((a[key] == 1, b[key] == 1) for key in a.keys() & b.keys())
    return {
        "a": cells[(True, True)],
        "b": cells[(True, False)],
        "c": cells[(False, True)],
        "d": cells[(False, False)],
    }


def table_of(task) -> dict[str, int]:
    t = task.paired.cases.table
    return {"a": t.a, "b": t.b, "c": t.c, "d": t.d}


# --- lm-eval -----------------------------------------------------------------------------------


def test_lm_eval_file_pairs_on_doc_id_with_the_count_made_here():
    result = analyze_logs(pair_logs(read_log(WINO_GPT4O), read_log(WINO_SOLAR)))
    a = {r["doc_id"]: r["exact_match"] for r in lines(WINO_GPT4O)}
    b = {r["doc_id"]: r["exact_match"] for r in lines(WINO_SOLAR)}
    (task,) = result.tasks
    assert task.task == "winogrande"
    assert table_of(task) == count_table(a, b)
    assert result.paired.metric.metric == "exact_match"
    assert result.paired.filter == "get-answer"


def test_lm_eval_old_layout_is_one_json_array():
    log = read_log(WMDP)
    records = json.loads(WMDP.read_text())
    assert log.format == "lm-eval" and log.metrics == ("exact_match",)
    assert len(log.frame) == len(records)
    values = Counter(r["exact_match"] for r in records)
    assert Counter(log.frame["value"].tolist()) == values


def test_lm_eval_doc_hash_agreeing_pairs_two_configurations():
    result = analyze_logs(pair_logs(read_log(ASDIV), read_log(ASDIV_COT)))
    a = {r["doc_id"]: r["acc"] for r in lines(ASDIV)}
    b = {r["doc_id"]: r["acc"] for r in lines(ASDIV_COT)}
    assert table_of(result.tasks[0]) == count_table(a, b)


def test_lm_eval_different_tasks_under_one_name_are_refused_by_doc_hash(tmp_path):
    # toy_mul's questions in a file named as toy_add's: same doc_ids, other documents.
    add = next(DUMMY1.glob("samples_toy_add_*"))
    mul = next(DUMMY2.glob("samples_toy_mul_*"))
    disguised = tmp_path / add.name
    shutil.copy(mul, disguised)
    with pytest.raises(LogError, match="different questions"):
        pair_logs(read_log(add), read_log(disguised))


def test_lm_eval_two_files_of_different_tasks_are_refused():
    add = next(DUMMY1.glob("samples_toy_add_*"))
    mul = next(DUMMY2.glob("samples_toy_mul_*"))
    with pytest.raises(LogError, match="task 'toy_add' and B task 'toy_mul'"):
        pair_logs(read_log(add), read_log(mul))


def test_lm_eval_results_folder_per_task_pooled_clustered_and_holm():
    result = analyze_logs(pair_logs(read_log(DUMMY1), read_log(DUMMY2)))
    expected = {}
    for task in ("toy_add", "toy_mul"):
        a = {r["doc_id"]: r["acc"] for r in lines(next(DUMMY1.glob(f"samples_{task}_*")))}
        b = {r["doc_id"]: r["acc"] for r in lines(next(DUMMY2.glob(f"samples_{task}_*")))}
        expected[task] = count_table(a, b)
    assert {t.task: table_of(t) for t in result.tasks} == expected
    pooled = result.pooled.table
    assert (pooled.a, pooled.b, pooled.c, pooled.d) == tuple(
        sum(e[k] for e in expected.values()) for k in "abcd"
    )
    by_task = clustered_mcnemar(
        [expected[t]["b"] for t in sorted(expected)], [expected[t]["c"] for t in sorted(expected)]
    )
    assert result.by_task.pvalue == pytest.approx(by_task.pvalue)
    holm = adjust_pvalues([t.analysis.exact.pvalue for t in result.tasks])
    assert [t.holm_pvalue for t in result.tasks] == pytest.approx(holm.tolist())
    # acc and acc_norm: acc is used (the task's first metric), acc_norm listed.
    assert result.paired.metric.metric == "acc"
    assert "acc_norm" in result.paired.metric.others
    assert "first pass/fail metric" in result.paired.metric.reason
    # toy_gen logs exact_match only: left out, and said.
    assert any("toy_gen" in note for note in result.paired.notes)


def test_lm_eval_several_filters_without_a_choice_use_the_task_first_filter_and_say_so():
    # Issue #32: it was refused ("choose one with --filter NAME"); each task now uses its own
    # first filter (lm-eval's filter_list order, strict-match in toy_gen.yaml), stated per task,
    # and --metric exact_match keeps its meaning for toy_gen only: the others use their own acc.
    paired = pair_logs(read_log(DUMMY1), read_log(DUMMY2), metric="exact_match")
    assert paired.task_filters == {"toy_add": "none", "toy_gen": "strict-match", "toy_mul": "none"}
    assert paired.filter_reasons["toy_gen"] == "the task's first filter"
    assert paired.filter_reasons["toy_add"] == "the task's only filter"
    by_task = paired.choices_by_task()
    assert by_task["toy_gen"]["metric"] == "exact_match"
    assert by_task["toy_gen"]["metric_reason"] == "the one asked for"
    assert by_task["toy_add"]["metric"] == by_task["toy_mul"]["metric"] == "acc"
    assert paired.metric.metric is None  # different metrics by task
    assert {t.task for t in paired.tasks} == {"toy_add", "toy_gen", "toy_mul"}


def test_lm_eval_filter_picks_the_rows_and_a_constant_metric_is_never_used(tmp_path):
    # The dummy model never answers toy_gen right: exact_match is 0 everywhere, no outcome.
    # (Both seeds wrote the same bytes, "lol" to every question: B's responses are retouched.)
    source = next(DUMMY1.glob("samples_toy_gen_*"))
    other = tmp_path / source.name
    other.write_text(source.read_text().replace('[["lol"]]', '[["lol!"]]'))
    gen = [read_log(source), read_log(other)]
    with pytest.raises(LogError, match="can be a pass/fail outcome.*metrics found: exact_match"):
        pair_logs(*gen, filter="strict-match")
    paired = pair_logs(*gen, filter="flexible-extract", metric="exact_match")
    (task,) = paired.tasks
    rows = [
        r
        for r in lines(next(DUMMY1.glob("samples_toy_gen_*")))
        if r["filter"] == "flexible-extract"
    ]
    assert task.cases.n == len(rows) and task.cases.table.d == len(rows)
    # The filter asked for is logged only by toy_gen, which acc_norm leaves out: refused by
    # name (statistics 4, C9), where toy_add and toy_mul were compared under "none" unsaid.
    with pytest.raises(LogError, match="'strict-match' applies to no task compared"):
        pair_logs(read_log(DUMMY1), read_log(DUMMY2), filter="strict-match", metric="acc_norm")
    paired = pair_logs(read_log(DUMMY1), read_log(DUMMY2), metric="acc_norm")
    assert paired.metric.reason == "the one asked for"
    assert {t.task for t in paired.tasks} == {"toy_add", "toy_mul"}


def test_lm_eval_duplicate_cases_are_refused_unless_allowed(tmp_path):
    doubled = tmp_path / WINO_GPT4O.name
    doubled.write_text(WINO_GPT4O.read_text() * 2)
    with pytest.raises(LogError, match="repeat a case"):
        pair_logs(read_log(doubled), read_log(WINO_SOLAR))
    paired = pair_logs(read_log(doubled), read_log(WINO_SOLAR), allow_exclusions=True)
    assert paired.tasks[0].cases.excluded["duplicate_id"] == 20  # every copy of the 10 ids


def test_lm_eval_unpaired_share_over_the_limit_is_refused_unless_allowed():
    data = LOGS.parent
    a, b = data / "samples_gsm8k_model_a.jsonl", data / "samples_gsm8k_model_b.jsonl"
    with pytest.raises(LogError, match=r"2 of A's 8 rows \(25.0%\).*--allow-exclusions"):
        pair_logs(read_log(a), read_log(b))
    paired = pair_logs(read_log(a), read_log(b), allow_exclusions=True)
    left = {r["doc_id"]: r["exact_match"] for r in lines(a)}
    right = {r["doc_id"]: r["exact_match"] for r in lines(b)}
    assert table_of(analyze_logs(paired).tasks[0]) == count_table(left, right)


def test_the_same_log_twice_is_refused():
    with pytest.raises(LogError, match="same log"):
        pair_logs(read_log(WINO_GPT4O), read_log(WINO_GPT4O))


# --- HELM --------------------------------------------------------------------------------------


def helm_values(path: Path, stat: str) -> dict:
    values = {}
    for instance in json.loads(path.read_text()):
        for s in instance["stats"]:
            name = s["name"]
            if name["name"] == stat and name.get("split") == "test" and "perturbation" not in name:
                values[(instance["instance_id"], instance["train_trial_index"])] = s["mean"]
    return values


def test_helm_stats_use_exact_match_and_never_a_bookkeeping_stat():
    result = analyze_logs(pair_logs(read_log(HELM_GPT), read_log(HELM_LLAMA)))
    expected = count_table(
        helm_values(HELM_GPT, "exact_match"), helm_values(HELM_LLAMA, "exact_match")
    )
    assert table_of(result.tasks[0]) == expected
    assert result.paired.metric.metric == "exact_match"
    assert "quasi_exact_match" in result.paired.metric.others
    assert not any(m.startswith(("num_", "finish_reason")) for m in result.paired.metric.others)


def test_helm_run_folder_names_the_task_and_the_model(tmp_path):
    folders = []
    for path in (HELM_GPT, HELM_LLAMA):
        spec = json.loads(
            path.with_name(path.name.replace("per_instance_stats", "run_spec")).read_text()
        )
        folder = tmp_path / spec["name"].replace(":", "_")
        folder.mkdir()
        shutil.copy(path, folder / "per_instance_stats.json")
        (folder / "run_spec.json").write_text(json.dumps(spec))
        folders.append((folder, spec))
    logs = [read_log(folder) for folder, _ in folders]
    assert logs[0].system == folders[0][1]["adapter_spec"]["model"]
    assert logs[0].tasks == ("bbq:subject=all,method=multiple_choice_joint",)
    result = analyze_logs(pair_logs(*logs))
    assert result.paired.names == (logs[0].system, logs[1].system)
    assert table_of(result.tasks[0]) == count_table(
        helm_values(HELM_GPT, "exact_match"), helm_values(HELM_LLAMA, "exact_match")
    )


def test_helm_scores_without_a_threshold_say_the_values_seen():
    with pytest.raises(LogError, match=r"'logprob'.*values -.*--threshold X"):
        pair_logs(read_log(HELM_GPT), read_log(HELM_LLAMA), metric="logprob")


# --- Inspect -----------------------------------------------------------------------------------


def test_inspect_deflate_eval_against_the_zip_read_here():
    with zipfile.ZipFile(GPQA) as archive:
        samples = [
            json.loads(archive.read(n)) for n in archive.namelist() if n.startswith("samples/")
        ]
    expected = Counter(
        ({"C": 1.0, "I": 0.0}[s["scores"]["choice"]["value"]], s["epoch"]) for s in samples
    )
    log = read_log(GPQA)
    assert log.format == "inspect" and log.system == "openai/gpt-4o"
    assert Counter(zip(log.frame["value"], log.frame["repeat"], strict=True)) == expected


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_inspect_generated_logs_equal_inspects_own_reader(name):
    log = read_log(MOCK / name)
    ours = {(r.case, r.repeat, r.metric): r.value for r in log.frame.itertuples()}
    theirs = {
        (s["id"], s["epoch"], scorer): value
        for s in REFERENCE[name]
        for scorer, value in s["as_float"].items()
    }
    assert ours == theirs
    assert log.metrics == ("match", "includes", "graded")


def reference_values(name: str, scorer: str) -> dict:
    return {(s["id"], s["epoch"]): s["as_float"][scorer] for s in REFERENCE[name]}


def test_inspect_epochs_are_paired_by_question_and_epoch_clustered_by_question():
    a_name, b_name = "mock-a-3epochs.eval", "mock-b-3epochs.eval"
    result = analyze_logs(pair_logs(read_log(MOCK / a_name), read_log(MOCK / b_name)))
    a, b = reference_values(a_name, "match"), reference_values(b_name, "match")
    (task,) = result.tasks
    assert task.paired.repeats
    assert table_of(task) == count_table(a, b)
    b_i, c_i = Counter(), Counter()
    for key in a:
        b_i[key[0]] += a[key] == 1 and b[key] == 0
        c_i[key[0]] += a[key] == 0 and b[key] == 1
    questions = sorted({key[0] for key in a})
    expected = clustered_mcnemar([b_i[q] for q in questions], [c_i[q] for q in questions])
    assert task.by_question.pvalue == pytest.approx(expected.pvalue)
    # The task's p is the clustered test's held at the exact sign-flip test of the leans
    # (statistics review 4, A1), which brute force over the 2^10 sign patterns gives here; the
    # old code reported the chi-square p, 0.808, below the exact one.
    leans = [b_i[q] - c_i[q] for q in questions]
    extreme = sum(
        abs(sum(d if k >> j & 1 else -d for j, d in enumerate(leans))) >= abs(sum(leans))
        for k in range(1 << len(leans))
    )
    exact = extreme / (1 << len(leans))
    assert task.by_question_exact.pvalue == pytest.approx(exact)
    assert task.pvalue == pytest.approx(max(exact, expected.pvalue))
    assert task.test == ("clustered-held" if exact > expected.pvalue else "clustered")
    assert task.shares is not None and task.shares.units == 10


def test_inspect_three_epochs_against_one_compare_pass_shares_by_question():
    a_name, b_name = "mock-a-3epochs.eval", "mock-b-1epoch.json"
    result = analyze_logs(pair_logs(read_log(MOCK / a_name), read_log(MOCK / b_name)))
    a, b = reference_values(a_name, "match"), reference_values(b_name, "match")
    (task,) = result.tasks
    assert task.paired.repeats_unpaired == (20, 0)  # epochs 2 and 3 of A: shares only
    assert table_of(task) == count_table({k: v for k, v in a.items() if k[1] == 1}, b)
    share_a = Counter()
    for (question, _), value in a.items():
        share_a[question] += value / 3
    differences = [share_a[q] - b[(q, 1)] for q in sorted(share_a)]
    assert task.shares.statistic == pytest.approx(sum(differences) / len(differences))
    # 3 repeats against 1: the sign flip of the share differences is not exact (statistics
    # review 4, B1), so the test permutes the labels of each question's 4 samples. Reference:
    # every one of the 4^10 ways to choose A's 3 samples of each question, counted exactly.
    assert task.shares.method == "exact-label-permutation"
    ways = Counter({Fraction(0): 1})
    for question in sorted(share_a):
        samples = [a[(question, e)] == 1 for e in (1, 2, 3)] + [b[(question, 1)] == 1]
        step = Counter()
        for chosen in itertools.combinations(range(4), 3):
            passed_a = sum(samples[j] for j in chosen)
            step[Fraction(passed_a, 3) - (sum(samples) - passed_a)] += 1
        after = Counter()
        for (total, n), (d, m) in itertools.product(ways.items(), step.items()):
            after[total + d] += n * m
        ways = after
    observed = abs(sum(Fraction(d).limit_denominator(3) for d in differences))
    extreme = sum(n for s, n in ways.items() if abs(s) >= observed)
    assert task.shares.pvalue == pytest.approx(extreme / 4**10, rel=1e-12)


def test_inspect_partial_credit_is_a_score_not_a_pass():
    a, b = read_log(MOCK / "mock-a-3epochs.eval"), read_log(MOCK / "mock-b-3epochs.eval")
    with pytest.raises(LogError, match="mixes 0/1 with other values.*partial credit"):
        pair_logs(a, b, metric="graded")
    paired = pair_logs(a, b, metric="graded", threshold=0.5)
    ref_a = reference_values("mock-a-3epochs.eval", "graded")
    ref_b = reference_values("mock-b-3epochs.eval", "graded")
    passed = lambda values: {k: float(v >= 0.5) for k, v in values.items()}  # noqa: E731
    assert table_of(analyze_logs(paired).tasks[0]) == count_table(passed(ref_a), passed(ref_b))


# --- recognised by content; near misses ----------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "kind"),
    [(WINO_GPT4O, "lm-eval"), (WMDP, "lm-eval"), (HELM_GPT, "helm"), (GPQA, "inspect")],
)
def test_formats_are_recognised_by_content_whatever_the_name(tmp_path, source, kind):
    renamed = tmp_path / "results.dat"
    shutil.copy(source, renamed)
    assert log_format(renamed) == kind


def test_a_json_document_given_as_json_lines_is_named(tmp_path):
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps({"model": "x", "scores": [1, 0]}, indent=2))
    with pytest.raises(LogError, match="one JSON document .*not JSON Lines"):
        log_format(path)


def test_lm_eval_results_file_points_to_the_samples_files():
    results = next(LM.glob("*results_*.json"))
    with pytest.raises(LogError, match="samples_<task>_<time>.jsonl"):
        read_log(results)


def test_a_folder_without_logs_says_what_it_holds(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(LogError, match="a folder without an evaluation log.*notes.txt"):
        read_log(tmp_path)


def test_a_zip_that_is_not_an_inspect_log_is_named(tmp_path):
    path = tmp_path / "book.eval"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data.csv", "id,a\n1,1\n")
    with pytest.raises(LogError, match="not an Inspect .eval log"):
        log_format(path)


def test_a_folder_mixing_two_harnesses_is_refused(tmp_path):
    shutil.copy(WINO_GPT4O, tmp_path / WINO_GPT4O.name)
    shutil.copy(GPQA, tmp_path / GPQA.name)
    with pytest.raises(LogError, match="several harnesses"):
        read_log(tmp_path)


def test_a_folder_with_one_task_twice_is_refused():
    with pytest.raises(LogError, match="both hold lm-eval task 'winogrande'"):
        read_log(LM)


def test_an_eval_log_given_to_the_per_case_reader_is_named():
    from calculator.cases import CaseFileError, read_case_file

    with pytest.raises(CaseFileError, match="an Inspect evaluation log .*calculator.logs.read_log"):
        read_case_file(MOCK / "mock-a-3epochs.eval")


def test_helm_keeps_the_unperturbed_test_split_only(tmp_path):
    def stat(name, mean, split="test", perturbation=None):
        label = {"name": name, "split": split}
        if perturbation:
            label["perturbation"] = {"name": perturbation}
        return {"name": label, "count": 1, "sum": mean, "mean": mean}

    def run(values):
        return [
            {
                "instance_id": f"id{k}",
                "train_trial_index": 0,
                "stats": [
                    stat("exact_match", v),
                    stat("exact_match", 1 - v, perturbation="typos"),
                    stat("exact_match", 1.0, split="valid"),
                    stat("num_references", 1.0),
                ],
            }
            for k, v in enumerate(values)
        ]

    a_values, b_values = [1, 1, 0, 1, 0, 0, 1, 1], [1, 0, 0, 1, 1, 0, 0, 1]
    paths = []
    for label, values in (("a", a_values), ("b", b_values)):
        path = tmp_path / f"{label}.json"
        path.write_text(json.dumps(run(values)))
        paths.append(path)
    logs = [read_log(path) for path in paths]
    for log, label in zip(logs, "ab", strict=True):
        assert log.notes == (
            f"{label}.json: HELM's per-instance stats do not name their run and no run_spec.json "
            f"was read with them, so the task is named after the file: {label!r}",
            "8 stats of perturbed instances left aside",
        )
    paired = pair_logs(*logs)
    a = {k: v for k, v in enumerate(a_values)}
    b = {k: v for k, v in enumerate(b_values)}
    assert table_of(analyze_logs(paired).tasks[0]) == count_table(a, b)
    valid = read_log(paths[0], split="valid")
    assert set(valid.frame["metric"]) == {"exact_match"} and set(valid.frame["value"]) == {1.0}


def test_hostile_logs_are_refused_with_a_message(tmp_path):
    # A cut-short lm-eval file (an interrupted run): the unreadable lines are counted.
    cut = tmp_path / WINO_GPT4O.name
    cut.write_text(WINO_GPT4O.read_text()[:-200])
    with pytest.raises(LogError, match="1 line not JSON.*cut short"):
        read_log(cut)
    # An Inspect JSON log whose epoch is not a whole number.
    document = json.loads((MOCK / "mock-b-1epoch.json").read_text())
    document["samples"][0]["epoch"] = "first"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    with pytest.raises(LogError, match="repeat number 'first' is not a whole number"):
        read_log(bad)
    # A HELM list whose stats hold no test split.
    helm = tmp_path / "stats.json"
    helm.write_text(
        json.dumps(
            [{"instance_id": "i1", "stats": [{"name": {"name": "x", "split": "valid"}, "mean": 1}]}]
        )
    )
    with pytest.raises(
        LogError, match="no unperturbed stat of the 'test' split \\(splits logged: valid\\)"
    ):
        read_log(helm)


def test_uploaded_bytes_several_files_per_system():
    from calculator.logs import read_log_data

    def files(folder):
        return [(p.name, p.read_bytes()) for p in sorted(folder.glob("samples_*"))]

    a, b = read_log_data(files(DUMMY1), system="one"), read_log_data(files(DUMMY2), system="two")
    from_bytes = analyze_logs(pair_logs(a, b))
    from_folders = analyze_logs(pair_logs(read_log(DUMMY1), read_log(DUMMY2)))
    assert [table_of(t) for t in from_bytes.tasks] == [table_of(t) for t in from_folders.tasks]
    assert from_bytes.paired.names == ("one", "two")
    with pytest.raises(LogError, match="several harnesses"):
        read_log_data([*files(DUMMY1), (GPQA.name, GPQA.read_bytes())])
    with pytest.raises(LogError, match="notes.csv: not an evaluation log"):
        read_log_data([("notes.csv", b"id,a\n1,1\n")])


def test_helm_runs_of_two_models_in_one_folder_are_refused(tmp_path):
    for path in (HELM_GPT, HELM_LLAMA):
        spec = json.loads(
            path.with_name(path.name.replace("per_instance_stats", "run_spec")).read_text()
        )
        folder = tmp_path / spec["name"].replace(":", "_")
        folder.mkdir()
        shutil.copy(path, folder / "per_instance_stats.json")
        (folder / "run_spec.json").write_text(json.dumps(spec))
    with pytest.raises(LogError, match="several models"):
        read_log(tmp_path)
