"""The flipped cases and their texts (calculator.flips), on the real logs of tests/data/evallogs,
the harness-made ones and small files written here.

Provenance of the expected values: each count is the paired table's own cell (b: only A
passes; c: only B passes) from the loader, and each text is read from the log with ``json``
here, by id, independently of the reader under test.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.cases import CaseFile, load_cases
from calculator.flips import cases_flips, log_flips
from calculator.flips.attach import read_log_flips, wanted_ids, with_texts
from calculator.flips.case_texts import case_file_texts
from calculator.flips.model import MAX_SCORE_FLIPS
from calculator.flips.table import CSV_COLUMNS, flips_csv
from calculator.logs import pair_logs, read_log

DATA = Path(__file__).parents[1] / "data" / "evallogs"
LM = sorted((DATA / "lm-eval").glob("output__*winogrande*.jsonl"))
HELM = DATA / "helm"
MOCK = DATA / "generated" / "inspect"


def _records(path: Path) -> dict[str, dict]:
    return {str(r["doc_id"]): r for r in map(json.loads, path.read_text().splitlines())}


def test_lm_eval_flips_are_the_tables_discordant_cells_with_each_documents_texts():
    a, b = LM[1], LM[0]  # gpt-4o, EXAONE
    paired = pair_logs(read_log(a), read_log(b))
    flips = read_log_flips(paired, (a, b))
    table = paired.tasks[0].cases.table
    assert (len(flips.regressions), len(flips.improvements)) == (table.b, table.c)
    assert flips.churn[0].regressions == table.b and flips.churn[0].improvements == table.c
    ra, rb = _records(a), _records(b)
    for flip in flips.flips:
        assert flip.texts == "read"
        assert flip.target == str(ra[flip.case]["target"])
        assert ra[flip.case]["doc"]["sentence"] in flip.prompt
        out_a = dict(flip.texts_a.outputs)
        assert out_a["resps"] == ra[flip.case]["resps"][0][0]
        assert dict(flip.texts_b.outputs)["resps"] == rb[flip.case]["resps"][0][0]
        passes = (ra[flip.case]["exact_match"], rb[flip.case]["exact_match"])
        assert passes == ((1.0, 0.0) if flip.direction == "regression" else (0.0, 1.0))


def test_inspect_flips_by_epoch_with_completion_and_explanation():
    a, b = MOCK / "mock-a-3epochs.eval", MOCK / "mock-b-3epochs.eval"
    paired = pair_logs(read_log(a), read_log(b))
    flips = read_log_flips(paired, (a, b))
    reference = json.loads((MOCK / "reference_scores.json").read_text())
    assert flips.flips and all(f.repeat in (1, 2, 3) for f in flips.flips)
    table = paired.tasks[0].cases.table
    assert (len(flips.regressions), len(flips.improvements)) == (table.b, table.c)
    assert reference  # the reference file is Inspect's own reading of the same logs
    for flip in flips.flips:
        assert flip.texts == "read"
        assert flip.prompt and flip.texts_a.outputs[0][0] == "completion"
        # the compared scorer's explanation first
        assert flip.texts_a.explanation.startswith(paired.task_metrics["mock_qa"].metric + ":")


def test_helm_stats_alone_give_ids_said_to_have_no_texts():
    a = HELM / "bbq_openai_gpt-4o-2024-05-13_per_instance_stats.json"
    b = HELM / "bbq_meta_llama-3-8b-chat_per_instance_stats.json"
    paired = pair_logs(read_log(a), read_log(b))
    flips = read_log_flips(paired, (a, b))
    assert len(flips.flips) == paired.tasks[0].cases.b + paired.tasks[0].cases.c
    assert {f.texts for f in flips.flips} == {"none_in_source"}


def _helm_run(folder: Path, model: str, correct: set[str], display: bool) -> Path:
    """A HELM run folder: run_spec, per_instance_stats, and scenario_state.json or the display
    files, as HELM writes them (benchmark_output/runs/<suite>/<run>/)."""
    run = folder / f"mmlu:subject=x,model={model}"
    run.mkdir(parents=True)
    ids = [f"id{k}" for k in range(6)]
    (run / "run_spec.json").write_text(
        json.dumps({"name": run.name, "adapter_spec": {"model": model}})
    )
    stats = [
        {
            "instance_id": i,
            "train_trial_index": 0,
            "stats": [
                {"name": {"name": "exact_match", "split": "test"}, "mean": float(i in correct)}
            ],
        }
        for i in ids
    ]
    (run / "per_instance_stats.json").write_text(json.dumps(stats))
    if display:
        predictions = [
            {"instance_id": i, "train_trial_index": 0, "predicted_text": f"{model} says {i}"}
            for i in ids
        ]
        requests = [
            {"instance_id": i, "train_trial_index": 0, "request": {"prompt": f"Prompt {i}"}}
            for i in ids
        ]
        (run / "display_predictions.json").write_text(json.dumps(predictions))
        (run / "display_requests.json").write_text(json.dumps(requests))
    else:
        states = [
            {
                "instance": {
                    "id": i,
                    "input": {"text": f"Question {i}"},
                    "references": [
                        {"output": {"text": "right"}, "tags": ["correct"]},
                        {"output": {"text": "wrong"}, "tags": []},
                    ],
                    "split": "test",
                },
                "train_trial_index": 0,
                "result": {"completions": [{"text": f"{model} answers {i}"}]},
            }
            for i in ids
        ]
        (run / "scenario_state.json").write_text(json.dumps({"request_states": states}))
    return run


@pytest.mark.parametrize("display", [False, True], ids=["scenario_state", "display_files"])
def test_helm_run_folder_texts(tmp_path, display):
    a = _helm_run(tmp_path / "a", "m_a", {"id0", "id1", "id2"}, display)
    b = _helm_run(tmp_path / "b", "m_b", {"id1", "id2", "id3", "id4"}, display)
    flips = read_log_flips(pair_logs(read_log(a), read_log(b)), (a, b))
    assert [f.case for f in flips.regressions] == ["id0"]
    assert [f.case for f in flips.improvements] == ["id3", "id4"]
    for flip in flips.flips:
        assert flip.texts == "read"
        label = "predicted_text" if display else "completion"
        verb = "says" if display else "answers"
        assert dict(flip.texts_a.outputs)[label] == f"m_a {verb} {flip.case}"
        assert dict(flip.texts_b.outputs)[label] == f"m_b {verb} {flip.case}"
        assert flip.prompt == (f"Prompt {flip.case}" if display else f"Question {flip.case}")
        assert flip.target == (None if display else "right")


def test_inspect_zip_reads_only_the_flipped_samples(tmp_path, monkeypatch):
    """The second pass parses the flipped samples' members only (their names say whose)."""
    import calculator.flips.log_texts as log_texts

    a, b = MOCK / "mock-a-3epochs.eval", MOCK / "mock-b-3epochs.eval"
    paired = pair_logs(read_log(a), read_log(b))
    flips = log_flips(paired)
    read: list[str] = []
    real = log_texts.read_member
    monkeypatch.setattr(
        log_texts,
        "read_member",
        lambda archive, info, *r: read.append(info.filename) or real(archive, info, *r),
    )
    log_texts.read_log_texts(a, "inspect", wanted_ids(flips))
    samples = [name for name in read if name.startswith("samples/")]
    with zipfile.ZipFile(a) as archive:
        members = [n for n in archive.namelist() if n.startswith("samples/")]
    assert set(samples) == {
        n for n in members if n[8:].rsplit("_epoch_", 1)[0] in {f.case for f in flips.flips}
    }
    assert len(samples) < len(members)


