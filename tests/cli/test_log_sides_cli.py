"""``cases A B`` choosing what each side is: ``--models`` (a folder of several models' runs: a
HELM suite folder, given as both sides) and ``--names`` (two logs of one model name), on the
real HELM BBQ runs laid out as HELM writes a suite, and on Inspect eval-set folders written by
``inspect_ai.eval_set`` (``docs/evallog-recipes/make_inspect_evalset.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shape_writers import helm_suite

from calculator.cli import main

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"
HELM = LOGS / "helm"
EVALSET = LOGS / "generated" / "inspect"
MODELS = ("openai/gpt-4o-2024-05-13", "meta/llama-3-8b-chat")


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cases", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def suite(tmp_path) -> Path:
    """``runs/v4/<run name>/{run_spec,per_instance_stats}.json`` for both BBQ models."""
    return helm_suite(tmp_path, HELM)


def helm_values(model: str) -> dict[str, float]:
    """Each test instance's exact_match, counted with json from the run's stats file."""
    stem = model.split("/")[0] + "_" + model.split("/")[1]
    found = {}
    for instance in json.loads((HELM / f"bbq_{stem}_per_instance_stats.json").read_text()):
        for stat in instance["stats"]:
            name = stat["name"]
            test = name["split"] == "test" and name.get("perturbation") is None
            if name["name"] == "exact_match" and test:
                found[instance["instance_id"]] = stat["mean"]
    return found


def test_a_suite_folder_given_twice_with_models(suite, capsys):
    status, out, err = run_cli(
        capsys, suite, suite, "--models", ",".join(MODELS), "--metric", "exact_match", "--json"
    )
    assert status == 0, err
    document = json.loads(out)
    a, b = (helm_values(model) for model in MODELS)
    table = document["table"]
    assert table["b"] == sum(a[i] == 1 and b[i] != 1 for i in a)
    assert table["c"] == sum(a[i] != 1 and b[i] == 1 for i in a)
    assert table["n"] == len(a) == len(b)
    assert document["input"]["names"] == list(MODELS)


def test_a_suite_folder_without_models_names_them_and_the_option(suite, capsys):
    status, out, err = run_cli(capsys, suite, suite)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "several models (meta/llama-3-8b-chat, openai/gpt-4o-2024-05-13)" in err
    assert "--models meta/llama-3-8b-chat,openai/gpt-4o-2024-05-13" in err


def test_a_model_the_folder_lacks_is_refused_naming_those_held(suite, capsys):
    status, out, err = run_cli(
        capsys, suite, suite, "--models", "openai/gpt-5,meta/llama-3-8b-chat"
    )
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "no run of model 'openai/gpt-5'" in err and "meta/llama-3-8b-chat" in err


def test_eval_set_folders_of_one_model_name_take_the_names_given(capsys):
    a, b = EVALSET / "evalset-a", EVALSET / "evalset-b"
    status, out, err = run_cli(capsys, a, b, "--json", "--names", "mock A,mock B")
    assert status == 0, err
    document = json.loads(out)
    assert document["input"]["names"] == ["mock A", "mock B"]
    assert sorted(task["task"] for task in document["tasks"]) == ["arith", "capitals"]
    status, out, _ = run_cli(capsys, a, b, "--names", "mock A,mock B")
    assert "\nA passes" not in out and "\nmock A passes 14 of 16 cases" in out


@pytest.mark.parametrize(
    "value, why",
    [("solo", "'solo'"), ("x,x", "the two are the same"), ("a,,b", "'a,,b'"), (",b", "',b'")],
)
def test_a_malformed_names_value_is_one_line(capsys, value, why):
    status, out, err = run_cli(
        capsys, EVALSET / "evalset-a", EVALSET / "evalset-b", "--names", value
    )
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "--names takes two names" in err and why in err


def test_names_are_refused_for_per_case_files(tmp_path, capsys):
    (tmp_path / "a.csv").write_text("id,x\n1,1\n2,0\n")
    (tmp_path / "b.csv").write_text("id,x\n1,0\n2,0\n")
    status, _, err = run_cli(
        capsys, tmp_path / "a.csv", tmp_path / "b.csv", "--names", "p,q", "--id", "id"
    )
    assert status == 2 and "--names applies to evaluation-harness logs" in err