def _case_file(name: str, rows: dict[str, list]) -> CaseFile:
    import pandas as pd

    frame = pd.DataFrame(rows)
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    return CaseFile(name=name, format="csv", frame=frame)


def test_per_case_text_columns_shared_and_per_system():
    a = _case_file(
        "a.csv",
        {
            "id": ["1", "2", "3"],
            "ok": [1, 0, 1],
            "q": ["p1", "p2", "p3"],
            "out": ["oa1", "oa2", "oa3"],
        },
    )
    b = _case_file(
        "b.csv",
        {
            "id": ["1", "2", "3"],
            "ok": [0, 1, 1],
            "q": ["p1", "p2", "p3"],
            "out": ["ob1", "ob2", "ob3"],
        },
    )
    cases = load_cases(a, b, id_column="id", a_column="ok", b_column="ok")
    flips = cases_flips(cases)
    texts = case_file_texts(cases, ["q", "out"], {f.case for f in flips.flips})
    flips = with_texts(flips, *texts)
    assert [(f.case, f.direction) for f in flips.flips] == [
        ("1", "regression"),
        ("2", "improvement"),
    ]
    first = flips.flips[0]
    assert first.prompt == "p1"
    assert dict(first.texts_a.outputs) == {"out": "oa1"}
    assert dict(first.texts_b.outputs) == {"out": "ob1"}


def test_a_text_column_not_in_the_file_is_refused_naming_it():
    a = _case_file("a.csv", {"id": ["1"], "x": [1], "y": [0]})
    cases = load_cases(a, None, id_column="id", a_column="x", b_column="y")
    with pytest.raises(ValueError, match="no text column 'prompt'.*'id'"):
        case_file_texts(cases, ["prompt"], {"1"})


def test_scores_flips_are_the_largest_differences_both_ways():
    a = _case_file(
        "s.csv",
        {
            "id": list("abcdef"),
            "x": [0.9, 0.1, 0.5, 0.5, 0.2, 0.7],
            "y": [0.1, 0.8, 0.5, 0.4, 0.3, 0.2],
        },
    )
    from calculator.cases.scores_input import load_score_cases

    cases = load_score_cases(a, None, ("x", "y"), id_column="id")
    flips = cases_flips(cases, scores=True)
    assert [f.case for f in flips.regressions] == ["a", "f", "d"]  # 0.8, 0.5, 0.1
    assert [f.case for f in flips.improvements] == ["b", "e"]  # 0.7, 0.1
    assert flips.churn[0].regressions == 3 and flips.churn[0].improvements == 2
    assert flips.kept == MAX_SCORE_FLIPS


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60))
def test_flips_count_the_discordant_cells_in_the_cases_order(outcomes):
    ids = [f"c{k}" for k in range(len(outcomes))]
    frame = _case_file(
        "p.csv", {"id": ids, "x": [int(x) for x, _ in outcomes], "y": [int(y) for _, y in outcomes]}
    )
    cases = load_cases(frame, None, id_column="id", a_column="x", b_column="y")
    flips = cases_flips(cases)
    only_a = [i for i, (x, y) in zip(ids, outcomes, strict=True) if x and not y]
    only_b = [i for i, (x, y) in zip(ids, outcomes, strict=True) if y and not x]
    assert [f.case for f in flips.regressions] == only_a
    assert [f.case for f in flips.improvements] == only_b
    assert all((f.outcome_a, f.outcome_b) == (1.0, 0.0) for f in flips.regressions)


def test_csv_holds_every_flip_whole_and_escapes_formulas():
    a = _case_file(
        "a.csv",
        {
            "id": ["1", "2"],
            "x": [1, 0],
            "y": [0, 1],
            "q": ['=HYPERLINK("http://e","x")', "line one\nline two"],
        },
    )
    cases = load_cases(a, None, id_column="id", a_column="x", b_column="y")
    flips = cases_flips(cases)
    flips = with_texts(flips, *case_file_texts(cases, ["q"], {"1", "2"}))
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(flips_csv(flips))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert rows[0]["prompt"] == '\'=HYPERLINK("http://e","x")'
    assert rows[1]["prompt"] == "line one\nline two"
    assert [r["direction"] for r in rows] == ["regression", "improvement"]


def test_a_per_case_column_named_question_is_a_text_not_the_id():
    a = _case_file("a.csv", {"id": ["1", "2"], "x": [1, 0], "y": [0, 1], "question": ["q", "r"]})
    cases = load_cases(a, None, id_column="id", a_column="x", b_column="y")
    flips = cases_flips(cases)
    assert [(f.case, f.repeat) for f in flips.flips] == [("1", None), ("2", None)]


def test_a_damaged_scenario_state_leaves_those_flips_without_texts(tmp_path):
    a = _helm_run(tmp_path / "a", "m_a", {"id0", "id1"}, False)
    b = _helm_run(tmp_path / "b", "m_b", {"id1", "id2"}, False)
    (b / "scenario_state.json").write_text('{"request_states": [{"instance": [1, 2]}]}')
    flips = read_log_flips(pair_logs(read_log(a), read_log(b)), (a, b))
    assert [f.case for f in flips.flips] == ["id0", "id2"]
    assert all(f.texts == "read" and f.texts_b is None for f in flips.flips)  # A's are read
    (a / "scenario_state.json").write_text("{not json")
    flips = read_log_flips(pair_logs(read_log(a), read_log(b)), (a, b))
    assert {f.texts for f in flips.flips} == {"not_found"}
